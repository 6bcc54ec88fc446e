"""The ``/mcp`` route: streamable-HTTP MCP, built at its first request.

Importing the MCP SDK (its protocol's types are several hundred pydantic models) costs a host's
start about 0.7 s of CPU, more than everything else it does to start; a host no MCP client
calls over HTTP never pays it. The first request imports it and starts the SDK's session manager
in a task of its own (anyio's task groups must be left by the task that entered them), which the
app's shutdown stops.
"""

from __future__ import annotations

import asyncio
import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.types import Receive, Scope, Send

    from browserhost.host import Host
    from browserhost.mcp_server import HttpEndpoint


def installed() -> bool:
    """Whether the ``mcp`` extra is installed (without importing it)."""
    return importlib.util.find_spec("mcp") is not None


class LazyMcpEndpoint:
    """An ASGI endpoint that builds :class:`~browserhost.mcp_server.HttpEndpoint` when first
    called; :meth:`aclose` ends its sessions."""

    def __init__(self, host: Host) -> None:
        self._host = host
        self._endpoint: HttpEndpoint | None = None
        self._starting = asyncio.Lock()
        self._stop = asyncio.Event()
        self._sessions: asyncio.Task[None] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        endpoint = self._endpoint or await self._start()
        await endpoint(scope, receive, send)

    async def aclose(self) -> None:
        self._stop.set()
        if self._sessions is not None:
            await self._sessions

    async def _start(self) -> HttpEndpoint:
        async with self._starting:
            if self._endpoint is not None:  # another request started it meanwhile
                return self._endpoint
            from browserhost.mcp_server import HttpEndpoint

            endpoint = HttpEndpoint(self._host)
            running = asyncio.Event()
            self._sessions = asyncio.get_running_loop().create_task(self._run(endpoint, running))
            ready = asyncio.ensure_future(running.wait())
            await asyncio.wait({self._sessions, ready}, return_when=asyncio.FIRST_COMPLETED)
            if self._sessions.done():  # it failed to start, or the app is stopping
                ready.cancel()
                self._sessions.result()
                raise RuntimeError("The MCP endpoint stopped as it started: the host is stopping.")
            self._endpoint = endpoint
            return endpoint

    async def _run(self, endpoint: HttpEndpoint, running: asyncio.Event) -> None:
        async with endpoint.run():
            running.set()
            await self._stop.wait()
