"""A real app on a loopback port in the test's own event loop, a raw WebSocket client for its
bridge, and the check every attack here ends with: another client is answered meanwhile.

The server shares the test's event loop on purpose: anything that holds the host's loop holds
the test's too, so a request made meanwhile that is not answered within
:data:`MEANWHILE_BOUND_S` shows it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
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
from browserhost.host import Host
from browserhost.host.bridge import Bridge
from browserhost.providers.stub import register
from tests.conftest import TOKEN, listening

PROVIDERS = "/api/browser-providers"
ACTIONS_PATH = "/api/browser-providers/actions"
INSTANCES = "/api/browser-providers/instances"
MEANWHILE_BOUND_S = 5.0
"""Generous for a listing (milliseconds), short of what a held loop took (seconds, or ever)."""
WAIT_S = 10.0


@dataclass
class Hosted:
    host: Host
    bridge: Bridge
    url: str

    @property
    def socket_url(self) -> str:
        return self.url.replace("http", "ws", 1) + "/ext/bridge"

    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=self.url,
            headers={"Authorization": f"Bearer {TOKEN}"},
            timeout=WAIT_S * 3,
            trust_env=False,
        )

    async def act(self, action: str, parameters: dict[str, Any]) -> httpx.Response:
        async with self.http() as http:
            return await http.post(ACTIONS_PATH, json={"action": action, "parameters": parameters})


async def answered_meanwhile(hosted: Hosted, bad: Awaitable[Any]) -> Any:
    """Run ``bad`` while another client lists the providers; ``bad``'s result, once the
    listing has been answered within :data:`MEANWHILE_BOUND_S`."""
    handling = asyncio.ensure_future(bad)  # scheduled first: on its way before the listing
    try:
        async with hosted.http() as http, asyncio.timeout(MEANWHILE_BOUND_S):
            listed = await http.get(PROVIDERS)
        assert listed.status_code == 200, listed.text
    except BaseException:
        handling.cancel()
        raise
    async with asyncio.timeout(WAIT_S * 3):
        return await handling


@asynccontextmanager
async def serving(data_dir: Path) -> AsyncIterator[Hosted]:
    """The stub and the bridge installed, the bridge selected, served on a free port."""
    host = Host(data_dir)
    host.catalog.install(register())
    bridge = Bridge(host)
    host.select("bridge")
    bound = listening()
    port = bound.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(host, TOKEN, bridge=bridge), log_level="error")
    )
    running = asyncio.ensure_future(server.serve([bound]))
    await until(lambda: server.started)
    yield Hosted(host, bridge, f"http://127.0.0.1:{port}")
    server.should_exit = True
    async with asyncio.timeout(WAIT_S):
        await running


@pytest.fixture
async def hosted(tmp_path: Path) -> AsyncIterator[Hosted]:
    async with serving(tmp_path / "data") as served:
        yield served


async def until(done: Callable[[], bool]) -> None:
    """Poll, bounded: a starting uvicorn sets a flag and sends no event."""
    async with asyncio.timeout(WAIT_S):
        while not done():  # noqa: ASYNC110  # see above
            await asyncio.sleep(0.01)


def hello(**fields: Any) -> str:
    return json.dumps({"t": "hello", "token": TOKEN, "actions": list(ACTIONS), **fields})


async def connected(hosted: Hosted, **fields: Any) -> ClientConnection:
    """A raw bridge client whose hello was accepted."""
    socket = await websockets.connect(hosted.socket_url, max_size=None)
    await socket.send(hello(**fields))
    assert (await receive(socket))["t"] == "hello.ok"
    return socket


async def receive(socket: ClientConnection) -> dict[str, Any]:
    """The next message that is not a ping."""
    async with asyncio.timeout(WAIT_S):
        while True:
            message: dict[str, Any] = json.loads(await socket.recv())
            if message["t"] != "ping":
                return message


async def closing(socket: ClientConnection) -> tuple[int, str]:
    """The close frame the host sends: its code and reason."""
    async with asyncio.timeout(WAIT_S):
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await drain(socket)
    assert closed.value.rcvd is not None, "the host dropped the socket without a close frame"
    return closed.value.rcvd.code, closed.value.rcvd.reason


async def drain(socket: ClientConnection) -> None:
    while True:
        await socket.recv()


def result(call: dict[str, Any], answer: object) -> str:
    """The far side's ``tool.result`` for ``call``, carrying ``answer``."""
    return json.dumps({"t": "tool.result", "id": call["id"], "ok": True, "result": answer})
