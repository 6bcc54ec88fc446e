"""The chromium provider's verbs that tell what the page did behind what it shows: its
requests (``network``) and its console (``console``), as its tab recorded them from the
page's start (:mod:`.request_log`, :mod:`.console_log`). Both only read: nothing is asked of
the page, and answers are bounded by the logs' sizes and the caller's ``limit``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import Field

from browserhost.contract import Context
from browserhost.contract.limits import TEXT_MAX
from browserhost.sdk import Provider, VerbArguments, verb

from . import devtools
from .console_log import CONSOLE_KEPT, Since
from .request_log import REQUESTS_KEPT, ResourceType

LOADS_WAIT_S = 1.0
"""How long the network verb waits for the requests a page's load saw end to be told ended
(:meth:`.RequestLog.loads_ended`); one still running then is listed as pending."""

FINISHED_RESOURCES = """() => performance.getEntriesByType("resource")
  .map((entry) => entry.name).filter((name) => /^https?:/.test(name))"""
"""The addresses of the resources the page's document saw end (a 404 image too): under
load, the browser's word of one may come after the page's."""

if TYPE_CHECKING:
    from playwright.async_api import Page

    from .access import TabAccess
    from .contexts import Tab


class NetworkArguments(VerbArguments):
    url: str | None = Field(
        None, min_length=1, max_length=TEXT_MAX, description="Only requests whose URL has this."
    )
    types: list[ResourceType] | None = Field(
        None, max_length=16, description="Only requests of these types (xhr, fetch, image...)."
    )
    failed: bool = Field(
        False, description="Only requests that failed: no answer, or a status of 400 or more."
    )
    limit: int = Field(
        50, ge=1, le=REQUESTS_KEPT, description="Most requests to return (the latest)."
    )


class ConsoleArguments(VerbArguments):
    since: Since = Field(
        "load",
        description="load: everything since the page loaded; last: only what came after the "
        "previous console call.",
    )
    limit: int = Field(
        100, ge=1, le=CONSOLE_KEPT, description="Most messages to return (the latest)."
    )


class DiagnosticVerbs(Provider):
    """The ``network`` and ``console`` verbs. Each runs on the context key's tab as one
    action and reads its current page's log."""

    access: TabAccess

    async def _read_log(
        self, context: Context, action: str, read: Callable[[Tab, Page], dict[str, Any]]
    ) -> dict[str, Any]:
        async with self.access.using(context, action) as tab:
            page = await tab.page()
            return {"url": page.url, **read(tab, page)}

    @verb(
        "List the page's requests since it loaded, in the order they were sent: method, url, "
        "status, type, size (bytes on the wire), ms; a request that failed has failed (why), "
        "one still running has pending. Filter by a part of the URL, by types, or failed "
        "only. total counts the matches, omitted those past limit, dropped those too old to "
        f"be kept (the latest {REQUESTS_KEPT} are).",
        changes_page=False,
    )
    async def network(self, arguments: NetworkArguments, context: Context) -> dict[str, Any]:
        def listing(tab: Tab, page: Page) -> dict[str, Any]:
            return tab.requests_of(page).listing(
                url_part=arguments.url,
                types=list(arguments.types or ()),
                failed_only=arguments.failed,
                limit=arguments.limit,
            )

        async with self.access.using(context, "verb.network") as tab:
            page = await tab.page()
            finished = await devtools.evaluate(page, FINISHED_RESOURCES, None)
            await tab.requests_of(page).loads_ended(LOADS_WAIT_S, finished)
            return {"url": page.url, **listing(tab, page)}

    @verb(
        "List the page's console messages and uncaught errors (level, text, source line), "
        "since it loaded or since the previous console call. omitted counts those past "
        f"limit, dropped those too old to be kept (the latest {CONSOLE_KEPT} are).",
        changes_page=False,
    )
    async def console(self, arguments: ConsoleArguments, context: Context) -> dict[str, Any]:
        since, limit = arguments.since, arguments.limit
        return await self._read_log(
            context, "verb.console", lambda tab, page: tab.console_of(page).read(since, limit)
        )
