"""What a process holds and which processes it started, read from ``/proc``.

The fault tests and the browser tests use these to show that a fault leaves nothing behind:
no file descriptor, no child process, no zombie, no browser profile.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

CHROMIUM_NAMES = frozenset({"chromium", "chrome", "chromium-browser", "headless_shell"})
"""Executable names of Chromium's own processes (the browser, its zygotes, renderers)."""
PROCESS_WAIT_S = 60.0
"""How long a test waits for another process's exit or cleanup: generous, for a loaded machine;
only a failing test waits this long."""


@dataclass(frozen=True)
class Process:
    pid: int
    parent: int
    name: str
    """The executable's file name (``chromium``, ``node``, ``python3.11``)."""
    zombie: bool


def processes() -> dict[int, Process]:
    """Every process of the machine that can be read now."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # exited meanwhile
            continue
        try:
            name = Path(os.readlink(entry / "exe").removesuffix(" (deleted)")).name
        except OSError:  # a zombie or a kernel thread has no executable to show
            name = ""
        # "pid (comm) state ppid ...": comm may itself hold spaces and parentheses.
        state, ppid = stat.rpartition(")")[2].split()[:2]
        if state == "X":
            continue
        pid = int(entry.name)
        found[pid] = Process(pid, int(ppid), name, zombie=state == "Z")
    return found


def descendants(root: int) -> dict[int, Process]:
    """The processes started by ``root``, directly or not, zombies included."""
    table = processes()
    found = {}
    for pid, process in table.items():
        ancestor = process.parent
        while ancestor in table and ancestor != root:
            ancestor = table[ancestor].parent
        if ancestor == root:
            found[pid] = process
    return found


def chromium_processes(root: int) -> dict[int, int]:
    """The live Chromium processes descended from ``root``, each with its parent's pid."""
    return {
        pid: process.parent
        for pid, process in descendants(root).items()
        if process.name in CHROMIUM_NAMES and not process.zombie
    }


def listens_on(pid: int, port: int) -> bool:
    """Whether ``pid`` itself holds the socket listening on loopback ``port``: a server found
    answering there may be another test's, started on a port both were given as free."""
    wanted = f":{port:04X}"
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[1].endswith(wanted) and fields[3] == "0A":  # LISTEN
                    inodes.add(f"socket:[{fields[9]}]")
    try:
        held = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
    except OSError:  # exited
        return False
    return bool(inodes & held)


def open_fds(pid: int) -> int:
    """How many file descriptors ``pid`` holds open."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def profile_dir(pid: int) -> Path:
    """The ``--user-data-dir`` a Chromium process was started with."""
    arguments = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    [directory] = [a.partition("=")[2] for a in arguments if a.startswith("--user-data-dir=")]
    return Path(directory)


def wait_until(done: Callable[[], bool], failure: str, timeout_s: float = PROCESS_WAIT_S) -> None:
    """Poll ``done`` until it holds, at most ``timeout_s``: another process's exit and cleanup
    send this one no event to wait on."""
    deadline = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < deadline, failure
        time.sleep(0.02)


def browser_of(chromium: dict[int, int]) -> int:
    """The browser process of ``chromium`` (a :func:`chromium_processes`): the one whose
    parent is not Chromium (Playwright's driver)."""
    [browser] = [pid for pid, parent in chromium.items() if parent not in chromium]
    return browser


def kill_browser(root: int) -> set[int]:
    """SIGKILL every Chromium process under ``root``; return once it has cleaned up.

    The browser is the Chromium process whose parent is not Chromium (Playwright's driver).
    The driver deletes the browser's temporary profile after the browser's exit, by which
    time it has told the host the browser is gone. Sent sooner, even after the processes
    are gone, an action can find the dead browser still taken for a live one and answer
    REQUEST_FAILED ("may have run"), as it does when it is in flight.
    """
    chromium = chromium_processes(root)
    browser = browser_of(chromium)
    profile = profile_dir(browser)
    assert profile.is_dir(), profile
    for pid in chromium:
        with contextlib.suppress(ProcessLookupError):  # a child that died with its browser
            os.kill(pid, signal.SIGKILL)
    wait_until(lambda: not chromium_processes(root).keys() & chromium.keys(), "SIGKILL failed")
    wait_until(lambda: not profile.exists(), f"Playwright did not clean up {profile}")
    return set(chromium)


@dataclass(frozen=True)
class Holdings:
    """What a process holds at one moment: its open descriptors, the processes it started, and
    which of those were zombies already (left by someone else, say an earlier test)."""

    pid: int
    fds: int
    children: frozenset[int]
    zombies: frozenset[int]

    @classmethod
    def of(cls, pid: int) -> Holdings:
        table = descendants(pid)
        zombies = frozenset(p for p, process in table.items() if process.zombie)
        return cls(pid, open_fds(pid), frozenset(table), zombies)

    def assert_nothing_more_later(self, *, replaced: bool = False) -> None:
        """Wait (bounded) until the process holds no more descriptors than it did and no new
        zombie; unless ``replaced`` (a relaunched browser), it runs exactly the children it
        ran."""

        def settled() -> bool:
            now = Holdings.of(self.pid)
            if now.fds > self.fds or now.zombies - self.zombies:
                return False
            return replaced or now.children == self.children

        def describe() -> str:
            now = Holdings.of(self.pid)
            table = descendants(self.pid)
            return (
                f"pid {self.pid} held {self.fds} fds and {sorted(self.children)}; now "
                f"{now.fds} fds, {sorted((p, table[p].name) for p in now.children)}, "
                f"zombies {sorted(now.zombies)}"
            )

        deadline = time.monotonic() + PROCESS_WAIT_S
        while not settled():
            assert time.monotonic() < deadline, describe()
            time.sleep(0.05)  # closing happens in other tasks and processes: nothing to await
