"""A surface call other than a frame, read off the wire and made: the one place the service
runner (HTTP) and the bridge's connecting side (WebSocket) both answer them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from browserhost.contract import surface as contract

Arguments = TypeVar("Arguments")


class SurfaceCallRefusedError(ValueError):
    """A call whose body the contract cannot read; the message names what was expected.
    Nothing reached the surface."""


METHODS = ("input", "control", "resize", "clipboard", "sessions", "show")


async def make_call(surface: contract.Surface, method: str, body: object) -> object:
    """Make ``method`` with the arguments in ``body``; its JSON answer, or ``None`` for a call
    that answers nothing (and for a resize the surface declined)."""
    if method == "input":
        batch = _read(contract.read_input_batch, body, "an input batch: {events: [...]}")
        await surface.input(batch.events)
        return None
    if method == "control":
        notice = _read(contract.read_control_notice, body, "a control notice: {controller}")
        await surface.control(notice.controller)
        return None
    if method == "resize":
        chosen = await surface.resize(_read(contract.read_resize, body, "a size: {width, height}"))
        return None if chosen is None else chosen.to_wire()
    if method == "clipboard":
        return {"text": (await surface.clipboard())[: contract.TEXT_MAX]}
    if method == "sessions":
        return {"sessions": [session.to_wire() for session in await surface.sessions()]}
    if method == "show":
        await surface.show(_read(contract.read_show, body, "a session to show: {id}").id)
        return None
    raise SurfaceCallRefusedError(f"a surface method; {method!r} is none of {', '.join(METHODS)}")


def _read(reader: Callable[[object], Arguments | None], body: object, expected: str) -> Arguments:
    arguments = reader(body)
    if arguments is None:
        raise SurfaceCallRefusedError(expected)
    return arguments
