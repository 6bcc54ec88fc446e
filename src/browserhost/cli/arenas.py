"""How the commands that run for hours (``serve``, ``mcp``) ask glibc's ``malloc`` to hold
their memory: in at most :data:`ARENAS_MAX` arenas.

Every thread that allocates (the workers that write the recording, make its thumbnails and
resolve host names) gets an arena of its own from glibc, up to eight per core, and memory
freed in one stays with it. A host serving four sessions for ten minutes grew 14.8 % after
its warm-up (``benches/bench_soak.py``); with two arenas, 3.0 % over four minutes, where it
had grown 12.2 %. A ``MALLOC_ARENA_MAX`` in the environment still decides.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

ARENAS_MAX = 2
M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter for the arena limit."""


def few_malloc_arenas() -> None:
    """Cap glibc's arenas for this process; call it before any thread starts. Elsewhere
    (another C library, another system), nothing changes."""
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c")).mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_ARENA_MAX, ARENAS_MAX)
