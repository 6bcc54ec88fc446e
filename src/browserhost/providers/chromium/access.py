"""What every action and verb runs through: the context key's tab, held for one action.

:meth:`TabAccess.using` gives an action its tab once the last action on it is done, and
checks around it what the agent must hear of: a session reset under it, a page left on a
forbidden address, a page that stopped answering. :meth:`TabAccess.settle` waits for the
page to settle after input (:mod:`.settle`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Literal

from browserhost.contract import VERB_PREFIX, Context
from browserhost.sdk import ActionError

from . import driver, navigation, settle
from .addresses import BLANK, ERROR_PAGE_SCHEME
from .contexts import ContextPool, Key, Tab, held_notice
from .errors import (
    PageStuckError,
    PageWaitingError,
    playwright_errors,
    waiting_to_act,
    waiting_to_read,
)
from .futures import retrieve_exception
from .records import Opened, Settled, Timeouts
from .targets import NotFound

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page

DIALOG_VERB = f"{VERB_PREFIX}dialog"
RUN_AFTER_RESET = frozenset({"browser.open", "browser.snapshot"})
"""What still runs, with a notice, as a session's first action after its context was closed
under it (see :class:`~.contexts.ContextPool`); anything else is refused once."""

HISTORY_ACTIONS = frozenset({"browser.back", "browser.forward"})
READS = frozenset({"browser.snapshot", "browser.inspect"})
"""Actions that only read the page: one that could not (see :class:`.PageWaitingError`) did
not run."""

PROBE_S = 1.0
"""How long the provider asks a page whether it is still there and answering."""
PROBE_LIMIT_S = 10.0
"""How long it waits for the browser's own answer when the page was late (see :func:`probe`)."""
STUCK_S = 3.0
"""How much longer a late page has to answer once the browser itself has answered: on a
loaded machine a renderer (a new tab's above all) can take seconds, and a page called stuck
is closed."""


async def blank(page: Page | None) -> bool:
    """Whether ``page`` is the blank page a tab starts on, with nothing written into it."""
    if page is None or page.url != BLANK:
        return False
    try:
        return bool(await page.evaluate("() => !document.documentElement.innerText.trim()"))
    except driver.PlaywrightError:
        return False


