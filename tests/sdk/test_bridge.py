"""The connecting side (:func:`browserhost.sdk.bridge.connect`) against the real app on a
loopback port: it serves actions, dials again after a drop, stops on a refused token,
cancels what the host cancels, and serves its provider's surface."""

from __future__ import annotations

import asyncio

import pytest

from browserhost.contract import Context, ProviderRequest
from browserhost.contract.bridge import CLOSE_PING_TIMEOUT
from browserhost.contract.errors import RequestFailedError
from browserhost.contract.surface import Size, TextEvent
from browserhost.providers.stub import register
from browserhost.sdk import bridge
from browserhost.sdk.bridge import BridgeRefusedError, Served
from tests.api.test_bridge import Hosted, hosted, until
from tests.conftest import TOKEN

__all__ = ["hosted"]  # the fixture, shared with the host-side protocol tests


async def test_it_serves_actions_and_dials_again_after_a_drop(
    hosted: Hosted, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bridge, "BACKOFF_START_S", 0.05)
    served = Served.from_record(register())
    connections = 0

    def connected() -> None:
        nonlocal connections
        connections += 1

    running = asyncio.ensure_future(
        bridge.connect(hosted.socket_url, TOKEN, served, connected=connected)
    )
    try:
        await until(lambda: hosted.bridge.transport.link is not None)
        opened = await hosted.host.dispatch("browser.open", {"url": "https://example.com"})
        assert opened.provider_id == "bridge"
        first = hosted.bridge.transport.link
        assert first is not None
        await first.close(CLOSE_PING_TIMEOUT, "ping timeout")
        await until(lambda: connections == 2 and hosted.bridge.transport.link is not None)
        assert hosted.bridge.transport.link is not first
        snapshot = await hosted.host.dispatch("browser.snapshot", {})
        assert snapshot.data["url"] == "https://example.com/"
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)


async def test_a_refused_token_ends_it_saying_so(hosted: Hosted) -> None:
    served = Served.from_record(register())
    async with asyncio.timeout(10):
        with pytest.raises(BridgeRefusedError, match="refused the token"):
            await bridge.connect(hosted.socket_url, "wrong", served)


async def test_a_cancel_from_the_host_cancels_the_providers_call(hosted: Hosted) -> None:
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def waits(request: ProviderRequest) -> object:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return {"ok": True, "data": {}}

    served = Served(answer=waits, actions=["browser.open"])
    running = asyncio.ensure_future(bridge.connect(hosted.socket_url, TOKEN, served))
    try:
        await until(lambda: hosted.bridge.transport.link is not None)
        cancel = asyncio.Event()
        dispatching = asyncio.ensure_future(
            hosted.host.dispatch("browser.open", {"url": "https://example.com"}, cancel=cancel)
        )
        async with asyncio.timeout(5):
            await started.wait()
            cancel.set()
            await cancelled.wait()
        with pytest.raises(RequestFailedError):
            await dispatching
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)


async def test_calls_of_one_session_run_one_after_another(hosted: Hosted) -> None:
    running_now: list[str] = []
    overlapped = False
    finished: list[str] = []

    async def slow(request: ProviderRequest) -> object:
        nonlocal overlapped
        overlapped = overlapped or bool(running_now)
        running_now.append(request.request_id)
        await asyncio.sleep(0.02)  # long enough for a second call to overlap, were it let
        running_now.remove(request.request_id)
        finished.append(str(request.parameters.to_wire()["url"]))  # type: ignore[union-attr]  # an open's parameters
        return {"ok": True, "data": {"url": "x", "title": "x", "viewport": "desktop"}}

    served = Served(answer=slow, actions=["browser.open"])
    running = asyncio.ensure_future(bridge.connect(hosted.socket_url, TOKEN, served))
    try:
        await until(lambda: hosted.bridge.transport.link is not None)
        urls = [f"https://example.com/{index}" for index in range(4)]
        await asyncio.gather(
            *(
                hosted.host.dispatch("browser.open", {"url": url}, Context(session_id="s"))
                for url in urls
            ),
            return_exceptions=True,
        )
        assert finished == urls
        assert overlapped is False
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)


async def test_a_providers_surface_is_served_and_a_waiting_frame_holds_up_no_action(
    hosted: Hosted,
) -> None:
    served = Served.from_record(register())
    assert served.surface is not None
    running = asyncio.ensure_future(bridge.connect(hosted.socket_url, TOKEN, served))
    try:
        await until(lambda: hosted.bridge.transport.link is not None)
        row = hosted.host.catalog.get("bridge")
        assert row is not None
        assert row.surface is hosted.bridge.surface
        surface = hosted.bridge.surface
        first = await surface.frame(0, 1.0)
        assert first is not None
        assert first.mime in ("image/png", "image/jpeg")
        assert first.data == (await served.surface.frame(0, 0)).data  # type: ignore[union-attr]  # checked above

        # The next picture comes only when something changes: the open below, which the
        # waiting frame request must not hold up.
        waiting = asyncio.ensure_future(surface.frame(first.seq, 10.0))
        async with asyncio.timeout(5):
            await hosted.host.dispatch("browser.open", {"url": "https://example.com"})
            newer = await waiting
        assert newer is not None
        assert newer.seq > first.seq

        [session] = await surface.sessions()
        assert session.url == "https://example.com/"
        assert await surface.resize(Size(width=640, height=480)) == Size(width=640, height=480)
        await surface.input([TextEvent(type="text", text="typed")])
        assert await surface.clipboard() == ""
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
