"""A listener open to a network (``--bridge-listen``) cannot be made to starve the API: a
connection that sends no request head, or sends it a byte at a time, is cut after
:data:`~browserhost.api.connections.HEAD_TIMEOUT_S`, and one past
:data:`~browserhost.api.connections.CONNECTIONS_MAX` is closed at once, while the API on
its own port answers throughout. A real ``serve`` process, real sockets."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from browserhost.api.connections import CONNECTIONS_MAX, HEAD_TIMEOUT_S
from tests.conftest import LiveServer, free_port, start_server

pytestmark = pytest.mark.slow

PART_OF_A_HEAD = b"GET /ext/bridge HTTP/1.1\r\nHost: 127.0.0.1\r\n"


@pytest.fixture
def bridged(tmp_path: Path) -> Iterator[tuple[LiveServer, int]]:
    port = free_port()
    server = start_server(
        tmp_path / "data",
        providers="stub,bridge",
        extra_args=("--bridge-listen", f"127.0.0.1:{port}"),
    )
    try:
        yield server, port
    finally:
        server.stop()


def closed_by_server(connection: socket.socket, within_s: float) -> bool:
    """Whether the server closes ``connection`` (an end of stream, or a reset) in time."""
    connection.settimeout(within_s)
    try:
        return connection.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_a_connection_that_never_ends_its_request_head_is_cut(
    bridged: tuple[LiveServer, int],
) -> None:
    server, port = bridged
    with (
        socket.create_connection(("127.0.0.1", port)) as silent,
        socket.create_connection(("127.0.0.1", port)) as dripping,
    ):
        dripping.sendall(PART_OF_A_HEAD)
        started = time.monotonic()
        assert closed_by_server(silent, HEAD_TIMEOUT_S * 3)
        assert closed_by_server(dripping, HEAD_TIMEOUT_S * 3)
        assert time.monotonic() - started >= HEAD_TIMEOUT_S * 0.9  # its time, not less
    with server.client() as api:
        assert api.get("/api/browser-providers").status_code == 200


def test_connections_past_the_most_a_listener_holds_are_closed_and_the_api_answers(
    bridged: tuple[LiveServer, int],
) -> None:
    server, port = bridged
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(CONNECTIONS_MAX)]
    try:
        for connection in held:
            connection.sendall(PART_OF_A_HEAD)
        with socket.create_connection(("127.0.0.1", port)) as one_more:
            assert closed_by_server(one_more, HEAD_TIMEOUT_S / 2)
        with server.client() as api:
            assert api.get("/api/browser-providers").status_code == 200
    finally:
        for connection in held:
            connection.close()
