"""Who may open the bridge's socket as the browser extension: a ``chrome-extension://`` (or
Firefox's ``moz-extension://``) origin lets a socket say hello and nothing more (the token, a
paired secret or a person's approval let it in: tests/security/test_pairing.py), over real
sockets to the real app, some of them from this machine's non-loopback address."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import websockets

from browserhost.api.app import create_app
from browserhost.api.bridge import page_script
from browserhost.contract import ACTIONS
from browserhost.host import Host
from browserhost.host.bridge import HOLDER, Bridge
from tests.api.test_bridge import closing, receive, rpc, until
from tests.conftest import TOKEN, listening

EXTENSION_ID = "abcdefghijklmnopabcdefghijklmnop"
EXTENSION = f"chrome-extension://{EXTENSION_ID}"
OTHER_EXTENSION = "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba"
FIREFOX_EXTENSION = "moz-extension://6b1d2f0c-8f4e-4b8a-9c3d-2e5f7a9b1c4d"


def own_address() -> str:
    """This machine's address on its network: a socket from it is not a loopback one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.123", 9))  # sends nothing: only picks the route's address
        address: str = probe.getsockname()[0]
    assert address != "127.0.0.1", "these tests need an address other than loopback"
    return address


class Served:
    def __init__(self, host: Host, port: int) -> None:
        self.host = host
        self.port = port

    def url(self, via: str = "127.0.0.1") -> str:
        return f"ws://{via}:{self.port}/ext/bridge"


@asynccontextmanager
async def serving(tmp_path: Path, extension_id: str | None = None) -> AsyncIterator[Served]:
    """The app on every address, as ``serve --host 0.0.0.0 --allow-host <address>``."""
    host = Host(tmp_path / "data")
    bridge = Bridge(host, extension_id=extension_id)
    app = create_app(host, TOKEN, allowed_hosts=[own_address()], bridge=bridge)
    bound = listening("0.0.0.0")
    port = bound.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    running = asyncio.ensure_future(server.serve([bound]))
    await until(lambda: server.started)
    try:
        yield Served(host, port)
    finally:
        server.should_exit = True
        async with asyncio.timeout(10):
            await running


def hello(token: str = "", **fields: Any) -> str:
    return json.dumps({"t": "hello", "token": token, "actions": list(ACTIONS), **fields})


async def greeted(url: str, origin: str | None, token: str = "", **fields: Any) -> Any:
    """``hello.ok``'s fields, or the close code and reason."""
    headers = {} if origin is None else {"Origin": origin}
    async with websockets.connect(url, additional_headers=headers) as connection:
        try:  # a refused extension is closed before it says hello
            await connection.send(hello(token, **fields))
            return await receive(connection)
        except websockets.ConnectionClosed:
            return await closing(connection)


