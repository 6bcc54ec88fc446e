"""The viewer's picture: frames per second, and how soon a key shows.

Measured through a real host (the app on a loopback port, the chromium provider, the viewer's
WebSocket) and, in the same run, straight from the DevTools screencast of a page in the same
browser build, as the baseline:

* frames per second while a 1280x800 page animates: delivered to a Python client that says
  "drawn" at once, and shown by the real viewer page in a headless Chromium beside the
  agent's (counted in that page: the animation frames at which its canvas shows a new
  picture); rounds of the two interleaved, each figure the median of its rounds, the Python
  client's the baseline of the page's (target: at least 30 shown a second);
* input to picture: a key pressed (through the viewer's socket, or CDP ``Input``) until the
  first picture after it arrives, on a still page with a focused text field; median of many.

    .venv/bin/python benches/bench_surface.py [--seconds 5] [--keys 30] [--rounds 3]

Prints a table and writes ``benches/results/bench_surface.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import uvicorn
import websockets
from playwright.async_api import Browser, CDPSession, async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.conftest import free_port

from browserhost.api.app import create_app
from browserhost.host import Host
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider
from browserhost.providers.chromium.launch import LAUNCH_FLAGS, find_chromium, sandboxed
from browserhost.providers.chromium.surface import JPEG_QUALITY

RESULTS = Path(__file__).parent / "results" / "bench_surface.json"
TOKEN = "bench-token"
FPS_TARGET = 30.0
ANIMATED = (
    "<!doctype html><title>Animated</title><style>body{margin:0}"
    "#box{width:200px;height:200px;background:#36c;animation:spin 1s linear infinite}"
    "@keyframes spin{to{transform:translateX(900px) rotate(360deg)}}</style><div id=box></div>"
)
STILL = "<!doctype html><title>Still</title><input id=f autofocus style='font-size:40px'>"
DRAW_COUNTER = """(() => {
  // Counts the animation frames at which the viewer's canvas shows a picture it did not show
  // at the one before: what a person sees change (pictures drawn twice between two frames
  // show once), whichever way the viewer draws them.
  let drawn = 0;
  let shown = 0;
  const counting = (prototype, name) => {
    const original = prototype[name];
    prototype[name] = function (...args) {
      if (this.canvas && this.canvas.id === "picture") drawn += 1;
      return original.apply(this, args);
    };
  };
  counting(CanvasRenderingContext2D.prototype, "drawImage");
  counting(ImageBitmapRenderingContext.prototype, "transferFromImageBitmap");
  let seen = 0;
  const tick = () => {
    if (drawn !== seen) shown += 1;
    seen = drawn;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.framesShown = () => [shown, performance.now()];
})();"""


async def direct(chromium: str, seconds: float, keys: int) -> dict[str, float]:
    """The screencast straight from CDP: the baseline."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=chromium, args=list(LAUNCH_FLAGS), chromium_sandbox=sandboxed()
        )
        page = await browser.new_page(viewport={"width": 1280, "height": 800})
        session = await page.context.new_cdp_session(page)
        arrived: asyncio.Queue[float] = asyncio.Queue()
        acks: set[asyncio.Future[Any]] = set()

        def on_frame(frame: dict[str, Any]) -> None:
            arrived.put_nowait(time.perf_counter())
            ack = asyncio.ensure_future(
                session.send("Page.screencastFrameAck", {"sessionId": frame["sessionId"]})
            )
            acks.add(ack)
            ack.add_done_callback(acks.discard)

        session.on("Page.screencastFrame", on_frame)
        await page.set_content(ANIMATED)
        cast = {"format": "jpeg", "quality": JPEG_QUALITY, "maxWidth": 1280, "maxHeight": 800}
        await session.send("Page.startScreencast", cast)
        fps = await _rate(arrived, seconds)
        await page.set_content(STILL)
        await page.focus("#f")
        latency = await _key_latencies(arrived, lambda: _cdp_key(session), keys)
        await browser.close()
    return {"fps": fps, "key_ms": latency}


async def _cdp_key(session: CDPSession) -> None:
    await session.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": "a", "text": "a"})
    await session.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "a"})


async def _rate(arrived: asyncio.Queue[float], seconds: float) -> float:
    await asyncio.sleep(1.0)  # let the animation and the stream get going
    while not arrived.empty():
        arrived.get_nowait()
    await asyncio.sleep(seconds)
    return arrived.qsize() / seconds


async def _key_latencies(arrived: asyncio.Queue[float], press: Any, keys: int) -> float:
    times = []
    for _ in range(keys):
        await asyncio.sleep(0.3)  # the page is still again: no picture is on its way
        while not arrived.empty():
            arrived.get_nowait()
        start = time.perf_counter()
        await press()
        shown = await asyncio.wait_for(arrived.get(), 5)
        times.append((shown - start) * 1000)
    return statistics.median(times)


async def through_host(chromium: str, seconds: float, keys: int, rounds: int) -> dict[str, Any]:
    """The same through browserhost: the host's app, the provider, the viewer's socket."""
    with tempfile.TemporaryDirectory() as data:
        host = Host(Path(data))
        provider = ChromiumProvider(ChromiumConfig(executable=chromium))
        host.catalog.install(provider.registration())
        host.select("chromium")
        port = free_port()
        server = uvicorn.Server(
            uvicorn.Config(create_app(host, TOKEN), port=port, log_level="warning")
        )
        serving_task = asyncio.ensure_future(server.serve())
        while not server.started:  # noqa: ASYNC110  # uvicorn offers a flag, not an event
            await asyncio.sleep(0.05)
        try:
            return await _drive(host, port, chromium, seconds, keys, rounds)
        finally:
            server.should_exit = True
            await serving_task