class TabAccess:
    """The tabs of one provider's context keys, one action at a time on each.

    ``browser`` gives the browser a new tab opens in (``None`` with a Grid, where each key's
    tab brings its own, see :mod:`.grid`); ``acted`` is told each key an action runs for."""

    def __init__(
        self,
        pool: ContextPool,
        timeouts: Timeouts,
        *,
        browser: Callable[[], Awaitable[Browser | None]],
        acted: Callable[[Key], None],
    ) -> None:
        self.pool = pool
        self.timeouts = timeouts
        self._browser = browser
        self._acted = acted

    async def settle(
        self, tab: Tab, page: Page, budget_s: float | None = None, *, opened: Opened = None
    ) -> Settled:
        """:func:`.settle.settle` within ``budget_s``, by default the wait after input."""
        budget = self.timeouts.input_settle_s if budget_s is None else budget_s
        return await settle.settle(tab, page, budget, quiet_s=self.timeouts.quiet_s, opened=opened)

    @asynccontextmanager
    async def using(self, context: Context, action: str) -> AsyncIterator[Tab]:
        """The context key's tab, held for one action; reports navigations it blocked."""
        self._acted(context.key)
        browser = await self._browser()
        with playwright_errors(action):
            tab = await self._locked_tab(browser, context.key)
            if tab.held is not None and action != DIALOG_VERB:  # it showed while we waited
                tab.lock.release()
                raise ActionError(f"{held_notice(tab.held)} {action} was not run.")
            tab.welcome_popups = action in ("browser.click", "browser.type", "verb.mouse")
            tab.partial = {}
            tab.notices = []
            # Left by an action that was refused after a dialog showed.
            tab.take_dialogs()
            tab.take_cancelled()
            tab.acting = True
            try:
                await self._before(tab, action)
                try:
                    yield tab
                except PageWaitingError as waiting:
                    awaited = navigation.awaited_server(tab.current())
                    if awaited is None:
                        raise
                    if action in READS:  # it changed nothing: it did not run
                        raise ActionError(waiting_to_read(awaited.url, awaited.waited_s)) from None
                    if waiting.before_input:  # still finding its element: nothing was sent
                        said = waiting_to_act(awaited.url, awaited.waited_s, action)
                        raise ActionError(said) from None
                    raise PageWaitingError(awaited.url, awaited.waited_s, action) from waiting
                except PageStuckError as stuck:
                    await tab.close_current()
                    raise PageStuckError(action) from stuck
                except NotFound:
                    if await blank(tab.current()):  # not an element gone: nothing was opened
                        raise ActionError(
                            f"Nothing is open: the page is blank, so {action} was not run; "
                            "use browser.open."
                        ) from None
                    raise
                except ActionError as refused:
                    # A wait that ran out (for a field to take text, say) may be a page that
                    # stopped answering, and then the refusal would blame the element; not
                    # one that waits for its server, which runs no script meanwhile.
                    page = tab.current()
                    if (
                        page is not None
                        and navigation.awaited_server(page) is None
                        and await probe(page) != "answers"
                    ):
                        await tab.close_current()
                        raise PageStuckError(action) from refused
                    raise
                blocked = tab.take_blocked()
                if blocked is not None:
                    where = await leave_blocked(tab)
                    raise ActionError(f"{blocked} The page is now {where}.")
            finally:
                tab.take_blocked()  # already reported, or superseded by the action's own error
                tab.acting = False
                self.pool.touch(tab)
                tab.lock.release()

    async def _before(self, tab: Tab, action: str) -> None:
        """What an action must know or wait for before it starts: a reset session, an open's
        first frame still due, a page left on a blocked address."""
        reset, tab.reset = tab.reset, None
        if reset is not None:
            # The page is blank now; only reading it or opening another makes sense.
            gone = f"{reset}: its pages, cookies and logins are gone"
            if action not in RUN_AFTER_RESET:
                raise ActionError(
                    f"{gone} and the page is blank. {action} was not run; open a page again."
                )
            tab.notices.append(
                f"{gone}; this page was opened without them."
                if action == "browser.open"
                else f"{gone} and the page is blank."
            )
        current = tab.current()
        # A page about to be left has no use for its first frame; back or forward refused
        # before it leaves still owes that frame to the next action, and a snapshot waits
        # for it in its own read of the page (:func:`.snapshots.snapshot`).
        if action not in HISTORY_ACTIONS and action != "browser.snapshot":
            due, tab.frame_due = tab.frame_due, False
            if due and action != "browser.open" and current is not None:
                await self.settle(tab, current, opened="due")
        # Between actions, only a page left on a forbidden address, or on the error page of a
        # blocked load, matters. A load blocked in the network stack has failed before
        # Chromium shows its error page: that page is waited for (a moment at most).
        earlier, current = tab.take_blocked(), tab.current()
        if (
            earlier is not None
            and current is not None
            and await navigation.shown(current, lambda there: _on_blocked(tab, there))
        ):
            where = await leave_blocked(tab)
            raise ActionError(f"{earlier} The page is now {where}; {action} was not run.")

    async def _locked_tab(self, browser: Browser | None, key: Key) -> Tab:
        while True:
            tab = await self.pool.tab(browser, key)
            await tab.lock.acquire()
            if not tab.closed:
                return tab
            tab.lock.release()  # reaped while we waited: take the key's new tab


async def probe(page: Page) -> Literal["answers", "crashed", "stuck"]:
    """Whether ``page`` runs a script within :data:`PROBE_S`: a crashed renderer fails at once,
    a page whose script never yields says nothing. A closed page is not stuck.

    On a machine too busy to answer within :data:`PROBE_S`, a page that is merely late looks
    stuck; so a late page is called stuck only once the browser itself has answered a call
    that needs no renderer (its cookies), asked after the script, within
    :data:`PROBE_LIMIT_S` in all, and the page is still silent :data:`STUCK_S` after that."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PROBE_LIMIT_S
    script = asyncio.ensure_future(page.evaluate("0"))
    script.add_done_callback(retrieve_exception)
    try:
        try:
            await asyncio.wait_for(asyncio.shield(script), PROBE_S)
        except TimeoutError:
            with contextlib.suppress(driver.PlaywrightError, TimeoutError):
                async with asyncio.timeout(max(0.0, deadline - loop.time())):
                    await page.context.cookies("about:blank")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(script), STUCK_S)
            if not script.done():
                return "answers" if page.is_closed() else "stuck"
        script.result()
    except driver.PlaywrightError as exc:
        # Any other error is an answer: a navigation that replaced the document under the
        # probe ("execution context was destroyed") comes from a renderer that runs.
        return "crashed" if "crash" in str(exc).lower() else "answers"
    finally:
        script.cancel()
    return "answers"


async def leave_blocked(tab: Tab) -> str:
    """Move off an address that must not be shown; returns where the page is now."""
    page = tab.current()
    if page is None or page.is_closed():
        return "about:blank"
    if _on_blocked(tab, page.url):
        await page.goto("about:blank")
    return page.url


def _on_blocked(tab: Tab, url: str) -> bool:
    """Whether a page at ``url`` shows a forbidden address, or Chromium's error page (for a
    load the network stack blocked, just reported)."""
    return tab.policy.refusal(url) is not None or url.startswith(ERROR_PAGE_SCHEME)
