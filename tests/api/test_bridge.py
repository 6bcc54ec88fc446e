"""The bridge's socket spoken to by a raw WebSocket client, against the real app on a loopback
port in this test's event loop: the hello and its close codes, replacement, pings, tool calls
and their deadlines, host methods and the loopback rule, and the surface's calls and pictures
over the same socket."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets
from websockets.asyncio.client import ClientConnection

from browserhost.api.app import create_app
from browserhost.contract import ACTIONS
from browserhost.contract.surface import FRAME_MAX_BYTES, KeyEvent, Size, TextEvent
from browserhost.host import Host
from browserhost.host.bridge import Bridge
from browserhost.transports.base import BadAnswerError, LostError, NotSentError
from tests.conftest import TOKEN, free_port
from tests.recording import fitting

PROVIDERS = "/api/browser-providers"
ACTIONS_PATH = "/api/browser-providers/actions"
OPEN = {"action": "browser.open", "parameters": {"url": "https://example.com"}}
OPENED = {
    "ok": True,
    "data": fitting("browser.open", url="https://example.com/", title="Example"),
}


@dataclass
class Hosted:
    host: Host
    bridge: Bridge
    socket_url: str
    url: str

    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=self.url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30
        )


@pytest.fixture
async def hosted(tmp_path: Path) -> AsyncIterator[Hosted]:
    async with hosting(tmp_path) as served:
        yield served


@contextlib.asynccontextmanager
async def hosting(tmp_path: Path, listener: socket.socket | None = None) -> AsyncIterator[Hosted]:
    """The app on 127.0.0.1, or on ``listener`` (bound and listening)."""
    host = Host(tmp_path / "data")
    bridge = Bridge(host)
    host.select("bridge")
    port = free_port() if listener is None else listener.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(host, TOKEN, bridge=bridge),
            host="127.0.0.1",
            port=port,
            log_level="warning",
        )
    )
    serving = asyncio.ensure_future(server.serve(None if listener is None else [listener]))
    await until(lambda: server.started)
    try:
        yield Hosted(host, bridge, f"ws://127.0.0.1:{port}/ext/bridge", f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        async with asyncio.timeout(10):
            await serving


async def until(done: Callable[[], bool]) -> None:
    """Poll, bounded: a starting uvicorn and the host's reader of a closed socket set flags
    and send no event."""
    async with asyncio.timeout(10):
        while not done():  # noqa: ASYNC110  # see above
            await asyncio.sleep(0.01)


def hello(**fields: Any) -> str:
    return json.dumps({"t": "hello", "token": TOKEN, "actions": list(ACTIONS), **fields})


async def connected(hosted: Hosted, **fields: Any) -> ClientConnection:
    socket = await websockets.connect(hosted.socket_url)
    await socket.send(hello(**fields))
    assert (await receive(socket))["t"] == "hello.ok"
    return socket


async def receive(socket: ClientConnection) -> dict[str, Any]:
    """The next message that is not a ping."""
    async with asyncio.timeout(5):
        while True:
            message: dict[str, Any] = json.loads(await socket.recv())
            if message["t"] != "ping":
                return message


async def closing(socket: ClientConnection) -> tuple[int, str]:
    async with asyncio.timeout(5):
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await drain(socket)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


async def drain(socket: ClientConnection) -> None:
    while True:
        await socket.recv()


async def test_a_socket_that_says_nothing_is_closed_hello_timeout(
    hosted: Hosted, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("browserhost.api.bridge.HELLO_TIMEOUT_S", 0.2)
    async with websockets.connect(hosted.socket_url) as socket:
        assert await closing(socket) == (4001, "hello timeout")


async def test_a_first_message_that_is_not_hello_is_closed_hello_first(hosted: Hosted) -> None:
    async with websockets.connect(hosted.socket_url) as socket:
        await socket.send(json.dumps({"t": "tool.result", "id": "x", "ok": True}))
        assert await closing(socket) == (1008, "hello first")
    async with websockets.connect(hosted.socket_url) as socket:
        await socket.send("not json")
        assert await closing(socket) == (1008, "hello first")


async def test_a_wrong_token_is_closed_bad_token_and_nothing_connects(hosted: Hosted) -> None:
    async with websockets.connect(hosted.socket_url) as socket:
        await socket.send(json.dumps({"t": "hello", "token": "wrong", "actions": []}))
        assert await closing(socket) == (4002, "bad token")
    assert hosted.bridge.transport.link is None


async def test_a_hello_without_a_token_has_an_empty_one(hosted: Hosted) -> None:
    async with websockets.connect(hosted.socket_url) as socket_:
        await socket_.send(json.dumps({"t": "hello", "actions": []}))
        assert await closing(socket_) == (4002, "bad token")
    async with websockets.connect(hosted.socket_url) as socket_:
        await socket_.send(json.dumps({"t": "hello", "actions": [], "pair": True}))
        assert (await receive(socket_))["t"] == "hello.pending"


async def test_a_hello_declaring_an_unknown_action_is_refused_naming_it(hosted: Hosted) -> None:
    async with websockets.connect(hosted.socket_url) as socket:
        await socket.send(hello(actions=["browser.fly"]))
        code, reason = await closing(socket)
    assert code == 1008
    assert "browser.fly" in reason


async def test_a_socket_from_another_site_is_refused_at_the_upgrade(hosted: Hosted) -> None:
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with websockets.connect(hosted.socket_url, origin="http://evil.test"):  # type: ignore[arg-type]  # a plain string is what is sent
            pass
    assert refused.value.response.status_code == 403


async def test_hello_ok_says_what_the_host_allows(hosted: Hosted) -> None:
    async with websockets.connect(hosted.socket_url) as socket:
        await socket.send(hello(actions=["browser.open", "browser.snapshot"]))
        answer = await receive(socket)
    assert answer["t"] == "hello.ok"
    assert answer["caps"] == {
        "actions": ["browser.open", "browser.snapshot"],
        "verbs": [],
        "surface": False,
    }
    assert answer["policy"] == {
        "answerMaxBytes": 12_000_000,
        "openTimeoutMs": 45_000,
        "actionTimeoutMs": 20_000,
        "pingIntervalMs": 15_000,
        "pongTimeoutMs": 10_000,
    }
    assert isinstance(answer["serverTime"], int)


async def test_without_a_connection_an_action_is_provider_unavailable_nothing_sent(
    hosted: Hosted,
) -> None:
    async with hosted.http() as http:
        answer = await http.post(ACTIONS_PATH, json=OPEN)
    assert answer.status_code == 503
    assert answer.json()["code"] == "PROVIDER_UNAVAILABLE"
    assert "no browser connected" in answer.json()["error"]
    assert "Nothing was sent" in answer.json()["error"]


async def test_the_catalog_row_is_listed_disconnected_then_offers_what_hello_declared(
    hosted: Hosted,
) -> None:
    async with hosted.http() as http:
        listing = (await http.get(PROVIDERS)).json()
        assert listing["selectedId"] == "bridge"
        [row] = listing["providers"]
        assert row["bridge"] == {"connected": False}
        socket = await connected(hosted, actions=["browser.open"], name="Chromium")
        [row] = (await http.get(PROVIDERS)).json()["providers"]
        assert row["bridge"] == {"connected": True, "provider": "Chromium"}
        refused = await http.post(ACTIONS_PATH, json={"action": "browser.snapshot"})
        assert refused.json()["code"] == "UNSUPPORTED"
        await socket.close()
        await until(lambda: hosted.bridge.transport.link is None)
        [row] = (await http.get(PROVIDERS)).json()["providers"]
        assert row["bridge"] == {"connected": False}


async def test_a_tool_call_is_answered_by_its_result_and_refusals_keep_their_codes(
    hosted: Hosted,
) -> None:
    socket = await connected(hosted)
    async with hosted.http() as http:
        refused = {"ok": False, "error": "No."}
        failed = {"code": "failed", "message": "boom"}
        for result, status, code in (
            ({"ok": True, "result": OPENED}, 200, None),
            ({"ok": True, "result": refused}, 400, "PROVIDER_REJECTED"),
            ({"ok": True, "result": {"neither": 1}}, 502, "UNKNOWN_RESULT"),
            ({"ok": False, "error": failed}, 504, "REQUEST_FAILED"),
        ):
            posting = asyncio.ensure_future(
                http.post(ACTIONS_PATH, json={**OPEN, "context": {"sessionId": "s1"}})
            )
            call = await receive(socket)
            assert call["t"] == "tool.call"
            assert call["name"] == "browser.open"
            assert call["args"] == {"url": "https://example.com/"}
            assert call["sessionId"] == "s1"
            assert isinstance(call["expiresAt"], int)
            await socket.send(json.dumps({"t": "tool.result", **result, "id": call["id"]}))
            answer = await posting
            assert answer.status_code == status, answer.text
            assert answer.json().get("code") == code
    await socket.close()


async def test_a_refusal_reaches_the_agent_with_its_code_and_words_and_is_not_sent_again(
    hosted: Hosted,
) -> None:
    """``ok: false`` with a refusal code: the far side did nothing, and says why."""
    socket = await connected(hosted)
    sent: list[str] = []
    async with hosted.http() as http:
        for code, status in (
            ("PROVIDER_REJECTED", 400),
            ("UNSUPPORTED", 501),
            ("INVALID_ACTION", 400),
        ):
            posting = asyncio.ensure_future(http.post(ACTIONS_PATH, json=OPEN))
            call = await receive(socket)
            sent.append(call["id"])
            words = f"No element matches #go ({code}); take a new snapshot."
            error = {"code": code, "message": words}
            await socket.send(
                json.dumps({"t": "tool.result", "id": call["id"], "ok": False, "error": error})
            )
            answer = await posting
            assert answer.status_code == status, answer.text
            assert answer.json() == {"ok": False, "code": code, "error": words}
    assert len(set(sent)) == 3  # each call went once; a refused one was not sent again
    await socket.close()


async def test_a_failure_without_a_refusal_code_may_have_run(hosted: Hosted) -> None:
    """The far side's own codes, a code only the host gives, and a refusal that does not say
    why all read as a call the far side lost: ``REQUEST_FAILED``."""
    socket = await connected(hosted)
    async with hosted.http() as http:
        for error, said in (
            ({"code": "lost", "message": "the tab closed"}, "the tab closed"),
            ({"message": "the tab closed"}, "the tab closed"),
            ({}, "no reason given"),
            (
                {"code": "USER_IN_CONTROL", "message": "the user types"},
                "claimed USER_IN_CONTROL, which only the host decides: the user types",
            ),
            ({"code": "PROVIDER_REJECTED", "message": ""}, "refused (PROVIDER_REJECTED) without"),
            ({"code": "UNSUPPORTED", "message": "x" * 2001}, "refused (UNSUPPORTED) without"),
            ({"code": ["PROVIDER_REJECTED"], "message": "No"}, "could not answer: No"),
        ):
            posting = asyncio.ensure_future(http.post(ACTIONS_PATH, json=OPEN))
            call = await receive(socket)
            await socket.send(
                json.dumps({"t": "tool.result", "id": call["id"], "ok": False, "error": error})
            )
            answer = await posting
            assert answer.status_code == 504, answer.text
            assert answer.json()["code"] == "REQUEST_FAILED"
            assert said in answer.json()["error"]
            assert "It may have run" in answer.json()["error"]
    await socket.close()


async def test_frames_of_unknown_kinds_and_results_for_unknown_ids_are_ignored(
    hosted: Hosted,
) -> None:
    socket = await connected(hosted)
    await socket.send(json.dumps({"t": "telemetry", "anything": [1, 2]}))
    await socket.send(json.dumps({"t": "tool.result", "id": "nobody", "ok": True, "result": {}}))
    await socket.send(json.dumps({"t": "hello.ok"}))
    async with hosted.http() as http:
        posting = asyncio.ensure_future(http.post(ACTIONS_PATH, json=OPEN))
        call = await receive(socket)
        await socket.send(
            json.dumps({"t": "tool.result", "id": call["id"], "ok": True, "result": OPENED})
        )
        assert (await posting).status_code == 200
    await socket.close()


async def test_an_unreadable_message_after_hello_closes_1008(hosted: Hosted) -> None:
    socket = await connected(hosted)
    await socket.send(json.dumps({"t": "tool.result", "ok": "perhaps"}))
    code, _ = await closing(socket)
    assert code == 1008


async def test_a_newer_connection_replaces_the_older_whose_call_is_lost_not_replayed(
    hosted: Hosted,
) -> None:
    older = await connected(hosted)
    async with hosted.http() as http:
        posting = asyncio.ensure_future(http.post(ACTIONS_PATH, json=OPEN))
        assert (await receive(older))["t"] == "tool.call"
        newer = await connected(hosted)
        assert await closing(older) == (4000, "replaced")
        answer = await posting
        assert answer.status_code == 504
        assert answer.json()["code"] == "REQUEST_FAILED"
        assert "may have run" in answer.json()["error"]
        # The next message on the newer socket is a new call, never the lost one again.
        posting = asyncio.ensure_future(http.post(ACTIONS_PATH, json=OPEN))
        call = await receive(newer)
        await newer.send(
            json.dumps({"t": "tool.result", "id": call["id"], "ok": True, "result": OPENED})
        )
        assert (await posting).status_code == 200
    await newer.close()


async def test_pings_are_sent_and_a_side_that_stops_answering_is_dropped(
    hosted: Hosted, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("browserhost.api.bridge.PING_INTERVAL_S", 0.05)
    monkeypatch.setattr("browserhost.api.bridge.PONG_TIMEOUT_S", 0.3)
    socket = await websockets.connect(hosted.socket_url)
    await socket.send(hello())
    for _ in range(3):  # answered pings keep it connected
        async with asyncio.timeout(5):
            message = json.loads(await socket.recv())
            while message["t"] != "ping":
                message = json.loads(await socket.recv())
        await socket.send(json.dumps({"t": "pong"}))
    assert hosted.bridge.transport.link is not None
    assert await closing(socket) == (4003, "ping timeout")  # the next ping goes unanswered
    assert hosted.bridge.transport.link is None


async def test_calls_of_one_session_are_delivered_in_the_order_they_were_made(
    hosted: Hosted,
) -> None:
    socket = await connected(hosted)
    urls = [f"https://example.com/{index}" for index in range(8)]
    async with hosted.http() as http:
        posting = []
        for url in urls:
            body = {"action": "browser.open", "parameters": {"url": url}}
            posting.append(
                asyncio.ensure_future(
                    http.post(ACTIONS_PATH, json={**body, "context": {"sessionId": "s"}})
                )
            )
            await asyncio.sleep(0)  # let this post start before the next is made
        calls = [await receive(socket) for _ in urls]
        assert [call["args"]["url"] for call in calls] == urls
        for call in calls:
            await socket.send(
                json.dumps({"t": "tool.result", "id": call["id"], "ok": True, "result": OPENED})
            )
        assert [answer.status_code for answer in await asyncio.gather(*posting)] == [200] * 8
    await socket.close()


async def test_a_caller_cancel_after_sending_sends_tool_cancel(hosted: Hosted) -> None:
    socket = await connected(hosted)
    cancel = asyncio.Event()
    dispatching = asyncio.ensure_future(
        hosted.host.dispatch("browser.open", {"url": "https://example.com"}, cancel=cancel)
    )
    call = await receive(socket)
    cancel.set()
    assert await receive(socket) == {"t": "tool.cancel", "id": call["id"]}
    with pytest.raises(Exception, match="may have run") as failed:
        await dispatching
    assert type(failed.value).__name__ == "RequestFailedError"
    await socket.close()


async def test_a_deadline_sends_tool_cancel_and_the_call_may_have_run(hosted: Hosted) -> None:
    from browserhost.contract import Context, ProviderRequest, normalize
    from browserhost.transports.base import LostError

    socket = await connected(hosted)
    call = normalize("browser.open", {"url": "https://example.com"})
    request = ProviderRequest("browser-deadline", call.name, call.parameters, Context())
    with pytest.raises(LostError, match=r"No answer within 0\.2 s"):
        await hosted.bridge.transport.send(request, 0.2)
    assert (await receive(socket))["t"] == "tool.call"
    assert await receive(socket) == {"t": "tool.cancel", "id": "browser-deadline"}
    await socket.close()


async def test_closing_the_host_closes_the_socket_and_settles_calls_in_flight(
    hosted: Hosted,
) -> None:
    socket = await connected(hosted)
    dispatching = asyncio.ensure_future(
        hosted.host.dispatch("browser.open", {"url": "https://example.com"})
    )
    assert (await receive(socket))["t"] == "tool.call"
    await hosted.host.aclose()
    with pytest.raises(Exception, match="may have run") as failed:
        await dispatching
    assert type(failed.value).__name__ == "RequestFailedError"
    assert await closing(socket) == (1001, "host stopping")


async def rpc(socket: ClientConnection, method: str, payload: object = None) -> dict[str, Any]:
    await socket.send(json.dumps({"t": "rpc", "id": "r1", "method": method, "payload": payload}))
    answer = await receive(socket)
    assert answer["t"] == "rpc.result"
    assert answer["id"] == "r1"
    return answer


async def test_host_methods_read_from_anywhere_and_change_settings_only_from_this_machine(
    hosted: Hosted, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("browserhost.api.bridge.REMOTE_ADDRESS_OVERRIDE", "203.0.113.7")
    remote = await connected(hosted)
    listed = await rpc(remote, "providers.list")
    assert listed["ok"] is True
    assert [row["id"] for row in listed["result"]["providers"]] == ["bridge"]
    assert (await rpc(remote, "selection.get"))["result"] == {"selectedId": "bridge"}
    refused = await rpc(remote, "selection.set", {"id": "bridge"})
    assert refused["ok"] is False
    assert refused["error"]["code"] == "forbidden"
    unknown = await rpc(remote, "settings.update")
    assert unknown["error"]["code"] == "unknown-method"
    await remote.close()

    monkeypatch.setattr("browserhost.api.bridge.REMOTE_ADDRESS_OVERRIDE", None)
    local = await connected(hosted)
    assert (await rpc(local, "selection.set", {"id": "bridge"}))["result"] == {
        "selectedId": "bridge"
    }
    missing = await rpc(local, "selection.set", {"id": "nowhere"})
    assert missing["error"]["code"] == "PROVIDER_NOT_FOUND"
    await local.close()


async def test_an_ipv4_socket_on_a_dual_stack_listener_is_this_machine(tmp_path: Path) -> None:
    """Listening on ``::`` for IPv4 too, the host sees 127.0.0.1 as ``::ffff:127.0.0.1``."""
    with socket.socket(socket.AF_INET6) as listener:
        listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        listener.bind(("::", 0))
        listener.listen()
        async with hosting(tmp_path, listener) as dual:
            socket_ = await connected(dual)
            assert (await rpc(socket_, "selection.set", {"id": "bridge"}))["result"] == {
                "selectedId": "bridge"
            }
            await socket_.close()


async def test_host_methods_answer_bad_request_and_internal_and_the_socket_stays(
    hosted: Hosted, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    connection = await connected(hosted)
    for payload in (None, {}, {"id": 7}):
        refused = await rpc(connection, "selection.set", payload)
        assert refused["ok"] is False
        assert refused["error"]["code"] == "bad-request"
        assert 'takes {"id": "<provider id>"}' in refused["error"]["message"]
    assert hosted.host.providers().selected_id == "bridge"

    def broken() -> None:
        raise OSError("the catalog's disk went away")

    monkeypatch.setattr(hosted.host, "providers", broken)
    failed = await rpc(connection, "providers.list")
    assert failed["error"] == {
        "code": "internal",
        "message": "providers.list failed on the host: the catalog's disk went away",
    }
    assert any("providers.list failed" in record.getMessage() for record in caplog.records)
    monkeypatch.undo()
    assert (await rpc(connection, "selection.get"))["result"] == {"selectedId": "bridge"}
    await connection.close()


async def test_a_socket_through_a_proxy_is_not_taken_for_this_machine(hosted: Hosted) -> None:
    """A reverse proxy on this machine connects from loopback; its forwarding header says
    the browser is elsewhere."""
    socket = await websockets.connect(
        hosted.socket_url, additional_headers={"X-Forwarded-For": "198.51.100.2"}
    )
    await socket.send(hello())
    assert (await receive(socket))["t"] == "hello.ok"
    assert (await rpc(socket, "selection.set", {"id": "bridge"}))["error"]["code"] == "forbidden"
    await socket.close()


async def surface_call(socket: ClientConnection, method: str) -> dict[str, Any]:
    call = await receive(socket)
    assert call["t"] == "surface.call"
    assert call["method"] == method
    return call


def result(call: dict[str, Any], **fields: Any) -> str:
    return json.dumps({"t": "surface.result", "id": call["id"], "ok": True, **fields})


def header(call_id: str, seq: int = 1) -> str:
    fields = {"seq": seq, "width": 640, "height": 400, "mime": "image/jpeg", "title": "Form"}
    return json.dumps({"t": "surface.frame", "id": call_id, **fields})


async def test_a_side_with_a_surface_is_listed_with_one_and_answers_its_calls(
    hosted: Hosted,
) -> None:
    socket = await connected(hosted, surface=True)
    async with hosted.http() as http:
        [row] = (await http.get(PROVIDERS)).json()["providers"]
    assert row["surface"] is True
    surface = hosted.bridge.surface

    copying = asyncio.ensure_future(surface.clipboard())
    call = await surface_call(socket, "clipboard")
    assert call["args"] == {}
    await socket.send(result(call, result={"text": "copied"}))
    assert await copying == "copied"

    resizing = asyncio.ensure_future(surface.resize(Size(width=800, height=600)))
    call = await surface_call(socket, "resize")
    assert call["args"] == {"width": 800, "height": 600}
    await socket.send(result(call, result={"width": 800, "height": 500}))
    assert await resizing == Size(width=800, height=500)

    typing = asyncio.ensure_future(
        surface.input([KeyEvent(type="key", action="down", key="a", code="KeyA")])
    )
    call = await surface_call(socket, "input")
    assert call["args"]["events"] == [
        {"type": "key", "action": "down", "key": "a", "code": "KeyA", "modifiers": []}
    ]
    error = {"code": "failed", "message": "no page"}
    await socket.send(
        json.dumps({"t": "surface.result", "id": call["id"], "ok": False, "error": error})
    )
    with pytest.raises(LostError, match="no page"):
        await typing
    await socket.close()


async def test_a_picture_is_a_binary_message_after_its_header_and_waits_beside_actions(
    hosted: Hosted,
) -> None:
    """A frame request waiting for a picture holds up neither an action nor another surface
    call; a late picture for an id the host gave up on is ignored whole."""
    socket = await connected(hosted, surface=True)
    surface = hosted.bridge.surface
    framing = asyncio.ensure_future(surface.frame(3, 2.0))
    frame_call = await surface_call(socket, "frame")
    assert frame_call["args"] == {"after": 3, "waitMs": 2000}

    async with hosted.http() as http:
        posting = asyncio.ensure_future(http.post(ACTIONS_PATH, json=OPEN))
        call = await receive(socket)
        assert call["t"] == "tool.call"
        await socket.send(
            json.dumps({"t": "tool.result", "id": call["id"], "ok": True, "result": OPENED})
        )
        assert (await posting).status_code == 200
    notice = await surface_call(socket, "control")  # the agent acted: it holds control now
    assert notice["args"] == {"controller": "agent"}
    await socket.send(result(notice, result=None))
    listing = asyncio.ensure_future(surface.sessions())
    sessions_call = await surface_call(socket, "sessions")
    await socket.send(result(sessions_call, result={"sessions": []}))
    assert await listing == []
    assert not framing.done()

    await socket.send(header("surface-nobody"))
    await socket.send(b"\xff\xd8 not this one")
    picture = b"\xff\xd8" + bytes(range(256)) * 400  # a JPEG's worth of bytes, not UTF-8
    await socket.send(header(frame_call["id"], seq=4))
    await socket.send(picture)
    shown = await framing
    assert shown is not None
    assert (shown.seq, shown.width, shown.height, shown.mime, shown.title) == (
        4, 640, 400, "image/jpeg", "Form"
    )  # fmt: skip
    assert shown.data == picture

    framing = asyncio.ensure_future(surface.frame(4, 0.5))
    await socket.send(result(await surface_call(socket, "frame"), result=None))
    assert await framing is None  # nothing newer came
    await socket.close()


async def test_a_picture_over_the_limit_is_dropped_with_a_warning_and_the_socket_stays(
    hosted: Hosted, caplog: pytest.LogCaptureFixture
) -> None:
    socket = await connected(hosted, surface=True)
    surface = hosted.bridge.surface
    framing = asyncio.ensure_future(surface.frame(0, 1.0))
    call = await surface_call(socket, "frame")
    await socket.send(header(call["id"]))
    await socket.send(b"\x00" * (FRAME_MAX_BYTES + 1))
    with pytest.raises(BadAnswerError, match="over"):
        await framing
    assert any("dropped a picture" in record.getMessage() for record in caplog.records)

    copying = asyncio.ensure_future(surface.clipboard())
    await socket.send(result(await surface_call(socket, "clipboard"), result={"text": "still"}))
    assert await copying == "still"
    await socket.close()


async def test_a_picture_header_without_its_bytes_closes_1008(hosted: Hosted) -> None:
    socket = await connected(hosted, surface=True)
    framing = asyncio.ensure_future(hosted.bridge.surface.frame(0, 1.0))
    call = await surface_call(socket, "frame")
    await socket.send(header(call["id"]))
    await socket.send(json.dumps({"t": "pong"}))
    code, reason = await closing(socket)
    assert (code, reason) == (1008, "unreadable message: surface.frame without its picture")
    assert await framing is None  # the connection went: no picture


async def test_a_newer_connection_settles_the_older_ones_surface_calls(hosted: Hosted) -> None:
    older = await connected(hosted, surface=True)
    surface = hosted.bridge.surface
    framing = asyncio.ensure_future(surface.frame(0, 2.0))
    await surface_call(older, "frame")
    typing = asyncio.ensure_future(surface.input([TextEvent(type="text", text="hi")]))
    await surface_call(older, "input")

    newer = await connected(hosted, surface=True)
    assert await closing(older) == (4000, "replaced")
    async with asyncio.timeout(5):
        assert await framing is None
        with pytest.raises(LostError, match="replaced"):
            await typing
    # The newer socket sees new calls only, never the older's again.
    copying = asyncio.ensure_future(surface.clipboard())
    await newer.send(result(await surface_call(newer, "clipboard"), result={"text": ""}))
    assert await copying == ""
    await newer.close()


async def test_with_no_surface_connected_there_is_no_picture_and_input_is_not_sent(
    hosted: Hosted,
) -> None:
    surface = hosted.bridge.surface
    assert await surface.frame(0, 0.05) is None
    with pytest.raises(NotSentError, match="no browser connected"):
        await surface.input([TextEvent(type="text", text="hi")])

    socket = await connected(hosted)  # a provider without a surface
    async with hosted.http() as http:
        [row] = (await http.get(PROVIDERS)).json()["providers"]
    assert row["surface"] is False
    assert hosted.host.catalog.get("bridge").surface is None  # type: ignore[union-attr]  # listed
    with pytest.raises(NotSentError, match="has no surface"):
        await surface.clipboard()
    await socket.close()
