"""Run a provider as a service process on loopback: ``POST /browser-control``.

The host reaches such a provider through a catalog record with
``"endpoint": "http://127.0.0.1:<port>"`` and ``"token": "<the service's token>"``. From the
shell::

    BROWSERHOST_SERVICE_TOKEN=... python -m browserhost.sdk.service \\
        browserhost.providers.stub:StubProvider --port 9100

Any web page the user visits can post to a loopback port, so the service sits behind the same
gate as the host's API (:mod:`browserhost.gate`): the bearer token, a loopback Host, no
foreign Origin, a JSON body of at most 1 MiB, all checked before the body is read. The token
comes from the environment (never the command line, where other users can read it); without
one, the service makes one and prints it.

The body is read with :meth:`ProviderRequest.from_wire`; a body that is not a browser action
is answered with HTTP 400, everything else with HTTP 200 and the provider's wire answer. An
envelope of another protocol version is refused unrun (``ok: false`` naming both versions).
``GET /browser-control`` is the hello a host polls until the service is ready: the protocol
version it speaks, the actions it implements and whether it has a surface.
``POST /browser-control/cancel`` with ``{"requestId"}`` abandons that action if it is still
running (204; 404 when it is not): the host sends it when its caller cancels after sending.

``POST /browser-control/lifecycle`` carries an instance's lifecycle
(:mod:`browserhost.contract.lifecycle`) to the provider's
:class:`~browserhost.sdk.launching.Launcher`; an action whose envelope names a ``browserId``
goes to the instance launched under it.

A host that starts the service itself (a record's ``"service": {"python": ...}``) gives it a
fresh token in ``BROWSERHOST_SERVICE_TOKEN`` and a port in ``BROWSERHOST_SERVICE_PORT``.

A provider with a surface is also served at the surface paths of
:mod:`browserhost.contract.surface`, behind the same gate: ``GET /surface/frame`` (200 with
the picture and its ``x-surface-*`` headers, or 204 when nothing newer came in time), the
posts answered 204 (``/surface/resize`` 200 with the size chosen, or 400 to keep its own), and
the two reads as JSON. A body the contract's readers refuse is a 400 and reaches nothing.
Every call but the frame waits its turn, so input and control notices reach the provider one
at a time in the order they arrived. A provider's :class:`~browserhost.sdk.Panel` page is
served at :data:`PANEL_PATH`, the ``panel.entry`` its record names, and any request under its
``requests`` prefix is answered by :meth:`~browserhost.sdk.Provider.panel_request` (JSON, or
400 with the message of an :class:`~browserhost.sdk.ActionError`).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import secrets
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Final

from browserhost.contract import ProviderRequest
from browserhost.contract import surface as contract
from browserhost.contract.lifecycle import LifecycleRequest
from browserhost.contract.limits import (
    CANCEL_PATH,
    LIFECYCLE_PATH,
    PROTOCOL_VERSION,
    PROVIDER_PATH,
)
from browserhost.contract.wire import ProtocolVersionError, ServiceHello
from browserhost.gate import Gate

from .launching import Instance, Launched
from .provider import PANEL_PATH as PANEL_PATH  # where it has always been importable
from .provider import ActionError, Provider, refusal
from .surface_calls import SurfaceCallRefusedError, make_call

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.routing import BaseRoute

TOKEN_ENV = "BROWSERHOST_SERVICE_TOKEN"  # noqa: S105  # the variable's name, not a secret
PORT_ENV = "BROWSERHOST_SERVICE_PORT"
DEFAULT_PORT: Final = 9100


def service_app(provider: Provider, token: str) -> Starlette:
    """An ASGI app that answers the host's posts with ``provider``, to callers sending
    ``Authorization: Bearer <token>`` from this machine."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    if not token:
        raise ValueError(f"a provider service needs a token; set {TOKEN_ENV}")

    surface = provider.surface()
    running: dict[str, asyncio.Task[dict[str, Any]]] = {}
    launched = Launched(provider.launcher())

    async def browser_control(request: Request) -> JSONResponse:
        try:
            parsed = ProviderRequest.from_wire(await request.body())
        except ProtocolVersionError as exc:
            return JSONResponse(refusal(f"This provider service ran nothing: {exc}."))
        if parsed is None:
            return JSONResponse({"error": "not a browser action"}, status_code=400)
        answering: Instance = provider
        if parsed.browser_id is not None:  # an instance this service launched
            instance = launched.instances.get(parsed.browser_id)
            if instance is None:
                return JSONResponse(
                    refusal(f"This service runs no instance {parsed.browser_id}; close it.")
                )
            answering = instance
        # A task of its own, so a cancel for this request id reaches the provider's code.
        task = asyncio.ensure_future(answering.answer(parsed))
        running[parsed.request_id] = task
        try:
            return JSONResponse(await task)
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise  # the server itself is stopping, not a cancel from the host
            return JSONResponse(refusal("The host cancelled this action."))
        finally:
            if running.get(parsed.request_id) is task:
                del running[parsed.request_id]

    greeting = ServiceHello(PROTOCOL_VERSION, frozenset(provider.actions), surface is not None)

    async def hello(request: Request) -> JSONResponse:
        return JSONResponse(greeting.to_wire())

    async def cancel(request: Request) -> Response:
        try:
            request_id = json.loads(await request.body()).get("requestId")
        except (ValueError, AttributeError):
            request_id = None
        task = running.get(request_id) if isinstance(request_id, str) else None
        if task is None:
            return JSONResponse({"error": "no such action is running"}, status_code=404)
        task.cancel()
        return Response(status_code=204)

    async def lifecycle(request: Request) -> JSONResponse:
        try:
            parsed = LifecycleRequest.from_wire(await request.body())
        except ProtocolVersionError as exc:
            return JSONResponse(refusal(f"This provider service did nothing: {exc}."))
        if parsed is None:
            return JSONResponse({"error": "not a lifecycle operation"}, status_code=400)
        return JSONResponse(await launched.operate(parsed))

    routes: list[BaseRoute] = [
        Route(LIFECYCLE_PATH, lifecycle, methods=["POST"]),
        Route(PROVIDER_PATH, browser_control, methods=["POST"]),
        Route(PROVIDER_PATH, hello, methods=["GET"]),
        Route(CANCEL_PATH, cancel, methods=["POST"]),
    ]
    if surface is not None:
        routes += _surface_routes(surface)
    if provider.panel is not None:
        # Read once, here: a request never names a file, and a missing page fails at start.
        page = provider.panel.entry.read_bytes()

        async def panel(request: Request) -> Response:
            return Response(page, media_type="text/html; charset=utf-8")

        routes.append(Route(PANEL_PATH, panel, methods=["GET"]))
        if provider.panel.requests is not None:
            routes.append(_panel_requests_route(provider, provider.panel.requests))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await launched.aclose()
            await provider.aclose()

    gate = Middleware(
        Gate,
        token=token,
        unauthorized_hint=(
            f"it is the service's {TOKEN_ENV}, given to the host as the provider record's "
            '"token".'
        ),
        host_hint="A provider service answers only 127.0.0.1, localhost or ::1.",
    )
    return Starlette(routes=routes, middleware=[gate], lifespan=lifespan)


