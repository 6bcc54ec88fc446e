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
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from browserhost.contract import ACTIONS, Context, ProviderRequest, data, verb_name
from browserhost.contract import actions as params
from browserhost.contract.deadlines import seconds_said
from browserhost.contract.limits import SNAPSHOT_TEXT_MAX
from browserhost.contract.verbs import VERB_TIMEOUT_S
from browserhost.sdk import ActionError, refusal
from browserhost.sdk.provider import Answer

from . import checks, driver, fields, navigation, pagescript, snapshots, targets
from .access import DIALOG_VERB, TabAccess, leave_blocked, probe
from .addresses import ERROR_PAGE_SCHEME, AddressPolicy
from .contexts import ContextPool, Key, held_notice
from .diagnostics import DiagnosticVerbs
from .download_verb import DownloadVerb
from .driver import Driver
from .errors import (
    MayHaveRunError,
    PageStuckError,
    PageWaitingError,
    before_input,
    gone,
    playwright_errors,
    translate,
)
from .futures import retrieve_exception
from .grid import Grid
from .held import PLAN_SPENDERS, held_answer, spend_plan
from .inputs import (
    CLOSED_ITSELF,
    NEW_TAB,
    PRESS_ATTEMPTS,
    TAB_REUSED,
    NextPopup,
    after_input,
    after_typing,
    declared_fields,
    disabled_by_click,
    double_only,
    form_refused,
    led_to,
    missed_all,
    missed_press,
    notices,
    opens_files,
    page_says,
    partly_named,
    press,
    slipped_release,
    state_after,
)
from .instances import ProfileShare, launch_record
from .launch import ChromiumConfig, Launcher
from .pdf import PdfVerb
from .pointer import PointerVerbs
from .records import Settled, Timeouts
from .session import SessionVerbs
from .settle import settle_open
from .surface import ChromiumSurface
from .verbs import PageVerbs

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page

__all__ = ["INSPECT_STYLES", "ChromiumProvider", "Timeouts", "register"]

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
"""The computed styles ``browser.inspect`` reports, by CSS property name, as strings; an SVG
element's ``fill`` and ``stroke`` too (``snapshot.js``'s ``SVG_PAINT``)."""
REPORT_MARGIN_S = 3.0
"""How long before the host's deadline an action that has not finished stops to answer."""


def enter_idle(selector: str, ready: dict[str, Any]) -> str:
    """What a type's notice says of an Enter that could set nothing off: in a field of no
    form, of a form whose button that sends it is disabled (``disabled``), or of one with no
    such button and several fields (``unsent``: the page's other button, if any), with
    nothing listening for keys, a change or a search there; the page may have taken the text
    as it was typed (``enterIdle`` is ``"asTyped"``: it listens for input there)."""
    if "disabled" in ready:
        where = f"its form's button that sends it, {targets.named(ready['disabled'])}, is disabled"
        instead = "Take a snapshot to see what the form waits for (a box to tick, a field to fill)."
    elif "unsent" in ready:
        where = (
            "its form has several fields and no button that sends it (Enter sends such a form "
            "only when it has one field)"
        )
        other = ready["unsent"]
        instead = (
            f"Click the page's own button to go on ({targets.named(other)})."
            if other
            else "Click the page's own button to go on."
        )
    else:
        where = "it is in no form"
        instead = "Click the page's own button to send it (Submit, a search icon)."
    said = (
        f"Enter was pressed in {selector}, but {where}, and the page listens for no key or "
        "change there: "
    )
    if ready["enterIdle"] == "asTyped":
        return said + (
            "Enter set nothing off. The page takes the text as it is typed (it listens for "
            "input there): what it shows now is its answer to it; take a snapshot to see it."
        )
    return said + f"nothing was sent. {instead}"


def enter_sends(ready: dict[str, Any]) -> str:
    """What a type's notice says of an Enter in a form with several buttons that send it: the
    browser sends it as a press on the first would, whatever that one says."""
    first = targets.named(ready["enterSends"])
    return (
        f"Enter sent the form as a press on its first button, {first}, would (it has "
        f"{ready['sendsCount']} that send it); to send it with another, click that one."
    )


