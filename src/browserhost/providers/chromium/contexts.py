"""One isolated browser context per context key, and closing the idle ones.

A context key is ``(directory, sessionId)`` from the request; ``(None, None)`` is one shared
default. Each key gets its own Playwright ``BrowserContext`` (cookies, storage, cache), so two
agent chats never see each other's state, and one current page (:class:`Tab`). A key unused for
:data:`~.launch.IDLE_S` (the user's setting) is closed; its next action starts fresh and says
so. At most :data:`~.launch.MAX_CONTEXTS` keys have a context at once.

Contexts are created with ``no_viewport=True`` and every page gets its size from the tab's
viewport mode, because Playwright can set a page's emulated size but never remove it: only a
page that was never sized follows the window, which is what ``fill`` means.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from browserhost.contract import data
from browserhost.contract.data import ViewportMode
from browserhost.sdk import ActionError

from . import devtools, pagescript
from .addresses import ALLOWED_SCHEMES, ERROR_PAGE_SCHEME, AddressPolicy
from .errors import blocked_message
from .launch import ENV_MAX_CONTEXTS, IDLE_S, MAX_CONTEXTS, DialogMode

if TYPE_CHECKING:
    from playwright.async_api import (
        Browser,
        BrowserContext,
        CDPSession,
        ConsoleMessage,
        Dialog,
        Frame,
        Page,
        Request,
    )
    from playwright.async_api import Error as PlaywrightError

    from .grid import Grid

Key = tuple[str | None, str | None]

RESET_RELAUNCHED = "The browser restarted since this session's last action"
RESET_MADE_ROOM = (
    "This session's browser context was closed to make room for newer sessions (at most "
    "{most} at once)"
)
RESET_GRID_LOST = (
    "This session's browser on the Selenium Grid went away (its node stopped, or the Grid "
    "ended the session), so a new one was started"
)
RESET_IDLE = "This session went unused for {minutes:g} min, so its browser context was closed"
RESETS_REMEMBERED = 10_000
"""Closed keys whose next action is told so; the oldest are forgotten past this."""

CONSOLE_PROBLEMS_MAX = 50
"""Console problems kept between two snapshots; older ones are dropped."""

CONSOLE_TEXT_MAX = 500
FILL_RELOAD_TIMEOUT_S = 10.0
RENEW_AFTER_LOADS = 100
"""Documents a page may load before an ``open`` moves to a fresh page (see
:meth:`Tab.fresh_for_open`)."""
STUCK_CLOSE_S = 5.0
CLOSE_S = 5.0
FAILED_LOAD_PREFIX = "Failed to load resource"
# Requests a page waits on before it is done changing (as the DevTools protocol names their
# types); media, beacons, websockets and event streams may never finish and hold nothing back.
AWAITED_RESOURCES = frozenset({"Document", "Fetch", "XHR", "Script", "Stylesheet"})
AUTOMATIC_FAVICON_PATH = "/favicon.ico"
TOLD_GRACE_S = 0.25
"""How long after Playwright saw a page's load its document's own word of it may come (it
is sent in the load event itself); a document that says nothing by then is asked."""


def _source(message: ConsoleMessage) -> str | None:
    """``https://a.test/app.js:12``, or the resource's URL for a failed load."""
    location = message.location
    url = location.get("url") or None
    if url is None:
        return None
    line = location.get("lineNumber") or 0
    return f"{url}:{line + 1}" if line > 0 else url


def automatic_favicon(message: ConsoleMessage) -> bool:
    """A failed load of ``/favicon.ico`` at the root of a site. Chromium asks a site for it by
    itself (once per origin, for the whole browser), so the failure is the browser's, not
    the page's.

    Playwright leaves every request for a URL ending in ``/favicon.ico`` out of a page's
    network events, so the message's source URL is all there is to go by; a page that asks
    for its root ``/favicon.ico`` itself (an ``<img>``, say) loses that failure too.
    """
    if not message.text.startswith(FAILED_LOAD_PREFIX):
        return False
    source = urlsplit(message.location["url"])
    return source.path == AUTOMATIC_FAVICON_PATH and not source.query


