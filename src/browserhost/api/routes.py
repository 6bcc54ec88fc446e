"""The routes of the browser provider API: providers, the selection, actions, instances."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from browserhost.contract import Context
from browserhost.host import Host, Listing
from browserhost.host.capacity import count_all

from .paths import ACTIONS_PATH, INSTANCES_PATH, PROVIDERS_PATH, SELECTION_PATH
from .schemas import (
    ActionAnswer,
    ActionRefusal,
    ActionRequestBody,
    ConfigureBody,
    InstanceRow,
    InstancesAnswer,
    LaunchBody,
    OperationAnswer,
    OperationBody,
    ProviderRow,
    ProvidersAnswer,
    SelectionAnswer,
    SelectionBody,
    body_documented_as,
    read_body,
    refusals,
)

_GATE = (401, 403, 413, 415, 421)

# The gate (auth.py) checks the token before any route runs; the scheme is only written into
# the OpenAPI document (api/app.py), so clients and /docs know to send it, and no route pays
# for a dependency that would check it again.
BEARER_SCHEME = {
    "type": "http",
    "scheme": "bearer",
    "description": "The token `browserhost serve` prints.",
}
router = APIRouter()


async def get_host(request: Request) -> Host:
    """Async on purpose: FastAPI runs a plain function in its thread pool, on every request."""
    host: Host = request.app.state.host
    return host


HostDep = Annotated[Host, Depends(get_host)]


@router.get(PROVIDERS_PATH, response_model=ProvidersAnswer, responses=refusals(503, *_GATE))
async def list_providers(host: HostDep) -> dict[str, object]:
    """The reachable browser providers and which one is selected; a provider whose browsers
    run on a Selenium Grid with the Grid's free and busy slots."""
    listing = host.providers()
    rows = await count_all(listing.providers, host.catalog.counters())
    return Listing(rows, listing.selected_id).to_wire()


@router.put(
    SELECTION_PATH, response_model=SelectionAnswer, responses=refusals(400, 404, 503, *_GATE)
)
async def select_provider(body: SelectionBody, host: HostDep) -> dict[str, object]:
    """Choose the provider that answers actions sent without a providerId."""
    return {"selectedId": host.select(body.id)}


async def run_action(request: Request) -> Response:
    """Run one browser action on the selected provider (or ``providerId``)."""
    return await _act(request.app.state.host, await request.body())


async def _act(host: Host, raw: bytes) -> Response:
    body = read_body(ActionRequestBody, raw)
    outcome = await host.dispatch(
        body.action,
        body.parameters,
        Context.read(body.context),
        body.provider_id,
        timeout_ms=body.timeout_ms,
    )
    return JSONResponse(outcome.to_wire())


class _ActionApp:
    """:func:`run_action` as a bare ASGI app.

    Every agent action takes this route, and what a framework does around a handler costs
    as much server time as the host's own work: FastAPI's body parameter, dependencies and
    answer model, and even Starlette's request object, body stream and second round of
    exception handling (the app's own handlers, which catch what this raises, are the same).
    The gate (auth.py) has already read the body, whole.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = await _act(scope["app"].state.host, await _whole_body(receive))
        await response(scope, receive, send)


async def _whole_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise ClientDisconnect  # as Request.body() does
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


# The bare app serves the route (Starlette takes an endpoint that is not a function as ASGI),
# and a FastAPI declaration of the same endpoint, never mounted, writes the OpenAPI document.
action_route = Route(ACTIONS_PATH, _ActionApp(), methods=["POST"])
documented = APIRouter()
documented.add_api_route(
    ACTIONS_PATH,
    run_action,
    methods=["POST"],
    response_model=ActionAnswer,
    responses=refusals(400, 404, 409, 499, 501, 502, 503, 504, model=ActionRefusal)
    | refusals(*_GATE),
    openapi_extra=body_documented_as(ActionRequestBody),
)


# Launching and closing are the user's (CLI, HTTP, client), not the agent's: no MCP tool does them.


class _InstancesRoute(APIRoute):
    """Listing and launching share one path: a method neither takes is answered 405 with
    both in ``Allow`` (Starlette names the methods of the first route on the path only)."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in (self.methods or ()):
            raise HTTPException(405, headers={"Allow": "GET, POST"})
        await super().handle(scope, receive, send)


instances = APIRouter(route_class=_InstancesRoute)


@instances.get(INSTANCES_PATH, response_model=InstancesAnswer, responses=refusals(*_GATE))
async def list_instances(host: HostDep) -> dict[str, object]:
    """The launched browser instances (each is also a row of GET /api/browser-providers)."""
    return {"instances": host.instances.listing()}


@instances.post(
    INSTANCES_PATH,
    response_model=InstanceRow,
    status_code=201,
    responses=refusals(400, 404, 501, 503, *_GATE),
)
async def launch_instance(body: LaunchBody, host: HostDep) -> dict[str, object]:
    """Launch an instance of a provider with options checked against its launch schema."""
    return await host.instances.launch(body.provider, body.options, body.name)


router.include_router(instances)


@router.delete(
    f"{INSTANCES_PATH}/{{instance_id}}", response_model=InstanceRow, responses=refusals(404, *_GATE)
)
async def close_instance(instance_id: str, host: HostDep) -> dict[str, object]:
    """Close an instance: its browser stops and it is forgotten (a profile stays on disk)."""
    return await host.instances.close(instance_id)


OPERATIONS_PATH = f"{INSTANCES_PATH}/{{instance_id}}/operations/{{operation}}"
CONFIGURE_PATH = f"{PROVIDERS_PATH}/{{provider_id}}/configure"


@router.post(
    OPERATIONS_PATH,
    response_model=OperationAnswer,
    responses=refusals(400, 404, 501, 502, 503, 504, *_GATE),
)
async def operate_instance(
    instance_id: str, operation: str, body: OperationBody, host: HostDep
) -> dict[str, object]:
    """Run one of the operations the instance's row lists: start (a stopped persistent
    instance), detach (leave its browser running, forget it), sync_cookies, references, close."""
    return await host.instances.operate(instance_id, operation, body.arguments)


@router.post(
    CONFIGURE_PATH,
    response_model=ProviderRow,
    responses=refusals(400, 404, 501, 502, 503, 504, *_GATE),
)
async def configure_provider(
    provider_id: str, body: ConfigureBody, host: HostDep
) -> dict[str, object]:
    """Change a provider's own settings, checked against its configuration.inputSchema."""
    return await host.instances.configure(provider_id, body.options)
