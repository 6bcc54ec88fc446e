"""The chromium provider: the ten browser actions on a real Chromium, through Playwright.

Each action takes the context key's tab (its own browser context and current page, see
:mod:`.contexts`), runs one at a time on that tab, and answers the contract's ``data`` model.
Elements are named by CSS selectors from the latest snapshot; an action on a selector acts only
when it matches exactly one element. Errors the agent sees say what to do differently; they are
translated from Playwright in :mod:`.errors` only.

If the browser or the page goes away while an action runs, the action raises
:class:`~.errors.BrowserGoneError` out of :meth:`ChromiumProvider.answer` (the host reports
``REQUEST_FAILED``: it may have run), and the next action relaunches the browser.
"""

from __future__ import annotations

import asyncio
import base64
import struct
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from browserhost.contract import (
    ACTIONS,
    VERB_PREFIX,
    Context,
    ProviderRequest,
    data,
    verb_name,
)
from browserhost.contract import actions as params
from browserhost.contract.limits import SNAPSHOT_ELEMENTS_MAX, SNAPSHOT_TEXT_MAX
from browserhost.contract.verbs import VERB_TIMEOUT_S
from browserhost.sdk import ActionError, refusal
from browserhost.sdk.provider import Answer

from . import fields, pagescript, targets
from .addresses import ERROR_PAGE_SCHEME, AddressPolicy
from .contexts import (
    ContextPool,
    Key,
    Tab,
    held_notice,
)
from .errors import (
    BrowserGoneError,
    MayHaveRunError,
    PageStuckError,
    gone,
    playwright_errors,
)
from .grid import Grid
from .instances import ProfileShare, launch_record
from .launch import ChromiumConfig, Launcher
from .surface import ChromiumSurface
from .targets import Located
from .verbs import ChromiumVerbs

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Frame, Page


@dataclass(frozen=True)
class Timeouts:
    """How long the provider waits for the browser, in seconds; all well inside the host's
    deadlines (45 s for ``browser.open``, 20 s for the rest)."""

    act_s: float = 5.0
    """A fill, a choice or a key press: for the element to be visible, enabled and editable.
    A click does not wait: it is checked first and refused at once (see :mod:`.targets`)."""
    open_commit_s: float = 25.0
    """``browser.open``: for the server to answer."""
    open_settle_s: float = 10.0
    """``browser.open``, then: for the page to load and stop changing; past it ``settled`` is
    false."""
    input_settle_s: float = 3.0
    """After a click or a submit: for what it started (a load, requests, rendering) to end."""
    quiet_s: float = 0.05
    """How long the document must go unchanged, with none of the page's requests in flight, to
    count as settled."""
    history_s: float = 10.0
    """``browser.back`` / ``browser.forward``: for the other page to start showing."""
    capture_s: float = 10.0
    """``browser.capture``: for the page to render a picture."""


DIALOG_VERB = f"{VERB_PREFIX}dialog"
RUN_AFTER_RESET = frozenset({"browser.open", "browser.snapshot"})
"""What still runs, with a notice, as a session's first action after its context was closed
under it (see :class:`~.contexts.ContextPool`); anything else is refused once."""

PROBE_S = 1.0
"""How long the provider asks a page whether it is still there and answering."""

ERROR_PAGE_WAIT_S = 1.0
"""How long a failed ``open`` waits for Chromium to show its error page."""

TEXT_CANDIDATES_MAX = 8
"""How many candidates an ambiguous click by text lists."""

QUIET_GRACE_S = 2.0
"""How far past its budget a settle wait may run before it is cut off (a page that does not
answer at all)."""

Opened = Literal["early", "due"] | None
"""Which wait after an open a settle is (see :meth:`ChromiumProvider._settle`)."""

INSPECT_STYLES = (
    "display",
    "visibility",
    "opacity",
    "position",
    "z-index",
    "overflow",
    "box-sizing",
    "width",
    "height",
    "margin",
    "padding",
    "border",
    "color",
    "background-color",
    "font-family",
    "font-size",
    "font-weight",
    "line-height",
    "text-align",
    "cursor",
    "pointer-events",
)
"""The computed styles ``browser.inspect`` reports, by CSS property name, as strings."""