async def _drive(
    host: Host, port: int, chromium: str, seconds: float, keys: int, rounds: int
) -> dict[str, Any]:
    animated = await _serve_html(ANIMATED)
    still = await _serve_html(STILL)
    await host.dispatch("browser.open", {"url": animated})
    client_fps: list[float] = []
    page_fps: list[float] = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=chromium, args=list(LAUNCH_FLAGS), chromium_sandbox=sandboxed()
        )
        for _ in range(rounds):
            client_fps.append(await _client_rate(port, seconds))
            page_fps.append(await _page_rate(browser, port, seconds))
        await browser.close()
    await host.dispatch("browser.open", {"url": still})
    await host.dispatch("browser.click", {"selector": "#f"})
    return {
        "fps": statistics.median(client_fps),
        "page_fps": statistics.median(page_fps),
        "fps_rounds": client_fps,
        "page_fps_rounds": page_fps,
        "key_ms": await _client_keys(port, keys),
    }


async def _client_rate(port: int, seconds: float) -> float:
    """Pictures a second a client that draws nothing receives, saying "drawn" at once."""
    arrived: asyncio.Queue[float] = asyncio.Queue()
    async with _client(port, arrived):
        return await _rate(arrived, seconds)


async def _page_rate(browser: Browser, port: int, seconds: float) -> float:
    """Pictures a second the viewer page shows, by its own count and clock."""
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.add_init_script(DRAW_COUNTER)
    await page.goto(f"http://127.0.0.1:{port}/viewer/#token={TOKEN}")
    await page.wait_for_function("window.framesShown()[0] > 0", timeout=15_000)
    await asyncio.sleep(1.0)  # as _rate: let the stream get going
    shown, at = await page.evaluate("window.framesShown()")
    await asyncio.sleep(seconds)
    shown_now, at_now = await page.evaluate("window.framesShown()")
    await page.close()
    return float((shown_now - shown) / ((at_now - at) / 1000))


@contextlib.asynccontextmanager
async def _client(port: int, arrived: asyncio.Queue[float]) -> AsyncIterator[Any]:
    """A viewer's socket that notes when each picture arrives and says "drawn" at once."""
    async with websockets.connect(f"ws://127.0.0.1:{port}/api/surface", max_size=None) as socket:
        await socket.send(json.dumps({"t": "hello", "token": TOKEN, "viewer": "bench"}))
        seq = 0

        async def read() -> None:
            nonlocal seq
            async for message in socket:
                if isinstance(message, bytes):
                    arrived.put_nowait(time.perf_counter())
                    await socket.send(json.dumps({"t": "drawn", "seq": seq}))
                elif json.loads(message).get("t") == "frame":
                    seq = json.loads(message)["seq"]

        reading = asyncio.ensure_future(read())
        try:
            yield socket
        finally:
            reading.cancel()


async def _client_keys(port: int, keys: int) -> float:
    arrived: asyncio.Queue[float] = asyncio.Queue()
    async with _client(port, arrived) as socket:

        async def press() -> None:
            events = [
                {"type": "key", "action": "down", "key": "a", "code": "KeyA"},
                {"type": "key", "action": "up", "key": "a", "code": "KeyA"},
            ]
            await socket.send(json.dumps({"t": "input", "events": events}))

        return await _key_latencies(arrived, press, keys)


_PAGES: dict[str, bytes] = {}
_SERVER: list[str] = []


async def _serve_html(html: str) -> str:
    """``html`` on a loopback address of its own."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    if not _SERVER:

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = _PAGES.get(self.path, b"not found")
                self.send_response(200 if self.path in _PAGES else 404)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        _SERVER.append(f"http://127.0.0.1:{server.server_address[1]}")
    path = f"/{len(_PAGES)}"
    _PAGES[path] = html.encode()
    return _SERVER[0] + path


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--keys", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each frame rate")
    args = parser.parse_args()
    chromium = find_chromium(ChromiumConfig.from_env().executable)
    baseline = await direct(chromium, args.seconds, args.keys)
    viewer = await through_host(chromium, args.seconds, args.keys, args.rounds)
    rows = [
        ("frames per second (animating, 1280x800)", baseline["fps"], viewer["fps"]),
        ("key to picture, median ms", baseline["key_ms"], viewer["key_ms"]),
    ]
    print(f"{'':42} {'CDP screencast':>15} {'viewer':>10} {'ratio':>7}")
    for name, base, measured in rows:
        print(f"{name:42} {base:15.1f} {measured:10.1f} {measured / base:6.2f}x")
    page_fps, client_fps = viewer["page_fps"], viewer["fps"]
    print(
        f"\nthe viewer page in headless Chromium showed {page_fps:.1f} frames/s, "
        f"{page_fps / client_fps:.2f}x the {client_fps:.1f}/s the Python client received "
        f"(medians of {args.rounds} interleaved rounds of {args.seconds:g} s)"
    )
    verdict = "meets" if page_fps >= FPS_TARGET else "misses"
    print(f"viewer page frame rate {page_fps:.1f}/s {verdict} the target of {FPS_TARGET:g}/s")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"baseline": baseline, "viewer": viewer}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
