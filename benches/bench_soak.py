"""A long run of a real host: throughput, latency, and whether memory levels off.

    .venv/bin/python benches/bench_soak.py [--minutes N] [--sessions 4]

Starts ``browserhost serve --select chromium`` and the chromium tests' site
(``tests/providers/chromium/site.py``), both on 127.0.0.1, and drives the host through its HTTP
API from ``--sessions`` concurrent sessions, each going round the same loop (open, snapshot,
click a link, back, type and submit a form, snapshot) until the time is up. Nothing leaves the
machine.

Prints actions per second, p50 and p99 latency, failures by code, and the resident memory of
the host process, the Playwright driver and Chromium (all its processes summed) at the start
(every session has gone round once), and its mean over the window right after the warm-up and
over the last window (a minute, or less in a short run), with the growth between the two: the
driver and Chromium rise and fall as they collect garbage and renew pages, so one sample can
catch a peak or a trough. The warm-up is the first minute of a run of three minutes or more,
else the first third. Target: under 10 % growth after the first minute of a 10-minute run
(``--minutes 10``). The default run is one minute, so ``make bench`` stays short; in it the
driver, which Playwright's node process frees only when it must, may not have levelled yet.

Writes ``benches/results/bench_soak.json``, with a memory sample every 10 s.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.conftest import LiveServer, start_server
from tests.processes import chromium_processes, descendants
from tests.providers.chromium.site import Site, serving

RESULTS = Path(__file__).parent / "results" / "bench_soak.json"
ACTIONS = "/api/browser-providers/actions"
GROWTH_TARGET = 0.10
TARGET_MINUTES = 10.0
"""The length of run the growth target is judged on: a shorter one's growth is told, not judged
(the driver may still be rising towards its level)."""
SAMPLE_EVERY_S = 10.0


@dataclass(frozen=True)
class Memory:
    """Resident memory in MiB."""

    at_s: float
    host: float
    driver: float
    chromium: float

    @property
    def total(self) -> float:
        return self.host + self.driver + self.chromium


def rss_mib(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:  # exited between listing and reading
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def memory(host_pid: int, started: float) -> Memory:
    browsers = chromium_processes(host_pid)
    drivers = [
        pid
        for pid, process in descendants(host_pid).items()
        if pid not in browsers and not process.zombie
    ]
    return Memory(
        at_s=round(time.monotonic() - started, 1),
        host=rss_mib(host_pid),
        driver=sum(rss_mib(pid) for pid in drivers),
        chromium=sum(rss_mib(pid) for pid in browsers),
    )


def loop(site: Site) -> list[tuple[str, dict[str, object]]]:
    """One round of a session: every step is an action the site answers quickly."""
    return [
        ("browser.open", {"url": site.url("/links")}),
        ("browser.snapshot", {}),
        ("browser.click", {"text": "Page A"}),
        ("browser.back", {}),
        ("browser.open", {"url": site.url("/form")}),
        ("browser.type", {"selector": "#q", "value": "soak", "submit": True}),
        ("browser.snapshot", {}),
    ]


class Load:
    """The sessions' threads and what they measured."""

    def __init__(self, server: LiveServer, site: Site, sessions: int) -> None:
        self.server = server
        self.steps = loop(site)
        self.sessions = sessions
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.latencies_ms: list[float] = []
        self.failures: Counter[str] = Counter()
        self.rounds_done: Counter[int] = Counter()
        self.threads = [
            threading.Thread(target=self.drive, args=(number,)) for number in range(sessions)
        ]

    def drive(self, number: int) -> None:
        context = {"sessionId": f"soak-{number}", "directory": None}
        with self.server.client() as http:
            while not self.stop.is_set():
                for action, parameters in self.steps:
                    body = {"action": action, "parameters": parameters, "context": context}
                    begun = time.perf_counter()
                    answer = http.post(ACTIONS, json=body)
                    took = (time.perf_counter() - begun) * 1000
                    with self.lock:
                        self.latencies_ms.append(took)
                        if answer.status_code != 200:
                            self.failures[answer.json().get("code", str(answer.status_code))] += 1
                with self.lock:
                    self.rounds_done[number] += 1

    def everyone_went_round(self) -> bool:
        with self.lock:
            return len(self.rounds_done) == self.sessions


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def mean_over(samples: list[Memory], since_s: float, until_s: float) -> Memory:
    """The mean of the samples taken in ``[since_s, until_s]``: the driver and Chromium
    rise and fall (garbage collection, pages renewed), so one sample may catch either."""
    chosen = [sample for sample in samples if since_s - 0.5 <= sample.at_s <= until_s + 0.5]
    return Memory(
        at_s=round(until_s, 1),
        host=statistics.mean(sample.host for sample in chosen),
        driver=statistics.mean(sample.driver for sample in chosen),
        chromium=statistics.mean(sample.chromium for sample in chosen),
    )


