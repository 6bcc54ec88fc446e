"""The web application: the API routes behind the auth gate, and the host's lifetime."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from browserhost.contract.bridge import BRIDGE_PATH
from browserhost.contract.errors import (
    BrowserhostError,
    InvalidActionError,
    InvalidSelectionError,
)
from browserhost.host import Host
from browserhost.host.bridge import Bridge

from . import mcp_endpoint, pairing, panel_requests, recordings, viewer
from .auth import AuthGate
from .bridge import bridge_socket
from .mcp_endpoint import LazyMcpEndpoint
from .paths import ACTIONS_PATH, INSTANCES_PATH, SELECTION_PATH
from .routes import BEARER_SCHEME, CONFIGURE_PATH, OPERATIONS_PATH, action_route, documented, router
from .schemas import SELF_READ_BODIES
from .viewer import PANEL_PATH, SOCKET_PATH, VIEWER_PATH

MCP_ROUTE = "/mcp"


class _App(FastAPI):
    def openapi(self) -> dict[str, Any]:
        return _without_422(self)


def create_app(
    host: Host, token: str, allowed_hosts: Sequence[str] = (), bridge: Bridge | None = None
) -> FastAPI:
    """An ASGI app serving ``host``; the host is closed when the app shuts down. With a
    ``bridge``, a browser elsewhere may dial in at ``/ext/bridge``."""
    mcp = LazyMcpEndpoint(host) if mcp_endpoint.installed() else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if mcp is not None:
                await mcp.aclose()
            await host.aclose()

    app = _App(
        title="browserhost",
        summary="One browser tool for AI agents, any browser behind it.",
        lifespan=lifespan,
    )
    app.state.host = host
    app.state.token = token
    # First: every agent action takes it, and each route before it is one more path match.
    app.router.routes.insert(0, action_route)
    app.include_router(router)
    app.include_router(pairing.router)
    app.include_router(panel_requests.router)
    app.include_router(recordings.router)
    app.router.routes.append(WebSocketRoute(SOCKET_PATH, viewer.surface_socket))
    # Before the viewer's files, which would otherwise answer for every path under them.
    app.router.routes.append(Route(f"{PANEL_PATH}/{{provider_id}}", viewer.panel_page))
    viewer_files = viewer.Unframed(StaticFiles(directory=str(viewer.files()), html=True))
    app.mount(VIEWER_PATH, viewer_files, name="viewer")
    if mcp is not None:
        app.router.routes.append(Route(MCP_ROUTE, endpoint=mcp))
    if bridge is not None:
        app.state.bridge = bridge
        app.router.routes.append(WebSocketRoute(BRIDGE_PATH, bridge_socket))
    app.add_exception_handler(BrowserhostError, _coded_error)
    app.add_exception_handler(RequestValidationError, _invalid_body)
    app.add_exception_handler(StarletteHTTPException, _unreadable_body)
    app.add_middleware(AuthGate, token=token, allowed_hosts=allowed_hosts)
    return app


def _without_422(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, with the routes served outside FastAPI (:mod:`.routes`) and
    without FastAPI's 422 answers: validation failures come back as the contract's 400s,
    which each route documents itself."""
    if app.openapi_schema is None:
        schema = get_openapi(
            title=app.title,
            version=app.version,
            summary=app.summary,
            routes=[*app.routes, *documented.routes],
        )
        components = schema.setdefault("components", {})
        components.setdefault("securitySchemes", {})["HTTPBearer"] = BEARER_SCHEME
        for model in SELF_READ_BODIES:
            components.setdefault("schemas", {})[model.__name__] = model.model_json_schema(
                ref_template="#/components/schemas/{model}"
            )
        for path_name, path in schema.get("paths", {}).items():
            for operation in path.values():
                operation.get("responses", {}).pop("422", None)
                if path_name.startswith("/api"):
                    operation["security"] = [{"HTTPBearer": []}]
        for unused in ("HTTPValidationError", "ValidationError"):
            schema.get("components", {}).get("schemas", {}).pop(unused, None)
        app.openapi_schema = schema
    return app.openapi_schema


def _refusal(request: Request, error: BrowserhostError) -> JSONResponse:
    body: dict[str, object] = {"error": error.message, "code": error.code.value}
    if request.url.path == ACTIONS_PATH:
        body = {"ok": False, **body}
    return JSONResponse(body, status_code=error.status)


async def _coded_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, BrowserhostError)  # registered for this class only
    return _refusal(request, exc)


async def _invalid_body(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)  # registered for this class only
    problem = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(part) for part in problem.get("loc", ()) if part != "body")
    return _body_refusal(request, f"{where or 'body'}: {problem.get('msg', 'invalid')}")


async def _unreadable_body(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)  # registered for this class only
    # FastAPI answers a body it cannot decode (not UTF-8, or nested deeper than Python's
    # json reads) with a bare 400 {"detail": ...}.
    if exc.status_code == 400 and _route(request) in _BODIES:
        return _body_refusal(request, "body: not UTF-8 JSON, or nested too deeply")
    return await http_exception_handler(request, exc)


_BODIES: dict[str, tuple[str, str]] = {
    ACTIONS_PATH: ("{action, parameters, context, providerId}", "Nothing was sent."),
    SELECTION_PATH: ('{"id": "<provider id>"}', "The selection was not changed."),
    INSTANCES_PATH: ("{provider, name, options}", "Nothing was launched."),
    OPERATIONS_PATH: ("{arguments}", "Nothing was done."),
    CONFIGURE_PATH: ("{options}", "Nothing was configured."),
    panel_requests.PANEL_REQUEST_PATH: ("{method, path, body}", "Nothing was sent."),
}
"""What each route with a JSON body takes, and what a body it cannot read leaves undone."""


def _route(request: Request) -> str:
    """The path template of the route the request reached (``.../{instance_id}/...``)."""
    route = request.scope.get("route")
    return str(getattr(route, "path", request.url.path))


def _body_refusal(request: Request, detail: str) -> JSONResponse:
    shape, undone = _BODIES.get(_route(request), _BODIES[SELECTION_PATH])
    message = f"Send {shape} as JSON ({detail}). {undone}"
    error: BrowserhostError = (
        InvalidSelectionError(message)
        if _route(request) == SELECTION_PATH
        else InvalidActionError(message)
    )
    return _refusal(request, error)
