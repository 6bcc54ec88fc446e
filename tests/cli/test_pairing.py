"""``browserhost bridge pending``, ``approve``, ``deny``, ``paired`` and ``forget`` against a
real ``browserhost serve``, with a raw socket on this machine asking to pair: what the person
reads in the terminal, and what the waiting socket gets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.cli.test_verbs import Shell
from tests.conftest import LiveServer, start_server

pytestmark = pytest.mark.slow
WAIT_S = 15.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    running = start_server(tmp_path_factory.mktemp("pairing") / "data", providers="bridge")
    yield running
    running.stop()


@contextmanager
def asking(server: LiveServer) -> Iterator[tuple[ClientConnection, str]]:
    """A socket asking to pair, as the extension does without a token: it and its id."""
    with connect(server.url.replace("http", "ws", 1) + "/ext/bridge") as socket:
        socket.send(json.dumps({"t": "hello", "token": "", "actions": [], "pair": True}))
        waiting = next_message(socket)
        assert waiting["t"] == "hello.pending"
        yield socket, str(waiting["id"])


def next_message(socket: ClientConnection) -> dict[str, Any]:
    """The next message that is not a ping."""
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=WAIT_S))
        if message["t"] != "ping":
            return message


def closed_with(socket: ClientConnection) -> tuple[int, str]:
    with pytest.raises(ConnectionClosed) as closed:
        drain(socket)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


def test_a_waiting_browser_is_listed_approved_listed_as_paired_and_forgotten(
    server: LiveServer, tmp_path: Path
) -> None:
    shell = Shell(server, tmp_path)
    with asking(server) as (socket, pairing_id):
        forgotten = approved_then_forgotten(shell, socket, pairing_id)
    assert forgotten == (4005, "forgotten")
    assert shell.ok("bridge", "paired") == "No browser is paired.\n"


def approved_then_forgotten(
    shell: Shell, socket: ClientConnection, pairing_id: str
) -> tuple[int, str]:
    listed = shell.ok("bridge", "pending").splitlines()
    assert listed[0].startswith(f"{pairing_id}  A browser  asked ")
    assert listed[1] == (
        "Allow one whose browserhost button shows the same id: browserhost bridge approve ID "
        "(or deny ID)."
    )
    assert shell.ok("bridge", "approve", pairing_id) == (
        f"Approved {pairing_id} (A browser): it is connected, and connects again with its own "
        f"secret. Revoke it with: browserhost bridge forget {pairing_id}\n"
    )
    paired = next_message(socket)
    assert (paired["t"], paired["id"]) == ("hello.paired", pairing_id)
    assert next_message(socket)["t"] == "hello.ok"
    assert shell.ok("bridge", "pending") == "No browser is waiting for approval.\n"
    [row] = shell.answer("bridge", "paired")
    assert (row["id"], row["name"]) == (pairing_id, "A browser")
    assert shell.ok("bridge", "paired").startswith(f"{pairing_id}  A browser  paired ")

    assert shell.ok("bridge", "forget", pairing_id) == (
        f"Forgot {pairing_id} (A browser): it is disconnected, and must be approved again to "
        "connect.\n"
    )
    return closed_with(socket)


def test_a_denied_browser_is_disconnected_and_an_unknown_id_changes_nothing(
    server: LiveServer, tmp_path: Path
) -> None:
    shell = Shell(server, tmp_path)
    with asking(server) as (socket, pairing_id):
        unknown = shell("bridge", "approve", "nobody")
        assert unknown.status == 3, unknown
        assert unknown.err.strip() == (
            "PAIRING_NOT_FOUND: No browser is waiting with id 'nobody'; browserhost bridge "
            "pending lists those that are. Nothing was approved."
        )
        assert shell.ok("bridge", "deny", pairing_id) == (
            f"Denied {pairing_id} (A browser): it was disconnected.\n"
        )
        assert closed_with(socket) == (4006, "denied")
    assert shell("bridge", "forget", pairing_id).status == 3  # denied, never paired


def drain(socket: ClientConnection) -> None:
    while True:
        socket.recv(timeout=WAIT_S)
