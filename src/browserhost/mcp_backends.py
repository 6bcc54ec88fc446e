"""Where the MCP server's tools send their calls: a host in this process (``browserhost mcp``,
the ``/mcp`` route of ``serve``) or a running ``browserhost serve`` over its HTTP API
(``browserhost mcp --url``). Neither imports the MCP SDK."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from browserhost.client import Client
from browserhost.contract import Context
from browserhost.contract.deadlines import caller_timeout_s
from browserhost.host import Host


@dataclass(frozen=True)
class ToolCall:
    """One tool call as the server hands it on."""

    action: str
    """One of the ten, or ``verb.<name>``."""
    parameters: dict[str, object]
    context: Context
    timeout_ms: object = None
    """The caller's own wait (:mod:`browserhost.contract.deadlines`); ``None``: the action's."""


class Backend(Protocol):
    """Where the tools send their calls: a host in this process or a running server."""

    async def providers(self) -> dict[str, Any]: ...

    async def run(self, call: ToolCall) -> Any:
        """The answer's ``data``: an object for the ten actions, any JSON value for a verb."""


@dataclass(frozen=True)
class HostBackend:
    host: Host

    async def providers(self) -> dict[str, Any]:
        return self.host.providers().to_wire()

    async def run(self, call: ToolCall) -> Any:
        outcome = await self.host.dispatch(
            call.action, call.parameters, call.context, timeout_ms=call.timeout_ms
        )
        return outcome.data


@dataclass(frozen=True)
class ClientBackend:
    client: Client

    async def providers(self) -> dict[str, Any]:
        return (await self.client.providers()).model_dump(mode="json", by_alias=True)

    async def run(self, call: ToolCall) -> Any:
        # Refused here as the host would refuse it: the client sends whole milliseconds only.
        wait_s = caller_timeout_s(call.timeout_ms)
        answer = await self.client.run(
            call.action,
            call.parameters,
            context=call.context,
            timeout_ms=None if wait_s is None else round(wait_s * 1000),
        )
        return answer.data
