"""Latency of ``browser_click`` and ``browser_snapshot`` over stdio MCP, against the same calls
made directly with Playwright on the same page.

    .venv/bin/python benches/bench_mcp.py [--rounds 50] [--chromium /usr/bin/chromium]

The MCP side is what an agent pays: the official SDK client spawns ``browserhost mcp`` (an
embedded host with the Chromium provider) and times each ``tools/call`` round trip. To show
where the time goes, the same actions are also timed through ``Host.dispatch`` in this
process (no MCP). The direct side launches the same Chromium with the provider's flags in
this process and times:

- click: ``locator.click()`` on the same button;
- snapshot: ``locator("body").aria_snapshot()`` (Playwright's own page read, the one
  @playwright/mcp returns) and the provider's ``snapshot.js`` evaluated directly (the same
  page read without MCP, the host and the provider around it).

Prints a table of medians with ratios and writes ``benches/results/bench_mcp.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from playwright.async_api import async_playwright

from browserhost.contract import Context
from browserhost.contract.limits import SNAPSHOT_ELEMENTS_MAX, SNAPSHOT_TEXT_MAX
from browserhost.host import Host
from browserhost.providers.chromium import pagescript
from browserhost.providers.chromium.launch import LAUNCH_FLAGS

RESULTS = Path(__file__).parent / "results" / "bench_mcp.json"
WARMUP = 5

PAGE = (
    "<!doctype html><title>Bench page</title><body>"
    "<h1>A page with some content</h1>"
    "<nav>" + "".join(f"<a href='/p{n}'>Link {n}</a> " for n in range(30)) + "</nav>"
    "<form><label>Name <input id=name></label><label>Mail <input id=mail type=email></label>"
    "<select id=pick><option>a</option><option>b</option></select></form>"
    + "".join(f"<p>Paragraph {n}: lorem ipsum dolor sit amet.</p>" for n in range(40))
    + '<button id=inc onclick="count.textContent = +count.textContent + 1">Add one</button>'
    "<output id=count>0</output></body>"
).encode()


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@contextmanager
def serve_page() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


async def timed(call: Callable[[], Awaitable[object]], rounds: int) -> list[float]:
    """Milliseconds per call, after a warm-up."""
    for _ in range(WARMUP):
        await call()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


async def over_mcp(url: str, chromium: str, rounds: int) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as scratch:
        project, data_dir = Path(scratch) / "project", Path(scratch) / "data"
        project.mkdir()
        parameters = StdioServerParameters(
            command=sys.executable,
            args=["-m", "browserhost", "mcp", "--select", "chromium"],
            env={
                "BROWSERHOST_DATA_DIR": str(data_dir),
                "BROWSERHOST_PROVIDERS": "chromium",
                "BROWSERHOST_CHROMIUM": chromium,
            },
            cwd=project,
        )
        async with Client(stdio_client(parameters), read_timeout_seconds=60) as client:

            async def call(tool: str, arguments: dict[str, Any]) -> None:
                result = await client.call_tool(tool, arguments)
                if result.is_error:
                    texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
                    raise RuntimeError(f"{tool}: {texts}")

            await call("browser_open", {"url": url})
            return {
                "click": await timed(lambda: call("browser_click", {"selector": "#inc"}), rounds),
                "snapshot": await timed(lambda: call("browser_snapshot", {}), rounds),
            }


async def in_host(url: str, chromium: str, rounds: int) -> dict[str, list[float]]:
    os.environ["BROWSERHOST_CHROMIUM"] = chromium
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch))
        try:
            host.catalog.discover(["chromium"])
            host.select("chromium")
            context = Context(directory=scratch, session_id="bench")
            await host.dispatch("browser.open", {"url": url}, context)
            click = {"selector": "#inc"}
            return {
                "click": await timed(
                    lambda: host.dispatch("browser.click", click, context), rounds
                ),
                "snapshot": await timed(
                    lambda: host.dispatch("browser.snapshot", {}, context), rounds
                ),
            }
        finally:
            await host.aclose()


async def with_playwright(url: str, chromium: str, rounds: int) -> dict[str, list[float]]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=chromium, headless=True, args=list(LAUNCH_FLAGS)
        )
        try:
            context = await browser.new_context(viewport={"width": 1280, "height": 800})
            page = await context.new_page()
            await page.goto(url)
            button = page.locator("css=#inc")
            body = page.locator("body")
            request = {
                "op": "snapshot",
                "scope": None,
                "textMax": SNAPSHOT_TEXT_MAX,
                "elementsMax": SNAPSHOT_ELEMENTS_MAX,
            }
            return {
                "click": await timed(button.click, rounds),
                "snapshot": await timed(body.aria_snapshot, rounds),
                "snapshot.js": await timed(
                    lambda: page.evaluate(pagescript.source(), request), rounds
                ),
            }
        finally:
            await browser.close()


@dataclass(frozen=True)
class Row:
    action: str
    direct_call: str
    mcp_median_ms: float
    host_median_ms: float
    direct_median_ms: float
    ratio: float
    """stdio MCP over direct Playwright."""


def median(samples: list[float]) -> float:
    return round(statistics.median(samples), 2)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    options = parser.parse_args()
    with serve_page() as url:
        mcp = await over_mcp(url, options.chromium, options.rounds)
        hosted = await in_host(url, options.chromium, options.rounds)
        direct = await with_playwright(url, options.chromium, options.rounds)
    compared = [
        ("browser_click", "click", "locator.click()", "click"),
        ("browser_snapshot", "snapshot", 'locator("body").aria_snapshot()', "snapshot"),
        ("browser_snapshot", "snapshot", "page.evaluate(snapshot.js)", "snapshot.js"),
    ]
    rows = [
        Row(
            tool,
            call,
            median(mcp[ours]),
            median(hosted[ours]),
            median(direct[theirs]),
            round(statistics.median(mcp[ours]) / statistics.median(direct[theirs]), 2),
        )
        for tool, ours, call, theirs in compared
    ]
    print(f"median of {options.rounds} calls after {WARMUP} warm-up, one page, headless Chromium")
    header = (
        f"{'tool':<18} {'stdio MCP ms':>13} {'host ms':>8} {'Playwright ms':>14} {'ratio':>6}"
        "  direct call"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        print(
            f"{row.action:<18} {row.mcp_median_ms:>13.2f} {row.host_median_ms:>8.2f} "
            f"{row.direct_median_ms:>14.2f} {row.ratio:>5.2f}x  {row.direct_call}"
        )
    print("ratio = stdio MCP / Playwright; host = Host.dispatch in this process, no MCP")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "rounds": options.rounds,
                "warmup": WARMUP,
                "chromium": options.chromium,
                "python": platform.python_version(),
                "machine": platform.machine(),
                "rows": [asdict(row) for row in rows],
                "samples_ms": {"mcp": mcp, "host": hosted, "playwright": direct},
            },
            indent=2,
        )
        + "\n"
    )
    print(f"written to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