class Tab:
    """What one context key sees: its context, current page, viewport and console problems.

    Actions on a tab run one at a time (:attr:`lock`). A window a click opens becomes the
    current page; when it closes, the page that opened it is current again.
    """

    def __init__(
        self,
        key: Key,
        context: BrowserContext,
        now: float,
        *,
        dialogs: DialogMode = "dismiss",
        dialog_shown: asyncio.Event | None = None,
        policy: AddressPolicy | None = None,
    ) -> None:
        self.key = key
        self.policy = AddressPolicy() if policy is None else policy
        """Which addresses the page may show."""
        self.dialog_mode: DialogMode = dialogs
        """What happens to a dialog nobody planned for (see :class:`~.launch.ChromiumConfig`)."""
        self.dialog_shown = asyncio.Event() if dialog_shown is None else dialog_shown
        """Set while a dialog is left open (``ask`` mode): the page is stopped until it is
        answered, and so is whatever action was running on it."""
        self.reset: str | None = None
        """Why this key's previous tab was closed under it; its next action says so."""
        self.opened: str | None = None
        """The address the last ``open`` asked for."""
        self.notices: list[str] = []
        """What the running action's answer must tell beyond its own result."""
        self.held: Dialog | None = None
        """The dialog left open for the agent, in ``ask`` mode."""
        self.behind: asyncio.Future[Any] | None = None
        """The action that was running when :attr:`held` showed; it goes on once it is
        answered."""
        self.partial: dict[str, str] = {}
        """What the running action knows already (what it clicks), for an answer given while
        a dialog holds it."""
        self.context = context
        self.lock = asyncio.Lock()
        self.last_used = now
        self.closed = False
        self.viewport_mode: ViewportMode = "desktop"
        self.custom_size: tuple[int, int] | None = None
        """The size a person watching the surface asked for, over :attr:`viewport_mode`'s,
        until the agent chooses a viewport again (see :meth:`set_custom_size`)."""
        self._pages: list[Page] = []
        self._opened: list[Page] = []  # the same pages in the order they opened
        self._unsized: set[Page] = set()
        self._crashed: set[Page] = set()
        self._problems: deque[data.ConsoleProblem] = deque(maxlen=CONSOLE_PROBLEMS_MAX)
        self._blocked: str | None = None
        self._loading: dict[Page, set[str]] = {}  # request ids in flight
        self._loads: dict[Page, int] = {}  # documents each page loaded
        self._preparing: dict[Page, asyncio.Task[None]] = {}
        self._loaded = asyncio.Event()
        self._told: dict[Page, dict[str, Any]] = {}  # each page's latest word at a load event
        self._told_more = asyncio.Event()
        self._dialogs: list[data.Dialog] = []
        self.acting = False
        """True while an action runs: a dialog then is reported in its answer."""
        self.frame_due = False
        """The latest open answered before its page's first frame after load; the next
        action waits for that frame first (see the provider's ``_settle``)."""
        self.dialog_plan: tuple[bool, str | None] | None = None
        """How to answer the next dialog (accept?, prompt text), set by the dialog verb;
        without one, dialogs are dismissed."""
        self.welcome_popups = False
        """True from the start of a click or a type until the next action: a window the page
        opens then is the agent's doing and becomes the current page. A window the page opens
        by itself is listed by the tabs verb but not shown, and the next snapshot says so."""
        self.pointer: tuple[Page, float, float] | None = None
        """Where the agent's actions left the mouse, and on which page (each has its own)."""

    async def page(self) -> Page:
        """The current page, opening a new one when it closed or crashed."""
        from playwright.async_api import Error as PlaywrightError

        while self._pages and (self._pages[-1].is_closed() or self._pages[-1] in self._crashed):
            stale = self._pages.pop()
            if not stale.is_closed():
                with contextlib.suppress(PlaywrightError):  # a crashed page may not answer
                    await stale.close()
        if not self._pages:
            self._adopt(await self.context.new_page())
        page = self._pages[-1]
        preparing = self._preparing.pop(page, None)
        if preparing is not None:
            with contextlib.suppress(PlaywrightError):  # it closed already: found next time
                await preparing
        if page in self._unsized:
            self._unsized.discard(page)
            size = self.custom_size or data.VIEWPORT_SIZES.get(self.viewport_mode)
            if size is not None:
                await page.set_viewport_size({"width": size[0], "height": size[1]})
        return page

    async def close_current(self) -> None:
        """Close the current page, stuck as it may be (Chromium closes a page whose script
        never yields when asked to, without running its unload handlers); the page that
        opened it shows again, or a new blank one on the next action."""
        from playwright.async_api import Error as PlaywrightError

        page = self.current()
        if page is None:
            return
        self._crashed.add(page)  # whatever happens below, it is not shown again
        with contextlib.suppress(PlaywrightError, TimeoutError):
            async with asyncio.timeout(STUCK_CLOSE_S):
                await page.close(run_before_unload=False)

    def current(self) -> Page | None:
        """The current page without opening one (for callers that only look)."""
        return self._pages[-1] if self._pages else None

    def pages(self) -> list[Page]:
        """The open pages in the order they opened, which showing one does not change."""
        return [page for page in self._opened if not page.is_closed()]

    async def show(self, page: Page) -> None:
        """Make ``page`` the current page."""
        self._pages.remove(page)
        self._pages.append(page)
        await page.bring_to_front()

    def viewport(self) -> data.Viewport:
        if self.custom_size is not None:
            width, height = self.custom_size
            return data.Viewport(mode="custom", width=width, height=height)
        return data.Viewport.of(self.viewport_mode)

    async def set_custom_size(self, width: int, height: int) -> Page:
        """Size the current page (and the pages it opens) ``width`` x ``height`` CSS pixels for
        the person watching; the agent's next viewport choice (``browser.resize``, an ``open``
        with a viewport) replaces it, and ``fill`` then moves to a fresh page as usual."""
        self.custom_size = (width, height)
        page = await self.page()
        await page.set_viewport_size({"width": width, "height": height})
        return page

    async def set_viewport(self, mode: ViewportMode, *, reload: bool = True) -> Page:
        """Size the current page for ``mode``; returns the (possibly new) current page.

        Leaving a fixed size for ``fill`` moves to a fresh page (see the module docstring)
        that loads the same address again, unless ``reload`` is false; cookies and storage
        stay.
        """
        self.viewport_mode = mode
        self.custom_size = None
        page = await self.page()  # a page opened here is already sized for the new mode
        size = data.VIEWPORT_SIZES.get(mode)
        if size is not None:
            await page.set_viewport_size({"width": size[0], "height": size[1]})
        elif page.viewport_size is not None:
            address = page.url
            fresh = await self._replace(page)
            self._unsized.discard(fresh)
            if reload and urlsplit(address).scheme in ALLOWED_SCHEMES:
                await fresh.goto(address, wait_until="commit", timeout=FILL_RELOAD_TIMEOUT_S * 1000)
        return await self.page()

    async def fresh_for_open(self) -> Page:
        """The current page to load a new address in, or a fresh page in its place once it
        has loaded :data:`RENEW_AFTER_LOADS` documents.

        Playwright keeps a request and a response for every document a page loads, in the
        host and in its driver, until the page closes; a page that lives for a whole long
        session would grow without end. A fresh page frees them. Cookies and local storage
        stay (they belong to the context); the session history does not, so ``back`` from the
        first page after the change has nowhere to go.
        """
        page = await self.page()
        if self._loads.get(page, 0) < RENEW_AFTER_LOADS:
            return page
        await self._replace(page)
        return await self.page()

    async def _replace(self, page: Page) -> Page:
        """A new page where ``page`` was (current or not, same tab number); ``page`` closes."""
        fresh = await self.context.new_page()
        self._adopt(fresh)
        self._pages.remove(fresh)
        self._opened.remove(fresh)
        self._pages[self._pages.index(page)] = fresh
        self._opened[self._opened.index(page)] = fresh
        await page.close()
        return fresh

    def drain_problems(self) -> list[data.ConsoleProblem]:
        problems = list(self._problems)
        self._problems.clear()
        return problems

    def take_notice(self, *more: str | None) -> str | None:
        """What the action's answer must tell (:attr:`notices`, then ``more``), or ``None``."""
        said = [*self.notices, *(one for one in more if one)]
        self.notices = []
        return " ".join(said) or None

    def take_dialogs(self) -> list[data.Dialog] | None:
        """The dialogs shown since the action began, or ``None``."""
        dialogs, self._dialogs = self._dialogs, []
        return dialogs or None

    def loading(self, page: Page) -> int:
        """How many of the page's own requests are in flight (see :data:`AWAITED_RESOURCES`)."""
        return len(self._loading.get(page, ()))

    async def told_loaded(self, page: Page, since_ms: float, timeout_s: float) -> Any:
        """What the page's document that started after ``since_ms`` (epoch ms) told at its
        load event (:data:`.pagescript.LOADED_BINDING`), waiting up to ``timeout_s``; ``None`` when
        it did not load by then, or did not tell within :data:`TOLD_GRACE_S` of the load
        Playwright saw. The time origin tells the document waited for from an earlier one
        whose load came late."""

        async def told() -> Any:
            while not page.is_closed():
                news = self._told.get(page)
                if news is not None and news["origin"] >= since_ms:
                    return news
                self._told_more.clear()
                await self._told_more.wait()
            return None

        async def silent() -> None:
            await page.wait_for_load_state("load", timeout=0)
            await asyncio.sleep(TOLD_GRACE_S)

        telling, loading = asyncio.ensure_future(told()), asyncio.ensure_future(silent())
        try:
            await asyncio.wait(
                (telling, loading), timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            for task in (telling, loading):
                task.cancel()
                task.add_done_callback(_retrieved)
        return telling.result() if telling.done() and not telling.cancelled() else None

    def _on_told(self, page: Page, called: dict[str, Any]) -> None:
        if called["name"] == pagescript.LOADED_BINDING:
            self._told[page] = json.loads(called["payload"])
            self._told_more.set()

    async def network_quiet(self, page: Page, timeout_s: float) -> bool:
        """Wait (bounded) until none of the page's requests is in flight."""
        try:
            async with asyncio.timeout(timeout_s):
                while self.loading(page):
                    self._loaded.clear()
                    await self._loaded.wait()
        except TimeoutError:
            return False
        return True

    def take_blocked(self) -> str | None:
        """The blocked navigation since the last call, as a sentence, or ``None``."""
        blocked, self._blocked = self._blocked, None
        return blocked

    async def history(self) -> tuple[int, list[str]]:
        """The current page's session history: (current index, urls)."""
        page = await self.page()
        history = await (await devtools.session(page)).send("Page.getNavigationHistory")
        return int(history["currentIndex"]), [str(entry["url"]) for entry in history["entries"]]

    async def close(self) -> None:
        from playwright.async_api import Error as PlaywrightError

        self.closed = True
        with contextlib.suppress(PlaywrightError):  # a dead browser has closed it already
            await self.context.close()

    def take_held(self) -> tuple[Dialog, asyncio.Future[Any] | None]:
        """The dialog left open, and the action it stopped, for the agent to answer."""
        held, behind = self.held, self.behind
        assert held is not None
        self.held = self.behind = None
        self.dialog_shown.clear()
        return held, behind

    def _adopt(self, page: Page, *, show: bool = True) -> None:
        if show:
            self._pages.append(page)
        else:
            self._pages.insert(0, page)
        self._opened.append(page)
        self._unsized.add(page)
        page.on("console", lambda message: self._on_console(page, message))
        page.on("pageerror", lambda error: self._on_page_error(page, error))
        page.on("crash", self._on_crash)
        page.on("close", self._on_close)
        page.on("popup", self._on_popup)
        page.on("framenavigated", lambda frame: self._on_navigated(page, frame))
        page.on("requestfailed", lambda request: self._on_request_failed(page, request))
        page.on("dialog", self._on_dialog)
        preparing = asyncio.get_running_loop().create_task(self._prepare(page))
        preparing.add_done_callback(_retrieved)  # a page that closed at once is not prepared
        self._preparing[page] = preparing

    async def _prepare(self, page: Page) -> None:
        """Ready a page before its first action (a popup too): give it the script each of its
        documents runs at its start (:func:`.pagescript.at_document_start`) and the binding
        through which they tell of their load (:meth:`told_loaded`), and count its requests
        in flight from the DevTools protocol's own events.

        Playwright's request events would do, but a page that listens to them keeps every
        request and response it ever made (in the host and in Playwright's driver) until it
        closes: memory that grows with every action in a long session. Failed requests are
        few, so Playwright still reports those (a blocked redirect). Playwright's own
        ``expose_binding`` would do for the load too, but it answers each call with another
        evaluation in the page, just when the page draws its first frame; a protocol binding
        answers nothing (and needs the ``Runtime`` domain on).
        """
        await page.add_init_script(pagescript.at_document_start())

        async def watching(session: CDPSession) -> None:
            # A session that replaces one that broke off never hears of requests that were
            # in flight on the old one: the count starts again.
            self._loading.pop(page, None)
            self._loaded.set()
            session.on("Runtime.bindingCalled", lambda called: self._on_told(page, called))
            await session.send("Runtime.enable")
            await session.send("Runtime.addBinding", {"name": pagescript.LOADED_BINDING})
            tree = await session.send("Page.getFrameTree")
            main = tree["frameTree"]["frame"]["id"]
            session.on("Network.requestWillBeSent", lambda sent: self._on_request(page, sent, main))
            session.on("Network.loadingFinished", lambda done: self._on_request_done(page, done))
            session.on("Network.loadingFailed", lambda fail: self._on_request_done(page, fail))
            await session.send("Network.enable")

        await devtools.watch(page, watching)
        if page.url.startswith(ERROR_PAGE_SCHEME):
            # A window whose first load failed before it could be listened to: one blocked
            # in the network stack is told as :meth:`_on_request_failed` tells the others.
            history = await (await devtools.session(page)).send("Page.getNavigationHistory")
            failed = str(history["entries"][history["currentIndex"]]["url"])
            why = self.policy.own_refusal(failed)
            if why is not None:
                self._blocked = blocked_message(f"The page navigated to {failed[:200]}", why)

    def _is_current(self, page: Page) -> bool:
        return bool(self._pages) and self._pages[-1] is page

    def _on_console(self, page: Page, message: ConsoleMessage) -> None:
        if (
            self._is_current(page)
            and message.type in ("error", "warning")
            and not automatic_favicon(message)
        ):
            level = "error" if message.type == "error" else "warning"
            self._problems.append(
                data.ConsoleProblem(
                    level=level, text=message.text[:CONSOLE_TEXT_MAX], source=_source(message)
                )
            )

    def _on_page_error(self, page: Page, error: PlaywrightError) -> None:
        if self._is_current(page):
            name = error.name or "Error"
            text = f"Uncaught {name}: {error.message}"
            self._problems.append(data.ConsoleProblem(level="error", text=text[:CONSOLE_TEXT_MAX]))

    async def _on_dialog(self, dialog: Dialog) -> None:
        """Leaving a page is allowed; any other dialog is answered as the agent planned with
        the dialog verb, else as the user configured: dismissed, accepted, or left open for
        the agent. The action's answer (or the next snapshot) says which."""
        from playwright.async_api import Error as PlaywrightError

        plan, self.dialog_plan = self.dialog_plan, None
        if dialog.type == "beforeunload":
            with contextlib.suppress(PlaywrightError):
                await dialog.accept()
            return
        if plan is None and self.dialog_mode == "ask":
            self.held = dialog
            self.dialog_shown.set()
            self._note_dialog(dialog, "open")
            return
        accept, text = plan if plan is not None else (self.dialog_mode == "accept", None)
        answer: Literal["accepted", "dismissed"] = "accepted" if accept else "dismissed"
        with contextlib.suppress(PlaywrightError):  # the page may be gone already
            if accept:
                await dialog.accept(text if text is not None else dialog.default_value)
            else:
                await dialog.dismiss()
        self._note_dialog(dialog, answer)

    def _note_dialog(
        self, dialog: Dialog, answer: Literal["accepted", "dismissed", "open"]
    ) -> None:
        """Tell the agent: in the running action's answer, else in the next snapshot."""
        message = dialog.message[:CONSOLE_TEXT_MAX]
        if self.acting:
            kind = dialog.type if dialog.type in ("alert", "confirm", "prompt") else "alert"
            self._dialogs.append(data.Dialog(type=kind, message=message, answer=answer))
            return
        if answer == "open":
            text = held_notice(dialog)
        else:
            text = f"{answer.capitalize()} {_a(dialog.type)} dialog: {message}"
        self._problems.append(data.ConsoleProblem(level="warning", text=text[:CONSOLE_TEXT_MAX]))

    def _on_request(self, page: Page, sent: dict[str, Any], main_frame: str) -> None:
        kind = sent.get("type")
        # An iframe's own document may load in a process of its own, which reports its end
        # elsewhere; the page's load event waits for it anyway.
        if kind == "Document" and sent.get("frameId") != main_frame:
            return
        if kind in AWAITED_RESOURCES:
            self._loading.setdefault(page, set()).add(sent["requestId"])

    def _on_request_done(self, page: Page, event: dict[str, Any]) -> None:
        waiting = self._loading.get(page)
        if waiting is not None and event["requestId"] in waiting:
            waiting.discard(event["requestId"])
            if not waiting:
                self._loaded.set()

    def _on_crash(self, page: Page) -> None:
        self._crashed.add(page)

    def _on_close(self, page: Page) -> None:
        if self.held is not None and self.held.page is page:
            self.held = None  # it went with its page; the action it held goes on
            self.dialog_shown.clear()
        with contextlib.suppress(ValueError):
            self._pages.remove(page)
        with contextlib.suppress(ValueError):
            self._opened.remove(page)
        preparing = self._preparing.pop(page, None)
        if preparing is not None:
            preparing.cancel()
        self._loading.pop(page, None)
        self._loads.pop(page, None)
        self._loaded.set()
        self._told.pop(page, None)
        self._told_more.set()
        self._unsized.discard(page)
        self._crashed.discard(page)

    def _on_popup(self, popup: Page) -> None:
        if popup in self._pages:
            return
        self._adopt(popup, show=self.welcome_popups)
        if not self.welcome_popups:
            text = (
                f"The page opened a window by itself ({popup.url}); it is not shown. The tabs "
                "verb lists it, and can switch to it or close it."
            )
            self._problems.append(
                data.ConsoleProblem(level="warning", text=text[:CONSOLE_TEXT_MAX])
            )

    def _on_navigated(self, page: Page, frame: Frame) -> None:
        if frame is not page.main_frame:
            return
        self._loads[page] = self._loads.get(page, 0) + 1
        why = self.policy.refusal(frame.url)
        if why is not None:
            self._blocked = blocked_message(f"The page navigated to {frame.url[:200]}", why)

    def _on_request_failed(self, page: Page, request: Request) -> None:
        if request.url == self.opened:
            return  # the open reports its own failed load; its event may come late
        failure = request.failure or ""
        top = _top_navigation(page, request)
        own = self.policy.own_refusal(request.url) if top else None
        if own is not None:
            # Blocked in the network stack (:mod:`.own_address`), which leaves Chromium's
            # error page: say why instead.
            came = request.redirected_from
            what = f"The page navigated to {request.url[:200]}"
            if came is not None:
                what = f"{came.url[:200]} redirected to {request.url[:200]}"
            self._blocked = blocked_message(what, own)
        elif "ERR_UNSAFE_REDIRECT" in failure and top:
            self._blocked = blocked_message(
                f"{request.url[:200]} redirected to an address that is not http or https"
            )


def _top_navigation(page: Page, request: Request) -> bool:
    from playwright.async_api import Error as PlaywrightError

    if not request.is_navigation_request():
        return False
    try:
        return request.frame is page.main_frame
    except PlaywrightError:
        return True  # a window's first load, sent before its frame existed


def _retrieved(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


def _a(kind: str) -> str:
    return f"an {kind}" if kind == "alert" else f"a {kind}"


def held_notice(dialog: Dialog) -> str:
    """What the agent is told about a dialog left open for it."""
    return (
        f"{_a(dialog.type).capitalize()} dialog is open and holds the page: "
        f"{dialog.message[:CONSOLE_TEXT_MAX]!r}. Answer it with the dialog verb (accept or "
        "dismiss); nothing else runs until then."
    )


class ContextPool:
    """The tabs of one browser, by context key: at most ``max_contexts`` at once (a new key
    closes the least recently used idle one), each closed after ``idle_s`` unused. A key whose
    tab was closed under it (idle, to make room, or with a browser that went away) is told so
    by its next action (:attr:`Tab.reset`)."""

    def __init__(
        self,
        *,
        idle_s: float = IDLE_S,
        max_contexts: int = MAX_CONTEXTS,
        clock: Callable[[], float] = time.monotonic,
        dialogs: DialogMode = "dismiss",
        policy: AddressPolicy | None = None,
        open_context: Callable[[Browser], Awaitable[BrowserContext]] | None = None,
        viewport: ViewportMode = "desktop",
        grid: Grid | None = None,
    ) -> None:
        self.policy = AddressPolicy() if policy is None else policy
        self._open_context = open_context
        """Gives a new key its context; default: a fresh one in the browser."""
        self._grid = grid
        """Where each key gets a browser of its own, instead of sharing the one passed in."""
        self.viewport: ViewportMode = viewport
        """The viewport a new key's page starts with."""
        self.idle_s = idle_s
        self.max_contexts = max_contexts
        self.dialogs: DialogMode = dialogs
        self._clock = clock
        self._tabs: dict[Key, Tab] = {}
        self._resets: dict[Key, str] = {}  # why a key's tab was closed under it
        self._dialog_shown: dict[Key, asyncio.Event] = {}
        self._browser: Browser | None = None
        self._lock = asyncio.Lock()
        self._reaper: asyncio.Task[None] | None = None

    async def tab(self, browser: Browser | None, key: Key) -> Tab:
        """The key's tab in ``browser`` (with a Grid: in a browser of its own, and ``browser``
        is ``None``), created on first use; marks it used now.

        A Grid's browser is asked for outside the pool's lock: a session waiting in the
        Grid's queue (seconds) must not hold up the other sessions' actions."""
        granted: Browser | None = None
        try:
            while True:
                async with self._lock:
                    tab = await self._usable_tab(browser, key)
                    if tab is None and (self._grid is None or granted is not None):
                        if len(self._tabs) >= self.max_contexts:
                            await self._make_room()
                        own, granted = granted or browser, None
                        assert own is not None  # only a Grid pool is asked without a browser
                        tab = self._tabs[key] = await self._new_tab(own, key)
                    if tab is not None:
                        tab.last_used = self._clock()
                        return tab
                assert self._grid is not None
                granted = await self._grid.browser()
        finally:
            if granted is not None:  # another action of the key made its tab meanwhile
                await self._grid_end(granted)

    async def _usable_tab(self, browser: Browser | None, key: Key) -> Tab | None:
        """The key's tab if it can still be used; forgets the tabs of a browser that went."""
        if browser is not self._browser:
            # A relaunched browser: the old contexts died with the old one.
            for stale in self._tabs.values():
                stale.closed = True
                self._note_reset(stale.key, RESET_RELAUNCHED)
            self._tabs.clear()
            for shown in self._dialog_shown.values():
                shown.clear()
            self._browser = browser
        tab = self._tabs.get(key)
        if (
            tab is not None
            and self._grid is not None
            and (tab.context.browser is None or not self._grid.usable(tab.context.browser))
        ):
            del self._tabs[key]
            tab.closed = True
            self._note_reset(key, RESET_GRID_LOST)
            await self._end(tab)
            return None
        return tab

    async def _new_tab(self, browser: Browser, key: Key) -> Tab:
        context = await self._new_context(browser)
        tab = Tab(
            key,
            context,
            self._clock(),
            dialogs=self.dialogs,
            dialog_shown=self.dialog_shown(key),
            policy=self.policy,
        )
        tab.reset = self._resets.pop(key, None)
        tab.viewport_mode = self.viewport
        self._start_reaper()
        return tab

    async def _new_context(self, browser: Browser) -> BrowserContext:
        try:
            if self._open_context is not None:
                return await self._open_context(browser)
            return await browser.new_context(no_viewport=True, accept_downloads=False)
        except BaseException:
            await self._grid_end(browser)
            raise

    async def _grid_end(self, browser: Browser) -> None:
        if self._grid is not None:
            await self._grid.end(browser)

    async def _end(self, tab: Tab) -> None:
        """Close the tab's context and, with a Grid, end its session."""
        browser = tab.context.browser
        if self._grid is None or browser is None:
            await tab.close()
            return
        if self._grid.usable(browser):
            with contextlib.suppress(TimeoutError):  # a browser that just died never answers
                async with asyncio.timeout(CLOSE_S):
                    await tab.close()
        await self._grid.end(browser)

    def peek(self, key: Key) -> Tab | None:
        return self._tabs.get(key)

    def tabs(self) -> list[Tab]:
        """The live tabs, oldest key first."""
        return list(self._tabs.values())

    async def _make_room(self) -> None:
        """Close the least recently used tab that is not busy, or refuse: all are."""
        idle = [tab for tab in self._tabs.values() if not tab.lock.locked()]
        if not idle:
            raise ActionError(
                f"All {self.max_contexts} browser sessions are busy; try again in a moment "
                f"(the user can allow more with {ENV_MAX_CONTEXTS})."
            )
        oldest = min(idle, key=lambda tab: tab.last_used)
        del self._tabs[oldest.key]
        self._dialog_shown.pop(oldest.key, None)
        self._note_reset(oldest.key, RESET_MADE_ROOM.format(most=self.max_contexts))
        await self._end(oldest)

    def _note_reset(self, key: Key, why: str) -> None:
        self._resets[key] = why
        while len(self._resets) > RESETS_REMEMBERED:
            del self._resets[next(iter(self._resets))]

    def dialog_shown(self, key: Key) -> asyncio.Event:
        """Set while a dialog is left open on the key's tab; it outlives the tab, so an action
        can wait on it before its tab exists."""
        shown = self._dialog_shown.get(key)
        if shown is None:
            shown = self._dialog_shown[key] = asyncio.Event()
        return shown

    def touch(self, tab: Tab) -> None:
        tab.last_used = self._clock()

    async def reap(self) -> list[Key]:
        """Close the tabs idle for ``idle_s`` and not busy; return their keys."""
        now = self._clock()
        async with self._lock:
            idle = [
                tab
                for tab in self._tabs.values()
                if now - tab.last_used >= self.idle_s and not tab.lock.locked()
            ]
            for tab in idle:
                del self._tabs[tab.key]
                self._dialog_shown.pop(tab.key, None)
                self._note_reset(tab.key, RESET_IDLE.format(minutes=self.idle_s / 60))
        for tab in idle:
            await self._end(tab)
        return [tab.key for tab in idle]

    async def aclose(self) -> None:
        """Stop reaping and forget every tab. Closing the browser closes their contexts, all
        at once (for a remote browser: the contexts this provider made, nothing else)."""
        if self._reaper is not None:
            self._reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reaper
            self._reaper = None
        async with self._lock:
            for tab in self._tabs.values():
                tab.closed = True
            ended = list(self._tabs.values()) if self._grid is not None else []
            self._tabs.clear()
            self._browser = None
        for tab in ended:  # a Grid browser each: end their sessions now
            await self._end(tab)

    def _start_reaper(self) -> None:
        if self._reaper is None or self._reaper.done():
            self._reaper = asyncio.create_task(self._reap_periodically())

    async def _reap_periodically(self) -> None:
        interval = max(1.0, min(60.0, self.idle_s / 4))
        while True:
            await asyncio.sleep(interval)
            await self.reap()
