"""Each of the action codes, produced through POST /api/browser-providers/actions.

CANCELLED is the exception: an HTTP client cannot cancel a request and still read its answer,
so the API has no way to produce it. It is produced at the host, where cancellation is an
argument, in tests/host/test_dispatch.py:
test_a_cancel_before_sending_is_cancelled_and_nothing_is_sent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import httpx
import pytest

from browserhost.contract import ACTIONS as ACTION_NAMES
from browserhost.contract import ErrorCode
from browserhost.host import Host
from browserhost.host.selection import SELECTION_FILE
from browserhost.providers.stub import register
from tests.api.conftest import ACTIONS
from tests.loopback_service import answer, close_without_answer, closed_port, loopback_service
from tests.recording import Recorder, replying


@dataclass
class Produced:
    response: httpx.Response
    requests_received: int  # by the provider the action was meant for


Scenario = Callable[[httpx.AsyncClient, Host], Awaitable[Produced]]


async def invalid_action(client: httpx.AsyncClient, host: Host) -> Produced:
    recorder = Recorder()
    host.catalog.install(recorder.record())
    response = await client.post(
        ACTIONS,
        json={"action": "browser.open", "parameters": {"url": "ftp://x"}, "providerId": "rec"},
    )
    return Produced(response, len(recorder.requests))


async def no_provider(client: httpx.AsyncClient, host: Host) -> Produced:
    recorder = Recorder()  # installed, not selected: it must not be chosen in the gap
    host.catalog.install(recorder.record())
    response = await client.post(ACTIONS, json={"action": "browser.snapshot"})
    return Produced(response, len(recorder.requests))


async def provider_not_found(client: httpx.AsyncClient, host: Host) -> Produced:
    recorder = Recorder()  # selected: the unknown id must not fall back to it
    host.catalog.install(recorder.record())
    host.select(recorder.id)
    response = await client.post(ACTIONS, json={"action": "browser.back", "providerId": "chromium"})
    return Produced(response, len(recorder.requests))


async def catalog_unavailable(client: httpx.AsyncClient, host: Host) -> Produced:
    recorder = Recorder()
    host.catalog.install(recorder.record())
    host.data_dir.mkdir(parents=True, exist_ok=True)
    (host.data_dir / SELECTION_FILE).write_text('{"selectedId": "rec"')  # cut short
    response = await client.post(ACTIONS, json={"action": "browser.back"})
    return Produced(response, len(recorder.requests))


async def unsupported(client: httpx.AsyncClient, host: Host) -> Produced:
    recorder = Recorder()
    host.catalog.install(recorder.record(actions=["browser.open"]))
    response = await client.post(ACTIONS, json={"action": "browser.capture", "providerId": "rec"})
    return Produced(response, len(recorder.requests))


async def provider_unavailable(client: httpx.AsyncClient, host: Host) -> Produced:
    host.catalog.install(
        {
            "id": "svc",
            "provides": ["browser"],
            "actions": list(ACTION_NAMES),
            "endpoint": f"http://127.0.0.1:{closed_port()}",
        }
    )
    response = await client.post(ACTIONS, json={"action": "browser.back", "providerId": "svc"})
    return Produced(response, 0)  # nothing listens on a closed port, so nothing can count


async def user_in_control(client: httpx.AsyncClient, host: Host) -> Produced:
    recorder = Recorder()
    host.catalog.install(recorder.record())
    assert host.controls.take(recorder.id, None, "a-viewer")  # a person took over there
    response = await client.post(ACTIONS, json={"action": "browser.back", "providerId": "rec"})
    return Produced(response, len(recorder.requests))


async def provider_rejected(client: httpx.AsyncClient, host: Host) -> Produced:
    stub = Recorder(register()["answer"], provider_id="counted-stub")  # the stub, counted
    host.catalog.install(stub.record())
    response = await client.post(
        ACTIONS,
        json={
            "action": "browser.click",
            "parameters": {"selector": "#nope"},
            "providerId": stub.id,
        },
    )
    return Produced(response, len(stub.requests))


async def request_failed(client: httpx.AsyncClient, host: Host) -> Produced:
    async with loopback_service(close_without_answer) as service:
        host.catalog.install(
            {
                "id": "svc",
                "provides": ["browser"],
                "actions": list(ACTION_NAMES),
                "endpoint": service.origin,
            }
        )
        response = await client.post(
            ACTIONS,
            json={"action": "browser.click", "parameters": {"text": "Buy"}, "providerId": "svc"},
        )
    return Produced(response, len(service.received))


async def unknown_result(client: httpx.AsyncClient, host: Host) -> Produced:
    huge = b'{"ok": true, "data": {"base64": "' + b"A" * 13_000_000 + b'"}}'
    async with loopback_service(answer(huge)) as service:
        host.catalog.install(
            {
                "id": "svc",
                "provides": ["browser"],
                "actions": list(ACTION_NAMES),
                "endpoint": service.origin,
            }
        )
        response = await client.post(
            ACTIONS, json={"action": "browser.capture", "providerId": "svc"}
        )
    return Produced(response, len(service.received))


SCENARIOS: dict[ErrorCode, tuple[int, bool, Scenario]] = {
    # code: (status, may have run, how to produce it)
    ErrorCode.INVALID_ACTION: (400, False, invalid_action),
    ErrorCode.NO_PROVIDER: (409, False, no_provider),
    ErrorCode.PROVIDER_NOT_FOUND: (404, False, provider_not_found),
    ErrorCode.CATALOG_UNAVAILABLE: (503, False, catalog_unavailable),
    ErrorCode.UNSUPPORTED: (501, False, unsupported),
    ErrorCode.PROVIDER_UNAVAILABLE: (503, False, provider_unavailable),
    ErrorCode.USER_IN_CONTROL: (423, False, user_in_control),
    ErrorCode.PROVIDER_REJECTED: (400, True, provider_rejected),
    ErrorCode.REQUEST_FAILED: (504, True, request_failed),
    ErrorCode.UNKNOWN_RESULT: (502, True, unknown_result),
}
PRODUCED_AT_THE_HOST = {ErrorCode.CANCELLED}
SELECTION_CODES = {ErrorCode.INVALID_SELECTION, ErrorCode.SELECTION_UNAVAILABLE}


def test_every_action_code_has_a_scenario() -> None:
    assert set(SCENARIOS) | PRODUCED_AT_THE_HOST == set(ErrorCode) - SELECTION_CODES
    assert len(set(SCENARIOS) | PRODUCED_AT_THE_HOST) == 11


@pytest.mark.parametrize("code", list(SCENARIOS), ids=str)
async def test_each_action_code_is_answered_with_its_status_and_a_message(
    client: httpx.AsyncClient, host: Host, code: ErrorCode
) -> None:
    status, reached_provider, scenario = SCENARIOS[code]
    produced = await scenario(client, host)
    assert produced.response.status_code == status
    body = produced.response.json()
    assert set(body) == {"ok", "code", "error"}
    assert (body["ok"], body["code"]) == (False, code.value)
    assert isinstance(body["error"], str)
    assert body["error"]
    # Sent at most once, and only where the code says it was sent at all.
    assert produced.requests_received == (1 if reached_provider else 0)


async def test_an_invalid_action_message_tells_what_to_change(client: httpx.AsyncClient) -> None:
    response = await client.post(
        ACTIONS, json={"action": "browser.type", "parameters": {"selector": "#q"}}
    )
    assert response.json()["error"] == "value is required for browser.type. Nothing was sent."


@pytest.mark.parametrize(
    "body",
    [
        {"parameters": {}},
        {"action": 5},
        {"action": "browser.open", "parameters": ["https://a.test"]},
        {"action": "browser.back", "providerId": 7},
        ["browser.back"],
    ],
)
async def test_a_malformed_action_body_is_invalid_action_and_says_nothing_was_sent(
    client: httpx.AsyncClient, body: object
) -> None:
    response = await client.post(ACTIONS, json=body)
    assert response.status_code == 400
    assert response.json()["code"] == "INVALID_ACTION"
    assert response.json()["error"].endswith("Nothing was sent.")


async def test_a_body_that_is_not_json_is_invalid_action(client: httpx.AsyncClient) -> None:
    response = await client.post(
        ACTIONS, content=b"{action: browser.back", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["code"] == "INVALID_ACTION"


async def test_the_provider_rejected_error_is_the_providers_own_text(
    client: httpx.AsyncClient, host: Host
) -> None:
    text = "The page asks for a second factor; ask the user to take over."
    host.catalog.install(Recorder(replying({"ok": False, "error": text})).record())
    response = await client.post(ACTIONS, json={"action": "browser.back", "providerId": "rec"})
    assert response.json() == {"ok": False, "code": "PROVIDER_REJECTED", "error": text}
