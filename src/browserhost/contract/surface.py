"""The shared surface: a live picture of what a provider shows, and a person's hands on it.

A provider that offers a surface answers five calls (in process, or on its service's loopback
at the paths below, behind the same token as ``/browser-control``):

=========================  ===================================================================
``GET /surface/frame``     ``?after=<seq>&wait=<ms>``: the first picture newer than ``seq``
                           (JPEG or PNG bytes, described by the ``x-surface-*`` headers), or
                           204 when none came within ``wait``. Sequence numbers start at 1, so
                           ``after=0`` is "the current picture, now".
``POST /surface/input``    ``{events: [...]}``: what the person did, in order (sent only while
                           the person holds control).
``POST /surface/control``  ``{controller}`` whenever control changes (advisory: a provider's
                           own automation may pause).
``POST /surface/resize``   ``{width, height}`` the viewer can show; the answer is the size the
                           provider settled on, or 400 to keep its own.
``GET /surface/clipboard`` ``{text}``: what the person copied inside the surface.
``GET /surface/sessions``  ``{sessions: [{id, url, title, shown}]}``: the live sessions the
                           picture can show (several agent chats on one provider).
``POST /surface/show``     ``{id}``: show that session; ``{id: null}``: follow the session the
                           agent acted on last (the default).
=========================  ===================================================================

Who holds control is the host's business (see :mod:`browserhost.surface`): nobody, the agent
(for :data:`AGENT_HOLD_S` after each of its actions), or the user, who takes it by acting.
The ``read_*`` functions take what arrived off the wire and answer the model, or ``None`` for
anything malformed (a 400; nothing reaches the provider).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Annotated, Final, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .base import WireModel
from .wire import Context

FRAME_PATH: Final = "/surface/frame"
INPUT_PATH: Final = "/surface/input"
CONTROL_PATH: Final = "/surface/control"
RESIZE_PATH: Final = "/surface/resize"
CLIPBOARD_PATH: Final = "/surface/clipboard"
SESSIONS_PATH: Final = "/surface/sessions"
SHOW_PATH: Final = "/surface/show"

SEQ_HEADER: Final = "x-surface-seq"
WIDTH_HEADER: Final = "x-surface-width"
HEIGHT_HEADER: Final = "x-surface-height"
TITLE_HEADER: Final = "x-surface-title"
AGENT_ACTIVE_HEADER: Final = "x-surface-agent-active"

AGENT_HOLD_S: Final = 30.0
"""How long the agent holds control after each action the host ran for it."""
FRAME_MAX_BYTES: Final = 8 * 1024 * 1024
FRAME_WAIT_S: Final = 10.0
"""The longest a frame request waits for a new picture before answering "nothing new"."""
INPUT_BATCH_MAX: Final = 100
"""Events in one input batch: a burst of pointer moves or a typed word fits many times."""
TEXT_MAX: Final = 100_000
"""Characters of pasted text, and of a clipboard answer."""
TITLE_MAX: Final = 300
DIMENSION_MIN: Final = 64
DIMENSION_MAX: Final = 4096
"""Pixels across a picture or a requested size: a 4K screen, and no smaller than a thumbnail."""

FRAME_MIMES: Final = ("image/jpeg", "image/png")
Controller = Literal["none", "agent", "user"]
CONTROLLERS: Final[tuple[Controller, ...]] = ("none", "agent", "user")
Modifier = Literal["Alt", "Control", "Meta", "Shift"]

Coordinate = Annotated[float, Field(ge=0, le=DIMENSION_MAX)]
Dimension = Annotated[int, Field(ge=DIMENSION_MIN, le=DIMENSION_MAX)]


class _Event(WireModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    modifiers: list[Modifier] = Field(default_factory=list, max_length=4)


class PointerEvent(_Event):
    """A mouse or pen at ``x, y`` in frame pixels; ``button`` and ``buttons`` as the DOM's
    ``MouseEvent`` numbers them (0 main, 1 middle, 2 secondary; a bit mask of those held)."""

    type: Literal["pointer"]
    action: Literal["down", "up", "move"]
    x: Coordinate
    y: Coordinate
    button: int = Field(0, ge=0, le=4)
    buttons: int = Field(0, ge=0, le=31)


class WheelEvent(_Event):
    type: Literal["wheel"]
    x: Coordinate
    y: Coordinate
    delta_x: float = Field(0.0, ge=-10_000, le=10_000)
    delta_y: float = Field(0.0, ge=-10_000, le=10_000)


class KeyEvent(_Event):
    """A key as the DOM's ``KeyboardEvent`` names it: ``key`` "a", "Enter"; ``code`` "KeyA"."""

    type: Literal["key"]
    action: Literal["down", "up"]
    key: str = Field(min_length=1, max_length=32)
    code: str = Field("", max_length=32)


class TextEvent(_Event):
    """Pasted or composed text, inserted as it is (never as a paste chord)."""

    type: Literal["text"]
    text: str = Field(min_length=1, max_length=TEXT_MAX)


InputEvent = Annotated[
    PointerEvent | WheelEvent | KeyEvent | TextEvent, Field(discriminator="type")
]


class InputBatch(WireModel):
    model_config = ConfigDict(extra="forbid")
    events: list[InputEvent] = Field(min_length=1, max_length=INPUT_BATCH_MAX)


class ControlNotice(WireModel):
    model_config = ConfigDict(extra="forbid")
    controller: Controller


class Size(WireModel):
    """A resize request (what the viewer can show), or the answer (what the provider chose)."""

    model_config = ConfigDict(extra="forbid")
    width: Dimension
    height: Dimension


