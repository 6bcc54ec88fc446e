"""A caller's own ``timeoutMs`` through MCP (reference 001, item 6): every tool takes it, the
provider service gets it as an absolute deadline, an action that outlasts it is
``REQUEST_FAILED`` (may have run), and one out of the host's range is refused unsent. Against
a real provider service process, with the MCP server in process and as ``browserhost mcp
--url`` forwarding to a served host."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import pytest
from mcp import Client

from browserhost import mcp_server
from browserhost.contract.limits import CALLER_TIMEOUT_MAX_MS, CALLER_TIMEOUT_MIN_MS
from browserhost.host import Catalog, Host
from browserhost.host.dispatch import SERVICE_LOGS
from browserhost.host.services import ServiceSettings
from tests import slow_service
from tests.api.viewing import serving
from tests.mcp.conftest import Setup, stdio_mcp, structured, text_of

pytestmark = pytest.mark.slow

SLOW_CALL_BOUND_S = 15.0
"""Well short of a click's own 20 s: a call that ends within it ended at the caller's wait."""


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    data_dir = tmp_path / "data"
    host = Host(data_dir, Catalog(ServiceSettings(log_dir=data_dir / SERVICE_LOGS, grace_s=2.0)))
    host.catalog.install(slow_service.register())
    host.select(slow_service.ID)
    yield host
    await host.aclose()


async def test_every_tool_takes_a_timeout_in_the_hosts_range(host: Host) -> None:
    server = mcp_server.build_server(mcp_server.HostBackend(host), stdio=True)
    with anyio.fail_after(30):
        async with Client(server) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    for name in ("browser_back", "browser_click", "browser_open"):
        timeout = tools[name].input_schema["properties"]["timeoutMs"]
        assert (timeout["type"], timeout["minimum"], timeout["maximum"]) == (
            "integer", CALLER_TIMEOUT_MIN_MS, CALLER_TIMEOUT_MAX_MS,
        )  # fmt: skip
        assert "timeoutMs" not in tools[name].input_schema.get("required", [])


async def test_the_provider_gets_the_callers_deadline_and_an_action_past_it_may_have_run(
    host: Host,
) -> None:
    server = mcp_server.build_server(mcp_server.HostBackend(host), stdio=True)
    with anyio.fail_after(60):
        async with Client(server) as client:
            own = structured(await client.call_tool("browser_back", {}))
            given = structured(await client.call_tool("browser_back", {"timeoutMs": 5000}))
            with anyio.fail_after(SLOW_CALL_BOUND_S):
                late = await client.call_tool(
                    "browser_click", {"selector": "#slow", "timeoutMs": 1000}
                )
            before = slow_service.received(host.data_dir)
            refused = await client.call_tool("browser_back", {"timeoutMs": 50})
            after = await client.call_tool("browser_back", {"timeoutMs": "soon"})
    assert 5 < slow_service.seconds_left_in(own["title"]) <= 20  # the action's own wait
    assert 0 < slow_service.seconds_left_in(given["title"]) <= 5
    assert late.is_error
    assert text_of(late).startswith("REQUEST_FAILED: browser_click was sent")
    assert "may have run" in text_of(late)
    assert late.structured_content is not None
    assert late.structured_content["mayHaveRun"] is True
    for wrong in (refused, after):
        assert wrong.is_error
        assert text_of(wrong).startswith("INVALID_ACTION: timeoutMs must be a whole number")
        assert "Nothing was sent." in text_of(wrong)
    assert slow_service.received(host.data_dir) == before, "a refused wait sent nothing"


async def test_forwarded_to_a_served_host_the_timeout_reaches_the_provider(
    setup: Setup,
) -> None:
    """``browserhost mcp --url``: the MCP process sends the wait with each action."""
    with serving(setup.data_dir.parent / "served", slow_service.register()) as served:
        with anyio.fail_after(60):
            async with stdio_mcp(setup, "--url", served.url) as client:
                own = structured(await client.call_tool("browser_back", {}))  # starts the service
                given = structured(await client.call_tool("browser_back", {"timeoutMs": 4000}))
                with anyio.fail_after(SLOW_CALL_BOUND_S):
                    late = await client.call_tool(
                        "browser_click", {"selector": "#slow", "timeoutMs": 1000}
                    )
                refused = await client.call_tool("browser_back", {"timeoutMs": 999_999})
    assert 4 < slow_service.seconds_left_in(own["title"]) <= 20  # the action's own wait
    assert 0 < slow_service.seconds_left_in(given["title"]) <= 4
    assert text_of(late).startswith("REQUEST_FAILED: ")
    assert late.structured_content is not None
    assert late.structured_content["mayHaveRun"] is True
    assert text_of(refused).startswith("INVALID_ACTION: timeoutMs must be a whole number")
