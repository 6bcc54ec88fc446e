"""What the chromium provider costs over Playwright itself, action by action.

For each of the ten actions: the median time of the action through
``ChromiumProvider.answer`` (validation of the answer and the wire JSON included) against the
same thing done directly with Playwright on a page of the same browser build, interleaved so
drift hits both. Then the snapshot of a 1,000-element page against Playwright's own
``page.locator("body").aria_snapshot()``; the target is at most ~1.2x. And the ``find`` verb on
that page against ``page.get_by_text(...)`` reading its matches.

    .venv/bin/python benches/bench_actions.py [--runs 30]

Prints a table and writes ``benches/results/bench_actions.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.async_api import Page, ViewportSize, async_playwright

from browserhost.contract import Context, ProviderRequest, normalize, verb_name
from browserhost.providers.chromium import INSPECT_STYLES, ChromiumConfig, ChromiumProvider
from browserhost.providers.chromium.launch import LAUNCH_FLAGS, find_chromium, sandboxed

RESULTS = Path(__file__).parent / "results" / "bench_actions.json"
SNAPSHOT_TARGET_RATIO = 1.2
SIZES: tuple[ViewportSize, ViewportSize] = (
    {"width": 390, "height": 844},
    {"width": 1280, "height": 800},
)


def _page(title: str, body: str) -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


def _thousand() -> str:
    rows = "".join(
        f'<div class="row"><a href="/item/{i}">Item {i}</a> <span>Some text for row {i}</span>'
        f"<button>Action {i}</button></div>"
        for i in range(500)
    )
    return _page("Thousand", f"<h1>1,000 interactive elements</h1>{rows}")


PAGES = {
    "/a": _page("A", "<h1>Page A</h1><p>First page.</p>"),
    "/b": _page("B", "<h1>Page B</h1><p>Second page.</p>"),
    "/form": _page(
        "Form",
        '<form action="/b"><label>Query <input id="q" name="q"></label>'
        '<button id="toggle" type="button" onclick="this.textContent += \'!\'">Toggle</button>'
        "</form>" + "".join(f"<p>Paragraph {i}</p>" for i in range(200)),
    ),
    "/thousand": _thousand(),
}


@contextmanager
def serving() -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            body = PAGES.get(self.path.split("?")[0], _page("404", "")).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class Through:
    """Actions through the provider, as the host sends them."""

    def __init__(self, provider: ChromiumProvider) -> None:
        self.provider = provider
        self.context = Context(directory="/bench", session_id="bench")

    async def __call__(self, action: str, **parameters: object) -> None:
        if verb_name(action) is not None:
            request = ProviderRequest("bench", action, parameters, self.context)
        else:
            call = normalize(action, parameters)
            request = ProviderRequest("bench", call.name, call.parameters, self.context)
        answer = await self.provider.answer(request)
        if answer["ok"] is not True:
            raise RuntimeError(f"{action} failed: {answer}")


async def _timed(call: Callable[[], Awaitable[object]], samples: list[float]) -> None:
    started = time.perf_counter()
    await call()
    samples.append((time.perf_counter() - started) * 1000)


async def compare(
    runs: int,
    ours: Callable[[int], Awaitable[object]],
    theirs: Callable[[int], Awaitable[object]],
    setup: Callable[[], Awaitable[object]] | None = None,
) -> tuple[float, float]:
    """Median ms of ``ours(i)`` and ``theirs(i)``, interleaved, after two warm-up rounds."""
    if setup is not None:
        await setup()
    mine: list[float] = []
    direct: list[float] = []
    for i in range(runs + 2):
        await _timed(partial(ours, i), mine)
        await _timed(partial(theirs, i), direct)
    return statistics.median(mine[2:]), statistics.median(direct[2:])


async def bench(runs: int) -> dict[str, Any]:
    executable = find_chromium(ChromiumConfig.from_env().executable)
    provider = ChromiumProvider(ChromiumConfig(executable=executable))
    ours = Through(provider)
    rows: dict[str, tuple[float, float]] = {}
    with serving() as origin:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=executable, chromium_sandbox=sandboxed(), args=list(LAUNCH_FLAGS)
            )
            page: Page = await (
                await browser.new_context(viewport={"width": 1280, "height": 800})
            ).new_page()

            async def both_on(path: str) -> None:
                await ours("browser.open", url=origin + path)
                await page.goto(origin + path)

            async def direct_open(i: int) -> None:
                await page.goto(origin + ("/a", "/b")[i % 2])
                await page.title()

            rows["open"] = await compare(
                runs,
                lambda i: ours("browser.open", url=origin + ("/a", "/b")[i % 2]),
                direct_open,
            )
            rows["snapshot"] = await compare(
                runs,
                lambda i: ours("browser.snapshot"),
                lambda i: page.locator("body").aria_snapshot(),
                setup=lambda: both_on("/form"),
            )
            rows["click"] = await compare(
                runs,
                lambda i: ours("browser.click", selector="#toggle"),
                lambda i: page.locator("#toggle").click(),
            )
            rows["type"] = await compare(
                runs,
                lambda i: ours("browser.type", selector="#q", value=f"query {i}"),
                lambda i: page.locator("#q").fill(f"query {i}"),
            )
            rows["scroll"] = await compare(
                runs,
                lambda i: ours("browser.scroll", direction=("down", "top")[i % 2]),
                lambda i: page.evaluate(
                    "(down) => { down ? scrollBy(0, innerHeight * 0.9) : scrollTo(0, 0); "
                    "return [scrollY, document.documentElement.scrollHeight]; }",
                    i % 2 == 0,
                ),
            )
            rows["inspect"] = await compare(
                runs,
                lambda i: ours("browser.inspect", selector="#toggle"),
                lambda i: page.locator("#toggle").evaluate(
                    "(el, names) => { const s = getComputedStyle(el); const r = "
                    "el.getBoundingClientRect(); return [r.x, r.y, el.textContent, "
                    "names.map((n) => s.getPropertyValue(n))]; }",
                    list(INSPECT_STYLES),
                ),
            )
            rows["capture"] = await compare(
                max(5, runs // 3),
                lambda i: ours("browser.capture"),
                lambda i: page.screenshot(type="png"),
            )
            rows["resize"] = await compare(
                runs,
                lambda i: ours("browser.resize", viewport=("mobile", "desktop")[i % 2]),
                lambda i: page.set_viewport_size(SIZES[i % 2]),
            )

            async def history_setup() -> None:
                await both_on("/a")
                await both_on("/b")

            back_ms: list[float] = []
            forward_ms: list[float] = []
            direct_back_ms: list[float] = []
            direct_forward_ms: list[float] = []
            await history_setup()
            for _ in range(runs + 2):
                await _timed(lambda: ours("browser.back"), back_ms)
                await _timed(lambda: page.go_back(), direct_back_ms)
                await _timed(lambda: ours("browser.forward"), forward_ms)
                await _timed(lambda: page.go_forward(), direct_forward_ms)
            rows["back"] = (statistics.median(back_ms[2:]), statistics.median(direct_back_ms[2:]))
            rows["forward"] = (
                statistics.median(forward_ms[2:]),
                statistics.median(direct_forward_ms[2:]),
            )

            thousand = await compare(
                runs,
                lambda i: ours("browser.snapshot"),
                lambda i: page.locator("body").aria_snapshot(),
                setup=lambda: both_on("/thousand"),
            )
            found = await compare(
                runs,
                lambda i: ours("verb.find", text=f"Action {400 + i}"),
                lambda i: page.get_by_text(f"Action {400 + i}").evaluate_all(
                    "(els) => els.map((el) => el.outerHTML)"
                ),
            )
            await browser.close()
    await provider.aclose()
    return {"actions": rows, "snapshot_1000": thousand, "find_1000": found, "runs": runs}


def report(results: dict[str, Any]) -> None:
    print(f"{'action':<10} {'provider ms':>12} {'playwright ms':>14} {'ratio':>7}")
    for action, (mine, direct) in results["actions"].items():
        print(f"{action:<10} {mine:>12.1f} {direct:>14.1f} {mine / direct:>7.2f}")
    mine, direct = results["snapshot_1000"]
    ratio = mine / direct
    target = SNAPSHOT_TARGET_RATIO
    verdict = "within" if ratio <= target else "over"
    print(
        f"\nsnapshot of a 1,000-element page: provider {mine:.1f} ms, "
        f"aria_snapshot {direct:.1f} ms, ratio {ratio:.2f} ({verdict} the {target}x target)"
    )
    mine, direct = results["find_1000"]
    print(
        f"find by text on the same page: provider verb.find {mine:.1f} ms, get_by_text "
        f"{direct:.1f} ms, ratio {mine / direct:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="timed runs per action")
    arguments = parser.parse_args()
    results = asyncio.run(bench(arguments.runs))
    report(results)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nwrote {RESULTS}")


if __name__ == "__main__":
    main()
