"""The connecting side of the bridge: a provider here serves a host elsewhere.

:func:`connect` dials the host's ``/ext/bridge`` (:mod:`browserhost.contract.bridge`), says
``hello`` with the token and what the provider implements, and answers each ``tool.call``
with the provider's own :meth:`~browserhost.sdk.Provider.answer` (any catalog record with an
``answer`` handler works: a third-party provider needs nothing new).

- Calls of one session (its directory and session id) run one after another in the order
  they arrived; calls of different sessions run side by side.
- A provider with a surface (the record's ``surface``) says so in ``hello`` and answers the
  host's ``surface.call``s, each as it comes, beside the tool calls: a frame request waits
  for a new picture, and nothing else waits for it. A picture goes out as its
  ``surface.frame`` header and then its bytes in one binary message.
- A call runs until the host's ``expiresAt`` at most, read on this machine's clock through the
  ``serverTime`` of ``hello.ok``. ``tool.cancel`` cancels it.
- After a drop it dials again, waiting :data:`BACKOFF_START_S` and doubling up to
  :data:`BACKOFF_MAX_S`. A call that had not been answered is not answered later and never run
  again: for the host it may have run.
- A refused token (4002), a refused hello (1008) or a newer connection taking this one's place
  (4000) ends :func:`connect` with :class:`BridgeRefusedError`: dialling again would not help.

Not imported by :mod:`browserhost.sdk`: a provider served in process never loads
``websockets``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import websockets
from websockets.asyncio.client import ClientConnection

from browserhost.contract import ProviderRequest
from browserhost.contract import surface as contract
from browserhost.contract.bridge import (
    BRIDGE_PATH,
    CLOSE_BAD_TOKEN,
    CLOSE_POLICY,
    CLOSE_REPLACED,
    FRAME_MARGIN_S,
    SURFACE_CALL_TIMEOUT_S,
    SurfaceCall,
    ToolCall,
    ToolCancel,
    UnreadableFrameError,
    frame,
    read_frame,
)
from browserhost.contract.surface import Surface

from .provider import refusal
from .surface_calls import SurfaceCallRefusedError, make_call

BACKOFF_START_S: Final = 0.5
BACKOFF_MAX_S: Final = 30.0
HELLO_OK_TIMEOUT_S: Final = 10.0
"""How long the host may take to answer ``hello``."""
MESSAGE_MAX_BYTES: Final = 16 * 1024 * 1024
ENTRY_POINT_GROUP: Final = "browserhost.providers"

log = logging.getLogger(__name__)

Handler = Callable[[ProviderRequest], Awaitable[object]]


class BridgeRefusedError(Exception):
    """The host will not take this connection; the message says why and what to do."""


@dataclass(frozen=True)
class Served:
    """What this side offers the host: the provider's handler and its declarations."""

    answer: Handler
    actions: list[str]
    verbs: list[dict[str, Any]] = field(default_factory=list)
    name: str | None = None
    close: Callable[[], Awaitable[None]] | None = None
    surface: Surface | None = None

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Served:
        """From a catalog record (``Provider().registration()``); it must answer in process."""
        answer = record.get("answer")
        if not callable(answer):
            raise ValueError(
                f"provider {record.get('id')!r} does not answer in this process (it runs as a "
                "service); the bridge needs one that does"
            )
        close = record.get("close")
        surface = record.get("surface")
        return cls(
            answer=answer,
            actions=sorted(record.get("actions") or ()),
            verbs=[dict(verb) for verb in record.get("verbs") or ()],
            name=record.get("name") if isinstance(record.get("name"), str) else None,
            close=close if callable(close) else None,
            surface=surface if isinstance(surface, Surface) else None,
        )


def installed(name: str) -> Served:
    """The provider registered as ``name`` under the ``browserhost.providers`` entry points."""
    points = entry_points(group=ENTRY_POINT_GROUP, name=name)
    if not points:
        known = sorted(point.name for point in entry_points(group=ENTRY_POINT_GROUP))
        raise ValueError(f"no provider {name!r} is installed; choose one of: {', '.join(known)}")
    [point] = list(points)[:1]
    return Served.from_record(point.load()())


