"""The sockets' hello (:mod:`browserhost.api.hello`), on both sockets that read it: a token is
accepted only when it is the host's token exactly, never one that starts or ends like it, or
matches it but for case."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import websockets

from browserhost.api.app import create_app
from browserhost.host import Host
from browserhost.host.bridge import Bridge
from browserhost.providers.stub import register
from tests.conftest import TOKEN, listening

NEAR_MISSES: dict[str, Callable[[str], str]] = {
    "empty": lambda token: "",
    "prefix": lambda token: token[:-1],
    "one-character-more": lambda token: token + "x",
    "another-case": lambda token: token.upper(),
}
assert all(miss(TOKEN) != TOKEN for miss in NEAR_MISSES.values())

SOCKETS: dict[str, tuple[str, dict[str, Any], str]] = {
    "bridge": ("/ext/bridge", {"actions": []}, "hello.ok"),
    "surface": ("/api/surface", {"viewer": "v1"}, "ready"),
}
"""Each socket's path, the rest of its hello, and its first answer to an accepted one."""


@dataclass
class Served:
    bridge: Bridge
    origin: str


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    host = Host(tmp_path / "data")
    host.catalog.install(register())
    bridge = Bridge(host)
    bound = listening()
    port = bound.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(host, TOKEN, bridge=bridge), log_level="warning")
    )
    serving = asyncio.ensure_future(server.serve([bound]))
    async with asyncio.timeout(10):
        while not server.started:  # noqa: ASYNC110  # a starting uvicorn sets a flag, no event
            await asyncio.sleep(0.01)
    yield Served(bridge, f"ws://127.0.0.1:{port}")
    server.should_exit = True
    async with asyncio.timeout(10):
        await serving


async def answer(served: Served, socket_name: str, token: str) -> str:
    """What the socket answers a hello with ``token``: the kind of its first message, or its
    close code and reason."""
    path, rest, _ = SOCKETS[socket_name]
    async with websockets.connect(served.origin + path) as socket:
        await socket.send(json.dumps({"t": "hello", "token": token, **rest}))
        try:
            async with asyncio.timeout(5):
                return str(json.loads(await socket.recv())["t"])
        except websockets.ConnectionClosed as closed:
            close = closed.rcvd
    return "closed without a close frame" if close is None else f"{close.code} {close.reason}"


@pytest.mark.parametrize("socket_name", list(SOCKETS))
@pytest.mark.parametrize("miss", list(NEAR_MISSES))
async def test_a_token_near_the_hosts_is_closed_bad_token_and_the_token_itself_is_accepted(
    served: Served, socket_name: str, miss: str
) -> None:
    assert await answer(served, socket_name, NEAR_MISSES[miss](TOKEN)) == "4002 bad token"
    assert served.bridge.transport.link is None
    assert await answer(served, socket_name, TOKEN) == SOCKETS[socket_name][2]
