"""The surface of the browser connected to the bridge, called over its socket.

Each call is a ``surface.call`` on the current connection (:mod:`browserhost.contract.bridge`);
answers are read with the contract's readers. With no connection, or one without a surface, or
when the connection drops or is replaced mid-call, a frame request is "no picture" (after
waiting, bounded, for a connection to come, so the viewer does not ask again at once) and the
other calls fail as the transports' tree says (:mod:`.base`): ``NotSentError`` when nothing
was sent, ``LostError`` when the answer was lost (input may have been done).
"""

from __future__ import annotations

from typing import Any

from browserhost.contract import surface as contract
from browserhost.contract.bridge import FRAME_MARGIN_S, SURFACE_CALL_TIMEOUT_S, SurfaceResult
from browserhost.contract.surface import Controller, Frame, InputEvent, Size, SurfaceSession

from .base import BadAnswerError, LostError, NotSentError
from .bridge import BridgeTransport


class BridgeSurface(contract.Surface):
    """The surface of whichever browser is connected to ``transport`` at the time."""

    def __init__(self, transport: BridgeTransport) -> None:
        self._transport = transport

    async def frame(self, after: int, wait_s: float) -> Frame | None:
        wait_s = min(max(wait_s, 0.0), contract.FRAME_WAIT_S)
        args = {"after": after, "waitMs": round(wait_s * 1000)}
        try:
            answer = await self._transport.ask("frame", args, wait_s + FRAME_MARGIN_S)
        except NotSentError:
            await self._transport.next_link(wait_s)
            return None
        except LostError:  # no answer in time, or the connection went: no new picture
            return None
        if isinstance(answer, Frame):
            return answer
        if _result(answer) is not None:
            raise BadAnswerError(
                "The bridge's browser answered a frame with neither a picture nor null."
            )
        return None

    async def input(self, events: list[InputEvent]) -> None:
        await self._call("input", {"events": [event.to_wire() for event in events]})

    async def control(self, controller: Controller) -> None:
        await self._call("control", {"controller": controller})

    async def resize(self, size: Size) -> Size | None:
        answer = await self._call("resize", size.to_wire())
        if answer is None:
            return None
        chosen = contract.read_resize(answer)
        if chosen is None:
            raise BadAnswerError("The bridge's browser's size is not {width, height}.")
        return chosen

    async def clipboard(self) -> str:
        answer = contract.read_clipboard(await self._call("clipboard", {}))
        if answer is None:
            raise BadAnswerError("The bridge's browser's clipboard is not {text}.")
        return answer.text

    async def sessions(self) -> list[SurfaceSession]:
        answer = contract.read_sessions(await self._call("sessions", {}))
        if answer is None:
            raise BadAnswerError("The bridge's browser's sessions are not {sessions: [...]}.")
        return answer.sessions

    async def show(self, session_id: str | None) -> None:
        await self._call("show", {"id": session_id})

    async def _call(self, method: str, args: dict[str, Any]) -> Any:
        return _result(await self._transport.ask(method, args, SURFACE_CALL_TIMEOUT_S))


def _result(answer: object) -> Any:
    if not isinstance(answer, SurfaceResult):
        raise BadAnswerError("The bridge's browser answered with a picture where none was asked.")
    if not answer.ok:
        error = answer.error or {}
        message = error.get("message") if isinstance(error.get("message"), str) else None
        raise LostError(f"the connected browser's surface failed: {message or 'no reason given'}")
    return answer.result
