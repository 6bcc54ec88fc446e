"""What a Selenium Grid costs an agent: click latency and new-session time, Grid against local.

One run starts a Grid 4 standalone on loopback (the jar, Java and chromedriver that
``scripts/ensure-grid`` installs; Debian's Chromium on its node) and measures, interleaved so
drift hits every path alike:

- **the provider**: the chromium provider with its browsers on this machine, and with
  ``BROWSERHOST_CHROMIUM_GRID`` pointed at the Grid. A click is ``browser.click`` through
  ``ChromiumProvider.answer`` (its checks and its wait for the page to settle included); a
  new session is the first action of a new agent session (``browser.open``), which on a Grid
  starts a browser of its own. Each Grid session is ended before the next is timed.
- **the two ways Playwright reaches a Grid browser**, bare Playwright without the provider:
  a W3C ``POST /session`` and ``connect_over_cdp`` to the session's ``se:cdp`` (what the
  provider does), and Playwright's own Grid support (``SELENIUM_REMOTE_URL`` with
  ``chromium.launch``), next to a local ``chromium.launch``. A new session is launch (or
  session and connection), context, page and the first page loaded; a click is
  ``locator.click()``.

    .venv/bin/python benches/bench_grid.py [--clicks 30] [--sessions 8]

Prints medians and the ratio of each to its local row, and writes
``benches/results/bench_grid.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Browser, Page, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.providers.chromium.grid_server import running_grid, write_config
from tests.providers.chromium.site import serving

from browserhost.contract import Context, ProviderRequest, normalize
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider
from browserhost.providers.chromium.grid import JSON_UTF8, chromium_capabilities
from browserhost.providers.chromium.launch import LAUNCH_FLAGS, find_chromium, sandboxed

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benches" / "results" / "bench_grid.json"
SLOTS = 4
"""One session per path held for the clicks, and one more being timed as new."""
IDLE_S = 60.0


@contextmanager
def standalone_grid(chromium: str) -> Iterator[str]:
    """A Grid 4 standalone on loopback, started as the Grid tests start theirs, with
    :data:`SLOTS` Chromium sessions; its address."""
    with tempfile.TemporaryDirectory(prefix="bench-grid-") as folder:
        config = write_config(
            Path(folder), chromium, slots=SLOTS, queue_timeout_s=30, session_timeout_s=120
        )
        with running_grid(config) as grid:
            yield grid.address


class Clock:
    """The provider's clock for idleness: moved on to end a session when the bench wants."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Agent:
    """One provider as the host drives it; ``session`` names the agent session."""

    def __init__(self, provider: ChromiumProvider, clock: Clock) -> None:
        self.provider = provider
        self.clock = clock

    async def __call__(self, session: str, action: str, **parameters: object) -> None:
        call = normalize(action, parameters)
        context = Context(directory="/bench", session_id=session)
        answer = await self.provider.answer(
            ProviderRequest("bench", call.name, call.parameters, context)
        )
        if answer["ok"] is not True:
            raise RuntimeError(f"{action} failed: {answer}")

    async def end_sessions(self) -> None:
        """End every session now, as going idle does (on a Grid: the Grid session too)."""
        self.clock.now += IDLE_S + 1
        await self.provider.close_idle()


class GridSessions:
    """Bare Playwright on a Grid browser the way the provider reaches it: ``POST /session``,
    then ``connect_over_cdp`` to its ``se:cdp``."""

    def __init__(self, playwright: Playwright, address: str, chromium: ChromiumConfig) -> None:
        self.playwright = playwright
        self.http = httpx.AsyncClient(base_url=address, trust_env=False, timeout=60)
        self.capabilities = chromium_capabilities(chromium)
        self.sessions: dict[Browser, str] = {}

    async def browser(self) -> Browser:
        answer = (
            await self.http.post("/session", json=self.capabilities, headers=JSON_UTF8)
        ).json()["value"]
        browser = await self.playwright.chromium.connect_over_cdp(answer["capabilities"]["se:cdp"])
        self.sessions[browser] = answer["sessionId"]
        return browser

    async def end(self, browser: Browser) -> None:
        await browser.close()
        await self.http.delete(f"/session/{self.sessions.pop(browser)}")

    async def aclose(self) -> None:
        for browser in list(self.sessions):
            await self.end(browser)
        await self.http.aclose()


@asynccontextmanager
async def remote_url_playwright(address: str) -> AsyncIterator[Playwright]:
    """A Playwright whose ``chromium.launch`` asks the Grid (``SELENIUM_REMOTE_URL`` is read
    by its driver process, which inherits it when it starts)."""
    os.environ["SELENIUM_REMOTE_URL"] = address
    try:
        manager = async_playwright()
        playwright = await manager.start()
    finally:
        del os.environ["SELENIUM_REMOTE_URL"]
    try:
        yield playwright
    finally:
        await playwright.stop()


async def _ms(work: Awaitable[object]) -> float:
    """How long ``work`` (a coroutine not yet started) takes, in ms."""
    started = time.perf_counter()
    await work
    return (time.perf_counter() - started) * 1000


async def _first_page(browser: Browser, url: str) -> Page:
    page = await (await browser.new_context()).new_page()
    await page.goto(url)
    return page


