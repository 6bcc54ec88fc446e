"""Which provider the user selected, kept in ``browser-provider-selection.json``.

The file holds only ``{"selectedId": ...}``. A missing file is no selection. A file that
cannot be read or parsed is an error, never "no selection". Writes are atomic (temporary
file, fsync, replace, fsync of the folder), so a failed write leaves the previous choice.
A writer killed mid-write leaves its temporary file behind; a new host removes the ones older
than :data:`STALE_TEMPORARY_S`.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from browserhost.files import TEMPORARY_SUFFIX, replace_atomically

SELECTION_FILE = "browser-provider-selection.json"
_TEMPORARY_PREFIX = ".selection-"
STALE_TEMPORARY_S = 60.0
"""A write holds its temporary file for milliseconds. Removing one still in use is safe anyway:
that writer's replace fails and reports that the previous choice stays."""


class SelectionReadError(Exception):
    pass


class SelectionWriteError(Exception):
    pass


class SelectionStore:
    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / SELECTION_FILE

    def read(self) -> str | None:
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
