"""The published schema of an action request says exactly what the host accepts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from browserhost.api.action_schema import URL
from browserhost.api.app import create_app
from browserhost.contract import ACTIONS, normalize
from browserhost.contract.errors import InvalidActionError
from browserhost.host import Host
from tests.api.conftest import ACTIONS as ACTIONS_ROUTE
from tests.strategies import parameters_for

SCHEMA = create_app(Host(Path("/nonexistent")), "t").openapi()["components"]["schemas"]
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA["ActionRequestBody"])


def accepted(action: str, parameters: object) -> bool:
    try:
        normalize(action, parameters)
    except InvalidActionError:
        return False
    return True


@pytest.mark.parametrize("action", list(ACTIONS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_schema_allows_what_the_host_accepts_and_nothing_else(
    action: str, data: st.DataObject
) -> None:
    parameters = data.draw(parameters_for(action))
    body = {"action": action, "parameters": parameters}
    valid = VALIDATOR.is_valid(body)
    if valid:
        assert accepted(action, parameters), "the schema allows what the host refuses"
    elif accepted(action, parameters):
        # The URL pattern covers the common forms only; any other miss is a schema defect.
        url = parameters.get("url")
        assert action == "browser.open", list(VALIDATOR.iter_errors(body))
        assert isinstance(url, str)
        assert not re.search(URL, url)


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com",
        " http://localhost:3000/app?x=1#top ",
        "HTTP://Example.COM/a/b/",
        "http://127.0.0.1:8080/",
        "https://a.b.example.org/path;p=1/~me?q=a/b?c",
    ],
)
def test_the_url_pattern_admits_the_common_forms(url: str) -> None:
    assert re.search(URL, url)
    assert accepted("browser.open", {"url": url})


@pytest.mark.parametrize(
    "body",
    [
        {"action": "browser.click", "parameters": {}},
        {"action": "browser.scroll", "parameters": {"direction": "left"}},
        {"action": "browser.open"},
        {"action": "browser.resize", "parameters": {"viewport": " "}},
        {"action": "browser.type", "parameters": {"selector": "#q"}},
        {"action": "browser.fly"},
        {"action": "browser.back", "parameters": []},
    ],
)
def test_the_schema_refuses_what_the_host_refuses(body: dict[str, Any]) -> None:
    assert not VALIDATOR.is_valid(body)


def test_the_selection_id_follows_the_provider_id_pattern() -> None:
    selection = jsonschema.Draft202012Validator(SCHEMA["SelectionBody"])
    assert selection.is_valid({"id": "stub"})
    assert not selection.is_valid({"id": "../stub"})


async def test_the_openapi_document_declares_the_bearer_token(
    client: httpx.AsyncClient,
) -> None:
    document = (await client.get("/openapi.json")).json()
    assert document["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    assert document["paths"][ACTIONS_ROUTE]["post"]["security"] == [{"HTTPBearer": []}]


async def test_a_body_that_is_not_utf8_is_refused_in_the_contracts_shape(
    client: httpx.AsyncClient,
) -> None:
    headers = {"Content-Type": "application/json"}
    action = await client.post(ACTIONS_ROUTE, content=b"\xff\xfe{", headers=headers)
    assert action.status_code == 400
    assert action.json()["code"] == "INVALID_ACTION"
    assert action.json()["ok"] is False
    selection = await client.put(
        "/api/browser-providers/selection", content=b'{"id": "\xff"}', headers=headers
    )
    assert (selection.status_code, selection.json()["code"]) == (400, "INVALID_SELECTION")
