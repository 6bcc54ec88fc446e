"""The agent's path: open, snapshot, click and type over stdio MCP, then a snapshot again
(``resnapshot``, see :data:`SETTLED_STEPS`), back and forward, and a snapshot a moment after
another open (:data:`LATER`), against the same steps done
directly with Playwright, and against @playwright/mcp, on the same page in one run.

    .venv/bin/python benches/bench_mcp.py [--rounds 100] [--chromium /usr/bin/chromium]
        [--without-peer] [--no-recording]

- **browserhost**: the official MCP SDK client spawns ``browserhost mcp`` (an embedded host
  with the Chromium provider) and times each ``tools/call`` round trip; it records the
  session as it does by default (its pictures taken off each action's way), or nothing with
  ``--no-recording``.
- **Playwright**: the same Chromium with the provider's flags, in this process, doing what an
  agent tool needs: ``page.goto`` (to the load event), ``locator("body").aria_snapshot()``,
  ``locator.click()``, ``locator.fill()``, ``page.go_back()``, ``page.go_forward()`` (each
  to the load event).
- **@playwright/mcp**: the peer's stdio server (installed with npm into
  ``benches/.peers/`` on first use) with the same Chromium, headless and isolated; its
  ``target`` takes the same CSS selectors; it has no forward. Left out, in one line, where
  npm cannot install it (or with ``--without-peer``).

Each round runs the steps once on each side, sides interleaved so drift hits all three and
each round started by the next side; "sequence" is the first four steps of one round
together, and "open+snap" its open and snapshot (:data:`PAIR`). Rounds open the page at two
addresses in turn (the same file), so that each open adds an entry to the session history
for back to return to, and forward to leave again.
A page load on a shared machine varies by a quarter either way, so a median needs about a
hundred rounds to hold still within a few percent. Prints medians with ratios, each with
its 95 % bootstrap interval and the target it meets, misses or cannot be told from, and
writes ``benches/results/bench_mcp.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from playwright.async_api import Page, async_playwright

import browserhost
from browserhost.providers.chromium.launch import LAUNCH_FLAGS, sandboxed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.conftest import free_port
from tests.processes import wait_until

RESULTS = Path(__file__).parent / "results" / "bench_mcp.json"
PEERS = Path(__file__).parent / ".peers"
PEER_PACKAGE = "@playwright/mcp@0.0.83"
PEER_CLI = PEERS / "node_modules" / "@playwright" / "mcp" / "cli.js"
SOURCE = Path(browserhost.__file__).resolve().parent.parent
"""Where the browserhost this bench imports lives (``src`` with ``PYTHONPATH=src``): the one
``browserhost mcp`` runs, not whichever the interpreter has installed."""
WARMUP = 3
STEPS = ("open", "snapshot", "click", "type")
SETTLED_STEPS = ("resnapshot",)
"""Steps on a page nothing has loaded into just before: a snapshot again after the type.
The snapshot right after an open meets a renderer still busy with the page it just loaded
(its first frame); @playwright/mcp's navigate answers with a snapshot of its own, and so
has waited that out before its next ``browser_snapshot``. This one compares the snapshots
themselves."""
LATER = "read later"
"""A snapshot a moment (:data:`AGENT_PAUSE_S`) after an open, in rounds of their own after
the others: an agent reads the open's answer before it asks for more, and the page has drawn
its first frame by then. What an agent's first read of a page it opened costs, on each
side."""
AGENT_PAUSE_S = 0.2
PAIR = "open+snap"
"""An open and the snapshot after it, one round's two together: what an agent waits for to
read a page it opened. The peer's navigate waits for the page's first frame and answers
with a snapshot, so its own snapshot after it meets a page already drawn and read; ours
answers at the load and leaves that frame to the snapshot."""
HISTORY_STEPS = ("back", "forward")
NOTHING_BEHIND = "no earlier page"
"""browserhost's back refused on the first page of a fresh one: every 100 documents an open
moves to a fresh page (freeing what Playwright keeps of each), and the history stays behind.
That round's back and forward are left out."""