def _surface_routes(surface: contract.Surface) -> list[BaseRoute]:
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    # One call at a time, in arrival order (asyncio.Lock wakes its waiters first come, first
    # served): a batch of keys must never overtake the click before it. Frames stay outside,
    # since each viewer waits for its own.
    turn = asyncio.Lock()

    def malformed(what: str) -> JSONResponse:
        return JSONResponse({"error": f"not {what}"}, status_code=400)

    async def body(request: Request) -> object:
        try:
            return json.loads(await request.body())
        except ValueError:  # not JSON, or not UTF-8: the reader refuses it as any other shape
            return None

    async def frame(request: Request) -> Response:
        after = _whole(request.query_params.get("after"))
        wait_ms = _whole(request.query_params.get("wait"))
        if after is None or wait_ms is None:
            return malformed("a frame request: after and wait are whole numbers")
        wait_s = min(wait_ms / 1000, contract.FRAME_WAIT_S)
        picture = await surface.frame(after, wait_s)
        if picture is None:
            return Response(status_code=204)
        return Response(picture.data, headers=picture.headers())

    def answering(method: str) -> Callable[[Request], Awaitable[Response]]:
        async def call(request: Request) -> Response:
            arguments = await body(request) if request.method == "POST" else {}
            try:
                async with turn:
                    answer = await make_call(surface, method, arguments)
            except SurfaceCallRefusedError as refused:
                return malformed(str(refused))
            if answer is not None:
                return JSONResponse(answer)
            if method == "resize":
                return JSONResponse({"error": "the surface keeps its own size"}, status_code=400)
            return Response(status_code=204)

        return call

    return [
        Route(contract.FRAME_PATH, frame, methods=["GET"]),
        Route(contract.INPUT_PATH, answering("input"), methods=["POST"]),
        Route(contract.CONTROL_PATH, answering("control"), methods=["POST"]),
        Route(contract.RESIZE_PATH, answering("resize"), methods=["POST"]),
        Route(contract.CLIPBOARD_PATH, answering("clipboard"), methods=["GET"]),
        Route(contract.SESSIONS_PATH, answering("sessions"), methods=["GET"]),
        Route(contract.SHOW_PATH, answering("show"), methods=["POST"]),
    ]