def growth(start: Memory, end: Memory, part: str) -> float:
    before, after = getattr(start, part), getattr(end, part)
    return (after - before) / before if before else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0, help="length of the run")
    parser.add_argument("--sessions", type=int, default=4, help="concurrent sessions")
    options = parser.parse_args()
    duration_s = options.minutes * 60
    warmup_s = 60.0 if duration_s >= 180 else duration_s / 3

    with tempfile.TemporaryDirectory() as scratch, serving() as site:
        server = start_server(
            Path(scratch) / "data", providers="chromium", extra_args=("--select", "chromium")
        )
        try:
            load = Load(server, site, options.sessions)
            begun = time.monotonic()
            for thread in load.threads:
                thread.start()
            while not load.everyone_went_round():
                time.sleep(0.1)  # the sessions' threads signal nothing else to wait on
            started = time.monotonic()
            samples = [memory(server.process.pid, started)]
            counted_from = len(load.latencies_ms)
            while (elapsed := time.monotonic() - started) < duration_s:
                time.sleep(min(SAMPLE_EVERY_S, duration_s - elapsed))
                samples.append(memory(server.process.pid, started))
            ran_s = time.monotonic() - started
            load.stop.set()
            for thread in load.threads:
                thread.join(timeout=120)
        finally:
            server.stop()

    latencies = load.latencies_ms[counted_from:]
    # Growth compares the mean of the window after the warm-up with that of the last one.
    window_s = min(60.0, (samples[-1].at_s - warmup_s) / 2)
    start = samples[0]
    warmed = mean_over(samples, warmup_s, warmup_s + window_s)
    end = mean_over(samples, samples[-1].at_s - window_s, samples[-1].at_s)
    summary = {
        "minutes": options.minutes,
        "sessions": options.sessions,
        "first_round_s": round(started - begun, 1),
        "actions": len(latencies),
        "actions_per_s": round(len(latencies) / ran_s, 1),
        "p50_ms": round(statistics.median(latencies), 1),
        "p99_ms": round(percentile(latencies, 0.99), 1),
        "failures": dict(load.failures),
        "warmup_s": warmup_s,
        "window_s": window_s,
        "growth_after_warmup": {
            part: round(growth(warmed, end, part), 4)
            for part in ("host", "driver", "chromium", "total")
        },
    }
    print(
        f"{options.sessions} sessions for {ran_s:.0f} s: {summary['actions']} actions, "
        f"{summary['actions_per_s']} actions/s, p50 {summary['p50_ms']} ms, "
        f"p99 {summary['p99_ms']} ms, failures {dict(load.failures) or 'none'}"
    )
    header = f"{'RSS MiB':<22} {'host':>8} {'driver':>8} {'chromium':>9} {'total':>8}"
    print(f"\n{header}\n{'-' * len(header)}")
    for label, sample in (
        ("start", start),
        (f"{warmed.at_s - window_s:.0f}-{warmed.at_s:.0f} s, mean", warmed),
        (f"{end.at_s - window_s:.0f}-{end.at_s:.0f} s, mean", end),
    ):
        print(
            f"{label:<22} {sample.host:>8.1f} {sample.driver:>8.1f} {sample.chromium:>9.1f} "
            f"{sample.total:>8.1f}"
        )
    grown = summary["growth_after_warmup"]
    assert isinstance(grown, dict)
    print(
        f"{'growth after warm-up':<22} {grown['host']:>8.1%} {grown['driver']:>8.1%} "
        f"{grown['chromium']:>9.1%} {grown['total']:>8.1%}"
    )
    over = [part for part, value in grown.items() if value >= GROWTH_TARGET]
    verdict = f"over the {GROWTH_TARGET:.0%} target: {', '.join(over)}" if over else "within"
    if options.minutes < TARGET_MINUTES:
        verdict = (
            f"not judged in a run of {options.minutes:g} min (the target is for "
            f"--minutes {TARGET_MINUTES:g}); it would be {verdict}"
        )
    print(f"\nmemory growth after the warm-up: {verdict} (target < {GROWTH_TARGET:.0%})")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "python": platform.python_version(),
                "machine": platform.machine(),
                **summary,
                "memory_mib": [asdict(sample) for sample in samples],
            },
            indent=2,
        )
        + "\n"
    )
    print(f"written to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
