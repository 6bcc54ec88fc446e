"""The gate in front of every ``/api`` and ``/mcp`` route (see :mod:`browserhost.gate`).

In order: the Host header must name this machine or a host the user allowed (421); a request
with an ``Origin`` must come from the host's own origin (403); the bearer token must match
(401); a body must be JSON (415) and at most 1 MiB (413), read before anything parses it.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import ASGIApp

from browserhost.gate import LOOPBACK_NAMES, Gate

PROTECTED_PREFIXES = ("/api", "/mcp")
PUBLIC_PREFIXES = ("/viewer", "/ext/bridge")
"""The viewer's files (no token: they hold no secret) and the bridge's socket (its token comes
in its first message): the Host and Origin rules apply."""
EXTENSION_PATHS = ("/ext/bridge",)
"""The browser extension's socket: its ``chrome-extension://`` (or Firefox's
``moz-extension://``) origin is let through to say hello, and no further (any process can send
that origin): the hello authenticates it."""

UNAUTHORIZED_HINT = "browserhost serve prints where it is."
"""How a request without the token is told where to find it: also how ``doctor`` tells a
``serve`` apart from another program on a port."""

__all__ = ["LOOPBACK_NAMES", "PROTECTED_PREFIXES", "UNAUTHORIZED_HINT", "AuthGate"]


class AuthGate(Gate):
    def __init__(self, app: ASGIApp, token: str, allowed_hosts: Iterable[str] = ()) -> None:
        super().__init__(
            app,
            token,
            allowed_hosts,
            protected=PROTECTED_PREFIXES,
            public=PUBLIC_PREFIXES,
            extension_paths=EXTENSION_PATHS,
            unauthorized_hint=UNAUTHORIZED_HINT,
            host_hint="Use 127.0.0.1 or localhost, or start the server with --allow-host NAME.",
        )
