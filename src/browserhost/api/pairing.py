"""The person's side of the bridge's pairing (:mod:`browserhost.host.pairing`), behind the
token like every ``/api`` route: the viewer's Allow and Deny, and ``browserhost bridge
pending``, ``paired``, ``approve ID``, ``deny ID`` and ``forget ID``.

Refusals: 404 ``NO_BRIDGE`` (the host serves no bridge), 404 ``PAIRING_NOT_FOUND`` (no such
request or paired browser), 503 ``PAIRING_UNAVAILABLE`` (the data dir could not be written);
each says that nothing was changed.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from browserhost.host.bridge import Bridge
from browserhost.host.pairing import PairingStoreError, UnknownPairingError

from .paths import PAIRED_PATH, PENDING_PATH
from .routes import _GATE
from .schemas import PairedAnswer, PairedRow, PendingAnswer, PendingRow, refusals

router = APIRouter()
Route = ParamSpec("Route")


class _NoBridgeError(Exception):
    pass


def _refusing(route: Callable[Route, Awaitable[object]]) -> Callable[Route, Awaitable[object]]:
    """The refusals every pairing route shares, each saying that nothing was changed. FastAPI
    reads the route's own signature and docstring through ``functools.wraps``."""

    @functools.wraps(route)
    async def answer(*args: Route.args, **kwargs: Route.kwargs) -> object:
        try:
            return await route(*args, **kwargs)
        except _NoBridgeError:
            return _refused(
                404,
                "NO_BRIDGE",
                "This host serves no bridge (serve --no-bridge, or BROWSERHOST_PROVIDERS without "
                "bridge), so no browser pairs with it. Nothing was changed.",
            )
        except UnknownPairingError as exc:
            return _refused(404, "PAIRING_NOT_FOUND", str(exc))
        except PairingStoreError as exc:
            return _refused(503, "PAIRING_UNAVAILABLE", str(exc))

    return answer


@router.get(PENDING_PATH, response_model=PendingAnswer, responses=refusals(404, *_GATE))
@_refusing
async def list_pending(request: Request) -> object:
    """The browsers waiting for a person's approval to connect to the bridge."""
    return {"pending": [pending.to_wire() for pending in _bridge(request).pairing.pending()]}


@router.get(PAIRED_PATH, response_model=PairedAnswer, responses=refusals(404, *_GATE))
@_refusing
async def list_paired(request: Request) -> object:
    """The browsers a person approved: each connects with a secret of its own."""
    return {"paired": [record.to_wire() for record in _bridge(request).pairing.paired()]}


@router.post(
    f"{PENDING_PATH}/{{pairing_id}}/approve",
    response_model=PairedRow,
    responses=refusals(404, 503, *_GATE),
)
@_refusing
async def approve(pairing_id: str, request: Request) -> object:
    """Approve a waiting browser: it gets a secret of its own and is connected."""
    return (await _bridge(request).pairing.approve(pairing_id)).to_wire()


@router.post(
    f"{PENDING_PATH}/{{pairing_id}}/deny",
    response_model=PendingRow,
    responses=refusals(404, *_GATE),
)
@_refusing
async def deny(pairing_id: str, request: Request) -> object:
    """Deny a waiting browser: its connection is closed."""
    return _bridge(request).pairing.deny(pairing_id).to_wire()


@router.delete(
    f"{PAIRED_PATH}/{{pairing_id}}", response_model=PairedRow, responses=refusals(404, 503, *_GATE)
)
@_refusing
async def forget(pairing_id: str, request: Request) -> object:
    """Forget a paired browser: its secret no longer connects, and its connection ends."""
    return (await _bridge(request).forget(pairing_id)).to_wire()


def _bridge(request: Request) -> Bridge:
    bridge: Bridge | None = getattr(request.app.state, "bridge", None)
    if bridge is None:
        raise _NoBridgeError
    return bridge


def _refused(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"ok": False, "code": code, "error": message}, status_code=status)
