"""One DevTools protocol session per page, for the parts of the provider that speak the
protocol directly: the page script's calls in a page's own document (:mod:`.pagescript`),
and the tab's count of requests in flight and the word each document sends of its load
(:mod:`.contexts`).

The page script goes through ``Runtime.evaluate`` rather than Playwright's ``evaluate``,
which first sets up a helper script of its own in each new document: about 7 ms on the first
call after every navigation, the wait after an ``open`` included.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from . import driver

if TYPE_CHECKING:
    from playwright.async_api import CDPSession, Page

_LEFT = "Inspected target navigated or closed"
_DESTROYED = "Execution context was destroyed, most likely because of a navigation"
"""What Playwright's evaluate says when the document goes away under it, which callers know
to wait out (:func:`.errors.navigated`); the protocol itself says :data:`_LEFT`."""

_SESSION_GONE = "has been closed"
"""What sending on a session that broke off says (the page itself still open)."""

_BETWEEN_DOCUMENTS = "Not attached to an active page"
"""What a ``Page`` call says while the page is between two documents' processes (a step in
history to an error page, say, swaps the renderer): a moment later it answers again."""

BETWEEN_DOCUMENTS_MAX_S = 2.0

Setup = Callable[["CDPSession"], Awaitable[None]]

# Each page's entries go when it closes (:func:`_forget`). Weak keys would not free them: each
# value holds its page (a session's listeners and a setup are closures over it), so a page
# keyed weakly here stayed for good, with its logs and Playwright's records of its requests.
_sessions: dict[Page, asyncio.Task[CDPSession]] = {}
_setups: dict[Page, Setup] = {}
_set_up: dict[Page, CDPSession] = {}
"""The session each page's setup last ran on."""


def _track(page: Page) -> None:
    """Forget ``page`` when it closes, from its first entry on."""
    if page not in _sessions and page not in _setups:
        page.once("close", _forget)


def _forget(page: Page) -> None:
    for table in (_sessions, _setups, _set_up):
        table.pop(page, None)


async def session(page: Page) -> CDPSession:
    """The page's session, opened on first use (once, however many ask at the same time)."""
    opening = _sessions.get(page)
    if opening is None or (opening.done() and (opening.cancelled() or opening.exception())):
        opening = asyncio.get_running_loop().create_task(_open(page))
        _track(page)
        _sessions[page] = opening
    return await asyncio.shield(opening)


def listen(session: CDPSession, event: str, handler: Callable[[Any], None]) -> None:
    """Call ``handler`` with each ``event``'s parameters as they came (see :func:`send`)."""
    getattr(session, "_impl_obj", session).on(event, handler)


async def send(session: CDPSession, method: str, params: dict[str, Any] | None = None) -> Any:
    """``session.send(method, params)``, its answer as it came.

    Playwright's own ``CDPSession`` copies each answer through, value by value, and calls
    each event handler through a wrapper that first reads the handler's signature: that is
    made for its API objects, and a protocol message is plain JSON. Over an ``open`` of a
    small page that took a tenth of the host's CPU time (0.6 of 7.2 ms: the session
    history's entries, the request events). So the call goes to the object behind the
    session, where it has the shape this Playwright gives it; a signature that changed
    raises ``TypeError`` before anything is sent, and the public call is made instead."""
    inner = getattr(session, "_impl_obj", None)
    if inner is not None:
        try:
            sending = inner.send(method, params, None)  # method, params, timeout (none)
        except TypeError:
            pass
        else:
            return await sending
    return await session.send(method, params)


def between_documents(exc: Exception, method: str) -> bool:
    """Whether ``exc`` is ``method``'s refusal while the page was between two documents."""
    return _BETWEEN_DOCUMENTS in str(exc) and method in str(exc)


async def ask_page(page: Page, method: str) -> Any:
    """``method`` sent on the page's session, asked again (for up to
    :data:`BETWEEN_DOCUMENTS_MAX_S`) while the page is between two documents: a read, so
    asking twice changes nothing."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BETWEEN_DOCUMENTS_MAX_S
    pause_s = 0.01
    while True:
        try:
            return await send(await session(page), method)
        except driver.PlaywrightError as exc:
            if _BETWEEN_DOCUMENTS not in str(exc) or loop.time() + pause_s > deadline:
                raise
        await asyncio.sleep(pause_s)
        pause_s = min(pause_s * 2, 0.2)


async def watch(page: Page, setup: Setup) -> None:
    """Run ``setup`` (listeners, domains) on the page's session, and again on each
    session that replaces one that broke off. A session something else opened first (a
    picture of a page not yet prepared for its first action) gets it now, once."""
    _track(page)
    _setups[page] = setup
    opened = await session(page)
    if _set_up.get(page) is not opened:
        _set_up[page] = opened
        await setup(opened)


async def _open(page: Page) -> CDPSession:
    opened = await page.context.new_cdp_session(page)
    setup = _setups.get(page)
    if setup is not None:
        _set_up[page] = opened  # before the setup's first await: :func:`watch` waits for it
        await setup(opened)
    return opened


async def evaluate(
    page: Page, function: str, argument: object, *, console_api: bool = False
) -> Any:
    """``function(argument)`` in the page's main document, awaited, its answer by value. A
    script that throws, or a document that went away meanwhile, raises Playwright's
    ``Error`` with the message Playwright's own ``evaluate`` would give. ``console_api``:
    DevTools' console functions (``getEventListeners`` among them) are at hand in the call's
    synchronous start; a name the page defines itself (jQuery's ``$``) stays its own. They
    cost about a tenth of a millisecond a call."""
    parameters = {
        "expression": f"({function})({json.dumps(argument)})",
        "awaitPromise": True,
        "returnByValue": True,
        "userGesture": True,  # as Playwright's evaluate: focus and selection behave so
        "includeCommandLineAPI": console_api,
    }
    for attempt in (1, 2):
        try:
            answer = await send(await session(page), "Runtime.evaluate", parameters)
            break
        except driver.PlaywrightError as exc:
            if page.is_closed():
                raise
            if _LEFT in str(exc):
                raise driver.PlaywrightError(_DESTROYED) from exc
            _sessions.pop(page, None)  # a session that broke off: the next call opens another
            if attempt == 2 or _SESSION_GONE not in str(exc):
                raise
            # A session that is gone sent nothing: the call is made again on a new one.
    thrown = answer.get("exceptionDetails")
    if thrown is not None:
        exception = thrown.get("exception") or {}
        raise driver.PlaywrightError(str(exception.get("description") or thrown.get("text")))
    return answer["result"].get("value")
