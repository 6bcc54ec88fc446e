"""The MCP tools driving real Chromium (/usr/bin/chromium) on pages served by the test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import anyio
import pytest
from mcp import Client

from tests.conftest import LiveServer, start_server
from tests.mcp.conftest import Setup, call_ok, http_mcp, image_of, stdio_mcp, text_of

CHROMIUM = "/usr/bin/chromium"
ENV = {"BROWSERHOST_CHROMIUM": CHROMIUM}
BROWSER_WAIT_S = 120

Connect = Callable[[str], AbstractAsyncContextManager[Client]]


@pytest.fixture
def chromium_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = start_server(
        tmp_path / "served",
        providers="stub,chromium",
        extra_args=("--select", "chromium"),
        env=ENV,
    )
    yield server
    server.stop()


@pytest.fixture(params=["stdio", "http"])
def connect(request: pytest.FixtureRequest, setup: Setup) -> Connect:
    """Open an MCP session to Chromium, over stdio (a new process each) or HTTP (one server)."""
    if request.param == "stdio":

        def over_stdio(name: str) -> AbstractAsyncContextManager[Client]:
            return stdio_mcp(
                setup, "--select", "chromium", providers="stub,chromium", env=ENV, name=name
            )

        return over_stdio
    server: LiveServer = request.getfixturevalue("chromium_server")

    def over_http(name: str) -> AbstractAsyncContextManager[Client]:
        return http_mcp(server)

    return over_http


async def test_open_read_click_by_text_and_capture(
    connect: Connect, site: str, setup: Setup
) -> None:
    with anyio.fail_after(BROWSER_WAIT_S):
        async with connect("agent") as client:
            opened = await call_ok(client, "browser_open", {"url": f"{site}/"})
            snapshot = await client.call_tool("browser_snapshot", {})
            clicked = await call_ok(client, "browser_click", {"text": "About"})
            after = await call_ok(client, "browser_snapshot")
            captured = await client.call_tool("browser_capture", {"label": "about"})

    assert opened["title"] == "Home page"
    assert opened["settled"] is True
    text = text_of(snapshot)
    assert text.startswith(f"Home page — {site}/")
    assert "Welcome home" in text
    assert '"About"' in text
    assert '"Show more"' in text
    assert clicked["url"] == f"{site}/about"
    assert after["title"] == "About page"
    assert "About this site" in after["text"]

    assert not captured.is_error
    png = image_of(captured)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert captured.structured_content is not None
    assert captured.structured_content["title"] == "About page"
    width = int.from_bytes(png[16:20], "big")
    assert width == captured.structured_content["width"]


async def _cookie_seen(client: Client, site: str, remember: str | None) -> str:
    if remember is not None:
        await call_ok(client, "browser_open", {"url": f"{site}/remember#{remember}"})
    await call_ok(client, "browser_open", {"url": f"{site}/recall"})
    snapshot = await call_ok(client, "browser_snapshot")
    text: str = snapshot["text"]
    return text


async def test_two_sessions_do_not_share_a_cookie(connect: Connect, site: str) -> None:
    with anyio.fail_after(BROWSER_WAIT_S):
        async with connect("first") as first, connect("second") as second:
            seen_first = await _cookie_seen(first, site, remember="alpha")
            seen_second = await _cookie_seen(second, site, remember=None)
            seen_first_again = await _cookie_seen(first, site, remember=None)
    assert "cookie=[agent=alpha]" in seen_first
    assert "cookie=[]" in seen_second
    assert "cookie=[agent=alpha]" in seen_first_again


async def test_capture_over_stdio_lands_in_the_project(setup: Setup, site: str) -> None:
    with anyio.fail_after(BROWSER_WAIT_S):
        async with stdio_mcp(
            setup, "--select", "chromium", providers="stub,chromium", env=ENV
        ) as client:
            await call_ok(client, "browser_open", {"url": f"{site}/", "viewport": "mobile"})
            captured = await call_ok(client, "browser_capture", {"label": "home"})
    saved = Path(captured["path"])
    assert saved.parent == setup.project / ".browserhost" / "captures"
    assert saved.name.endswith("-home.png")
    assert (captured["width"], captured["height"]) == (390, 844)
