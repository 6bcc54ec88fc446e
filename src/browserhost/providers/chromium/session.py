"""The chromium provider's session verbs: ``cookies`` and ``set_cookies`` on the session's
browser context, and ``wait_for_close`` on its page.

A cookie's value is the user's secret (a login): ``cookies`` reads only those sent to the
addresses asked, by default the page's own, as ``context.cookies(urls)`` filters them.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Literal

from browserhost.contract import Context
from browserhost.providers.session_verbs import (
    COOKIES_HELP,
    NOTHING_OPEN,
    SET_COOKIES_HELP,
    WAIT_FOR_CLOSE_HELP,
    CookiesArguments,
    CookieToSet,
    SetCookiesArguments,
    WaitForCloseArguments,
    cookie_urls,
    refuse_unsettable,
    still_open,
)
from browserhost.sdk import ActionError, Provider, verb

from .errors import playwright_errors

if TYPE_CHECKING:
    from playwright._impl._api_structures import SetCookieParam  # not re-exported
    from playwright.async_api import Page

    from .access import TabAccess
    from .contexts import Tab
    from .launch import ChromiumConfig, Launcher

Closer = Literal["page", "person", "provider"]

COOKIE_FIELDS = ("name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite")


class SessionVerbs(Provider):
    """The session verbs, each run on the context key's tab."""

    access: TabAccess
    """The tabs the verbs run on: the provider's."""
    config: ChromiumConfig
    _launcher: Launcher

    @verb(COOKIES_HELP, changes_page=False)
    async def cookies(self, arguments: CookiesArguments, context: Context) -> dict[str, Any]:
        async with self.access.using(context, "verb.cookies") as tab:
            page = await tab.page()
            urls = cookie_urls(arguments.urls, page.url)
            with playwright_errors("verb.cookies"):
                found = await page.context.cookies(urls)
            listed = [{key: cookie.get(key) for key in COOKIE_FIELDS} for cookie in found]
            return {"cookies": listed}

    @verb(SET_COOKIES_HELP)
    async def set_cookies(self, arguments: SetCookiesArguments, context: Context) -> dict[str, Any]:
        refusal = refuse_unsettable(arguments.cookies)
        if refusal is not None:
            raise ActionError(refusal)
        wanted = [_playwright_cookie(cookie) for cookie in arguments.cookies]
        async with self.access.using(context, "verb.set_cookies") as tab:
            page = await tab.page()
            with playwright_errors("verb.set_cookies"):
                await page.context.add_cookies(wanted)
            return {"set": [cookie.name for cookie in arguments.cookies]}

    @verb(WAIT_FOR_CLOSE_HELP, changes_page=False)
    async def wait_for_close(
        self, arguments: WaitForCloseArguments, context: Context
    ) -> dict[str, Any]:
        # The page is picked under the session's lock, and waited for without it: the agent
        # and a person may act meanwhile (click what closes it).
        async with self.access.using(context, "verb.wait_for_close") as tab:
            page = tab.current()
            if page is None:
                raise ActionError(NOTHING_OPEN)
        closed = asyncio.Event()
        page.once("close", lambda _: closed.set())
        try:
            async with asyncio.timeout(arguments.timeout_s):
                if not page.is_closed():
                    await closed.wait()
        except TimeoutError:
            raise ActionError(still_open(page.url, arguments.timeout_s)) from None
        return {"closed": True, "by": self._closer(tab, page)}

    def _closer(self, tab: Tab, page: Page) -> Closer:
        """Who closed ``page``. The browser tells a page's own ``window.close()`` from a
        person's click on the tab's cross in neither case: a headless browser has no window
        for a person to close, so there it is the page; in a window a person sees, it is
        counted as the person's."""
        browser = page.context.browser
        if tab.closed or self._launcher.retired or (browser and not browser.is_connected()):
            return "provider"
        return "page" if self.config.headless else "person"


def _playwright_cookie(cookie: CookieToSet) -> SetCookieParam:
    """The cookie as ``add_cookies`` takes it: only the fields given (it refuses a None)."""
    wanted: SetCookieParam = {"name": cookie.name, "value": cookie.value}
    if cookie.url is not None:
        wanted["url"] = cookie.url
    if cookie.domain is not None and cookie.path is not None:
        wanted["domain"], wanted["path"] = cookie.domain, cookie.path
    if cookie.expires is not None:
        wanted["expires"] = cookie.expires
    if cookie.same_site is not None:
        wanted["sameSite"] = cookie.same_site
    wanted["httpOnly"], wanted["secure"] = cookie.http_only, cookie.secure
    return wanted
