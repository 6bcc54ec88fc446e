"""Issue 25, item 1: no header makes a socket the bridge's browser. A process on this machine
that claims an extension's origin without the token is held as pending and can do nothing
(no calls reach it, it reads nothing, changes nothing, replaces nobody) until a person approves
it; approval gives it a secret of its own, forget revokes that, deny closes it."""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from browserhost.api.app import create_app
from browserhost.contract import ACTIONS
from browserhost.host import Host
from browserhost.host.pairing import PAIRED_FILE, Pairing
from tests.conftest import TOKEN
from tests.recording import fitting

from .conftest import (
    WAIT_S,
    Hosted,
    answered_meanwhile,
    closing,
    connected,
    receive,
    result,
)

EXTENSION_ORIGIN = {"Origin": "chrome-extension://abcdefghijklmnopabcdefghijklmnop"}
PENDING = "/api/bridge/pending"
PAIRED = "/api/bridge/paired"


def asking_hello(**fields: Any) -> str:
    """The extension's hello with no token set: it asks to pair."""
    return json.dumps(
        {"t": "hello", "token": "", "actions": list(ACTIONS), "name": "Chrome extension", **fields}
    )


async def asking(hosted: Hosted) -> tuple[ClientConnection, str]:
    """A raw client that claims the extension's origin and asks to pair: its socket, and the
    id it waits as."""
    socket = await websockets.connect(hosted.socket_url, additional_headers=EXTENSION_ORIGIN)
    await socket.send(asking_hello(pair=True))
    waiting = await receive(socket)
    assert waiting["t"] == "hello.pending", waiting
    assert waiting["message"] == (
        f"Waiting for approval: allow {waiting['id']} in the browserhost viewer, or run "
        f"browserhost bridge approve {waiting['id']}"
    )
    return socket, str(waiting["id"])


async def paired(hosted: Hosted) -> tuple[ClientConnection, str, str]:
    """A client a person approved through the API, connected: its socket, id and secret."""
    socket, pairing_id = await asking(hosted)
    async with hosted.http() as http:
        approved = await http.post(f"{PENDING}/{pairing_id}/approve")
    assert approved.status_code == 200, approved.text
    given = await receive(socket)
    assert (given["t"], given["id"]) == ("hello.paired", pairing_id)
    assert (await receive(socket))["t"] == "hello.ok"
    return socket, pairing_id, str(given["secret"])


async def until_closed(socket: ClientConnection) -> tuple[list[str], tuple[int, str]]:
    """The kinds of every message the socket received until it was closed, and the close."""
    kinds: list[str] = []
    async with asyncio.timeout(WAIT_S):
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await collect(socket, kinds)
    assert closed.value.rcvd is not None, "the host dropped the socket without a close frame"
    return kinds, (closed.value.rcvd.code, closed.value.rcvd.reason)


async def collect(socket: ClientConnection, kinds: list[str]) -> None:
    while True:
        kinds.append(json.loads(await socket.recv())["t"])


async def test_a_local_process_claiming_the_extension_origin_waits_and_can_do_nothing(
    hosted: Hosted,
) -> None:
    live = await connected(hosted)
    live_link = hosted.bridge.transport.link
    assert live_link is not None
    impostor, pairing_id = await answered_meanwhile(hosted, asking(hosted))
    rpc = {"t": "rpc", "method": "selection.set", "payload": {"id": "stub"}}
    await impostor.send(json.dumps({**rpc, "id": "r1"}))
    await impostor.send(json.dumps({"t": "rpc", "id": "r2", "method": "providers.list"}))
    await impostor.send(json.dumps({"t": "tool.result", "id": "browser-1", "ok": True}))

    # The agent types a password: it goes to the live browser, never to the waiting one.
    typing = asyncio.ensure_future(
        hosted.act("browser.type", {"selector": "#password", "value": "hunter2"})
    )
    call = await receive(live)
    assert (call["name"], call["args"]["value"]) == ("browser.type", "hunter2")
    await live.send(result(call, {"ok": True, "data": fitting("browser.type")}))
    assert (await typing).status_code == 200

    async with hosted.http() as http:
        denied = await http.post(f"{PENDING}/{pairing_id}/deny")
        assert denied.status_code == 200, denied.text
        assert (await http.get(PENDING)).json() == {"pending": []}
    kinds, close = await until_closed(impostor)
    assert close == (4006, "denied")
    assert set(kinds) <= {"ping"}  # no rpc.result, no tool.call
    assert hosted.host.providers().selected_id == "bridge"
    assert hosted.bridge.transport.link is live_link
    assert not live_link.closed
    await live.close()


async def test_a_waiting_request_is_listed_with_what_it_says_of_itself(hosted: Hosted) -> None:
    socket, pairing_id = await asking(hosted)
    async with hosted.http() as http:
        [row] = (await http.get(PENDING)).json()["pending"]
    assert (row["id"], row["name"], row["origin"]) == (
        pairing_id,
        "Chrome extension",
        EXTENSION_ORIGIN["Origin"],
    )
    assert isinstance(row["since"], float)
    await socket.close()
    await until_listed(hosted, [])


async def until_listed(hosted: Hosted, ids: list[str]) -> None:
    """Poll, bounded: the host sees a client's close on its own time and tells nobody."""
    async with hosted.http() as http, asyncio.timeout(WAIT_S):
        while [row["id"] for row in (await http.get(PENDING)).json()["pending"]] != ids:  # noqa: ASYNC110  # see above
            await asyncio.sleep(0.01)


