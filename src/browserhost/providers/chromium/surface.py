"""The chromium provider's surface: a live picture of one session's page, and a person's hands
on it.

::

    ChromiumSurface            one per provider; shows one Tab's current page
      which page   the session the agent acted on last (ChromiumProvider tells it), or the one
                   the viewer pinned with show(); its current page, wherever that moves
      frame()      CDP Page.startScreencast on that page (JPEG), latest picture only; started
                   by the first frame request, stopped once nobody asked for IDLE_STOP_S
      still()      the screencast's picture while it runs, else one CDP screenshot
      input()      CDP Input.dispatchMouseEvent / dispatchKeyEvent / insertText on that page
                   (as :mod:`.surface_input` translates the person's events)
      resize()     a custom viewport on the session (Tab.set_custom_size)
      clipboard()  the text selected on that page, read right after the copy chord

A runner task owns the screencast: it moves it to whatever page should be shown (a pinned
session, a popup that became current, the page that replaced a crashed one, a new size) and
stops it when nobody watches, so an unwatched browser costs nothing.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from browserhost.contract import Context
from browserhost.contract.surface import (
    FRAME_MAX_BYTES,
    TEXT_MAX,
    TITLE_MAX,
    Controller,
    Frame,
    Size,
    Surface,
    SurfaceSession,
)

from . import devtools, driver
from .contexts import ContextPool
from .futures import retrieve_exception
from .surface_input import DeviceEvent, InputTranslator
from .tab import Key, Tab

if TYPE_CHECKING:
    from playwright.async_api import CDPSession, Page

JPEG_QUALITY: Final = 75
"""Screencast JPEG quality: text stays readable, and a 1280x800 frame is ~50-150 KB."""
IDLE_STOP_S: Final = 5.0
"""The screencast stops once nobody asked for a frame for this long."""
POLL_S: Final = 0.25
"""How often the runner checks that it shows the right page, and reads the title again."""
FIRST_FRAME_S: Final = 1.0
"""How long a new screencast may take to send its first frame before a screenshot stands in."""
FIRST_PICTURE_S: Final = 3.0
"""How long ``frame(after=0)`` waits for the first picture, whatever ``wait_s`` says."""
CDP_S: Final = 2.0
"""A bound on any one DevTools call: a page stuck in a loop, or held by a dialog, does not
handle input or paint, and must not hold the surface."""
INPUT_S: Final = 10.0
"""A bound on one input event of a person's: longer than :data:`CDP_S`, since a page that is
busy, or a loaded machine, takes seconds to handle a key, and the events past a timeout are
dropped; a page stuck in a loop holds only that person's next events, which it could not
handle anyway."""
RESIZE_WAIT_S: Final = 3.0
"""How long a resize waits for an agent action on the session to finish (see :meth:`resize`)."""
SESSION_ID_MAX: Final = 1_000

SELECTION_SCRIPT: Final = """() => {
  let doc = document;
  let active = doc.activeElement;
  for (;;) {
    while (active && active.shadowRoot && active.shadowRoot.activeElement) {
      active = active.shadowRoot.activeElement;
    }
    if (!active || (active.tagName !== "IFRAME" && active.tagName !== "FRAME")) break;
    let inner = null;
    try { inner = active.contentDocument; } catch (error) { inner = null; }
    if (!inner) break;
    doc = inner;
    active = inner.activeElement;
  }
  if (active && typeof active.selectionStart === "number" && typeof active.value === "string") {
    // A browser never copies out of a password field; neither does the surface.
    if (active.type === "password") return "";
    if (active.selectionEnd > active.selectionStart) {
      return active.value.slice(active.selectionStart, active.selectionEnd);
    }
  }
  const selection = (doc.defaultView || window).getSelection();
  return selection ? selection.toString() : "";
}"""


def session_id(key: Key) -> str:
    """A stable id for a context key: the key as JSON, or a digest of it when that is long."""
    spelled = json.dumps(list(key), separators=(",", ":"), ensure_ascii=False)
    if len(spelled) <= SESSION_ID_MAX:
        return spelled
    return "sha256:" + hashlib.sha256(spelled.encode()).hexdigest()


def jpeg_size(jpeg: bytes) -> tuple[int, int]:
    """Width and height from a JPEG's frame header (SOFn)."""
    at = 2
    while at + 9 <= len(jpeg):
        if jpeg[at] != 0xFF:
            break
        marker = jpeg[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD8:  # markers without a length
            at += 2
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height = int.from_bytes(jpeg[at + 5 : at + 7], "big")
            width = int.from_bytes(jpeg[at + 7 : at + 9], "big")
            return width, height
        at += 2 + int.from_bytes(jpeg[at + 2 : at + 4], "big")
    raise ValueError("not a JPEG with a frame header")


class ChromiumSurface(Surface):
    """The surface of a :class:`~.provider.ChromiumProvider` (see the module docstring)."""

    def __init__(
        self,
        pool: ContextPool,
        *,
        idle_stop_s: float = IDLE_STOP_S,
        quality: int = JPEG_QUALITY,
    ) -> None:
        self._pool = pool
        self._idle_stop_s = idle_stop_s
        self._quality = quality
        self.controller: Controller = "none"
        """Who holds control, as the host last said (advisory)."""
        self._followed: Key | None = None
        self._pinned: Key | None = None
        self._seq = 0
        self._latest: Frame | None = None
        self._scale = (1.0, 1.0)  # CSS pixels per frame pixel of the latest picture
        self._published = asyncio.Event()
        self._wake = asyncio.Event()
        self._asked = 0.0
        self._waiting = 0
        self._runner: asyncio.Task[None] | None = None
        self._tab: Tab | None = None
        self._page: Page | None = None
        self._session: CDPSession | None = None
        self._cast_size: object = None  # the page's viewport when the screencast started
        self._got_frame = asyncio.Event()
        self._title = ""
        self._input_session: tuple[Page, CDPSession] | None = None
        self._input = InputTranslator()

    @property
    def casting(self) -> bool:
        """Whether a screencast runs (someone asked for a frame within the idle time)."""
        return self._session is not None

    def acted(self, key: Key) -> None:
        """The agent is acting on ``key``: the picture follows it unless a session is pinned.
        Called at the start of every action, so it only notes the key."""
        if key != self._followed:
            self._followed = key
            self._wake.set()

    async def frame(self, after: int, wait_s: float) -> Frame | None:
        loop = asyncio.get_running_loop()
        self._asked = loop.time()
        self._start_runner()
        if after > self._seq:
            after = 0  # numbered by an earlier run of this provider: start again
        bound = wait_s
        if after == 0 and self._shown() is not None:
            bound = max(wait_s, FIRST_PICTURE_S)  # the first picture is on its way
        deadline = loop.time() + bound
        self._waiting += 1
        try:
            while (latest := self._latest) is None or latest.seq <= after:
                published = self._published
                left = deadline - loop.time()
                if left <= 0:
                    return None
                try:
                    async with asyncio.timeout(left):
                        await published.wait()
                except TimeoutError:
                    return None
        finally:
            self._waiting -= 1
            self._asked = loop.time()
        tab = self._tab
        return replace(latest, agent_active=True) if tab is not None and tab.acting else latest

    async def still(self, box: tuple[int, int], wait_s: float, paint_s: float) -> Frame | None:
        """The screencast's picture while it runs (someone watches); else one screenshot of
        the shown page, drawn by Chromium at ``box``'s size, so that a recording of an
        unwatched agent starts no stream (a screencast runs on for :data:`IDLE_STOP_S`,
        encoding every paint of the next actions) and holds no full-size picture."""
        if self.casting:
            return await super().still(box, wait_s, paint_s)
        tab = self._shown()
        page = None if tab is None else tab.current()
        if page is None or page.is_closed():
            return None
        async with asyncio.timeout(min(wait_s, CDP_S)):
            session = await devtools.session(page)
            # What the person would see: the visual viewport, at its place in the document.
            view = (await session.send("Page.getLayoutMetrics"))["cssVisualViewport"]
            width, height = float(view["clientWidth"]), float(view["clientHeight"])
            if width <= 0 or height <= 0:
                return None
            scale = min(1.0, box[0] / width, box[1] / height)
            clip = {"x": view["pageX"], "y": view["pageY"], "width": width, "height": height}
            shot = await session.send(
                "Page.captureScreenshot",
                {"format": "jpeg", "quality": self._quality, "clip": {**clip, "scale": scale}},
            )
        jpeg = base64.b64decode(shot["data"])
        width_px, height_px = jpeg_size(jpeg)
        return Frame(
            seq=max(self._seq, 1), data=jpeg, mime="image/jpeg", width=width_px, height=height_px
        )

    async def input(self, events: list[DeviceEvent]) -> None:
        """Do the events on the shown page, through DevTools.

        Input does not take the session's action lock. The host sends input only while the
        person holds control, and then refuses agent actions before sending them; what may
        still run is an action that started earlier, and waiting for it (up to its whole
        settle time, or forever for a stuck click handler) would freeze the person's hands
        just when they took over to help. Each CDP input event is delivered whole and in
        order by the renderer's input queue, so nothing interleaves below an event.
        """
        tab = self._shown()
        page = None if tab is None else tab.current()
        if tab is None or page is None or page.is_closed():
            return
        self._pool.touch(tab)  # a session a person is using is not idle
        if not tab.acting:
            # A window the page opens now is the person's doing: show it, to them and to the
            # agent's next action, as the agent's own click would.
            tab.welcome_popups = True
        scale_x, scale_y = self._scale if page is self._page else (1.0, 1.0)
        try:
            session = await self._session_for(tab, page)
            for event in events:
                params = self._input.params(event, scale_x, scale_y)
                async with asyncio.timeout(INPUT_S):
                    await session.send(params.pop("method"), params)
        except (driver.PlaywrightError, TimeoutError):
            # The page closed, crashed or stopped answering under the person's hands: the rest
            # of the batch is dropped, and the picture shows what happened.
            return
        finally:
            self._wake.set()  # a click may have opened a window to show now

    async def control(self, controller: Controller) -> None:
        """A person who hands back (or leaves) takes their picture size with them: each
        session the viewer resized goes back to the viewport the agent chose."""
        self.controller = controller
        if controller == "user":
            return
        for tab in self._pool.tabs():
            if tab.custom_size is None or tab.closed:
                continue
            try:
                async with asyncio.timeout(RESIZE_WAIT_S):
                    async with tab.lock:
                        if tab.custom_size is not None and not tab.closed:
                            await tab.set_viewport(tab.viewport_mode)
            except (driver.PlaywrightError, TimeoutError):
                continue  # it keeps the person's size until the agent chooses one
        self._wake.set()

    async def resize(self, size: Size) -> Size | None:
        """Give the shown session a custom viewport of ``size`` (see
        :meth:`~.tab.Tab.set_custom_size`).

        Unlike input, a resize waits (briefly) for a running agent action: it moves what is
        on the page, and an action that aimed at a point before the change would act on
        something else. When the action goes on past :data:`RESIZE_WAIT_S`, the page keeps its
        size and the answer is ``None``.
        """
        tab = self._shown()
        if tab is None:
            return None
        try:
            async with asyncio.timeout(RESIZE_WAIT_S):
                await tab.lock.acquire()
        except TimeoutError:
            return None
        try:
            if tab.closed:
                return None
            async with asyncio.timeout(CDP_S):
                page = await tab.set_custom_size(size.width, size.height)
            settled = page.viewport_size
        except (driver.PlaywrightError, TimeoutError):
            return None
        finally:
            tab.lock.release()
        self._wake.set()
        if settled is None:
            return None
        return Size(width=settled["width"], height=settled["height"])

    async def clipboard(self) -> str:

        tab = self._shown()
        page = None if tab is None else tab.current()
        if page is None or page.is_closed():
            return ""
        try:
            async with asyncio.timeout(CDP_S):
                text = await page.evaluate(SELECTION_SCRIPT)
        except (driver.PlaywrightError, TimeoutError):
            return ""
        return text[:TEXT_MAX] if isinstance(text, str) else ""

    async def sessions(self) -> list[SurfaceSession]:
        shown = self._shown()
        listed = []
        for tab in self._pool.tabs():
            page = tab.current()
            live = page is not None and not page.is_closed()
            listed.append(
                SurfaceSession(
                    id=session_id(tab.key),
                    url=page.url if page is not None and live else "about:blank",
                    title=await _title(page) if page is not None and live else "",
                    shown=tab is shown,
                    context=Context(directory=tab.key[0], session_id=tab.key[1]),
                )
            )
        return listed

    async def show(self, session_id: str | None) -> None:
        """Pin the session with that id (an id no live session has changes nothing), or
        follow the agent again for ``None``."""
        if session_id is None:
            self._pinned = None
        else:
            pinned = next((tab for tab in self._pool.tabs() if _id(tab) == session_id), None)
            if pinned is None:
                return
            self._pinned = pinned.key
        self._wake.set()

    async def aclose(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await runner
        await self._drop_input_session()

    def _shown(self) -> Tab | None:
        """The pinned session's tab, else the followed one's, else the latest used."""
        for key in (self._pinned, self._followed):
            tab = None if key is None else self._pool.peek(key)
            if tab is not None and not tab.closed:
                return tab
        tabs = [tab for tab in self._pool.tabs() if not tab.closed]
        return max(tabs, key=lambda tab: tab.last_used) if tabs else None

    def _start_runner(self) -> None:
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run())
            self._runner.add_done_callback(retrieve_exception)

    async def _run(self) -> None:

        loop = asyncio.get_running_loop()
        try:
            while self._waiting or loop.time() - self._asked < self._idle_stop_s:
                self._wake.clear()
                try:
                    await self._follow()
                except (driver.PlaywrightError, TimeoutError):
                    await self._stop()  # the page went away midway: start again next round
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(POLL_S):
                        await self._wake.wait()
        finally:
            await self._stop()
            self._latest = None  # stale by the time anyone asks again

    async def _follow(self) -> None:
        """Cast the page that should be shown, moving the screencast when that changed."""
        tab = self._shown()
        page = None if tab is None else tab.current()
        if page is not None and page.is_closed():
            page = None
        if page is not self._page or (page is not None and page.viewport_size != self._cast_size):
            await self._stop()
            if tab is not None and page is not None:
                await self._cast(tab, page)
            return
        if self._session is not None:
            async with asyncio.timeout(CDP_S):
                info = await self._session.send("Target.getTargetInfo")
            title = str(info["targetInfo"].get("title", ""))[:TITLE_MAX]
            latest = self._latest
            if title != self._title and latest is not None:
                # A page that set its title after its last paint sends no frame to carry it.
                self._seq += 1
                self._latest = replace(latest, seq=self._seq, title=title or None)
                self._announce()
            self._title = title

    async def _cast(self, tab: Tab, page: Page) -> None:
        async with asyncio.timeout(CDP_S):
            session = await tab.context.new_cdp_session(page)
        self._tab, self._page, self._session = tab, page, session
        self._cast_size = size = page.viewport_size
        self._got_frame.clear()
        devtools.listen(
            session, "Page.screencastFrame", lambda event: self._on_frame(session, event)
        )
        async with asyncio.timeout(CDP_S):
            info = await session.send("Target.getTargetInfo")
            self._title = str(info["targetInfo"].get("title", ""))[:TITLE_MAX]
            cast: dict[str, Any] = {
                "format": "jpeg",
                "quality": self._quality,
                "everyNthFrame": 1,
            }
            if size is not None:  # else the window's size, which is what the page fills
                cast.update(maxWidth=size["width"], maxHeight=size["height"])
            await session.send("Page.startScreencast", cast)
        # Chromium sends a first frame at once, even for a page that is not painting; in
        # case it does not (a page held by a dialog), a screenshot stands in for it.
        try:
            async with asyncio.timeout(FIRST_FRAME_S):
                await self._got_frame.wait()
        except TimeoutError:
            async with asyncio.timeout(CDP_S):
                shot = await session.send(
                    "Page.captureScreenshot", {"format": "jpeg", "quality": self._quality}
                )
            if session is self._session and not self._got_frame.is_set():
                css = (size["width"], size["height"]) if size is not None else None
                self._publish(base64.b64decode(shot["data"]), css)

    async def _stop(self) -> None:
        session, self._session = self._session, None
        self._tab = self._page = None
        self._cast_size = None
        if session is None:
            return

        with contextlib.suppress(driver.PlaywrightError, TimeoutError):  # the page may be gone
            async with asyncio.timeout(CDP_S):
                await session.send("Page.stopScreencast")
                await session.detach()

    def _on_frame(self, session: CDPSession, event: dict[str, Any]) -> None:
        # Acknowledge first: Chromium sends the next frame only after the ack, so the ack's
        # round trip is what bounds the frame rate, not the decoding below.
        ack = asyncio.ensure_future(
            devtools.send(session, "Page.screencastFrameAck", {"sessionId": event["sessionId"]})
        )
        ack.add_done_callback(retrieve_exception)
        if session is not self._session:
            return  # a frame of a page no longer shown
        metadata = event.get("metadata", {})
        width, height = metadata.get("deviceWidth"), metadata.get("deviceHeight")
        css = (float(width), float(height)) if width and height else None
        self._publish(base64.b64decode(event["data"]), css)
        self._got_frame.set()

    def _publish(self, jpeg: bytes, css: tuple[float, float] | None) -> None:
        if len(jpeg) > FRAME_MAX_BYTES:
            return
        try:
            width, height = jpeg_size(jpeg)
        except ValueError:
            return
        self._seq += 1
        self._latest = Frame(
            seq=self._seq,
            data=jpeg,
            mime="image/jpeg",
            width=width,
            height=height,
            title=self._title or None,
        )
        self._scale = (css[0] / width, css[1] / height) if css and width and height else (1.0, 1.0)
        self._announce()

    def _announce(self) -> None:
        published, self._published = self._published, asyncio.Event()
        published.set()

    async def _session_for(self, tab: Tab, page: Page) -> CDPSession:
        """Input's own DevTools session on ``page``. Not the screencast's: the runner detaches
        that one whenever it moves or stops the picture (nobody watching, a new size, a slow
        answer on a loaded host), and a person's keys sent on it midway were dropped."""
        if self._input_session is not None and self._input_session[0] is page:
            return self._input_session[1]
        await self._drop_input_session()
        async with asyncio.timeout(CDP_S):
            session = await tab.context.new_cdp_session(page)
        self._input_session = (page, session)
        return session

    async def _drop_input_session(self) -> None:
        held, self._input_session = self._input_session, None
        if held is None:
            return  # and Playwright, which may not be installed, is not imported

        with contextlib.suppress(driver.PlaywrightError, TimeoutError):
            async with asyncio.timeout(CDP_S):
                await held[1].detach()


def _id(tab: Tab) -> str:
    return session_id(tab.key)


async def _title(page: Page) -> str:

    try:
        async with asyncio.timeout(CDP_S / 4):
            return (await page.title())[:TITLE_MAX]
    except (driver.PlaywrightError, TimeoutError):
        return ""  # a page stuck in a loop has no title to give