def bridge_url(url: str) -> str:
    """``http(s)://host:port`` or ``ws(s)://...`` as the socket's URL, ``/ext/bridge`` when
    no path is given."""
    parts = urlsplit(url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    if scheme not in ("ws", "wss") or not parts.hostname:
        raise ValueError(f"{url!r} is not a host's address; give ws://HOST:PORT or wss://HOST")
    path = parts.path if parts.path not in ("", "/") else BRIDGE_PATH
    return urlunsplit((scheme, parts.netloc, path, parts.query, ""))


async def connect(
    url: str,
    token: str,
    served: Served,
    *,
    connected: Callable[[], None] | None = None,
) -> None:
    """Serve the host at ``url`` until cancelled or refused; ``connected`` is called after
    each accepted hello."""
    delay = BACKOFF_START_S
    while True:
        try:
            async with websockets.connect(
                url, max_size=MESSAGE_MAX_BYTES, open_timeout=HELLO_OK_TIMEOUT_S
            ) as socket:
                link = _Connection(socket, served)
                await link.greet(token)
                delay = BACKOFF_START_S
                if connected is not None:
                    connected()
                await link.serve()
        except websockets.ConnectionClosed as exc:
            _refused(exc.rcvd.code if exc.rcvd is not None else None, exc)
            log.warning("the bridge connection closed (%s); dialling again in %g s", exc, delay)
        except (OSError, TimeoutError, websockets.InvalidHandshake) as exc:
            log.warning("cannot reach the host (%s); dialling again in %g s", exc, delay)
        await asyncio.sleep(delay)
        delay = min(delay * 2, BACKOFF_MAX_S)


def _refused(code: int | None, exc: Exception) -> None:
    if code == CLOSE_BAD_TOKEN:
        raise BridgeRefusedError(
            "The host refused the token; use the token its browserhost serve printed."
        ) from exc
    if code == CLOSE_REPLACED:
        raise BridgeRefusedError(
            "Another browser connected to this host's bridge and took its place."
        ) from exc
    if code == CLOSE_POLICY:
        raise BridgeRefusedError(f"The host refused this connection: {exc}") from exc


class _Connection:
    """One socket: the hello, then the host's messages until it closes."""

    def __init__(self, socket: ClientConnection, served: Served) -> None:
        self.socket = socket
        self.served = served
        self.offset_ms = 0
        """The host's clock minus this one's, read from ``hello.ok``."""
        self.running: dict[str, asyncio.Task[None]] = {}
        self.last: dict[tuple[str | None, str | None], asyncio.Task[None]] = {}
        self.surfacing: set[asyncio.Task[None]] = set()
        self.sending = asyncio.Lock()
        """A picture's header and its bytes go out with nothing between them."""

    async def greet(self, token: str) -> None:
        hello: dict[str, Any] = {
            "token": token,
            "actions": self.served.actions,
            "verbs": self.served.verbs,
        }
        if self.served.name:
            hello["name"] = self.served.name
        if self.served.surface is not None:
            hello["surface"] = True
        await self.socket.send(frame("hello", **hello))
        async with asyncio.timeout(HELLO_OK_TIMEOUT_S):
            while True:
                raw = await self.socket.recv()
                message = json.loads(raw)
                if isinstance(message, dict) and message.get("t") == "hello.ok":
                    break
        server_time = message.get("serverTime")
        if isinstance(server_time, int):
            self.offset_ms = server_time - int(time.time() * 1000)

    async def serve(self) -> None:
        try:
            async for raw in self.socket:
                try:
                    kind, body = read_frame(raw)
                except UnreadableFrameError:
                    log.warning("ignored a message from the host that is not a bridge frame")
                    continue
                if kind == "ping":
                    await self._send(frame("pong"))
                elif isinstance(body, ToolCall):
                    self._start(body)
                elif isinstance(body, ToolCancel):
                    task = self.running.get(body.id)
                    if task is not None:
                        task.cancel()
                elif isinstance(body, SurfaceCall):
                    task = asyncio.ensure_future(self._surface_call(body))
                    self.surfacing.add(task)
                    task.add_done_callback(self.surfacing.discard)
        finally:
            # Answers would have nowhere to go, and a call is never run again after a drop.
            for task in [*self.running.values(), *self.surfacing]:
                task.cancel()

    async def _send(self, *messages: str | bytes) -> None:
        async with self.sending:
            for message in messages:
                await self.socket.send(message)

    def _start(self, call: ToolCall) -> None:
        key = (call.directory, call.session_id)
        task = asyncio.ensure_future(self._run(call, self.last.get(key)))
        self.running[call.id] = task
        self.last[key] = task

        def done(_: asyncio.Task[None]) -> None:
            self.running.pop(call.id, None)
            if self.last.get(key) is task:
                del self.last[key]

        task.add_done_callback(done)

    async def _run(self, call: ToolCall, previous: asyncio.Task[None] | None) -> None:
        if previous is not None:
            await asyncio.wait([previous])  # its outcome is its own; only its end matters here
        remaining_s = (call.expires_at - self.offset_ms) / 1000 - time.time()
        if remaining_s <= 0:
            await self._fail(call.id, "expired", "the host's deadline passed before it started")
            return
        wire = {
            "requestId": call.id,
            "action": call.name,
            "parameters": call.args,
            "context": {"directory": call.directory, "sessionId": call.session_id},
        }
        request = ProviderRequest.from_wire(json.dumps(wire))
        if request is None:
            await self._answer(call.id, refusal(f"{call.name} is not an action this side reads."))
            return
        try:
            async with asyncio.timeout(remaining_s):
                answer = await self.served.answer(request)
        except TimeoutError:
            await self._fail(call.id, "expired", "the host's deadline passed while it ran")
            return
        except Exception as exc:  # the provider's own failure: the host hears "may have run"
            log.exception("the provider failed on %s", call.name)
            await self._fail(call.id, "failed", f"the provider failed: {exc}")
            return
        await self._answer(call.id, answer)

    async def _answer(self, call_id: str, answer: object) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):  # the host settles it as lost
            await self._send(frame("tool.result", id=call_id, ok=True, result=answer))

    async def _fail(self, call_id: str, code: str, message: str) -> None:
        error = {"code": code, "message": message}
        with contextlib.suppress(websockets.ConnectionClosed):  # the host settles it as lost
            await self._send(frame("tool.result", id=call_id, ok=False, error=error))

    async def _surface_call(self, call: SurfaceCall) -> None:
        messages: tuple[str | bytes, ...]
        try:
            answer = await _on_surface(self.served.surface, call)
        except _SurfaceRefusedError as exc:
            error = {"code": "refused", "message": str(exc)}
            messages = (frame("surface.result", id=call.id, ok=False, error=error),)
        except Exception as exc:  # the surface's own failure: the host reports it
            log.warning("the surface failed on %s", call.method, exc_info=True)
            error = {"code": "failed", "message": f"the surface failed: {exc}"}
            messages = (frame("surface.result", id=call.id, ok=False, error=error),)
        else:
            if isinstance(answer, contract.Frame):
                messages = (frame("surface.frame", id=call.id, **_header(answer)), answer.data)
            else:
                messages = (frame("surface.result", id=call.id, ok=True, result=answer),)
        with contextlib.suppress(websockets.ConnectionClosed):  # the host hears nothing: lost
            await self._send(*messages)