def _plain_text(clicked: str, text: str | None) -> str:
    """What a click's notice says when no control has the text it was asked by."""
    return (
        f'No control is named "{text}": the click pressed {clicked}, which only shows that '
        "text (a page that listens on what holds it reacts; an instruction that names a "
        "button yet to appear does nothing). Take a snapshot to see whether the page changed."
    )


def _chooses_files(aimed: targets.Target, settled: Settled) -> str | None:
    """The file input whose chooser a click opens: the one it pressed, or labels, or the
    one the page's own handler clicked as the press was answered (a drop zone's)."""
    pressed = aimed.info.get("opensFiles")
    clicked = (settled.read or {}).get("opensFiles")
    found = pressed or clicked
    return found if isinstance(found, str) else None


def _stateful(state: dict[str, Any]) -> bool:
    """Whether what a click pressed shows a state of its own after it (a list item the page
    marks checked or chosen): it is something to press, not text alone."""
    return any(key in state for key in ("checked", "selected", "marked", "pressed", "expanded"))


class ChromiumProvider(
    PageVerbs, PointerVerbs, DiagnosticVerbs, PdfVerb, DownloadVerb, SessionVerbs
):
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
        self._driver = Driver()
        self._launcher = Launcher(self.config, self._driver)
        self._grid = (
            None if self.config.grid is None else Grid(self.config.grid, self.config, self._driver)
        )
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
        self.access = TabAccess(
            self._pool, self.timeouts, browser=self._browser, acted=self._surface.acted
        )

    async def _browser(self) -> Browser | None:
        """The browser a new tab opens in; with a Grid, each key's tab brings its own."""
        return None if self._grid is not None else await self._launcher.browser()

    async def _open_context(self, browser: Browser) -> BrowserContext:
        """A new session's context: its own in the browser, or a share of the profile's."""
        profile = self._launcher.profile
        if profile is not None:
            return ProfileShare.of(profile)
        options = dict(self.config.context_options)
        if self.config.storage_state is not None:
            options["storage_state"] = dict(self.config.storage_state)
        return await browser.new_context(no_viewport=True, accept_downloads=True, **options)

    def status(self) -> str:
        """What the browser is doing: running, starting, stopped or failed."""
        return self._launcher.status()

    async def start(self) -> None:
        """Start the browser now rather than on the first action (a launched instance); with a
        Grid, each session starts its own on its first action."""
        if self._grid is None:
            await self._launcher.browser()

    async def profile_context(self) -> BrowserContext | None:
        """A profile instance's one context, its browser started if it was not running;
        ``None`` for an instance without a profile."""
        if self.config.profile_dir is None:
            return None
        await self._launcher.browser()
        return self._launcher.profile

    def session_keys(self) -> list[tuple[str | None, str | None]]:
        """The ``(directory, sessionId)`` of each session open in this browser now."""
        return [tab.key for tab in self._pool.tabs()]

    async def retire(self) -> None:
        """Close for good: an action still on its way fails instead of relaunching."""
        await self._close(self._launcher.retire)

    async def aclose(self) -> None:
        await self._close(self._launcher.aclose)

    async def _close(self, close_launcher: Callable[[], Awaitable[None]]) -> None:
        await self._surface.aclose()
        await self._pool.aclose()
        await close_launcher()
        if self._grid is not None:
            await self._grid.aclose()
        await self._driver.stop()

    def surface(self) -> ChromiumSurface:
        """The live picture of the session the agent acted on last (or the one a viewer
        pinned), and a person's hands on it; see :mod:`.surface`."""
        return self._surface

    async def answer(self, request: ProviderRequest) -> Answer:
        """Run one request. While a dialog is left open for the agent (``ask`` mode) nothing
        but the dialog verb runs; an action that a dialog stops midway is answered as soon
        as the dialog shows, and goes on once the agent answers it. The answer the dialog
        verb planned is for a dialog the next action that acts shows: where none took it,
        it is dropped, and said so."""
        tab = self._pool.peek(request.context.key)
        planned = None if tab is None else tab.dialog_plan
        answer = await self._answer(request)
        if planned is not None and self._acts(request.action):
            spend_plan(self._pool.peek(request.context.key), planned, request, answer)
        return answer

    def _acts(self, action: str) -> bool:
        """Whether ``action`` may show a dialog: one that acts on the page."""
        name = verb_name(action)
        if name is None:
            return action in PLAN_SPENDERS
        declared = self.verbs.get(name)
        return action != DIALOG_VERB and declared is not None and declared.spec.changes_page

    async def _answer(self, request: ProviderRequest) -> Answer:
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
        work.add_done_callback(retrieve_exception)  # it ends unheard
        return held_answer(request, tab)

    async def _watched(self, request: ProviderRequest) -> Answer:
        """The answer, or when none comes within the host's deadline (the request's, else the
        action's; less a margin to report in): a stuck page closed (a click whose handler
        never returns, say), and "may have run" either way."""
        action = request.action
        left_s = request.seconds_left(
            ACTIONS[action].timeout_s if action in ACTIONS else VERB_TIMEOUT_S
        )
        budget_s = left_s - min(REPORT_MARGIN_S, left_s / 4)
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
        awaited = navigation.awaited_server(page)
        if awaited is not None:
            raise PageWaitingError(awaited.url, awaited.waited_s, action)
        if tab is not None and page is not None and await probe(page) != "answers":
            async with tab.lock:
                await tab.close_current()
            raise PageStuckError(action) from None
        raise MayHaveRunError(
            f"{action} did not finish within {seconds_said(budget_s)} (the call's wait, less a "
            "moment to answer in), so it may or may not have happened; take a new snapshot to "
            "see where things stand."
        )

    async def _guarded(self, request: ProviderRequest) -> Answer:
        """The answer; with a Grid, cut short when the session's browser dies under it."""
        if self._grid is None:
            return await super().answer(request)

        def browser() -> Browser | None:
            tab = self._pool.peek(request.context.key)
            return None if tab is None else tab.context.browser

        return await self._grid.guard(super().answer(request), browser, request.action)

    def page_for(self, context: Context) -> Page | None:
        """The Playwright page a context key currently shows, if any (for embedders, tests)."""
        tab = self._pool.peek(context.key)
        return None if tab is None else tab.current()

    async def close_idle(self) -> list[Key]:
        """Close the context keys idle for ``idle_s`` now; the provider also does this itself
        every minute or so. Returns the keys closed."""
        return await self._pool.reap()

    async def open(self, parameters: params.OpenParameters, context: Context) -> data.OpenData:
        url, waits = parameters.url, self.timeouts
        async with self.access.using(context, "browser.open") as tab:
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
                asked = tab.asking_load(page)
                try:
                    arrived = await navigation.goto(page, url, waits.open_commit_s)
                except driver.PlaywrightError as failed:
                    tab.failed_open = url
                    # A redirect to browserhost's own address: Playwright tells of the failed
                    # request before it fails the load.
                    # Left on the error page that goto waited for, Chromium would load the
                    # address again by itself a second later (a host that did not resolve),
                    # and the next action would be told of a block it did not cause.
                    blocked = tab.take_blocked()
                    if blocked is not None:
                        where = await leave_blocked(tab)
                        raise ActionError(f"{blocked} The page is now {where}.") from None
                    # A renderer that died mid-load fails the load as "aborted", and tells of
                    # the crash only after: the request was sent, so the open may have run.
                    # Any other network error is the site's (and the page is on its way to
                    # Chromium's error page, which a probe could wait for in vain).
                    if "net::ERR_" in str(failed) and "ERR_ABORTED" not in str(failed):
                        said = translate(failed, "browser.open", url=url)
                        if page.url.startswith(ERROR_PAGE_SCHEME):  # goto waited for it
                            said = ActionError(
                                f"{said} The page now shows the browser's error page."
                            )
                        raise said from None
                    # Asked, and the site has not answered in time: it may act on the
                    # request, and the page still waits for it.
                    awaited = navigation.awaited_server(page)
                    if awaited is not None and isinstance(failed, driver.PlaywrightTimeoutError):
                        raise PageWaitingError(
                            awaited.url, awaited.waited_s, "browser.open"
                        ) from None
                    probed = await probe(page)
                    if probed == "crashed":
                        raise gone("browser.open", crashed=True) from None
                    if probed == "stuck":  # since the last action
                        raise PageStuckError() from None
                    raise
            if arrived.same_document:  # its fragment only: waited for as a click's change
                settled = await self.access.settle(tab, page)
            else:
                settled = await settle_open(tab, page, asked, waits)
            tab.frame_due = settled.frame_due
            tab.learn_history(page)
            return data.OpenData(
                url=page.url,
                title=await settled.title(page) or "",
                settled=settled.done,
                viewport=tab.viewport(),
                dialogs=tab.take_dialogs(),
                notice=tab.take_notice(
                    arrived.status
                    and f"The site answered {arrived.status}, an error status; the page shows "
                    "what it sent with it."
                ),
            )

    async def snapshot(
        self, parameters: params.SnapshotParameters, context: Context
    ) -> data.SnapshotData:
        async with self.access.using(context, "browser.snapshot") as tab:
            return await snapshots.snapshot(self.access, tab, parameters.selector, parameters.full)

    async def click(self, parameters: params.ClickParameters, context: Context) -> data.ClickData:
        async with self.access.using(context, "browser.click") as tab:
            page = await tab.page()
            selector, how = parameters.selector, ""
            with before_input():
                if selector is None:
                    selector, how = await targets.by_text_how(page, parameters.text or "")

            async def aim(at: str) -> targets.Target:
                # A selector found by text names what the agent means, whatever a snapshot said.
                return await targets.target(
                    page,
                    at,
                    "click",
                    fresh=parameters.text is not None,
                    watch=True,
                    by_text=parameters.text,
                    guard=True,
                )

            with before_input():
                aimed = await aim(selector)
                if parameters.selector and parameters.text and aimed.info.get("showsText") is False:
                    raise ActionError(
                        targets.not_showing(
                            parameters.selector, parameters.text, aimed.info["label"]
                        )
                    )
            # The row a virtual list drew the item in as it scrolled: the one aimed at again.
            asked, selector = selector, aimed.info.get("chased", selector)
            popup = NextPopup(tab, page, expected=aimed.info["opensWindow"])
            since = tab.downloads.mark()
            try:
                for attempt in range(1, PRESS_ATTEMPTS + 1):
                    inner, label = aimed.clicked
                    clicked = inner or selector
                    tab.partial = {"clicked": clicked, "label": label}
                    await press(tab, page, aimed)
                    shown, settled = await after_input(self.access, tab, page, popup)
                    missed = await missed_press(aimed, settled, shown)
                    if missed is None:
                        break
                    if attempt == PRESS_ATTEMPTS:
                        raise ActionError(missed_all(clicked, missed, PRESS_ATTEMPTS))
                    aimed = await aim(selector)  # as the page shows it now, the pointer over it
                if await missed_press(aimed, settled, shown, "slipped") is not None:
                    raise ActionError(slipped_release(clicked))
            finally:
                popup.close()
            state = await state_after(aimed, settled, shown, label=None if inner else label)
            return data.ClickData(
                clicked=clicked,
                label=label,
                url=shown.url,
                title=await settled.title(shown),
                dialogs=tab.take_dialogs(),
                downloads=await tab.downloads.caused(since),
                notice=notices(
                    form_refused(settled)
                    or led_to(tab, settled, shown)
                    or (TAB_REUSED if popup.reused and shown is not page else None)
                    or (NEW_TAB if shown is not page and not page.is_closed() else None)
                    or (CLOSED_ITSELF if shown is not page and page.is_closed() else None)
                    or (opens_files(files) if (files := _chooses_files(aimed, settled)) else None)
                    or (double_only(clicked) if aimed.info.get("doubleOnly") else None)
                    or (
                        _plain_text(clicked, parameters.text)
                        if how == "text" and not _stateful(state)
                        else None
                    )
                    or (
                        partly_named(parameters.text, aimed.info["label"])
                        if how == "partial"
                        else None
                    )
                    or (disabled_by_click(clicked) if state.get("disabled") else None),
                    targets.chased(asked, selector, "clicked") if selector != asked else None,
                    page_says(settled),
                    tab.take_cancelled(),
                ),
                **state,
            )

    async def type(self, parameters: params.TypeParameters, context: Context) -> data.TypeData:
        selector, value = parameters.selector, parameters.value
        async with self.access.using(context, "browser.type") as tab:
            page = await tab.page()
            with before_input():
                aimed = await targets.target(page, selector, "type", watch=True, text=value)
            asked, selector = selector, aimed.info.get("chased", selector)
            since, in_flight = tab.downloads.mark(), tab.in_flight(page)
            popup = NextPopup(tab, page, expected=False)  # a submit's handler may open a window
            try:
                with playwright_errors("browser.type", selector=selector):
                    if aimed.info.get("editor"):
                        notice = await fields.into_editor(page, aimed, selector, value)
                        filled = fields.Filled(notice=notice, typed=True)
                    else:
                        filled = await fields.fill(tab, page, aimed, selector, value)
                    if parameters.submit:
                        # What the text set off first (a list filtered as it is typed,
                        # suggestions asked for): Enter picks what the page shows for the
                        # whole text, not what it showed for its first letters.
                        await after_typing(self.access, tab, page, aimed, in_flight, filled.read)
                        await pagescript.answering(page.keyboard.press("Enter"))
                if parameters.submit:
                    shown, settled = await after_input(self.access, tab, page, popup)
                    submitted = form_refused(settled) or led_to(tab, settled, shown)
                    ready = aimed.info.get("ready") or {}
                    # Told before the text went in, and still so after the Enter (a page
                    # may enable the form's button as the text goes in).
                    if ready.get("enterIdle") and (settled.read or {}).get("enterSent") is False:
                        submitted = submitted or enter_idle(selector, ready)
                    if ready.get("enterSends"):
                        submitted = notices(submitted, enter_sends(ready))
                else:
                    settled = await after_typing(
                        self.access, tab, page, aimed, in_flight, filled.read
                    )
                    shown, submitted = page, None
            finally:
                popup.close()
            state = await state_after(aimed, settled, shown)
            # After a submit the field may be emptied or gone: what it held as the text went
            # in; and what it holds after the Enter, if anything (a date the page parsed).
            held = ((filled.read or {}).get("state") or {}) if parameters.submit else state
            after = state if parameters.submit and state.get("value") else {}
            refused = (
                fields.made_items(selector, settled.read or {})
                or fields.sent_on(selector, value, held, settled.read or {})
                or fields.not_taken(selector, value, held)
                or fields.not_taken(selector, value, after)
                if filled.typed and not filled.notice
                else None
            )
            # A combobox's text is its search: with its list open, nothing is chosen.
            left_open = (
                fields.list_left_open(selector, value, submitted=parameters.submit)
                if aimed.info.get("role") == "combobox" and state.get("expanded") and value
                else None
            )
            return data.TypeData(
                selector=selector,
                url=shown.url,
                title=await settled.title(shown),
                dialogs=tab.take_dialogs(),
                downloads=await tab.downloads.caused(since),
                notice=notices(
                    filled.notice or refused,
                    submitted or left_open,
                    targets.chased(asked, selector, "typed into") if selector != asked else None,
                    page_says(settled),
                    tab.take_cancelled(),
                ),
                **state,
            )

    async def scroll(
        self, parameters: params.ScrollParameters, context: Context
    ) -> data.ScrollData:
        selector, direction = parameters.selector, parameters.direction
        async with self.access.using(context, "browser.scroll") as tab:
            page = await tab.page()
            located = await targets.locate(page, selector) if selector else None
            where = page.main_frame if located is None else located.frame
            moved = await pagescript.run(
                where, "scroll", selector=located and located.selector, direction=direction
            )
            if moved.get("error") == "sideways":
                raise ActionError(targets.SCROLLS_SIDEWAYS.format(selector=selector))
            if moved.get("error") == "noScroll":
                raise ActionError(
                    f"{selector} does not scroll (what it holds fits in it), so nothing was "
                    f"scrolled; give direction alone to scroll the page, or selector alone to "
                    f"bring {selector} into view."
                )
            targets.check_found(moved, selector)
            if selector is not None:
                targets.check_usable(selector, moved, "scrolled to")
            box = moved.get("box")
            # The element itself, or the box that scrolls it, moved (both given): its position
            # is the answer's. The body or the root named with a direction: the page moved.
            itself = box if located and direction else None
            paged = bool(moved.get("page"))
            # Pages load more as they are scrolled: the answer is the page after that.
            settled = await self.access.settle(tab, page)
            if settled.done:
                moved = await pagescript.run(where, "position", selector=itself)
            scroll_y: int = moved["scrollY"]
            max_scroll_y: int = moved["maxScrollY"]
            return data.ScrollData(
                scroll_y=scroll_y,
                max_scroll_y=max_scroll_y,
                at_top=scroll_y <= 0,
                at_bottom=scroll_y >= max_scroll_y - 1,
                scrolled_to=None if itself or paged else selector,
                direction=direction,
                box=(selector if itself == located.selector else located.prefix + itself)
                if located and itself
                else box,
            )

    async def back(
        self, parameters: params.BackParameters, context: Context
    ) -> data.NavigationData:
        return await self._through_history(context, -1)

    async def forward(
        self, parameters: params.ForwardParameters, context: Context
    ) -> data.NavigationData:
        return await self._through_history(context, +1)

    async def _through_history(self, context: Context, delta: int) -> data.NavigationData:
        """``browser.back`` (``delta`` -1) or ``browser.forward`` (+1)."""
        async with self.access.using(context, navigation.history_action(delta)) as tab:
            page = await tab.page()
            index, urls = await tab.history()
            # The blank page every tab starts on is not a page to go back to.
            if delta < 0 and (index <= 0 or (index == 1 and urls[0] == "about:blank")):
                if len(tab.pages()) > 1:  # a link opened this page in a tab of its own
                    raise ActionError(
                        "There is no earlier page in this tab, which opened from another "
                        "(a link to a new tab, say); the tabs verb switches back to that one, "
                        "or closes this one."
                    )
                raise ActionError("There is no earlier page to go back to; use browser.open.")
            if delta > 0 and index >= len(urls) - 1:
                raise ActionError("There is no later page to go forward to.")
            waits, moves = self.timeouts, tab.moves(page)
            asked = tab.asking_load(page)
            if await navigation.travel(page, delta, urls[index + delta], waits.history_s):
                settled = await settle_open(tab, page, asked, waits, waits.history_s)
            else:  # a page shown again, or the same one at another entry: as after input
                settled = await self.access.settle(tab, page)
            tab.frame_due = settled.frame_due
            tab.travelled(page, index + delta, urls, moves)
            return data.NavigationData(
                url=page.url, title=await settled.title(page) or "", dialogs=tab.take_dialogs()
            )

    async def inspect(
        self, parameters: params.InspectParameters, context: Context
    ) -> data.InspectData:
        selector = parameters.selector
        async with self.access.using(context, "browser.inspect") as tab:
            page = await tab.page()
            aimed = await targets.target(
                page,
                selector,
                "inspect",
                styles=list(INSPECT_STYLES),
                value_max=SNAPSHOT_TEXT_MAX,  # the whole value, where a snapshot cuts it
            )
            facts = declared_fields(data.InspectData, await targets.in_page(page, aimed))
            return data.InspectData.model_validate({**facts, "selector": selector})

    async def capture(
        self, parameters: params.CaptureParameters, context: Context
    ) -> data.CaptureData:
        async with self.access.using(context, "browser.capture") as tab:
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
        async with self.access.using(context, "browser.resize") as tab:
            await tab.set_viewport(parameters.viewport)
            return data.ResizeData(viewport=tab.viewport())


def register() -> dict[str, Any]:
    """The ``browserhost.providers`` entry point: the catalog record of a Chromium provider,
    which launches instances of itself with options (:mod:`.instances`); on a Grid, the
    providers listing shows the Grid's free and busy slots."""
    provider = ChromiumProvider()
    record = provider.registration() | {"launch": launch_record(provider, ChromiumProvider)}
    record["checks"] = checks.checks  # what `browserhost doctor` runs for this provider
    if provider._grid is not None:
        record["capacity"] = provider._grid.listed
    else:  # its one browser starts here, on the first action
        record["state"] = provider.status
    return record


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)
