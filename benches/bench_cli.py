"""What one browser verb from the shell costs: ``browserhost snapshot`` against a served host.

An agent (or a person) driving the browser from a shell starts the command line once an
action, so its start is paid on every step. A real ``browserhost serve`` with the ``stub``
provider answers (no browser: the host answers in a millisecond, and the command's own start
is what is measured). Beside it, in interleaved rounds of the same run:

- ``python -c pass``: the interpreter's own start, the floor of any Python command;
- a bare script that imports httpx and posts the same action: the least a Python client does.

    .venv/bin/python benches/bench_cli.py [--rounds 20]

Prints the median wall time and CPU time (user and system) of each, with ratios against the
bare script (target: the verb within 2x its wall time). Writes ``benches/results/bench_cli.json``.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.conftest import start_server

from browserhost.api.paths import ACTIONS_PATH

RESULTS = Path(__file__).parent / "results" / "bench_cli.json"
TARGET_RATIO = 2.0
BARE_CLIENT = """
import os, httpx
httpx.post(
    os.environ["BROWSERHOST_URL"] + {path!r},
    json={{"action": "browser.snapshot", "parameters": {{}}, "context": {{"sessionId": "cli"}}}},
    headers={{"Authorization": "Bearer " + os.environ["BROWSERHOST_TOKEN"]}},
    trust_env=False,
    verify=False,  # an http URL: no TLS, so no certificates to load (as the verb does)
).raise_for_status()
"""


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run ``command`` to its end: its wall time and CPU time (user plus system), in ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall * 1000, cpu * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    installed = Path(sys.executable).with_name("browserhost")
    verb = [str(installed)] if installed.exists() else [sys.executable, "-m", "browserhost"]
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "bare httpx script": [sys.executable, "-c", BARE_CLIENT.format(path=ACTIONS_PATH)],
        "browserhost snapshot": [*verb, "snapshot"],
    }
    with tempfile.TemporaryDirectory() as scratch:
        host = start_server(Path(scratch, "data"), extra_args=("--select", "stub", "--no-bridge"))
        env = {**host.env, "BROWSERHOST_URL": host.url}
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        try:
            for command in commands.values():  # warm: each reads its files once
                timed(command, env)
            for _ in range(args.rounds):
                for name, command in commands.items():
                    samples[name].append(timed(command, env))
        finally:
            host.stop()
    medians = {
        name: {
            "wall_ms": statistics.median(wall for wall, _ in runs),
            "cpu_ms": statistics.median(cpu for _, cpu in runs),
        }
        for name, runs in samples.items()
    }
    bare = medians["bare httpx script"]
    print(f"{'':24} {'wall ms':>9} {'ratio':>7} {'CPU ms':>9} {'ratio':>7}")
    for name, median in medians.items():
        print(
            f"{name:24} {median['wall_ms']:9.1f} {median['wall_ms'] / bare['wall_ms']:6.2f}x "
            f"{median['cpu_ms']:9.1f} {median['cpu_ms'] / bare['cpu_ms']:6.2f}x"
        )
    ratio = medians["browserhost snapshot"]["wall_ms"] / bare["wall_ms"]
    verdict = "within" if ratio <= TARGET_RATIO else "over"
    print(
        f"\na verb from the shell takes {ratio:.2f}x the bare script "
        f"({args.rounds} rounds): {verdict} the {TARGET_RATIO}x target"
    )
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"rounds": args.rounds, "medians": medians}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
