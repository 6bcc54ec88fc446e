"""Sessions at once: what one more agent session costs, browserhost against Playwright's own
browser contexts.

    .venv/bin/python benches/bench_scale.py [--seconds 8] [--chromium /usr/bin/chromium]
        [--no-recording]

Two sides, each in processes of its own, against the chromium tests' site on 127.0.0.1, for
1, 5 and 20 sessions at once; for each count browserhost runs, then Playwright, so a change
in the machine's load hits both:

- **browserhost**: a fresh ``browserhost serve --select chromium``; each session its own
  session id (so its own browser context) on a kept-alive connection of its own.
  ``--no-recording`` serves without the session recording, whose picture of each step (a
  screenshot, scaled down in the host) is otherwise counted on this side.
- **Playwright**: the same actions done directly with Playwright's async API, in a process
  of its own (so the GIL of the bench's client threads slows neither side): one Chromium
  launched with the provider's flags, one browser context and page per session.

Two loops for ``--seconds`` each, on the same sessions, each started once the side has gone
idle (:func:`wait_idle`): a browser that has just opened N pages keeps working on them for
seconds after it answered (its renderers starting, compiling, collecting), and a loop started
at once paid for that start inside its clock, by how much depending on how soon the side
answered. The start is counted apart instead:

- **waiting**: a click on a button whose page then fetches data its server answers after
  250 ms. browserhost's click answers once the page has settled (that request done and the
  document still); Playwright's once that request has finished. Actions on real sites wait
  like this.
- **busy**: a snapshot (Playwright: ``aria_snapshot`` of the body) and a type into a field
  (``fill``), which the browser answers in a few ms: the two cores are Chromium's to share.

- **start**: the CPU the side spent from before its sessions opened their first page until
  it went idle again.

For each side and count: actions per second, actions per second per core busy (all the CPU
the side used: its Python process, host or Playwright script, Playwright's driver and
Chromium, also shown apart), the median latency, how many clicks answered sooner than the
page's data can arrive, and the memory each session adds: the proportional set size of
anonymous and shared memory (see :data:`MEASURES`; all of the PSS, or the RSS, where the
kernel gives no such parts) of all the side's processes with N sessions still open
after the loops (the least of a reading a second for 12 s), less that with one session,
over N - 1.

Then, at 20 sessions, browserhost over Playwright for actions per second per core, for
memory per session (target: at most 1.0) and for the start's CPU each session adds (as memory:
at 20, less that at 1, over 19), and browserhost's waiting-loop rate at 20 sessions
over its rate at one (target: at least 10; the host must not hold anyone back), beside
Playwright's own, which shows what the machine allowed then.

Writes ``benches/results/bench_scale.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.conftest import LiveServer, start_server
from tests.processes import chromium_processes, descendants
from tests.providers.chromium.site import Site, serving

from browserhost.providers.chromium.launch import LAUNCH_FLAGS, sandboxed

if TYPE_CHECKING:
    from playwright.async_api import Page, ViewportSize

RESULTS = Path(__file__).parent / "results" / "bench_scale.json"
ACTIONS = "/api/browser-providers/actions"
SESSIONS = (1, 5, 20)
SIDES = ("browserhost", "playwright")
Step = tuple[str, str]
"""A verb (click, snapshot, type) and the element it acts on."""
LOOPS: dict[str, tuple[str, tuple[Step, ...]]] = {
    "waiting": ("/later", (("click", "#fetch"),)),
    "busy": ("/form", (("snapshot", "body"), ("type", "#q"))),
}
FETCHED = "/answer-later"
"""The data request the waiting loop's button makes."""
FETCH_MS = 250
"""How long the site takes to answer it: a click answered sooner did not wait for the data."""
TYPED = "typed"
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
"""browserhost's ``desktop`` viewport, which its sessions start with."""
IDLE_READINGS = 12
"""Memory is read once a second this many times after the loops, and the least reading kept:
the processes let go of what the loops left over some seconds (V8 collects an idle page's
garbage late), and a reading caught in a burst of allocation is not the one kept."""


def cpu_s(pid: int) -> float:
    """User plus system CPU seconds of a process so far; 0 for one that has exited."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def parts(root: int) -> dict[str, list[int]]:
    """A side's live processes: its Python process, Playwright's driver, Chromium's own."""
    browsers = chromium_processes(root)
    drivers = [
        pid
        for pid, process in descendants(root).items()
        if pid not in browsers and not process.zombie
    ]
    return {"python": [root], "driver": drivers, "chromium": list(browsers)}


