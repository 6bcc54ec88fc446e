"""Which provider the user selected, kept in ``browser-provider-selection.json``.

The file holds only ``{"selectedId": ...}``. A missing file is no selection. A file that
cannot be read or parsed is an error, never "no selection". Writes are atomic (temporary
file, fsync, replace, fsync of the folder), so a failed write leaves the previous choice.
A writer killed mid-write leaves its temporary file behind; a new host removes the ones older
than :data:`STALE_TEMPORARY_S`.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

SELECTION_FILE = "browser-provider-selection.json"
_TEMPORARY = (".selection-", ".tmp")
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
        folder = self.path.parent
        payload = json.dumps({"selectedId": provider_id}).encode()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=folder, prefix=_TEMPORARY[0], suffix=_TEMPORARY[1])
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(payload)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(temp, self.path)
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise
            folder_fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(folder_fd)
            finally:
                os.close(folder_fd)
        except OSError as exc:
            raise SelectionWriteError(f"cannot write {self.path}: {exc.strerror}") from exc

    def remove_stale_temporaries(self) -> None:
        """Remove the temporary files of writes killed midway (best effort, never raises)."""
        prefix, suffix = _TEMPORARY
        cutoff = time.time() - STALE_TEMPORARY_S
        try:
            leftovers = list(self.path.parent.glob(f"{prefix}*{suffix}"))
        except OSError:
            return
        for leftover in leftovers:
            try:
                if leftover.stat().st_mtime < cutoff:
                    leftover.unlink()
            except OSError:
                continue  # gone already, or not ours to remove: the next start tries again
