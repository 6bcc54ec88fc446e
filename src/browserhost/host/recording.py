"""The session recording: every action the host runs for an agent session, kept to look at.

Dispatch opens an :class:`Attempt` as an action arrives, fills in the provider and the
parameters as it learns them, and hands it to :meth:`Recorder.keep` with the outcome. From
there nothing is on the action's way: ``keep`` only notes when the action ended and starts a
task, and the answer goes back at once. Once the session pauses (it starts no other action
for :attr:`~.step_pictures.PictureTaking.pause_s`), the task takes a small picture of the
page, bounded in time (:mod:`.step_pictures`); only then, the answer long gone, does it cut
the parameters and the answer down into the step (:mod:`.recorded_values`, bounded work),
and the step is queued to be written (:mod:`.recording_store`, each session's steps in the
order they ran, whichever picture came first). The writer hands a thread whatever has
queued in :data:`WRITE_GATHER_S`, all of it at once: a hand-over per step cost the host more
than an action's own work in a burst of actions. At most :data:`TASKS_MAX` steps
wait to be written (the next are dropped, and the log says so): nothing a page or a
provider does makes the recording grow without bound.

The picture is the surface's: it shows the session the provider shows, which is the one the
agent acted on last unless a person at the viewer chose another.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from browserhost.contract import Context, Parameters
from browserhost.contract.errors import BrowserhostError, ErrorCode
from browserhost.contract.limits import ERROR_TEXT_MAX
from browserhost.contract.recording import OK, RecordedStep, StepPicture
from browserhost.contract.surface import Surface

from .catalog import InstalledProvider
from .recorded_values import kept, kept_parameters
from .recording_store import Bounds, RecordingStore
from .step_pictures import PictureTaking, take_picture

RECORDING_ENV: Final = "BROWSERHOST_RECORDING"
"""``off`` (or ``0``, ``false``, ``no``) records nothing; anything else, or unset, records."""
RECORDINGS_DIR: Final = "recordings"
"""The folder of the data dir that holds the recordings."""

log = logging.getLogger(__name__)


def recording_wanted(option_off: bool = False) -> bool:
    """Whether to record: not when ``serve --no-recording`` or ``BROWSERHOST_RECORDING=off``."""
    setting = os.environ.get(RECORDING_ENV, "").strip().lower()
    return not option_off and setting not in ("off", "0", "false", "no")


def data_dir_recorder(data_dir: Path, option_off: bool = False) -> Recorder:
    """The recorder of a host serving ``data_dir``: on unless the option or the environment
    turns it off."""
    return Recorder(data_dir / RECORDINGS_DIR, enabled=recording_wanted(option_off))


@dataclass
class Attempt:
    """One action on its way through dispatch, as its step will tell it."""

    action: object
    raw_parameters: object
    context: Context
    started_at: float = field(default_factory=time.time)
    started: float = field(default_factory=time.monotonic)
    provider: InstalledProvider | None = None
    """Set once dispatch resolved who answers."""
    parameters: Parameters | object = None
    """Set once dispatch read the parameters as the contract sees them."""
    name: str | None = None


TASKS_MAX: Final = 64
DROPPED_WARNING_S: Final = 60.0
"""The log says that steps are being dropped at most once in this long."""
BEGUN_KEPT: Final = 1_000
"""Sessions whose latest start is remembered before the ones past their pause are let go."""
WRITE_GATHER_S: Final = 0.1
"""How long the writer lets steps gather before it hands them to its thread: each hand-over
costs the host's loop as much as an action's own work, so a burst is written in a few."""
CLOSE_WAIT_S: Final = 5.0
"""How long closing the host waits for steps still being written."""
READ_WAIT_S: Final = 5.0
"""How long a read of a session's steps waits for the ones still being written (the pause
before each picture, then the picture)."""


class Recorder:
    """Keeps the steps of every session under ``folder``; records nothing unless ``enabled``
    (what was recorded before can still be read, :attr:`store`)."""

    def __init__(
        self,
        folder: Path,
        *,
        enabled: bool = False,
        bounds: Bounds | None = None,
        pictures: PictureTaking | None = None,
    ) -> None:
        self.enabled = enabled
        self.store = RecordingStore(folder, bounds)
        self.pictures = pictures if pictures is not None else PictureTaking()
        self._tasks: set[asyncio.Task[None]] = set()
        self._latest: dict[str | None, _Kept] = {}
        """Each session's step kept last, which the next one waits for (to be queued)."""
        self._picturing = 0
        self._begun: dict[str | None, float] = {}
        """When each session last started an action (``time.monotonic()``)."""
        self._queued: list[_Queued] = []
        """Steps to write, in order, and whoever waits for each."""
        self._writer: asyncio.Task[None] | None = None
        self._dropped = 0
        """Steps dropped since the last warning about it."""
        self._warned = -DROPPED_WARNING_S

    def begin(self, action: object, parameters: object, context: Context | None) -> Attempt:
        attempt = Attempt(action, parameters, context if context is not None else Context())
        if self.enabled:
            if len(self._begun) >= BEGUN_KEPT:
                # Only a pause still being waited for needs its session's latest start.
                recent = attempt.started - self.pictures.pause_s
                self._begun = {key: at for key, at in self._begun.items() if at >= recent}
            self._begun[attempt.context.session_id] = attempt.started
        return attempt

    def keep(
        self,
        attempt: Attempt,
        answer: object = None,
        error: BrowserhostError | None = None,
        outcome: str = OK,
    ) -> None:
        """Record the attempt's step, its picture taken off the action's way."""
        if not self.enabled:
            return
        ended = time.monotonic()
        if len(self._tasks) >= TASKS_MAX:
            self._dropped += 1
            # Said at most once a while: under a burst of actions a warning per step would
            # flood the log (and block a host whose log nobody reads).
            if ended - self._warned >= DROPPED_WARNING_S:
                log.warning(
                    "the recording is behind: %d steps were dropped (%d steps wait to be written)",
                    self._dropped,
                    len(self._tasks),
                )
                self._warned, self._dropped = ended, 0
            return
        provider = attempt.provider
        surface = provider.surface if provider is not None else None
        session_id = attempt.context.session_id
        previous = self._latest.get(session_id)
        queued = asyncio.get_running_loop().create_future()
        task = asyncio.get_running_loop().create_task(
            self._write(Finished(attempt, answer, error, outcome, ended), surface, previous, queued)
        )
        kept = _Kept(task, queued)
        self._tasks.add(task)
        self._latest[session_id] = kept
        task.add_done_callback(lambda done: self._done(session_id, kept))

    def _done(self, session_id: str | None, kept: _Kept) -> None:
        self._tasks.discard(kept.task)
        if not kept.queued.done():  # cancelled before it was queued: the next goes on
            kept.queued.set_result(None)
        if self._latest.get(session_id) is kept:
            del self._latest[session_id]

    async def _write(
        self,
        finished: Finished,
        surface: Surface | None,
        previous: _Kept | None,
        queued: asyncio.Future[None],
    ) -> None:
        picture = None
        if surface is not None and await self._paused(finished):
            self._picturing += 1
            try:
                picture = await take_picture(surface, self.pictures)
            finally:
                self._picturing -= 1
        shown = None if picture is None else StepPicture(width=picture[1], height=picture[2])
        step = _step(finished, shown)
        session_id = finished.attempt.context.session_id
        if previous is not None:
            # Pictures are taken side by side; steps are numbered in the order they ran.
            await asyncio.wait({previous.queued})
        written = asyncio.get_running_loop().create_future()
        self._queued.append(
            _Queued(session_id, step, None if picture is None else picture[0], written)
        )
        queued.set_result(None)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        await written

    async def _write_queued(self) -> None:
        """Write what is queued, in one thread hand-over, until nothing is."""
        while self._queued:
            await asyncio.sleep(WRITE_GATHER_S)
            batch, self._queued = self._queued, []
            try:
                failures = await asyncio.to_thread(self._append_all, batch)
            finally:
                for item in batch:
                    if not item.written.done():
                        item.written.set_result(None)
            for failure in failures:
                log.warning("a step of the recording could not be written: %s", failure)

    def _append_all(self, batch: list[_Queued]) -> list[OSError]:
        """Write ``batch`` in order; what kept a step from being written, for each that was."""
        failures = []
        for item in batch:
            try:
                self.store.append(item.session_id, item.step, item.picture)
            except OSError as exc:
                failures.append(exc)
        return failures

    async def _paused(self, finished: Finished) -> bool:
        """Whether the step's session paused after it (see :class:`PictureTaking`), and a
        picture may be taken now."""
        pause_s = self.pictures.pause_s
        if pause_s > 0:
            await asyncio.sleep(pause_s)
            began = self._begun.get(finished.attempt.context.session_id, 0.0)
            if began > finished.ended:
                return False
        return self._picturing < self.pictures.at_once

    async def written(self, session_id: str | None, timeout_s: float = READ_WAIT_S) -> None:
        """Wait, up to ``timeout_s``, until the session's steps kept so far are written (each
        waits for the one before it): a read right after an action shows that action."""
        latest = self._latest.get(session_id)
        if latest is not None:
            await asyncio.wait({latest.task}, timeout=timeout_s)

    async def settled(self, timeout_s: float = CLOSE_WAIT_S) -> None:
        """Wait, up to ``timeout_s``, until every step kept so far is written."""
        pending = set(self._tasks)
        if pending:
            await asyncio.wait(pending, timeout=timeout_s)

    async def aclose(self) -> None:
        """Wait a little for the steps still being written, then let them go."""
        await self.settled()
        late = {*self._tasks, *([self._writer] if self._writer is not None else [])}
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)


