"""How the host's listeners take connections: uvicorn's HTTP/1.1, bounded.

uvicorn waits for ever for a connection's first request, and for one whose head comes a
byte at a time; each such connection holds a file descriptor, and the API, the bridge
listener and the browser share the process's. A listener open to a network (the bridge's
``--bridge-listen``) could so be made to starve the API. Here a connection has
:data:`HEAD_TIMEOUT_S` to send each request's head (its line and headers), and a listener
holds at most :data:`CONNECTIONS_MAX` connections: one more is closed at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_TIMEOUT_S = 10.0
"""How long a connection may take to send a request's head: a person's browser sends it in
one piece, on a slow network within a second or two."""
CONNECTIONS_MAX = 256
"""Connections one listener holds at once (each viewer, MCP client and bridged browser holds
one or two)."""


class BoundedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with :data:`HEAD_TIMEOUT_S` and :data:`CONNECTIONS_MAX`."""

    _head_due: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > CONNECTIONS_MAX:
            transport.abort()
            return
        self._await_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._await_head()  # a head begun, not ended: it still has its time
        else:
            self._stop_waiting()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def _await_head(self) -> None:
        if self._head_due is None:
            self._head_due = self.loop.call_later(HEAD_TIMEOUT_S, self._too_slow)

    def _stop_waiting(self) -> None:
        if self._head_due is not None:
            self._head_due.cancel()
            self._head_due = None

    def _too_slow(self) -> None:
        self._head_due = None
        if not self.transport.is_closing():
            self.transport.abort()


def settings() -> dict[str, Any]:
    """What each of the host's ``uvicorn.Config`` takes for it."""
    return {"http": BoundedH11}


def more_descriptors() -> None:
    """Raise this process's limit of open files to the most it may have: the browser's pipes,
    the viewers' sockets and the listeners' connections all count against it, and a
    distribution's default soft limit (1,024) is far below its hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
