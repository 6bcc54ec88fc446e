"""``/ext/bridge``: the socket a browser elsewhere dials in on (:mod:`browserhost.contract.bridge`).

It sits outside the ``/api`` bearer gate: the Host and Origin rules apply to the upgrade, and
the token comes in the first message (:mod:`.hello`), or a paired browser's secret, or a
request to pair that waits here for a person (see :mod:`browserhost.contract.bridge`). Once the
hello is accepted the socket becomes the bridge provider's link
(:mod:`browserhost.transports.bridge`), the host pings it, and its messages are read here:
pongs, tool results, surface results (a picture's header and the binary message after it) and
host method calls.

:func:`bridge_app` is the same route alone, for a listener on a public address that must not
serve the API.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import time
from importlib import resources
from typing import Any

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.types import ASGIApp
from starlette.websockets import WebSocket, WebSocketDisconnect

from browserhost.contract.bridge import (
    APPROVAL_TIMEOUT_S,
    BRIDGE_PATH,
    CLOSE_BAD_TOKEN,
    CLOSE_DENIED,
    CLOSE_FOREIGN_EXTENSION,
    CLOSE_NOT_APPROVED,
    CLOSE_NOT_PAIRED,
    CLOSE_PING_TIMEOUT,
    CLOSE_POLICY,
    EXTENSION_SCHEME,
    HELLO_TIMEOUT_S,
    PING_INTERVAL_S,
    PONG_TIMEOUT_S,
    Hello,
    Policy,
    Rpc,
    SurfaceFrame,
    SurfaceResult,
    ToolResult,
    UnreadableFrameError,
    frame,
    read_frame,
)
from browserhost.contract.limits import ACTION_TIMEOUT_S, ANSWER_MAX_BYTES, OPEN_TIMEOUT_S
from browserhost.gate import Gate
from browserhost.host.bridge import Bridge, RpcError
from browserhost.host.catalog import InstallError
from browserhost.host.pairing import APPROVED, DENIED
from browserhost.transports.bridge import ChannelClosedError, Link

from .hello import read_hello, token_matches

log = logging.getLogger(__name__)

REMOTE_ADDRESS_OVERRIDE: str | None = None
"""Test seam: the address the privilege check sees instead of the socket's own (a test cannot
connect from a non-loopback address on one machine). Production never sets it."""

_FORWARDED = ("forwarded", "x-forwarded-for", "x-real-ip")
"""Headers a reverse proxy adds: the socket then comes from the proxy, not from this machine."""


async def bridge_socket(socket: WebSocket) -> None:
    bridge: Bridge = socket.app.state.bridge
    await socket.accept()
    extension = _extension_id(socket)
    if extension is not None and bridge.extension_id not in (None, extension):
        await socket.close(CLOSE_FOREIGN_EXTENSION, "extension not allowed")
        return
    # The hello is judged here: the token, a paired browser's secret, or a request to pair.
    token = socket.app.state.token
    message = await read_hello(socket, token, HELLO_TIMEOUT_S, token_required=False)
    if message is None:
        return
    try:
        hello = Hello.model_validate(message)
    except ValidationError as exc:
        await socket.close(CLOSE_POLICY, _reason(f"bad hello: {_problem(exc)}"))
        return
    loopback = _loopback(socket)
    # No header lets a socket in (any process can send an Origin): the token, a paired
    # browser's secret, or a person's approval of a request to pair made from this machine.
    by_token = token_matches(hello.token, token)
    paired: str | None = None
    if not by_token and hello.pairing is not None:
        record = bridge.pairing.check(hello.pairing.id, hello.pairing.secret)
        if record is None:
            await socket.close(CLOSE_NOT_PAIRED, "not paired")
            return
        paired = record.id
    elif not by_token and not (hello.pair and hello.token == "" and loopback):
        await socket.close(CLOSE_BAD_TOKEN, "bad token")
        return
    try:
        # In a worker thread: checking the schemas of the verbs the far side declares takes
        # time (cached, so installing them once the link is attached does not take it again).
        await asyncio.to_thread(bridge.check, hello)
    except InstallError as exc:
        await socket.close(CLOSE_POLICY, _reason(f"bad hello: {_problem(exc)}"))
        return
    if not by_token and paired is None:
        paired = await _approved(socket, bridge, hello)
        if paired is None:
            return
    link = Link(_Socket(socket), hello, loopback, paired)
    try:
        greeting: dict[str, Any] = {"caps": _caps(hello), "policy": _policy(), "serverTime": _now()}
        if hello.page_script:
            greeting["pageScript"] = page_script()
        await link.write(frame("hello.ok", **greeting))
    except ChannelClosedError:
        return
    await bridge.transport.attach(link)
    pinging = asyncio.ensure_future(_ping(link))
    try:
        await _receive(socket, bridge, link)
    finally:
        pinging.cancel()
        await bridge.transport.detach(link)
        with contextlib.suppress(asyncio.CancelledError):
            await pinging


async def _approved(socket: WebSocket, bridge: Bridge, hello: Hello) -> str | None:
    """Hold a socket that asked to pair until a person decides: the id it is paired as, or
    ``None`` once it is closed. Meanwhile it is pinged (an extension's service worker must hear
    from its socket to stay alive) and what it sends is read and dropped: it can do nothing."""
    pending = bridge.pairing.request(hello.name or "A browser", socket.headers.get("origin"))
    leaving = asyncio.ensure_future(_until_gone(socket))
    either: set[asyncio.Future[Any]] = {pending.decided, leaving}
    try:
        waiting = (
            f"Waiting for approval: allow {pending.id} in the browserhost viewer, or run "
            f"browserhost bridge approve {pending.id}"
        )
        if not await _say(socket, frame("hello.pending", id=pending.id, message=waiting)):
            return None
        deadline = asyncio.get_running_loop().time() + APPROVAL_TIMEOUT_S
        while not pending.decided.done():
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                await _close(socket, CLOSE_NOT_APPROVED, "approval timeout")
                return None
            done, _ = await asyncio.wait(
                either, timeout=min(left, PING_INTERVAL_S), return_when=asyncio.FIRST_COMPLETED
            )
            if leaving in done or (not done and not await _say(socket, frame("ping"))):
                return None
        outcome = pending.decided.result()
        if outcome == DENIED:
            await _close(socket, CLOSE_DENIED, "denied")
            return None
        if outcome != APPROVED:
            await _close(socket, CLOSE_NOT_APPROVED, "too many waiting")
            return None
        if not await _say(socket, frame("hello.paired", id=pending.id, secret=pending.secret)):
            return None
        return pending.id
    finally:
        bridge.pairing.withdraw(pending)
        leaving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await leaving


async def _until_gone(socket: WebSocket) -> None:
    """Read and drop what a pending socket sends, until it goes."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while (await socket.receive())["type"] != "websocket.disconnect":
            pass