async def test_an_approved_browser_gets_a_secret_of_its_own_and_connects_with_it_later(
    hosted: Hosted,
) -> None:
    socket, pairing_id, secret = await paired(hosted)
    opening = asyncio.ensure_future(hosted.act("browser.open", {"url": "https://example.com"}))
    call = await receive(socket)
    assert call["t"] == "tool.call"
    await socket.send(result(call, {"ok": True, "data": fitting("browser.open")}))
    assert (await opening).status_code == 200
    await socket.close()

    async with hosted.http() as http:
        [row] = (await http.get(PAIRED)).json()["paired"]
    assert (row["id"], row["name"], row["origin"]) == (
        pairing_id,
        "Chrome extension",
        EXTENSION_ORIGIN["Origin"],
    )
    assert "sha256" not in row
    stored = hosted.host.data_dir / PAIRED_FILE
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    assert secret not in stored.read_text()  # only its digest is kept
    assert Pairing(hosted.host.data_dir).check(pairing_id, secret) is not None  # after a restart

    again = await websockets.connect(hosted.socket_url, additional_headers=EXTENSION_ORIGIN)
    await again.send(asking_hello(pairing={"id": pairing_id, "secret": secret}))
    assert (await receive(again))["t"] == "hello.ok"
    assert hosted.bridge.transport.link is not None
    assert hosted.bridge.transport.link.paired == pairing_id
    await again.close()


async def test_a_forgotten_browser_is_disconnected_and_refused_from_then_on(
    hosted: Hosted,
) -> None:
    socket, pairing_id, secret = await paired(hosted)
    async with hosted.http() as http:
        forgotten = await http.delete(f"{PAIRED}/{pairing_id}")
        assert forgotten.status_code == 200, forgotten.text
        assert forgotten.json()["id"] == pairing_id
        assert (await http.get(PAIRED)).json() == {"paired": []}
    assert await closing(socket) == (4005, "forgotten")
    for presented in (secret, "not-the-secret"):
        again = await websockets.connect(hosted.socket_url)
        await again.send(asking_hello(pairing={"id": pairing_id, "secret": presented}))
        assert await closing(again) == (4005, "not paired")
    assert hosted.bridge.transport.link is None


async def test_a_wrong_secret_is_refused_and_the_live_browser_stays(hosted: Hosted) -> None:
    socket, pairing_id, _ = await paired(hosted)
    live_link = hosted.bridge.transport.link
    guess = await websockets.connect(hosted.socket_url, additional_headers=EXTENSION_ORIGIN)
    await guess.send(asking_hello(pairing={"id": pairing_id, "secret": "guessed"}))
    assert await closing(guess) == (4005, "not paired")
    assert hosted.bridge.transport.link is live_link
    await socket.close()


async def test_a_request_nobody_answers_is_closed_after_the_approval_timeout(
    hosted: Hosted, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("browserhost.api.bridge.APPROVAL_TIMEOUT_S", 0.2)
    socket, _ = await asking(hosted)
    assert await closing(socket) == (4007, "approval timeout")
    await until_listed(hosted, [])
    assert hosted.bridge.transport.link is None


async def test_at_most_eight_wait_and_a_ninth_drops_the_oldest(hosted: Hosted) -> None:
    waiting = [await asking(hosted) for _ in range(9)]
    assert await closing(waiting[0][0]) == (4007, "too many waiting")
    await until_listed(hosted, [pairing_id for _, pairing_id in waiting[1:]])
    for socket, _ in waiting[1:]:
        await socket.close()


async def test_only_this_machine_may_ask_to_pair(
    hosted: Hosted, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("browserhost.api.bridge.REMOTE_ADDRESS_OVERRIDE", "203.0.113.7")
    socket = await websockets.connect(hosted.socket_url, additional_headers=EXTENSION_ORIGIN)
    await socket.send(asking_hello(pair=True))
    assert await closing(socket) == (4002, "bad token")
    await until_listed(hosted, [])
    monkeypatch.setattr("browserhost.api.bridge.REMOTE_ADDRESS_OVERRIDE", None)
    here, pairing_id = await asking(hosted)
    await until_listed(hosted, [pairing_id])
    await here.close()


async def test_an_empty_token_that_does_not_ask_to_pair_is_a_bad_token(hosted: Hosted) -> None:
    socket = await websockets.connect(hosted.socket_url, additional_headers=EXTENSION_ORIGIN)
    await socket.send(asking_hello())
    assert await closing(socket) == (4002, "bad token")


async def test_approving_denying_or_forgetting_an_unknown_id_is_refused(hosted: Hosted) -> None:
    socket, pairing_id = await asking(hosted)
    async with hosted.http() as http:
        for method, path in (
            ("POST", f"{PENDING}/nobody/approve"),
            ("POST", f"{PENDING}/nobody/deny"),
            ("DELETE", f"{PAIRED}/{pairing_id}"),  # waiting, not paired
        ):
            refused = await http.request(method, path)
            assert refused.status_code == 404, refused.text
            assert refused.json()["code"] == "PAIRING_NOT_FOUND"
            assert refused.json()["error"].endswith(
                ("Nothing was approved.", "Nothing was denied.", "Nothing was forgotten.")
            )
        async with httpx.AsyncClient(base_url=hosted.url, trust_env=False) as stranger:
            without_token = await stranger.post(f"{PENDING}/{pairing_id}/approve")
        assert without_token.status_code == 401
        assert [row["id"] for row in (await http.get(PENDING)).json()["pending"]] == [pairing_id]
    await socket.close()


async def test_a_host_without_a_bridge_says_so(tmp_path: Path) -> None:
    app = create_app(Host(tmp_path / "data"), TOKEN)
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(
        transport=transport, base_url="http://127.0.0.1", headers=headers
    ) as http:
        refused = await http.get(PENDING)
    assert refused.status_code == 404
    assert refused.json()["code"] == "NO_BRIDGE"
