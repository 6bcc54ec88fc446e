"""How a request reaches a provider, and the three ways that can go wrong.

A transport only carries the envelope and brings back the raw answer. It reports failure as
one of three exceptions, which the dispatcher maps to contract codes::

    TransportError
    ├── NotSentError      the request never left the host      → PROVIDER_UNAVAILABLE
    ├── LostError         sent, then no usable answer          → REQUEST_FAILED (may have run)
    └── BadAnswerError    an answer that is not a result       → UNKNOWN_RESULT (may have run)

A provider's surface reached over loopback (:class:`~.loopback_surface.LoopbackSurface`)
raises the same three: ``NotSentError`` when the service cannot be reached (its surface is
unavailable; no input reached it), ``LostError`` when a call was sent and no answer came
(input may have been done), ``BadAnswerError`` for an answer outside the contract. Catch
``TransportError`` to treat them alike.
"""

from __future__ import annotations

from typing import Protocol

from browserhost.contract import ProviderRequest
from browserhost.contract.limits import ANSWER_MAX_BYTES


class TransportError(Exception):
    pass


class NotSentError(TransportError):
    pass


class LostError(TransportError):
    pass


class BadAnswerError(TransportError):
    pass


def too_large() -> BadAnswerError:
    return BadAnswerError(f"The provider's answer is larger than {ANSWER_MAX_BYTES} bytes.")


class Transport(Protocol):
    async def send(self, request: ProviderRequest, timeout_s: float) -> object:
        """Deliver ``request`` at most once and return the provider's raw JSON answer."""
        ...

    async def abandon(self, request_id: str) -> None:
        """The caller gave up on a sent request: tell the provider to stop working on it,
        where it can. Best effort; the request may still have run."""
        ...

    async def aclose(self) -> None: ...