PAGE = (
    "<!doctype html><title>Bench page</title><body>"
    "<h1>A page with some content</h1>"
    "<nav>" + "".join(f"<a href='/p{n}'>Link {n}</a> " for n in range(30)) + "</nav>"
    "<form><label>Name <input id=name></label><label>Mail <input id=mail type=email></label>"
    "<select id=pick><option>a</option><option>b</option></select></form>"
    + "".join(f"<p>Paragraph {n}: lorem ipsum dolor sit amet.</p>" for n in range(40))
    + '<button id=inc type=button onclick="count.textContent = +count.textContent + 1">'
    "Add one</button><output id=count>0</output></body>"
).encode()

Step = Callable[[int], Awaitable[object]]


def address(url: str, i: int) -> str:
    """Round ``i``'s address of the page: two in turn, so that each open is a new entry in
    the session history (an open of the address already shown would replace it)."""
    return url if i % 2 == 0 else f"{url}?again"


@contextmanager
def serve_page() -> Iterator[str]:
    """The page, served by a process of its own (Python's ``http.server``): a server thread in
    this process would wait for the interpreter lock behind whichever side's client is busy,
    and slow that side's loads, not the other's."""
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "index.html").write_bytes(PAGE)
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            url = f"http://127.0.0.1:{port}/"
            wait_until(lambda: _answers(url), f"the page server did not start on {url}")
            yield url
        finally:
            server.terminate()
            server.wait(timeout=10)


def _answers(url: str) -> bool:
    try:
        httpx.get(url, timeout=1, trust_env=False)
    except httpx.TransportError:
        return False
    return True


def _caller(client: Client) -> Callable[[str, dict[str, Any]], Awaitable[bool]]:
    """Calls a tool; ``False`` for browserhost's back refused for want of an earlier page."""

    async def call(tool: str, arguments: dict[str, Any]) -> bool:
        result = await client.call_tool(tool, arguments)
        if result.is_error:
            texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
            if tool == "browser_back" and any(NOTHING_BEHIND in text for text in texts):
                return False
            raise RuntimeError(f"{tool}: {texts}")
        return True

    return call


async def browserhost_steps(
    stack: AsyncExitStack, url: str, chromium: str, *, recording: bool = True
) -> dict[str, Step]:
    scratch = Path(stack.enter_context(tempfile.TemporaryDirectory()))
    (scratch / "project").mkdir()
    parameters = StdioServerParameters(
        command=sys.executable,
        args=["-m", "browserhost", "mcp", "--select", "chromium"],
        env={
            "BROWSERHOST_DATA_DIR": str(scratch / "data"),
            "BROWSERHOST_PROVIDERS": "chromium",
            "BROWSERHOST_CHROMIUM": chromium,
            "BROWSERHOST_RECORDING": "on" if recording else "off",
            "PYTHONPATH": str(SOURCE),
        },
        cwd=scratch / "project",
    )
    call = _caller(await stack.enter_async_context(Client(stdio_client(parameters))))
    return {
        "open": lambda i: call("browser_open", {"url": address(url, i)}),
        "snapshot": lambda i: call("browser_snapshot", {}),
        "resnapshot": lambda i: call("browser_snapshot", {}),
        "click": lambda i: call("browser_click", {"selector": "#inc"}),
        "type": lambda i: call("browser_type", {"selector": "#name", "value": f"name {i}"}),
        "back": lambda i: call("browser_back", {}),
        "forward": lambda i: call("browser_forward", {}),
    }


async def playwright_steps(stack: AsyncExitStack, url: str, chromium: str) -> dict[str, Step]:
    playwright = await stack.enter_async_context(async_playwright())
    browser = await playwright.chromium.launch(
        executable_path=chromium, chromium_sandbox=sandboxed(), args=list(LAUNCH_FLAGS)
    )
    stack.push_async_callback(browser.close)
    page: Page = await (
        await browser.new_context(viewport={"width": 1280, "height": 800})
    ).new_page()
    return {
        "open": lambda i: page.goto(address(url, i)),
        "snapshot": lambda i: page.locator("body").aria_snapshot(),
        "resnapshot": lambda i: page.locator("body").aria_snapshot(),
        "click": lambda i: page.locator("#inc").click(),
        "type": lambda i: page.locator("#name").fill(f"name {i}"),
        "back": lambda i: page.go_back(),
        "forward": lambda i: page.go_forward(),
    }


