"""The bridge: actions go to a browser that dialled in over a WebSocket.

At most one :class:`Link` (an authenticated socket, :mod:`browserhost.contract.bridge`) is
active; a newer one replaces it. How a request ends::

    no link                               → NotSentError ("no browser connected")
    the write fails, or the deadline
      passes before it                    → NotSentError (a frame is written whole or not at all)
    written, then the link closes
      or is replaced                      → LostError (may have run; never sent again)
    written, the deadline passes          → tool.cancel {id}, LostError
    tool.result ok: true                  → the provider's own answer
    tool.result ok: false                 → LostError: the far side could not get an answer

Writes to one link go out one at a time, in the order they were asked for (``asyncio.Lock``
wakes its waiters first come, first served), so calls are delivered in the order they were
made, and those of one session with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from browserhost.contract import Parameters, ProviderRequest
from browserhost.contract.bridge import (
    CLOSE_GOING_AWAY,
    CLOSE_REPLACED,
    Hello,
    ToolCall,
    ToolCancel,
    ToolResult,
    frame,
)
from browserhost.contract.limits import ANSWER_MAX_BYTES

from .base import LostError, NotSentError, too_large

NOT_CONNECTED = "the bridge has no browser connected; start `browserhost bridge connect`"


class ChannelClosedError(Exception):
    """The socket could not take a message: it is closed or broken."""


class Channel(Protocol):
    """The socket under a link; the web layer adapts its own WebSocket to this."""

    async def send_text(self, text: str) -> None:
        """Write one message whole, or raise :class:`ChannelClosedError`."""
        ...

    async def close(self, code: int, reason: str) -> None: ...


@dataclass(eq=False)
class Link:
    """One authenticated connection and what its side declared in ``hello``."""

    channel: Channel
    hello: Hello
    loopback: bool
    """The socket comes from this machine (not through a proxy)."""
    pong: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    _writing: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def write(self, text: str) -> None:
        async with self._writing:
            if self.closed:
                raise ChannelClosedError("the connection is closed")
            await self.channel.send_text(text)

    async def close(self, code: int, reason: str) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(ChannelClosedError):
            await self.channel.close(code, reason)


@dataclass(eq=False)
class _Call:
    link: Link
    answer: asyncio.Future[ToolResult]


class BridgeTransport:
    """The bridge provider's transport. ``changed`` is called after a link comes or goes."""

    def __init__(self, changed: Callable[[Link | None], None] | None = None) -> None:
        self._link: Link | None = None
        self._calls: dict[str, _Call] = {}
        self._changed = changed

    @property
    def link(self) -> Link | None:
        return self._link

    def public(self) -> dict[str, object]:
        """What a providers listing says of the bridge: never where the browser is."""
        if self._link is None:
            return {"connected": False}
        row: dict[str, object] = {"connected": True}
        if self._link.hello.name:
            row["provider"] = self._link.hello.name
        return row

    async def attach(self, link: Link) -> None:
        """Make ``link`` the active connection; the one it replaces is closed and its calls
        are lost."""
        previous, self._link = self._link, link
        if previous is not None:
            self._lose(previous, "a newer connection replaced it")
            await previous.close(CLOSE_REPLACED, "replaced")
        if self._changed is not None:
            self._changed(link)

    async def detach(self, link: Link) -> None:
        """``link``'s socket has closed."""
        link.closed = True
        self._lose(link, "the connection closed")
        if self._link is link:
            self._link = None
            if self._changed is not None:
                self._changed(None)

    def settle(self, link: Link, result: ToolResult) -> None:
        """A ``tool.result``; one for an id this link was not sent is ignored."""
        call = self._calls.get(result.id)
        if call is not None and call.link is link and not call.answer.done():
            call.answer.set_result(result)

    async def send(self, request: ProviderRequest, timeout_s: float) -> object:
        link = self._link
        if link is None:
            raise NotSentError(NOT_CONNECTED)
        message = frame("tool.call", _tool_call(request, timeout_s))
        call = _Call(link, asyncio.get_running_loop().create_future())
        self._calls[request.request_id] = call
        written = False
        try:
            async with asyncio.timeout(timeout_s):
                try:
                    await link.write(message)
                except ChannelClosedError as exc:
                    raise NotSentError(f"the connection to the browser failed ({exc})") from None
                written = True
                result = await call.answer
        except TimeoutError:
            if not written:
                raise NotSentError(f"the connection was busy for {timeout_s:g} s") from None
            with contextlib.suppress(ChannelClosedError):
                await link.write(frame("tool.cancel", ToolCancel(id=request.request_id)))
            raise LostError(f"No answer within {timeout_s:g} s.") from None
        finally:
            del self._calls[request.request_id]
        return _answer(result)

    async def abandon(self, request_id: str) -> None:
        """Send ``tool.cancel``; a side that no longer knows the id ignores it."""
        link = self._link
        if link is not None:
            with contextlib.suppress(ChannelClosedError):
                await link.write(frame("tool.cancel", ToolCancel(id=request_id)))

    async def aclose(self) -> None:
        link, self._link = self._link, None
        if link is not None:
            self._lose(link, "the host is stopping")
            await link.close(CLOSE_GOING_AWAY, "host stopping")

    def _lose(self, link: Link, why: str) -> None:
        for call in self._calls.values():
            if call.link is link and not call.answer.done():
                call.answer.set_exception(LostError(f"{why} before the browser answered"))


def _tool_call(request: ProviderRequest, timeout_s: float) -> ToolCall:
    parameters = request.parameters
    args = parameters.to_wire() if isinstance(parameters, Parameters) else dict(parameters)
    return ToolCall(
        id=request.request_id,
        name=request.action,
        args=args,
        expires_at=int((time.time() + timeout_s) * 1000),
        session_id=request.context.session_id,
        directory=request.context.directory,
    )


def _answer(result: ToolResult) -> Any:
    if not result.ok:
        error = result.error or {}
        message = error.get("message") if isinstance(error.get("message"), str) else None
        raise LostError(f"the connected browser could not answer: {message or 'no reason given'}")
    try:
        size = len(json.dumps(result.result, separators=(",", ":"), allow_nan=False).encode())
    except (TypeError, ValueError):
        size = 0  # read from JSON text, so always JSON; parse_result judges its shape
    if size > ANSWER_MAX_BYTES:
        raise too_large()
    return result.result
