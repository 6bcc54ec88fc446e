"""``browserhost mcp`` over stdio, spawned and driven by the official MCP client SDK."""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import sys

import anyio
import pytest

from tests.conftest import STUB_ROW, start_server
from tests.mcp.conftest import (
    ELEVEN_TOOLS,
    Setup,
    call_ok,
    image_of,
    page_text,
    stdio_mcp,
    text_of,
)

pytestmark = pytest.mark.slow


async def test_lists_exactly_the_eleven_tools(setup: Setup) -> None:
    async with stdio_mcp(setup) as client:
        listed = await client.list_tools()
    tools = {tool.name: tool for tool in listed.tools}
    assert set(tools) == ELEVEN_TOOLS
    open_tool = tools["browser_open"]
    assert open_tool.input_schema["required"] == ["url"]
    assert "http(s) URL" in open_tool.input_schema["properties"]["url"]["description"]
    assert open_tool.input_schema["properties"]["viewport"]["enum"] == [
        "mobile",
        "tablet",
        "desktop",
        "fill",
    ]
    selector = tools["browser_click"].input_schema["properties"]["selector"]
    assert "latest browser_snapshot" in selector["description"]
    assert "Returns" in (tools["browser_capture"].description or "")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_open_snapshot_click_capture_with_the_stub(
    setup: Setup, site: str, mode: str
) -> None:
    """Both protocol eras: the 2026 one (SDK default) and the handshake one most clients use."""
    with anyio.fail_after(60):
        async with stdio_mcp(setup, "--select", "stub", mode=mode) as client:
            opened = await call_ok(client, "browser_open", {"url": f"{site}/"})
            snapshot = await client.call_tool("browser_snapshot", {})
            clicked = await call_ok(client, "browser_click", {"text": "About"})
            after = await call_ok(client, "browser_snapshot")
            captured = await client.call_tool("browser_capture", {"label": "about"})

    assert opened["title"] == "Stub home"
    text = page_text(snapshot)
    assert text.startswith(f"Stub home — {site}/")
    assert '2. `#about` a "About"' in text
    assert snapshot.structured_content is not None
    assert snapshot.structured_content["elements"][1]["selector"] == "#about"
    assert clicked == {
        "clicked": "#about",
        "label": "About",
        "url": f"{site}/about",
        "title": "About the stub",
    }
    assert after["title"] == "About the stub"

    assert not captured.is_error
    assert image_of(captured).startswith(b"\x89PNG\r\n\x1a\n")
    data = captured.structured_content
    assert data is not None
    assert "base64" not in data
    saved = setup.project / ".browserhost" / "captures"
    assert data["path"].startswith(str(saved))
    assert [path.name for path in saved.iterdir()] == [data["path"].rsplit("/", 1)[1]]


async def test_invalid_parameter_is_an_error_result_with_invalid_action(setup: Setup) -> None:
    with anyio.fail_after(60):
        async with stdio_mcp(setup, "--select", "stub") as client:
            missing = await client.call_tool("browser_click", {})
            wrong = await client.call_tool("browser_resize", {"viewport": "huge"})
            unknown = await client.call_tool("browser_teleport", {})
    for result in (missing, wrong, unknown):
        assert result.is_error
        assert text_of(result).startswith("INVALID_ACTION: ")
        assert text_of(result).endswith("Nothing was sent.")
    assert text_of(missing) == (
        "INVALID_ACTION: browser_click requires selector or text. Nothing was sent."
    )
    assert "viewport must be mobile, tablet, desktop, or fill" in text_of(wrong)


async def test_a_key_the_tool_has_no_parameter_for_is_said_to_have_done_nothing(
    setup: Setup, site: str
) -> None:
    """A misspelled optional parameter is dropped, as every unknown key is: the action runs
    without it, and its answer says the key did nothing, rather than let the agent take it
    for done."""
    with anyio.fail_after(60):
        async with stdio_mcp(setup, "--select", "stub") as client:
            opened = await call_ok(client, "browser_open", {"url": f"{site}/", "viewprt": "mobile"})
    assert opened["notice"] == (
        "'viewprt' is not a parameter of browser_open, which takes url, viewport, and did nothing."
    )
    assert opened["viewport"]["mode"] == "desktop"


async def test_no_selected_provider_is_an_error_that_says_what_to_do(setup: Setup) -> None:
    with anyio.fail_after(60):
        async with stdio_mcp(setup) as client:
            result = await client.call_tool("browser_open", {"url": "https://example.com/"})
            providers = await client.call_tool("browser_providers", {})
    assert result.is_error
    assert text_of(result).startswith("NO_PROVIDER: ")
    assert "Ask the user to choose one (available: stub)" in text_of(result)
    assert result.structured_content == {
        "code": "NO_PROVIDER",
        "error": text_of(result).removeprefix("NO_PROVIDER: "),
        "mayHaveRun": False,
    }
    assert providers.structured_content == {
        "providers": [STUB_ROW],
        "selectedId": None,
    }
    assert "None is selected" in text_of(providers)


async def test_select_at_start_is_stored_in_the_data_dir(setup: Setup) -> None:
    with anyio.fail_after(60):
        async with stdio_mcp(setup, "--select", "stub") as client:
            listing = await call_ok(client, "browser_providers")
    assert listing["selectedId"] == "stub"
    assert (
        '"selectedId": "stub"' in (setup.data_dir / "browser-provider-selection.json").read_text()
    )


