"""What the host itself costs: server CPU per request and requests per second as callers grow.

A real ``browserhost serve`` with the ``stub`` provider (no browser: only the host's own work)
answers ``browser.snapshot`` through the HTTP API; beside it, in the same run, a bare FastAPI
app under the same uvicorn answers an echo of the same body. Both are separate processes; the
server's CPU time is read from ``/proc`` before and after each batch. The callers are agent
sessions of their own, each on a kept-alive connection, written as bare sockets so that the
client's own work does not hide the server's.

    .venv/bin/python benches/bench_host.py [--requests 10000]

Prints CPU per request (median of batches, the two servers' batches interleaved) with the
ratio to the bare app (target: within 1.5x), and requests per second with 1, 5 and 20
sessions at once (the host must not be the bottleneck for 20 sessions). Writes
``benches/results/bench_host.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.conftest import free_port

RESULTS = Path(__file__).parent / "results" / "bench_host.json"
TOKEN = "bench-token"
TARGET_RATIO = 1.5
ACTIONS = "/api/browser-providers/actions"
ECHO_APP = """
from fastapi import FastAPI, Request
app = FastAPI()
@app.post("/api/browser-providers/actions")
async def echo(request: Request) -> dict:
    return {"ok": True, "data": await request.json()}
"""


def cpu_s(pid: int) -> float:
    """User plus system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(command: list[str], port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    # Its log goes to this bench's own stderr: a pipe nobody reads would fill and stop it.
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1, trust_env=False)  # any answer
            return process
        except httpx.TransportError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the server did not start") from None
            time.sleep(0.05)  # polling a starting process: there is no event to wait on


def _request(port: int, session: int) -> bytes:
    """An agent's snapshot request, from its own session."""
    body = json.dumps(
        {"action": "browser.snapshot", "parameters": {}, "context": {"sessionId": f"s{session}"}}
    ).encode()
    head = (
        f"POST {ACTIONS} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> None:
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"the server answered {head.splitlines()[0]!r}")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    await reader.readexactly(length)


async def batch(port: int, requests: int, callers: int) -> float:
    """Send ``requests`` from ``callers`` at once, each an agent session of its own on a
    kept-alive connection of its own, with a client as light as a socket (so that the server
    is what is measured, not the client); the seconds it took."""
    left = requests

    async def caller(session: int) -> None:
        nonlocal left
        request = _request(port, session)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while left > 0:
                left -= 1
                await _exchange(reader, writer, request)
        finally:
            writer.close()
            await writer.wait_closed()

    started = time.perf_counter()
    await asyncio.gather(*(caller(session) for session in range(callers)))
    return time.perf_counter() - started


async def measure(
    servers: dict[str, tuple[int, int]], requests: int
) -> dict[str, dict[str, float]]:
    """CPU per request (median of batches) and requests per second with 1, 5 and 20 callers,
    for each server (name: port, pid), their batches interleaved, so that whatever the
    machine does meanwhile weighs on both alike."""
    for port, _ in servers.values():
        await batch(port, 200, 4)  # warm up
    per_request: dict[str, list[float]] = {name: [] for name in servers}
    for _ in range(5):
        for name, (port, pid) in servers.items():
            before = cpu_s(pid)
            await batch(port, requests // 5, 1)
            per_request[name].append((cpu_s(pid) - before) / (requests // 5) * 1000)
    results = {name: {"cpu_ms": statistics.median(per_request[name])} for name in servers}
    for callers in (1, 5, 20):
        for name, (port, _) in servers.items():
            seconds = await batch(port, requests // 2, callers)
            results[name][f"rps_{callers}"] = (requests // 2) / seconds
    return results


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10000)
    args = parser.parse_args()
    env = {**os.environ, "BROWSERHOST_TOKEN": TOKEN, "BROWSERHOST_PROVIDERS": "stub"}
    with tempfile.TemporaryDirectory() as scratch:
        host_port, echo_port = free_port(), free_port()
        host = start(
            [sys.executable, "-m", "browserhost", "serve", "--port", str(host_port),
             "--data-dir", f"{scratch}/data", "--select", "stub", "--no-bridge"],
            host_port, env,
        )  # fmt: skip
        Path(scratch, "echo_app.py").write_text(ECHO_APP)  # noqa: ASYNC240  # before serving
        echo = start(
            [sys.executable, "-m", "uvicorn", "echo_app:app", "--port", str(echo_port),
             "--log-level", "warning", "--app-dir", scratch],
            echo_port, env,
        )  # fmt: skip
        try:
            measured = await measure(
                {"host": (host_port, host.pid), "bare": (echo_port, echo.pid)}, args.requests
            )
            ours, bare = measured["host"], measured["bare"]
        finally:
            for process in (host, echo):
                process.terminate()
                process.wait(timeout=10)
    print(f"{'':32} {'host (stub)':>12} {'bare FastAPI':>13} {'ratio':>7}")
    print(
        f"{'server CPU per request, ms':32} {ours['cpu_ms']:12.3f} {bare['cpu_ms']:13.3f} "
        f"{ours['cpu_ms'] / bare['cpu_ms']:6.2f}x"
    )
    for callers in (1, 5, 20):
        key = f"rps_{callers}"
        print(
            f"{'requests/s, ' + str(callers) + ' at once':32} {ours[key]:12.0f} {bare[key]:13.0f} "
            f"{ours[key] / bare[key]:6.2f}x"
        )
    ratio = ours["cpu_ms"] / bare["cpu_ms"]
    verdict = "within" if ratio <= TARGET_RATIO else "over"
    print(f"\nhost CPU per request {ratio:.2f}x the bare app: {verdict} the {TARGET_RATIO}x target")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"host": ours, "bare": bare}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
