"""The bridge transport over a channel the test controls: what a failed write, a replaced link
and a far side's failure mean for the request."""

from __future__ import annotations

import asyncio

import pytest

from browserhost.contract import Context, ProviderRequest, normalize
from browserhost.contract.bridge import Hello, ToolResult
from browserhost.contract.errors import ProviderRejectedError
from browserhost.transports.base import LostError, NotSentError
from browserhost.transports.bridge import BridgeTransport, ChannelClosedError, Link


class Channel:
    def __init__(self, fails: bool = False) -> None:
        self.fails = fails
        self.sent: list[str] = []
        self.written = asyncio.Event()
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        if self.fails:
            raise ChannelClosedError("broken pipe")
        self.sent.append(text)
        self.written.set()

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def request(request_id: str = "browser-1") -> ProviderRequest:
    call = normalize("browser.snapshot", {})
    return ProviderRequest(request_id, call.name, call.parameters, Context())


def link(channel: Channel) -> Link:
    return Link(channel, Hello(token="t", actions=["browser.snapshot"]), loopback=True)


async def test_a_write_that_fails_is_nothing_sent() -> None:
    transport = BridgeTransport()
    await transport.attach(link(Channel(fails=True)))
    with pytest.raises(NotSentError, match="broken pipe"):
        await transport.send(request(), 5)


async def test_a_link_closed_before_the_write_is_nothing_sent() -> None:
    transport = BridgeTransport()
    closing = link(Channel())
    await transport.attach(closing)
    closing.closed = True
    with pytest.raises(NotSentError):
        await transport.send(request(), 5)


async def test_a_replaced_link_loses_its_call_and_the_newer_link_never_sees_it() -> None:
    transport = BridgeTransport()
    older, newer = Channel(), Channel()
    await transport.attach(link(older))
    sending = asyncio.ensure_future(transport.send(request(), 5))
    async with asyncio.timeout(5):
        await older.written.wait()
    await transport.attach(link(newer))
    with pytest.raises(LostError, match="replaced"):
        await sending
    assert older.closed == (4000, "replaced")
    assert newer.sent == []


async def test_a_far_side_failure_is_lost_and_a_late_result_from_another_link_is_ignored() -> None:
    transport = BridgeTransport()
    channel = Channel()
    current = link(channel)
    await transport.attach(current)
    sending = asyncio.ensure_future(transport.send(request(), 5))
    async with asyncio.timeout(5):
        await channel.written.wait()
    stranger = link(Channel())
    transport.settle(stranger, ToolResult(id="browser-1", ok=True, result={"ok": True}))
    assert not sending.done()
    error = {"code": "failed", "message": "the provider crashed"}
    transport.settle(current, ToolResult(id="browser-1", ok=False, error=error))
    with pytest.raises(LostError, match="the provider crashed"):
        await sending


async def test_a_far_side_refusal_keeps_its_code_and_a_host_only_code_is_lost() -> None:
    transport = BridgeTransport()
    channel = Channel()
    current = link(channel)
    await transport.attach(current)
    for code, raised in (
        ("PROVIDER_REJECTED", ProviderRejectedError),
        ("USER_IN_CONTROL", LostError),
    ):
        channel.written.clear()
        sending = asyncio.ensure_future(transport.send(request(f"browser-{code}"), 5))
        async with asyncio.timeout(5):
            await channel.written.wait()
        error = {"code": code, "message": "No element matches #go; take a new snapshot."}
        transport.settle(current, ToolResult(id=f"browser-{code}", ok=False, error=error))
        with pytest.raises(raised, match="No element matches #go"):
            await sending
