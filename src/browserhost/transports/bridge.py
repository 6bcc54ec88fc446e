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
    tool.result ok: false, a refusal code → that code's error (PROVIDER_REJECTED, UNSUPPORTED,
      and a message                         INVALID_ACTION): the far side refused, nothing ran
    tool.result ok: false, anything else  → LostError: the far side lost it (may have run)

Writes to one link go out one at a time, in the order they were asked for (``asyncio.Lock``
wakes its waiters first come, first served), so calls are delivered in the order they were
made, and those of one session with them.

Surface calls (:meth:`BridgeTransport.ask`, for :class:`~.bridge_surface.BridgeSurface`) end
the same ways, with ``NotSentError`` also when the connected side has no surface; at the
deadline nothing is cancelled (a late answer is ignored). A picture over
``FRAME_MAX_BYTES`` is dropped: ``BadAnswerError``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from browserhost.contract import Parameters, ProviderRequest
from browserhost.contract.bridge import (
    CLOSE_GOING_AWAY,
    CLOSE_REPLACED,
    HOW_TO_CONNECT,
    REFUSAL_CODES,
    Hello,
    SurfaceCall,
    SurfaceFrame,
    SurfaceResult,
    ToolCall,
    ToolCancel,
    ToolResult,
    frame,
)
from browserhost.contract.errors import ERRORS_BY_CODE, BrowserhostError, ErrorCode
from browserhost.contract.limits import ANSWER_MAX_BYTES, ERROR_TEXT_MAX
from browserhost.contract.surface import FRAME_MAX_BYTES, TITLE_MAX, Frame

from .base import BadAnswerError, LostError, NotSentError, TransportError, too_large

NOT_CONNECTED = f"the bridge has no browser connected; {HOW_TO_CONNECT}"
NO_SURFACE = "the browser connected to the bridge has no surface"

log = logging.getLogger(__name__)


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
    paired: str | None = None
    """The paired browser it came in as (:mod:`browserhost.host.pairing`); ``None`` for the
    token's holder."""
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
    answer: asyncio.Future[Any]


