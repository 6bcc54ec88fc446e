"""What one context key sees: its browser context, its pages and which one is current, and
the viewport they are sized for.

Every page gets its size from the tab's viewport mode, because Playwright can set a page's
emulated size but never remove it: only a page that was never sized follows the window, which
is what ``fill`` means (the pool opens every context with ``no_viewport=True``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from browserhost.contract import data
from browserhost.contract.data import ViewportMode

from . import devtools, driver
from .addresses import ALLOWED_SCHEMES, AddressPolicy
from .downloads import Downloads
from .futures import retrieve_exception
from .launch import DialogMode
from .page_watch import PageWatch

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, FileChooser, Page

Key = tuple[str | None, str | None]
"""A context key: ``(directory, sessionId)`` from the request."""

FILL_RELOAD_TIMEOUT_S = 10.0
RENEW_AFTER_LOADS = 100
"""Documents a page may load before an ``open`` moves to a fresh page (see
:meth:`Tab.fresh_for_open`)."""
STUCK_CLOSE_S = 5.0


class Tab(PageWatch):
    """What one context key sees: its context, current page, viewport and console problems.

    Actions on a tab run one at a time (:attr:`lock`). A window a click opens becomes the
    current page; when it closes, the page that opened it is current again. What its pages
    tell (console, dialogs, loads) is heard by :class:`~.page_watch.PageWatch`.
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
        super().__init__(dialogs=dialogs, dialog_shown=dialog_shown, policy=policy)
        self.key = key
        self.downloads = Downloads(key[0])
        """The files its pages download, saved into the key's project."""
        self.reset: str | None = None
        """Why this key's previous tab was closed under it; its next action says so."""
        self.notices: list[str] = []
        """What the running action's answer must tell beyond its own result."""
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
        self.frame_due = False
        """The latest open answered before its page's first frame after load; the next
        action waits for that frame first (see the provider's ``_settle``)."""
        self.welcome_popups = False
        """True from the start of a click or a type until the next action: a window the page
        opens then is the agent's doing and becomes the current page. A window the page opens
        by itself is listed by the tabs verb but not shown, and the next snapshot says so."""
        self.pointer: tuple[Page, float, float] | None = None
        """Where the agent's actions left the mouse, and on which page (each has its own)."""
        self._history: tuple[Page, int, int, list[str]] | None = None
        """The session history last read or travelled: the page, its :meth:`moves` then, the
        current index and the urls."""
        self._learning: asyncio.Future[tuple[int, list[str]]] | None = None
        """The latest :meth:`learn_history`, held until it ends."""

    async def page(self) -> Page:
        """The current page, opening a new one when it closed or crashed."""
        while self._pages and (self._pages[-1].is_closed() or self._pages[-1] in self._crashed):
            stale = self._pages.pop()
            if not stale.is_closed():
                with contextlib.suppress(driver.PlaywrightError):  # a crashed page may not answer
                    await stale.close()
        if not self._pages:
            self._adopt(await self._new_page())
        page = self._pages[-1]
        await self._prepared(page)
        if page in self._unsized:
            self._unsized.discard(page)
            size = self.custom_size or data.VIEWPORT_SIZES.get(self.viewport_mode)
            if size is not None:
                await page.set_viewport_size({"width": size[0], "height": size[1]})
        return page

    async def _new_page(self) -> Page:
        """A new page; asked for once more when it comes up crashed (its renderer may be one
        that crashed a moment before, shared with the page it replaces): nothing ran on it."""
        try:
            return await self.context.new_page()
        except driver.PlaywrightError as exc:
            if "crashed" not in str(exc).lower():
                raise
            return await self.context.new_page()

    async def close_current(self) -> None:
        """Close the current page, stuck as it may be (Chromium closes a page whose script
        never yields when asked to, without running its unload handlers); the page that
        opened it shows again, or a new blank one on the next action."""
        page = self.current()
        if page is None:
            return
        self._crashed.add(page)  # whatever happens below, it is not shown again
        with contextlib.suppress(driver.PlaywrightError, TimeoutError):
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
        fresh = await self._new_page()
        self._adopt(fresh)
        self._pages.remove(fresh)
        self._opened.remove(fresh)
        self._pages[self._pages.index(page)] = fresh
        self._opened[self._opened.index(page)] = fresh
        await page.close()
        return fresh

    def take_notice(self, *more: str | None) -> str | None:
        """What the action's answer must tell (:attr:`notices`, then ``more``), or ``None``."""
        said = [*self.notices, *(one for one in more if one)]
        self.notices = []
        return " ".join(said) or None

    async def history(self) -> tuple[int, list[str]]:
        """The current page's session history: (current index, urls). Asked of the browser
        again only once a frame of the page has navigated since it was last known (a
        ``back`` then a ``forward`` ask once; a ``back`` after an ``open``, none: see
        :meth:`learn_history`)."""
        page = await self.page()
        known = self._history
        if known is not None and known[:2] == (page, self.moves(page)):
            return known[2], known[3]
        return await self._ask_history(page)

    def learn_history(self, page: Page) -> None:
        """Ask ``page``'s session history off the action's way, once the action has
        answered: by the time the agent goes back, it is known (unless a frame of the page
        navigated since). Asked while the page loads, it put off the load."""
        self._learning = asyncio.ensure_future(self._ask_history(page))
        self._learning.add_done_callback(retrieve_exception)

    async def _ask_history(self, page: Page) -> tuple[int, list[str]]:
        moves = self.moves(page)  # before asking: a move during the ask makes it stale
        history = await devtools.ask_page(page, "Page.getNavigationHistory")
        index = int(history["currentIndex"])
        urls = [str(entry["url"]) for entry in history["entries"]]
        self._history = (page, moves, index, urls)
        return index, urls

    def travelled(self, page: Page, index: int, urls: list[str], moves: int) -> None:
        """A step through history, asked when the page had made ``moves``, left ``page`` at
        ``index`` of the same ``urls``: known from now on, if the step's own navigation is
        the one heard since (any other may have changed the history)."""
        if self.moves(page) == moves + 1:
            self._history = (page, moves + 1, index, urls)

    async def close(self) -> None:

        self.closed = True
        if self._learning is not None:
            self._learning.cancel()
        with contextlib.suppress(driver.PlaywrightError):  # a dead browser has closed it already
            await self.context.close()

    def _adopt(self, page: Page, *, show: bool = True) -> None:
        if show:
            self._pages.append(page)
        else:
            self._pages.insert(0, page)
        self._opened.append(page)
        self._unsized.add(page)
        page.on("crash", self._on_crash)
        page.on("close", self._on_close)
        page.on("popup", self._on_popup)
        page.on("download", self.downloads.started)
        # Every file chooser is caught, never shown: one left open would refuse the next, and
        # an upload that starts listening only when it clicks races its own click (Playwright
        # turns the catching on without waiting for it).
        page.on("filechooser", _left_unanswered)
        self._watch(page)

    def _on_crash(self, page: Page) -> None:
        self._crashed.add(page)

    def _on_close(self, page: Page) -> None:
        with contextlib.suppress(ValueError):
            self._pages.remove(page)
        with contextlib.suppress(ValueError):
            self._opened.remove(page)
        self._forget(page)
        self._unsized.discard(page)
        self._crashed.discard(page)

    def _on_popup(self, popup: Page) -> None:
        if popup in self._pages:
            return
        self._adopt(popup, show=self.welcome_popups)
        if not self.welcome_popups:
            self._warn(
                f"The page opened a window by itself ({popup.url}); it is not shown. The tabs "
                "verb lists it, and can switch to it or close it."
            )
        elif not self.acting:
            # Welcomed after the click's answer (a handler's window.open on a timer, a sign-in
            # window): the agent's next page is another than its last answer named.
            self._warn(
                f"A window opened after the last action answered ({popup.url}); it is the page "
                "shown now. The tabs verb switches back to the page it opened from."
            )


def _left_unanswered(_chooser: FileChooser) -> None:
    """A chooser a page opened outside an upload: nothing is chosen (the click says so)."""
