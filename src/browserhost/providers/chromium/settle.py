"""Waiting for a page to settle after an action: loaded, none of its requests in flight, and
its document unchanged for a moment (see :func:`settle`)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from . import driver, pagescript
from .addresses import BLANK
from .errors import PageWaitingError
from .records import Opened, Settled, Timeouts

if TYPE_CHECKING:
    from playwright.async_api import Page

    from .contexts import Tab
    from .page_watch import LoadAsked

QUIET_GRACE_S = 2.0
"""How far past its budget a settle wait may run before it is cut off (a page that does not
answer at all)."""


async def settle(
    tab: Tab, page: Page, budget_s: float, *, quiet_s: float, opened: Opened = None
) -> Settled:
    """Wait (within ``budget_s``) for the load event, then for the page to stop changing:
    none of its requests in flight and no change to the document for ``quiet_s``. A page
    with nothing in flight and nothing moving by its next frame is settled then; one that
    was busy must stay still for the whole quiet time. A page built by script after its
    load event is waited for; one that never stops changing is not, past the budget.

    After an open (``opened``) the frame is the first after the load event, which the page
    watches itself. ``"early"`` (the open's own wait) answers once the page has loaded
    with nothing moving, that frame still due (:attr:`Settled.frame_due`); the next
    action waits for it first (``"due"``, in :meth:`.TabAccess.using`), and by then, when an
    agent has read the answer and thought, it has long passed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + budget_s
    glance = True
    try:
        async with asyncio.timeout(budget_s + QUIET_GRACE_S):
            while (left := deadline - loop.time()) > 0:
                read = await pagescript.run(
                    page,
                    "quiet",
                    quietMs=quiet_s * 1000,
                    maxMs=left * 1000,
                    glance=glance,
                    load=True,
                    opened=opened is not None,
                    early=opened == "early",
                    # The timers the input set stay watched while its requests are answered:
                    # what an answer sets off is waited for on the next turn (the next
                    # question ends the watch).
                    keep=True,
                )
                if not read["quiet"]:
                    return Settled(done=False, read=read)
                if not tab.loading(page):
                    return Settled(done=True, read=read)
                glance = False
                await tab.network_quiet(page, deadline - loop.time())
    except (TimeoutError, driver.PlaywrightError, PageWaitingError):
        pass  # still changing, gone, or waiting for its server: the caller reports what it finds
    return Settled(done=False)


def due_frame(timeouts: Timeouts) -> dict[str, float]:
    """The wait for an open's first frame (:func:`settle` with ``"due"``, but for the
    requests in flight), as a page script call's ``due``: ``snapshot.js`` waits so before it
    reads the page, in the same call."""
    return {"quietMs": timeouts.quiet_s * 1000, "maxMs": timeouts.input_settle_s * 1000}


async def settle_open(
    tab: Tab, page: Page, asked: LoadAsked, timeouts: Timeouts, budget_s: float | None = None
) -> Settled:
    """The open's own wait (:func:`settle` with ``"early"``) within ``budget_s`` (by default
    the open's; ``back`` and ``forward`` wait so for a document they load), answered by the
    page itself where it can: its document tells at its load event whether it is calm then,
    and its title (:meth:`.Tab.told_loaded`). Asking instead waits for a renderer busy
    drawing the page it just loaded, a few milliseconds more on a loaded machine. A page
    that is not calm at its load, has requests in flight or does not tell is waited for as
    before."""
    if page.url == BLANK:  # loads nothing, and tells no load to wait for
        return Settled(done=True)
    loop = asyncio.get_running_loop()
    budget_s = timeouts.open_settle_s if budget_s is None else budget_s
    deadline = loop.time() + budget_s
    told = await tab.told_loaded(page, asked, budget_s)
    if told is not None and told["calm"] and told["url"] == page.url and not tab.loading(page):
        return Settled(done=True, read={**told, "due": True})
    left = max(0.0, deadline - loop.time())
    return await settle(tab, page, left, quiet_s=timeouts.quiet_s, opened="early")
