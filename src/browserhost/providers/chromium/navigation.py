"""Moving a page to another document: loading an address (:func:`goto`), going through its
history (:func:`travel`), and knowing when a page waits for a server to answer its next
document (:func:`awaited_server`)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple
from weakref import WeakKeyDictionary

from browserhost.sdk import ActionError

from . import devtools, driver
from .addresses import BLANK, ERROR_PAGE_SCHEME
from .errors import MayHaveRunError, playwright_errors, translate

if TYPE_CHECKING:
    from playwright.async_api import Frame, Page, Response

ERROR_PAGE_WAIT_S = 1.0
"""How long a failed ``open`` waits for Chromium to show its error page."""


class Awaited(NamedTuple):
    """A page's next document, asked of its server and not answered yet."""

    request_id: str
    url: str
    since: float
    """``time.monotonic()`` when it was asked."""

    @property
    def waited_s(self) -> float:
        return time.monotonic() - self.since


_awaited: WeakKeyDictionary[Page, Awaited] = WeakKeyDictionary()


def server_asked(page: Page, request_id: str, url: str) -> None:
    """The page's main frame asked a server for its next document (a redirect asks again)."""
    earlier = _awaited.get(page)
    since = earlier.since if earlier is not None and earlier.request_id == request_id else None
    _awaited[page] = Awaited(request_id, url, time.monotonic() if since is None else since)


def server_answered(page: Page, request_id: str) -> None:
    """The server answered that request (or it failed): the document arrives or never will."""
    earlier = _awaited.get(page)
    if earlier is not None and earlier.request_id == request_id:
        del _awaited[page]


def server_forgotten(page: Page) -> None:
    """The page crashed: it waits for nothing any more (a closed one never does)."""
    _awaited.pop(page, None)


def awaited_server(page: Page | None) -> Awaited | None:
    """The document ``page`` waits for its server to answer, if any. Chromium runs no script
    in a page meanwhile (it holds every evaluation until the new document commits), so a
    page that does not answer then is not stuck: its server is slow."""
    return None if page is None or page.is_closed() else _awaited.get(page)


@dataclass(frozen=True)
class Arrived:
    """What an open's navigation came to."""

    status: str | None = None
    """The HTTP error status the site answered with (``"404 Not Found"``), if it did."""
    same_document: bool = False
    """Only the address's fragment changed (``#part2``): the document stayed, and no load
    comes to wait for."""


async def goto(page: Page, url: str, timeout_s: float) -> Arrived:
    """Load ``url``, asking the site once: a load is never asked for twice, since the site
    may act on each request."""
    shown = _MainFrameNavigations(page)
    try:
        response = await page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
        if response is None:  # Playwright's answer for a move within the document
            return Arrived(same_document=page.url != BLANK)
        if response.status >= 400:
            return Arrived(status=f"{response.status} {response.status_text}".strip())
        return Arrived()
    except driver.PlaywrightError as exc:
        text = str(exc)
        if f'another navigation to "{ERROR_PAGE_SCHEME}:' in text:
            # Chromium's error page for an earlier failed load, shown late, cut in; the load
            # asked for goes on behind it.
            if await shown.next(lambda there: not there.startswith(ERROR_PAGE_SCHEME), timeout_s):
                return Arrived()
        elif "net::ERR_" in text and "net::ERR_ABORTED" not in text:
            # Chromium shows its error page for the failed load a moment after the failure;
            # let it, so that it cannot cut into the next load.
            await shown.next(lambda there: there.startswith(ERROR_PAGE_SCHEME), ERROR_PAGE_WAIT_S)
        raise
    finally:
        shown.close()


async def travel(page: Page, delta: int, target: str, timeout_s: float) -> bool:
    """Go ``delta`` steps through history to ``target``, until the page shows it. Whether
    that is a document loaded anew, whose load is the caller's to wait for; not one shown
    again from the back-forward cache (which fires no load event), nor the same document at
    another entry. A page that shows ``target`` when the wait ends counts as arrived, and
    not as loading."""
    action = history_action(delta)
    which = "previous" if delta < 0 else "next"
    timeout = timeout_s * 1000
    with playwright_errors(action, on_timeout=f"The {which} page did not load in time; try again."):
        try:
            response = await _step(page, delta, timeout)
        except driver.PlaywrightTimeoutError:
            if page.url != target:
                raise
            return False
        except driver.PlaywrightError as failed:
            # The step was sent. A load still pending (a link to a slow server) is aborted by
            # it, and Playwright reports that abort as the step's own failure.
            if "ERR_CACHE_MISS" in str(failed):
                raise MayHaveRunError(
                    f"{action} went to the answer to a form that was sent (POST), which the "
                    "browser did not keep: it shows its own page asking to send the form again "
                    "instead, and browserhost never sends one again by itself. The same step "
                    "again goes past it; to send the form again, open its page and submit it."
                ) from failed
            if await shown(page, lambda there: there == target):
                return True  # loaded anew
            # The entry's site did not answer (refused, not found), as an open of it says.
            site_failed = "net::ERR_" in str(failed) and "ERR_ABORTED" not in str(failed)
            if site_failed and await shown(page, lambda there: there.startswith(ERROR_PAGE_SCHEME)):
                said = translate(failed, action, url=target)
                raise ActionError(f"{said} The page now shows the browser's error page.") from None
            raise MayHaveRunError(
                f"{action} was sent, but the browser did not show the {which} page and "
                "stopped the step; the page may or may not have moved. Take a new snapshot to "
                "see where it is."
            ) from failed
    return response is not None


async def _step(page: Page, delta: int, timeout_ms: float) -> Response | None:
    """Playwright's step through history. It first reads the history, and that read is
    refused while the page is between two documents' processes (just after a step to the
    browser's error page): nothing was sent then, so once the page answers again (bounded)
    the step is asked again."""

    async def go() -> Response | None:
        if delta < 0:
            return await page.go_back(wait_until="commit", timeout=timeout_ms)
        return await page.go_forward(wait_until="commit", timeout=timeout_ms)

    try:
        return await go()
    except driver.PlaywrightError as exc:
        if not devtools.between_documents(exc, "Page.getNavigationHistory"):
            raise
    with contextlib.suppress(driver.PlaywrightError):  # still between them: told below
        await devtools.ask_page(page, "Page.getNavigationHistory")
    try:
        return await go()
    except driver.PlaywrightError as exc:
        if devtools.between_documents(exc, "Page.getNavigationHistory"):
            raise ActionError(
                f"The page was between two documents, so {history_action(delta)} did not run; "
                "try again in a moment."
            ) from exc
        raise


async def shown(page: Page, wanted: Callable[[str], bool]) -> bool:
    """Whether ``page`` shows, or within :data:`ERROR_PAGE_WAIT_S` commits, an address
    ``wanted`` accepts (Chromium's error page for a load that just failed, say)."""
    navigations = _MainFrameNavigations(page)
    try:
        return wanted(page.url) or await navigations.next(wanted, ERROR_PAGE_WAIT_S)
    finally:
        navigations.close()


def history_action(delta: int) -> str:
    return "browser.back" if delta < 0 else "browser.forward"


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
