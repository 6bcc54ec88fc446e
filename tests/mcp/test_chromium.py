"""The MCP tools driving real Chromium on pages served by the test."""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import LiveServer, start_server
from tests.mcp.conftest import (
    Setup,
    call_ok,
    http_mcp,
    image_of,
    page_text,
    stdio_mcp,
    structured,
)

BROWSER_WAIT_S = 120

Connect = Callable[[str], AbstractAsyncContextManager[Client]]


@pytest.fixture(scope="session")
def browser_env(chromium_path: str) -> dict[str, str]:
    return {"BROWSERHOST_CHROMIUM": chromium_path}


@pytest.fixture
def chromium_server(tmp_path: Path, browser_env: dict[str, str]) -> Iterator[LiveServer]:
    server = start_server(
        tmp_path / "served",
        providers="stub,chromium",
        extra_args=("--select", "chromium"),
        env=browser_env,
    )
    yield server
    server.stop()


@pytest.fixture(params=["stdio", "http"])
def connect(request: pytest.FixtureRequest, setup: Setup, browser_env: dict[str, str]) -> Connect:
    """Open an MCP session to Chromium, over stdio (a new process each) or HTTP (one server)."""
    if request.param == "stdio":

        def over_stdio(name: str) -> AbstractAsyncContextManager[Client]:
            return stdio_mcp(
                setup, "--select", "chromium", providers="stub,chromium", env=browser_env, name=name
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
    text = page_text(snapshot)
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


async def test_a_notice_names_the_tools_an_agent_calls_and_the_page_keeps_its_own_words(
    connect: Connect, site: str
) -> None:
    """The provider's notice says browser.capture and verb.mouse, as over HTTP; an MCP agent
    reads the tools it can call. What the page writes, the same names included, is not its
    words to change."""
    with anyio.fail_after(BROWSER_WAIT_S):
        async with connect("agent") as client:
            described = {tool.name: tool.description for tool in (await client.list_tools()).tools}
            listing = await call_ok(client, "browser_providers")
            await call_ok(client, "browser_open", {"url": f"{site}/drawing"})
            snapshot = await client.call_tool("browser_snapshot", {})

    notice = (
        "Drawn, with nothing to read in it: #board (canvas 200x150). browser_capture shows it; "
        "browser_mouse clicks it by x and y."
    )
    answer = structured(snapshot)
    assert answer["notice"] == notice
    assert (answer["title"], answer["text"]) == (
        "verb.mouse and browser.capture",
        "Press verb.mouse, then browser.capture.",
    )
    text = page_text(snapshot)
    assert f"({notice})" in text.split("\n")
    assert text.startswith(f"verb.mouse and browser.capture — {site}/drawing")
    assert "\nPress verb.mouse, then browser.capture.\n" in text
    # A verb's own description too, as a tool and in the providers listing.
    assert "the pixels of a browser_capture (taken" in (described["browser_mouse"] or "")
    [chromium] = [row for row in listing["providers"] if row["id"] == "chromium"]
    [mouse] = [verb for verb in chromium["verbs"] if verb["name"] == "mouse"]
    assert "the pixels of a browser_capture (taken" in mouse["description"]


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


async def test_capture_over_stdio_lands_in_the_project(
    setup: Setup, site: str, browser_env: dict[str, str]
) -> None:
    with anyio.fail_after(BROWSER_WAIT_S):
        async with stdio_mcp(
            setup, "--select", "chromium", providers="stub,chromium", env=browser_env
        ) as client:
            await call_ok(client, "browser_open", {"url": f"{site}/", "viewport": "mobile"})
            captured = await call_ok(client, "browser_capture", {"label": "home"})
    saved = Path(captured["path"])
    assert saved.parent == setup.project / ".browserhost" / "captures"
    assert saved.name.endswith("-home.png")
    assert (captured["width"], captured["height"]) == (390, 844)


def _readme_servers() -> list[dict[str, Any]]:
    """The ``mcpServers`` entries of the README's MCP section, in order."""
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    section = readme.split("## Use it from an MCP client", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```json\n(.*?)```", section, re.DOTALL)
    return [json.loads(block)["mcpServers"]["browserhost"] for block in blocks]


async def test_the_readme_stdio_configuration_works_as_written(
    setup: Setup, site: str, browser_env: dict[str, str]
) -> None:
    """The "done when" of the issue: paste the README's entry, then open, read, click by text
    and capture. Only the data dir is isolated (by environment, so the args stay as written)."""
    entry = _readme_servers()[0]  # the first one shown: the checkout's own command
    command = shutil.which(entry["command"], path=str(Path(sys.executable).parent))
    assert command is not None
    parameters = StdioServerParameters(
        command=command,
        args=entry["args"],
        env={
            "BROWSERHOST_DATA_DIR": str(setup.data_dir),
            "BROWSERHOST_PROVIDERS": "stub,chromium",
            **browser_env,
        },
        cwd=setup.project,
    )
    with anyio.fail_after(BROWSER_WAIT_S), (setup.logs / "readme.log").open("w") as errlog:
        async with Client(stdio_client(parameters, errlog=errlog)) as client:
            await call_ok(client, "browser_open", {"url": f"{site}/"})
            page = await call_ok(client, "browser_snapshot")
            clicked = await call_ok(client, "browser_click", {"text": "About"})
            captured = await client.call_tool("browser_capture", {})
    assert page["title"] == "Home page"
    assert clicked["url"] == f"{site}/about"
    assert image_of(captured).startswith(b"\x89PNG")


async def test_the_readme_http_configuration_works_as_written(
    chromium_server: LiveServer, site: str
) -> None:
    [entry] = [entry for entry in _readme_servers() if entry.get("type") == "http"]
    url = entry["url"].replace("http://127.0.0.1:7878", chromium_server.url)
    headers = {
        name: value.replace("<the token serve printed>", chromium_server.token)
        for name, value in entry["headers"].items()
    }
    async with httpx2.AsyncClient(headers=headers, trust_env=False, timeout=60) as http:
        with anyio.fail_after(BROWSER_WAIT_S):
            async with Client(streamable_http_client(url, http_client=http)) as client:
                await call_ok(client, "browser_open", {"url": f"{site}/"})
                clicked = await call_ok(client, "browser_click", {"text": "About"})
                captured = await client.call_tool("browser_capture", {})
    assert clicked["url"] == f"{site}/about"
    assert image_of(captured).startswith(b"\x89PNG")
