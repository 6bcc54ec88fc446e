"""Chromium's memory per agent session: the chromium provider against Playwright itself.

    .venv/bin/python benches/bench_memory.py [--sessions 8]

Opens the same page in ``--sessions`` sessions through ``ChromiumProvider`` (each session its
own browser context, as the host gives it), then closes it and does the same with bare
Playwright (one context and page per session, same browser build and flags), and reads the
proportional set size (PSS, shared pages split between the processes that share them) of all
the browser's processes after each. Target: no more than Playwright (ratio at most ~1.0).

Prints the totals and the cost per session beyond the first, with the ratio, and writes
``benches/results/bench_memory.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

from playwright.async_api import async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.processes import chromium_processes
from tests.providers.chromium.site import serving

from browserhost.contract import Context, ProviderRequest, normalize
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider
from browserhost.providers.chromium.launch import LAUNCH_FLAGS, find_chromium, sandboxed

RESULTS = Path(__file__).parent / "results" / "bench_memory.json"
SETTLE_S = 2.0
"""Time for the renderers to finish their first layout and let go of start-up memory."""


def pss_mib(pid: int) -> float:
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:  # exited between listing and reading
        return 0.0
    for line in rollup.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return 0.0


def browser_mib() -> float:
    return sum(pss_mib(pid) for pid in chromium_processes(os.getpid()))


async def settled_reading() -> float:
    await asyncio.sleep(SETTLE_S)  # memory has no event to wait on
    return browser_mib()


async def through_provider(executable: str, url: str, sessions: int) -> list[float]:
    provider = ChromiumProvider(ChromiumConfig(executable=executable))
    readings = []
    try:
        for number in range(sessions):
            context = Context(directory="/bench", session_id=f"s{number}")
            for action, parameters in (("browser.open", {"url": url}), ("browser.snapshot", {})):
                call = normalize(action, parameters)
                answer = await provider.answer(
                    ProviderRequest(f"r{number}{action}", call.name, call.parameters, context)
                )
                if answer["ok"] is not True:
                    raise RuntimeError(f"{action} failed: {answer}")
            if number in (0, sessions - 1):
                readings.append(await settled_reading())
    finally:
        await provider.aclose()
    return readings


async def with_playwright(executable: str, url: str, sessions: int) -> list[float]:
    readings = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=executable, chromium_sandbox=sandboxed(), args=list(LAUNCH_FLAGS)
        )
        try:
            for number in range(sessions):
                page = await (
                    await browser.new_context(viewport={"width": 1280, "height": 800})
                ).new_page()
                await page.goto(url)
                await page.locator("body").aria_snapshot()
                if number in (0, sessions - 1):
                    readings.append(await settled_reading())
        finally:
            await browser.close()
    return readings


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=8)
    options = parser.parse_args()
    executable = find_chromium(ChromiumConfig.from_env().executable)
    with serving() as site:
        url = site.url("/many")
        ours = await through_provider(executable, url, options.sessions)
        await asyncio.sleep(1)  # the first browser's processes are gone before the second starts
        theirs = await with_playwright(executable, url, options.sessions)
    per_ours = (ours[1] - ours[0]) / (options.sessions - 1)
    per_theirs = (theirs[1] - theirs[0]) / (options.sessions - 1)
    print(f"Chromium PSS with {options.sessions} sessions on a page of over a hundred controls")
    print(f"{'':34} {'provider':>10} {'Playwright':>11} {'ratio':>7}")
    print(f"{'one session, MiB':34} {ours[0]:10.1f} {theirs[0]:11.1f} {ours[0] / theirs[0]:6.2f}x")
    print(
        f"{f'{options.sessions} sessions, MiB':34} {ours[1]:10.1f} {theirs[1]:11.1f} "
        f"{ours[1] / theirs[1]:6.2f}x"
    )
    print(
        f"{'each session after the first, MiB':34} {per_ours:10.1f} {per_theirs:11.1f} "
        f"{per_ours / per_theirs:6.2f}x"
    )
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "sessions": options.sessions,
                "provider_mib": ours,
                "playwright_mib": theirs,
                "per_session_mib": {"provider": per_ours, "playwright": per_theirs},
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
