"""The five invariants of reference 000, one test each, through the HTTP API."""

from __future__ import annotations

import httpx

from browserhost.host import Host
from browserhost.host.selection import SELECTION_FILE
from tests.api.conftest import ACTIONS, PROVIDERS, SELECTION, selection_bytes
from tests.loopback_service import close_without_answer, loopback_service
from tests.recording import Recorder


async def test_no_selected_provider_does_not_fall_through_and_does_not_return_success(
    client: httpx.AsyncClient,
) -> None:
    opened = await client.post(
        ACTIONS, json={"action": "browser.open", "parameters": {"url": "https://a.test/"}}
    )
    assert opened.status_code == 409
    assert opened.json()["ok"] is False
    assert "data" not in opened.json()
    # The installed stub did not quietly take the action: its page is still blank.
    snapshot = await client.post(ACTIONS, json={"action": "browser.snapshot", "providerId": "stub"})
    assert snapshot.json()["data"]["url"] == "about:blank"


async def test_a_catalog_read_failure_is_not_no_providers_and_does_not_run_the_action(
    client: httpx.AsyncClient, host: Host
) -> None:
    recorder = Recorder()
    host.catalog.install(recorder.record())
    host.data_dir.mkdir(parents=True, exist_ok=True)
    (host.data_dir / SELECTION_FILE).write_bytes(b"\x00garbage")

    listing = await client.get(PROVIDERS)
    assert listing.status_code == 503
    assert listing.json()["code"] == "CATALOG_UNAVAILABLE"
    assert "providers" not in listing.json()

    action = await client.post(ACTIONS, json={"action": "browser.back"})
    assert (action.status_code, action.json()["code"]) == (503, "CATALOG_UNAVAILABLE")
    assert recorder.requests == []


async def test_the_provider_is_re_read_on_every_action_and_a_stale_selection_is_not_retargeted(
    client: httpx.AsyncClient, host: Host
) -> None:
    recorder = Recorder()
    host.catalog.install(recorder.record())
    assert (await client.put(SELECTION, json={"id": "rec"})).status_code == 200
    assert (await client.post(ACTIONS, json={"action": "browser.back"})).status_code == 200

    await host.catalog.uninstall("rec")
    stale = await client.post(ACTIONS, json={"action": "browser.back"})
    assert (stale.status_code, stale.json()["code"]) == (404, "PROVIDER_NOT_FOUND")
    assert len(recorder.requests) == 1
    # The stub is still installed; it was not chosen in the selection's place.
    snapshot = await client.post(ACTIONS, json={"action": "browser.snapshot", "providerId": "stub"})
    assert snapshot.json()["data"]["url"] == "about:blank"
    listing = (await client.get(PROVIDERS)).json()
    assert listing["selectedId"] is None
    assert selection_bytes(host) == b'{"selectedId": "rec"}'


async def test_choosing_an_unknown_id_does_not_clear_a_previous_valid_selection(
    client: httpx.AsyncClient, host: Host
) -> None:
    assert (await client.put(SELECTION, json={"id": "stub"})).json() == {"selectedId": "stub"}
    before = selection_bytes(host)
    refused = await client.put(SELECTION, json={"id": "chromium"})
    assert (refused.status_code, refused.json()["code"]) == (404, "PROVIDER_NOT_FOUND")
    assert selection_bytes(host) == before
    assert (await client.get(PROVIDERS)).json()["selectedId"] == "stub"


async def test_failure_after_the_request_was_handed_over_is_not_described_as_nothing_changed(
    client: httpx.AsyncClient, host: Host
) -> None:
    async with loopback_service(close_without_answer) as service:
        host.catalog.install(
            {
                "id": "svc",
                "provides": ["browser"],
                "actions": ["browser.type"],
                "endpoint": service.origin,
            }
        )
        lost = await client.post(
            ACTIONS,
            json={
                "action": "browser.type",
                "parameters": {"selector": "#pay", "value": "100"},
                "providerId": "svc",
            },
        )
    body = lost.json()
    assert (lost.status_code, body["code"]) == (504, "REQUEST_FAILED")
    assert "may have run" in body["error"]
    assert "nothing" not in body["error"].lower()
    assert len(service.received) == 1