async def _say(socket: WebSocket, text: str) -> bool:
    """Send ``text``; whether the socket took it."""
    try:
        await socket.send_text(text)
    except (WebSocketDisconnect, RuntimeError, OSError):
        return False
    return True


async def _close(socket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(RuntimeError, OSError):
        await socket.close(code, reason)


def bridge_app(bridge: Bridge, token: str, allowed_hosts: tuple[str, ...] = ()) -> ASGIApp:
    """Only the bridge's socket, behind the Host and Origin checks: what ``serve
    --bridge-listen`` serves on an address other machines reach."""
    app = Starlette(routes=[WebSocketRoute(BRIDGE_PATH, bridge_socket)])
    app.state.bridge = bridge
    app.state.token = token
    return Gate(
        app,
        token,
        allowed_hosts,
        protected=(),
        public=(BRIDGE_PATH,),
        extension_paths=(BRIDGE_PATH,),
        unauthorized_hint="",
        host_hint="Start browserhost serve with --allow-host NAME for this name.",
    )


async def _receive(socket: WebSocket, bridge: Bridge, link: Link) -> None:
    picture: SurfaceFrame | None = None
    """A picture's header, whose bytes are the next message."""
    while True:
        received = await socket.receive()
        if received["type"] == "websocket.disconnect":
            return
        if picture is not None:
            header, picture = picture, None
            data = received.get("bytes")
            if data is None:
                await link.close(
                    CLOSE_POLICY, "unreadable message: surface.frame without its picture"
                )
                return
            bridge.transport.settle_picture(link, header, data)
            continue
        try:
            kind, body = read_frame(received.get("text") or received.get("bytes") or b"")
        except UnreadableFrameError as exc:
            await link.close(CLOSE_POLICY, _reason(f"unreadable message: {exc}"))
            return
        if kind == "pong":
            link.pong.set()
        elif isinstance(body, ToolResult):
            bridge.transport.settle(link, body)
        elif isinstance(body, SurfaceResult):
            bridge.transport.settle_surface(link, body)
        elif isinstance(body, SurfaceFrame):
            picture = body
        elif isinstance(body, Rpc):
            await _answer_rpc(bridge, link, body)
        # any other kind is one the host does not expect from this side: ignored


async def _answer_rpc(bridge: Bridge, link: Link, rpc: Rpc) -> None:
    try:
        answer = frame("rpc.result", id=rpc.id, ok=True, result=bridge.call(rpc, link.loopback))
    except RpcError as exc:
        error = {"code": exc.code, "message": str(exc)}
        answer = frame("rpc.result", id=rpc.id, ok=False, error=error)
    except Exception as exc:  # one method's failure is answered; the connection and its calls stay
        log.exception("the bridge's host method %s failed", rpc.method)
        error = {"code": "internal", "message": f"{rpc.method} failed on the host: {exc}"}
        answer = frame("rpc.result", id=rpc.id, ok=False, error=error)
    with contextlib.suppress(ChannelClosedError):
        await link.write(answer)


async def _ping(link: Link) -> None:
    """Ping every interval; a side that does not pong in time is dropped (its calls are
    lost, and the reader sees the socket close)."""
    while True:
        await asyncio.sleep(PING_INTERVAL_S)
        link.pong.clear()
        try:
            await link.write(frame("ping"))
        except ChannelClosedError:
            return
        try:
            async with asyncio.timeout(PONG_TIMEOUT_S):
                await link.pong.wait()
        except TimeoutError:
            log.warning("the bridge's browser stopped answering pings; dropped")
            await link.close(CLOSE_PING_TIMEOUT, "ping timeout")
            return


class _Socket:
    """Starlette's WebSocket as a link's channel; its failures translated once, here."""

    def __init__(self, socket: WebSocket) -> None:
        self._socket = socket

    async def send_text(self, text: str) -> None:
        try:
            await self._socket.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError) as exc:
            raise ChannelClosedError(str(exc) or type(exc).__name__) from exc

    async def close(self, code: int, reason: str) -> None:
        try:
            await self._socket.close(code, reason)
        except (RuntimeError, OSError) as exc:
            raise ChannelClosedError(str(exc) or type(exc).__name__) from exc