class ChromiumProvider(ChromiumVerbs):
    """A headless Chromium (or a remote one) behind all ten actions.

    The browser starts on the first action. ``config`` says where it comes from (default: the
    environment, see :class:`~.launch.ChromiumConfig`); ``timeouts`` how long it waits for
    the browser; ``idle_s`` is how long a context key's
    browser context lives unused; ``clock`` measures that idleness.
    """

    id = "chromium"
    name = "Chromium"

    def __init__(
        self,
        config: ChromiumConfig | None = None,
        *,
        timeouts: Timeouts | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = ChromiumConfig.from_env() if config is None else config
        self.timeouts = Timeouts() if timeouts is None else timeouts
        self._launcher = Launcher(self.config)
        self._grid = None if self.config.grid is None else Grid(self.config.grid, self.config)
        self._pool = ContextPool(
            policy=AddressPolicy(
                own_port=self.config.own_port,
                own_host=self.config.own_host,
                private_network=self.config.private_network,
            ),
            idle_s=self.config.idle_s,
            max_contexts=self.config.max_contexts,
            clock=clock,
            dialogs=self.config.dialogs,
            open_context=self._open_context,
            viewport=self.config.viewport,
            grid=self._grid,
        )
        self._surface = ChromiumSurface(self._pool)

    async def _open_context(self, browser: Browser) -> BrowserContext:
        """A new session's context: its own in the browser, or a share of the profile's."""
        profile = self._launcher.profile
        if profile is not None:
            return ProfileShare.of(profile)
        options = dict(self.config.context_options)
        if self.config.storage_state is not None:
            options["storage_state"] = dict(self.config.storage_state)
        return await browser.new_context(no_viewport=True, accept_downloads=False, **options)

    def status(self) -> str:
        """What the browser is doing: running, starting, stopped or failed."""
        return self._launcher.status()

    async def start(self) -> None:
        """Start the browser now rather than on the first action (a launched instance); with a
        Grid, each session starts its own on its first action."""
        if self._grid is None:
            await self._launcher.browser()

    async def retire(self) -> None:
        """Close for good: an action still on its way fails instead of relaunching."""
        await self._surface.aclose()
        await self._pool.aclose()
        await self._launcher.retire()
        if self._grid is not None:
            await self._grid.aclose()

    def surface(self) -> ChromiumSurface:
        """The live picture of the session the agent acted on last (or the one a viewer
        pinned), and a person's hands on it; see :mod:`.surface`."""
        return self._surface

    async def answer(self, request: ProviderRequest) -> Answer:
        """Run one request. While a dialog is left open for the agent (``ask`` mode) nothing
        but the dialog verb runs; an action that a dialog stops midway is answered as soon
        as the dialog shows, and goes on once the agent answers it."""
        key = request.context.key
        tab = self._pool.peek(key)
        if tab is not None and tab.held is not None and request.action != DIALOG_VERB:
            return refusal(f"{held_notice(tab.held)} {request.action} was not run.")
        if self.config.dialogs != "ask":
            return await self._watched(request)
        shown = self._pool.dialog_shown(key)
        work = asyncio.ensure_future(self._watched(request))
        waiting = asyncio.ensure_future(shown.wait())
        try:
            await asyncio.wait((work, waiting), return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            work.cancel()
            raise
        finally:
            waiting.cancel()
        tab = self._pool.peek(key)
        if work.done() or tab is None or tab.held is None:
            return await work
        tab.behind = work
        work.add_done_callback(_retrieved)
        return _held_answer(request, tab)

    async def _watched(self, request: ProviderRequest) -> Answer:
        """The answer, or when none comes within the host's deadline (less a margin to report
        in): a stuck page closed (a click whose handler never returns, say), and "may have
        run" either way."""
        action = request.action
        budget_s = (ACTIONS[action].timeout_s if action in ACTIONS else VERB_TIMEOUT_S) - 3
        closed_before = self._launcher.retired
        try:
            async with asyncio.timeout(budget_s):
                answer = await self._guarded(request)
        except TimeoutError:
            pass
        else:
            if answer.get("ok") is False and self._launcher.retired and not closed_before:
                # Closed under the action (an instance the user closed): whatever the browser
                # said as it went, the action may have run.
                raise MayHaveRunError(
                    f"The browser was closed while {action} ran, so it may or may not have "
                    "happened."
                )
            return answer
        tab = self._pool.peek(request.context.key)
        page = None if tab is None else tab.current()
        if tab is not None and page is not None and await _probe(page) != "answers":
            async with tab.lock:
                await tab.close_current()
            raise PageStuckError(action) from None
        raise MayHaveRunError(
            f"{action} did not finish within {budget_s:g} s, so it may or may not have "
            "happened; take a new snapshot to see where things stand."
        )

    async def _guarded(self, request: ProviderRequest) -> Answer:
        """The answer; with a Grid, cut short when the session's browser dies under it."""
        if self._grid is None:
            return await super().answer(request)

        def browser() -> Browser | None:
            tab = self._pool.peek(request.context.key)
            return None if tab is None else tab.context.browser

        return await self._grid.guard(super().answer(request), browser, request.action)

    async def aclose(self) -> None:
        await self._surface.aclose()
        await self._pool.aclose()
        await self._launcher.aclose()
        if self._grid is not None:
            await self._grid.aclose()

    def page_for(self, context: Context) -> Page | None:
        """The Playwright page a context key currently shows, if any (for embedders, tests)."""
        tab = self._pool.peek(context.key)
        return None if tab is None else tab.current()

    async def close_idle(self) -> list[Key]:
        """Close the context keys idle for ``idle_s`` now; the provider also does this itself
        every minute or so. Returns the keys closed."""
        return await self._pool.reap()

    async def open(self, parameters: params.OpenParameters, context: Context) -> data.OpenData:
        from playwright.async_api import Error as PlaywrightError

        url, waits = parameters.url, self.timeouts
        async with self._using(context, "browser.open") as tab:
            why = await tab.policy.refusal_to_open(url)
            if why is not None:
                raise ActionError(f"{url} was not opened: {why}.")
            if parameters.viewport is not None:
                await tab.set_viewport(parameters.viewport, reload=False)
            page = await tab.fresh_for_open()
            with playwright_errors(
                "browser.open",
                url=url,
                on_timeout=f"{url} did not start loading within {waits.open_commit_s:g} s; "
                "check that the site is up, then try again.",
            ):
                tab.opened = url
                asked_ms = time.time() * 1000  # the document to wait for starts after this
                try:
                    await _goto(page, url, waits.open_commit_s)
                except PlaywrightError:
                    # A renderer that died mid-load fails the load as "aborted", and tells of
                    # the crash only after: the request was sent, so the open may have run.
                    probe = await _probe(page)
                    if probe == "crashed":
                        raise gone("browser.open", crashed=True) from None
                    if probe == "stuck":  # since the last action
                        raise PageStuckError() from None
                    blocked = tab.take_blocked()  # a redirect to browserhost's own address
                    if blocked is not None:
                        raise ActionError(blocked) from None
                    raise
            settled = await self._settle_open(tab, page, asked_ms)
            tab.frame_due = settled.frame_due
            return data.OpenData(
                url=page.url,
                title=await settled.title(page) or "",
                settled=settled.done,
                viewport=tab.viewport(),
                dialogs=tab.take_dialogs(),
                notice=tab.take_notice(),
            )

    async def snapshot(
        self, parameters: params.SnapshotParameters, context: Context
    ) -> data.SnapshotData:
        scope = parameters.selector
        async with self._using(context, "browser.snapshot") as tab:
            page = await tab.page()
            located = await targets.locate(page, scope) if scope else Located(page.main_frame, "")
            read = await pagescript.run(
                located.frame,
                "snapshot",
                scope=located.selector or None,
                textMax=SNAPSHOT_TEXT_MAX,
                elementsMax=SNAPSHOT_ELEMENTS_MAX,
            )
            targets.check_found(read, scope)
            await _read_frames(located, read)
            text: str = read["text"]
            total: int = read["textTotalChars"]
            elements = [data.Element.model_validate(item) for item in read["elements"]]
            on_page: int = read["interactiveElementsOnPage"]
            cut = total > len(text)
            more = on_page > len(elements)
            return data.SnapshotData(
                url=page.url if located.frame is page.main_frame else read["url"],
                title=read["title"],
                scope=scope or "page",
                scroll_y=read["scrollY"],
                max_scroll_y=read["maxScrollY"],
                text=text,
                elements=elements,
                viewport=tab.viewport(),
                console_problems=tab.drain_problems(),
                text_truncated=True if cut else None,
                text_total_chars=total if cut else None,
                text_above_chars=read["textAboveChars"] if cut else None,
                text_below_chars=max(0, total - read["textAboveChars"] - len(text))
                if cut
                else None,
                elements_truncated=True if more else None,
                interactive_elements_on_page=on_page if more else None,
                elements_above=read["elementsAbove"] if more else None,
                elements_below=read["elementsBelow"] if more else None,
                notice=tab.take_notice(_notice(read, elements, tab)),
            )

    async def click(self, parameters: params.ClickParameters, context: Context) -> data.ClickData:
        async with self._using(context, "browser.click") as tab:
            page = await tab.page()
            selector = parameters.selector
            if selector is None:
                selector = await _by_text(page, parameters.text or "")
            # A selector found by text now names what the agent means, whatever a snapshot said.
            aimed = await targets.target(
                page,
                selector,
                "click",
                fresh=parameters.text is not None,
                watch=True,
                by_text=parameters.text,
            )
            inner, label = aimed.clicked
            clicked = inner or selector
            tab.partial = {"clicked": clicked, "label": label}
            popup = _NextPopup(page) if aimed.info["opensWindow"] else None
            try:
                await self._press(tab, page, aimed)
                shown, settled = await self._after_input(tab, page, popup)
            finally:
                if popup is not None:
                    popup.close()
            return data.ClickData(
                clicked=clicked,
                label=label,
                url=shown.url,
                title=await settled.title(shown),
                dialogs=tab.take_dialogs(),
                **await _state_after(aimed, settled, shown),
            )

    async def type(self, parameters: params.TypeParameters, context: Context) -> data.TypeData:
        selector, value = parameters.selector, parameters.value
        async with self._using(context, "browser.type") as tab:
            page = await tab.page()
            aimed = await targets.target(
                page, selector, "type", watch=parameters.submit, text=value
            )
            with playwright_errors("browser.type", selector=selector):
                await fields.fill(page, aimed, selector, value)
                if parameters.submit:
                    await pagescript.answering(page.keyboard.press("Enter"))
            if parameters.submit:
                shown, settled = await self._after_input(tab, page, None)
            else:  # nothing to wait for: the field, its page's address and title, read once
                shown, settled = page, Settled(done=True, read=await _read_state(aimed))
            return data.TypeData(
                selector=selector,
                url=shown.url,
                title=await settled.title(shown),
                dialogs=tab.take_dialogs(),
                **await _state_after(aimed, settled, shown),
            )

    async def scroll(
        self, parameters: params.ScrollParameters, context: Context
    ) -> data.ScrollData:
        selector = parameters.selector
        direction = None if selector is not None else parameters.direction
        async with self._using(context, "browser.scroll") as tab:
            page = await tab.page()
            located = await targets.locate(page, selector) if selector else None
            where = page.main_frame if located is None else located.frame
            moved = await pagescript.run(
                where, "scroll", selector=located and located.selector, direction=direction
            )
            targets.check_found(moved, selector)
            # Pages load more as they are scrolled: the answer is the page after that.
            settled = await self._settle(tab, page, self.timeouts.input_settle_s)
            if settled.done:
                moved = await pagescript.run(where, "position")
            scroll_y: int = moved["scrollY"]
            max_scroll_y: int = moved["maxScrollY"]
            return data.ScrollData(
                scroll_y=scroll_y,
                max_scroll_y=max_scroll_y,
                at_top=scroll_y <= 0,
                at_bottom=scroll_y >= max_scroll_y - 1,
                scrolled_to=selector,
                direction=direction,
            )

    async def back(
        self, parameters: params.BackParameters, context: Context
    ) -> data.NavigationData:
        async with self._using(context, "browser.back") as tab:
            page = await tab.page()
            index, urls = await tab.history()
            # The blank page every tab starts on is not a page to go back to.
            if index <= 0 or (index == 1 and urls[0] == "about:blank"):
                raise ActionError("There is no earlier page to go back to; use browser.open.")
            await self._travel(page, -1, urls[index - 1])
            return data.NavigationData(
                url=page.url, title=await pagescript.title(page), dialogs=tab.take_dialogs()
            )

    async def forward(
        self, parameters: params.ForwardParameters, context: Context
    ) -> data.NavigationData:
        async with self._using(context, "browser.forward") as tab:
            page = await tab.page()
            index, urls = await tab.history()
            if index >= len(urls) - 1:
                raise ActionError("There is no later page to go forward to.")
            await self._travel(page, +1, urls[index + 1])
            return data.NavigationData(
                url=page.url, title=await pagescript.title(page), dialogs=tab.take_dialogs()
            )

    async def inspect(
        self, parameters: params.InspectParameters, context: Context
    ) -> data.InspectData:
        selector = parameters.selector
        async with self._using(context, "browser.inspect") as tab:
            page = await tab.page()
            aimed = await targets.target(
                page,
                selector,
                "inspect",
                styles=list(INSPECT_STYLES),
                value_max=SNAPSHOT_TEXT_MAX,  # the whole value, where a snapshot cuts it
            )
            facts = _fields(data.InspectData, aimed.info)
            return data.InspectData.model_validate({**facts, "selector": selector})

    async def capture(
        self, parameters: params.CaptureParameters, context: Context
    ) -> data.CaptureData:
        async with self._using(context, "browser.capture") as tab:
            page = await tab.page()
            with playwright_errors(
                "browser.capture",
                on_timeout=f"The page did not render a picture within "
                f"{self.timeouts.capture_s:g} s; try again.",
            ):
                png = await page.screenshot(type="png", timeout=self.timeouts.capture_s * 1000)
            width, height = png_size(png)
            return data.CaptureData(
                base64=base64.b64encode(png).decode("ascii"),
                mime="image/png",
                width=width,
                height=height,
                url=page.url,
                title=await pagescript.title(page),
                viewport=tab.viewport(),
            )

    async def resize(
        self, parameters: params.ResizeParameters, context: Context
    ) -> data.ResizeData:
        async with self._using(context, "browser.resize") as tab:
            await tab.set_viewport(parameters.viewport)
            return data.ResizeData(viewport=tab.viewport())

    async def _press(self, tab: Tab, page: Page, aimed: targets.Target) -> None:
        """Press the mouse where a person would: the point :func:`targets.target` checked is
        not covered by anything else."""
        x, y = aimed.point
        tab.pointer = (page, x, y)
        try:
            with playwright_errors("browser.click"):
                # The press is answered once the page has handled it: a handler that never
                # returns leaves it unanswered.
                await pagescript.answering(page.mouse.click(x, y))
        except BrowserGoneError:
            # A page that closed itself in answer to the click (window.close()) is the click
            # having happened; anything else went away under it.
            if not (page.is_closed() and _connected(tab)):
                raise

    async def _after_input(
        self, tab: Tab, page: Page, popup: _NextPopup | None
    ) -> tuple[Page, Settled]:
        """The page the agent sees after a click or a submit, once it has settled (bounded):
        the window a ``target=_blank`` link opened, else the tab's current page."""
        shown = tab.current() or page
        if popup is not None:
            shown = await popup.wait(self.timeouts.input_settle_s) or shown
        settled = Settled(done=True)
        if not shown.is_closed():
            settled = await self._settle(tab, shown, self.timeouts.input_settle_s)
        if shown.is_closed():  # it closed itself: the page that opened it shows again
            shown = tab.current() or shown
        return shown, settled

    async def _settle_open(self, tab: Tab, page: Page, asked_ms: float) -> Settled:
        """The open's own wait (:meth:`_settle` with ``"early"``), answered by the page itself
        where it can: its document tells at its load event whether it is calm then, and its
        title (:meth:`.Tab.told_loaded`). Asking instead waits for a renderer busy drawing
        the page it just loaded, a few milliseconds more on a loaded machine. A page that
        is not calm at its load, has requests in flight or does not tell is waited for as
        before."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeouts.open_settle_s
        told = await tab.told_loaded(page, asked_ms, self.timeouts.open_settle_s)
        if told is not None and told["calm"] and told["url"] == page.url and not tab.loading(page):
            return Settled(done=True, read={**told, "due": True})
        return await self._settle(tab, page, max(0.0, deadline - loop.time()), opened="early")

    async def _settle(
        self, tab: Tab, page: Page, budget_s: float, *, opened: Opened = None
    ) -> Settled:
        """Wait (within ``budget_s``) for the load event, then for the page to stop changing:
        none of its requests in flight and no change to the document for ``quiet_s``. A page
        with nothing in flight and nothing moving by its next frame is settled then; one that
        was busy must stay still for the whole quiet time. A page built by script after its
        load event is waited for; one that never stops changing is not, past the budget.

        After an open (``opened``) the frame is the first after the load event, which the page
        watches itself. ``"early"`` (the open's own wait) answers once the page has loaded
        with nothing moving, that frame still due (:attr:`Settled.frame_due`); the next
        action waits for it first (``"due"``, in :meth:`_using`), and by then, when an agent
        has read the answer and thought, it has long passed."""
        from playwright.async_api import Error as PlaywrightError

        loop = asyncio.get_running_loop()
        deadline = loop.time() + budget_s
        glance = True
        try:
            async with asyncio.timeout(budget_s + QUIET_GRACE_S):
                while (left := deadline - loop.time()) > 0:
                    read = await pagescript.run(
                        page,
                        "quiet",
                        quietMs=self.timeouts.quiet_s * 1000,
                        maxMs=left * 1000,
                        glance=glance,
                        load=True,
                        opened=opened is not None,
                        early=opened == "early",
                    )
                    if not read["quiet"]:
                        return Settled(done=False, read=read)
                    if not tab.loading(page):
                        return Settled(done=True, read=read)
                    glance = False
                    await tab.network_quiet(page, deadline - loop.time())
        except (TimeoutError, PlaywrightError):
            pass  # still changing, or gone: the caller reports what it finds
        return Settled(done=False)

    async def _travel(self, page: Page, delta: int, target: str) -> None:
        """Go ``delta`` steps through history to ``target``; a page that shows up but is still
        loading when the wait ends counts as arrived."""
        from playwright.async_api import TimeoutError as PlaywrightTimeoutError

        action = "browser.back" if delta < 0 else "browser.forward"
        which = "previous" if delta < 0 else "next"
        timeout = self.timeouts.history_s * 1000
        with playwright_errors(
            action, on_timeout=f"The {which} page did not load in time; try again."
        ):
            try:
                if delta < 0:
                    await page.go_back(timeout=timeout)
                else:
                    await page.go_forward(timeout=timeout)
            except PlaywrightTimeoutError:
                if page.url != target:
                    raise

    @asynccontextmanager
    async def _using(self, context: Context, action: str) -> AsyncIterator[Tab]:
        """The context key's tab, held for one action; reports navigations it blocked."""
        self._surface.acted(context.key)
        # With a Grid, each key's tab brings its own browser (:mod:`.grid`).
        browser = None if self._grid is not None else await self._launcher.browser()
        with playwright_errors(action):
            tab = await self._locked_tab(browser, context.key)
            if tab.held is not None and action != DIALOG_VERB:  # it showed while we waited
                tab.lock.release()
                raise ActionError(f"{held_notice(tab.held)} {action} was not run.")
            tab.welcome_popups = action in ("browser.click", "browser.type", "verb.mouse")
            tab.partial = {}
            tab.notices = []
            tab.take_dialogs()  # left by an action that was refused after a dialog showed
            tab.acting = True
            try:
                reset, tab.reset = tab.reset, None
                if reset is not None:
                    # The page is blank now; only reading it or opening another makes sense.
                    gone = f"{reset}: its pages, cookies and logins are gone"
                    if action not in RUN_AFTER_RESET:
                        raise ActionError(
                            f"{gone} and the page is blank. {action} was not run; open a page "
                            "again."
                        )
                    tab.notices.append(
                        f"{gone}; this page was opened without them."
                        if action == "browser.open"
                        else f"{gone} and the page is blank."
                    )
                due, tab.frame_due = tab.frame_due, False
                current = tab.current()
                if due and action != "browser.open" and current is not None:
                    await self._settle(tab, current, self.timeouts.input_settle_s, opened="due")
                # Between actions, only a page left on a forbidden address, or on the error
                # page of a blocked load, matters.
                earlier, current = tab.take_blocked(), tab.current()
                if earlier is not None and current is not None and _on_blocked(tab, current):
                    where = await _leave_blocked(tab)
                    raise ActionError(f"{earlier} The page is now {where}; {action} was not run.")
                try:
                    yield tab
                except PageStuckError as stuck:
                    await tab.close_current()
                    raise PageStuckError(action) from stuck
                except ActionError as refused:
                    # A wait that ran out (for a field to take text, say) may be a page that
                    # stopped answering, and then the refusal would blame the element.
                    page = tab.current()
                    if page is not None and await _probe(page) != "answers":
                        await tab.close_current()
                        raise PageStuckError(action) from refused
                    raise
                blocked = tab.take_blocked()
                if blocked is not None:
                    where = await _leave_blocked(tab)
                    raise ActionError(f"{blocked} The page is now {where}.")
            finally:
                tab.take_blocked()  # already reported, or superseded by the action's own error
                tab.acting = False
                self._pool.touch(tab)
                tab.lock.release()

    async def _locked_tab(self, browser: Browser | None, key: Key) -> Tab:
        while True:
            tab = await self._pool.tab(browser, key)
            await tab.lock.acquire()
            if not tab.closed:
                return tab
            tab.lock.release()  # reaped while we waited: take the key's new tab


def register() -> dict[str, Any]:
    """The ``browserhost.providers`` entry point: the catalog record of a Chromium provider,
    which launches instances of itself with options (:mod:`.instances`); on a Grid, the
    providers listing shows the Grid's free and busy slots."""
    provider = ChromiumProvider()
    record = provider.registration() | {"launch": launch_record(provider, ChromiumProvider)}
    if provider._grid is not None:
        record["capacity"] = provider._grid.listed
    return record


def _held_answer(request: ProviderRequest, tab: Tab) -> Answer:
    """The answer to an action a dialog stopped midway: what is known so far, with the dialog
    marked open. An action with nothing to say yet may have run (``REQUEST_FAILED``)."""
    page = tab.current()
    url = "about:blank" if page is None else page.url
    dialogs = tab.take_dialogs()
    if not dialogs:
        assert tab.held is not None
        dialogs = [data.Dialog(type=tab.held.type, message=tab.held.message, answer="open")]
    action, asked = request.action, request.parameters
    result: data.Data | dict[str, Any]
    if action == "browser.open":
        result = data.OpenData(
            url=url, title="", settled=False, viewport=tab.viewport(), dialogs=dialogs
        )
    elif action == "browser.click" and tab.partial:
        result = data.ClickData(
            clicked=tab.partial["clicked"], label=tab.partial["label"], url=url, dialogs=dialogs
        )
    elif action == "browser.type" and isinstance(asked, params.TypeParameters):
        result = data.TypeData(selector=asked.selector, url=url, dialogs=dialogs)
    elif action in ("browser.back", "browser.forward"):
        result = data.NavigationData(url=url, title="", dialogs=dialogs)
    elif verb_name(action) is not None:
        result = {"url": url, "dialogs": [d.model_dump(mode="json") for d in dialogs]}
    else:
        assert tab.held is not None
        raise MayHaveRunError(
            f"{held_notice(tab.held)} {action} was stopped by it midway and may have run."
        )
    if isinstance(result, data.Data):
        result = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return {"ok": True, "data": result}


def _retrieved(work: asyncio.Future[Answer]) -> None:
    """An action answered early (a dialog held it) ends unheard; its error, if any, too."""
    if not work.cancelled():
        work.exception()


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


@dataclass(frozen=True)
class Settled:
    """How a wait for the page to settle ended, and the page's last read (url, title, and the
    acted-on element's state) when the wait took one."""

    done: bool
    read: dict[str, Any] | None = None

    @property
    def frame_due(self) -> bool:
        """An open answered before its page's first frame after load: see :meth:`_settle`."""
        return bool(self.read and self.read.get("due"))

    async def title(self, page: Page) -> str | None:
        """The page's title; ``None`` for a page that closed itself (``window.close()``)."""
        if page.is_closed():
            return None
        if self.read is not None and self.read.get("url") == page.url:
            return str(self.read["title"])
        return await pagescript.title(page)


def _fields(
    model: type[data.Data], info: dict[str, Any], *, exclude: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The page script's wire fields that ``model`` declares, and no others (the script also
    answers facts for the provider's own use: ``typable``, ``aim``, ...)."""
    wanted = {field.alias or name for name, field in model.model_fields.items()} - exclude
    return {key: value for key, value in info.items() if key in wanted}


_NOT_AFTER_ACTION = frozenset({"options", "focused", "multiple"})
"""State an action's answer leaves out: the snapshot has it, and it says nothing new."""


async def _state_after(aimed: targets.Target, settled: Settled, shown: Page) -> dict[str, Any]:
    """The acted-on element's state after the action, when it is still there."""
    read = settled.read
    if read is None or aimed.located.frame is not shown.main_frame:
        read = await _read_state(aimed)
    state = read.get("state") if read else None
    if not state:
        return {}
    return _fields(data.ElementState, state, exclude=_NOT_AFTER_ACTION)


async def _read_state(aimed: targets.Target) -> dict[str, Any] | None:
    """The acted-on element's state with its frame's address and title; ``None`` when the
    frame went away."""
    from playwright.async_api import Error as PlaywrightError

    frame = aimed.located.frame
    if frame.is_detached():
        return None
    try:
        read: dict[str, Any] = await pagescript.run(frame, "state")
    except PlaywrightError:
        return None
    return read


def _notice(read: dict[str, Any], elements: list[data.Element], tab: Tab) -> str | None:
    if read.get("url") == "about:blank":
        # Said already when the session was reset under the agent.
        return None if tab.notices else "Nothing is open: the page is blank; use browser.open."
    if not elements and not read["text"]:
        return (
            "The page shows no text and no interactive elements; it may still be loading. Take "
            "another snapshot in a moment, or a capture to see it."
        )
    if read.get("loading"):
        return "The page is still loading; what it shows may change."
    return None


async def _read_frames(located: Located, read: dict[str, Any], depth: int = 0) -> None:
    """Add the elements and text of the iframes shown in a snapshot's frame to ``read``: their
    selectors step into the frame (``iframe#pay >> #card``), their bounds are in the page."""
    from playwright.async_api import Error as PlaywrightError

    if depth >= targets.FRAME_DEPTH_MAX:
        return
    for inner in await targets.child_frames(located):
        room = SNAPSHOT_ELEMENTS_MAX - len(read["elements"])
        if room <= 0:
            return
        try:
            sub = await pagescript.run(
                inner.frame, "snapshot", scope=None, textMax=SNAPSHOT_TEXT_MAX, elementsMax=room
            )
            await _read_frames(inner, sub, depth + 1)
        except PlaywrightError:
            continue  # the frame went away while being read
        for element in sub["elements"]:
            element["selector"] = inner.prefix + element["selector"]
            element["bounds"]["x"] += round(inner.x - located.x)
            element["bounds"]["y"] += round(inner.y - located.y)
            element["inViewport"] = element["inViewport"] and inner.shown
        read["elements"].extend(sub["elements"])
        read["interactiveElementsOnPage"] += sub["interactiveElementsOnPage"]
        if sub["text"] and len(read["text"]) < SNAPSHOT_TEXT_MAX:
            heading = f"[frame {inner.prefix.removesuffix(targets.HOP)}]"
            framed = ("\n\n" if read["text"] else "") + f"{heading}\n{sub['text']}"
            read["text"] = (read["text"] + framed)[:SNAPSHOT_TEXT_MAX]
        read["textTotalChars"] += sub["textTotalChars"]


async def _by_text(page: Page, text: str, doing: tuple[str, str] = ("click", "clicked")) -> str:
    """The selector of the one element an agent means by ``text``, looking into iframes when
    the page itself has none. ``doing``: the action, and what it did, for the refusals."""
    from playwright.async_api import Error as PlaywrightError

    found = await pagescript.run(page, "findText", text=text, limit=TEXT_CANDIDATES_MAX)
    matches: list[dict[str, Any]] = found["matches"]
    total: int = found["total"]
    if total == 0:
        for inner in await targets.child_frames(Located(page.main_frame, "")):
            try:
                more = await pagescript.run(
                    inner.frame, "findText", text=text, limit=TEXT_CANDIDATES_MAX
                )
            except PlaywrightError:
                continue  # a frame that went away has nothing to click
            for match in more["matches"]:
                match["selector"] = inner.prefix + match["selector"]
            matches += more["matches"]
            total += more["total"]
    if total == 0:
        raise ActionError(
            f'No visible element has the text "{text}"; take a new snapshot and {doing[0]} by '
            "selector."
        )
    if total > 1:
        listed = "; ".join(f'{m["selector"]} ({m["tag"]} "{m["label"]}")' for m in matches)
        more = f"; and {total - len(matches)} more" if total > len(matches) else ""
        raise ActionError(
            f'"{text}" matches {total} elements: {listed}{more}. Nothing was {doing[1]}; '
            f"{doing[0]} one by its selector."
        )
    return str(matches[0]["selector"])


async def _goto(page: Page, url: str, timeout_s: float) -> None:
    """Load ``url``, asking the site once: a load is never asked for twice, since the site
    may act on each request."""
    from playwright.async_api import Error as PlaywrightError

    shown = _MainFrameNavigations(page)
    try:
        await page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
    except PlaywrightError as exc:
        text = str(exc)
        if f'another navigation to "{ERROR_PAGE_SCHEME}:' in text:
            # Chromium's error page for an earlier failed load, shown late, cut in; the load
            # asked for goes on behind it.
            if await shown.next(lambda there: not there.startswith(ERROR_PAGE_SCHEME), timeout_s):
                return
        elif "net::ERR_" in text and "net::ERR_ABORTED" not in text:
            # Chromium shows its error page for the failed load a moment after the failure;
            # let it, so that it cannot cut into the next load.
            await shown.next(lambda there: there.startswith(ERROR_PAGE_SCHEME), ERROR_PAGE_WAIT_S)
        raise
    finally:
        shown.close()


class _MainFrameNavigations:
    """The addresses ``page``'s main frame commits, from now on."""

    def __init__(self, page: Page) -> None:
        self._page = page
        self._seen: list[str] = []
        self._changed = asyncio.Event()
        page.on("framenavigated", self._on_navigated)

    def _on_navigated(self, frame: Frame) -> None:
        if frame is self._page.main_frame:
            self._seen.append(frame.url)
            self._changed.set()

    async def next(self, wanted: Callable[[str], bool], timeout_s: float) -> bool:
        """Whether the main frame commits an address ``wanted`` accepts within ``timeout_s``
        (or did already)."""
        try:
            async with asyncio.timeout(timeout_s):
                while not any(wanted(there) for there in self._seen):
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            return False
        return True

    def close(self) -> None:
        self._page.remove_listener("framenavigated", self._on_navigated)


class _NextPopup:
    """The next window ``page`` opens, caught from before the click that opens it."""

    def __init__(self, page: Page) -> None:
        self._page = page
        self._opened: asyncio.Future[Page] = asyncio.get_running_loop().create_future()
        page.on("popup", self._on_popup)

    def _on_popup(self, popup: Page) -> None:
        if not self._opened.done():
            self._opened.set_result(popup)

    async def wait(self, timeout_s: float) -> Page | None:
        try:
            async with asyncio.timeout(timeout_s):
                return await asyncio.shield(self._opened)
        except TimeoutError:
            return None

    def close(self) -> None:
        self._page.remove_listener("popup", self._on_popup)
        self._opened.cancel()


async def _probe(page: Page) -> Literal["answers", "crashed", "stuck"]:
    """Whether ``page`` runs a script within :data:`PROBE_S`: a crashed renderer fails at once,
    a page whose script never yields says nothing. A closed page is not stuck."""
    from playwright.async_api import Error as PlaywrightError

    try:
        async with asyncio.timeout(PROBE_S):
            await page.evaluate("0")
    except PlaywrightError as exc:
        if "crash" in str(exc).lower():
            return "crashed"
    except TimeoutError:
        pass
    else:
        return "answers"
    return "answers" if page.is_closed() else "stuck"


def _connected(tab: Tab) -> bool:
    browser = tab.context.browser
    return browser is not None and browser.is_connected()


async def _leave_blocked(tab: Tab) -> str:
    """Move off an address that must not be shown; returns where the page is now."""
    page = tab.current()
    if page is None or page.is_closed():
        return "about:blank"
    if _on_blocked(tab, page):
        await page.goto("about:blank")
    return page.url


def _on_blocked(tab: Tab, page: Page) -> bool:
    """Whether ``page`` shows a forbidden address, or Chromium's error page (for a load the
    network stack blocked, just reported)."""
    return tab.policy.refusal(page.url) is not None or page.url.startswith(ERROR_PAGE_SCHEME)
