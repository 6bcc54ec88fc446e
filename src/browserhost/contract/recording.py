"""A session's recording: the actions the host ran for one agent session, to look back at.

The host keeps it (:mod:`browserhost.host.recording`), the HTTP API serves it
(``/api/recordings``), the viewer shows it as a timeline, and ``browserhost trace export``
writes it as a Playwright trace or one HTML page. These models are what all of them read::

    Recording            one session's steps, oldest first
      RecordedStep       one action: its parameters, outcome, time, answer and picture
        StepPicture      a small JPEG of the page right after the answer (its size, and the
                         bytes when asked for)
    RecordingSummary     one session in the listing of recordings

Parameters and answers are kept as the contract sees them, cut to a few hundred characters a
value and with anything secret left out: text typed into a field whose value the page did not
report back (a password field's never is), and every value under a key that names a secret
(``password``, ``token``, ``cookie``, ...).
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import Field

from .base import WireModel, absent_when_none

VALUE_CHARS_MAX: Final = 300
"""The longest string kept of a parameter or an answer; a longer one ends in …"""
OK: Final = "ok"
"""A step's outcome when the action answered; otherwise the error code it ended with."""


PICTURE_BOX: Final = (480, 360)
"""A step's picture fits in this box (width, height), in pixels."""


class StepPicture(WireModel):
    width: int
    height: int
    base64: str | None = absent_when_none("The JPEG, when the pictures were asked for.")


class RecordedStep(WireModel):
    """One action the host ran for the session, and how it ended."""

    seq: int = Field(description="The step's number in its recording: 1, 2, 3, ...")
    action: str = Field(description="browser.open, browser.click, verb.<name>, ...")
    provider_id: str | None = absent_when_none("Who answered, once one was chosen.")
    parameters: Any = Field(None, description="The parameters, as the contract read them.")
    outcome: str = Field(description='"ok", or the error code the action ended with.')
    error: str | None = absent_when_none("What the refusal or failure said.")
    answer: Any = absent_when_none("The answer's data, cut short where it is long.")
    started_at: float = Field(description="When the host got the action, in epoch seconds.")
    duration_ms: int = Field(description="From the host getting the action to its answer.")
    picture: StepPicture | None = absent_when_none("The page right after the answer.")

    @property
    def failed(self) -> bool:
        return self.outcome != OK


class Recording(WireModel):
    session_id: str | None = Field(
        description="The agent session; null for actions sent without one."
    )
    steps: list[RecordedStep] = Field(description="Oldest first.")


class RecordingSummary(WireModel):
    session_id: str | None
    steps: int
    failures: int
    updated_at: float = Field(description="When its last step was written, in epoch seconds.")


class RecordingsAnswer(WireModel):
    recording: bool = Field(description="Whether this host records actions now.")
    sessions: list[RecordingSummary] = Field(description="The latest written to first.")
