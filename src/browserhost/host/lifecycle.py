"""Reaching a provider service about its instances: the lifecycle operations the host sends
it (:mod:`browserhost.contract.lifecycle`) and the transport of one instance it launched.

An operation is sent once, never retried, and its failures map to the contract's codes as an
action's do: not sent is ``PROVIDER_UNAVAILABLE``, sent and no answer ``REQUEST_FAILED``, an
answer that is not a result ``UNKNOWN_RESULT``, ``ok: false`` ``PROVIDER_REJECTED``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol, runtime_checkable

from browserhost.contract import ProviderRequest, parse_result
from browserhost.contract.errors import (
    ProviderRejectedError,
    ProviderUnavailableError,
    RequestFailedError,
    UnknownResultError,
    UnsupportedError,
)
from browserhost.contract.lifecycle import LifecycleRequest
from browserhost.contract.limits import LIFECYCLE_TIMEOUT_S
from browserhost.contract.wire import Refusal
from browserhost.transports.base import BadAnswerError, LostError, NotSentError, Transport


@runtime_checkable
class Operable(Protocol):
    """A transport that carries lifecycle operations too (a provider service's)."""

    async def operate(self, request: LifecycleRequest, timeout_s: float) -> object: ...


class InstanceTransport:
    """The transport of an instance a provider service launched: the service's own, each
    request stamped with the instance's ``browserId``. Closing it closes nothing: the
    service's transport is its provider's."""

    def __init__(self, service: Transport, browser_id: str) -> None:
        self._service = service
        self._browser_id = browser_id

    async def send(self, request: ProviderRequest, timeout_s: float) -> object:
        return await self._service.send(replace(request, browser_id=self._browser_id), timeout_s)

    async def abandon(self, request_id: str) -> None:
        await self._service.abandon(request_id)

    async def aclose(self) -> None:
        return None


async def operate(transport: Transport, request: LifecycleRequest, who: str) -> dict[str, Any]:
    """Send ``request`` through ``transport`` and return the answer's ``data`` (an object).
    ``who`` names the provider in a refusal."""
    what = request.operation.replace("_", " ")
    if not isinstance(transport, Operable):
        raise UnsupportedError(f"{who} is not a provider service; it cannot {what}.")
    try:
        answer = await transport.operate(request, LIFECYCLE_TIMEOUT_S)
    except NotSentError as exc:
        raise ProviderUnavailableError(
            f"{who} cannot be reached ({exc}). Nothing was done."
        ) from exc
    except LostError as exc:
        raise RequestFailedError(
            f"{who} did not answer the {what} ({exc}); it may have happened. Check "
            "browserhost instances before trying again."
        ) from exc
    except BadAnswerError as exc:
        raise UnknownResultError(f"{who} answered the {what} with {exc}") from exc
    result = parse_result(answer)
    if isinstance(result, Refusal):
        raise ProviderRejectedError(f"{who} refused to {what}: {result.error}")
    if result is None or not isinstance(result.data, dict):
        raise UnknownResultError(
            f"{who} answered the {what} with something that is not a lifecycle result; it "
            "may have happened."
        )
    return result.data
