"""Requests a provider's panel page sends to its own service, through the viewer and the host.

The page runs sandboxed with no token and no network (:mod:`browserhost.api.viewer`), so it
asks the viewer around it (``serviceRequest``), the viewer asks the host over its
authenticated API, and the host forwards to the provider service with the service's token. A
record opts in with ``panel.requests``, a path prefix on its service (``/panel/``); only paths
under it are forwarded, so a page never reaches the host's own calls (``/browser-control``,
``/surface/*``), which pass the control gate and the action checks instead::

    panel page ─postMessage─▶ viewer ─POST /api/browser-providers/{id}/panel-request─▶ host
        ─{method} {prefix}...─▶ provider service      (and the answer back the same way)

Nothing is retried: a request that was sent and got no answer may have been acted on.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Final, Literal

from browserhost.contract.errors import (
    InvalidActionError,
    ProviderUnavailableError,
    RequestFailedError,
    UnknownResultError,
)
from browserhost.transports.base import BadAnswerError, LostError, NotSentError
from browserhost.transports.loopback_surface import LoopbackSurface

from .services import ManagedService

METHODS: Final = ("GET", "POST", "PUT", "PATCH", "DELETE")
Method = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]
TIMEOUT_S: Final = 20.0
"""The longest one request may take on the service, as for an agent's action."""
ANSWER_MAX_BYTES: Final = 1024 * 1024
"""The largest answer the host passes back to a page, the size of a request to the host."""
PATH_MAX: Final = 2048
# No "%" before the query: an escaped slash or dot could lead a service's router out of the
# prefix once it decodes the path.
_path = re.compile(r"/[A-Za-z0-9._~!$&'()*+,;=:@/-]*(\?[A-Za-z0-9._~!$&'()*+,;=:@/?%-]*)?")


@dataclass(frozen=True)
class ServiceAnswer:
    """What the service answered: its HTTP status and body (JSON when it said JSON, else text)."""

    status: int
    body: object

    def to_wire(self) -> dict[str, object]:
        return {"ok": True, "status": self.status, "body": self.body}


Call = Callable[[str, str, object], Awaitable[ServiceAnswer]]
"""``call(method, path, body)``: one request to the service; fails as the transports do."""


@dataclass(frozen=True)
class PanelRequests:
    """Where a provider's panel page may send requests (``prefix``), and how they go."""

    prefix: str
    call: Call

    async def send(self, provider: str, method: Method, path: str, body: object) -> ServiceAnswer:
        """One request of the page of ``provider`` (its name, for messages), or the contract's
        error saying whether it may have reached the service."""
        if method in ("GET", "DELETE") and body is not None:
            raise InvalidActionError(f"A {method} request carries no body; nothing was sent.")
        checked = checked_path(self.prefix, path)
        try:
            return await self.call(method, checked, body)
        except NotSentError as exc:
            raise ProviderUnavailableError(
                f"{provider}'s service is not reachable ({exc}). Nothing was sent."
            ) from exc
        except LostError as exc:
            raise RequestFailedError(
                f"The panel's {method} {where(checked)} was sent to {provider}'s service but no "
                f"answer came back ({str(exc).rstrip('.')}). It may have been done."
            ) from exc
        except BadAnswerError as exc:
            raise UnknownResultError(
                f"{provider}'s service gave an unusable answer to {method} {where(checked)} "
                f"({exc}). It may have been done."
            ) from exc


def where(path: str) -> str:
    return path.split("?", 1)[0]


def checked_path(prefix: str, path: str) -> str:
    """``path`` when the page may send it under ``prefix``, else :class:`InvalidActionError`."""
    if (
        len(path) > PATH_MAX
        or not _path.fullmatch(path)
        or not where(path).startswith(prefix)
        or "//" in where(path)
        or {".", ".."} & set(where(path).split("/"))
    ):
        raise InvalidActionError(
            f"The panel may send requests only to paths under {prefix} on its service (no "
            '"..", "//" or escapes before the query); nothing was sent.'
        )
    return path


def service_call(service: ManagedService) -> Call:
    """Requests to a service the host runs, started for them when it is not running."""

    async def call(method: str, path: str, body: object) -> ServiceAnswer:
        async with service.using() as run:
            return await _ask(run.surface, method, path, body)

    return call


def endpoint_call(origin: str, token: str | None) -> Call:
    """Requests to a service someone else runs at ``origin``."""

    async def call(method: str, path: str, body: object) -> ServiceAnswer:
        async with _client(origin, token) as service:
            return await _ask(service, method, path, body)

    return call


@contextlib.asynccontextmanager
async def _client(origin: str, token: str | None) -> AsyncIterator[LoopbackSurface]:
    # A client per request, as for the panel page: a page's requests are a person's clicks.
    service = LoopbackSurface(origin, token)
    try:
        yield service
    finally:
        await service.aclose()


async def _ask(service: LoopbackSurface, method: str, path: str, body: object) -> ServiceAnswer:
    status, media, answer = await service.request(method, path, body, TIMEOUT_S, ANSWER_MAX_BYTES)
    text = answer.decode("utf-8", errors="replace")
    if media == "application/json" or media.endswith("+json"):
        with contextlib.suppress(ValueError, RecursionError):
            return ServiceAnswer(status, json.loads(text, parse_constant=_not_json))
    return ServiceAnswer(status, text)


def _not_json(constant: str) -> object:
    raise ValueError(f"{constant} is not JSON")  # NaN and Infinity: the page could not read them
