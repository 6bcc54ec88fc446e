"""A provider service someone else runs, reached through its record's ``endpoint`` over a real
socket: asked for its hello before anything is sent, and sent nothing when it speaks another
protocol version (reference 001, item 5); every envelope the host sends carries the version."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from browserhost.contract import ACTIONS
from browserhost.contract.errors import ProviderUnavailableError
from browserhost.contract.limits import PROTOCOL_VERSION
from browserhost.host import Host
from browserhost.transports.loopback import LoopbackTransport
from tests.loopback_service import HELLO, answer, loopback_service
from tests.recording import fitting

BACK = fitting("browser.back")
LAUNCHING = {"schema": {"type": "object"}, "help": "A browser of its own.", "operations": []}
OTHER_VERSION = PROTOCOL_VERSION + 1


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    host = Host(tmp_path)
    yield host
    await host.aclose()


def install(host: Host, origin: str) -> None:
    host.catalog.install(
        {
            "id": "svc",
            "name": "Service",
            "provides": ["browser"],
            "actions": list(ACTIONS),
            "endpoint": origin,
            "launch": LAUNCHING,
        }
    )


async def back(host: Host) -> object:
    async with asyncio.timeout(10):
        return (await host.dispatch("browser.back", provider_id="svc")).data


async def test_the_hello_is_asked_once_before_the_first_request(host: Host) -> None:
    async with loopback_service(answer({"ok": True, "data": BACK})) as service:
        install(host, service.origin)
        assert await back(host) == BACK
        assert await back(host) == BACK
    assert [(hello.method, hello.path) for hello in service.hellos] == [("GET", "/browser-control")]
    assert len(service.received) == 2


async def test_a_service_of_another_version_is_sent_nothing_and_both_versions_are_named(
    host: Host,
) -> None:
    other = answer({**HELLO, "protocolVersion": OTHER_VERSION})
    async with loopback_service(answer({"ok": True, "data": BACK}), hello=other) as service:
        install(host, service.origin)
        with pytest.raises(ProviderUnavailableError) as refused:
            await back(host)
        with pytest.raises(ProviderUnavailableError) as not_launched:
            await host.instances.launch("svc", {})
    for error in (refused.value, not_launched.value):
        assert (
            f"the service speaks provider protocol version {OTHER_VERSION} and this host speaks "
            f"version {PROTOCOL_VERSION}"
        ) in error.message
        assert not error.may_have_run
    assert refused.value.message.endswith("Nothing was sent.")
    assert not_launched.value.message.endswith("Nothing was done.")
    assert service.received == [], "nothing but the hello reached it"
    assert host.instances.listing() == []


async def test_a_service_that_gives_no_hello_is_sent_nothing(host: Host) -> None:
    missing = answer(b"not here", status=404, content_type="text/plain")
    async with loopback_service(answer({"ok": True, "data": BACK}), hello=missing) as service:
        install(host, service.origin)
        with pytest.raises(ProviderUnavailableError) as refused:
            await back(host)
    assert "answered GET with HTTP 404 and no hello" in refused.value.message
    assert "{protocolVersion, actions, surface}" in refused.value.message
    assert service.received == []


async def test_a_service_replaced_after_a_failed_request_is_asked_again(host: Host) -> None:
    """The first process goes away; the one that comes up on its port speaks another version."""
    async with loopback_service(answer({"ok": True, "data": BACK})) as first:
        install(host, first.origin)
        assert await back(host) == BACK
        port = first.port
    with pytest.raises(ProviderUnavailableError):
        await back(host)  # nothing listens: not sent
    other = answer({**HELLO, "protocolVersion": OTHER_VERSION})
    async with loopback_service(answer({"ok": True, "data": BACK}), port, other) as second:
        with pytest.raises(ProviderUnavailableError, match=f"version {OTHER_VERSION} and"):
            await back(host)
    assert len(second.hellos) == 1
    assert second.received == []


async def test_lifecycle_and_cancel_envelopes_carry_the_protocol_version(host: Host) -> None:
    async with loopback_service(answer({"ok": True, "data": {"status": "connected"}})) as service:
        install(host, service.origin)
        async with asyncio.timeout(10):
            await host.instances.launch("svc", {"a": 1}, "one")
        transport = LoopbackTransport(f"{service.origin}/browser-control")
        try:
            await transport.abandon("browser-1")
        finally:
            await transport.aclose()
    launch, cancel = service.received
    assert (launch.path, launch.json()) == (
        "/browser-control/lifecycle",
        {
            "protocolVersion": PROTOCOL_VERSION,
            "operation": "launch",
            "browserId": "svc~one",
            "options": {"a": 1},
        },
    )
    assert (cancel.path, cancel.json()) == (
        "/browser-control/cancel",
        {"protocolVersion": PROTOCOL_VERSION, "requestId": "browser-1"},
    )
