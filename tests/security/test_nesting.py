"""Issue 25, item 6: JSON nested deeper than Python reads (200,000 ``[``) as a socket's first
message, as a later one, or inside a ``tool.result``, closes the socket with 1008 (a close
frame, never a dropped connection); in an HTTP body it is a 400 naming the action's code."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from browserhost.contract import Context, ProviderRequest, normalize
from browserhost.contract.bridge import Hello, ToolResult
from browserhost.transports.base import BadAnswerError
from browserhost.transports.bridge import BridgeTransport, Link
from tests.conftest import TOKEN

from .conftest import (
    ACTIONS_PATH,
    INSTANCES,
    PROVIDERS,
    Hosted,
    answered_meanwhile,
    closing,
    connected,
    receive,
)

DEEP = "[" * 200_000


async def first_message_closes(url: str) -> tuple[int, str]:
    async with websockets.connect(url, max_size=None) as socket:
        await socket.send(DEEP)
        return await closing(socket)


async def test_the_bridge_closes_1008_on_a_deep_first_message(hosted: Hosted) -> None:
    closed = await answered_meanwhile(hosted, first_message_closes(hosted.socket_url))
    assert closed == (1008, "hello first")
    assert hosted.bridge.transport.link is None


async def test_the_viewer_socket_closes_1008_on_a_deep_first_message(hosted: Hosted) -> None:
    surface = hosted.url.replace("http", "ws", 1) + "/api/surface"
    assert await answered_meanwhile(hosted, first_message_closes(surface)) == (1008, "hello first")


async def test_the_viewer_socket_closes_1008_on_a_deep_later_message(hosted: Hosted) -> None:
    async def after_hello() -> tuple[int, str]:
        surface = hosted.url.replace("http", "ws", 1) + "/api/surface"
        async with websockets.connect(surface, max_size=None) as socket:
            await socket.send(json.dumps({"t": "hello", "token": TOKEN, "viewer": "v1"}))
            assert json.loads(await socket.recv()) == {"t": "ready", "viewer": "viewer v1"}
            await socket.send(DEEP)
            return await closing(socket)

    assert await answered_meanwhile(hosted, after_hello()) == (1008, "unreadable message")


async def test_a_deep_tool_result_closes_1008_and_its_call_may_have_run(hosted: Hosted) -> None:
    socket = await connected(hosted)
    snapshot = asyncio.ensure_future(hosted.act("browser.snapshot", {}))
    call = await receive(socket)
    await socket.send(f'{{"t":"tool.result","id":"{call["id"]}","ok":true,"result":{DEEP}')
    code, reason = await answered_meanwhile(hosted, closing(socket))
    assert (code, reason) == (1008, "unreadable message: not JSON, or nested too deeply")
    answered = await snapshot
    assert answered.status_code == 504
    assert answered.json()["code"] == "REQUEST_FAILED"


@pytest.mark.parametrize(
    ("method", "path", "code", "says"),
    [
        ("POST", ACTIONS_PATH, "INVALID_ACTION", "recursion limit exceeded"),
        ("PUT", f"{PROVIDERS}/selection", "INVALID_SELECTION", "or nested too deeply"),
        ("POST", INSTANCES, "INVALID_ACTION", "or nested too deeply"),
    ],
    ids=["actions", "selection", "instances"],
)
async def test_a_deep_http_body_is_a_400_saying_so(
    hosted: Hosted, method: str, path: str, code: str, says: str
) -> None:
    async def send() -> Any:
        async with hosted.http() as http:
            headers = {"Content-Type": "application/json"}
            return await http.request(method, path, content=DEEP.encode(), headers=headers)

    answered = await answered_meanwhile(hosted, send())
    assert answered.status_code == 400
    assert answered.json()["code"] == code
    assert says in answered.json()["error"]


async def test_a_deep_mcp_body_is_a_json_rpc_parse_error(hosted: Hosted) -> None:
    async def send() -> Any:
        async with hosted.http() as http:
            headers = {
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
            }
            return await http.post("/mcp", content=DEEP.encode(), headers=headers)

    answered = await answered_meanwhile(hosted, send())
    assert answered.status_code == 400
    assert answered.json()["error"]["code"] == -32700


class _Channel:
    def __init__(self) -> None:
        self.written = asyncio.Event()

    async def send_text(self, text: str) -> None:
        self.written.set()

    async def close(self, code: int, reason: str) -> None:
        pass


async def test_a_result_nested_too_deeply_to_write_again_is_an_unusable_answer() -> None:
    """What Python's json read at one depth of the stack it may not write at another."""
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    transport, channel = BridgeTransport(), _Channel()
    link = Link(channel, Hello(token="t", actions=["browser.snapshot"]), loopback=True)
    await transport.attach(link)
    call = normalize("browser.snapshot", {})
    sending = asyncio.ensure_future(
        transport.send(ProviderRequest("browser-1", call.name, call.parameters, Context()), 5)
    )
    async with asyncio.timeout(5):
        await channel.written.wait()
    transport.settle(link, ToolResult(id="browser-1", ok=True, result={"ok": True, "data": deep}))
    with pytest.raises(BadAnswerError, match="not JSON"):
        await sending
