"""The processes the suite starts itself (servers, services, a Grid, a display), from start to
stop.

- :func:`spawn` starts one in a session of its own: a Ctrl-C in the terminal reaches pytest
  alone, which stops each process in its teardown, in order. A server that took the Ctrl-C
  itself died under its test, and the teardown that then failed hid the run's summary
  (issue 26). Should pytest itself be killed, the kernel ends its processes with it.
- :func:`wait_ready` waits for one to be ready, long enough for a loaded machine, and fails at
  once, saying what the process printed, when it exits first.
- :func:`stop` ends one and whatever it left in its group; :func:`stop_all` ends those a
  test left running (the root conftest calls it when the run ends, however it ends).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

READY_WAIT_S = 120.0
"""How long a test waits for a process it started to be ready. Generous: with two test runs on
two cores, ``serve`` took over 30 s to answer; a process that exits fails the wait at once."""
STOP_WAIT_S = 20.0
"""How long a process has to end on SIGTERM before it is killed."""
_PR_SET_PDEATHSIG = 1

_running: list[subprocess.Popen[Any]] = []


class NotReadyError(Exception):
    """A process a test started exited, or was not ready in time. Its message has what the
    process printed."""


def spawn(command: Sequence[str], **options: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(command, **options)`` in a session of its own, stopped with the run."""
    process = subprocess.Popen(command, start_new_session=True, preexec_fn=_in_child(), **options)
    _running[:] = [started for started in _running if started.poll() is None]
    _running.append(process)
    return process


def wait_ready(
    process: subprocess.Popen[Any],
    ready: Callable[[], bool],
    what: str,
    printed: Path | None = None,
    timeout_s: float = READY_WAIT_S,
) -> None:
    """Poll ``ready`` until it holds. Fail at once when ``process`` exits, or after
    ``timeout_s``, stopping it and saying what it wrote into ``printed``."""
    deadline = time.monotonic() + timeout_s
    try:
        while not ready():
            if (code := process.poll()) is not None:
                raise NotReadyError(f"{what} exited with code {code} before it was ready")
            if time.monotonic() > deadline:
                raise NotReadyError(f"{what} was not ready within {timeout_s:g} s")
            time.sleep(0.05)  # a starting process sends no event to wait on
    except NotReadyError as exc:
        stop(process)
        output = printed.read_text(errors="replace") if printed else ""
        raise NotReadyError(f"{exc}; it printed:\n{output}" if output else str(exc)) from None
    except BaseException:  # a Ctrl-C too: a process that never got ready is not left behind
        stop(process)
        raise


def stop(process: subprocess.Popen[Any], grace_s: float = STOP_WAIT_S) -> int:
    """SIGTERM to the process, SIGKILL to its group after ``grace_s``; its exit code once it
    ended."""
    # The process alone, as a user's kill: a server closes its browsers itself, and its
    # Playwright driver (in its group) would close them at once on a SIGTERM of its own.
    with contextlib.suppress(ProcessLookupError):
        process.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(grace_s)
    # Also after a clean exit: whatever it left in its group goes with it.
    _signal_group(process.pid, signal.SIGKILL)
    return process.wait()


def stop_all() -> None:
    """Stop every process spawned here that is still running."""
    for process in _running:
        if process.poll() is None:
            stop(process)
    _running.clear()


atexit.register(stop_all)  # also when pytest crashed before its own hooks could


def _signal_group(pid: int, signum: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone
        os.killpg(pid, signum)


def _in_child() -> Callable[[], None] | None:
    """What the child runs between fork and exec: Ctrl-C at its default, as a terminal's job
    has it (a run a shell started in the background, ``make test &``, has SIGINT ignored, and
    every process would keep that: a Ctrl-C sent to one would be lost); and SIGTERM from the
    kernel when pytest dies. That signal fires when the thread that forked ends, so a process
    started from another thread gets neither: nothing runs in it between fork and exec."""
    if threading.current_thread() is not threading.main_thread():
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    parent = os.getpid()

    def prepare() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # pytest died before the signal was armed
            os._exit(1)

    return prepare