class ClipboardAnswer(WireModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=TEXT_MAX)


class SurfaceSession(WireModel):
    """One of the provider's live sessions the surface can show (a context key's page)."""

    id: str = Field(min_length=1, max_length=1_000)
    url: str
    title: str = Field("", max_length=TITLE_MAX)
    shown: bool = False
    context: Context | None = Field(
        None,
        description="The agent session's context, so what a person does through the "
        "provider's panel (an address typed) happens in the session they watch.",
    )


class SessionsAnswer(WireModel):
    sessions: list[SurfaceSession]


@dataclass(frozen=True)
class Frame:
    """One picture of the surface."""

    seq: int
    data: bytes
    mime: str
    width: int
    height: int
    title: str | None = None
    agent_active: bool = False

    def headers(self) -> dict[str, str]:
        """The ``x-surface-*`` headers (and the content type) a service answers with."""
        headers = {
            "content-type": self.mime,
            SEQ_HEADER: str(self.seq),
            WIDTH_HEADER: str(self.width),
            HEIGHT_HEADER: str(self.height),
        }
        if self.title:
            # Header values are latin-1 on the wire: anything else is escaped, not dropped.
            title = self.title[:TITLE_MAX]
            headers[TITLE_HEADER] = title.encode("latin-1", "backslashreplace").decode("latin-1")
        if self.agent_active:
            headers[AGENT_ACTIVE_HEADER] = "1"
        return headers


def read_frame(headers: dict[str, str], data: bytes) -> Frame | None:
    """A frame from a service's answer (headers with lower-case names), or ``None``."""
    try:
        seq = int(headers[SEQ_HEADER])
        width, height = int(headers[WIDTH_HEADER]), int(headers[HEIGHT_HEADER])
    except (KeyError, ValueError):
        return None
    mime = headers.get("content-type", "").split(";")[0].strip().lower()
    if (
        seq < 1
        or mime not in FRAME_MIMES
        or not 0 < len(data) <= FRAME_MAX_BYTES
        or not (0 < width <= DIMENSION_MAX and 0 < height <= DIMENSION_MAX)
    ):
        return None
    title = headers.get(TITLE_HEADER)
    return Frame(
        seq=seq,
        data=data,
        mime=mime,
        width=width,
        height=height,
        title=title[:TITLE_MAX] if title else None,
        agent_active=headers.get(AGENT_ACTIVE_HEADER) == "1",
    )


M = TypeVar("M", bound=BaseModel)


def _read(model: type[M], raw: object) -> M | None:
    try:
        return model.model_validate(raw)
    except ValidationError:
        return None


def read_input_batch(raw: object) -> InputBatch | None:
    return _read(InputBatch, raw)


def read_control_notice(raw: object) -> ControlNotice | None:
    return _read(ControlNotice, raw)


def read_resize(raw: object) -> Size | None:
    return _read(Size, raw)


def read_clipboard(raw: object) -> ClipboardAnswer | None:
    return _read(ClipboardAnswer, raw)


def read_sessions(raw: object) -> SessionsAnswer | None:
    return _read(SessionsAnswer, raw)


INPUT_EVENT: TypeAdapter[InputEvent] = TypeAdapter(InputEvent)


class Surface:
    """What a provider with a surface offers; subclass it and implement :meth:`frame` and
    :meth:`input` (the rest have sensible defaults).

    The host calls these one at a time per provider, in the order the viewer acted, except
    :meth:`frame`, which each viewer asks for on its own. A service answers the same calls at
    the paths in the module docstring; :class:`browserhost.sdk.Provider` does that for it.
    """

    async def frame(self, after: int, wait_s: float) -> Frame | None:
        """The first picture with a sequence number above ``after``, waiting up to ``wait_s``
        for one; ``None`` when none came. ``after=0`` asks for the current picture now."""
        raise NotImplementedError

    async def input(self, events: list[PointerEvent | WheelEvent | KeyEvent | TextEvent]) -> None:
        """Do what the person did, in order, on what the surface shows."""
        raise NotImplementedError

    async def still(self, box: tuple[int, int], wait_s: float, paint_s: float) -> Frame | None:
        """One picture of what the surface shows now, for a record (a recording's step),
        no larger than ``box`` where the provider can make it so; ``None`` when none came
        within ``wait_s``. By default the current frame, or a newer one if the page paints
        within ``paint_s`` (a paint of the last action still on its way). A provider whose
        frames come from a stream it would have to start overrides this with one picture."""
        frame = await self.frame(0, wait_s)
        if frame is None:
            return None
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(paint_s):
                newer = await self.frame(frame.seq, paint_s)
            if newer is not None:
                return newer
        return frame

    async def control(self, controller: Controller) -> None:
        """Who holds control now (advisory: own automation may pause for the user)."""

    async def resize(self, size: Size) -> Size | None:
        """Show ``size`` if the provider can; the size it settled on, or ``None`` to keep its
        own."""
        return None

    async def clipboard(self) -> str:
        """What the person last copied inside the surface."""
        return ""

    async def sessions(self) -> list[SurfaceSession]:
        """The live sessions the surface can show; empty for a provider with one picture."""
        return []

    async def show(self, session_id: str | None) -> None:
        """Show this session from now on; ``None``: follow the session the agent acted on
        last (the default)."""


class ShowRequest(WireModel):
    model_config = ConfigDict(extra="forbid")
    id: str | None = Field(max_length=1_000)


def read_show(raw: object) -> ShowRequest | None:
    return _read(ShowRequest, raw)