def _panel_requests_route(provider: Provider, prefix: str) -> BaseRoute:
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def answer(request: Request) -> JSONResponse:
        raw = await request.body()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return JSONResponse({"error": "the body is not JSON"}, status_code=400)
        path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        try:
            return JSONResponse(await provider.panel_request(request.method, path, body))
        except ActionError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)

    methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    return Route(prefix + "{rest:path}", answer, methods=methods)


def _whole(raw: str | None) -> int | None:
    """A query's non-negative whole number (0 when absent), or ``None`` for anything else."""
    if raw is None:
        return 0
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None


def serve(
    provider: Provider, host: str = "127.0.0.1", port: int = 0, token: str | None = None
) -> None:
    """Serve ``provider`` until interrupted. Loopback only: the host calls nothing else.

    ``token`` defaults to ``BROWSERHOST_SERVICE_TOKEN``; when that is unset too, a new one is
    made for this run and printed to stderr.
    """
    import uvicorn

    token = token or os.environ.get(TOKEN_ENV) or _new_token()
    uvicorn.run(service_app(provider, token), host=host, port=port, log_level="warning")


def _new_token() -> str:
    token = secrets.token_urlsafe(32)
    print(
        f"No {TOKEN_ENV} is set, so this run's token is {token}. Give it to the host as the "
        f'provider record\'s "token", or set {TOKEN_ENV} to keep one across restarts.',
        file=sys.stderr,
        flush=True,
    )
    return token


def _load(target: str) -> Provider:
    module_name, _, attribute = target.partition(":")
    factory = getattr(importlib.import_module(module_name), attribute)
    provider = factory()
    if not isinstance(provider, Provider):
        raise SystemExit(f"{target} did not give a browserhost.sdk.Provider")
    return provider


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Serve a browserhost provider on loopback.",
        epilog=f"The token comes from {TOKEN_ENV}; without it, one is made and printed.",
    )
    parser.add_argument("provider", help="module:Class of a browserhost.sdk.Provider")
    parser.add_argument("--host", default="127.0.0.1", choices=["127.0.0.1", "localhost", "::1"])
    parser.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get(PORT_ENV) or DEFAULT_PORT),
        help=f"default: ${PORT_ENV}, else {DEFAULT_PORT}",
    )
    arguments = parser.parse_args(argv)
    serve(_load(arguments.provider), arguments.host, arguments.port)


if __name__ == "__main__":
    main()
