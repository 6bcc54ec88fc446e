"""An in-process provider that records what reaches it, for tests of the host and the API."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from browserhost.contract import ACTIONS, ProviderRequest

Reply = Callable[[ProviderRequest], Awaitable[object]]

VIEWPORT = {"mode": "desktop", "width": 1280, "height": 800}
PIXEL_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9"
    "awAAAABJRU5ErkJggg=="
)
"""A PNG of one pixel, base64."""
FITTING: dict[str, dict[str, Any]] = {
    "browser.open": {"url": "about:blank", "title": "", "settled": True, "viewport": VIEWPORT},
    "browser.snapshot": {
        "url": "about:blank",
        "title": "",
        "scope": "page",
        "scrollY": 0,
        "maxScrollY": 0,
        "text": "",
        "elements": [],
        "viewport": VIEWPORT,
    },
    "browser.click": {"clicked": "#it", "label": "", "url": "about:blank"},
    "browser.type": {"selector": "#it", "url": "about:blank"},
    "browser.scroll": {"scrollY": 0, "maxScrollY": 0, "atTop": True, "atBottom": True},
    "browser.back": {"url": "about:blank", "title": ""},
    "browser.forward": {"url": "about:blank", "title": ""},
    "browser.inspect": {
        "selector": "#it",
        "tag": "div",
        "label": "",
        "bounds": {"x": 0, "y": 0, "width": 1, "height": 1},
        "inViewport": True,
        "styles": {},
    },
    "browser.capture": {
        "base64": PIXEL_PNG,
        "mime": "image/png",
        "width": 1,
        "height": 1,
        "url": "about:blank",
        "title": "",
        "viewport": VIEWPORT,
    },
    "browser.resize": {"viewport": VIEWPORT},
}
"""The least data that fits each action's answer (:mod:`browserhost.contract.data`): the host
takes no other as a result."""


def fitting(action: str, **extra: Any) -> dict[str, Any]:
    """Data that fits ``action``'s answer (nothing for a verb), with ``extra`` fields."""
    return {**FITTING.get(action, {}), **extra}


async def ok_empty(request: ProviderRequest) -> object:
    return {"ok": True, "data": fitting(request.action, echo=request.action)}


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
