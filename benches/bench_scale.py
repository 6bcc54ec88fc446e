"""Sessions at once against a real host and real Chromium: does the host hold anyone back?

    .venv/bin/python benches/bench_scale.py [--seconds 8]

Starts ``browserhost serve --select chromium`` and the chromium tests' site on 127.0.0.1. For
1, 5 and 20 agent sessions at once (each its own browser context, on a kept-alive connection
of its own), two loops for ``--seconds`` each:

- **waiting**: a click on a button whose page then asks its server for data answered after
  250 ms; the click answers once that has arrived. Actions on real sites wait like this.
- **busy**: a snapshot and a type into a field, which the browser answers in a few ms: the
  two cores are Chromium's to share out.

Prints actions per second, the median latency, and where the CPU went in that time: the
host's own process, Playwright's driver, Chromium (all its processes summed), each in cores
busy on average. The host must not be the bottleneck: in the waiting loop actions per second
rise with the sessions; in the busy loop they level off where Chromium has the cores; the
host's share stays a small part of one core. (A single host process serves every session:
sessions, browsers and the control gate live in it, so it is not run under several workers.)

Writes ``benches/results/bench_scale.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.conftest import LiveServer, start_server
from tests.processes import chromium_processes, descendants
from tests.providers.chromium.site import Site, serving

RESULTS = Path(__file__).parent / "results" / "bench_scale.json"
ACTIONS = "/api/browser-providers/actions"
SESSIONS = (1, 5, 20)
Step = tuple[str, dict[str, object]]
LOOPS: dict[str, tuple[str, list[Step]]] = {
    "waiting": ("/later", [("browser.click", {"selector": "#fetch"})]),
    "busy": (
        "/form",
        [("browser.snapshot", {}), ("browser.type", {"selector": "#q", "value": "typed"})],
    ),
}


def cpu_s(pid: int) -> float:
    """User plus system CPU seconds of a process so far; 0 for one that has exited."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_by_part(host_pid: int) -> dict[str, float]:
    """CPU seconds so far of the host, its Playwright driver and Chromium."""
    browsers = chromium_processes(host_pid)
    drivers = [pid for pid, process in descendants(host_pid).items() if pid not in browsers]
    return {
        "host": cpu_s(host_pid),
        "driver": sum(cpu_s(pid) for pid in drivers),
        "chromium": sum(cpu_s(pid) for pid in browsers),
    }


def run(
    server: LiveServer, site: Site, loop: str, sessions: int, seconds: float
) -> dict[str, float]:
    """``sessions`` going round ``loop`` at once for ``seconds``: actions per second, the
    median ms, and the cores each part kept busy."""
    path, steps = LOOPS[loop]
    ready = threading.Barrier(sessions + 1)
    go, stop = threading.Event(), threading.Event()
    lock = threading.Lock()
    latencies: list[float] = []
    failures: list[str] = []

    def session(number: int) -> None:
        context = {"sessionId": f"{loop}-{sessions}-{number}", "directory": None}
        with server.client() as http:

            def act(action: str, parameters: dict[str, object]) -> None:
                body = {"action": action, "parameters": parameters, "context": context}
                begun = time.perf_counter()
                answer = http.post(ACTIONS, json=body)
                took = (time.perf_counter() - begun) * 1000
                with lock:
                    if answer.status_code != 200:
                        failures.append(answer.json().get("code", str(answer.status_code)))
                    elif go.is_set() and not stop.is_set():
                        latencies.append(took)

            act("browser.open", {"url": site.url(path)})
            ready.wait()
            go.wait()
            while not stop.is_set():
                for action, parameters in steps:
                    act(action, parameters)

    threads = [threading.Thread(target=session, args=(n,)) for n in range(sessions)]
    for thread in threads:
        thread.start()
    ready.wait()  # every session has its context and its page
    before = cpu_by_part(server.process.pid)
    go.set()
    time.sleep(seconds)  # the sessions run meanwhile; nothing to wait on but the clock
    stop.set()
    after = cpu_by_part(server.process.pid)
    for thread in threads:
        thread.join(timeout=60)
    if failures:
        raise RuntimeError(f"{len(failures)} actions failed: {sorted(set(failures))}")
    shares = {part: (after[part] - before[part]) / seconds for part in before}
    return {
        "actions_per_s": len(latencies) / seconds,
        "p50_ms": statistics.median(latencies),
        **{f"{part}_cores": share for part, share in shares.items()},
        "host_ms_per_action": shares["host"] * seconds / len(latencies) * 1000,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each run")
    options = parser.parse_args()
    rows: dict[str, dict[int, dict[str, float]]] = {loop: {} for loop in LOOPS}
    with tempfile.TemporaryDirectory() as scratch, serving() as site:
        server = start_server(
            Path(scratch) / "data", providers="chromium", extra_args=("--select", "chromium")
        )
        try:
            for loop, by_sessions in rows.items():
                for sessions in SESSIONS:
                    by_sessions[sessions] = run(server, site, loop, sessions, options.seconds)
        finally:
            server.stop()
    print(f"{options.seconds:g} s a run, {os.cpu_count()} cores")
    header = (
        f"{'loop':<8} {'sessions':>8} {'actions/s':>10} {'p50 ms':>8} {'host':>7} "
        f"{'driver':>7} {'Chromium':>9} {'host ms/action':>15}"
    )
    print(f"{header}\n{'-' * len(header)}")
    for loop, by_sessions in rows.items():
        for sessions, row in by_sessions.items():
            print(
                f"{loop:<8} {sessions:>8} {row['actions_per_s']:>10.1f} {row['p50_ms']:>8.1f} "
                f"{row['host_cores']:>7.2f} {row['driver_cores']:>7.2f} "
                f"{row['chromium_cores']:>9.2f} {row['host_ms_per_action']:>15.3f}"
            )
    print("host, driver, Chromium: cores busy on average (1.00 = one core all the time)\n")
    for loop, by_sessions in rows.items():
        one, most = by_sessions[SESSIONS[0]], by_sessions[SESSIONS[-1]]
        rise = most["actions_per_s"] / one["actions_per_s"]
        print(
            f"{loop}: {SESSIONS[-1]} sessions do {rise:.2f}x the actions/s of one; "
            "the host kept at most "
            f"{max(row['host_cores'] for row in by_sessions.values()):.2f} of a core busy"
        )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "python": platform.python_version(),
                "cores": os.cpu_count(),
                "seconds": options.seconds,
                "loops": {
                    loop: {str(sessions): row for sessions, row in by_sessions.items()}
                    for loop, by_sessions in rows.items()
                },
            },
            indent=2,
        )
        + "\n"
    )
    print(f"written to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