async def bench(clicks: int, sessions: int) -> dict[str, Any]:
    executable = find_chromium(ChromiumConfig.from_env().executable)
    results: dict[str, Any] = {"clicks": clicks, "sessions": sessions}
    with serving() as site, standalone_grid(executable) as address:
        button = site.url("/button")
        local_clock, grid_clock = Clock(), Clock()
        local = Agent(
            ChromiumProvider(
                ChromiumConfig(executable=executable, idle_s=IDLE_S), clock=local_clock
            ),
            local_clock,
        )
        grid = Agent(
            ChromiumProvider(ChromiumConfig(grid=address, idle_s=IDLE_S), clock=grid_clock),
            grid_clock,
        )
        agents = {"local": local, "grid": grid}
        try:
            results["provider"] = await _provider_rows(agents, button, clicks, sessions)
        finally:
            for agent in agents.values():
                await agent.provider.aclose()
        results["playwright"] = await _playwright_rows(
            address, executable, button, clicks, sessions
        )
    return results


async def _provider_rows(
    agents: dict[str, Agent], button: str, clicks: int, sessions: int
) -> dict[str, dict[str, float]]:
    new: dict[str, list[float]] = {name: [] for name in agents}
    for agent in agents.values():  # the local browser starts; the Playwright driver too
        await agent("warm-up", "browser.open", url=button)
        await agent.end_sessions()
    for i in range(sessions):
        for name, agent in agents.items():
            new[name].append(await _ms(agent(f"new-{i}", "browser.open", url=button)))
            await agent.end_sessions()
    click: dict[str, list[float]] = {name: [] for name in agents}
    for agent in agents.values():
        await agent("clicks", "browser.open", url=button)
    for _ in range(clicks + 2):
        for name, agent in agents.items():
            click[name].append(await _ms(agent("clicks", "browser.click", selector="#toggle")))
    return {
        name: {
            "click_ms": statistics.median(click[name][2:]),
            "new_session_ms": statistics.median(new[name]),
        }
        for name in agents
    }


async def _playwright_rows(
    address: str, executable: str, button: str, clicks: int, sessions: int
) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    async with async_playwright() as playwright, remote_url_playwright(address) as remote:
        grid = GridSessions(playwright, address, ChromiumConfig())

        async def local_launch() -> Browser:
            return await playwright.chromium.launch(
                executable_path=executable, chromium_sandbox=sandboxed(), args=list(LAUNCH_FLAGS)
            )

        async def remote_launch() -> Browser:
            return await remote.chromium.launch(args=list(LAUNCH_FLAGS), timeout=60_000)

        starts: dict[str, Callable[[], Awaitable[Browser]]] = {
            "local launch": local_launch,
            "se:cdp (connect_over_cdp)": grid.browser,
            "SELENIUM_REMOTE_URL (launch)": remote_launch,
        }
        failed: dict[str, str] = {}
        try:
            await (await remote_launch()).close()
        except PlaywrightError as exc:
            failed["SELENIUM_REMOTE_URL (launch)"] = str(exc).strip().splitlines()[0]
            del starts["SELENIUM_REMOTE_URL (launch)"]

        async def new_session(name: str) -> float:
            started = time.perf_counter()
            browser = await starts[name]()
            await _first_page(browser, button)
            took = (time.perf_counter() - started) * 1000
            await (grid.end(browser) if browser in grid.sessions else browser.close())
            return took

        new: dict[str, list[float]] = {name: [] for name in starts}
        for _ in range(sessions):
            for name in starts:
                new[name].append(await new_session(name))
        held = {name: await starts[name]() for name in starts}
        pages = {name: await _first_page(browser, button) for name, browser in held.items()}
        click: dict[str, list[float]] = {name: [] for name in starts}
        for _ in range(clicks + 2):
            for name, page in pages.items():
                click[name].append(await _ms(page.locator("#toggle").click()))
        for browser in held.values():
            await (grid.end(browser) if browser in grid.sessions else browser.close())
        await grid.aclose()
        for name in starts:
            rows[name] = {
                "click_ms": statistics.median(click[name][2:]),
                "new_session_ms": statistics.median(new[name]),
            }
    return {"rows": rows, "failed": failed}


def report(results: dict[str, Any]) -> None:
    print("Through the chromium provider (what an agent waits for):")
    _table(results["provider"], "local", {"local": "local", "grid": "Grid (se:cdp)"})
    print("\nBare Playwright, the two ways to a Grid browser:")
    rows = results["playwright"]["rows"]
    _table(rows, "local launch", {name: name for name in rows})
    for name, why in results["playwright"]["failed"].items():
        print(f"{name}: does not work here ({why})")


def _table(rows: dict[str, dict[str, float]], local: str, names: dict[str, str]) -> None:
    base = rows[local]
    print(f"{'path':<30} {'click ms':>9} {'ratio':>6} {'new session ms':>15} {'ratio':>6}")
    for key, name in names.items():
        row = rows[key]
        print(
            f"{name:<30} {row['click_ms']:>9.1f} {row['click_ms'] / base['click_ms']:>6.2f} "
            f"{row['new_session_ms']:>15.1f} "
            f"{row['new_session_ms'] / base['new_session_ms']:>6.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30, help="timed clicks per path")
    parser.add_argument("--sessions", type=int, default=8, help="timed new sessions per path")
    arguments = parser.parse_args()
    results = asyncio.run(bench(arguments.clicks, arguments.sessions))
    report(results)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nwrote {RESULTS}")


if __name__ == "__main__":
    main()
