"""Isolation between context keys, and closing the idle ones."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from browserhost.contract import Context
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider, devtools, tab

from .driving import TEST_TIMEOUTS, act, ok, refused
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")

IDLE_S = 60.0


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def clock() -> Clock:
    return Clock()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def clocked(chromium_path: str, clock: Clock) -> AsyncIterator[ChromiumProvider]:
    provider = ChromiumProvider(
        ChromiumConfig(executable=chromium_path, idle_s=IDLE_S),
        timeouts=TEST_TIMEOUTS,
        clock=clock,
    )
    yield provider
    await provider.aclose()


async def _cookie(provider: ChromiumProvider, site: Site, context: Context) -> str:
    await ok(provider, context, "browser.open", url=site.url("/cookie"))
    text: str = (await ok(provider, context, "browser.snapshot"))["text"]
    return text


async def test_two_context_keys_do_not_share_a_cookie(
    provider: ChromiumProvider, site: Site
) -> None:
    alice = Context(directory="/work/app", session_id="alice")
    bob = Context(directory="/work/app", session_id="bob")
    await ok(provider, alice, "browser.open", url=site.url("/set-cookie?v=alice"))
    await ok(provider, bob, "browser.open", url=site.url("/set-cookie?v=bob"))
    assert await _cookie(provider, site, alice) == "cookie: flavor=alice"
    assert await _cookie(provider, site, bob) == "cookie: flavor=bob"
    other_project = Context(directory="/work/other", session_id="alice")
    assert await _cookie(provider, site, other_project) == "cookie: none"


async def test_two_context_keys_have_their_own_pages(
    provider: ChromiumProvider, site: Site
) -> None:
    first, second = Context(session_id="first"), Context(session_id="second")
    await ok(provider, first, "browser.open", url=site.url("/page-a"))
    await ok(provider, second, "browser.open", url=site.url("/page-b"))
    assert (await ok(provider, first, "browser.snapshot"))["title"] == "Page A"
    assert (await ok(provider, second, "browser.snapshot"))["title"] == "Page B"


async def test_unknown_context_is_one_shared_default(
    provider: ChromiumProvider, site: Site
) -> None:
    await ok(provider, Context(), "browser.open", url=site.url("/set-cookie?v=shared"))
    assert await _cookie(provider, site, Context.read({"sessionId": ""})) == "cookie: flavor=shared"


async def test_a_context_idle_past_the_limit_is_closed_and_starts_fresh(
    clocked: ChromiumProvider, clock: Clock, site: Site
) -> None:
    idle, busy = Context(session_id="idle"), Context(session_id="busy")
    await ok(clocked, idle, "browser.open", url=site.url("/set-cookie?v=old"))
    clock.now += IDLE_S / 2
    await ok(clocked, busy, "browser.open", url=site.url("/page-a"))
    assert await clocked.close_idle() == []
    clock.now += IDLE_S / 2
    assert await clocked.close_idle() == [idle.key]
    assert clocked.page_for(idle) is None
    assert clocked.page_for(busy) is not None
    # Its next action is told why its pages are gone; one that needs a page is not run.
    refused_click = await refused(clocked, idle, "browser.click", text="Page A")
    assert refused_click == (
        "This session went unused for 1 min, so its browser context was closed: its pages, "
        "cookies and logins are gone and the page is blank. browser.click was not run; open a "
        "page again."
    )
    opened = await ok(clocked, idle, "browser.open", url=site.url("/cookie"))
    assert "notice" not in opened  # told once
    assert (await ok(clocked, idle, "browser.snapshot"))["text"] == "cookie: none"
    assert (await ok(clocked, busy, "browser.snapshot"))["title"] == "Page A"


async def test_a_page_that_loaded_many_documents_is_renewed_on_open_keeping_cookies(
    clocked: ChromiumProvider, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Playwright holds on to every document a page loads until the page closes; a long
    # session moves to a fresh page now and then, which the agent sees only in history.
    monkeypatch.setattr(tab, "RENEW_AFTER_LOADS", 3)
    ctx = Context(directory="/work/long", session_id="long")
    await ok(clocked, ctx, "browser.open", url=site.url("/set-cookie?v=mint"))
    first = clocked.page_for(ctx)
    for path in ("/page-a", "/page-b", "/page-a"):
        await ok(clocked, ctx, "browser.open", url=site.url(path))
    renewed = clocked.page_for(ctx)
    assert first is not None
    assert renewed is not first
    assert first.is_closed()
    assert (await ok(clocked, ctx, "browser.open", url=site.url("/cookie")))["title"] == "Cookie"
    assert "cookie: flavor=mint" in (await ok(clocked, ctx, "browser.snapshot"))["text"]
    tabs = (await ok(clocked, ctx, "verb.tabs"))["tabs"]
    assert [(t["index"], t["title"], t["current"]) for t in tabs] == [(0, "Cookie", True)]


async def test_past_the_most_contexts_the_least_recently_used_idle_one_is_closed(
    chromium_path: str, site: Site
) -> None:
    two = ChromiumProvider(
        ChromiumConfig(executable=chromium_path, max_contexts=2), timeouts=TEST_TIMEOUTS
    )
    first, second, third = (Context(session_id=name) for name in ("first", "second", "third"))
    try:
        await ok(two, first, "browser.open", url=site.url("/set-cookie?v=first"))
        await ok(two, second, "browser.open", url=site.url("/page-a"))
        await ok(two, first, "browser.snapshot")  # second is now the least recently used
        await ok(two, third, "browser.open", url=site.url("/page-b"))
        assert two.page_for(second) is None
        assert (await ok(two, first, "browser.snapshot"))["title"] == "Cookie set"
        told = await ok(two, second, "browser.snapshot")  # and now first makes room
        assert told["notice"] == (
            "This session's browser context was closed to make room for newer sessions (at "
            "most 2 at once): its pages, cookies and logins are gone and the page is blank."
        )
        assert told["url"] == "about:blank"

        # While every session has an action running, a new one is refused; nothing closes.
        paths = [f"/held-{n}" for n in range(2)]
        before = {path: site.arrived[path] for path in paths}
        with site.holding():
            held = [
                asyncio.create_task(act(two, key, "browser.open", url=site.url(path)))
                for path, key in zip(paths, (second, third), strict=True)
            ]
            # Each open holds its session until its page arrives, which the site holds.
            assert await asyncio.to_thread(
                site.wait_for_requests, lambda n: all(n[p] > before[p] for p in paths)
            )
            busy = await refused(two, first, "browser.snapshot")
            assert busy == (
                "All 2 browser sessions are busy; try again in a moment (the user can allow "
                "more with BROWSERHOST_CHROMIUM_MAX_CONTEXTS)."
            )
        for task in held:
            assert (await task)["ok"] is True
    finally:
        await two.aclose()


async def test_a_devtools_session_that_broke_off_is_opened_again(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/form"))
    await ok(provider, ctx, "browser.snapshot")  # and the wait for the first frame is done
    page = provider.page_for(ctx)
    assert page is not None
    await (await devtools.session(page)).detach()
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert (snapshot["title"], snapshot["url"]) == ("Form", site.url("/form"))
    # The new session watches the page's requests again: what the page fetches at its load
    # is waited for, by the open or by the snapshot after it.
    opened = await ok(provider, ctx, "browser.open", url=site.url("/fetches-at-load"))
    assert opened["title"] == "Fetches at load"
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert "fetched ready" in snapshot["text"]