async def test_two_clients_get_separate_browser_contexts(setup: Setup) -> None:
    """Two agents at once, same project and data dir: each sees only its own page."""
    with anyio.fail_after(60):
        async with (
            stdio_mcp(setup, "--select", "stub", name="first") as first,
            stdio_mcp(setup, name="second") as second,
        ):
            await call_ok(first, "browser_open", {"url": "https://site.test/about"})
            await call_ok(second, "browser_open", {"url": "https://site.test/form"})
            seen_first = await call_ok(first, "browser_snapshot")
            seen_second = await call_ok(second, "browser_snapshot")
    assert seen_first["title"] == "About the stub"
    assert seen_second["title"] == "Search"


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_capture_is_saved_into_the_client_root(setup: Setup, mode: str) -> None:
    """The client's root wins over the working directory, in both protocol eras."""
    root = setup.project.parent / "elsewhere"
    root.mkdir()
    with anyio.fail_after(60):
        async with stdio_mcp(setup, "--select", "stub", roots=root, mode=mode) as client:
            await call_ok(client, "browser_open", {"url": "https://site.test/"})
            captured = await call_ok(client, "browser_capture", {"label": "rooted"})
    assert captured["path"].startswith(str(root / ".browserhost" / "captures"))
    assert captured["path"].endswith("-rooted.png")
    assert not (setup.project / ".browserhost").exists()


async def test_forwarding_to_a_running_server(setup: Setup) -> None:
    """``--url``: the server's providers and selection; captures still land in the project."""
    server = start_server(setup.data_dir.parent / "served", extra_args=("--select", "stub"))
    try:
        with anyio.fail_after(60):
            async with stdio_mcp(setup, "--url", server.url) as client:
                listing = await call_ok(client, "browser_providers")
                await call_ok(client, "browser_open", {"url": "https://site.test/about"})
                captured = await call_ok(client, "browser_capture", {})
                invalid = await client.call_tool("browser_inspect", {})
    finally:
        server.stop()
    assert listing["selectedId"] == "stub"
    assert captured["title"] == "About the stub"
    assert captured["path"].startswith(str(setup.project / ".browserhost" / "captures"))
    assert text_of(invalid).startswith("INVALID_ACTION: selector is required for browser_inspect")


async def test_forwarding_with_a_wrong_token_says_so(setup: Setup) -> None:
    server = start_server(setup.data_dir.parent / "served", extra_args=("--select", "stub"))
    try:
        with anyio.fail_after(60):
            async with stdio_mcp(
                setup, "--url", server.url, env={"BROWSERHOST_TOKEN": "wrong"}
            ) as client:
                result = await client.call_tool("browser_snapshot", {})
    finally:
        server.stop()
    assert result.is_error
    assert text_of(result).startswith(
        "UNAUTHORIZED: The token sent is not this host's: send Authorization: Bearer <token>"
    )


async def test_a_line_that_is_not_json_gets_a_parse_error_and_serving_goes_on(
    setup: Setup,
) -> None:
    """Raw lines, as a broken client would write them; the SDK client never sends these."""
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "browserhost", "mcp", "--data-dir", str(setup.data_dir),
        cwd=setup.project,
        env={**os.environ, "BROWSERHOST_PROVIDERS": "stub"},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        async with asyncio.timeout(60):
            process.stdin.write(b"this is not json\n")
            process.stdin.write(b'{"jsonrpc": "2.0", "id": 7}\n')
            process.stdin.write(json.dumps(initialize).encode() + b"\n")
            await process.stdin.drain()
            answers = [json.loads(await process.stdout.readline()) for _ in range(3)]
            # JSON nested 100,000 deep: refused by the parser's depth limit, not a crash.
            process.stdin.write(b"[" * 100_000 + b"]" * 100_000 + b"\n")
            process.stdin.write(b'{"jsonrpc": "2.0", "id": 8, "method": "ping"}\n')
            await process.stdin.drain()
            answers += [json.loads(await process.stdout.readline()) for _ in range(2)]
    finally:
        process.kill()
        await process.wait()
    assert answers[0] == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32700, "message": "Parse error: the line is not JSON."},
    }
    assert answers[1] == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32600, "message": "Invalid request: not a JSON-RPC 2.0 message."},
    }
    assert answers[2]["id"] == 1
    assert answers[2]["result"]["serverInfo"]["name"]
    assert answers[3] == answers[0]  # the nested line: a parse error, with id null
    assert answers[4] == {"jsonrpc": "2.0", "id": 8, "result": {}}


ECHO_ONE = """
import asyncio, os
from browserhost.mcp_stdio import stdio_streams

async def main():
    async with stdio_streams() as (read, write):
        print("stray print", flush=True)
        os.system("echo stray child")
        async with read, write:
            await write.send(await read.receive())
    print("after serving", flush=True)

asyncio.run(main())
"""


@pytest.mark.parametrize("stdin", ["pipe", "file"])
async def test_stray_output_never_lands_on_the_wire(tmp_path: pathlib.Path, stdin: str) -> None:
    """While serving, what the process or its children print goes to stderr; a pipe is
    served on the event loop, a file by the SDK's own reader, and both keep the wire clean."""
    request = {"jsonrpc": "2.0", "id": 3, "method": "ping"}
    line = json.dumps(request).encode() + b"\n"
    source = tmp_path / "request.jsonl"
    source.write_bytes(line)
    with source.open("rb") as file:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", ECHO_ONE,
            stdin=asyncio.subprocess.PIPE if stdin == "pipe" else file,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        async with asyncio.timeout(60):
            out, err = await process.communicate(line if stdin == "pipe" else None)
    assert process.returncode == 0, err.decode()
    lines = out.decode().splitlines()
    assert [json.loads(lines[0]), lines[1:]] == [request, ["after serving"]]
    assert "stray print" in err.decode()
    assert "stray child" in err.decode()
