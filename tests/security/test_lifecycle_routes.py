"""Hostile callers of the routes that change an instance or a provider's settings: a wrong
token, a body nested 10,000 levels deep and a body over the size limit are each refused with
the contract's error shape, and change nothing. The host is served on a real socket and its
provider (the example text browser) runs as a service process of its own, with an instance."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from browserhost_textbrowser import register

from browserhost.contract.limits import REQUEST_BODY_MAX_BYTES
from tests.api.viewing import Served, serving
from tests.conftest import TOKEN, UserAgentPage, serving_http

pytestmark = pytest.mark.slow

EXAMPLE_SOURCE = Path(__file__).parents[2] / "examples" / "textbrowser" / "src"
INSTANCES = "/api/browser-providers/instances"
CLOSE = f"{INSTANCES}/textbrowser~probe/operations/close"
CONFIGURE = "/api/browser-providers/textbrowser/configure"
DEPTH = 10_000


@dataclass(frozen=True)
class Setting:
    served: Served
    page: str

    def agents(self) -> tuple[str, str]:
        """The User-Agents the provider and its instance send now: what each route changes."""
        seen = []
        with self.served.client() as http:
            for provider in ("textbrowser", "textbrowser~probe"):
                answer = http.post(
                    "/api/browser-providers/actions",
                    json={"action": "browser.open", "parameters": {"url": self.page},
                          "providerId": provider},
                )  # fmt: skip
                assert answer.status_code == 200, answer.text
                seen.append(answer.json()["data"]["title"])
        return seen[0], seen[1]

    def instances(self) -> list[str]:
        with self.served.client() as http:
            return [row["id"] for row in http.get(INSTANCES).json()["instances"]]


@pytest.fixture(scope="module")
def setting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setting]:
    record = register()
    record["service"]["cwd"] = str(EXAMPLE_SOURCE)
    data_dir = tmp_path_factory.mktemp("hostile") / "data"
    with serving_http(UserAgentPage) as origin, serving(data_dir, record) as served:
        with served.client() as http:
            launched = http.post(
                INSTANCES,
                json={"provider": "textbrowser", "name": "probe",
                      "options": {"userAgent": "instance/1"}},
            )  # fmt: skip
            assert launched.status_code == 201, launched.text
            configured = http.post(CONFIGURE, json={"options": {"userAgent": "provider/1"}})
            assert configured.status_code == 200, configured.text
        yield Setting(served, origin + "/agent")


def deep(field: str) -> bytes:
    """A body whose one field is nested :data:`DEPTH` levels deep."""
    return f'{{"{field}": {"[" * DEPTH}{"]" * DEPTH}}}'.encode()


def large(field: str) -> bytes:
    """A well-formed body over the size limit: it would close the instance, or configure."""
    value = {"userAgent": "x", "pad": "x" * REQUEST_BODY_MAX_BYTES}
    return json.dumps({field: value}).encode()


def small(field: str) -> bytes:
    return json.dumps({field: {}}).encode()


@dataclass(frozen=True)
class Hostile:
    token: str
    body: Callable[[str], bytes]
    """The body, given the name of the route's one field."""
    status: int
    code: str
    said: str


ROUTES = {"close": (CLOSE, "arguments"), "configure": (CONFIGURE, "options")}
HOSTILE = {
    "wrong-token": Hostile("x" + TOKEN, small, 401, "UNAUTHORIZED", "Bearer"),
    "deep-body": Hostile(TOKEN, deep, 400, "INVALID_ACTION", "nested too deeply"),
    "large-body": Hostile(TOKEN, large, 413, "BODY_TOO_LARGE", "1048576"),
}


@pytest.mark.parametrize("hostile", list(HOSTILE))
@pytest.mark.parametrize("route", list(ROUTES))
def test_a_hostile_request_is_refused_in_the_contracts_shape_and_changes_nothing(
    setting: Setting, route: str, hostile: str
) -> None:
    path, field = ROUTES[route]
    case = HOSTILE[hostile]
    before = (setting.instances(), setting.agents())
    answer = httpx.post(
        setting.served.url + path,
        content=case.body(field),
        headers={"Authorization": f"Bearer {case.token}", "Content-Type": "application/json"},
        timeout=30,
        trust_env=False,
    )
    refusal = answer.json()
    assert (answer.status_code, refusal["code"]) == (case.status, case.code), refusal
    assert case.said in refusal["error"]
    assert before == (["textbrowser~probe"], ("provider/1", "instance/1"))
    assert (setting.instances(), setting.agents()) == before
