"""The stub's ``wait_for_close``, declared as chromium's: it answers who closed the session's page
(the page's own button, or the provider for a session gone idle), is bounded by its
``timeoutS``, and is refused when nothing is open."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from browserhost.contract import Context
from browserhost.contract.errors import ProviderRejectedError
from browserhost.host import Host
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider
from browserhost.providers.stub import StubProvider

WAITER = Context(session_id="waiter")
OTHER = Context(session_id="other")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def act(host: Host, action: str, parameters: object, context: Context) -> Any:
    async with asyncio.timeout(10):
        return (await host.dispatch(action, parameters, context, provider_id="stub")).data


async def waited_on(stub: StubProvider) -> None:
    """Until a wait is registered on a page (beside the stub's own watcher of each page)."""
    async with asyncio.timeout(5):
        # The stub tells no one a wait began: each turn of the loop moves the call on its way.
        while not any(len(tab.on_close) > 1 for tab in stub.tabs()):  # noqa: ASYNC110
            await asyncio.sleep(0)


async def hosting(tmp_path: Path, stub: StubProvider) -> Host:
    host = Host(tmp_path)
    host.catalog.install(stub.registration())
    return host


def test_it_is_declared_as_chromiums() -> None:
    """No browser is started: the declarations are the classes'."""
    stub = StubProvider.verbs["wait_for_close"].spec
    chromium = ChromiumProvider(ChromiumConfig()).verbs["wait_for_close"].spec
    assert stub == chromium
    assert stub.changes_page is False


async def test_it_answers_when_the_page_closes_itself(tmp_path: Path) -> None:
    stub = StubProvider()
    host = await hosting(tmp_path, stub)
    try:
        await act(host, "browser.open", {"url": "https://site.test/closing"}, WAITER)
        waiting = asyncio.ensure_future(act(host, "verb.wait_for_close", {}, WAITER))
        await waited_on(stub)
        clicked = await act(host, "browser.click", {"text": "Close this page"}, WAITER)
        closed = await waiting
        after = await act(host, "browser.snapshot", {}, WAITER)
    finally:
        await host.aclose()
    assert clicked["clicked"] == "#close"
    assert closed == {"closed": True, "by": "page"}
    assert after["url"] == "about:blank", "the session's next action has a fresh page"


async def test_it_answers_the_provider_closed_a_session_gone_idle(tmp_path: Path) -> None:
    clock = FakeClock()
    stub = StubProvider(idle_s=60, clock=clock)
    host = await hosting(tmp_path, stub)
    try:
        await act(host, "browser.open", {"url": "https://site.test/about"}, WAITER)
        waiting = asyncio.ensure_future(act(host, "verb.wait_for_close", {}, WAITER))
        await waited_on(stub)
        clock.now += 60
        await act(host, "browser.snapshot", {}, OTHER)  # the provider tidies up on an action
        closed = await waiting
    finally:
        await host.aclose()
    assert closed == {"closed": True, "by": "provider"}


async def test_it_is_bounded_and_refused_with_nothing_open(tmp_path: Path) -> None:
    host = await hosting(tmp_path, StubProvider())
    try:
        with pytest.raises(ProviderRejectedError) as blank:
            await act(host, "verb.wait_for_close", {}, WAITER)
        await act(host, "browser.open", {"url": "https://site.test/about"}, WAITER)
        with pytest.raises(ProviderRejectedError) as still:
            await act(host, "verb.wait_for_close", {"timeoutS": 0.2}, WAITER)
        page = await act(host, "browser.snapshot", {}, WAITER)
    finally:
        await host.aclose()
    assert blank.value.message == (
        "Nothing is open in this session, so there is nothing to wait for; open a page first."
    )
    assert still.value.message == (
        "The page (https://site.test/about) was still open after 0.2 s; nothing was done. "
        "Wait again, or take a snapshot."
    )
    assert page["url"] == "https://site.test/about"