def cpu_by_part(root: int) -> dict[str, float]:
    """CPU seconds so far of each part of a side."""
    return {part: sum(cpu_s(pid) for pid in pids) for part, pids in parts(root).items()}


IDLE_CORES = 0.1
"""A side is idle once all its processes together keep less than this busy over a second
(an idle side here measured 0.01 to 0.05)."""
IDLE_WAIT_S = 60.0


def wait_idle(root: int) -> None:
    """Until the side's processes have been idle (:data:`IDLE_CORES`) for a second; a side
    still busy after :data:`IDLE_WAIT_S` is let go, and said so."""
    deadline = time.monotonic() + IDLE_WAIT_S
    before = sum(cpu_by_part(root).values())
    while time.monotonic() < deadline:
        time.sleep(1)  # CPU use is read over an interval: no event to wait on
        now = sum(cpu_by_part(root).values())
        if now - before < IDLE_CORES:
            return
        before = now
    print(f"the side was still busy after {IDLE_WAIT_S:g} s; its loop starts anyway")


MEASURES = {
    "PSS anon+shmem": ("smaps_rollup", ("Pss_Anon:", "Pss_Shmem:")),
    "PSS": ("smaps_rollup", ("Pss:",)),
    "RSS": ("status", ("VmRSS:",)),
}
"""What a process's memory is read as, best first. The proportional set size splits each
shared page between the processes that share it; its file pages (Chromium's binary and
libraries) are shared with every other Chromium on the machine too, whose number changes
from one reading to the next: with other browsers running they moved a side's total by 90
MiB within the hour, 4.6 MiB a session at 20. Anonymous and shared memory is the side's own."""


def measure() -> str:
    """The first of :data:`MEASURES` the kernel gives."""
    for name, (source, fields) in MEASURES.items():
        try:
            text = Path(f"/proc/self/{source}").read_text()
        except OSError:
            continue
        if all(f"\n{field}" in f"\n{text}" for field in fields):
            return name
    return "RSS"


MEASURE = measure()


def resident_kib(pid: int) -> int:
    """A process's :data:`MEASURE`; 0 for one that has exited."""
    source, fields = MEASURES[MEASURE]
    try:
        lines = Path(f"/proc/{pid}/{source}").read_text().splitlines()
    except OSError:
        return 0
    return sum(int(line.split()[1]) for line in lines if line.startswith(fields))


def memory_by_part(root: int) -> dict[str, float]:
    """MiB resident (:data:`MEASURE`) in each part of a side."""
    return {part: sum(map(resident_kib, pids)) / 1024 for part, pids in parts(root).items()}


def idle_memory(root: int) -> dict[str, float]:
    """The least of :data:`IDLE_READINGS` readings of a side left idle, by part."""
    readings = []
    for _ in range(IDLE_READINGS):
        time.sleep(1)  # memory has no event to wait on
        readings.append(memory_by_part(root))
    return min(readings, key=lambda reading: sum(reading.values()))


class Side(Protocol):
    """Sessions of one side, driven the same way whichever side it is."""

    pid: int
    """The side's Python process: every other process of the side descends from it."""

    def prepare(self, loop: str) -> None:
        """Every session on the loop's page, waiting to go."""

    def go(self) -> None: ...

    def halt(self) -> None:
        """Stop taking actions; those still on their way are not counted."""

    def latencies(self) -> list[float]:
        """Once every session has stopped: the ms of each action done between go and halt."""

    def close(self) -> None: ...


def browserhost_action(verb: str, selector: str) -> tuple[str, dict[str, object]]:
    """A step as browserhost's action and its parameters."""
    if verb == "snapshot":
        return "browser.snapshot", {}
    if verb == "type":
        return "browser.type", {"selector": selector, "value": TYPED}
    return f"browser.{verb}", {"selector": selector}


