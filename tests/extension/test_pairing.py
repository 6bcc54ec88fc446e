"""Pairing the real extension with a host, end to end: a real Chromium with the extension, a
real ``browserhost serve`` of its own per test, and the person's side played through the
viewer page (its Allow button) or the API: what the popup, the badge and the host show."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.conftest import TOKEN, LiveServer, start_server
from tests.extension.conftest import PENDING, PROVIDERS, Loaded, bridge_url

pytestmark = pytest.mark.slow  # a serve of its own per test
WAITING = "Not connected yet. Waiting for approval in the browserhost viewer (or: browserhost "


@pytest.fixture
def host(tmp_path: Path) -> Iterator[LiveServer]:
    running = start_server(tmp_path / "data", providers="bridge", extra_args=("--select", "bridge"))
    yield running
    running.stop()


def waiting(extension: Loaded, host: LiveServer) -> str:
    """Dial ``host`` with no token: the id the extension waits as, once it waits."""
    extension.dial(bridge_url(host))
    extension.wait_status("pending")
    return str(extension.worker.evaluate("browserhost.link.pending"))


def connection(extension: Loaded) -> Page:
    """The popup, as the person opens it, showing the connection."""
    tab: int = extension.worker.evaluate("async () => (await chrome.tabs.query({}))[0].id")
    return extension.popup(tab)


def test_the_extension_waits_until_a_person_allows_it_in_the_viewer_then_connects_unasked(
    extension: Loaded, host: LiveServer
) -> None:
    pairing_id = waiting(extension, host)
    assert extension.badge() == "?"
    popup = connection(extension)
    assert popup.text_content("#connection") == f"{WAITING}bridge approve {pairing_id})."
    assert popup.is_hidden("#reconnect")
    with host.client() as http:
        [row] = http.get(PROVIDERS).json()["providers"]
        assert row["bridge"] == {"connected": False}
        [request] = http.get(PENDING).json()["pending"]
    assert (request["id"], request["name"]) == (pairing_id, "Chrome extension")
    origin = f"chrome-extension://{extension.extension_id}"
    assert request["origin"] == origin

    viewer = extension.context.new_page()
    viewer.goto(f"{host.url}/viewer/#token={TOKEN}")
    asking = viewer.locator(f"#pairing .request[data-id='{pairing_id}']")
    assert asking.locator("span").text_content() == (
        f"Chrome extension ({origin}) wants to connect to the bridge as {pairing_id}: allow it "
        "only if its browserhost button shows the same id."
    )
    asking.get_by_role("button", name="Allow").click()
    extension.wait_status("on")
    viewer.wait_for_selector("#pairing", state="hidden")
    with host.client() as http:
        [row] = http.get(PROVIDERS).json()["providers"]
        assert row["bridge"] == {"connected": True, "provider": "Chrome extension"}
        [paired] = http.get("/api/bridge/paired").json()["paired"]
    assert paired["id"] == pairing_id
    popup.wait_for_selector("#connection:text('Connected to the host.')")

    # Dialling again (the service worker starts again, Chrome restarts) presents the secret.
    extension.worker.evaluate("browserhost.connect()")
    extension.wait_status("on")
    with host.client() as http:
        assert http.get(PENDING).json() == {"pending": []}
        assert http.get(PROVIDERS).json()["providers"][0]["bridge"]["connected"] is True


def test_a_denied_extension_shows_refused_and_asks_again_from_its_popup(
    extension: Loaded, host: LiveServer
) -> None:
    pairing_id = waiting(extension, host)
    with host.client() as http:
        assert http.post(f"{PENDING}/{pairing_id}/deny").status_code == 200
    extension.wait_status("refused")
    assert extension.badge() == "!"
    popup = connection(extension)
    assert popup.text_content("#connection") == (
        "The host refused this browser. The host's user denied this browser. Connect again to "
        "ask again."
    )
    popup.click("#reconnect")
    extension.wait_status("pending")
    again = str(extension.worker.evaluate("browserhost.link.pending"))
    assert again != pairing_id
    assert extension.pair(host.url) == again


def test_a_forgotten_extension_is_disconnected_and_must_ask_again(
    extension: Loaded, host: LiveServer
) -> None:
    extension.dial(bridge_url(host))
    pairing_id = extension.pair(host.url)
    with host.client() as http:
        assert http.delete(f"/api/bridge/paired/{pairing_id}").status_code == 200
    extension.wait_status("refused")
    assert extension.badge() == "!"
    assert extension.state_text() == (
        "The host does not know this browser (it was forgotten, or the host is another): "
        "Connect again to ask for approval."
    )
    pairings = extension.worker.evaluate("chrome.storage.local.get('pairings')")["pairings"]
    assert bridge_url(host) not in pairings
    with host.client() as http:
        assert http.get(PROVIDERS).json()["providers"][0]["bridge"] == {"connected": False}
    connection(extension).click("#reconnect")
    extension.wait_status("pending")
