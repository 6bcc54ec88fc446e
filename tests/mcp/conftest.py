"""Real MCP clients (the official SDK) against real ``browserhost mcp`` and ``serve`` processes,
and a small web site served by the test for the browser to load."""

from __future__ import annotations

import base64
import re
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.context import ClientRequestContext
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import TOKEN, LiveServer, serving_http

ELEVEN_TOOLS = {
    "browser_open",
    "browser_snapshot",
    "browser_click",
    "browser_type",
    "browser_scroll",
    "browser_back",
    "browser_forward",
    "browser_inspect",
    "browser_capture",
    "browser_resize",
    "browser_providers",
}
"""Written out on purpose: the test states what an agent sees, not what the code derives."""

CALL_WAIT_S = 60.0

PAGES: dict[str, tuple[str, str]] = {
    "/": (
        "Home page",
        "<h1>Welcome home</h1><a href='/about'>About</a>"
        "<button onclick=\"document.body.append('Here is more.')\">Show more</button>",
    ),
    "/about": ("About page", "<h1>About this site</h1><a href='/'>Home</a>"),
    "/remember": (
        "Remember",
        "<script>document.cookie = 'agent=' + location.hash.slice(1) + '; path=/';</script>"
        "<p>Remembered.</p>",
    ),
    "/recall": (
        "Recall",
        "<p id=out></p><script>out.textContent = 'cookie=[' + document.cookie + ']';</script>",
    ),
    # A canvas the snapshot's notice points at, on a page that writes the project's names
    # itself: the notice is the provider's words, the rest the page's.
    "/drawing": (
        "verb.mouse and browser.capture",
        "<p>Press verb.mouse, then browser.capture.</p>"
        "<canvas id=board width=200 height=150></canvas>",
    ),
}


class _Pages(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        page = PAGES.get(self.path.split("?")[0].split("#")[0])
        if page is None:
            self.send_error(404)
            return
        title, body = page
        html = f"<!doctype html><title>{title}</title><body>{body}</body>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(html)))
        self.end_headers()
        self.wfile.write(html)

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: the test output is for assertions."""


@pytest.fixture
def site() -> Iterator[str]:
    """The origin of a small site on loopback (home, about, cookie pages)."""
    with serving_http(_Pages) as origin:
        yield origin


@dataclass(frozen=True)
class Setup:
    """Where a ``browserhost mcp`` process runs: its project (cwd) and data dir."""

    project: Path
    data_dir: Path
    logs: Path


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    project, data_dir, logs = tmp_path / "project", tmp_path / "data", tmp_path / "logs"
    for folder in (project, data_dir, logs):
        folder.mkdir()
    return Setup(project, data_dir, logs)


def roots_answer(directory: Path) -> Any:
    async def list_roots(context: ClientRequestContext) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri=directory.as_uri(), name="project")])

    return list_roots


@asynccontextmanager
async def stdio_mcp(
    setup: Setup,
    *args: str,
    providers: str = "stub",
    env: dict[str, str] | None = None,
    roots: Path | None = None,
    mode: str = "auto",
    name: str = "mcp",
) -> AsyncIterator[Client]:
    """The SDK client connected to a spawned ``browserhost mcp`` (stderr kept under logs/)."""
    parameters = StdioServerParameters(
        command=sys.executable,
        args=["-m", "browserhost", "mcp", "--data-dir", str(setup.data_dir), *args],
        env={"BROWSERHOST_PROVIDERS": providers, "BROWSERHOST_TOKEN": TOKEN, **(env or {})},
        cwd=setup.project,
    )
    log_path = setup.logs / f"{name}.log"
    with log_path.open("w") as errlog:
        client = Client(
            stdio_client(parameters, errlog=errlog),
            mode=mode,
            read_timeout_seconds=CALL_WAIT_S,
            list_roots_callback=None if roots is None else roots_answer(roots),
        )
        try:
            async with client:
                yield client
        except Exception as failure:
            # "Connection closed" alone does not say why the server went away; its stderr does.
            failure.add_note(f"browserhost mcp stderr ({log_path}):\n{log_path.read_text()}")
            raise


@asynccontextmanager
async def http_mcp(
    server: LiveServer,
    *,
    roots: Path | None = None,
    headers: dict[str, str] | None = None,
) -> AsyncIterator[Client]:
    """The SDK client connected to ``/mcp`` of a live ``browserhost serve``."""
    async with httpx2.AsyncClient(
        headers={**server.headers, **(headers or {})}, timeout=CALL_WAIT_S, trust_env=False
    ) as http:
        client = Client(
            streamable_http_client(f"{server.url}/mcp", http_client=http),
            read_timeout_seconds=CALL_WAIT_S,
            list_roots_callback=None if roots is None else roots_answer(roots),
        )
        async with client:
            yield client


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


def page_text(result: types.CallToolResult) -> str:
    """The text of a successful result, checked to be marked as the page's (untrusted), without
    the marking lines."""
    first, *inner, last = text_of(result).split("\n")
    opened = re.fullmatch(r"\[page content ([0-9a-f]{8})\]", first)
    assert opened is not None, first
    assert last == f"[end of page content {opened.group(1)}]", last
    return "\n".join(inner)


def image_of(result: types.CallToolResult) -> bytes:
    images = [block for block in result.content if isinstance(block, types.ImageContent)]
    assert len(images) == 1, result.content
    assert images[0].mime_type == "image/png"
    return base64.b64decode(images[0].data)


def structured(result: types.CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def call_ok(client: Client, tool: str, arguments: dict[str, Any] | None = None) -> Any:
    """Call a tool that must succeed; its structured content."""
    return structured(await client.call_tool(tool, arguments or {}))
