"""A surface call other than a frame, read off the wire and made: the one place the service
runner (HTTP) and the bridge's connecting side (WebSocket) both answer them."""

from __future__ import annotations

from browserhost.contract import surface as contract


class SurfaceCallRefusedError(ValueError):
    """A call whose body the contract cannot read; the message names what was expected.
    Nothing reached the surface."""


METHODS = ("input", "control", "resize", "clipboard", "sessions", "show")


async def make_call(surface: contract.Surface, method: str, body: object) -> object:
    """Make ``method`` with the arguments in ``body``; its JSON answer, or ``None`` for a call
    that answers nothing (and for a resize the surface declined)."""
    if method == "input":
        batch = contract.read_input_batch(body)
        if batch is None:
            raise SurfaceCallRefusedError("an input batch: {events: [...]}")
        await surface.input(batch.events)
        return None
    if method == "control":
        notice = contract.read_control_notice(body)
        if notice is None:
            raise SurfaceCallRefusedError("a control notice: {controller}")
        await surface.control(notice.controller)
        return None
    if method == "resize":
        wanted = contract.read_resize(body)
        if wanted is None:
            raise SurfaceCallRefusedError("a size: {width, height}")
        chosen = await surface.resize(wanted)
        return None if chosen is None else chosen.to_wire()
    if method == "clipboard":
        return {"text": (await surface.clipboard())[: contract.TEXT_MAX]}
    if method == "sessions":
        return {"sessions": [session.to_wire() for session in await surface.sessions()]}
    if method == "show":
        shown = contract.read_show(body)
        if shown is None:
            raise SurfaceCallRefusedError("a session to show: {id}")
        await surface.show(shown.id)
        return None
    raise SurfaceCallRefusedError(f"a surface method; {method!r} is none of {', '.join(METHODS)}")