class Browserhost:
    """Sessions through a fresh ``browserhost serve``, each on a thread and connection of its
    own."""

    def __init__(self, site: Site, sessions: int, scratch: Path, env: dict[str, str]) -> None:
        self._site = site
        self._sessions = sessions
        self._server: LiveServer = start_server(
            scratch / f"data-{sessions}", providers="chromium",
            extra_args=("--select", "chromium"), env=env,
        )  # fmt: skip
        self.pid = self._server.process.pid
        self._threads: list[threading.Thread] = []
        self._go, self._stop = threading.Event(), threading.Event()
        self._lock = threading.Lock()
        self._latencies: list[float] = []
        self._failures: list[str] = []

    def prepare(self, loop: str) -> None:
        self._go, self._stop = threading.Event(), threading.Event()
        self._latencies, self._failures = [], []
        ready = threading.Barrier(self._sessions + 1)
        self._threads = [
            threading.Thread(target=self._session, args=(number, loop, ready))
            for number in range(self._sessions)
        ]
        for thread in self._threads:
            thread.start()
        ready.wait()  # every session has its context and the loop's page

    def _session(self, number: int, loop: str, ready: threading.Barrier) -> None:
        path, steps = LOOPS[loop]
        context = {"sessionId": f"session-{number}", "directory": None}
        with self._server.client() as http:

            def act(action: str, parameters: dict[str, object]) -> None:
                body = {"action": action, "parameters": parameters, "context": context}
                begun = time.perf_counter()
                answer = http.post(ACTIONS, json=body)
                took = (time.perf_counter() - begun) * 1000
                answered = answer.json()
                with self._lock:
                    if answer.status_code != 200 or answered.get("ok") is not True:
                        self._failures.append(f"{answered.get('code')}: {answered.get('error')}")
                    elif self._go.is_set() and not self._stop.is_set():
                        self._latencies.append(took)

            act("browser.open", {"url": self._site.url(path)})
            for step in steps:  # once before the clock starts: first times are slower
                act(*browserhost_action(*step))
            ready.wait()
            self._go.wait()
            while not self._stop.is_set():
                for step in steps:
                    act(*browserhost_action(*step))

    def go(self) -> None:
        self._go.set()

    def halt(self) -> None:
        self._stop.set()

    def latencies(self) -> list[float]:
        for thread in self._threads:
            thread.join(timeout=60)
        if self._failures:
            failed = "; ".join(sorted(set(self._failures)))
            raise RuntimeError(f"{len(self._failures)} actions failed: {failed}")
        return self._latencies

    def close(self) -> None:
        self._server.stop()


class Playwright:
    """Sessions in a Playwright process of its own (:func:`playwright_side`), told what to do
    on its standard input, one word a line; it answers on its standard output."""

    def __init__(self, site: Site, sessions: int, chromium: str) -> None:
        command = [sys.executable, __file__, "--playwright-side", str(sessions)]
        command += ["--chromium", chromium, "--origin", site.origin]
        self._process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.pid = self._process.pid

    def _say(self, word: str) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(word + "\n")
        self._process.stdin.flush()

    def _hear(self) -> str:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(f"the Playwright side exited ({self._process.wait()})")
        return line.strip()

    def prepare(self, loop: str) -> None:
        self._say(loop)
        if (heard := self._hear()) != "ready":
            raise RuntimeError(f"the Playwright side said {heard!r}")

    def go(self) -> None:
        self._say("go")

    def halt(self) -> None:
        self._say("stop")

    def latencies(self) -> list[float]:
        taken: list[float] = json.loads(self._hear())
        return taken

    def close(self) -> None:
        with contextlib.suppress(BrokenPipeError):  # it exited already: its error is told
            self._say("quit")
        self._process.wait(timeout=60)


async def hear() -> str:
    """The Playwright side's next word from its parent."""
    line: str = await asyncio.to_thread(sys.stdin.readline)
    return line.strip()


async def playwright_act(page: Page, verb: str, selector: str) -> None:
    if verb == "click":
        # Answered once the data the page asks for has arrived.
        async with page.expect_event("requestfinished", lambda r: FETCHED in r.url):
            await page.locator(selector).click()
    elif verb == "snapshot":
        await page.locator(selector).aria_snapshot()
    else:
        await page.locator(selector).fill(TYPED)


async def playwright_loop(pages: list[Page], steps: tuple[Step, ...]) -> list[float]:
    """Every page going round ``steps`` from the parent's go to its stop: the ms of each
    action done in between."""
    await hear()  # go
    stop = asyncio.Event()
    latencies: list[float] = []

    async def session(page: Page) -> None:
        while not stop.is_set():
            for verb, selector in steps:
                begun = time.perf_counter()
                await playwright_act(page, verb, selector)
                if not stop.is_set():
                    latencies.append((time.perf_counter() - begun) * 1000)

    running = [asyncio.create_task(session(page)) for page in pages]
    await hear()  # stop
    stop.set()
    await asyncio.gather(*running)
    return latencies


