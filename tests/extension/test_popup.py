"""The extension's popup end to end: what it shows of the connection, the tabs and who is in
control, and its two buttons (share this tab, hand back to the agent) acting on a live host."""

from __future__ import annotations

import time

from tests.conftest import LiveServer, free_port
from tests.extension.conftest import WAIT_S, Loaded, act, data
from tests.providers.chromium.site import Site


def test_the_popup_shares_a_tab_and_lists_it(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    own = extension.context.new_page()
    own.goto(f"{site.origin}/page-b")
    popup = extension.popup(extension.tab_id(f"{site.origin}/page-b"))
    assert popup.text_content("#connection") == "Connected to the host."
    assert popup.text_content("#control") == "The agent is in control of its tabs."
    assert popup.is_disabled("#hand-back")
    assert popup.text_content("#shared") == "none"
    popup.click("#share")
    popup.wait_for_selector("#share:text('Stop sharing this tab')")
    assert popup.text_content("#shared") == "Page B"
    with server.client() as http:
        snapshot = data(act(http, "browser.snapshot"))
    assert snapshot["text"] == "This is page B"


def test_the_person_acting_in_a_shared_tab_holds_it_until_handing_back_from_the_popup(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    own = extension.context.new_page()
    own.goto(f"{site.origin}/button")
    extension.share(f"{site.origin}/button")
    popup = extension.popup(extension.tab_id(f"{site.origin}/button"))
    with server.client() as http:
        data(act(http, "browser.snapshot"))
        own.click("#toggle")  # the person's own click
        deadline = time.monotonic() + WAIT_S
        while (refused := act(http, "browser.snapshot")).status_code != 423:
            # The extension tells the host over its socket; nothing tells this test.
            assert time.monotonic() < deadline, refused.text
        assert refused.json()["code"] == "USER_IN_CONTROL"
        # Where the person acted, which is not the viewer.
        assert refused.json()["error"] == (
            "A person has taken over Bridge (a browser that connects in) in that browser "
            "itself, in a tab the agent works in (a login or a check, say), so "
            "browser.snapshot was not sent. Wait and try again in a while, or ask the user "
            "to hand back to the agent."
        )
        assert extension.badge() == "you"
        popup.wait_for_selector("#control:text('You are in control')")
        assert popup.text_content("#control") == (
            "You are in control: the agent waits until you hand back."
        )
        assert act(http, "browser.snapshot").status_code == 423  # still the person's

        popup.click("#hand-back")
        popup.wait_for_selector("#hand-back:disabled")
        snapshot = data(act(http, "browser.snapshot"))
    assert snapshot["elements"][0]["label"] == "Clicked!"
    assert popup.text_content("#control") == "The agent is in control of its tabs."
    assert extension.badge() == "on"


def test_a_page_can_neither_keep_a_persons_input_from_taking_control_nor_take_it(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """The watch for the person's input is out of the page's reach: a page that deletes what
    it can find of it and breaks addEventListener does not stop a person's click taking
    control, and finds no binding to call itself."""
    own = extension.context.new_page()
    own.goto(f"{site.origin}/no-watch")
    assert own.evaluate("window.pretended") == "undefined"
    extension.share(f"{site.origin}/no-watch")
    with server.client() as http:
        data(act(http, "browser.snapshot"))  # the agent's own reading takes nothing
        assert act(http, "browser.snapshot").status_code == 200
        own.click("#toggle")  # the person's own click
        deadline = time.monotonic() + WAIT_S
        while (refused := act(http, "browser.snapshot")).status_code != 423:
            assert time.monotonic() < deadline, refused.text
        assert refused.json()["code"] == "USER_IN_CONTROL"
        popup = extension.popup(extension.tab_id(f"{site.origin}/no-watch"))
        popup.click("#hand-back")
        popup.wait_for_selector("#hand-back:disabled")


def test_while_not_connected_the_popup_says_where_it_dials_and_where_to_change_that(
    extension: Loaded,
) -> None:
    """A host served elsewhere than the address set: the popup names it, and the options."""
    nowhere = f"ws://127.0.0.1:{free_port()}/ext/bridge"
    extension.dial(nowhere)
    popup = extension.popup(
        extension.worker.evaluate("async () => (await chrome.tabs.query({}))[0].id")
    )
    popup.wait_for_selector(f"#address:text-is('{nowhere}')")
    assert popup.is_visible("#dialling")
    assert popup.inner_text("#dialling") == (
        f"It dials {nowhere}. If browserhost serve printed another bridge address, set that one "
        "in the options."
    )
    with popup.context.expect_page() as opened:
        popup.click("#dialling a")
    assert opened.value.url == f"chrome-extension://{extension.extension_id}/options.html"
    opened.value.close()
