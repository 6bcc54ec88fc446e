"""A session's recording as a Playwright trace, which ``playwright show-trace FILE`` opens.

The zip holds what Playwright's trace viewer reads, in its format version 7 (viewers since
Playwright 1.4x read it; newer ones bring it up to date as they load it)::

    trace.trace     JSON lines: one context-options event; for each step, in the order they
                    ran, a before event (callId, apiName, params, startTime), a log line with
                    its outcome, an after event (endTime, the answer as result, or the error)
                    and the step's snapshots; then every picture as a screencast-frame event
                    naming its file, in time order
    trace.network   empty: the host does not see the page's own requests
    resources/      the pictures, each named by its SHA-1

Times are milliseconds from the first step's start. A step's picture was taken right after its
answer: its frame is stamped with the step's end, and it is also the step's "after" snapshot
(a page holding just that picture) and the next step's "before" one, so the viewer's Before
and After tabs show the page on either side of each action. A snapshot follows the event that
names it: the viewer learns a snapshot's phase from that name.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import json
import platform
import zipfile
from dataclasses import dataclass
from typing import Any, Final

from browserhost.contract.recording import RecordedStep, Recording

TRACE_VERSION: Final = 7
PAGE_ID: Final = "page@browserhost"
FRAME_ID: Final = "frame@browserhost"
CLASS_NAME: Final = "Browserhost"


@dataclass(frozen=True)
class _Shot:
    """A step's picture, and where the page was when it was taken."""

    name: str
    """Its file in ``resources/``."""
    encoded: str
    width: int
    height: int
    url: str
    at: float
    wall_ms: int


def trace_zip(recording: Recording) -> bytes:
    """The recording (with its pictures inlined) as a Playwright trace zip."""
    steps = sorted(recording.steps, key=lambda step: (step.started_at, step.seq))
    start_s = steps[0].started_at if steps else 0.0
    events: list[dict[str, Any]] = [_context(recording, steps, start_s)]
    shots: list[_Shot] = []
    resources: dict[str, bytes] = {}
    for step in steps:
        shot = _shot(step, start_s, resources)
        events += _events(step, start_s, shots[-1] if shots else None, shot)
        if shot is not None:
            shots.append(shot)
    # The viewer looks a frame up by its time: they go in time order, whatever overlapped.
    events += [_frame(shot) for shot in sorted(shots, key=lambda shot: shot.at)]
    written = io.BytesIO()
    with zipfile.ZipFile(written, "w", zipfile.ZIP_DEFLATED) as archive:
        lines = "".join(json.dumps(event, ensure_ascii=False) + "\n" for event in events)
        archive.writestr("trace.trace", lines)
        archive.writestr("trace.network", "")
        for name, picture in resources.items():
            archive.writestr(f"resources/{name}", picture, zipfile.ZIP_STORED)
    return written.getvalue()


def _context(recording: Recording, steps: list[RecordedStep], start_s: float) -> dict[str, Any]:
    providers = sorted({step.provider_id for step in steps if step.provider_id})
    pictured = [step.picture for step in steps if step.picture is not None]
    options: dict[str, Any] = {}
    if pictured:
        options["viewport"] = {"width": pictured[0].width, "height": pictured[0].height}
    return {
        "version": TRACE_VERSION,
        "type": "context-options",
        "origin": "library",
        "browserName": ", ".join(providers) or "browserhost",
        "platform": platform.system().lower(),
        "wallTime": round(start_s * 1000),
        "monotonicTime": 0,
        "sdkLanguage": "python",
        "title": f"browserhost session {recording.session_id or '(none)'}",
        "options": options,
    }


def _events(
    step: RecordedStep, start_s: float, previous: _Shot | None, shot: _Shot | None
) -> list[dict[str, Any]]:
    call_id = f"call@{step.seq}"
    began = _ms(step, start_s)
    ended = began + step.duration_ms
    before: dict[str, Any] = {
        "type": "before",
        "callId": call_id,
        "startTime": began,
        "apiName": step.action,
        "class": CLASS_NAME,
        "method": step.action.rpartition(".")[2] or step.action,
        "params": step.parameters if isinstance(step.parameters, dict) else {},
        "wallTime": round(step.started_at * 1000),
        "pageId": PAGE_ID,
    }
    said = step.outcome if step.error is None else f"{step.outcome}: {step.error}"
    where = f" by {step.provider_id}" if step.provider_id else ""
    log = {
        "type": "log",
        "callId": call_id,
        "time": ended,
        "message": f"{said} ({step.duration_ms} ms{where})",
    }
    after: dict[str, Any] = {"type": "after", "callId": call_id, "endTime": ended}
    if step.failed:
        after["error"] = {"name": step.outcome, "message": step.error or step.outcome}
    elif step.answer is not None:
        after["result"] = step.answer
    events = [before]
    if previous is not None:
        before["beforeSnapshot"] = f"before@{call_id}"
        events.append(_snapshot(previous, call_id, "before", began))
    events += [log, after]
    if shot is not None:
        after["afterSnapshot"] = f"after@{call_id}"
        events.append(_snapshot(shot, call_id, "after", ended))
    return events


def _shot(step: RecordedStep, start_s: float, resources: dict[str, bytes]) -> _Shot | None:
    picture = step.picture
    if picture is None or picture.base64 is None:
        return None
    try:
        data = base64.b64decode(picture.base64, validate=True)
    except (binascii.Error, ValueError):
        return None
    name = hashlib.sha1(data, usedforsecurity=False).hexdigest() + ".jpeg"
    resources[name] = data
    url = step.answer.get("url") if isinstance(step.answer, dict) else None
    return _Shot(
        name=name,
        encoded=picture.base64,
        width=picture.width,
        height=picture.height,
        url=url if isinstance(url, str) else "about:blank",
        at=_ms(step, start_s) + step.duration_ms,
        wall_ms=round(step.started_at * 1000) + step.duration_ms,
    )


def _frame(shot: _Shot) -> dict[str, Any]:
    return {
        "type": "screencast-frame",
        "pageId": PAGE_ID,
        "sha1": shot.name,
        "width": shot.width,
        "height": shot.height,
        "timestamp": shot.at,
    }


def _snapshot(shot: _Shot, call_id: str, phase: str, at: float) -> dict[str, Any]:
    """A DOM snapshot that is a page holding ``shot``, for the viewer's Before/After tabs."""
    image = [
        "IMG",
        {"src": f"data:image/jpeg;base64,{shot.encoded}", "alt": "The page", "style": "width:100%"},
    ]
    return {
        "type": "frame-snapshot",
        "snapshot": {
            "callId": call_id,
            "snapshotName": f"{phase}@{call_id}",
            "pageId": PAGE_ID,
            "frameId": FRAME_ID,
            "frameUrl": shot.url,
            "html": ["HTML", {}, ["HEAD", {}], ["BODY", {"style": "margin:0"}, image]],
            "viewport": {"width": shot.width, "height": shot.height},
            "timestamp": at,
            "wallTime": shot.wall_ms,
            "collectionTime": 0,
            "resourceOverrides": [],
            "isMainFrame": True,
        },
    }


def _ms(step: RecordedStep, start_s: float) -> float:
    return round((step.started_at - start_s) * 1000, 3)
