"""One isolated browser context per context key, and closing the idle ones.

A context key is ``(directory, sessionId)`` from the request; ``(None, None)`` is one shared
default. Each key gets its own Playwright ``BrowserContext`` (cookies, storage, cache), so two
agent chats never see each other's state, and one current page (:class:`~.tab.Tab`). A key
unused for :data:`~.launch.IDLE_S` (the user's setting) is closed; its next action starts fresh
and says so. At most :data:`~.launch.MAX_CONTEXTS` keys have a context at once.

Contexts are created with ``no_viewport=True`` and every page gets its size from the tab's
viewport mode, because Playwright can set a page's emulated size but never remove it: only a
page that was never sized follows the window, which is what ``fill`` means.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from browserhost.contract.data import ViewportMode
from browserhost.sdk import ActionError

from .addresses import AddressPolicy
from .launch import ENV_MAX_CONTEXTS, IDLE_S, MAX_CONTEXTS, DialogMode
from .page_watch import held_notice
from .tab import Key, Tab

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext

    from .grid import Grid

# Key, Tab and held_notice are imported from here, where they were defined once.
__all__ = ["ContextPool", "Key", "Tab", "held_notice"]

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

CLOSE_S = 5.0


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
            return await browser.new_context(no_viewport=True, accept_downloads=True)
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
