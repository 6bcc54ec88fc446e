"""Which provider the user selected, kept in ``browser-provider-selection.json``.

The file holds only ``{"selectedId": ...}``. A missing file is no selection. A file that
cannot be read or parsed is an error, never "no selection". Writes are atomic (temporary
file, fsync, replace, fsync of the folder), so a failed write leaves the previous choice.
Every action reads the selection, and another process (``browserhost select``, a second host
on the same data dir) may change it at any moment: :meth:`SelectionStore.read` looks at the
file's status every time, and reads and parses it again whenever that changed.
A writer killed mid-write leaves its temporary file behind; a new host removes the ones older
than :data:`STALE_TEMPORARY_S`.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from browserhost.files import TEMPORARY_SUFFIX, replace_atomically

SELECTION_FILE = "browser-provider-selection.json"
_TEMPORARY_PREFIX = ".selection-"
STALE_TEMPORARY_S = 60.0
"""A write holds its temporary file for milliseconds. Removing one still in use is safe anyway:
that writer's replace fails and reports that the previous choice stays."""


_SETTLED_NS = 1_000_000_000
"""How old a file's last change must be before its status alone may stand for its content.
A filesystem stamps changes with a coarse clock (a few milliseconds, two seconds on FAT), so
two same-size writes within one tick can leave identical status; like git with a racily clean
index, a file changed that recently is read again on every call until it is older."""

_Status = tuple[int, int, int, int, int]


class SelectionReadError(Exception):
    pass


class SelectionWriteError(Exception):
    pass


class SelectionStore:
    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / SELECTION_FILE
        self._known: tuple[_Status, str | None] | None = None
        """The status of the file last parsed, and what it held."""

    def read(self) -> str | None:
        # A status call costs a fraction of opening, reading and parsing the file, which
        # every action would otherwise pay.
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SelectionReadError(f"cannot read {self.path}: {exc.strerror}") from exc
        # ctime: a change of mode or owner (the file made unreadable) changes it too.
        status = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        known = self._known
        if known is not None and known[0] == status:
            return known[1]
        selected = self._parse()
        settled = time.time_ns() - max(info.st_mtime_ns, info.st_ctime_ns) > _SETTLED_NS
        self._known = (status, selected) if settled else None
        return selected

    def _parse(self) -> str | None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SelectionReadError(f"cannot read {self.path}: {exc.strerror}") from exc
        try:
            stored = json.loads(raw)
        except ValueError:
            raise SelectionReadError(f"{self.path} is not valid JSON") from None
        if not isinstance(stored, dict):
            raise SelectionReadError(f"{self.path} does not hold an object")
        selected = stored.get("selectedId")
        if selected is not None and not isinstance(selected, str):
            raise SelectionReadError(f"{self.path} holds a selectedId that is not a string")
        return selected

    def write(self, provider_id: str) -> None:
        payload = json.dumps({"selectedId": provider_id}).encode()
        try:
            replace_atomically(self.path, payload, _TEMPORARY_PREFIX)
        except OSError as exc:
            raise SelectionWriteError(f"cannot write {self.path}: {exc.strerror}") from exc

    def remove_stale_temporaries(self) -> None:
        """Remove the temporary files of writes killed midway (best effort, never raises)."""
        cutoff = time.time() - STALE_TEMPORARY_S
        try:
            leftovers = list(self.path.parent.glob(f"{_TEMPORARY_PREFIX}*{TEMPORARY_SUFFIX}"))
        except OSError:
            return
        for leftover in leftovers:
            try:
                if leftover.stat().st_mtime < cutoff:
                    leftover.unlink()
            except OSError:
                continue  # gone already, or not ours to remove: the next start tries again
