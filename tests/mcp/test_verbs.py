"""A provider's verbs as MCP tools: listed next to the ten, called through the host, and
announced again (tools/list_changed) when the user selects a provider with other verbs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.subscriptions import ToolsListChanged

from browserhost import mcp_server
from browserhost.host import Host
from browserhost.providers.stub import StubProvider
from tests.mcp.conftest import page_text, text_of
from tests.recording import Recorder


@pytest.fixture
def host(tmp_path: Path) -> Host:
    host = Host(tmp_path / "data")
    host.catalog.install(StubProvider().registration())
    host.catalog.install(Recorder().record())  # no verbs
    host.select("stub")
    return host


async def test_the_selected_providers_verbs_are_tools_that_reach_it(host: Host) -> None:
    changes: list[Any] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changes.append(message)

    server = mcp_server.build_server(mcp_server.HostBackend(host), stdio=True)
    # The handshake protocol: the notification comes on the session.
    with anyio.fail_after(30):
        async with Client(server, message_handler=on_message, mode="legacy") as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            press = tools["browser_press_key"]
            assert press.input_schema["required"] == ["key"]
            assert (press.description or "").startswith("Press one key")

            await client.call_tool("browser_open", {"url": "https://stub.test/form"})
            await client.call_tool("browser_type", {"selector": "#q", "value": "cats"})
            pressed = await client.call_tool("browser_press_key", {"key": "Enter"})
            assert not pressed.is_error
            assert json.loads(page_text(pressed))["url"] == "https://stub.test/search?q=cats"

            refused = await client.call_tool("browser_press_key", {"key": ""})
            assert refused.is_error
            assert text_of(refused).startswith("INVALID_ACTION: browser_press_key was refused: ")
            assert refused.structured_content is not None
            assert refused.structured_content["error"].startswith("browser_press_key was refused")

            host.select("rec")  # the user picks a provider with no verbs
            await client.call_tool("browser_press_key", {"key": "Enter"})
            assert len(changes) == 1
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert "browser_press_key" not in names
            assert "browser_open" in names


async def test_a_2026_protocol_client_hears_of_the_change_on_its_listen_stream(
    host: Host,
) -> None:
    server = mcp_server.build_server(mcp_server.HostBackend(host), stdio=True)
    with anyio.fail_after(30):
        async with Client(server) as client, client.listen(tools_list_changed=True) as changes:
            assert "browser_press_key" in {tool.name for tool in (await client.list_tools()).tools}
            host.select("rec")
            await client.call_tool("browser_press_key", {"key": "Enter"})
            assert isinstance(await anext(aiter(changes)), ToolsListChanged)
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert "browser_press_key" not in names
