"""An in-process provider: calling its handler is handing the request over."""

from __future__ import annotations

import asyncio

import pytest

from browserhost.contract import Context, ProviderRequest, normalize
from browserhost.transports.base import BadAnswerError, LostError
from browserhost.transports.inprocess import InProcessTransport

CALL = normalize("browser.snapshot", {"selector": "main"})
REQUEST = ProviderRequest("r1", CALL.name, CALL.parameters, Context(session_id="s"))


async def test_the_handler_gets_the_request_and_its_answer_comes_back_as_is() -> None:
    seen: list[ProviderRequest] = []

    async def handler(request: ProviderRequest) -> object:
        seen.append(request)
        return {"ok": True, "data": {"scope": "main"}}

    answer = await InProcessTransport(handler).send(REQUEST, 1)
    assert answer == {"ok": True, "data": {"scope": "main"}}
    assert seen == [REQUEST]


async def test_a_handler_that_raises_is_lost_not_unavailable() -> None:
    async def handler(_: ProviderRequest) -> object:
        raise ValueError("page crashed")

    with pytest.raises(LostError, match="page crashed"):
        await InProcessTransport(handler).send(REQUEST, 1)


async def test_a_handler_past_the_deadline_is_lost_and_cancelled() -> None:
    cancelled = asyncio.Event()

    async def handler(_: ProviderRequest) -> object:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return {}

    async with asyncio.timeout(5):
        with pytest.raises(LostError, match=r"No answer within 0\.01 s"):
            await InProcessTransport(handler).send(REQUEST, 0.01)
    assert cancelled.is_set()


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ({"ok": True, "data": {"x": {1, 2}}}, "not JSON"),
        ({"ok": True, "data": {"x": float("nan")}}, "not JSON"),
        ({"ok": True, "data": {"y": float("inf")}}, "not JSON"),
        ({"ok": True, "data": {"image": "A" * 12_000_000}}, "larger than"),
    ],
    ids=["set", "nan", "infinity", "too-large"],
)
async def test_an_answer_that_could_not_cross_a_wire_is_a_bad_answer(
    answer: object, reason: str
) -> None:
    async def handler(_: ProviderRequest) -> object:
        return answer

    with pytest.raises(BadAnswerError, match=reason):
        await InProcessTransport(handler).send(REQUEST, 1)


async def test_closing_the_transport_closes_the_provider() -> None:
    closed = asyncio.Event()

    async def handler(_: ProviderRequest) -> object:
        return {}

    async def close() -> None:
        closed.set()

    await InProcessTransport(handler, close).aclose()
    assert closed.is_set()
