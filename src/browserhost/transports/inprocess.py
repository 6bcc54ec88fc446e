"""An in-process provider: the request is a call to its async handler."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable

from browserhost.contract import ProviderRequest
from browserhost.contract.errors import ProviderUnavailableError
from browserhost.contract.limits import ANSWER_MAX_BYTES

from .base import BadAnswerError, LostError, NotSentError, too_large

Handler = Callable[[ProviderRequest], Awaitable[object]]
Closer = Callable[[], Awaitable[None]]


class InProcessTransport:
    def __init__(self, handler: Handler, close: Closer | None = None) -> None:
        self._handler = handler
        self._close = close

    async def send(self, request: ProviderRequest, timeout_s: float) -> object:
        # Calling the handler is handing the request over: from here on it may have run.
        try:
            async with asyncio.timeout(timeout_s):
                answer = await self._handler(request)
        except TimeoutError:
            raise LostError(f"No answer within {timeout_s:g} s.") from None
        except ProviderUnavailableError as exc:
            # The provider says its browser was never reached (a Selenium Grid that does not
            # answer): nothing ran, as if the request had never left.
            raise NotSentError(exc.message) from exc
        except Exception as exc:  # a provider's own failure, reported as lost
            raise LostError(f"The provider failed while handling it: {exc}") from exc
        _check_wire_size(answer)
        return answer

    async def abandon(self, request_id: str) -> None:
        """Nothing to do: cancelling :meth:`send` already cancelled the handler's task."""

    async def aclose(self) -> None:
        if self._close is not None:
            await self._close()


def _check_wire_size(answer: object) -> None:
    try:
        # allow_nan=False: NaN and Infinity are not JSON, and the API could not send them on.
        size = len(json.dumps(answer, separators=(",", ":"), allow_nan=False).encode())
    except (TypeError, ValueError, RecursionError):
        raise BadAnswerError("The provider's answer is not JSON.") from None
    if size > ANSWER_MAX_BYTES:
        raise too_large()
