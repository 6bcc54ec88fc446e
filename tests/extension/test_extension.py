"""The Chrome extension end to end: a real Chromium with the unpacked extension loaded, a real
``browserhost serve``, the extension connected to its bridge, and actions sent through the
host's HTTP API to a test site served on loopback."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import pytest

from browserhost.providers.chromium import fields, targets
from browserhost.providers.chromium.inputs import STILL_LOADING
from browserhost.providers.chromium.targets import SCROLLS_SIDEWAYS
from tests.api.test_bridge_extension import own_address
from tests.cli.test_verbs import Shell
from tests.conftest import TOKEN, LiveServer, serve_answers, start_server
from tests.extension.conftest import (
    EXTENSION,
    NO_TAB,
    PROVIDERS,
    REDIAL_MAX_S,
    WAIT_S,
    Loaded,
    act,
    bridge_url,
    data,
)
from tests.mcp.conftest import call_ok, http_mcp
from tests.providers.chromium.site import Site
from tests.providers.chromium.test_actions import CODE
from tests.spawning import spawn, stop, wait_ready

pytestmark = pytest.mark.slow


def test_browserhost_extension_prints_the_folder_to_load_unpacked() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "browserhost", "extension"],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    folder = Path(shown.stdout.strip())
    assert folder.samefile(EXTENSION)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["manifest_version"] == 3
    assert (folder / manifest["background"]["service_worker"]).is_file()
    assert (folder / manifest["options_ui"]["page"]).is_file()
    assert (folder / manifest["action"]["default_popup"]).is_file()


def test_on_this_machine_the_extension_connects_without_a_token_once_a_person_approved_it(
    extension: Loaded, server: LiveServer
) -> None:
    assert extension.worker.evaluate("chrome.storage.local.get('token')") == {"token": ""}
    pairings = extension.worker.evaluate("chrome.storage.local.get('pairings')")["pairings"]
    kept = pairings[bridge_url(server)]
    with server.client() as http:
        [row] = http.get(PROVIDERS).json()["providers"]
        [paired] = http.get("/api/bridge/paired").json()["paired"]
    assert row["bridge"] == {"connected": True, "provider": "Chrome extension"}
    assert (paired["id"], paired["name"]) == (kept["id"], "Chrome extension")
    assert paired["origin"] == f"chrome-extension://{extension.extension_id}"
    assert kept["secret"] not in (server.data_dir / "paired.json").read_text()
    assert extension.badge() == "on"


def test_browserhost_providers_says_the_extension_is_connected(
    extension: Loaded, server: LiveServer, tmp_path: Path
) -> None:
    shell = Shell(server, tmp_path)
    listed = shell.ok("providers").splitlines()
    assert listed[:2] == [
        "* bridge  Bridge (a browser that connects in) (selected)",
        "    browser connected: Chrome extension",
    ]
    verbs = [line.strip().split("  ")[0] for line in listed[2:] if line.startswith("    call ")]
    assert verbs == [
        "call hover",
        "call drag",
        "call select_text",
        "call mouse",
        "call press_key",
        "call cookies",
        "call set_cookies",
    ]
    assert "      --set text*, selector" in listed  # select_text's arguments, under it
    [row] = shell.answer("providers")["providers"]
    assert row["bridge"] == {"connected": True, "provider": "Chrome extension"}


def test_the_agent_opens_clicks_and_types_in_a_tab_of_its_own_group(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        opened = data(act(http, "browser.open", url=f"{site.origin}/button"))
        assert (opened["url"], opened["title"], opened["settled"]) == (
            f"{site.origin}/button",
            "Button",
            True,
        )
        tab = extension.tab_id(f"{site.origin}/button")
        group = extension.worker.evaluate(
            "async (id) => (await chrome.tabGroups.get((await chrome.tabs.get(id)).groupId)).title",
            tab,
        )
        assert group == "browserhost"
        snapshot = data(act(http, "browser.snapshot"))
        assert [(e["selector"], e["label"]) for e in snapshot["elements"]] == [
            ("#toggle", "Click me")
        ]
        page = extension.page(f"{site.origin}/button")
        page.evaluate(
            "window.trusted = []; addEventListener('click', (e) => trusted.push(e.isTrusted))"
        )
        clicked = data(act(http, "browser.click", selector="#toggle"))
        assert (clicked["clicked"], clicked["label"]) == ("#toggle", "Click me")
        assert page.text_content("#toggle") == "Clicked!"
        assert page.evaluate("trusted") == [True]

        data(act(http, "browser.open", url=f"{site.origin}/form"))
        typed = data(act(http, "browser.type", selector="#q", value="hello world", submit=True))
    assert typed["url"] == f"{site.origin}/result?q=hello+world&color=r"
    assert site.arrived["/result?q=hello+world&color=r"] == 1


def test_a_form_the_browsers_own_check_stops_is_said_not_sent(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", url=f"{site.origin}/checked-form"))
        clicked = data(act(http, "browser.click", text="Send"))
        enter = {"key": "Enter", "selector": 'input[name="q"]'}
        pressed = data(act(http, "verb.press_key", **enter))
        data(act(http, "browser.type", selector='input[name="q"]', value="hat"))
        typed = data(act(http, "browser.type", selector="#mail", value="a@b.c", submit=True))
    assert pressed["notice"] == clicked["notice"]  # Enter sends the form as its button does
    assert clicked["notice"] == (
        'The form was not sent: the browser\'s own check stopped it at the field "Name" '
        '(input[name="q"]), which says "Please fill out this field." (1 other field too). Fix '
        "the field, then send the form again."
    )
    # Fixed, the form is sent: the answer is the result page, or says that the page is still
    # loading it (a machine too busy to load it within the wait after the submit).
    assert site.wait_for_requests(lambda arrived: arrived["/result?q=hat&color=a%40b.c"] == 1)
    assert typed.get("notice") in (None, STILL_LOADING)
    assert typed["title"] == "Result" or typed.get("notice") == STILL_LOADING


def test_the_pages_own_check_and_its_toast_are_quoted_as_the_provider_quotes_them(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", url=f"{site.origin}/page-checked-form"))
        refused = data(act(http, "browser.click", text="Send"))
        saved = data(act(http, "browser.click", text="Save draft"))
        again = data(act(http, "browser.click", text="Save draft"))
        copied = data(act(http, "browser.click", text="Copy link"))
    assert refused["notice"] == (
        'The form was not sent: the page\'s own check stopped it at the field "Name *" '
        '(input[name="q"]); the page says why beside it. Fix the field, then send the form '
        'again. The page now shows: "Tell us your name."'
    )
    assert saved["notice"] == 'The page now shows: "Draft saved"'
    assert "notice" not in again
    assert copied["notice"] == 'The page showed, and took away again: "Link copied"'


def test_a_page_waiting_for_its_server_is_said_loading_not_stuck(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """Chrome runs nothing in a page whose next document its server has not sent: the click
    that led there answers once its wait ends, saying the page is still loading, and a
    snapshot meanwhile is refused as not run, not taken for a page that stopped answering."""
    with server.client() as http:
        data(act(http, "browser.open", url=f"{site.origin}/to-held"))
        with site.holding() as held:
            clicked = data(act(http, "browser.click", text="Held page"))
            assert held.is_set()
            assert (clicked["url"], clicked["title"]) == (f"{site.origin}/to-held", "To held")
            assert clicked["notice"] == STILL_LOADING
            read = act(http, "browser.snapshot")
            assert (read.status_code, read.json()["code"]) == (400, "PROVIDER_REJECTED"), read.text
            assert read.json()["error"].startswith(
                "The page is waiting for its server to send the next page (for "
            )
            assert "nothing was done" in read.json()["error"]
        assert data(act(http, "browser.snapshot"))["title"] == "Held"


@pytest.mark.parametrize(
    ("verb", "arguments"),
    [
        ("verb.press_key", {"selector": "a[href='/held']", "key": "Enter"}),
        ("verb.mouse", {"action": "click", "text": "Held page"}),
    ],
)
def test_a_verbs_press_on_a_link_to_a_slow_server_says_the_page_is_still_loading(
    extension: Loaded, server: LiveServer, site: Site, verb: str, arguments: dict[str, Any]
) -> None:
    """A key or a mouse press on a link whose server holds its page answers once the wait
    after it ends, with the page it left and word that the page is still loading, as a
    click does."""
    with server.client() as http:
        data(act(http, "browser.open", url=f"{site.origin}/to-held"))
        with site.holding() as held:
            pressed = data(act(http, verb, **arguments))
            assert held.is_set()
            assert (pressed["url"], pressed["notice"]) == (f"{site.origin}/to-held", STILL_LOADING)
            if verb == "verb.mouse":
                assert pressed["end"]["under"] is None  # the page runs nothing until it arrives
        assert data(act(http, "browser.snapshot"))["title"] == "Held"


def test_a_tab_the_user_did_not_share_is_never_touched(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    own = extension.context.new_page()
    own.goto(f"{site.origin}/page-b")
    own.bring_to_front()
    with server.client() as http:
        for action in ("browser.snapshot", "browser.capture", "browser.back"):
            refused = act(http, action)
            assert refused.status_code == 400, refused.text
            assert refused.json()["code"] == "PROVIDER_REJECTED"
            assert refused.json()["error"].startswith(NO_TAB)
    assert own.evaluate("window[Symbol.for('browserhost')] === undefined")
    # The extension's own record: Playwright is a debugger client of every tab too.
    tab = extension.tab_id(f"{site.origin}/page-b")
    assert extension.worker.evaluate("(id) => browserhost.attached.has(id)", tab) is False


def test_a_shared_tab_is_where_the_agent_acts_until_the_user_stops_sharing_it(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    own = extension.context.new_page()
    own.goto(f"{site.origin}/page-b")
    with server.client() as http:
        extension.share(f"{site.origin}/page-b")
        snapshot = data(act(http, "browser.snapshot"))
        assert (snapshot["url"], snapshot["text"]) == (f"{site.origin}/page-b", "This is page B")
        popup = extension.popup(extension.tab_id(f"{site.origin}/page-b"))
        popup.click("#share:text('Stop sharing this tab')")
        popup.wait_for_selector("#share:text('Share this tab')")
        refused = act(http, "browser.snapshot")
    assert refused.status_code == 400
    assert refused.json()["error"].startswith(NO_TAB)


def test_a_host_pinned_to_another_extension_refuses_it(extension: Loaded, tmp_path: Path) -> None:
    pinned = start_server(
        tmp_path / "data",
        providers="bridge",
        extra_args=("--extension-id", "a" * 32),
    )
    try:
        extension.dial(bridge_url(pinned))
        extension.wait_status("refused")
        assert (
            extension.state_text() == "The host accepts another extension (serve --extension-id)."
        )
        assert extension.badge() == "!"
        with pinned.client() as http:
            [row] = http.get(PROVIDERS).json()["providers"]
        assert row["bridge"] == {"connected": False}
    finally:
        pinned.stop()


def test_from_another_machine_the_token_set_in_the_options_page_is_checked(
    extension: Loaded, tmp_path: Path
) -> None:
    address = own_address()
    remote = start_server(
        tmp_path / "data",
        providers="bridge",
        extra_args=("--host", "0.0.0.0", "--allow-host", address),
    )
    options = extension.context.new_page()
    try:
        options.goto(f"chrome-extension://{extension.extension_id}/options.html")
        options.fill("#url", bridge_url(remote, address))
        options.fill("#token", "wrong")
        options.click("button[type=submit]")
        extension.wait_status("refused")
        assert extension.state_text().startswith("The host refused the token")
        options.fill("#token", TOKEN)
        options.click("button[type=submit]")
        extension.wait_status("on")
        with remote.client() as http:
            [row] = http.get(PROVIDERS).json()["providers"]
        assert row["bridge"]["connected"] is True
    finally:
        remote.stop()


def test_scroll_history_inspect_capture_and_resize(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        # A box of its own, given a direction too, scrolls itself; one that does not, refused.
        data(act(http, "browser.open", url=f"{site.origin}/marks"))
        boxed = data(act(http, "browser.scroll", selector="#lines", direction="bottom"))
        assert (boxed["box"], boxed["atBottom"], boxed["scrollY"] > 0) == ("#lines", True, True)
        assert act(http, "browser.scroll", selector="#c1", direction="down").json()["error"] == (
            "#c1 does not scroll (what it holds fits in it), so nothing was scrolled; give "
            "direction alone to scroll the page, or selector alone to bring #c1 into view."
        )

        data(act(http, "browser.open", url=f"{site.origin}/long"))
        scrolled = data(act(http, "browser.scroll", direction="down"))
        assert scrolled["scrollY"] > 0
        assert (scrolled["atTop"], scrolled["direction"]) == (False, "down")
        to_end = data(act(http, "browser.scroll", selector="#end"))
        assert (to_end["atBottom"], to_end["scrolledTo"]) == (True, "#end")

        data(act(http, "browser.open", url=f"{site.origin}/button"))
        back = data(act(http, "browser.back"))
        assert (back["url"], back["title"]) == (f"{site.origin}/long", "Long")
        forward = data(act(http, "browser.forward"))
        assert (forward["url"], forward["title"]) == (f"{site.origin}/button", "Button")
        assert act(http, "browser.forward").json()["error"] == (
            "There is no later page to go forward to."
        )

        inspected = data(act(http, "browser.inspect", selector="#toggle"))
        assert (inspected["selector"], inspected["tag"], inspected["label"]) == (
            "#toggle",
            "button",
            "Click me",
        )
        assert inspected["styles"]["padding"] == "8px 16px"
        assert "aim" not in inspected

        resized = data(act(http, "browser.resize", viewport="mobile"))
        assert resized["viewport"] == {"mode": "mobile", "width": 390, "height": 844}
        captured = data(act(http, "browser.capture"))
    png = base64.b64decode(captured["base64"])
    assert png.startswith(b"\x89PNG")
    assert (captured["mime"], captured["url"]) == ("image/png", f"{site.origin}/button")
    assert (captured["width"], captured["height"]) == (390, 844)
    assert captured["viewport"] == {"mode": "mobile", "width": 390, "height": 844}


def test_open_refuses_the_hosts_own_address(extension: Loaded, server: LiveServer) -> None:
    """A page's text must not send the agent to the host's API (other schemes than http and
    https the host refuses before sending)."""
    url = f"{server.url}/api/browser-providers"
    with server.client() as http:
        refused = act(http, "browser.open", url=url)
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"] == (
        f"{url} was not opened: it is browserhost's own address, which the browser does not show."
    )


def test_an_element_asked_for_on_a_blank_page_says_to_open_one(
    extension: Loaded, server: LiveServer
) -> None:
    """As the chromium provider says it: on a blank page (here a blank tab the user shared) no
    element is missing, nothing was opened."""
    extension.context.new_page()
    with server.client() as http:
        extension.share("about:blank")
        refused = act(http, "browser.click", text="Sign in")
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"] == (
        "Nothing is open: the page is blank, so browser.click was not run; use browser.open."
    )


def test_an_action_whose_tab_is_closed_under_it_may_have_run(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http, site.holding() as held, ThreadPoolExecutor(1) as pool:
        opening = pool.submit(act, http, "browser.open", url=f"{site.origin}/held")
        assert held.wait(WAIT_S)
        # The page has not arrived, so the tab is found by the address it is loading.
        extension.worker.evaluate(
            "async (url) => chrome.tabs.remove("
            "(await chrome.tabs.query({})).find((tab) => tab.pendingUrl === url).id)",
            f"{site.origin}/held",
        )
        answer = opening.result(timeout=60)
    assert answer.status_code == 504, answer.text
    assert answer.json()["code"] == "REQUEST_FAILED"
    assert "may have run" in answer.json()["error"]


def test_the_extension_dials_again_when_the_host_comes_back(
    extension: Loaded, tmp_path: Path
) -> None:
    first = start_server(tmp_path / "data", providers="bridge")
    port = first.url.rsplit(":", 1)[1]
    again: subprocess.Popen[bytes] | None = None
    try:
        extension.dial(bridge_url(first))
        extension.pair(first.url)
        first.stop()
        extension.wait_status("off")
        printed = tmp_path / "again.log"
        with printed.open("wb") as log:
            again = spawn(
                [sys.executable, "-m", "browserhost", "serve", "--port", port,
                 "--data-dir", str(first.data_dir)],
                env=first.env, stdout=subprocess.DEVNULL, stderr=log,
            )  # fmt: skip
        wait_ready(again, lambda: serve_answers(first.url), "the second serve", printed)
        # Its pairing, kept in the data dir, lets it in unasked, at its next dial: the pause
        # before that has grown while the server was starting (at most REDIAL_MAX_S).
        extension.wait_status("on", timeout_s=REDIAL_MAX_S + WAIT_S)
        with first.client() as http:
            [row] = http.get(PROVIDERS).json()["providers"]
            assert http.get("/api/bridge/pending").json() == {"pending": []}
        assert row["bridge"]["connected"] is True
    finally:
        if again is not None:
            stop(again)


def test_the_actions_run_through_mcp_too(extension: Loaded, server: LiveServer, site: Site) -> None:
    async def through_mcp() -> list[Any]:
        with anyio.fail_after(120):
            async with http_mcp(server) as client:
                return [
                    await call_ok(client, "browser_open", {"url": f"{site.origin}/links"}),
                    await call_ok(client, "browser_click", {"text": "Page A"}),
                    await call_ok(client, "browser_snapshot"),
                ]

    # In a thread of its own: the sync Playwright driving this browser holds this one's loop.
    with ThreadPoolExecutor(1) as pool:
        opened, clicked, snapshot = pool.submit(anyio.run, through_mcp).result(timeout=150)
    assert opened["title"] == "Links"
    assert clicked["url"] == f"{site.origin}/page-a"
    assert snapshot["text"] == "This is page A"


def test_a_dialog_during_an_action_is_dismissed_and_told(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        opened = data(act(http, "browser.open", url=f"{site.origin}/greets"))
        snapshot = data(act(http, "browser.snapshot"))
    assert opened["dialogs"] == [
        {"type": "alert", "message": "Welcome back", "answer": "dismissed"}
    ]
    assert snapshot["text"] == "Greets"


def test_typing_replaces_a_fields_text_and_picks_a_select_option_by_label(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", url=f"{site.origin}/form"))
        data(act(http, "browser.type", selector="#q", value="first"))
        replaced = data(act(http, "browser.type", selector="#q", value="second"))
        picked = data(act(http, "browser.type", selector="select", value="Blue"))
        refused = act(http, "browser.type", selector="select", value="Green")
    assert replaced["value"] == "second"
    assert picked["value"] == "Blue"  # a select says its chosen label, as in a snapshot
    assert refused.json()["error"] == 'select has no option "Green"; its options are "Red", "Blue".'


def test_typing_says_when_the_field_did_not_take_the_text(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """In the chromium provider's words: a field whose page cancels the typing still holds
    what it held, a field the page disables once focused took nothing, and a page that keeps
    only the digits typed took them (no notice)."""
    with server.client() as http:
        data(act(http, "browser.open", url=site.url("/reworks")))
        guarded = data(act(http, "browser.type", selector="#guarded", value="8"))
        data(act(http, "browser.open", url=site.url("/keys")))
        secret = data(act(http, "browser.type", selector="#secret", value="hunter2"))
        amount = data(act(http, "browser.type", selector="#amount", value="1,250"))
    assert guarded["value"] == "3"
    assert guarded["notice"] == (
        "The page did not take what was typed into #guarded: it holds '3', not '8'. It may "
        "turn keys away there, or be set by its own controls (arrows, buttons, a picker); take "
        "a snapshot to see them."
    )
    assert secret["notice"].startswith("The page disabled #secret as the text was typed")
    assert (amount["value"], "notice" in amount) == ("1250", False)


def test_code_is_typed_into_a_code_editor_through_its_hidden_field_as_given(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: a code editor named by its lines is pressed, its
    text selected whole and replaced by a paste, which it keeps as given (its Enter would
    indent each line once more); keys pressed on its lines reach the field it hides."""
    url = site.url("/code-editor")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        typed = data(act(http, "browser.type", selector="#lines", value=CODE))
        page = extension.page(url)
        assert page.evaluate("code") == CODE
        data(act(http, "verb.press_key", selector="#lines", text=" # ok"))
        assert page.evaluate("code") == CODE + " # ok"
    assert typed["notice"] == fields.EDITOR_TYPED.format(
        selector="#lines", surface="#editor", field="#keys"
    )


