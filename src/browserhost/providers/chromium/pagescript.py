"""Running ``snapshot.js``, the page-side half of the provider, in one evaluation per call.

A page that is navigating has no document to read for a moment; an evaluation that lands in
that moment is retried once the new document exists, so an agent never sees "execution
context was destroyed" for a page that merely moved on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import PAGE_ANSWER_S, PageStuckError, navigated

if TYPE_CHECKING:
    from playwright.async_api import Frame, JSHandle, Page

    Document = Page | Frame

T = TypeVar("T")

ATTEMPTS = 3
RETRY_WAIT_S = 5.0


@cache
def source() -> str:
    return resources.files(__package__).joinpath("snapshot.js").read_text(encoding="utf-8")


@cache
def source_as_text() -> str:
    """The script answering JSON text: Playwright carries one string far faster than the
    same answer as an object it must walk and rebuild (a 1,000-element snapshot, 4x)."""
    return f"async (request) => JSON.stringify(await ({source()})(request)) ?? null"


async def run(page: Document, op: str, **arguments: object) -> Any:
    """Answer ``op`` (see ``snapshot.js``) for the page's (or frame's) current document."""
    request = {"op": op, **arguments}
    waits_s = float(arguments.get("maxMs") or 0) / 1000  # type: ignore[arg-type]
    text = await _retrying(page, lambda: page.evaluate(source_as_text(), request), waits_s)
    return None if text is None else json.loads(text)


STASHED = "() => (window[Symbol.for('browserhost')] || {}).target || null"
"""The element the latest ``target`` or ``hop`` found, read without the whole script."""


async def stashed(page: Document) -> JSHandle:
    """The element the latest ``target`` or ``hop`` in this document found, as a handle."""
    return await answering(page.evaluate_handle(STASHED))


async def answering(call: Awaitable[T], waits_s: float = 0.0) -> T:
    """``call``'s answer, or :class:`~.errors.PageStuckError` when the page gives none for
    :data:`~.errors.PAGE_ANSWER_S` (plus ``waits_s``, what the call itself waits)."""
    try:
        async with asyncio.timeout(PAGE_ANSWER_S + waits_s):
            return await call
    except TimeoutError:
        raise PageStuckError() from None


async def title(page: Page) -> str:
    """The document title, waiting out a navigation like :func:`run`."""
    return await _retrying(page, page.title)


async def _retrying(page: Document, call: Callable[[], Awaitable[T]], waits_s: float = 0.0) -> T:
    from playwright.async_api import Error as PlaywrightError

    attempt = 1
    while True:
        try:
            return await answering(call(), waits_s)
        except PlaywrightError as exc:
            if attempt >= ATTEMPTS or not navigated(str(exc)):
                raise
        attempt += 1
        await wait_for_document(page)


async def wait_for_document(page: Document) -> None:
    from playwright.async_api import TimeoutError as PlaywrightTimeoutError

    with contextlib.suppress(PlaywrightTimeoutError):  # the retry reports what it finds
        await page.wait_for_load_state("domcontentloaded", timeout=RETRY_WAIT_S * 1000)