async def test_an_extension_origin_on_this_machine_without_the_token_waits_for_a_person(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        assert await greeted(served.url(), EXTENSION) == (4002, "bad token")
        assert (await greeted(served.url(), EXTENSION, pair=True))["t"] == "hello.pending"


async def test_without_the_extension_origin_this_machine_still_needs_the_token(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        assert await greeted(served.url(), None) == (4002, "bad token")
        assert await greeted(served.url(), None, "wrong") == (4002, "bad token")


async def test_an_extension_on_another_machine_needs_the_token(tmp_path: Path) -> None:
    elsewhere = own_address()
    async with serving(tmp_path) as served:
        assert await greeted(served.url(elsewhere), EXTENSION) == (4002, "bad token")
        assert await greeted(served.url(elsewhere), EXTENSION, "wrong") == (4002, "bad token")
        assert (await greeted(served.url(elsewhere), EXTENSION, TOKEN))["t"] == "hello.ok"


async def test_a_web_page_cannot_open_the_bridge_even_from_this_machine(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        with pytest.raises(websockets.InvalidStatus) as refused:
            await greeted(served.url(), "http://evil.example", TOKEN)
    assert refused.value.response.status_code == 403


async def test_a_firefox_extension_is_let_in_by_the_token_like_any_token_holder(
    tmp_path: Path,
) -> None:
    """Its origin gets it to the hello (a page cannot send one), and no further."""
    elsewhere = own_address()
    async with serving(tmp_path) as served:
        assert (await greeted(served.url(), FIREFOX_EXTENSION, TOKEN))["t"] == "hello.ok"
        assert (await greeted(served.url(elsewhere), FIREFOX_EXTENSION, TOKEN))["t"] == "hello.ok"
        assert await greeted(served.url(), FIREFOX_EXTENSION) == (4002, "bad token")
        assert await greeted(served.url(), FIREFOX_EXTENSION, "wrong") == (4002, "bad token")
        assert (await greeted(served.url(), FIREFOX_EXTENSION, pair=True))["t"] == "hello.pending"
        for page in ("http://evil.example", "https://moz-extension.example", "null"):
            with pytest.raises(websockets.InvalidStatus) as refused:
                await greeted(served.url(), page, TOKEN)
            assert refused.value.response.status_code == 403


async def test_a_host_pinned_to_one_extension_refuses_any_other_even_with_the_token(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path, extension_id=EXTENSION_ID) as served:
        assert await greeted(served.url(), OTHER_EXTENSION, TOKEN) == (
            4004,
            "extension not allowed",
        )
        assert (await greeted(served.url(), EXTENSION, TOKEN))["t"] == "hello.ok"
        assert (await greeted(served.url(), None, TOKEN))["t"] == "hello.ok"
        # Firefox's origin names an installation, not the extension: the filter cannot apply.
        assert (await greeted(served.url(), FIREFOX_EXTENSION, TOKEN))["t"] == "hello.ok"


async def test_hello_ok_carries_the_chromium_page_script_only_when_asked(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        asked = await greeted(served.url(), EXTENSION, TOKEN, pageScript=True)
        plain = await greeted(served.url(), EXTENSION, TOKEN)
    assert asked["pageScript"] == page_script()
    assert asked["pageScript"].startswith("// The page side of browserhost's chromium provider.")
    assert "pageScript" not in plain


async def test_the_person_at_the_browser_takes_control_and_hands_it_back(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        headers = {"Origin": EXTENSION}
        async with websockets.connect(served.url(), additional_headers=headers) as connection:
            await connection.send(hello(TOKEN))
            assert (await receive(connection))["t"] == "hello.ok"
            assert (await rpc(connection, "control.take"))["result"] == {"taken": True}
            assert served.host.controls.controller("bridge") == "user"
            assert (await rpc(connection, "control.handBack"))["result"] == {"handedBack": True}
            assert served.host.controls.controller("bridge") == "agent"
            assert (await rpc(connection, "control.take"))["result"] == {"taken": True}
        await until(lambda: served.host.controls.controller("bridge") != "user")


async def test_no_viewer_can_name_itself_the_person_at_the_browser_to_hand_back(
    tmp_path: Path,
) -> None:
    """A viewer (anyone with the token, an agent too) that says it is the bridged browser's
    person is a viewer of that name, whose hand back and leaving release nothing of theirs."""
    async with serving(tmp_path) as served:
        headers = {"Origin": EXTENSION}
        async with websockets.connect(served.url(), additional_headers=headers) as connection:
            await connection.send(hello(TOKEN))
            assert (await receive(connection))["t"] == "hello.ok"
            assert (await rpc(connection, "control.take"))["result"] == {"taken": True}
            surface = f"ws://127.0.0.1:{served.port}/api/surface"
            async with websockets.connect(surface) as viewer:
                await viewer.send(json.dumps({"t": "hello", "token": TOKEN, "viewer": HOLDER}))
                assert json.loads(await viewer.recv()) == {
                    "t": "ready",
                    "viewer": f"viewer {HOLDER}",
                }
                await viewer.send(json.dumps({"t": "handBack"}))
                await viewer.send(json.dumps({"t": "show", "id": None}))  # answered after it
                async with asyncio.timeout(10):
                    while json.loads(await viewer.recv()).get("t") != "state":
                        pass
            assert served.host.controls.controller("bridge") == "user"
