"""Where the session recordings live on disk, and the bounds that keep them small.

::

    <data dir>/recordings/                 0700: pictures of pages are the user's business
      <digest of the session id>/
        session.json                       {"sessionId": ...}
        steps.jsonl                        one RecordedStep a line, in the order written
        <seq>.jpg                          a step's picture

A line is appended whole, in one write; a line a crash cut short is skipped when read. Once a
session holds more than ``steps_max`` steps (and a tenth more, so the file is not rewritten on
every step) it is rewritten with its last ``steps_max``, and the older pictures are deleted.
Once all recordings take more than ``total_max_bytes``, or there are more than
``sessions_max`` sessions, the sessions written to longest ago are deleted whole, never the
one being written.

Every method blocks on the disk: the host calls them in a worker thread, one writer at a
time (:class:`~browserhost.host.recording.Recorder`); readers may run beside it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from browserhost.contract.recording import RecordedStep, RecordingSummary

SESSION_FILE = "session.json"
STEPS_FILE = "steps.jsonl"
PICTURE_SUFFIX = ".jpg"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Bounds:
    """What the recordings may hold: each session its last ``steps_max`` steps, and all of
    them ``total_max_bytes`` on disk and ``sessions_max`` sessions (the sessions written to
    longest ago go first)."""

    steps_max: int = 500
    total_max_bytes: int = 200 * 1024 * 1024
    sessions_max: int = 200


@dataclass
class _Written:
    """What the writer knows of one session's file, so a step costs one append."""

    last_seq: int
    lines: int


