"""A panel page's requests to its own provider service, through the host's API: forwarded under
the prefix the record declares, to a real service process, and refused elsewhere unsent."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from browserhost.host import Catalog, InstallError
from browserhost.host.dispatch import SERVICE_LOGS
from browserhost.providers.stub import StubProvider
from tests.recording import Recorder

from . import panel_service
from .viewing import Served, serving

REQUEST = "/api/browser-providers/panelstub/panel-request"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(tmp_path_factory.mktemp("panel") / "data", panel_service.record()) as running:
        yield running


def service_log(served: Served) -> list[str]:
    path = served.host.data_dir / SERVICE_LOGS / "panelstub.log"
    lines = path.read_text().splitlines() if path.exists() else []
    return [line for line in lines if line.startswith("panel ")]


def logged(served: Served, line: str) -> list[str]:
    """The service's log once ``line`` is in it (another process's output: polled, bounded)."""
    deadline = time.monotonic() + 10
    while line not in service_log(served) and time.monotonic() < deadline:
        time.sleep(0.02)  # the host writes the service's output as it comes; no event to await
    return service_log(served)


def ask(served: Served, **request: Any) -> httpx.Response:
    with served.client() as http:
        return http.post(REQUEST, json=request)


@pytest.mark.slow  # a service process
def test_a_panel_request_reaches_its_service_and_the_answer_comes_back(served: Served) -> None:
    answer = ask(served, method="POST", path="/panel/echo?q=1", body={"hello": ["service"]})
    assert answer.status_code == 200, answer.text
    reply = answer.json()
    assert reply | {"body": None} == {"ok": True, "status": 200, "body": None}
    assert reply["body"] | {"pid": 0} == {
        "method": "POST",
        "path": "/panel/echo?q=1",
        "body": {"hello": ["service"]},
        "pid": 0,
    }
    provider = served.host.catalog.get("panelstub")
    assert provider is not None
    assert provider.service is not None
    assert reply["body"]["pid"] == provider.service.pid  # the process the host runs answered


@pytest.mark.slow  # a service process
def test_what_the_service_refuses_comes_back_as_its_own_status(served: Served) -> None:
    answer = ask(served, method="GET", path="/panel/refuse")
    assert answer.json() == {
        "ok": True,
        "status": 400,
        "body": {"error": "The service refuses this on purpose."},
    }


@pytest.mark.slow  # a service process
@pytest.mark.parametrize(
    "path",
    [
        "/browser-control",
        "/surface/input",
        "/panel",
        "/panel/../browser-control",
        "/panel/./x",
        "/panel//x",
        "/panel/%2e%2e/browser-control",
        "panel/x",
        "/panel/x#y",
    ],
)
def test_a_path_outside_the_declared_prefix_is_refused_and_never_sent(
    served: Served, path: str
) -> None:
    answer = ask(served, method="POST", path=path, body={})
    assert answer.status_code == 400
    refusal = answer.json()
    assert refusal["code"] == "INVALID_ACTION"
    assert refusal["error"].startswith("The panel may send requests only to paths under /panel/")
    assert refusal["error"].endswith("nothing was sent.")
    ask(served, method="GET", path="/panel/after")  # the service's log is in order
    reached = [line.split(" ", 2)[2] for line in logged(served, "panel GET /panel/after")]
    assert path not in reached


@pytest.mark.slow  # a service process
def test_a_body_with_get_and_an_unknown_method_are_refused(served: Served) -> None:
    with_body = ask(served, method="GET", path="/panel/x", body={"a": 1})
    assert (with_body.status_code, with_body.json()["error"]) == (
        400,
        "A GET request carries no body; nothing was sent.",
    )
    assert ask(served, method="TRACE", path="/panel/x").status_code == 400


def test_other_providers_have_no_panel_requests_and_unknown_ones_are_not_found(
    tmp_path: Path,
) -> None:
    with serving(tmp_path / "data", StubProvider().registration()) as stub:
        with stub.client() as http:
            unsupported = http.post(
                "/api/browser-providers/stub/panel-request", json={"method": "GET", "path": "/x/"}
            )
            missing = http.post(
                "/api/browser-providers/nope/panel-request", json={"method": "GET", "path": "/x/"}
            )
        without_token = httpx.post(
            f"{stub.url}/api/browser-providers/stub/panel-request",
            json={"method": "GET", "path": "/x/"},
        )
    assert (unsupported.status_code, unsupported.json()["code"]) == (501, "UNSUPPORTED")
    assert "declares no panel.requests" in unsupported.json()["error"]
    assert (missing.status_code, missing.json()["code"]) == (404, "PROVIDER_NOT_FOUND")
    assert without_token.status_code == 401


@pytest.mark.parametrize(
    ("requests", "message"),
    [
        ("/panel", r"panel\.requests must be a path prefix on the provider service ending in /"),
        ("/", r"panel\.requests must be a path prefix"),
        ("/surface/", r"panel\.requests must be a path prefix"),
        ("/browser-control/", r"panel\.requests must be a path prefix"),
        ("/a/../", r"panel\.requests must be a path prefix"),
        (7, r"panel\.requests must be a path prefix"),
    ],
)
def test_a_record_whose_panel_requests_is_not_a_safe_prefix_is_refused(
    requests: object, message: str
) -> None:
    record = panel_service.record()
    record["panel"]["requests"] = requests
    with pytest.raises(InstallError, match=message):
        Catalog().install(record)


def test_an_in_process_panel_cannot_declare_requests() -> None:
    record: dict[str, Any] = {
        "id": "inproc",
        "provides": ["browser"],
        "actions": [],
        "answer": Recorder(),
        "panel": {"entry": str(Path(__file__).with_name("panel_page.html")), "requests": "/p/"},
    }
    with pytest.raises(InstallError, match=r"panel\.requests is for a provider service"):
        Catalog().install(record)


def test_the_sdk_records_a_service_panel_at_its_runners_path_with_its_prefix() -> None:
    assert panel_service.record()["panel"] == {
        "entry": "/surface/panel",
        "dock": "top",
        "size": 120,
        "requests": "/panel/",
    }
    assert "requests" not in panel_service.PanelStub().registration()["panel"]