async def playwright_side(sessions: int, chromium: str, origin: str) -> None:
    """The Playwright side's process: a browser launched as the provider launches its own, a
    context and page per session, and the loops its parent asks for."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=chromium, chromium_sandbox=sandboxed(), args=list(LAUNCH_FLAGS)
        )
        contexts = [await browser.new_context(viewport=VIEWPORT) for _ in range(sessions)]
        pages = [await context.new_page() for context in contexts]
        while (loop := await hear()) in LOOPS:
            path, steps = LOOPS[loop]
            await asyncio.gather(*(page.goto(origin + path) for page in pages))
            for step in steps:  # once before the clock starts: first times are slower
                await asyncio.gather(*(playwright_act(page, *step) for page in pages))
            print("ready", flush=True)
            print(json.dumps(await playwright_loop(pages, steps)), flush=True)
        await browser.close()


def run_loop(side: Side, loop: str, seconds: float) -> dict[str, float]:
    """The side's sessions, prepared for ``loop`` and idle, going round it at once for
    ``seconds``: actions per second, per core busy, the median ms, and the cores each part
    kept busy."""
    before = cpu_by_part(side.pid)
    side.go()
    time.sleep(seconds)  # the sessions run meanwhile; nothing to wait on but the clock
    side.halt()
    after = cpu_by_part(side.pid)
    latencies = side.latencies()
    if not latencies:
        raise RuntimeError(f"no {loop} action finished in {seconds:g} s; give it more --seconds")
    cores = {part: (after[part] - before[part]) / seconds for part in before}
    rate = len(latencies) / seconds
    return {
        "actions_per_s": rate,
        "per_core": rate / sum(cores.values()),
        "p50_ms": statistics.median(latencies),
        "early": sum(ms < FETCH_MS for ms in latencies) if loop == "waiting" else 0,
        **{f"{part}_cores": share for part, share in cores.items()},
    }


@dataclass(frozen=True)
class SideRun:
    """One side with some sessions: each loop's figures, then its memory with them open."""

    loops: dict[str, dict[str, float]]
    memory_mib: dict[str, float]
    """By part (:func:`parts`)."""
    start_cpu_s: float
    """From before the sessions opened their first page until the side was idle again."""


def run_side(side: Side, seconds: float) -> SideRun:
    """Both loops on the same sessions, then the memory of the side with them still open."""
    try:
        begun = sum(cpu_by_part(side.pid).values())
        loops: dict[str, dict[str, float]] = {}
        for loop in LOOPS:
            side.prepare(loop)
            wait_idle(side.pid)
            if not loops:  # the sessions' first page: the start ends here
                start_cpu_s = sum(cpu_by_part(side.pid).values()) - begun
            loops[loop] = run_loop(side, loop, seconds)
        mib = idle_memory(side.pid)
    finally:
        side.close()
    return SideRun(loops, mib, start_cpu_s)


Rows = dict[str, dict[int, SideRun]]
"""Each side's runs by the number of sessions."""


def per_session_start_s(rows: Rows, side: str) -> float:
    """CPU seconds of the start each session beyond the first adds at the most sessions."""
    one, most = rows[side][SESSIONS[0]].start_cpu_s, rows[side][SESSIONS[-1]].start_cpu_s
    return (most - one) / (SESSIONS[-1] - SESSIONS[0])


def per_session_mib(rows: Rows, side: str, part: str | None = None) -> float:
    """Memory each session beyond the first adds at the most sessions, in all or in one
    part."""
    one, most = rows[side][SESSIONS[0]].memory_mib, rows[side][SESSIONS[-1]].memory_mib
    names = [part] if part is not None else list(one)
    added = sum(most[name] - one[name] for name in names)
    return added / (SESSIONS[-1] - SESSIONS[0])