def _loopback(socket: WebSocket) -> bool:
    if any(name in socket.headers for name in _FORWARDED):
        return False
    address = REMOTE_ADDRESS_OVERRIDE
    if address is None:
        address = socket.client.host if socket.client is not None else ""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    # A dual-stack listener sees an IPv4 client as ::ffff:127.0.0.1, which Python's
    # is_loopback does not count (before 3.13).
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return parsed.ipv4_mapped.is_loopback
    return parsed.is_loopback


def _extension_id(socket: WebSocket) -> str | None:
    origin = socket.headers.get("origin", "")
    return origin.removeprefix(EXTENSION_SCHEME) if origin.startswith(EXTENSION_SCHEME) else None


@functools.cache
def page_script() -> str:
    """The chromium provider's ``snapshot.js``, read as a file: importing that provider would
    load far more than the bridge needs."""
    script = resources.files("browserhost.providers").joinpath("chromium", "snapshot.js")
    return script.read_text(encoding="utf-8")


def _caps(hello: Hello) -> dict[str, object]:
    return {
        "actions": sorted(hello.actions),
        "verbs": [verb["name"] for verb in hello.verbs],
        "surface": hello.surface,
    }


def _policy() -> dict[str, object]:
    return Policy(
        answer_max_bytes=ANSWER_MAX_BYTES,
        open_timeout_ms=int(OPEN_TIMEOUT_S * 1000),
        action_timeout_ms=int(ACTION_TIMEOUT_S * 1000),
        ping_interval_ms=int(PING_INTERVAL_S * 1000),
        pong_timeout_ms=int(PONG_TIMEOUT_S * 1000),
    ).to_wire()


def _now() -> int:
    return int(time.time() * 1000)


def _problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        problem = exc.errors(include_url=False)[0]
        return f"{'.'.join(str(part) for part in problem['loc'])} {problem['msg']}"
    return str(exc)


def _reason(text: str) -> str:
    """A close reason fits in 123 bytes."""
    encoded = text.encode()
    return text if len(encoded) <= 123 else encoded[:120].decode(errors="ignore") + "..."
