"""Files browserhost rewrites whole: the selection, the instances it remembers."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TEMPORARY_SUFFIX = ".tmp"


def replace_atomically(path: Path, payload: bytes, prefix: str) -> None:
    """Write ``payload`` to ``path`` whole or not at all: a temporary file beside it
    (``prefix``…``.tmp``, created 0600, a mode the replace keeps), fsync, replace, fsync of the
    folder. A write that fails leaves the previous file; raises :class:`OSError`."""
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=TEMPORARY_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    folder_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(folder_fd)
    finally:
        os.close(folder_fd)
