"""The bridge's cost: a click sent through the bridge beside the same click done directly.

    .venv/bin/python benches/bench_bridge.py [--runs 200]

Starts ``browserhost serve`` with the ``chromium`` and ``bridge`` providers and one
``browserhost bridge connect --provider chromium`` on the same machine, and the chromium tests'
site, all on 127.0.0.1. Each run clicks the same button through the HTTP API twice, once with
``providerId: chromium`` (the host's own Chromium) and once with ``providerId: bridge`` (the
same provider in the connecting process, reached over the bridge's WebSocket), alternating so
both see the same machine load. Both browsers are warmed up first.

Prints the median and p90 of each and the bridged median over the direct one; the difference
is what the bridge adds on loopback (a network between the two sides adds its round trip).
Writes ``benches/results/bench_bridge.json``.
"""

from __future__ import annotations

import argparse
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.conftest import TOKEN, start_server
from tests.providers.chromium.site import serving

RESULTS = Path(__file__).parent / "results" / "bench_bridge.json"
ACTIONS = "/api/browser-providers/actions"
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


def bench(runs: int) -> dict[str, Any]:
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
    }


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


def report(results: dict[str, Any]) -> None:
    print(f"click, {results['runs']} runs each        median      p90")
    for label, key in (("direct (host's chromium)", "direct_ms"), ("bridged", "bridged_ms")):
        row = results[key]
        print(f"  {label:<26} {row['median']:7.2f} ms {row['p90']:7.2f} ms")
    print(f"  bridge adds {results['extra_ms']:.2f} ms; bridged / direct = {results['ratio']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    arguments = parser.parse_args()
    results = bench(arguments.runs)
    report(results)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
