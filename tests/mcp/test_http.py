"""MCP over streamable HTTP at ``/mcp`` of a live ``browserhost serve``, through the official
MCP client SDK."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest

from tests.conftest import TOKEN, LiveServer, start_server
from tests.mcp.conftest import ELEVEN_TOOLS, call_ok, http_mcp, image_of, page_text, text_of

pytestmark = pytest.mark.slow


@pytest.fixture
def selected_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server with the stub selected."""
    server = start_server(tmp_path / "data", extra_args=("--select", "stub"))
    yield server
    server.stop()


async def test_lists_exactly_the_eleven_tools(live_server: LiveServer) -> None:
    with anyio.fail_after(60):
        async with http_mcp(live_server) as client:
            listed = await client.list_tools()
    assert {tool.name for tool in listed.tools} == ELEVEN_TOOLS


async def test_open_snapshot_click_capture_with_the_stub(
    selected_server: LiveServer, site: str
) -> None:
    with anyio.fail_after(60):
        async with http_mcp(selected_server) as client:
            opened = await call_ok(client, "browser_open", {"url": f"{site}/"})
            snapshot = await client.call_tool("browser_snapshot", {})
            clicked = await call_ok(client, "browser_click", {"text": "About"})
            captured = await client.call_tool("browser_capture", {})
    assert opened["url"] == f"{site}/"
    assert '2. `#about` a "About"' in page_text(snapshot)
    assert clicked["url"] == f"{site}/about"
    assert not captured.is_error
    assert image_of(captured).startswith(b"\x89PNG")
    assert captured.structured_content is not None
    assert captured.structured_content["title"] == "About the stub"
    assert "path" not in captured.structured_content, "no project is known over HTTP"


async def test_capture_is_saved_into_the_client_root(
    selected_server: LiveServer, tmp_path: Path
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    with anyio.fail_after(60):
        async with http_mcp(selected_server, roots=root) as client:
            captured = await call_ok(client, "browser_capture", {"label": "home"})
    assert captured["path"].startswith(str(root / ".browserhost" / "captures"))
    assert (await anyio.Path(captured["path"]).read_bytes()).startswith(b"\x89PNG")


async def test_two_concurrent_sessions_get_separate_browser_contexts(
    selected_server: LiveServer,
) -> None:
    with anyio.fail_after(60):
        async with http_mcp(selected_server) as first, http_mcp(selected_server) as second:
            await call_ok(first, "browser_open", {"url": "https://site.test/about"})
            await call_ok(second, "browser_open", {"url": "https://site.test/form"})
            seen_first = await call_ok(first, "browser_snapshot")
            seen_second = await call_ok(second, "browser_snapshot")
    assert seen_first["title"] == "About the stub"
    assert seen_second["title"] == "Search"


async def test_invalid_parameter_is_an_error_result_with_invalid_action(
    selected_server: LiveServer,
) -> None:
    with anyio.fail_after(60):
        async with http_mcp(selected_server) as client:
            result = await client.call_tool("browser_type", {"selector": "#q"})
    assert result.is_error
    assert text_of(result) == (
        "INVALID_ACTION: value is required for browser_type. Nothing was sent."
    )


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.mark.parametrize(
    ("token", "headers", "status", "code"),
    [
        (None, {}, 401, "UNAUTHORIZED"),
        ("wrong", {}, 401, "UNAUTHORIZED"),
        (TOKEN, {"Origin": "https://evil.test"}, 403, "ORIGIN_NOT_ALLOWED"),
        (TOKEN, {"Host": "evil.test"}, 421, "HOST_NOT_ALLOWED"),
    ],
)
def test_mcp_is_behind_the_same_gate_as_the_api(
    live_server: LiveServer, token: str | None, headers: dict[str, str], status: int, code: str
) -> None:
    sent = {**ACCEPT, **headers}
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    with httpx.Client(base_url=live_server.url, trust_env=False, timeout=30) as http:
        answer = http.post("/mcp", json=INITIALIZE, headers=sent)
    assert answer.status_code == status
    assert answer.json()["code"] == code


def test_mcp_with_the_token_answers_initialize(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, trust_env=False, timeout=30) as http:
        answer = http.post("/mcp", json=INITIALIZE, headers={**ACCEPT, **live_server.headers})
    assert answer.status_code == 200
    assert answer.headers["mcp-session-id"]
    assert '"serverInfo":{"name":"browserhost"' in answer.text.replace(" ", "")
