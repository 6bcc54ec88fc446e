"""The suite's own processes (tests/spawning.py) and tiers (tests/tiers.py), checked on a pytest
run of their own, interrupted as a terminal's Ctrl-C interrupts one."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import wait_until
from tests.spawning import NotReadyError, spawn, stop, wait_ready

pytestmark = pytest.mark.slow

REPOSITORY = Path(__file__).resolve().parents[1]

INTERRUPTED = """
import os, subprocess, sys, time
from pathlib import Path

import pytest

from tests.conftest import start_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def driver():
    # In pytest's own process group, as Playwright's driver is: it takes the Ctrl-C too.
    helper = subprocess.Popen([sys.executable, "-c", "import signal; signal.pause()"])
    yield
    assert helper.poll() is None, "the helper took the Ctrl-C"


def test_waits_for_the_ctrl_c(driver, tmp_path):
    server = start_server(tmp_path / "data")
    Path(os.environ["SERVER_PID"]).write_text(str(server.process.pid))
    # Polled: a Ctrl-C that came just before a signal.pause() would leave it waiting for
    # another.
    while True:
        time.sleep(0.1)
"""

UNMARKED = """
import subprocess


def test_starts_a_process():
    subprocess.run(["true"], check=True)
"""


def inner_pytest(tmp_path: Path, source: str) -> tuple[subprocess.Popen[str], Path]:
    """``source`` as a test module, run by pytest with the suite's root conftest as a plugin,
    in a session of its own as a terminal's foreground job is; its output goes to the file."""
    (tmp_path / "test_inner.py").write_text(source)
    output = tmp_path / "pytest.out"
    # Faulthandler on from the start: an abort shows where the run stood after pytest's own
    # faulthandler is gone too (from its unconfigure to the process's exit).
    env = {
        **os.environ,
        "PYTHONPATH": str(REPOSITORY),
        "SERVER_PID": str(tmp_path / "pid"),
        "PYTHONFAULTHANDLER": "1",
    }
    with output.open("w") as out:
        inner = spawn(
            [sys.executable, "-m", "pytest", "-c", str(REPOSITORY / "pyproject.toml"),
             "--rootdir", str(tmp_path), "-p", "tests.conftest", "-p", "no:cacheprovider",
             "-q", "test_inner.py"],
            cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
    return inner, output


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_ctrl_c_prints_the_summary_and_leaves_no_server_running(tmp_path: Path) -> None:
    inner, output = inner_pytest(tmp_path, INTERRUPTED)
    pid_file = tmp_path / "pid"

    def written() -> bool:  # the file is there a moment before the number is in it
        return pid_file.exists() and pid_file.read_text() != ""

    wait_ready(inner, written, "the inner pytest", output)
    server = int(pid_file.read_text())
    os.killpg(inner.pid, signal.SIGINT)  # the whole foreground group, as a terminal does
    try:
        code = inner.wait(timeout=120)
    except subprocess.TimeoutExpired:
        # Its faulthandler (on from its start: inner_pytest) prints each thread's stack.
        os.kill(inner.pid, signal.SIGABRT)
        inner.wait(timeout=60)
        pytest.fail(f"the run did not end within 120 s of its Ctrl-C:\n{output.read_text()}")
    printed = output.read_text()
    assert code == pytest.ExitCode.INTERRUPTED, printed
    assert "KeyboardInterrupt" in printed
    assert "teardown after the interrupt: AssertionError: the helper took the Ctrl-C" in printed
    assert re.fullmatch(r"no tests ran in [\d.]+s( \(.*\))?", printed.splitlines()[-1]), printed
    wait_until(lambda: not alive(server), f"the server {server} outlived the interrupted run")


def test_an_unmarked_test_that_starts_a_process_fails_saying_how_to_mark_it(
    tmp_path: Path,
) -> None:
    inner, output = inner_pytest(tmp_path, UNMARKED)
    inner.wait(timeout=120)
    printed = output.read_text()
    assert inner.returncode == pytest.ExitCode.TESTS_FAILED, printed
    assert (
        "test_starts_a_process started a process (true), which the fast tier (make check) "
        "must not: mark it @pytest.mark.slow, or give its module pytestmark = pytest.mark.slow"
    ) in printed


def test_a_process_that_exits_before_it_is_ready_fails_the_wait_with_what_it_printed(
    tmp_path: Path,
) -> None:
    printed = tmp_path / "printed"
    with printed.open("wb") as out:
        process = spawn(["sh", "-c", "echo 'no port for me' >&2; exit 3"], stderr=out)
    with pytest.raises(NotReadyError) as failed:
        wait_ready(process, lambda: False, "the server", printed)
    assert str(failed.value) == (
        "the server exited with code 3 before it was ready; it printed:\nno port for me\n"
    )


def test_stop_ends_what_the_process_started_too(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    process = spawn(["sh", "-c", f"tail -f /dev/null & echo $! > {pid_file}; wait"])
    wait_ready(process, lambda: pid_file.exists() and pid_file.read_text().endswith("\n"), "sh")
    child = int(pid_file.read_text())
    assert stop(process) == -signal.SIGTERM
    wait_until(lambda: not alive(child), f"{child} outlived its parent's stop")