def report(rows: Rows, seconds: float, recording: bool) -> dict[str, float]:
    """Print the tables and ratios; return the ratios."""
    print(f"{seconds:g} s a loop, {os.cpu_count()} cores, browserhost's recording "
          f"{'on' if recording else 'off'}")  # fmt: skip
    header = (
        f"{'loop':<8} {'sessions':>8} {'side':<12} {'actions/s':>10} {'per core':>9} "
        f"{'p50 ms':>8} {'early':>6} {'python':>7} {'driver':>7} {'Chromium':>9}"
    )
    print(f"{header}\n{'-' * len(header)}")
    for loop in LOOPS:
        for sessions in SESSIONS:
            for side in SIDES:
                row = rows[side][sessions].loops[loop]
                print(
                    f"{loop:<8} {sessions:>8} {side:<12} {row['actions_per_s']:>10.1f} "
                    f"{row['per_core']:>9.1f} {row['p50_ms']:>8.1f} {row['early']:>6.0f} "
                    f"{row['python_cores']:>7.2f} "
                    f"{row['driver_cores']:>7.2f} {row['chromium_cores']:>9.2f}"
                )
    print(
        "per core: actions/s over the cores the side kept busy in all; early: clicks answered "
        f"sooner than the {FETCH_MS} ms the page's data takes; python (the host, or the "
        "Playwright script), driver, Chromium: cores busy on average\n"
    )
    print(f"memory ({MEASURE}), MiB: in all with N sessions open; each session beyond the first")
    print(f"{'side':<12} " + " ".join(f"{f'{n} open':>8}" for n in SESSIONS)
          + f" {'each':>8} {'python':>7} {'driver':>7} {'Chromium':>9}")  # fmt: skip
    for side in SIDES:
        totals = " ".join(f"{sum(rows[side][n].memory_mib.values()):>8.1f}" for n in SESSIONS)
        each = " ".join(
            f"{per_session_mib(rows, side, part):>{width}.1f}"
            for part, width in (("python", 7), ("driver", 7), ("chromium", 9))
        )
        print(f"{side:<12} {totals} {per_session_mib(rows, side):>8.1f} {each}")
    print("\nstart, CPU s: from before the sessions opened their first page until idle")
    print(f"{'side':<12} " + " ".join(f"{f'{n} open':>8}" for n in SESSIONS) + f" {'each':>8}")
    for side in SIDES:
        totals = " ".join(f"{rows[side][n].start_cpu_s:>8.2f}" for n in SESSIONS)
        print(f"{side:<12} {totals} {per_session_start_s(rows, side):>8.3f}")
    first, most = SESSIONS[0], SESSIONS[-1]
    ratios = {
        f"{loop}_per_core": rows["browserhost"][most].loops[loop]["per_core"]
        / rows["playwright"][most].loops[loop]["per_core"]
        for loop in LOOPS
    }
    ratios["memory_per_session"] = per_session_mib(rows, "browserhost") / per_session_mib(
        rows, "playwright"
    )
    ratios["start_per_session"] = per_session_start_s(rows, "browserhost") / (
        per_session_start_s(rows, "playwright")
    )
    for side in SIDES:
        waiting = {n: run.loops["waiting"]["actions_per_s"] for n, run in rows[side].items()}
        ratios[f"{side}_waiting_rise"] = waiting[most] / waiting[first]
    print(f"\nat {most} sessions, browserhost / Playwright:")
    for loop in LOOPS:
        print(f"  actions/s per core, {loop} loop: {ratios[f'{loop}_per_core']:.2f}x")
    print(f"  memory per session: {ratios['memory_per_session']:.2f}x (target: at most 1.0)")
    print(f"  the start's CPU per session: {ratios['start_per_session']:.2f}x")
    print(
        f"browserhost's waiting loop: {most} sessions do {ratios['browserhost_waiting_rise']:.1f}x"
        f" the actions/s of {first} (target: at least 10; Playwright's, on the same machine "
        f"then: {ratios['playwright_waiting_rise']:.1f}x)"
    )
    return ratios


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each loop")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--no-recording", action="store_true", help="browserhost records nothing")
    parser.add_argument("--playwright-side", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--origin", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.playwright_side is not None:
        asyncio.run(playwright_side(options.playwright_side, options.chromium, options.origin))
        return 0
    env = {
        "BROWSERHOST_CHROMIUM": options.chromium,
        "BROWSERHOST_RECORDING": "off" if options.no_recording else "on",
    }
    rows: Rows = {side: {} for side in SIDES}
    with tempfile.TemporaryDirectory() as scratch, serving() as site:
        for sessions in SESSIONS:
            ours = Browserhost(site, sessions, Path(scratch), env)
            rows["browserhost"][sessions] = run_side(ours, options.seconds)
            theirs = Playwright(site, sessions, options.chromium)
            rows["playwright"][sessions] = run_side(theirs, options.seconds)
    ratios = report(rows, options.seconds, not options.no_recording)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "python": platform.python_version(),
                "cores": os.cpu_count(),
                "seconds": options.seconds,
                "recording": not options.no_recording,
                "memory": MEASURE,
                "sides": {
                    side: {str(n): asdict(run) for n, run in runs.items()}
                    for side, runs in rows.items()
                },
                "ratios": ratios,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"written to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
