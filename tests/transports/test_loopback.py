"""A provider service on loopback, reached over a real socket: delivery at most once.

Every test counts the requests that reached the service; a request is never sent twice, not
even when the first attempt fails.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import tracemalloc
import zlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from browserhost.contract import ACTIONS, Context, ProviderRequest, normalize
from browserhost.contract.errors import (
    ProviderNotFoundError,
    ProviderRejectedError,
    ProviderUnavailableError,
    RequestFailedError,
    UnknownResultError,
)
from browserhost.contract.limits import ANSWER_MAX_BYTES, PROTOCOL_VERSION
from browserhost.contract.surface import (
    FRAME_MAX_BYTES,
    InputEvent,
    KeyEvent,
    PointerEvent,
    Size,
    TextEvent,
)
from browserhost.host import Host
from browserhost.transports.base import BadAnswerError, LostError, NotSentError
from browserhost.transports.loopback import LoopbackTransport
from browserhost.transports.loopback_surface import FRAME_MARGIN_S, LoopbackSurface
from tests.loopback_service import (
    LoopbackService,
    Received,
    answer,
    close_without_answer,
    closed_port,
    gzip_bomb,
    loopback_service,
)
from tests.recording import fitting

CLICKED = fitting("browser.click", clicked="#save")
BACK = fitting("browser.back")


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    host = Host(tmp_path)
    yield host
    await host.aclose()


def install(host: Host, endpoint: str, **extra: object) -> None:
    host.catalog.install(
        {
            "id": "svc",
            "provides": ["browser"],
            "actions": list(ACTIONS),
            "endpoint": endpoint,
            **extra,
        }
    )


async def dispatch(host: Host, action: str = "browser.back", parameters: object = None) -> object:
    async with asyncio.timeout(10):
        outcome = await host.dispatch(action, parameters, provider_id="svc")
    return outcome.data


async def test_the_service_receives_the_envelope_as_json_on_browser_control(host: Host) -> None:
    async with loopback_service(answer({"ok": True, "data": CLICKED})) as service:
        install(host, service.origin)
        async with asyncio.timeout(10):
            outcome = await host.dispatch(
                "browser.click",
                {"selector": " #save ", "button": "right"},
                Context(directory="/repo", session_id="ses_1"),
                provider_id="svc",
            )
    # The key it has no parameter for is dropped (below), and the answer says so.
    assert outcome.data == {
        **CLICKED,
        "notice": "'button' is not a parameter of browser.click, which takes selector, text, "
        "and did nothing.",
    }
    [received] = service.received
    assert (received.method, received.path) == ("POST", "/browser-control")
    assert received.headers["content-type"] == "application/json"
    envelope = received.json()
    assert envelope.pop("requestId").startswith("browser-")
    assert isinstance(envelope.pop("deadline"), int)  # when the host stops waiting, epoch ms
    assert envelope == {
        "protocolVersion": PROTOCOL_VERSION,
        "action": "browser.click",
        "parameters": {"selector": "#save"},
        "context": {"directory": "/repo", "sessionId": "ses_1"},
    }


async def test_the_records_token_is_sent_as_a_bearer_token_and_never_listed(host: Host) -> None:
    async with loopback_service(answer({"ok": True, "data": BACK})) as service:
        install(host, service.origin, token="s3cret-token")
        await dispatch(host)
    [received] = service.received
    assert received.headers["authorization"] == "Bearer s3cret-token"
    assert "s3cret-token" not in str(host.providers().to_wire())


async def test_without_a_token_no_authorization_is_sent(host: Host) -> None:
    async with loopback_service(answer({"ok": True, "data": BACK})) as service:
        install(host, service.origin)
        await dispatch(host)
    assert "authorization" not in service.received[0].headers


async def test_an_endpoint_with_a_path_is_posted_to_that_path(host: Host) -> None:
    async with loopback_service(answer({"ok": True, "data": BACK})) as service:
        install(host, f"{service.origin}/v1/act?key=1")
        await dispatch(host)
    assert [r.path for r in service.received] == ["/v1/act?key=1"]


async def test_ok_false_from_the_service_is_provider_rejected(host: Host) -> None:
    async with loopback_service(answer({"ok": False, "error": "No later page."})) as service:
        install(host, service.origin)
        with pytest.raises(ProviderRejectedError, match=r"^No later page\.$"):
            await dispatch(host, "browser.forward")
    assert len(service.received) == 1


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
async def test_an_answer_of_13_mb_is_an_unknown_result(host: Host, chunked: bool) -> None:
    huge = b'{"ok": true, "data": {"base64": "' + b"A" * 13_000_000 + b'"}}'
    assert len(huge) > ANSWER_MAX_BYTES
    async with loopback_service(answer(huge, chunked=chunked)) as service:
        install(host, service.origin)
        with pytest.raises(UnknownResultError, match="larger than 12000000 bytes") as refused:
            await dispatch(host, "browser.capture")
    assert refused.value.may_have_run
    assert len(service.received) == 1


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
async def test_a_gzip_bomb_is_an_unknown_result_without_inflating_it(
    host: Host, chunked: bool
) -> None:
    """The cap counts the answer as it is decoded: 130 MB of JSON in a 130 KB gzip body must
    cost the host about the cap, not the inflated size."""
    bomb = gzip_bomb(130_000_000)
    assert len(bomb) < ANSWER_MAX_BYTES // 50
    async with loopback_service(
        answer(bomb, chunked=chunked, headers={"Content-Encoding": "gzip"})
    ) as service:
        install(host, service.origin)
        tracemalloc.start()
        try:
            with pytest.raises(UnknownResultError, match="larger than 12000000 bytes") as refused:
                await dispatch(host, "browser.capture")
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert refused.value.may_have_run
    assert peak < 2.5 * ANSWER_MAX_BYTES
    assert len(service.received) == 1


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
async def test_a_compressed_answer_under_the_cap_is_read(host: Host, encoding: str) -> None:
    plain = json.dumps({"ok": True, "data": BACK}).encode()
    body = gzip.compress(plain) if encoding == "gzip" else zlib.compress(plain)
    async with loopback_service(answer(body, headers={"Content-Encoding": encoding})) as service:
        install(host, service.origin)
        assert await dispatch(host) == BACK


async def test_an_answer_in_an_encoding_the_host_did_not_ask_for_is_an_unknown_result(
    host: Host,
) -> None:
    async with loopback_service(
        answer(b"\x0b\x02\x80{}\x03", headers={"Content-Encoding": "br"})
    ) as service:
        install(host, service.origin)
        with pytest.raises(UnknownResultError, match="encoded as 'br'"):
            await dispatch(host)
    assert "br" not in service.received[0].headers.get("accept-encoding", "")


async def test_a_service_that_accepts_and_then_closes_is_request_failed_sent_once(
    host: Host,
) -> None:
    async with loopback_service(close_without_answer) as service:
        install(host, service.origin)
        with pytest.raises(RequestFailedError) as refused:
            await dispatch(host, "browser.click", {"selector": "#buy"})
    assert refused.value.may_have_run
    assert "may have run" in refused.value.message
    assert len(service.received) == 1


async def test_a_closed_port_is_provider_unavailable_and_nothing_was_sent(host: Host) -> None:
    install(host, f"http://127.0.0.1:{closed_port()}")
    with pytest.raises(ProviderUnavailableError) as refused:
        await dispatch(host)
    assert refused.value.status == 503
    assert not refused.value.may_have_run
    assert refused.value.message.endswith("Nothing was sent.")


@pytest.mark.parametrize(
    ("status", "body", "content_type"),
    [
        (500, b'{"ok": true, "data": {}}', "application/json"),
        (404, b"not found", "text/plain"),
        (200, b"<html>hello</html>", "text/html"),
        (200, b"", "application/json"),
        (200, b'{"ok": true, "data": "done"}', "application/json"),
        (200, b'{"ok": true, "data": {"y": NaN}}', "application/json"),
        (200, b'{"ok": true, "data": {"y": -Infinity}}', "application/json"),
    ],
    ids=["500", "404", "html", "empty", "data-not-object", "nan", "infinity"],
)
async def test_a_non_200_or_non_json_or_non_result_answer_is_an_unknown_result(
    host: Host, status: int, body: bytes, content_type: str
) -> None:
    async with loopback_service(answer(body, status=status, content_type=content_type)) as service:
        install(host, service.origin)
        with pytest.raises(UnknownResultError) as refused:
            await dispatch(host)
    assert refused.value.status == 502
    assert len(service.received) == 1


def back_request() -> ProviderRequest:
    call = normalize("browser.back")
    return ProviderRequest("r1", call.name, call.parameters, Context())


async def test_no_answer_within_the_deadline_is_lost_and_sent_once() -> None:
    never = asyncio.Event()

    async def hold(_: object, __: asyncio.StreamWriter) -> None:
        await never.wait()

    async with loopback_service(hold) as service:
        transport = LoopbackTransport(f"{service.origin}/browser-control")
        try:
            async with asyncio.timeout(5):
                with pytest.raises(LostError, match=r"No answer within 0\.2 s"):
                    await transport.send(back_request(), 0.2)
                # Sent: the service reads it, late as it may on a loaded machine.
                while not service.received:  # noqa: ASYNC110  # no event tells of the read
                    await asyncio.sleep(0.01)
        finally:
            never.set()
            await transport.aclose()
    assert len(service.received) == 1  # and never sent again


async def test_a_service_that_trickles_its_answer_is_cut_off_at_the_deadline() -> None:
    """Each byte arrives well within httpx's per-read timeout; the whole answer never does."""
    stop = asyncio.Event()

    async def trickle(_: object, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n")
        while not stop.is_set():
            writer.write(b" ")
            await writer.drain()
            # pacing the fake service, not waiting for the code under test
            await asyncio.sleep(0.02)

    async with loopback_service(trickle) as service:
        transport = LoopbackTransport(f"{service.origin}/browser-control")
        try:
            async with asyncio.timeout(5):
                with pytest.raises(LostError, match=r"No answer within 0\.3 s"):
                    await transport.send(back_request(), 0.3)
        finally:
            stop.set()
            await transport.aclose()
    assert len(service.received) == 1


async def test_the_service_is_not_reached_through_a_proxy(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{closed_port()}")
    monkeypatch.setenv("ALL_PROXY", f"http://127.0.0.1:{closed_port()}")
    for exempt in ("NO_PROXY", "no_proxy"):  # a machine's own exemption would hide a defect
        monkeypatch.delenv(exempt, raising=False)
    async with loopback_service(answer({"ok": True, "data": {**BACK, "direct": True}})) as service:
        install(host, service.origin)
        assert await dispatch(host) == {**BACK, "direct": True}


async def test_an_uninstalled_service_is_not_found_and_not_contacted(host: Host) -> None:
    service: LoopbackService
    async with loopback_service(answer({"ok": True, "data": {}})) as service:
        install(host, service.origin)
        host.select("svc")
        await host.catalog.uninstall("svc")
        with pytest.raises(ProviderNotFoundError):
            await host.dispatch("browser.back")
    assert service.received == []


# --- a provider service's surface ------------------------------------------------------------


@pytest.mark.slow
async def test_loopback_surface_drives_a_real_services_surface(tmp_path: Path) -> None:
    from tests.sdk.test_service import SERVICE_TOKEN, envelope, start_service, stop

    service = start_service(tmp_path, SERVICE_TOKEN)
    transport = LoopbackTransport(f"{service.origin}/browser-control", SERVICE_TOKEN)
    surface = LoopbackSurface(service.origin, SERVICE_TOKEN)
    try:
        async with asyncio.timeout(30):
            opened = ProviderRequest.from_wire(
                json.dumps(envelope("browser.open", {"url": "http://site.test/form"}, "s")).encode()
            )
            assert opened is not None
            await transport.send(opened, 10)
            first = await surface.frame(0, 0)
            assert first is not None
            nothing = await surface.frame(first.seq, 0.05)
            events: list[InputEvent] = [
                PointerEvent(type="pointer", action="down", x=30, y=250, buttons=1),
                PointerEvent(type="pointer", action="up", x=30, y=250),
                TextEvent(type="text", text="owls"),
            ]
            await surface.input(events)
            typed = await surface.frame(first.seq, 5)
            await surface.control("user")
            resized = await surface.resize(Size(width=800, height=600))
            smaller = await surface.frame(0, 0)
            await surface.input(
                [KeyEvent(type="key", action="down", key="c", modifiers=["Control"])]
            )
            copied = await surface.clipboard()
            [session] = await surface.sessions()
            await surface.show(session.id)
            page = await surface.page("/surface/panel")
    finally:
        await surface.aclose()
        await transport.aclose()
        stop(service)
    assert (first.mime, first.width, first.height, first.title) == (
        "image/png",
        1280,
        800,
        "Search",
    )
    assert nothing is None
    assert typed is not None
    assert typed.seq > first.seq
    assert resized == Size(width=800, height=600)
    assert smaller is not None
    assert (smaller.width, smaller.height) == (800, 600)
    assert copied == "owls"
    assert (session.url, session.shown) == ("http://site.test/form", True)
    assert b'<input id="address"' in page


async def test_a_surface_whose_service_is_not_running_is_not_reached() -> None:
    surface = LoopbackSurface(f"http://127.0.0.1:{closed_port()}", "t")
    try:
        with pytest.raises(NotSentError, match="not reachable"):
            await surface.input([TextEvent(type="text", text="x")])
        with pytest.raises(NotSentError):
            await surface.frame(0, 0)
    finally:
        await surface.aclose()


async def never_answer(_: Received, writer: asyncio.StreamWriter) -> None:
    await asyncio.Event().wait()


async def test_a_frame_that_outlives_its_wait_and_margin_is_no_frame() -> None:
    async with loopback_service(never_answer) as service:
        surface = LoopbackSurface(service.origin, "t")
        try:
            async with asyncio.timeout(FRAME_MARGIN_S + 10):
                assert await surface.frame(0, 0) is None
        finally:
            await surface.aclose()
    [received] = service.received
    assert received.path == "/surface/frame?after=0&wait=0"
    assert received.headers["authorization"] == "Bearer t"


@pytest.mark.parametrize(
    "headers",
    [
        {},  # no sequence number
        {"x-surface-seq": "0", "x-surface-width": "10", "x-surface-height": "10"},
        {"x-surface-seq": "1", "x-surface-width": "99999", "x-surface-height": "10"},
    ],
)
async def test_a_frame_the_contract_cannot_read_is_a_bad_answer(headers: dict[str, str]) -> None:
    behaviour = answer(b"\x89PNG", content_type="image/png", headers=headers)
    async with loopback_service(behaviour) as service:
        surface = LoopbackSurface(service.origin, "t")
        try:
            with pytest.raises(BadAnswerError, match="frame"):
                await surface.frame(0, 0)
        finally:
            await surface.aclose()


async def test_a_frame_over_the_limit_is_refused_before_it_is_held() -> None:
    behaviour = answer(
        b"x" * (FRAME_MAX_BYTES + 1),
        content_type="image/png",
        chunked=True,
        headers={"x-surface-seq": "1", "x-surface-width": "10", "x-surface-height": "10"},
    )
    async with loopback_service(behaviour) as service:
        surface = LoopbackSurface(service.origin, "t")
        try:
            with pytest.raises(BadAnswerError, match="over"):
                await surface.frame(0, 0)
        finally:
            await surface.aclose()


async def test_a_surface_call_refused_for_its_token_says_what_to_fix() -> None:
    async with loopback_service(answer({"ok": False}, status=401)) as service:
        surface = LoopbackSurface(service.origin, "wrong")
        try:
            with pytest.raises(BadAnswerError, match="BROWSERHOST_SERVICE_TOKEN"):
                await surface.clipboard()
        finally:
            await surface.aclose()
