"""The three routes: listing, selection and actions, as a client sees them."""

from __future__ import annotations

import base64
import time
from pathlib import Path

import httpx
import pytest

from browserhost.api.app import create_app
from browserhost.contract import ACTIONS as ACTION_NAMES
from browserhost.host import Host
from tests.api.conftest import ACTIONS, PROVIDERS, SELECTION, TOKEN, selection_bytes
from tests.conftest import STUB_ROW
from tests.loopback_service import closed_port
from tests.recording import Recorder, fitting


def read(path: Path) -> bytes:
    """A file's bytes; a plain function, as ruff's ASYNC240 flags path I/O in a coroutine."""
    return path.read_bytes()


async def test_the_listing_shows_installed_providers_and_no_selection_at_first(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get(PROVIDERS)
    assert response.status_code == 200
    assert response.json() == {
        "providers": [STUB_ROW],
        "selectedId": None,
    }


async def test_an_empty_catalog_is_an_empty_list_not_an_error(tmp_path: Path) -> None:
    host = Host(tmp_path)
    transport = httpx.ASGITransport(app=create_app(host, TOKEN))
    async with httpx.AsyncClient(
        transport=transport,
        base_url="http://localhost",
        headers={"Authorization": f"Bearer {TOKEN}"},
    ) as client:
        response = await client.get(PROVIDERS)
    assert (response.status_code, response.json()) == (200, {"providers": [], "selectedId": None})


async def test_selecting_answers_the_same_id_and_the_listing_follows(
    client: httpx.AsyncClient,
) -> None:
    chosen = await client.put(SELECTION, json={"id": "stub"})
    assert (chosen.status_code, chosen.json()) == (200, {"selectedId": "stub"})
    assert (await client.get(PROVIDERS)).json()["selectedId"] == "stub"


@pytest.mark.parametrize(
    "body",
    [{"id": ""}, {"id": " stub"}, {"id": "../stub"}, {"id": 5}, {"id": None}, {}, ["stub"], "stub"],
)
async def test_a_selection_that_is_not_a_provider_id_is_invalid_and_changes_nothing(
    client: httpx.AsyncClient, host: Host, body: object
) -> None:
    await client.put(SELECTION, json={"id": "stub"})
    before = selection_bytes(host)
    response = await client.put(SELECTION, json=body)
    assert response.status_code == 400
    assert response.json()["code"] == "INVALID_SELECTION"
    assert "not changed" in response.json()["error"]
    assert selection_bytes(host) == before


async def test_an_action_answer_carries_the_provider_id_and_its_data(
    client: httpx.AsyncClient,
) -> None:
    await client.put(SELECTION, json={"id": "stub"})
    response = await client.post(
        ACTIONS, json={"action": "browser.open", "parameters": {"url": "https://a.test/about"}}
    )
    assert response.status_code == 200
    assert response.json() == {
        "ok": True,
        "providerId": "stub",
        "data": {
            "url": "https://a.test/about",
            "title": "About the stub",
            "opened": True,
            "settled": True,
            "viewport": {"mode": "desktop", "width": 1280, "height": 800},
        },
    }


async def test_provider_id_overrides_the_selection_for_one_call(
    client: httpx.AsyncClient, host: Host
) -> None:
    recorder = Recorder()
    host.catalog.install(recorder.record())
    await client.put(SELECTION, json={"id": "stub"})
    once = await client.post(ACTIONS, json={"action": "browser.back", "providerId": "rec"})
    assert once.json()["providerId"] == "rec"
    after = await client.post(ACTIONS, json={"action": "browser.snapshot"})
    assert after.json()["providerId"] == "stub"
    assert (await client.get(PROVIDERS)).json()["selectedId"] == "stub"
    assert len(recorder.requests) == 1


async def test_the_provider_receives_only_normalized_parameters_and_the_context(
    client: httpx.AsyncClient, host: Host
) -> None:
    recorder = Recorder()
    host.catalog.install(recorder.record())
    await client.post(
        ACTIONS,
        json={
            "action": "browser.scroll",
            "parameters": {"direction": " down ", "pixels": 300, "selector": ""},
            "context": {"directory": "/work/repo", "sessionId": "ses_9", "user": "root"},
            "providerId": "rec",
        },
    )
    [envelope] = recorder.wire
    assert set(envelope) == {
        "protocolVersion", "requestId", "action", "parameters", "context", "deadline"
    }  # fmt: skip
    assert envelope["action"] == "browser.scroll"
    assert envelope["parameters"] == {"direction": "down"}
    assert envelope["context"] == {"directory": "/work/repo", "sessionId": "ses_9"}


async def test_an_action_may_carry_its_own_timeout_which_the_provider_gets_as_a_deadline(
    client: httpx.AsyncClient, host: Host
) -> None:
    recorder = Recorder()
    host.catalog.install(recorder.record())
    sent = {"action": "browser.back", "providerId": "rec", "timeoutMs": 90_000}
    before_ms = time.time() * 1000
    answer = await client.post(ACTIONS, json=sent)
    assert answer.status_code == 200
    [request] = recorder.requests
    assert request.deadline_ms is not None
    assert before_ms + 89_999 <= request.deadline_ms <= time.time() * 1000 + 90_000


async def test_a_timeout_over_the_hosts_maximum_is_refused_and_nothing_is_sent(
    client: httpx.AsyncClient, host: Host
) -> None:
    recorder = Recorder()
    host.catalog.install(recorder.record())
    sent = {"action": "browser.back", "providerId": "rec", "timeoutMs": 600_000}
    answer = await client.post(ACTIONS, json=sent)
    assert answer.status_code == 400
    refusal = answer.json()
    assert refusal["code"] == "INVALID_ACTION"
    assert "from 100 to 120000 (the host's maximum)" in refusal["error"]
    assert recorder.requests == []


@pytest.mark.parametrize(
    "context",
    [None, {}, {"directory": "", "sessionId": None}, "repo", 5, ["/repo", "ses_1"], True],
)
async def test_an_unknown_context_reaches_the_provider_as_nulls(
    client: httpx.AsyncClient, host: Host, context: object
) -> None:
    """A context that is not an object is unknown, not a reason to refuse (reference 000)."""
    recorder = Recorder()
    host.catalog.install(recorder.record())
    answer = await client.post(
        ACTIONS, json={"action": "browser.back", "context": context, "providerId": "rec"}
    )
    assert answer.json() == {
        "ok": True,
        "providerId": "rec",
        "data": fitting("browser.back", echo="browser.back"),
    }
    assert recorder.wire[0]["context"] == {"directory": None, "sessionId": None}


async def test_no_endpoint_or_handler_ever_appears_in_an_answer(
    client: httpx.AsyncClient, host: Host
) -> None:
    endpoint = f"http://127.0.0.1:{closed_port()}/secret-hook-path"
    host.catalog.install(
        {
            "id": "svc",
            "name": "Service",
            "provides": ["browser"],
            "actions": list(ACTION_NAMES),
            "endpoint": endpoint,
        }
    )
    answers = [
        await client.get(PROVIDERS),
        await client.put(SELECTION, json={"id": "svc"}),
        await client.post(ACTIONS, json={"action": "browser.back"}),
        await client.put(SELECTION, json={"id": "nope"}),
    ]
    assert answers[2].json()["code"] == "PROVIDER_UNAVAILABLE"
    for response in answers:
        text = response.text
        assert "secret-hook-path" not in text
        assert endpoint not in text
        assert "function" not in text
        assert "0x" not in text
        assert TOKEN not in text


async def test_a_capture_with_a_project_directory_is_saved_there_and_its_path_returned(
    client: httpx.AsyncClient, tmp_path: Path
) -> None:
    project = tmp_path / "repo"
    project.mkdir()
    response = await client.post(
        ACTIONS,
        json={
            "action": "browser.capture",
            "parameters": {"label": "../../x"},
            "context": {"directory": str(project), "sessionId": "s"},
            "providerId": "stub",
        },
    )
    data = response.json()["data"]
    saved = Path(data["path"])
    assert saved.parent == project / ".browserhost" / "captures"
    assert saved.name.endswith("-x.png")
    assert read(saved) == base64.b64decode(data["base64"])


async def test_a_capture_without_a_directory_returns_the_image_only(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post(
        ACTIONS,
        json={"action": "browser.capture", "context": {"directory": None}, "providerId": "stub"},
    )
    data = response.json()["data"]
    assert "path" not in data
    assert (data["mime"], data["width"], data["height"]) == ("image/png", 1280, 800)