class _SurfaceRefusedError(Exception):
    """A surface call this side will not make; the message says why."""


async def _on_surface(surface: Surface | None, call: SurfaceCall) -> object:
    """What ``call`` answers: a picture, or the JSON ``result`` of ``surface.result``."""
    if surface is None:
        raise _SurfaceRefusedError("this provider has no surface")
    args = call.args
    if call.method == "frame":
        after, wait_ms = args.get("after"), args.get("waitMs")
        if not isinstance(after, int) or not isinstance(wait_ms, int):
            raise _SurfaceRefusedError("frame takes {after, waitMs} as integers")
        wait_s = min(max(wait_ms / 1000, 0.0), contract.FRAME_WAIT_S)
        async with asyncio.timeout(wait_s + FRAME_MARGIN_S):
            picture = await surface.frame(after, wait_s)
        if picture is not None and len(picture.data) > contract.FRAME_MAX_BYTES:
            raise _SurfaceRefusedError(
                f"the picture is {len(picture.data)} bytes, over {contract.FRAME_MAX_BYTES}"
            )
        return picture
    try:
        async with asyncio.timeout(SURFACE_CALL_TIMEOUT_S):
            return await make_call(surface, call.method, args)
    except SurfaceCallRefusedError as refused:
        raise _SurfaceRefusedError(f"{call.method} expects {refused}") from None


def _header(picture: contract.Frame) -> dict[str, Any]:
    header: dict[str, Any] = {
        "seq": picture.seq,
        "width": picture.width,
        "height": picture.height,
        "mime": picture.mime,
        "agentActive": picture.agent_active,
    }
    if picture.title:
        header["title"] = picture.title[: contract.TITLE_MAX]
    return header
