"""The gate in front of a loopback HTTP server: the host's API and a provider service.

Any web page the user visits can send requests to a loopback port, so both servers check,
in order, before reading a byte of the body: the Host header must name this machine or a
host the user allowed (a DNS-rebinding guard, 421); a request with an ``Origin`` must come
from the server's own origin (403); the bearer token must match, compared in constant time
(401); a body must be JSON (415) and at most 1 MiB (413). The body is then read here, before
anything parses it, so a body sent without a Content-Length is refused the same way as one
that declares its size, and never held beyond the limit. A refused request's body is read
and dropped (up to 4 MiB, for 5 s) before the refusal is sent: closed with a body unread, the
connection would be reset under a client still sending it, which would lose the refusal.

Standard library only at run time: the provider SDK imports this without a web framework.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import json
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from browserhost.contract.limits import REQUEST_BODY_MAX_BYTES

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
EXTENSION_ORIGINS = ("chrome-extension://", "moz-extension://")
"""Origins only a browser extension sends from a browser (Chrome's, Firefox's)."""

Refusal = tuple[int, str, str]
"""HTTP status, the gate's code, and what the caller should do differently."""

_TOO_LARGE: Refusal = (
    413,
    "BODY_TOO_LARGE",
    f"The body is over {REQUEST_BODY_MAX_BYTES} bytes.",
)


class Gate:
    """ASGI middleware refusing what did not come from the token's holder on this machine.

    ``protected`` are the path prefixes behind the gate (``"/"`` for all of them);
    ``extension_paths`` are sockets a browser extension may open (its ``chrome-extension://``
    or ``moz-extension://`` origin passes the Origin rule: a page cannot send it, and the socket
    authenticates itself);
    ``unauthorized_hint`` and ``host_hint`` finish the refusals' messages with where the token comes
    from and how to allow another host name.
    """

    def __init__(
        self,
        app: ASGIApp,
        token: str,
        allowed_hosts: Iterable[str] = (),
        *,
        protected: tuple[str, ...] = ("/",),
        public: tuple[str, ...] = (),
        extension_paths: tuple[str, ...] = (),
        unauthorized_hint: str,
        host_hint: str,
    ) -> None:
        self.app = app
        self._public = public
        self._extension_paths = extension_paths
        self._token = token.encode()
        self._hosts = LOOPBACK_NAMES | {name.lower() for name in allowed_hosts}
        self._protected = protected
        self._unauthorized_hint = unauthorized_hint
        self._host_hint = host_hint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        guarded = path.startswith(self._protected)
        if scope["type"] not in ("http", "websocket") or not (
            guarded or path.startswith(self._public)
        ):
            await self.app(scope, receive, send)
            return
        headers = {
            key.decode("latin-1"): value.decode("latin-1") for key, value in scope["headers"]
        }
        if scope["type"] == "websocket" or not guarded:
            # Pages with no secrets in them, and sockets that authenticate in their first
            # message (a browser cannot put a token in a WebSocket's headers): the Host and
            # Origin rules still keep other sites out.
            extension = scope["type"] == "websocket" and path in self._extension_paths
            refusal = self._foreign(headers, extension=extension)
            if refusal is None:
                await self.app(scope, receive, send)
            elif scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": refusal[2]})
            else:
                await _answer(send, *refusal)
            return
        refusal = self._refusal(headers)
        if refusal is not None:
            if _has_body(headers):
                await _drain(receive)
            await _answer(send, *refusal)
            return
        if _has_body(headers):
            buffered = await _read_body(receive)
            if buffered is None:
                await _drain(receive)
                await _answer(send, *_TOO_LARGE)
                return
            receive = buffered
        await self.app(scope, receive, send)

    def _foreign(self, headers: dict[str, str], *, extension: bool = False) -> Refusal | None:
        """A request addressed to another host name, or sent by another site's page."""
        authority = headers.get("host", "")
        if _hostname(authority) not in self._hosts:
            return 421, "HOST_NOT_ALLOWED", f"Host {authority!r} is not allowed. {self._host_hint}"
        origin = headers.get("origin")
        if extension and origin is not None and origin.startswith(EXTENSION_ORIGINS):
            return None
        if origin is not None and urlsplit(origin).netloc.lower() != authority.lower():
            return 403, "ORIGIN_NOT_ALLOWED", "Cross-origin requests are refused."
        return None

    def _refusal(self, headers: dict[str, str]) -> Refusal | None:
        foreign = self._foreign(headers)
        if foreign is not None:
            return foreign
        scheme, _, supplied = headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(supplied.encode(), self._token):
            # A token sent that is not this host's (another host's, an old one) is said so,
            # and one sent in another scheme (Basic) too.
            sent = "Send"
            if supplied and scheme.lower() != "bearer":
                sent = f"Authorization uses {scheme[:20]}, not Bearer: send"
            elif supplied:
                sent = "The token sent is not this host's: send"
            return (
                401,
                "UNAUTHORIZED",
                f"{sent} Authorization: Bearer <token>; {self._unauthorized_hint}",
            )
        # A request without a body has no media type to check; the route says what it lacks.
        if _has_body(headers):
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media != "application/json":
                return (
                    415,
                    "UNSUPPORTED_MEDIA_TYPE",
                    "Send the body as Content-Type: application/json.",
                )
            length = headers.get("content-length", "")
            if length.isdigit() and int(length) > REQUEST_BODY_MAX_BYTES:
                return _TOO_LARGE
        return None


@functools.lru_cache(maxsize=64)  # the same few Host headers come with every request
def _hostname(authority: str) -> str | None:
    try:
        return urlsplit(f"//{authority}").hostname
    except ValueError:
        return None


def _has_body(headers: dict[str, str]) -> bool:
    length = headers.get("content-length", "").strip()
    return "transfer-encoding" in headers or (length != "" and length != "0")


async def _read_body(receive: Receive) -> Receive | None:
    """Read the whole body (at most the limit) and replay it to the app; ``None`` if over."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client left mid-body: let the app see it
            return _replay(message, receive)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > REQUEST_BODY_MAX_BYTES:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return _replay({"type": "http.request", "body": b"".join(chunks)}, receive)


DRAIN_MAX_BYTES = 4 * REQUEST_BODY_MAX_BYTES
DRAIN_S = 5.0


async def _drain(receive: Receive) -> None:
    """Read and drop the rest of a refused request's body, up to :data:`DRAIN_MAX_BYTES` and
    :data:`DRAIN_S`: a connection closed with a body unread is reset, and a client still
    sending it (a body over the limit) would then lose the refusal for a broken connection.
    A larger or slower one is left to that."""
    size = 0
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(DRAIN_S):
            while size <= DRAIN_MAX_BYTES:
                message = await receive()
                if message["type"] != "http.request":
                    return
                size += len(message.get("body", b""))
                if not message.get("more_body", False):
                    return


def _replay(first: Message, receive: Receive) -> Receive:
    pending = [first]

    async def read() -> Message:
        return pending.pop() if pending else await receive()

    return read


async def _answer(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"ok": False, "code": code, "error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
