"""MCP's stdio wire, read and written on the event loop.

The SDK's ``stdio_server`` reads every line and writes every answer through a worker thread
(anyio's ``wrap_file``), and hands each message on to the server through a task of its own:
each call waits its turn on the loop several times over, behind the browser's own events.
When stdin and stdout are pipes or sockets, as an MCP client starts its servers, this module
gives the server a read stream that reads and parses each line (:class:`WireIn`) and a write
stream that serializes and writes each answer (:class:`WireOut`), in the server's own tasks,
with the SDK's own parsing and serialization.

While serving it keeps the SDK's guard for the wire: descriptor 0 reads the null device and
descriptor 1 writes to stderr, so a stray ``print`` or a child process's output can never
land between two messages; both are restored on exit. A terminal or a file on stdin or
stdout gets the SDK's own handling unchanged (a non-blocking terminal would leak into the
shell that shares it).
"""

from __future__ import annotations

import asyncio
import contextvars
import fcntl
import os
import stat
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, Protocol, Self

import anyio
import mcp_types as types
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

# The SDK reads a line of any length; this only bounds what is buffered before a newline.
_LINE_LIMIT = 1 << 30


@asynccontextmanager
async def stdio_streams() -> AsyncIterator[Any]:
    """The SDK's ``(read, write)`` stream pair for this process's stdin and stdout."""
    if not (_is_pipe(0) and _is_pipe(1)):
        async with stdio_server() as streams:
            yield streams
        return
    async with AsyncExitStack() as stack:
        wire_in = stack.enter_context(_claimed(0, os.open(os.devnull, os.O_RDONLY)))
        wire_out = stack.enter_context(_claimed(1, os.dup(2)))
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=_LINE_LIMIT)
        reading, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), _unowned(wire_in, "rb")
        )
        stack.callback(reading.close)
        writing, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, _unowned(wire_out, "wb")
        )
        stack.callback(writing.close)
        writer = asyncio.StreamWriter(writing, protocol, None, loop)
        yield WireIn(reader), WireOut(writer)


def _is_pipe(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class _claimed:
    """Descriptor ``fd`` pointed at ``diversion`` while the wire is served from a private,
    close-on-exec copy of it; the wire (blocking again) goes back to ``fd`` on exit."""

    def __init__(self, fd: int, diversion: int) -> None:
        self._fd = fd
        self._diversion = diversion

    def __enter__(self) -> int:
        self._wire = fcntl.fcntl(self._fd, fcntl.F_DUPFD_CLOEXEC, 3)
        os.dup2(self._diversion, self._fd)
        os.close(self._diversion)
        return self._wire

    def __exit__(self, *exc_info: object) -> None:
        os.set_blocking(self._wire, True)
        os.dup2(self._wire, self._fd)
        os.close(self._wire)


def _unowned(fd: int, mode: str) -> Any:
    # The transport closes its file when done; the descriptor stays ours to put back.
    return os.fdopen(fd, mode, buffering=0, closefd=False)


class _Stream:
    """An anyio-style stream the server enters and leaves: leaving closes it."""

    async def aclose(self) -> None:
        pass

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


class _ReadStream(_Stream):
    """A read stream the server iterates until it ends (:class:`anyio.EndOfStream`)."""

    async def receive(self) -> SessionMessage | Exception:
        raise NotImplementedError

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None


class WireIn(_ReadStream):
    """The server's read stream: one request line at a time, parsed as the SDK's stdio reader
    parses it (a line that is not a message comes as the exception, see
    :class:`AnsweringBadLines`). Closing it leaves the pipe to :func:`stdio_streams`."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    async def receive(self) -> SessionMessage | Exception:
        line = await self._reader.readline()
        if not line:
            raise anyio.EndOfStream
        try:
            text = line.decode("utf-8", errors="replace")
            message = types.jsonrpc_message_adapter.validate_json(text, by_name=False)
        except ValidationError as exc:
            return exc
        return SessionMessage(message)


class WireOut(_Stream):
    """The server's write stream: each message serialized as the SDK's stdio writer does,
    one line, written by the task that answers."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self._closed = False

    async def send(self, item: SessionMessage, /) -> None:
        if self._closed:
            raise anyio.ClosedResourceError
        text = item.message.model_dump_json(by_alias=True, exclude_unset=True)
        self._writer.write(text.encode() + b"\n")
        await self._writer.drain()

    async def aclose(self) -> None:
        self._closed = True


class Receiving(Protocol):
    """What :class:`AnsweringBadLines` reads: the SDK's stdio read stream."""

    async def receive(self) -> SessionMessage | Exception: ...

    async def aclose(self) -> None: ...


class Sending(Protocol):
    """What :class:`AnsweringBadLines` answers on: the SDK's stdio write stream."""

    async def send(self, item: SessionMessage, /) -> None: ...


class AnsweringBadLines(_ReadStream):
    """The stdio read stream, answering each line that is not a JSON-RPC message.

    The SDK's stdio reader passes such a line on as an exception, which the server only logs,
    so a client would wait for an answer that never comes. As JSON-RPC 2.0 says, text that is
    not JSON gets ``-32700``, JSON that is not a message ``-32600``, both with ``id: null``;
    the next line is read as usual.
    """

    def __init__(self, read: Receiving, write: Sending) -> None:
        self._read = read
        self._write = write

    @property
    def last_context(self) -> contextvars.Context | None:
        """The sender's context of the last item, which the SDK's dispatcher restores."""
        context: contextvars.Context | None = getattr(self._read, "last_context", None)
        return context

    async def receive(self) -> SessionMessage | Exception:
        while True:
            item = await self._read.receive()
            if not isinstance(item, Exception):
                return item
            await self._write.send(SessionMessage(_bad_line_error(item)))

    async def aclose(self) -> None:
        await self._read.aclose()


def _bad_line_error(problem: Exception) -> types.JSONRPCError:
    not_json = isinstance(problem, ValidationError) and any(
        error["type"] == "json_invalid" for error in problem.errors()
    )
    error = (
        types.ErrorData(code=types.PARSE_ERROR, message="Parse error: the line is not JSON.")
        if not_json
        else types.ErrorData(
            code=types.INVALID_REQUEST, message="Invalid request: not a JSON-RPC 2.0 message."
        )
    )
    return types.JSONRPCError(jsonrpc="2.0", id=None, error=error)
