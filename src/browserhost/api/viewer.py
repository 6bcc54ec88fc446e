"""The viewer: a page that shows the selected provider's surface live, and its socket.

``/viewer/`` serves the page's files (in the package, nothing from outside). The page talks to
the host over one WebSocket, ``/api/surface``, in JSON messages with ``t`` naming the kind:

viewer → host
    ``hello {token, viewer}`` first, within :data:`HELLO_TIMEOUT_S` (the token travels in the
    socket, never in a URL); ``drawn {seq}`` once for each picture, when it is decoded,
    ready to show, or dropped for a newer one (at most :data:`FRAMES_IN_FLIGHT` are sent
    ahead of these: the next travels while one is decoded, and a slow viewer still skips
    pictures instead of queueing them); ``input {events}``;
    ``copy`` (after the copy chord: answered with ``clipboard {text}``); ``resize {width,
    height, devicePixelRatio}`` (device pixels and their ratio to CSS pixels: the host asks
    the provider for ``width / devicePixelRatio`` CSS pixels, the size the person sees, as the
    page is laid out in CSS pixels); ``show {id}``
    (a session, or ``null`` to follow the agent); ``open {url}`` (from the provider's panel
    page, e.g. an address bar: the person's own action); ``handBack``.
host → viewer
    ``ready {viewer}``; ``state {...}`` on every change of provider, control, sessions or the
    agent's last action; ``pairing {pending}`` when the browsers waiting for a person's
    approval to connect to the bridge change (the page allows or denies them through the API,
    :mod:`.pairing`); ``frame {seq, width, height, mime, title, agentActive}`` followed by
    the picture as one binary message; ``clipboard {text}``; ``refused {message}``;
    ``error {message}``.

Close codes: 4001 "hello timeout", 1008 "hello first" or an unreadable message, 4002 "bad
token".

A person takes control by acting (a pointer press, a wheel, a key, a paste); pointer moves
alone are looking and are not even sent until they hold it. Everything a viewer sends to the
provider goes through the provider's lane (:meth:`~browserhost.host.control.Controls.in_order`),
one at a time, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import uuid
from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from browserhost.contract import Context
from browserhost.contract.errors import BrowserhostError
from browserhost.contract.surface import (
    Frame,
    PointerEvent,
    Size,
    Surface,
    read_input_batch,
    read_resize,
    read_show,
)
from browserhost.host import Host
from browserhost.host.catalog import InstalledProvider
from browserhost.host.pairing import Pairing

from .hello import read_hello

SOCKET_PATH = "/api/surface"
VIEWER_PATH = "/viewer"
PANEL_PATH = f"{VIEWER_PATH}/panel"
HELLO_TIMEOUT_S = 5.0
FRAME_WAIT_S = 2.0
"""How long one frame request waits before the viewer's loop looks around again."""
DRAWN_WAIT_S = 10.0
"""How long the host waits for a viewer to acknowledge a picture before sending one more
anyway."""
FRAMES_IN_FLIGHT = 2
"""Pictures sent that the viewer has not yet said it decoded or dropped."""
LOOK_AROUND_S = 1.0
RATIO_MIN, RATIO_MAX = 0.25, 8.0
"""Device pixels per CSS pixel a viewer may say it has: browsers zoom from 25 % to 500 %."""
"""How often a viewer's connection re-reads the selection and the provider's sessions."""

log = logging.getLogger(__name__)


PANEL_POLICY = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "frame-ancestors 'self'"
)
"""A provider's panel page runs its own inline code and reaches nothing: not the API, not the
network. It speaks to the viewer only through ``postMessage``, which alone may frame it."""

NOT_FRAMED = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
)
"""The viewer's pages are shown by no other page: one that framed the viewer unseen (the
person's login kept in the tab) could have a person's click take control, or allow a
browser to pair, for it."""


