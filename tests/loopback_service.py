"""A provider service made of a raw asyncio socket server, for tests of the loopback transport.

It is deliberately not built on the SDK or any web framework: it records exactly the bytes
that reached it, so a test can assert what the host sent and how many times, and it can
misbehave in ways a well-written service never would (close without answering, answer 13 MB,
answer HTML, answer a gzip bomb).

A host says nothing to a service it runs, nor to an endpoint, before the service's hello
(``GET`` at its action path): the fake answers that itself, with :data:`HELLO` unless told
otherwise, and counts it apart (``hellos``), so ``received`` stays what the behaviour got.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from browserhost.contract import ACTIONS
from browserhost.contract.limits import PROTOCOL_VERSION


@dataclass(frozen=True)
class Received:
    """One HTTP request as it arrived."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


Behaviour = Callable[[Received, asyncio.StreamWriter], Awaitable[None]]


HELLO: dict[str, Any] = {
    "protocolVersion": PROTOCOL_VERSION,
    "actions": sorted(ACTIONS),
    "surface": False,
}
"""What a well-behaved service of this protocol version says when asked."""


@dataclass
class LoopbackService:
    port: int
    received: list[Received] = field(default_factory=list)
    hellos: list[Received] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def answer(
    body: bytes | dict[str, Any],
    *,
    status: int = 200,
    content_type: str = "application/json",
    chunked: bool = False,
    headers: dict[str, str] | None = None,
) -> Behaviour:
    """Answer every request with ``body`` (JSON-encoded when it is a dict) and ``headers``."""
    payload = json.dumps(body).encode() if isinstance(body, dict) else body

    async def respond(_: Received, writer: asyncio.StreamWriter) -> None:
        head = f"HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nConnection: close\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        if chunked:
            writer.write(f"{head}Transfer-Encoding: chunked\r\n\r\n".encode())
            step = 1 << 20
            for start in range(0, len(payload), step):
                piece = payload[start : start + step]
                writer.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                await writer.drain()
            writer.write(b"0\r\n\r\n")
        else:
            writer.write(f"{head}Content-Length: {len(payload)}\r\n\r\n".encode() + payload)
        await writer.drain()

    return respond


def gzip_bomb(decoded_size: int) -> bytes:
    """A gzip body that inflates to a JSON answer of ``decoded_size`` bytes (about 1,000
    times its own size), built without holding the inflated answer in memory."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    parts = [squeeze.compress(b'{"ok": true, "data": {"base64": "')]
    piece = b"A" * (1 << 20)
    for _ in range(decoded_size // len(piece)):
        parts.append(squeeze.compress(piece))
    parts.append(squeeze.compress(b'"}}') + squeeze.flush())
    return b"".join(parts)


async def close_without_answer(_: Received, writer: asyncio.StreamWriter) -> None:
    """Read the request, then hang up: the action may have run, no answer came back."""


async def _read_request(reader: asyncio.StreamReader) -> Received | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    request_line, *lines = head.decode("latin-1").rstrip("\r\n").split("\r\n")
    method, path, _ = request_line.split(" ", 2)
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return Received(method, path, headers, body)


@contextlib.asynccontextmanager
async def loopback_service(
    behaviour: Behaviour, port: int = 0, hello: Behaviour | None = None
) -> AsyncIterator[LoopbackService]:
    """Serve ``behaviour`` on loopback ``port`` (a free one by default) for the duration of the
    block; a hello is answered with ``hello`` (by default :data:`HELLO`)."""
    service = LoopbackService(port=port)
    greet = answer(HELLO) if hello is None else hello

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await _read_request(reader)
            if request is not None and _is_hello(request):
                service.hellos.append(request)
                await greet(request, writer)
            elif request is not None:
                service.received.append(request)
                await behaviour(request, writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the host hung up first, as it must when an answer is too large
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    server = await asyncio.start_server(handle, "127.0.0.1", port)
    service.port = server.sockets[0].getsockname()[1]
    try:
        yield service
    finally:
        server.close()
        await server.wait_closed()


def _is_hello(request: Received) -> bool:
    """A GET that is not a surface's (a frame, the clipboard, the sessions, a panel page)."""
    return request.method == "GET" and not request.path.startswith("/surface/")


def closed_port() -> int:
    """A loopback port nothing listens on: connecting to it is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port
