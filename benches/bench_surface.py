"""The viewer's picture: frames per second, and how soon a key shows.

Both measured through a real host (the app on a loopback port, the chromium provider, the
viewer's WebSocket with a client that draws instantly) and, in the same run, straight from the
DevTools screencast of a page in the same browser build, as the baseline:

* frames per second delivered while a 1280x800 page animates (target: at least 30);
* input to picture: a key pressed (through the viewer's socket, or CDP ``Input``) until the
  first picture after it arrives, on a still page with a focused text field; median of many.

    .venv/bin/python benches/bench_surface.py [--seconds 5] [--keys 30]

Prints a table and writes ``benches/results/bench_surface.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
import websockets
from playwright.async_api import CDPSession, async_playwright

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


async def through_host(chromium: str, seconds: float, keys: int) -> dict[str, float]:
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
            return await _drive(host, port, seconds, keys)
        finally:
            server.should_exit = True
            await serving_task


async def _drive(host: Host, port: int, seconds: float, keys: int) -> dict[str, float]:
    animated = await _serve_html(ANIMATED)
    still = await _serve_html(STILL)
    await host.dispatch("browser.open", {"url": animated})
    arrived: asyncio.Queue[float] = asyncio.Queue()
    async with websockets.connect(f"ws://127.0.0.1:{port}/api/surface", max_size=None) as socket:
        await socket.send(json.dumps({"t": "hello", "token": TOKEN, "viewer": "bench"}))

        async def read() -> None:
            async for message in socket:
                if isinstance(message, bytes):
                    arrived.put_nowait(time.perf_counter())
                    await socket.send(json.dumps({"t": "drawn"}))  # drawn at once

        reading = asyncio.ensure_future(read())
        fps = await _rate(arrived, seconds)
        await host.dispatch("browser.open", {"url": still})
        await host.dispatch("browser.click", {"selector": "#f"})

        async def press() -> None:
            events = [
                {"type": "key", "action": "down", "key": "a", "code": "KeyA"},
                {"type": "key", "action": "up", "key": "a", "code": "KeyA"},
            ]
            await socket.send(json.dumps({"t": "input", "events": events}))

        latency = await _key_latencies(arrived, press, keys)
        reading.cancel()
    return {"fps": fps, "key_ms": latency}


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
    args = parser.parse_args()
    chromium = find_chromium(ChromiumConfig.from_env().executable)
    baseline = await direct(chromium, args.seconds, args.keys)
    viewer = await through_host(chromium, args.seconds, args.keys)
    rows = [
        ("frames per second (animating, 1280x800)", baseline["fps"], viewer["fps"]),
        ("key to picture, median ms", baseline["key_ms"], viewer["key_ms"]),
    ]
    print(f"{'':42} {'CDP screencast':>15} {'viewer':>10} {'ratio':>7}")
    for name, base, measured in rows:
        print(f"{name:42} {base:15.1f} {measured:10.1f} {measured / base:6.2f}x")
    verdict = "meets" if viewer["fps"] >= FPS_TARGET else "misses"
    print(f"\nviewer frame rate {viewer['fps']:.1f}/s {verdict} the target of {FPS_TARGET:g}/s")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"baseline": baseline, "viewer": viewer}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
