"""The session verbs: cookies read and set in the session's browser context (checked by what
the site's server received), and wait_for_close answering who closed the page."""

from __future__ import annotations

import asyncio

import pytest

from browserhost.contract import Context
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider

from .driving import TEST_TIMEOUTS, act, in_page, ok, refused
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")

CLOSE_AFTER_MS = 1000
"""Long enough for wait_for_close to have picked the page before the page closes itself."""


async def test_cookies_lists_the_cookies_the_page_was_sent_with_their_fields(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/set-cookie?v=mint"))
    answer = await ok(provider, ctx, "verb.cookies")
    assert answer == {
        "cookies": [
            {
                "name": "flavor",
                "value": "mint",
                "domain": "127.0.0.1",
                "path": "/",
                "expires": -1,
                "httpOnly": False,
                "secure": False,
                "sameSite": "Lax",
            }
        ]
    }


async def test_cookies_reads_only_those_of_the_addresses_asked(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/cookie"))
    await ok(
        provider,
        ctx,
        "verb.set_cookies",
        cookies=[
            {"name": "everywhere", "value": "1", "url": site.url("/")},
            {"name": "deep", "value": "2", "domain": "127.0.0.1", "path": "/deep"},
        ],
    )
    on_page = await ok(provider, ctx, "verb.cookies")
    deep = await ok(provider, ctx, "verb.cookies", urls=[site.url("/deep/page")])
    assert [cookie["name"] for cookie in on_page["cookies"]] == ["everywhere"]
    assert sorted(cookie["name"] for cookie in deep["cookies"]) == ["deep", "everywhere"]


async def test_a_cookie_set_is_sent_to_the_site(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/cookie"))
    answer = await ok(
        provider,
        ctx,
        "verb.set_cookies",
        cookies=[{"name": "token", "value": "s3cret", "url": site.url("/"), "httpOnly": True}],
    )
    assert answer == {"set": ["token"]}
    await ok(provider, ctx, "browser.open", url=site.url("/cookie"))
    assert "cookie: token=s3cret" in (await ok(provider, ctx, "browser.snapshot"))["text"]
    [read] = (await ok(provider, ctx, "verb.cookies"))["cookies"]
    assert (read["httpOnly"], read["value"]) == (True, "s3cret")


async def test_a_cookie_without_url_or_domain_and_path_is_refused_and_none_is_set(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/cookie"))
    error = await refused(
        provider,
        ctx,
        "verb.set_cookies",
        cookies=[
            {"name": "good", "value": "1", "url": site.url("/")},
            {"name": "lost", "value": "2", "domain": "127.0.0.1"},
            {"name": "loose", "value": "3", "url": site.url("/"), "sameSite": "None"},
        ],
    )
    assert error == (
        'cookie 1 (lost) needs url, or domain and path; cookie 2 (loose) sameSite "None" '
        "needs secure: true. No cookie was set."
    )
    assert (await ok(provider, ctx, "verb.cookies"))["cookies"] == []


async def test_cookies_of_a_blank_page_are_refused_saying_what_to_give(
    provider: ChromiumProvider, ctx: Context
) -> None:
    error = await refused(provider, ctx, "verb.cookies")
    assert error == (
        "The page is about:blank, which has no cookies; open a page or give urls. Nothing was read."
    )


async def test_wait_for_close_answers_when_the_page_closes_itself(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/opener"))
    await ok(provider, ctx, "browser.click", text="Open popup")
    await in_page(provider, ctx, f"setTimeout(() => window.close(), {CLOSE_AFTER_MS})")
    async with asyncio.timeout(10):
        closed = await ok(provider, ctx, "verb.wait_for_close")
    assert closed == {"closed": True, "by": "page"}
    assert (await ok(provider, ctx, "browser.snapshot"))["title"] == "Opener"


async def test_wait_for_close_is_bounded_and_says_the_page_is_still_open(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    url = site.url("/page-b")
    await ok(provider, ctx, "browser.open", url=url)
    error = await refused(provider, ctx, "verb.wait_for_close", timeoutS=0.2)
    assert error == (
        f"The page ({url}) was still open after 0.2 s; nothing was done. Wait again, or take "
        "a snapshot."
    )
    too_long = await act(provider, ctx, "verb.wait_for_close", timeoutS=60)
    assert too_long["ok"] is False
    assert "timeoutS" in too_long["error"]


async def test_wait_for_close_answers_the_provider_closed_it(
    chromium_path: str, site: Site, ctx: Context
) -> None:
    own = ChromiumProvider(ChromiumConfig(executable=chromium_path), timeouts=TEST_TIMEOUTS)
    try:
        await ok(own, ctx, "browser.open", url=site.url("/page-b"))
        with site.holding() as held:
            await in_page(own, ctx, f"setTimeout(() => fetch('/held'), {CLOSE_AFTER_MS})")
            waiting = asyncio.ensure_future(ok(own, ctx, "verb.wait_for_close"))
            assert await asyncio.to_thread(held.wait, 10)
            await own.retire()
        async with asyncio.timeout(10):
            assert await waiting == {"closed": True, "by": "provider"}
    finally:
        await own.aclose()
