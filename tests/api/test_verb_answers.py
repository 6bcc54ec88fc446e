"""A verb answers any JSON value: a number or a list comes back as ``data`` over HTTP, through
the Python client, and as an MCP tool's answer."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client as McpClient

from browserhost import mcp_server
from browserhost.api.app import create_app
from browserhost.client import Client
from browserhost.host import Host
from tests.answering import Tally
from tests.api.conftest import ACTIONS, AUTH, TOKEN
from tests.mcp.conftest import page_text


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    host = Host(tmp_path / "data")
    host.catalog.install(Tally().registration())
    host.select("tally")
    yield host
    await host.aclose()


async def test_a_verb_answering_a_number_or_a_list_reaches_an_http_caller(host: Host) -> None:
    transport = httpx.ASGITransport(app=create_app(host, TOKEN))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://127.0.0.1:7878", headers=AUTH
    ) as http:
        counted = await http.post(
            ACTIONS, json={"action": "verb.count", "parameters": {"text": "one two three"}}
        )
        listed = await http.post(ACTIONS, json={"action": "verb.headings"})
    assert counted.json() == {"ok": True, "providerId": "tally", "data": 3}
    assert listed.json() == {"ok": True, "providerId": "tally", "data": ["Pricing", "Plans"]}


async def test_the_python_client_returns_a_verbs_number_or_list_as_it_is(host: Host) -> None:
    transport = httpx.ASGITransport(app=create_app(host, TOKEN))
    async with Client("http://127.0.0.1:7878", TOKEN, transport=transport) as browser:
        assert await browser.call("count", text="a b") == 2
        assert await browser.call("headings") == ["Pricing", "Plans"]


async def test_an_mcp_tool_of_a_verb_answers_its_number_or_list(host: Host) -> None:
    server = mcp_server.build_server(mcp_server.HostBackend(host), stdio=True)
    with anyio.fail_after(30):
        async with McpClient(server) as client:
            counted = await client.call_tool("browser_count", {"text": "one two three"})
            listed = await client.call_tool("browser_headings", {})
    assert not counted.is_error
    assert not listed.is_error
    assert json.loads(page_text(counted)) == 3
    assert json.loads(page_text(listed)) == ["Pricing", "Plans"]
    # MCP's structured content is an object: another value is wrapped, as the MCP SDK does.
    assert counted.structured_content == {"result": 3}
    assert listed.structured_content == {"result": ["Pricing", "Plans"]}