class Unframed:
    """The viewer's files, each answered with :data:`NOT_FRAMED`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def framed_by_none(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *NOT_FRAMED]}
            await send(message)

        await self.app(scope, receive, framed_by_none if scope["type"] == "http" else send)


async def panel_page(request: Request) -> Response:
    """``/viewer/panel/<provider id>``: the provider's own page docked beside its picture."""
    host: Host = request.app.state.host
    provider = host.catalog.get(request.path_params["provider_id"])
    if provider is None or provider.panel is None:
        return Response("No such panel.", status_code=404, media_type="text/plain")
    try:
        page = await provider.panel.page()
    except Exception:
        log.warning("the panel page of %s could not be read", provider.id, exc_info=True)
        return Response("The provider's panel is not available.", status_code=502)
    headers = {"content-security-policy": PANEL_POLICY, "cache-control": "no-store"}
    return Response(page, media_type="text/html", headers=headers)


def files() -> Any:
    """The viewer's static files, inside the installed package."""
    return resources.files("browserhost.api").joinpath("viewer_files")


async def surface_socket(socket: WebSocket) -> None:
    """One viewer's connection: authenticate, then relay pictures out and the person's
    hands in until either side leaves."""
    await socket.accept()
    viewer = await _hello(socket)
    if viewer is None:
        return
    bridge = getattr(socket.app.state, "bridge", None)
    pairing = None if bridge is None else bridge.pairing
    connection = _Viewer(socket, socket.app.state.host, viewer, pairing)
    await socket.send_json({"t": "ready", "viewer": viewer})
    try:
        await connection.run()
    except WebSocketDisconnect:
        pass
    finally:
        await connection.leave()


async def _hello(socket: WebSocket) -> str | None:
    message = await read_hello(socket, socket.app.state.token, HELLO_TIMEOUT_S)
    if message is None:
        return None
    # The page's own id keeps a person's control across a reconnect of the same page; it is
    # kept apart from the ids the host gives those who take control elsewhere (the person at
    # a bridged browser), which no viewer can name itself to hand back.
    viewer = message.get("viewer")
    if not (isinstance(viewer, str) and 0 < len(viewer) <= 64):
        viewer = uuid.uuid4().hex
    return f"viewer {viewer}"


def _json(raw: str) -> dict[str, Any] | None:
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than Python reads
        return None
    return message if isinstance(message, dict) else None


