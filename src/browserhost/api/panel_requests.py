"""``POST /api/browser-providers/{id}/panel-request``: a panel page's request to its service.

The viewer sends it for the page docked beside the picture (its ``serviceRequest``), behind the
API's gate like every route; the host forwards it under the prefix the provider's record
declares (:mod:`browserhost.host.panel_requests`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import ConfigDict, Field

from browserhost.contract.base import WireModel
from browserhost.contract.errors import ProviderNotFoundError, UnsupportedError
from browserhost.host import Host
from browserhost.host.panel_requests import PATH_MAX, Method

from .paths import PROVIDERS_PATH
from .schemas import refusals

PANEL_REQUEST_PATH = f"{PROVIDERS_PATH}/{{provider_id}}/panel-request"

router = APIRouter()


class PanelRequestBody(WireModel):
    model_config = ConfigDict(extra="forbid")

    method: Method = Field(description="The HTTP method the service receives.")
    path: str = Field(
        description="A path on the provider's service under its panel.requests prefix, with an "
        "optional query.",
        max_length=PATH_MAX,
    )
    body: Any = Field(
        default=None,
        description="JSON sent to the service as the request's body (not for GET or DELETE).",
    )


class PanelRequestAnswer(WireModel):
    ok: bool = Field(description="Always true: the service answered (whatever its status).")
    status: int = Field(description="The HTTP status the service answered.")
    body: Any = Field(description="Its answer: JSON when it answered JSON, else its text.")


@router.post(
    PANEL_REQUEST_PATH,
    response_model=PanelRequestAnswer,
    responses=refusals(400, 401, 403, 404, 413, 415, 421, 501, 502, 503, 504),
)
async def panel_request(
    provider_id: str, body: PanelRequestBody, request: Request
) -> dict[str, object]:
    """Send a provider's panel page's request to its own service and give back the answer.

    Only paths under the prefix its record declares (``panel.requests``) are sent; the rest are
    refused with nothing sent."""
    host: Host = request.app.state.host
    provider = host.catalog.get(provider_id)
    if provider is None:
        raise ProviderNotFoundError(f"No provider {provider_id!r} is installed; nothing was sent.")
    requests = None if provider.panel is None else provider.panel.requests
    if requests is None:
        raise UnsupportedError(
            f"{provider.name}'s panel sends no requests to a service (its record declares no "
            "panel.requests); nothing was sent."
        )
    answer = await requests.send(provider.name, body.method, body.path, body.body)
    return answer.to_wire()
