"""An in-process provider that records what reaches it, for tests of the host and the API."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from browserhost.contract import ACTIONS, ProviderRequest

Reply = Callable[[ProviderRequest], Awaitable[object]]


async def ok_empty(request: ProviderRequest) -> object:
    return {"ok": True, "data": {"echo": request.action}}


class Recorder:
    """Counts every request handed to it and answers with ``reply``."""

    def __init__(self, reply: Reply = ok_empty, provider_id: str = "rec") -> None:
        self.reply = reply
        self.id = provider_id
        self.requests: list[ProviderRequest] = []

    async def __call__(self, request: ProviderRequest) -> object:
        self.requests.append(request)
        return await self.reply(request)

    def record(self, **extra: Any) -> dict[str, Any]:
        """A catalog record for this provider; ``extra`` adds or overrides fields."""
        return {
            "id": self.id,
            "name": f"Recorder {self.id}",
            "provides": ["browser"],
            "actions": list(ACTIONS),
            "answer": self,
            **extra,
        }

    @property
    def wire(self) -> list[dict[str, Any]]:
        """What it received, as the envelopes a service would have been posted."""
        return [request.to_wire() for request in self.requests]


def replying(answer: object) -> Reply:
    """A reply that always answers ``answer`` as is."""

    async def reply(_: ProviderRequest) -> object:
        return answer

    return reply