def install_peer() -> str | None:
    """Install @playwright/mcp under ``benches/.peers`` once; why not, when it cannot be."""
    if PEER_CLI.exists():
        return None
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        return "node and npm are not installed"
    done = subprocess.run(
        [npm, "install", "--prefix", str(PEERS), "--no-audit", "--no-fund", PEER_PACKAGE],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0 or not PEER_CLI.exists():
        return f"npm could not install {PEER_PACKAGE}: {done.stderr.strip()[-200:]}"
    return None


async def peer_steps(stack: AsyncExitStack, url: str, chromium: str) -> dict[str, Step]:
    scratch = Path(stack.enter_context(tempfile.TemporaryDirectory()))
    arguments = [str(PEER_CLI), "--headless", "--isolated", "--browser", "chromium"]
    arguments += ["--executable-path", chromium, "--viewport-size", "1280x800"]
    if not sandboxed():
        arguments.append("--no-sandbox")
    parameters = StdioServerParameters(command="node", args=arguments, cwd=scratch)
    call = _caller(await stack.enter_async_context(Client(stdio_client(parameters))))
    return {
        "open": lambda i: call("browser_navigate", {"url": address(url, i)}),
        "snapshot": lambda i: call("browser_snapshot", {}),
        "resnapshot": lambda i: call("browser_snapshot", {}),
        "click": lambda i: call("browser_click", {"target": "#inc", "element": "Add one"}),
        "type": lambda i: call(
            "browser_type", {"target": "#name", "element": "Name", "text": f"name {i}"}
        ),
        "back": lambda i: call("browser_navigate_back", {}),
    }


async def rounds_of(sides: dict[str, dict[str, Step]], rounds: int) -> dict[str, Any]:
    """Milliseconds per step and per sequence, for each side, interleaved by round (then the
    :data:`LATER` rounds); a side without one of the history steps leaves it out."""
    samples: dict[str, dict[str, list[float]]] = {
        side: {
            step: []
            for step in (*STEPS, "sequence", PAIR, *SETTLED_STEPS, *HISTORY_STEPS, LATER)
            if step in {*steps, "sequence", PAIR, LATER}
        }
        for side, steps in sides.items()
    }
    names = list(sides)
    for i in range(WARMUP + rounds):
        # Each round starts with another side, so that none always follows the same one
        # (and whatever that one's browser is still doing).
        for side in names[i % len(names) :] + names[: i % len(names)]:
            steps = sides[side]
            began = time.perf_counter()
            for step in STEPS:
                started = time.perf_counter()
                await steps[step](i)
                if i >= WARMUP:
                    samples[side][step].append((time.perf_counter() - started) * 1000)
            if i >= WARMUP:
                samples[side]["sequence"].append((time.perf_counter() - began) * 1000)
                taken = samples[side]
                taken[PAIR].append(taken["open"][-1] + taken["snapshot"][-1])
            for step in SETTLED_STEPS:
                started = time.perf_counter()
                await steps[step](i)
                if i >= WARMUP:
                    samples[side][step].append((time.perf_counter() - started) * 1000)
            if i == 0:
                continue  # nothing to go back to yet
            for step in HISTORY_STEPS:
                if step in steps:
                    started = time.perf_counter()
                    if await steps[step](i) is False:
                        break
                    if i >= WARMUP:
                        samples[side][step].append((time.perf_counter() - started) * 1000)
    # Rounds of their own, after the others: a pause in those would change what they time.
    for i in range(WARMUP + rounds):
        for side in names[i % len(names) :] + names[: i % len(names)]:
            await sides[side]["open"](i)
            await asyncio.sleep(AGENT_PAUSE_S)
            started = time.perf_counter()
            await sides[side]["snapshot"](i)
            if i >= WARMUP:
                samples[side][LATER].append((time.perf_counter() - started) * 1000)
    return samples


TARGETS = {"open": 1.05, "click": 1.05, "type": 1.05, "sequence": 0.80, "back": 1.1, "forward": 1.1}
"""Each step's target: browserhost over MCP at most this times Playwright in process (and the
snapshot faster than @playwright/mcp's). A run tells whether its interval (:func:`interval`)
is under the target, over it, or across it: a page load on a shared 2-core machine moves a
hundred rounds' ratio by a few percent from run to run."""
RESAMPLES = 2000


def median(samples: list[float]) -> float:
    return round(statistics.median(samples), 2)


def interval(ours: list[float], theirs: list[float]) -> tuple[float, float]:
    """A 95 % interval for ``median(ours) / median(theirs)``, resampling each side's rounds
    (a bootstrap): how far the ratio moves when the same run is drawn again."""
    draw = random.Random(0)
    ratios = sorted(
        statistics.median(draw.choices(ours, k=len(ours)))
        / statistics.median(draw.choices(theirs, k=len(theirs)))
        for _ in range(RESAMPLES)
    )
    return ratios[int(RESAMPLES * 0.025)], ratios[int(RESAMPLES * 0.975) - 1]


def verdict(low: float, high: float, target: float, named: str = "") -> str:
    """Whether a ratio whose interval is ``low``-``high`` meets an upper ``target`` (called
    ``named``), is over it, or cannot be told from it in this run."""
    named = named or f"{target:g}x"
    if high <= target:
        return f"meets {named}"
    if low > target:
        return f"over {named}"
    return f"{named} within noise"


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--without-peer", action="store_true", help="leave @playwright/mcp out")
    parser.add_argument("--no-recording", action="store_true", help="browserhost records nothing")
    options = parser.parse_args()
    without_peer = "--without-peer was given" if options.without_peer else install_peer()
    with serve_page() as url:
        async with AsyncExitStack() as stack:
            sides = {
                "browserhost": await browserhost_steps(
                    stack, url, options.chromium, recording=not options.no_recording
                ),
                "playwright": await playwright_steps(stack, url, options.chromium),
            }
            if without_peer is None:
                sides["playwright_mcp"] = await peer_steps(stack, url, options.chromium)
            samples = await rounds_of(sides, options.rounds)
    medians = {side: {k: median(v) for k, v in steps.items()} for side, steps in samples.items()}
    recording = "recording off" if options.no_recording else "recording on"
    print(
        f"median of {options.rounds} rounds after {WARMUP} warm-up, one page, headless "
        f"Chromium, browserhost's {recording}"
    )
    header = (
        f"{'step':<10} {'browserhost MCP':>16} {'Playwright':>11} {'ratio':>7} {'95 %':>11}"
        f" {'target':>20} {'@playwright/mcp':>16} {'peer/ours':>10} {'95 %':>11}"
    )
    print(header)
    print("-" * len(header))
    ours, direct = medians["browserhost"], medians["playwright"]
    peer = medians.get("playwright_mcp")
    verdicts: dict[str, str] = {}
    for step in (*STEPS, "sequence", PAIR, *SETTLED_STEPS, LATER, *HISTORY_STEPS):
        ratio = ours[step] / direct[step]
        low, high = interval(samples["browserhost"][step], samples["playwright"][step])
        if step in TARGETS:
            verdicts[step] = verdict(low, high, TARGETS[step])
        against_peer = ""
        if peer is not None and step in peer:
            p_low, p_high = interval(samples["playwright_mcp"][step], samples["browserhost"][step])
            faster = peer[step] / ours[step]
            against_peer = f" {peer[step]:>13.1f} ms {faster:>9.2f}x {p_low:>5.2f}-{p_high:<5.2f}"
            if step in (
                "snapshot",
                PAIR,
                "resnapshot",
                LATER,
            ):  # faster than the peer's: ours/peer's < 1
                verdicts[step] = verdict(1 / p_high, 1 / p_low, 1.0, "the peer's")
        elif peer is not None:
            against_peer = f" {'-':>16} {'-':>10}"
        print(
            f"{step:<10} {ours[step]:>13.1f} ms {direct[step]:>8.1f} ms {ratio:>6.2f}x"
            f" {low:>5.2f}-{high:<5.2f} {verdicts.get(step, ''):>20}{against_peer}"
        )
    print(
        "ratio = browserhost over MCP / Playwright in process; "
        "peer/ours = @playwright/mcp / browserhost; 95 % = the ratio's bootstrap interval"
    )
    if without_peer is not None:
        print(f"@playwright/mcp left out: {without_peer}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "rounds": options.rounds,
                "warmup": WARMUP,
                "chromium": options.chromium,
                "python": platform.python_version(),
                "peer": None if without_peer else PEER_PACKAGE,
                "recording": not options.no_recording,
                "medians_ms": medians,
                "targets": verdicts,
                "samples_ms": samples,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"written to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
