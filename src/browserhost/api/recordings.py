"""The session recordings (:mod:`browserhost.host.recording`), behind the token like every
``/api`` route: what the viewer's timeline and ``browserhost trace export`` read.

- ``GET /api/recordings``: whether the host records now, and the sessions it has recorded.
- ``GET /api/recordings/steps?session=ID&after=SEQ&pictures=true``: one session's steps (only
  those numbered above ``after``), oldest first, each picture's JPEG inlined as base64 when
  ``pictures`` is true. Without ``session``: the actions sent without one. A session with no
  recording has no steps.
- ``GET /api/recordings/pictures/{seq}?session=ID``: one step's picture, a JPEG.

Refusals: 400 ``INVALID_QUERY`` (``after`` or ``pictures`` not understood), 404
``NOT_RECORDED`` (no picture for that step). Reading changes nothing.
"""

from __future__ import annotations

import asyncio
import base64
from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse
from starlette.responses import Response

from browserhost.contract.recording import Recording, RecordingsAnswer, StepPicture

from .paths import RECORDING_PICTURE_PATH, RECORDING_STEPS_PATH, RECORDINGS_PATH
from .routes import _GATE, HostDep
from .schemas import Refusal, refusals

router = APIRouter()

SessionQuery = Annotated[
    str | None,
    Query(
        description="The agent session (the context's sessionId); leave out for the actions "
        "sent without one.",
    ),
]
SEQ_DIGITS_MAX = 9
SEQ_PATTERN = f"^[0-9]{{1,{SEQ_DIGITS_MAX}}}$"
"""Read by the routes themselves, so a number they cannot read is answered in the contract's
words; the pattern is for the OpenAPI document."""


@router.get(RECORDINGS_PATH, response_model=RecordingsAnswer, responses=refusals(*_GATE))
async def list_recordings(host: HostDep) -> object:
    """Whether this host records actions now, and the sessions it has recorded, the latest
    written to first."""
    sessions = await asyncio.to_thread(host.recorder.store.sessions)
    answer = RecordingsAnswer(recording=host.recorder.enabled, sessions=sessions)
    return answer.model_dump(mode="json", by_alias=True)


@router.get(RECORDING_STEPS_PATH, response_model=Recording, responses=refusals(400, *_GATE))
async def recording_steps(
    host: HostDep,
    session: SessionQuery = None,
    after: Annotated[
        str | None,
        Query(
            description="Only the steps numbered above this one.",
            json_schema_extra={"pattern": SEQ_PATTERN},
        ),
    ] = None,
    pictures: Annotated[
        str | None,
        Query(
            description="true: each step's picture inlined, as base64.",
            json_schema_extra={"enum": ["true", "false"]},
        ),
    ] = None,
) -> object:
    """One session's steps, oldest first: each action, its parameters, outcome, time and
    answer, and whether a picture of the page after it was kept. Steps still being written
    (their picture is taken a moment after the action) are waited for."""
    after_seq = _seq("0" if after is None else after)
    inline = pictures in (None, "false", "true")
    if after_seq is None or not inline:
        return _refused(
            400,
            "INVALID_QUERY",
            "after takes a step number (0 or more) and pictures takes true or false. "
            "Nothing was read.",
        )
    await host.recorder.written(session)
    store = host.recorder.store
    steps = await asyncio.to_thread(store.steps, session, after_seq)
    if pictures == "true":
        with_pictures = []
        for step in steps:
            if step.picture is not None:
                data = await asyncio.to_thread(store.picture, session, step.seq)
                picture = StepPicture(
                    width=step.picture.width,
                    height=step.picture.height,
                    base64=None if data is None else base64.b64encode(data).decode(),
                )
                step = step.model_copy(update={"picture": picture})
            with_pictures.append(step)
        steps = with_pictures
    return Recording(session_id=session, steps=steps).model_dump(mode="json", by_alias=True)


@router.get(
    RECORDING_PICTURE_PATH,
    response_class=Response,
    responses={
        200: {"content": {"image/jpeg": {}}, "description": "The picture, a JPEG."},
        404: {"model": Refusal},
        **refusals(*_GATE),
    },
)
async def recording_picture(
    host: HostDep,
    seq: Annotated[
        str, Path(description="The step's number.", json_schema_extra={"pattern": SEQ_PATTERN})
    ],
    session: SessionQuery = None,
) -> Response:
    """The picture of the page right after one step, as the recording kept it (small)."""
    number = _seq(seq)
    picture = None
    if number is not None:
        picture = await asyncio.to_thread(host.recorder.store.picture, session, number)
    if picture is None:
        return _refused(
            404,
            "NOT_RECORDED",
            f"No picture was kept for step {seq[:20]!r} of this session (none was taken, or "
            "the step was dropped as the recording grew).",
        )
    return Response(picture, media_type="image/jpeg", headers={"cache-control": "no-store"})


def _seq(raw: str) -> int | None:
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= SEQ_DIGITS_MAX else None


def _refused(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"ok": False, "code": code, "error": message}, status_code=status)