class _Viewer:
    def __init__(
        self, socket: WebSocket, host: Host, viewer: str, pairing: Pairing | None = None
    ) -> None:
        self.socket = socket
        self.host = host
        self.viewer = viewer
        self.pairing = pairing
        self.pending: list[dict[str, object]] | None = None
        """The waiting browsers this viewer was last told of."""
        self.provider: InstalledProvider | None = None
        self.drawn = asyncio.Event()
        self.undrawn = 0
        """Pictures sent that the viewer has not said it decoded or dropped."""
        self.moved = asyncio.Event()
        """Set when the viewer moves to another provider (its picture restarts)."""
        self.sent = asyncio.Lock()  # a frame's two messages go out together
        self.sessions: list[dict[str, Any]] | None = None

    @property
    def surface(self) -> Surface | None:
        return None if self.provider is None else _surface(self.provider)

    async def run(self) -> None:
        await self._follow_selection()
        await self._send_state()
        await self._send_pairing()
        others = [asyncio.ensure_future(self._frames()), asyncio.ensure_future(self._watch())]
        try:
            receiving = asyncio.ensure_future(self._receive())
            done, _ = await asyncio.wait([receiving, *others], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()  # the viewer left, or something broke: say which
        finally:
            for task in [receiving, *others]:
                task.cancel()
            await asyncio.gather(receiving, *others, return_exceptions=True)

    async def leave(self) -> None:
        """Let go of the provider: control, the service kept up for this viewer, and a
        session this viewer chose to watch (the picture follows the agent again)."""
        provider, surface = self.provider, self.surface
        if provider is None:
            return
        controls = self.host.controls
        controls.detach(provider.id, surface, self.viewer)
        provider.release()
        state = controls.of(provider.id)
        if surface is not None and state.pinned is not None and state.pinned[0] == self.viewer:
            state.pinned = None
            with contextlib.suppress(Exception):  # the provider may be gone with the viewer
                await controls.in_order(provider.id, lambda: surface.show(None))

    async def _follow_selection(self) -> bool:
        """Move to the selected provider if it changed; whether it did."""
        try:
            selected = self.host.providers().selected_id
        except BrowserhostError:
            selected = None
        provider = None if selected is None else self.host.catalog.get(selected)
        if provider is self.provider:
            return False
        await self.leave()
        self.provider = provider
        self.sessions = None
        if provider is not None:
            self.host.controls.attach(provider.id, self.viewer)
            provider.hold()  # a service the host runs stays up while someone watches
        self.moved.set()
        return True

    async def _send_state(self) -> None:
        provider = self.provider
        state: dict[str, Any] = {"t": "state", "providerId": None, "surface": False}
        if provider is not None:
            panel = None
            if provider.panel is not None:
                panel = {**provider.panel.public(), "url": f"{PANEL_PATH}/{provider.id}"}
            state |= {
                "providerId": provider.id,
                "providerName": provider.name,
                "surface": self.surface is not None,
                "panel": panel,
                "sessions": self.sessions or [],
                **self.host.controls.state(provider.id, self.viewer),
            }
        async with self.sent:
            await self.socket.send_json(state)

    async def _watch(self) -> None:
        """Tell the viewer of every change: control, the agent's action, the selection, the
        provider's sessions."""
        controls = self.host.controls

        def version() -> tuple[str, int] | None:
            """The provider watched and how many changes of its control there were."""
            provider = self.provider
            return None if provider is None else (provider.id, controls.of(provider.id).version)

        told = version()  # what the viewer was last told of
        while True:
            provider = self.provider
            if provider is None:
                await asyncio.sleep(LOOK_AROUND_S)
            elif version() == told:  # nothing new yet: wait for a change
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(LOOK_AROUND_S):
                        await controls.of(provider.id).changed().wait()
            moved = await self._follow_selection()
            now = version()
            if moved or now != told:
                # Control first: a person who just clicked waits on it, and a provider may be
                # slow to list its sessions (a bridged browser busy with the click). A change
                # that comes while this is told is told on the next turn.
                told = now
                await self._send_state()
            sessions = await self._sessions()
            if sessions != self.sessions:
                self.sessions = sessions
                await self._send_state()
            await self._send_pairing()

    async def _send_pairing(self) -> None:
        """Tell the viewer which browsers wait for approval, when that changed."""
        if self.pairing is None:
            return
        pending = [request.to_wire() for request in self.pairing.pending()]
        if pending == self.pending:
            return
        self.pending = pending
        async with self.sent:
            await self.socket.send_json({"t": "pairing", "pending": pending})

    async def _sessions(self) -> list[dict[str, Any]]:
        surface = self.surface
        if surface is None:
            return []
        try:
            return [session.to_wire() for session in await surface.sessions()]
        except Exception:  # a provider's failure must not end the viewer
            log.warning("listing the surface's sessions failed", exc_info=True)
            return self.sessions or []

    async def _frames(self) -> None:
        """Send the newest picture each time the viewer has drawn the last one."""
        seq = 0
        while True:
            self.moved.clear()
            provider, surface = self.provider, self.surface
            if surface is None or provider is None:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(LOOK_AROUND_S):
                        await self.moved.wait()
                seq = self.undrawn = 0
                continue
            frame = await _next_frame(surface, seq)
            if self.moved.is_set() or frame is None:
                if self.moved.is_set():
                    seq = self.undrawn = 0
                continue
            await self._send_frame(frame)
            seq = frame.seq
            self.undrawn += 1
            await self._room_for_a_frame()

    async def _room_for_a_frame(self) -> None:
        """Until fewer than :data:`FRAMES_IN_FLIGHT` pictures are undrawn; one more goes
        anyway after :data:`DRAWN_WAIT_S` without a word."""
        try:
            async with asyncio.timeout(DRAWN_WAIT_S):
                while self.undrawn >= FRAMES_IN_FLIGHT:
                    self.drawn.clear()
                    await self.drawn.wait()
        except TimeoutError:
            self.undrawn = FRAMES_IN_FLIGHT - 1

    async def _send_frame(self, frame: Frame) -> None:
        meta = {
            "t": "frame",
            "seq": frame.seq,
            "width": frame.width,
            "height": frame.height,
            "mime": frame.mime,
            "title": frame.title,
            "agentActive": frame.agent_active,
        }
        async with self.sent:
            await self.socket.send_json(meta)
            await self.socket.send_bytes(frame.data)

    async def _receive(self) -> None:
        while True:
            message = _json(await self.socket.receive_text())
            if message is None:
                await self.socket.close(1008, "unreadable message")
                return
            kind = message.get("t")
            if kind == "drawn":
                self.undrawn = max(0, self.undrawn - 1)
                self.drawn.set()
            elif kind == "handBack" and self.provider is not None:
                self.host.controls.hand_back(self.provider.id, self.surface, self.viewer)
            else:
                await self._to_provider(kind, message)

    async def _to_provider(self, kind: object, message: dict[str, Any]) -> None:
        provider, surface = self.provider, self.surface
        if provider is None or surface is None:
            await self._tell("error", "The selected provider shows no picture.")
            return
        controls = self.host.controls
        try:
            if kind == "input":
                batch = read_input_batch({"events": message.get("events")})
                if batch is None:
                    await self._tell("error", "That input was not understood; nothing was sent.")
                    return
                acting = any(
                    not (isinstance(event, PointerEvent) and event.action == "move")
                    for event in batch.events
                )
                holds = controls.state(provider.id, self.viewer)["you"]
                if not holds and not acting:
                    return  # looking, not acting
                if not holds and not controls.take(provider.id, surface, self.viewer):
                    await self._tell(
                        "refused", "Another viewer is in control; wait until they hand back."
                    )
                    return
                await controls.in_order(provider.id, lambda: surface.input(batch.events))
            elif kind == "copy":
                text = await controls.in_order(provider.id, surface.clipboard)
                async with self.sent:
                    await self.socket.send_json({"t": "clipboard", "text": text})
            elif kind == "resize":
                size = css_size(message)
                if size is not None:
                    await controls.in_order(provider.id, lambda: surface.resize(size))
            elif kind == "open" and isinstance(message.get("url"), str):
                # The person typed an address in the provider's panel: their own action,
                # so it takes control like any other and passes the agent's gate.
                if not controls.take(provider.id, surface, self.viewer):
                    await self._tell(
                        "refused", "Another viewer is in control; wait until they hand back."
                    )
                    return
                await self.host.dispatch(
                    "browser.open",
                    {"url": message["url"]},
                    await self._shown_context(surface),
                    provider_id=provider.id,
                    by_person=True,
                )
            elif kind == "show":
                chosen = read_show({"id": message.get("id")})
                if chosen is not None:
                    await controls.in_order(provider.id, lambda: surface.show(chosen.id))
                    pinned = None if chosen.id is None else (self.viewer, chosen.id)
                    controls.of(provider.id).pinned = pinned
                    self.sessions = await self._sessions()
                    await self._send_state()
            else:
                await self._tell("error", f"Unknown message {kind!r}.")
        except Exception as exc:  # a provider's failure must not end the viewer
            log.warning("the surface of %s failed", provider.id, exc_info=True)
            await self._tell("error", f"{provider.name} could not do that: {exc}")

    async def _shown_context(self, surface: Surface) -> Context:
        """The agent session the picture shows, for what the person does through the panel."""
        for session in await surface.sessions():
            if session.shown and session.context is not None:
                return session.context
        return Context()

    async def _tell(self, kind: str, text: str) -> None:
        async with self.sent:
            await self.socket.send_json({"t": kind, "message": text})


async def _next_frame(surface: Surface, after: int) -> Frame | None:
    try:
        return await surface.frame(after, FRAME_WAIT_S)
    except Exception:  # a provider's failure: try again shortly
        log.warning("a surface frame failed", exc_info=True)
        await asyncio.sleep(LOOK_AROUND_S)
        return None


def css_size(message: dict[str, Any]) -> Size | None:
    """A viewer's ``resize`` in device pixels as the CSS pixels a page is laid out in; ``None``
    when it is not a size (a ratio of 1 when it names none)."""
    width, height = _finite(message.get("width")), _finite(message.get("height"))
    ratio = _finite(message.get("devicePixelRatio", 1))
    if width is None or height is None or ratio is None or not RATIO_MIN <= ratio <= RATIO_MAX:
        return None
    return read_resize({"width": round(width / ratio), "height": round(height / ratio)})


def _finite(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _surface(provider: InstalledProvider) -> Surface | None:
    return provider.surface
