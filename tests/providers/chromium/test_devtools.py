"""The provider's own DevTools calls (``devtools.send`` and ``devtools.listen``): the answers
and events Playwright's public ``CDPSession`` gives, without its copying."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page

from browserhost.providers.chromium import devtools

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module")
async def page(browser: Browser) -> AsyncIterator[Page]:
    opened = await browser.new_page()
    yield opened
    await opened.close()


async def test_send_answers_as_playwrights_own_send_does(page: Page) -> None:
    await page.set_content("<title>One</title>")
    await page.evaluate("history.pushState({}, '', '#two')")
    session = await page.context.new_cdp_session(page)
    ours = await devtools.send(session, "Page.getNavigationHistory")
    theirs = await session.send("Page.getNavigationHistory")
    assert ours == theirs
    assert [entry["url"].rpartition("#")[2] for entry in ours["entries"]][-1] == "two"
    evaluated = await devtools.send(
        session, "Runtime.evaluate", {"expression": "6 * 7", "returnByValue": True}
    )
    assert evaluated["result"]["value"] == 42


async def test_a_bad_call_fails_as_playwrights_own_send_does(page: Page) -> None:
    session = await page.context.new_cdp_session(page)
    with pytest.raises(Exception, match="wasn't found") as ours:
        await devtools.send(session, "Page.noSuchMethod")
    with pytest.raises(Exception, match="wasn't found") as theirs:
        await session.send("Page.noSuchMethod")
    assert type(ours.value) is type(theirs.value)


async def test_listen_hears_each_event_with_its_parameters(page: Page) -> None:
    session = await page.context.new_cdp_session(page)
    heard: list[dict[str, Any]] = []
    both = asyncio.Event()

    def hear(event: dict[str, Any]) -> None:
        heard.append(event)
        if len(heard) == 2:
            both.set()

    devtools.listen(session, "Runtime.consoleAPICalled", hear)
    await devtools.send(session, "Runtime.enable")
    await page.evaluate("console.log('first'); console.log('second')")
    async with asyncio.timeout(10):
        await both.wait()
    assert [event["args"][0]["value"] for event in heard] == ["first", "second"]


async def test_a_session_opened_before_the_watch_gets_the_setup_once(browser: Browser) -> None:
    """Something may open a page's session before the page is prepared (a picture of it for
    a recording): the setup runs on that session, and the page's events are heard."""
    page = await browser.new_page()
    try:
        early = await devtools.session(page)
        set_up: list[object] = []
        heard: list[str] = []
        logged = asyncio.Event()

        def hear(event: dict[str, Any]) -> None:
            heard.append(event["args"][0]["value"])
            logged.set()

        async def setup(session: Any) -> None:
            set_up.append(session)
            devtools.listen(session, "Runtime.consoleAPICalled", hear)
            await devtools.send(session, "Runtime.enable")

        await devtools.watch(page, setup)
        assert set_up == [early]
        assert await devtools.session(page) is early
        await page.evaluate("console.log('after the watch')")
        async with asyncio.timeout(10):
            await logged.wait()
        assert heard == ["after the watch"]
        assert set_up == [early]  # once, however many ask for the session
    finally:
        await page.close()


async def test_a_watch_before_any_session_sets_up_the_first_one_once(browser: Browser) -> None:
    page = await browser.new_page()
    try:
        set_up: list[object] = []

        async def setup(session: Any) -> None:
            set_up.append(session)
            await devtools.send(session, "Runtime.enable")

        watching = asyncio.ensure_future(devtools.watch(page, setup))
        asked = await devtools.session(page)  # asked while the watch opens it
        await watching
        assert set_up == [asked]
    finally:
        await page.close()


async def test_a_watched_page_is_freed_once_it_closes(browser: Browser) -> None:
    """A page's session listens through closures over the page, and so does its setup:
    once the page closes, nothing of the module keeps it. (A long agent session moves to a
    fresh page every hundred documents; each old one stayed, with its request log.)"""

    async def watched_then_closed() -> weakref.ref[Page]:
        # Its own frame: Playwright reads its callers' frames, and a frame that is still
        # running keeps what it read of them.
        page = await browser.new_page()

        heard: list[str] = []

        async def setup(session: Any) -> None:
            devtools.listen(session, "Runtime.consoleAPICalled", lambda _: heard.append(page.url))
            await devtools.send(session, "Runtime.enable")

        await devtools.watch(page, setup)
        closed = asyncio.Event()
        page.once("close", lambda _: closed.set())
        await page.close()
        async with asyncio.timeout(10):
            await closed.wait()
        return weakref.ref(page)

    gone = await watched_then_closed()
    gc.collect()
    assert gone() is None


class _OtherInner:
    """A session's inner object whose ``send`` takes other arguments (another Playwright)."""

    async def send(self, method: str) -> Any:
        raise AssertionError("called with arguments it does not take")


class _Session:
    """What ``devtools.send`` needs of a session: a public ``send``, and an inner object
    (Playwright's ``CDPSession`` holds one; another release may shape it otherwise)."""

    def __init__(self) -> None:
        self._impl_obj = _OtherInner()
        self.sent: list[tuple[str, Any]] = []

    async def send(self, method: str, params: Any = None) -> Any:
        self.sent.append((method, params))
        return {"answered": method}


async def test_another_playwrights_inner_send_is_passed_over_for_the_public_one() -> None:
    session = _Session()
    answer = await devtools.send(session, "Page.enable", {"a": 1})  # type: ignore[arg-type]
    assert answer == {"answered": "Page.enable"}
    assert session.sent == [("Page.enable", {"a": 1})]