def test_a_row_a_virtual_list_draws_again_as_it_is_scrolled_to_is_chased_to_its_item(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: the contact listed is the one pressed, in the row
    that shows it once scrolled to, and that row's selector is the one named."""
    url = site.url("/w/recycled-rows.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        listed = data(act(http, "browser.snapshot"))["elements"]
        (thirteen,) = [e for e in listed if e.get("group") == "Contact 13"]
        clicked = data(act(http, "browser.click", selector=thirteen["selector"]))
        assert extension.page(url).evaluate("window.log") == ["Contact 13"]
    assert clicked["clicked"] != thirteen["selector"]
    assert clicked["notice"] == targets.chased(thirteen["selector"], clicked["clicked"], "clicked")


def test_a_click_whose_element_the_pointer_moves_is_aimed_again_and_never_lands_elsewhere(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: an icon that shrinks away for a moment as the
    pointer comes is clicked once it is back, its row never getting the press; one that
    jumps aside each time is refused after three tries, the page having got no press."""
    url = site.url("/hover-moves")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        clicked = data(act(http, "browser.click", selector="#more"))
        page = extension.page(url)
        assert page.evaluate("window.log") == ["more"]
        refused = act(http, "browser.click", selector="#jumpy")
        assert page.evaluate("window.log") == ["more"]
    assert clicked["clicked"] == "#more"
    assert refused.json()["error"].startswith(
        "#jumpy was not clicked: each time the pointer came over it (3 tries), the page "
        "changed under it, and the press would have reached #row (div) instead"
    ), refused.text


def test_a_click_whose_element_the_page_moves_as_it_is_pressed_says_it_got_no_click(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: the press's blur of the field before shows a warning
    above the button, the release misses it, and the answer says no click landed."""
    url = site.url("/moves-on-blur")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        data(act(http, "browser.type", selector="#nick", value="x"))
        missed = act(http, "browser.click", selector="#send")
        page = extension.page(url)
        assert page.evaluate("out.textContent") == "out: none"
        data(act(http, "browser.click", selector="#send"))
        assert page.evaluate("out.textContent") == "out: sent x"
    assert missed.json()["error"].startswith("#send got no click: the page moved it"), missed.text


def test_a_field_the_page_rewrites_as_it_loses_focus_is_told_by_the_next_action(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: the action that takes the focus from a field typed
    into says what the page made of it then."""
    with server.client() as http:
        data(act(http, "browser.open", url=site.url("/date-on-blur")))
        typed = data(act(http, "browser.type", selector="#date", value="2027-01-22"))
        named = data(act(http, "browser.type", selector="#name", value="Ann"))
    assert typed["value"] == "2027-01-22"
    assert named["notice"] == (
        'The page changed #date after it was typed into: it holds "22/01/2027" now, not '
        '"2027-01-22" (a suggestion picked, a field the page formats, or one it reads anew '
        "as it loses focus)."
    )


def test_a_click_on_a_menu_opened_under_the_resting_pointer_picks_the_item_clicked(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: the page takes the item a menu opened under the
    pointer at the pointer's next move (jQuery UI's menus); the item clicked is the one
    chosen. (Headless Chromium with the extension tells no mouseover for what is drawn under
    a resting pointer: there the pointer has nothing to leave.)"""
    url = site.url("/w/autocomplete.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        data(act(http, "browser.click", text="Start"))
        data(act(http, "browser.type", selector="#tags", value="ja"))
        menu = data(act(http, "browser.snapshot"))  # the menu opened: the agent reads it
        clicked = data(act(http, "browser.click", text="JavaScript"))
        out = extension.page(url).evaluate("document.getElementById('out').textContent")
    assert {"Java", "JavaScript"} <= {element.get("label") for element in menu["elements"]}
    assert (clicked["label"], out) == ("JavaScript", "out: chose JavaScript")


def test_a_submit_into_a_list_filtered_as_typed_picks_from_the_whole_text(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: Enter waits for the suggestions the text set off."""
    url = site.url("/w/autocomplete.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        data(act(http, "browser.type", selector="#tags", value="Scal", submit=True))
        out = extension.page(url).evaluate("document.getElementById('out').textContent")
    assert out == "out: chose Scala"


def test_words_a_page_forges_where_the_press_guard_tells_a_miss_are_not_taken(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/forged-guard")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        clicked = data(act(http, "browser.click", selector="#go"))
        assert extension.page(url).evaluate("out.textContent") == "pressed"
    assert clicked["clicked"] == "#go"


def test_a_snapshot_names_what_the_page_draws_with_nothing_to_read(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", url=site.url("/drawings")))
        page = data(act(http, "browser.snapshot"))
    assert page["notice"] == (
        "Drawn, with nothing to read in it: #board (canvas 200x150), #grid (svg 160x160: 1 "
        "circle, 1 line, the first #grid > circle), #pad (svg 100x100: 1 rect, #pad > rect). "
        "browser.capture shows it; verb.mouse clicks it by x and y. An svg's shapes are "
        "elements a selector names (as named here) for browser.inspect, verb.drag and "
        "verb.mouse."
    )


def test_a_snapshot_names_the_boxes_in_view_that_scroll_by_themselves(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As the chromium provider names them, in a snapshot's notice and in the refusal of a
    click by a text the list has drawn no row of yet."""
    with server.client() as http:
        data(act(http, "browser.open", url=site.url("/scroll-boxes")))
        page = data(act(http, "browser.snapshot"))
        refused = act(http, "browser.click", text="Person 40").json()["error"]
    assert page["notice"].startswith(
        'Boxes that scroll by themselves hold more than they show: `#people` list "People" '
        "(scroll 0/14880), `div.panel` (scroll 0/"
    )
    assert page["notice"].endswith("a long list may add its rows only as it scrolls.")
    assert refused.startswith(
        'No visible element has the text "Person 40"; take a new snapshot and click by '
        "selector. A box that scrolls by itself may hold it out of view, in rows not drawn "
        'yet: `#people` list "People" (scroll 0/14880), `div.panel` (scroll 0/'
    )


def test_type_and_submit_says_which_button_enter_sent_the_form_as(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As the chromium provider says it: a form's first button that sends it, its Cancel."""
    url = site.url("/cancel-first")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        typed = data(act(http, "browser.type", selector="#mail", value="a@b.c", submit=True))
        assert extension.page(url).evaluate("out.textContent") == "cancel"
    assert typed["notice"] == (
        "Enter sent the form as a press on its first button, body > form > button:nth-of-type(1) "
        '(button "Cancel"), would (it has 2 that send it); to send it with another, click '
        "that one."
    )


def test_a_snapshot_tells_the_pages_console_problems_once(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", url=f"{site.origin}/console"))
        first = data(act(http, "browser.snapshot"))
        second = data(act(http, "browser.snapshot"))
    assert first["consoleProblems"] == [
        {"level": "error", "text": "boom error", "source": f"{site.origin}/console"},
        {"level": "warning", "text": "careful warning", "source": f"{site.origin}/console"},
        {"level": "error", "text": "Uncaught Error: uncaught kaboom"},
    ]
    assert second["consoleProblems"] == []


def test_a_page_that_stops_answering_fails_the_action_and_the_agent_can_go_on(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", url=f"{site.origin}/hangs"))
        frozen = act(http, "browser.click", text="Freeze")
        elsewhere = site.origin.replace("127.0.0.1", "localhost")  # another site's process
        after = data(act(http, "browser.open", url=f"{elsewhere}/page-a"))
    assert frozen.status_code == 504, frozen.text
    assert "The page stopped answering for 8 s" in frozen.json()["error"]
    assert after["title"] == "Page A"


def test_a_direction_for_a_box_that_scrolls_only_across_is_refused_saying_so(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", url=site.url("/wide-table")))
        refused = act(http, "browser.scroll", selector="#wrap", direction="down")
    assert refused.json()["error"] == SCROLLS_SIDEWAYS.format(selector="#wrap")