class BridgeTransport:
    """The bridge provider's transport. ``changed`` is called after a link comes or goes."""

    def __init__(self, changed: Callable[[Link | None], None] | None = None) -> None:
        self._link: Link | None = None
        self._calls: dict[str, _Call] = {}
        self._asks: dict[str, _Call] = {}
        """Surface calls in flight, apart from tool calls: their ids are the host's own."""
        self._ask_ids = itertools.count(1)
        self._changed = changed
        self._linked = asyncio.Event()

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
        self._announce(link)

    async def detach(self, link: Link) -> None:
        """``link``'s socket has closed."""
        link.closed = True
        self._lose(link, "the connection closed")
        if self._link is link:
            self._link = None
            self._announce(None)

    async def next_link(self, timeout_s: float) -> None:
        """Wait until a connection comes or goes, ``timeout_s`` at most."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout_s):
                await self._linked.wait()

    def _announce(self, link: Link | None) -> None:
        self._linked.set()
        self._linked = asyncio.Event()
        if self._changed is not None:
            self._changed(link)

    def settle(self, link: Link, result: ToolResult) -> None:
        """A ``tool.result``; one for an id this link was not sent is ignored."""
        call = self._calls.get(result.id)
        if call is not None and call.link is link and not call.answer.done():
            call.answer.set_result(result)

    def settle_surface(self, link: Link, result: SurfaceResult) -> None:
        """A ``surface.result``; one for an id this link was not sent is ignored."""
        self._settle_ask(link, result.id, result)

    def settle_picture(self, link: Link, header: SurfaceFrame, data: bytes) -> None:
        """A ``surface.frame`` and the binary message after it."""
        if not 0 < len(data) <= FRAME_MAX_BYTES:
            log.warning("dropped a picture of %d bytes from the bridge's browser", len(data))
            problem = BadAnswerError(f"the picture is {len(data)} bytes, over {FRAME_MAX_BYTES}")
            self._settle_ask(link, header.id, problem)
            return
        picture = Frame(
            seq=header.seq,
            data=data,
            mime=header.mime,
            width=header.width,
            height=header.height,
            title=header.title[:TITLE_MAX] if header.title else None,
            agent_active=header.agent_active,
        )
        self._settle_ask(link, header.id, picture)

    def _settle_ask(self, link: Link, call_id: str, answer: object) -> None:
        call = self._asks.get(call_id)
        if call is None or call.link is not link or call.answer.done():
            return
        if isinstance(answer, TransportError):
            call.answer.set_exception(answer)
        else:
            call.answer.set_result(answer)

    async def send(self, request: ProviderRequest, timeout_s: float) -> object:
        link = self._link
        if link is None:
            raise NotSentError(NOT_CONNECTED)
        message = frame("tool.call", _tool_call(request, timeout_s))
        try:
            result = await self._exchange(self._calls, request.request_id, link, message, timeout_s)
        except TimeoutError:
            with contextlib.suppress(ChannelClosedError):
                await link.write(frame("tool.cancel", ToolCancel(id=request.request_id)))
            raise LostError(f"No answer within {timeout_s:g} s.") from None
        return _answer(result)

    async def ask(self, method: str, args: dict[str, Any], timeout_s: float) -> object:
        """One call on the connected side's surface: its ``surface.result`` (a
        :class:`SurfaceResult`) or its picture (a :class:`Frame`)."""
        link = self._link
        if link is None:
            raise NotSentError(NOT_CONNECTED)
        if not link.hello.surface:
            raise NotSentError(NO_SURFACE)
        call_id = f"surface-{next(self._ask_ids)}"
        message = frame("surface.call", SurfaceCall(id=call_id, method=method, args=args))
        try:
            return await self._exchange(self._asks, call_id, link, message, timeout_s)
        except TimeoutError:
            raise LostError(f"No answer within {timeout_s:g} s.") from None

    async def _exchange(
        self, calls: dict[str, _Call], call_id: str, link: Link, message: str, timeout_s: float
    ) -> Any:
        """Write ``message`` and wait for its answer; ``TimeoutError`` when it was written and
        the answer did not come in time."""
        call = _Call(link, asyncio.get_running_loop().create_future())
        calls[call_id] = call
        written = False
        try:
            async with asyncio.timeout(timeout_s):
                try:
                    await link.write(message)
                except ChannelClosedError as exc:
                    raise NotSentError(f"the connection to the browser failed ({exc})") from None
                written = True
                return await call.answer
        except TimeoutError:
            if not written:
                raise NotSentError(f"the connection was busy for {timeout_s:g} s") from None
            raise
        finally:
            del calls[call_id]

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
        for call in [*self._calls.values(), *self._asks.values()]:
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
        raise _failure(result.error or {})
    try:
        size = len(json.dumps(result.result, separators=(",", ":"), allow_nan=False).encode())
    except (ValueError, RecursionError):
        # Python's json reads NaN and Infinity, which are not JSON (the API could not send
        # them on), and a nesting it can read may be too deep to write again.
        raise BadAnswerError(
            "The connected browser's answer is not JSON (NaN, Infinity, or nested too deeply)."
        ) from None
    if size > ANSWER_MAX_BYTES:
        raise too_large()
    return result.result


def _failure(error: dict[str, Any]) -> BrowserhostError | LostError:
    """A ``tool.result`` with ``ok: false``: the far side's refusal, under its own code and in
    its own words (nothing ran), or a call it lost (it may have run)."""
    code, message = error.get("code"), error.get("message")
    said = message if isinstance(message, str) and message else None
    if not isinstance(code, str) or code not in set(ErrorCode):
        return LostError(f"the connected browser could not answer: {said or 'no reason given'}")
    if code not in REFUSAL_CODES:
        # USER_IN_CONTROL, PROVIDER_UNAVAILABLE...: the host decides those, not the far side.
        return LostError(
            f"the connected browser claimed {code}, which only the host decides: "
            f"{said or 'no reason given'}"
        )
    if said is None or len(said) > ERROR_TEXT_MAX:
        # Read as a provider's {ok: false, error} is: a refusal must say what to do instead.
        return LostError(
            f"the connected browser refused ({code}) without saying why in 1 to "
            f"{ERROR_TEXT_MAX} characters"
        )
    return ERRORS_BY_CODE[ErrorCode(code)](said)