@dataclass(frozen=True)
class _Kept:
    """A step on its way to be written: its task, and when it was queued."""

    task: asyncio.Task[None]
    queued: asyncio.Future[None]


@dataclass(frozen=True)
class _Queued:
    """A step waiting for the writer, and the future its task waits on until it is written."""

    session_id: str | None
    step: RecordedStep
    picture: bytes | None
    written: asyncio.Future[None]


ACTION_CHARS_MAX: Final = 200
CANCELLED: Final = ErrorCode.CANCELLED.value
"""The outcome of an action whose caller stopped waiting for it."""


@dataclass(frozen=True)
class Finished:
    """An attempt as it ended, kept whole until its step is made: while its picture is taken
    (at most :attr:`PictureTaking.at_once` steps at a time), off the action's way."""

    attempt: Attempt
    answer: object
    error: BrowserhostError | None
    outcome: str
    ended: float
    """``time.monotonic()`` when the answer went back."""


def _step(finished: Finished, picture: StepPicture | None) -> RecordedStep:
    attempt, answer, error = finished.attempt, finished.answer, finished.error
    outcome = finished.outcome if error is None else error.code.value
    name = attempt.name if attempt.name is not None else str(attempt.action)[:ACTION_CHARS_MAX]
    parameters = attempt.parameters if attempt.parameters is not None else attempt.raw_parameters
    if isinstance(parameters, Parameters):
        parameters = parameters.to_wire()
    provider = attempt.provider
    return RecordedStep(
        seq=0,  # numbered as it is written
        action=name,
        provider_id=provider.id if provider is not None else None,
        parameters=kept_parameters(name, parameters, answer),
        outcome=outcome,
        error=None if error is None else error.message[:ERROR_TEXT_MAX],
        answer=kept(answer),
        started_at=attempt.started_at,
        duration_ms=round((finished.ended - attempt.started) * 1000),
        picture=picture,
    )
