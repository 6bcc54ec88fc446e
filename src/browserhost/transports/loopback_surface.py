"""A provider service's surface, panel page and the page's own requests, reached over loopback
HTTP with its token.

The calls are the paths of :mod:`browserhost.contract.surface`; answers are read with the
contract's readers and capped before they are held. A frame request that outlives its wait
(plus a margin for the picture to travel) is "no new picture", not a failure: the next one
asks again. Everything else fails as the transports' tree says (:mod:`.base`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Final, TypeVar

import httpx

from browserhost.contract import surface as contract
from browserhost.contract.surface import Controller, Frame, InputEvent, Size, SurfaceSession

from .base import BadAnswerError
from .loopback import NoAnswerInTimeError, exchange, service_client

CALL_TIMEOUT_S: Final = 10.0
"""The longest an input batch, notice, resize or read may take on the service."""
FRAME_MARGIN_S: Final = 5.0
"""Time past a frame's wait for the picture to be made and sent."""
PAGE_MAX_BYTES: Final = 1024 * 1024
"""A panel page: one HTML file with its script and style inline."""
JSON_MAX_BYTES: Final = 4 * 1024 * 1024
"""A JSON answer: a clipboard text or a list of sessions."""

Answer = TypeVar("Answer")


class LoopbackSurface(contract.Surface):
    """The surface of the service at ``origin`` (``http://127.0.0.1:9100``)."""

    def __init__(self, origin: str, token: str | None = None) -> None:
        self._origin = origin.rstrip("/")
        self._client = service_client(token)

    async def frame(self, after: int, wait_s: float) -> Frame | None:
        wait_s = min(max(wait_s, 0.0), contract.FRAME_WAIT_S)
        query = {"after": str(after), "wait": str(round(wait_s * 1000))}
        try:
            response, body = await self._call(
                "GET",
                contract.FRAME_PATH,
                params=query,
                timeout_s=wait_s + FRAME_MARGIN_S,
                limit=contract.FRAME_MAX_BYTES,
            )
        except NoAnswerInTimeError:
            return None
        if response.status_code == 204:
            return None
        self._expect(response, 200)
        headers = {name.lower(): value for name, value in response.headers.items()}
        frame = contract.read_frame(headers, body)
        if frame is None:
            raise BadAnswerError("The provider service's frame is not a picture the host reads.")
        return frame

    async def input(self, events: list[InputEvent]) -> None:
        batch = {"events": [event.to_wire() for event in events]}
        self._expect((await self._call("POST", contract.INPUT_PATH, body=batch))[0], 204, 200)

    async def control(self, controller: Controller) -> None:
        notice = {"controller": controller}
        self._expect((await self._call("POST", contract.CONTROL_PATH, body=notice))[0], 204, 200)

    async def resize(self, size: Size) -> Size | None:
        response, body = await self._call("POST", contract.RESIZE_PATH, body=size.to_wire())
        if response.status_code == 400:  # the service keeps its own size
            return None
        self._expect(response, 200)
        chosen = contract.read_resize(_json(body))
        if chosen is None:
            raise BadAnswerError("The provider service's size is not {width, height}.")
        return chosen

    async def clipboard(self) -> str:
        answer = await self._get(
            contract.CLIPBOARD_PATH, contract.read_clipboard, "clipboard is not {text}"
        )
        return answer.text

    async def sessions(self) -> list[SurfaceSession]:
        answer = await self._get(
            contract.SESSIONS_PATH, contract.read_sessions, "sessions are not {sessions: [...]}"
        )
        return answer.sessions

    async def show(self, session_id: str | None) -> None:
        shown = {"id": session_id}
        self._expect((await self._call("POST", contract.SHOW_PATH, body=shown))[0], 204, 200)

    async def page(self, path: str) -> bytes:
        """The HTML page the service serves at ``path`` (its panel page)."""
        response, body = await self._call("GET", path, limit=PAGE_MAX_BYTES)
        self._expect(response, 200)
        media = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if media != "text/html":
            raise BadAnswerError(f"The provider service's page at {path} is not text/html.")
        return body

    async def request(
        self, method: str, path: str, body: object, timeout_s: float, limit: int
    ) -> tuple[int, str, bytes]:
        """Whatever the service answers at ``path`` (a panel page's own request): its status,
        media type and body. The caller chose ``path``; a 401 is still the token refused."""
        response, answer = await self._call(
            method, path, body=body, timeout_s=timeout_s, limit=limit
        )
        media = response.headers.get("content-type", "").split(";")[0].strip().lower()
        return response.status_code, media, answer

    async def aclose(self) -> None:
        await self._client.aclose()

    async def _call(
        self,
        method: str,
        path: str,
        *,
        body: object = None,
        params: dict[str, str] | None = None,
        timeout_s: float = CALL_TIMEOUT_S,
        limit: int = JSON_MAX_BYTES,
    ) -> tuple[httpx.Response, bytes]:
        return await exchange(
            self._client,
            method,
            self._origin + path,
            timeout_s,
            unreachable="The provider service's surface is not reachable.",
            body=body,
            params=params,
            limit=limit,
            over=lambda: _too_large(path, limit),
        )

    async def _get(self, path: str, read: Callable[[object], Answer | None], what: str) -> Answer:
        """The JSON answer at ``path``, read with the contract's ``read``; ``what`` says what
        a refused one is not."""
        response, body = await self._call("GET", path)
        self._expect(response, 200)
        answer = read(_json(body))
        if answer is None:
            raise BadAnswerError(f"The provider service's {what}.")
        return answer

    def _expect(self, response: httpx.Response, *statuses: int) -> None:
        if response.status_code not in statuses:
            raise BadAnswerError(
                f"The provider service answered HTTP {response.status_code} at {response.url.path}."
            )


def _json(body: bytes) -> object:
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return None


def _too_large(path: str, limit: int) -> BadAnswerError:
    return BadAnswerError(f"The provider service's answer at {path} is over {limit} bytes.")
