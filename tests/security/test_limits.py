"""Issue 25, item 8: unbounded inputs. Every string an action takes is capped in the contract
(refused as INVALID_ACTION, nothing sent), over MCP stdio too, where no body limit applies;
MCP sessions over HTTP that their clients abandoned expire, and their number is capped."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from browserhost.contract import normalize
from browserhost.contract.errors import InvalidActionError
from browserhost.contract.limits import TEXT_MAX, URL_MAX, VALUE_MAX
from tests.mcp.conftest import Setup, call_ok, stdio_mcp, text_of

from .conftest import answered_meanwhile, serving

LONG_URL = "https://example.com/?q=" + "a" * (URL_MAX - 22)
"""One character over the limit."""

CAPPED = [
    ("browser.open", {"url": LONG_URL}, "url", URL_MAX),
    ("browser.snapshot", {"selector": "#" + "a" * TEXT_MAX}, "selector", TEXT_MAX),
    ("browser.click", {"selector": "#" + "a" * TEXT_MAX}, "selector", TEXT_MAX),
    ("browser.click", {"text": "a" * (TEXT_MAX + 1)}, "text", TEXT_MAX),
    ("browser.type", {"selector": "#" + "a" * TEXT_MAX, "value": ""}, "selector", TEXT_MAX),
    ("browser.type", {"selector": "#q", "value": "a" * (VALUE_MAX + 1)}, "value", VALUE_MAX),
    ("browser.scroll", {"selector": "#" + "a" * TEXT_MAX}, "selector", TEXT_MAX),
    ("browser.inspect", {"selector": "#" + "a" * TEXT_MAX}, "selector", TEXT_MAX),
    ("browser.capture", {"label": "a" * (TEXT_MAX + 1)}, "label", TEXT_MAX),
]


@pytest.mark.parametrize(("action", "parameters", "name", "limit"), CAPPED)
def test_a_string_over_its_limit_is_refused_saying_which_and_how_long(
    action: str, parameters: dict[str, Any], name: str, limit: int
) -> None:
    with pytest.raises(InvalidActionError) as refused:
        normalize(action, parameters)
    assert refused.value.message == (
        f"{name} is {limit + 1:,} characters; at most {limit:,} are taken. Nothing was sent."
    )
    at_limit = {key: value[:-1] if key == name else value for key, value in parameters.items()}
    assert normalize(action, at_limit).parameters.to_wire()[name] == at_limit[name]


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    project, data_dir, logs = tmp_path / "project", tmp_path / "data", tmp_path / "logs"
    for folder in (project, data_dir, logs):
        folder.mkdir()
    return Setup(project, data_dir, logs)


@pytest.mark.slow
async def test_over_mcp_stdio_a_url_of_megabytes_is_refused_and_the_session_goes_on(
    setup: Setup,
) -> None:
    huge = "https://example.com/?q=" + "a" * 20_000_000
    with anyio.fail_after(120):
        async with stdio_mcp(setup, "--select", "stub") as client:
            refused = await client.call_tool("browser_open", {"url": huge})
            opened = await call_ok(client, "browser_open", {"url": "https://site.test/about"})
            snapshot = await client.call_tool("browser_snapshot", {})
    assert refused.is_error
    assert text_of(refused) == (
        f"INVALID_ACTION: url is {len(huge):,} characters; at most {URL_MAX:,} are taken. "
        "Nothing was sent."
    )
    assert opened["title"] == "About the stub"
    assert not snapshot.is_error
    assert "About the stub — https://site.test/about" in text_of(snapshot)


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "abandoning", "version": "1"},
    },
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


async def test_abandoned_mcp_sessions_are_capped_and_expire(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("browserhost.mcp_server.HTTP_SESSIONS_MAX", 3)
    # Long enough for the fourth start to come before the first expires on a loaded machine.
    monkeypatch.setattr("browserhost.mcp_server.HTTP_SESSION_IDLE_S", 5.0)
    async with serving(tmp_path / "data") as hosted, hosted.http() as http:

        async def start() -> httpx.Response:
            return await http.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)

        abandoned = [await start() for _ in range(3)]
        assert [opened.status_code for opened in abandoned] == [200] * 3
        refused = await answered_meanwhile(hosted, start())
        assert refused.status_code == 503
        assert refused.json()["error"]["message"] == "Too many open sessions"

        async with asyncio.timeout(20):
            while (opened := await start()).status_code == 503:  # noqa: ASYNC110
                await asyncio.sleep(0.2)  # the idle timers fire unseen: poll, bounded
        assert opened.status_code == 200
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        first = {**MCP_HEADERS, "mcp-session-id": abandoned[0].headers["mcp-session-id"]}
        assert (await http.post("/mcp", json=ping, headers=first)).status_code == 404