class RecordingStore:
    def __init__(self, folder: Path, bounds: Bounds | None = None) -> None:
        self.folder = folder
        self.bounds = bounds if bounds is not None else Bounds()
        self._written: dict[Path, _Written] = {}
        self._total_bytes: int | None = None  # counted on the first write
        self._read: tuple[Path, int, int, list[RecordedStep]] | None = None
        self._summaries: dict[Path, tuple[int, int, RecordingSummary]] = {}

    # --- writing ------------------------------------------------------------------------

    def append(self, session_id: str | None, step: RecordedStep, picture: bytes | None) -> int:
        """Write ``step`` (its ``seq`` is given here) and its picture; the step's number."""
        folder = self._session_folder(session_id)
        written = self._written.get(folder)
        if written is None:
            written = self._written[folder] = self._open(folder, session_id)
        written.last_seq += 1
        seq = written.last_seq
        added = 0
        if picture is not None:
            (folder / f"{seq}{PICTURE_SUFFIX}").write_bytes(picture)
            added += len(picture)
        else:
            step = step.model_copy(update={"picture": None})
        line = (step.model_copy(update={"seq": seq}).model_dump_json(by_alias=True) + "\n").encode()
        with (folder / STEPS_FILE).open("ab") as steps:
            steps.write(line)
        added += len(line)
        written.lines += 1
        if written.lines > self.bounds.steps_max + max(1, self.bounds.steps_max // 10):
            added -= self._compact(folder, written)
        self._count(added)
        self._keep_within_total(keep=folder)
        return seq

    def _open(self, folder: Path, session_id: str | None) -> _Written:
        """A session's folder made ready to append to: created, or its last step read."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not folder.is_dir():
            folder.mkdir(mode=0o700)
            (folder / SESSION_FILE).write_text(json.dumps({"sessionId": session_id}))
            self._keep_within_sessions(keep=folder)
            return _Written(0, 0)
        steps = _read_steps(folder / STEPS_FILE)
        return _Written(max((step.seq for step in steps), default=0), len(steps))

    def _compact(self, folder: Path, written: _Written) -> int:
        """Keep the last ``steps_max`` lines; the bytes freed. Lines are moved as written, and
        only a dropped one is read (for its picture's number): parsing and writing every
        kept step anew made each append five times dearer in a long session."""
        path = folder / STEPS_FILE
        try:
            lines = path.read_bytes().splitlines()
        except OSError:
            return 0
        dropped, kept = lines[: -self.bounds.steps_max], lines[-self.bounds.steps_max :]
        freed = _size(path)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".steps-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as rewritten:
                rewritten.writelines(line + b"\n" for line in kept)
            os.replace(temporary, path)
        finally:
            Path(temporary).unlink(missing_ok=True)
        freed -= _size(path)
        for line in dropped:
            seq = _seq(line)
            if seq is not None:
                picture = folder / f"{seq}{PICTURE_SUFFIX}"
                freed += _size(picture)
                picture.unlink(missing_ok=True)
        written.lines = len(kept)
        return freed

    def _count(self, added: int) -> None:
        if self._total_bytes is None:
            self._total_bytes = sum(_size(path) for path in self.folder.glob("*/*"))
        else:
            self._total_bytes += added

    def _keep_within_total(self, keep: Path) -> None:
        if self._total_bytes is None or self._total_bytes <= self.bounds.total_max_bytes:
            return
        for folder in self._oldest_first():
            if self._total_bytes <= self.bounds.total_max_bytes * 0.9:
                break
            if folder != keep:
                self._total_bytes -= self._delete(folder)

    def _keep_within_sessions(self, keep: Path) -> None:
        folders = self._oldest_first()
        for folder in folders[: max(0, len(folders) - self.bounds.sessions_max)]:
            if folder != keep:
                freed = self._delete(folder)
                if self._total_bytes is not None:
                    self._total_bytes -= freed

    def _oldest_first(self) -> list[Path]:
        found = [(_mtime(folder), folder) for folder in self._folders()]
        return [folder for _, folder in sorted(found)]

    def _delete(self, folder: Path) -> int:
        freed = sum(_size(path) for path in folder.glob("*"))
        shutil.rmtree(folder, ignore_errors=True)
        self._written.pop(folder, None)
        self._summaries.pop(folder, None)
        return freed

    # --- reading ------------------------------------------------------------------------

    def sessions(self) -> list[RecordingSummary]:
        """Every session with a recording, the latest written to first."""
        summaries = []
        for folder in self._folders():
            summary = self._summary(folder)
            if summary is not None:
                summaries.append(summary)
        return sorted(summaries, key=lambda summary: summary.updated_at, reverse=True)

    def steps(self, session_id: str | None, after: int = 0) -> list[RecordedStep]:
        """The session's steps numbered above ``after``, in the order they ran."""
        steps = self._steps(self._session_folder(session_id))
        return [step for step in steps if step.seq > after]

    def picture(self, session_id: str | None, seq: int) -> bytes | None:
        with contextlib.suppress(OSError):
            return (self._session_folder(session_id) / f"{seq}{PICTURE_SUFFIX}").read_bytes()
        return None

    def _steps(self, folder: Path) -> list[RecordedStep]:
        """Read again only when the file changed: the viewer asks every few seconds."""
        path = folder / STEPS_FILE
        try:
            stat = path.stat()
        except OSError:
            return []
        cached = self._read
        if cached is not None and cached[:3] == (path, stat.st_mtime_ns, stat.st_size):
            return cached[3]
        steps = _read_steps(path)[-self.bounds.steps_max :]
        steps.sort(key=lambda step: (step.started_at, step.seq))
        self._read = (path, stat.st_mtime_ns, stat.st_size, steps)
        return steps

    def _summary(self, folder: Path) -> RecordingSummary | None:
        """Read again only when the file changed: the viewer lists them every few seconds."""
        path = folder / STEPS_FILE
        try:
            stat = path.stat()
        except OSError:
            return None
        cached = self._summaries.get(folder)
        if cached is not None and cached[:2] == (stat.st_mtime_ns, stat.st_size):
            return cached[2]
        try:
            session = json.loads((folder / SESSION_FILE).read_text())["sessionId"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        steps = _read_steps(path)[-self.bounds.steps_max :]
        summary = RecordingSummary(
            session_id=session if isinstance(session, str) else None,
            steps=len(steps),
            failures=sum(step.failed for step in steps),
            updated_at=stat.st_mtime,
        )
        self._summaries[folder] = (stat.st_mtime_ns, stat.st_size, summary)
        return summary

    def _folders(self) -> list[Path]:
        try:
            return [path for path in self.folder.iterdir() if path.is_dir()]
        except OSError:
            return []

    def _session_folder(self, session_id: str | None) -> Path:
        # A digest: a session id is the agent's text, never a path.
        key = "\0" if session_id is None else session_id
        return self.folder / hashlib.sha256(key.encode()).hexdigest()[:32]


def _read_steps(path: Path) -> list[RecordedStep]:
    try:
        lines = path.read_bytes().splitlines()
    except OSError:
        return []
    steps = []
    for line in lines:
        try:
            steps.append(RecordedStep.model_validate_json(line))
        except ValidationError:
            continue  # a line a crash cut short
    return steps


def _seq(line: bytes) -> int | None:
    """A step line's number; ``None`` for a line a crash cut short."""
    try:
        seq = json.loads(line).get("seq")
    except (ValueError, AttributeError):
        return None
    return seq if isinstance(seq, int) else None


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _mtime(folder: Path) -> float:
    try:
        return (folder / STEPS_FILE).stat().st_mtime
    except OSError:
        return folder.stat().st_mtime if folder.exists() else 0.0
