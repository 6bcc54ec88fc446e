"""A child process that never outlives the host, its output kept in a rotated log.

The child runs in a session of its own, so stopping it reaches the whole process group it
made; on Linux it also gets a parent-death signal, so when the host dies, even by SIGKILL,
the kernel kills it too (nothing is left for the next start to trip over). Stopping is
SIGTERM to the group, then SIGKILL after a grace period. What it writes on stdout and stderr
goes to one log file, rotated by size; the last line of its stderr is kept for error messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import BinaryIO, Final

LOG_MAX_BYTES: Final = 1_000_000
LOG_BACKUPS: Final = 2
"""Rotated files kept beside the current one (``<id>.log.1``, ``<id>.log.2``)."""
TAIL_BYTES: Final = 2_000
"""How much of the end of a child's stderr is kept in memory, for its last line."""
LINE_MAX: Final = 200
"""How much of the last line of a child's stderr an agent's error message quotes."""
_PUMP_DRAIN_S = 1.0
_PR_SET_PDEATHSIG = 1


class RotatingLog:
    """Append-only bytes to ``path``; past :data:`LOG_MAX_BYTES` the file moves to ``.1``.
    With no path, output is dropped (a catalog made without a data dir)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._file = None if path is None else _open_log(path)

    def write(self, data: bytes) -> None:
        if self._file is None or self.path is None:
            return
        if self._file.tell() + len(data) > LOG_MAX_BYTES:
            self._file.close()
            for number in range(LOG_BACKUPS, 1, -1):
                older = self.path.with_name(f"{self.path.name}.{number - 1}")
                if older.exists():
                    older.replace(self.path.with_name(f"{self.path.name}.{number}"))
            self.path.replace(self.path.with_name(f"{self.path.name}.1"))
            self._file = _open_log(self.path)
        self._file.write(data)
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _open_log(path: Path) -> BinaryIO:
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.open("ab")


class Child:
    """One started process, its output pumps and the end of its stderr."""

    def __init__(self, process: asyncio.subprocess.Process, log: RotatingLog) -> None:
        self.process = process
        self.started_at = time.monotonic()
        self._tail = bytearray()
        assert process.stdout is not None  # piped by spawn()
        assert process.stderr is not None
        self._pumps = [
            asyncio.ensure_future(_pump(process.stdout, log, None)),
            asyncio.ensure_future(_pump(process.stderr, log, self._tail)),
        ]

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def running(self) -> bool:
        return self.process.returncode is None

    def stderr_line(self) -> str:
        """The last line the child wrote on stderr, cut to :data:`LINE_MAX` characters: what
        an agent's error message quotes (a traceback, whole, would be most of it)."""
        lines = self._tail.decode(errors="replace").strip().splitlines()
        line = lines[-1].strip() if lines else ""
        return line if len(line) <= LINE_MAX else line[: LINE_MAX - 1] + "…"

    async def wait(self) -> int:
        """The exit status once the process has ended and its output has been read."""
        code = await self.process.wait()
        # A grandchild holding the pipes open must not hold this up.
        await asyncio.wait(self._pumps, timeout=_PUMP_DRAIN_S)
        for pump in self._pumps:
            pump.cancel()
        return code

    async def stop(self, grace_s: float) -> None:
        """SIGTERM to its process group, SIGKILL after ``grace_s``; return once it has ended."""
        _signal_group(self.pid, signal.SIGTERM)
        try:
            async with asyncio.timeout(grace_s):
                await self.process.wait()
        except TimeoutError:
            pass
        # Also after a clean exit: whatever it started in its group goes with it.
        _signal_group(self.pid, signal.SIGKILL)
        await self.wait()


async def spawn(
    argv: Sequence[str], env: Mapping[str, str], cwd: Path | None, log: RotatingLog
) -> Child:
    """Start ``argv`` as a child that dies with the host; raises :class:`OSError` when it
    cannot be started at all (no such program, no such folder)."""
    log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} starting {argv[0]}\n".encode())
    process = await asyncio.create_subprocess_exec(
        *argv,
        env=dict(env),
        cwd=cwd,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_die_with_parent(),
    )
    return Child(process, log)


def _die_with_parent() -> Callable[[], None] | None:
    """What the child runs between fork and exec so the kernel kills it when the host dies.

    The signal fires when the thread that forked the child ends: the host forks from its event
    loop's thread, which lives as long as the host. libc is loaded here, before the fork.
    """
    if sys.platform != "linux":
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    parent = os.getpid()

    def arm() -> None:
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the host died before the signal was armed
            os._exit(1)

    return arm


def _signal_group(pid: int, signum: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone
        os.killpg(pid, signum)


async def _pump(stream: asyncio.StreamReader, log: RotatingLog, tail: bytearray | None) -> None:
    while chunk := await stream.read(65536):
        log.write(chunk)
        if tail is not None:
            tail += chunk
            del tail[:-TAIL_BYTES]
