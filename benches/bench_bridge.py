"""The bridge's cost: a click sent through the bridge beside the same click done directly,
and the viewer's frame rate of a bridged browser beside the host's own.

    .venv/bin/python benches/bench_bridge.py [--runs 200] [--seconds 5]

Starts ``browserhost serve`` with the ``chromium`` and ``bridge`` providers and one
``browserhost bridge connect --provider chromium`` on the same machine, and the chromium tests'
site, all on 127.0.0.1. Each run clicks the same button through the HTTP API twice, once with
``providerId: chromium`` (the host's own Chromium) and once with ``providerId: bridge`` (the
same provider in the connecting process, reached over the bridge's WebSocket), alternating so
both see the same machine load. Both browsers are warmed up first.

Prints the median and p90 of each and the bridged median over the direct one; the difference
is what the bridge adds on loopback (a network between the two sides adds its round trip).

Then each browser opens the site's animated page and a viewer (the viewer's socket, a client
that draws each picture at once) counts the pictures it receives per second, with
``chromium`` selected and then with ``bridge``: the pictures of the bridged one cross the
bridge's socket as well as the viewer's. Writes ``benches/results/bench_bridge.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.conftest import TOKEN, start_server
from tests.providers.chromium.site import serving

RESULTS = Path(__file__).parent / "results" / "bench_bridge.json"
ACTIONS = "/api/browser-providers/actions"
SELECTION = "/api/browser-providers/selection"
WARM_UP = 10


def post(http: httpx.Client, provider: str, action: str, **parameters: object) -> float:
    context = {"sessionId": f"bench-{provider}", "directory": None}
    body = {"action": action, "parameters": parameters, "context": context, "providerId": provider}
    started = time.perf_counter()
    answer = http.post(ACTIONS, json=body)
    elapsed = time.perf_counter() - started
    if answer.status_code != 200:
        raise RuntimeError(f"{provider} {action}: {answer.text}")
    return elapsed * 1000


def wait_connected(http: httpx.Client, connector: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while True:
        rows = http.get("/api/browser-providers").json()["providers"]
        if any(row.get("bridge", {}).get("connected") for row in rows):
            return
        if connector.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("browserhost bridge connect did not connect")
        time.sleep(0.05)  # another process connects; there is no event to wait on


async def pictures_per_second(url: str, seconds: float) -> tuple[float, float]:
    """Pictures a viewer that draws at once receives per second, after a second to settle,
    and their mean size in KB."""
    socket_url = url.replace("http://", "ws://") + "/api/surface"
    async with websockets.connect(socket_url, max_size=None) as socket:
        await socket.send(json.dumps({"t": "hello", "token": TOKEN, "viewer": "bench"}))
        counted = size = 0
        started = time.perf_counter()
        settled = started + 1.0
        async for message in socket:
            if not isinstance(message, bytes):
                continue
            await socket.send(json.dumps({"t": "drawn"}))
            now = time.perf_counter()
            if now < settled:
                continue
            if now > settled + seconds:
                break
            counted += 1
            size += len(message)
    return counted / seconds, size / max(counted, 1) / 1000


def frame_rates(
    http: httpx.Client, url: str, site_origin: str, seconds: float
) -> dict[str, tuple[float, float]]:
    rates = {}
    for provider in ("chromium", "bridge"):
        http.put(SELECTION, json={"id": provider}).raise_for_status()
        post(http, provider, "browser.open", url=f"{site_origin}/ticking")
        rates[provider] = asyncio.run(pictures_per_second(url, seconds))
        # Still again, so the other browser's measurement does not share the CPU with it.
        post(http, provider, "browser.open", url=f"{site_origin}/button")
    return rates


def bench(runs: int, seconds: float) -> dict[str, Any]:
    from browserhost.providers.chromium import ChromiumConfig
    from browserhost.providers.chromium.launch import find_chromium

    chromium = find_chromium(ChromiumConfig.from_env().executable)
    with serving() as site, tempfile.TemporaryDirectory() as scratch:
        server = start_server(
            Path(scratch) / "data",
            providers="chromium,bridge",
            env={"BROWSERHOST_CHROMIUM": chromium},
        )
        env = {**os.environ, "BROWSERHOST_BRIDGE_TOKEN": TOKEN, "BROWSERHOST_CHROMIUM": chromium}
        connector = subprocess.Popen(
            [sys.executable, "-m", "browserhost", "bridge", "connect", server.url],
            env=env,
            stdin=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            with server.client() as http:
                wait_connected(http, connector)
                timings: dict[str, list[float]] = {"chromium": [], "bridge": []}
                for provider in timings:
                    post(http, provider, "browser.open", url=site.url("/button"))
                    for _ in range(WARM_UP):
                        post(http, provider, "browser.click", selector="#toggle")
                for _ in range(runs):
                    for provider, taken in timings.items():
                        taken.append(post(http, provider, "browser.click", selector="#toggle"))
                rates = frame_rates(http, server.url, site.origin, seconds)
        finally:
            connector.terminate()
            connector.wait(timeout=20)
            server.stop()
    direct, bridged = (statistics.median(timings[name]) for name in ("chromium", "bridge"))
    return {
        "runs": runs,
        "machine": platform.platform(),
        "direct_ms": {"median": direct, "p90": _p90(timings["chromium"])},
        "bridged_ms": {"median": bridged, "p90": _p90(timings["bridge"])},
        "extra_ms": bridged - direct,
        "ratio": bridged / direct,
        "viewer_fps": {"direct": rates["chromium"][0], "bridged": rates["bridge"][0]},
        "picture_kb": {"direct": rates["chromium"][1], "bridged": rates["bridge"][1]},
    }


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


def report(results: dict[str, Any]) -> None:
    print(f"click, {results['runs']} runs each        median      p90")
    for label, key in (("direct (host's chromium)", "direct_ms"), ("bridged", "bridged_ms")):
        row = results[key]
        print(f"  {label:<26} {row['median']:7.2f} ms {row['p90']:7.2f} ms")
    print(f"  bridge adds {results['extra_ms']:.2f} ms; bridged / direct = {results['ratio']:.2f}")
    fps = results["viewer_fps"]
    print("viewer, animated page           pictures/s   mean KB")
    for label, key in (("direct (host's chromium)", "direct"), ("bridged", "bridged")):
        print(f"  {label:<26} {fps[key]:7.1f} {results['picture_kb'][key]:12.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=5.0)
    arguments = parser.parse_args()
    results = bench(arguments.runs, arguments.seconds)
    report(results)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
