"""The ten actions on a real Chromium against the test site: answers and what the page shows."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

from browserhost.contract import ACTIONS, Context, ProviderRequest, data
from browserhost.contract import actions as params
from browserhost.providers.chromium import (
    INSPECT_STYLES,
    ChromiumConfig,
    ChromiumProvider,
    Timeouts,
)
from browserhost.providers.chromium.errors import MayHaveRunError
from browserhost.providers.chromium.launch import LAUNCH_FLAGS, sandboxed
from browserhost.providers.chromium.targets import SCROLLS_SIDEWAYS

from .driving import (
    TEST_TIMEOUTS,
    act,
    assert_shape,
    browser_pid,
    in_page,
    ok,
    out_line,
    refused,
)
from .site import Site, serving

if TYPE_CHECKING:
    from playwright.async_api import ConsoleMessage

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_every_action_answers_exactly_the_documented_fields(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    opened = await ok(provider, ctx, "browser.open", url=site.url("/form"))
    assert_shape(data.OpenData, opened)
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert_shape(data.SnapshotData, snapshot)
    assert snapshot["elements"], snapshot
    for element in snapshot["elements"]:
        # Optional flags appear only where they apply: never as false.
        assert element.get("disabled", True) is True
        assert element.get("missingAccessibleName", True) is True
    assert_shape(data.TypeData, await ok(provider, ctx, "browser.type", selector="#q", value="x"))
    assert_shape(data.ScrollData, await ok(provider, ctx, "browser.scroll", direction="down"))
    assert_shape(data.InspectData, await ok(provider, ctx, "browser.inspect", selector="#q"))
    assert_shape(data.CaptureData, await ok(provider, ctx, "browser.capture"))
    assert_shape(data.ResizeData, await ok(provider, ctx, "browser.resize", viewport="mobile"))
    await ok(provider, ctx, "browser.open", url=site.url("/links"))
    assert_shape(data.ClickData, await ok(provider, ctx, "browser.click", text="Page A"))
    assert_shape(data.NavigationData, await ok(provider, ctx, "browser.back"))
    assert_shape(data.NavigationData, await ok(provider, ctx, "browser.forward"))


async def test_open_answers_the_loaded_page(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    opened = await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    assert opened == {
        "url": site.url("/page-a"),
        "title": "Page A",
        "opened": True,
        "settled": True,
        "viewport": {"mode": "desktop", "width": 1280, "height": 800},
    }


async def test_open_that_does_not_finish_loading_is_not_settled_but_succeeds(
    chromium_path: str, site: Site, ctx: Context
) -> None:
    impatient = ChromiumProvider(
        ChromiumConfig(executable=chromium_path), timeouts=Timeouts(open_settle_s=0.5)
    )
    try:
        with site.holding():  # the page's image never arrives while held
            opened = await ok(impatient, ctx, "browser.open", url=site.url("/slow"))
    finally:
        await impatient.aclose()
    assert opened["settled"] is False
    assert opened["title"] == "Slow"


async def test_an_open_of_about_blank_answers_settled(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """about:blank loads nothing and tells of no load: the open does not wait out its whole
    settle time for one, and does not answer "not settled"."""
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    opened = await ok(provider, ctx, "browser.open", url="about:blank")
    assert (opened["url"], opened["title"], opened["settled"]) == ("about:blank", "", True)
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == ""


async def test_open_of_an_unreachable_site_says_what_to_check(
    provider: ChromiumProvider, ctx: Context
) -> None:
    error = await refused(provider, ctx, "browser.open", url="http://no-such-host.invalid/")
    assert error == (
        "Could not load http://no-such-host.invalid/: its host name does not resolve. "
        "Check the address and that the site is up. The page now shows the browser's error "
        "page."
    )
    assert (await ok(provider, ctx, "browser.snapshot"))["url"] == "chrome-error://chromewebdata/"


async def test_back_and_forward_to_a_page_that_failed_to_load_say_so_as_its_open_did(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The step is taken, and the entry's site still does not answer: not "may have run"."""
    failing = "http://no-such-host.invalid/"
    failed = (
        f"Could not load {failing}: its host name does not resolve. Check the address and "
        "that the site is up. The page now shows the browser's error page."
    )
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    assert await refused(provider, ctx, "browser.open", url=failing) == failed
    await ok(provider, ctx, "browser.open", url=site.url("/page-b"))
    assert await refused(provider, ctx, "browser.back") == failed
    assert (await ok(provider, ctx, "browser.back"))["title"] == "Page A"
    assert await refused(provider, ctx, "browser.forward") == failed
    assert (await ok(provider, ctx, "browser.snapshot"))["url"] == "chrome-error://chromewebdata/"


async def test_an_open_the_site_answers_with_an_error_status_says_so(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    opened = await ok(provider, ctx, "browser.open", url=site.url("/no-such-page"))
    assert (opened["title"], opened["notice"]) == (
        "Not found",
        "The site answered 404 Not Found, an error status; the page shows what it sent with it.",
    )
    assert "notice" not in await ok(provider, ctx, "browser.open", url=site.url("/page-a"))


@pytest.mark.parametrize("failing", ["http://no-such-host.invalid/", "/to-file"])
async def test_an_open_after_a_failed_load_loads_once_and_says_so(
    provider: ChromiumProvider, site: Site, ctx: Context, failing: str
) -> None:
    # Chromium shows its error page for a failed load a moment late; the next open must
    # neither be cut short by it nor ask the site twice.
    tag = failing.strip("/").split("/")[-1]
    failing = site.url(failing) if failing.startswith("/") else failing
    for attempt in range(5):
        await refused(provider, ctx, "browser.open", url=failing)
        path = f"/page-a?after={tag}&attempt={attempt}"
        opened = await ok(provider, ctx, "browser.open", url=site.url(path))
        assert (opened["url"], opened["title"]) == (site.url(path), "Page A")
        assert site.arrived[path] == 1


async def test_the_providers_own_check_refuses_a_file_url_the_host_would_not_send(
    provider: ChromiumProvider, ctx: Context
) -> None:
    # The host refuses file: before sending; a provider called some other way (its own
    # service, an embedder) must refuse it too, and show nothing of the file.
    unchecked = params.OpenParameters.model_construct(url="file:///etc/passwd", viewport=None)
    answer = await provider.answer(ProviderRequest("file", "browser.open", unchecked, ctx))
    assert answer == {
        "ok": False,
        "error": "file:///etc/passwd was not opened: only http and https pages may be loaded.",
    }
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert "root:" not in snapshot["text"]
    assert not snapshot["url"].startswith("file:")


async def test_private_networks_are_refused_when_the_user_denies_them(
    chromium_path: str, site: Site, ctx: Context
) -> None:
    denying = ChromiumProvider(
        ChromiumConfig(executable=chromium_path, private_network=False), timeouts=TEST_TIMEOUTS
    )
    try:
        for url in (site.url("/page-a"), site.url("/page-a").replace("127.0.0.1", "localhost")):
            error = await refused(denying, ctx, "browser.open", url=url)
            assert error == (
                f"{url} was not opened: it is a loopback or private-network address, which the "
                "user does not let the browser open (BROWSERHOST_CHROMIUM_PRIVATE_NETWORK=deny)."
            )
    finally:
        await denying.aclose()


async def test_a_page_that_navigates_to_the_hosts_own_address_is_blocked(
    chromium_path: str, site: Site, ctx: Context
) -> None:
    with serving() as host_site:  # stands in for the host: it is "own"
        guarded = ChromiumProvider(
            ChromiumConfig(
                executable=chromium_path, own_port=int(host_site.origin.rsplit(":", 1)[1])
            ),
            timeouts=TEST_TIMEOUTS,
        )
        try:
            await ok(guarded, ctx, "browser.open", url=site.url("/page-a"))
            shown = guarded.page_for(ctx)
            assert shown is not None
            async with shown.expect_event("requestfailed"):  # blocked in the network stack
                await in_page(guarded, ctx, f"location.href = {host_site.url('/page-b')!r}")
            error = await refused(guarded, ctx, "browser.snapshot")
            assert error.startswith(
                f"The page navigated to {host_site.url('/page-b')}, which was blocked: it is "
                "browserhost's own address"
            )
            assert (await ok(guarded, ctx, "browser.snapshot"))["url"] == "about:blank"
        finally:
            await guarded.aclose()


async def test_a_redirect_to_a_file_url_is_blocked(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    error = await refused(provider, ctx, "browser.open", url=site.url("/to-file"))
    assert "redirected to an address that is not http or https" in error
    assert "blocked: only http and https pages may be loaded" in error
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert not snapshot["url"].startswith("file:")
    assert "root:" not in snapshot["text"]


async def test_a_script_navigation_to_a_file_url_is_blocked_and_reported(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/script-to-file"))
    await ok(provider, ctx, "browser.click", text="Go to file")
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["url"] == site.url("/script-to-file")
    assert snapshot["consoleProblems"] == [
        {
            "level": "error",
            "text": "Not allowed to load local resource: file:///etc/passwd",
            "source": site.url("/script-to-file"),
        }
    ]


async def test_a_page_that_reached_a_non_http_address_is_reset_and_the_answer_says_so(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Chromium itself stops web pages from reaching such addresses; a browser with looser
    rules (a remote one, say) might not, so the provider checks every page it ends up on.
    The navigation here is made by the test, underneath the provider."""
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    page = provider.page_for(ctx)
    assert page is not None
    await page.goto("data:text/html,<p>not http</p>")
    error = await refused(provider, ctx, "browser.snapshot")
    assert error == (
        "The page navigated to data:text/html,<p>not http</p>, which was blocked: only http and "
        "https pages may be loaded. The page is now about:blank; browser.snapshot was not run."
    )
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert (snapshot["url"], snapshot["text"]) == ("about:blank", "")


async def test_typing_then_submitting_shows_the_result_in_the_next_snapshot(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/form"))
    chose = await ok(provider, ctx, "browser.type", selector="select[name=color]", value="Blue")
    assert chose == {
        "selector": "select[name=color]",
        "url": site.url("/form"),
        "title": "Form",
        "value": "Blue",
    }
    typed = await ok(provider, ctx, "browser.type", selector="#q", value="hello world", submit=True)
    assert typed == {
        "selector": "#q",
        "url": site.url("/result?q=hello+world&color=b"),
        "title": "Result",
    }
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["title"] == "Result"
    assert "You searched for: hello world" in snapshot["text"]
    assert "Color: b" in snapshot["text"]


async def test_typing_refuses_what_is_not_a_text_field(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/form"))
    error = await refused(provider, ctx, "browser.type", selector="[name=agree]", value="yes")
    assert error == "[name=agree] is a checkbox input, not a text field; use browser.click for it."
    error = await refused(provider, ctx, "browser.type", selector="select", value="Green")
    assert error == 'select has no option "Green"; its options are "Red", "Blue".'
    error = await refused(provider, ctx, "browser.type", selector="h1", value="x")
    assert error.startswith("h1 is not a text field; take a new snapshot")
    assert error.endswith(
        "(a cell or a label the page edits in place shows its field once "
        "clicked, or double-clicked)."
    )


async def test_clicking_a_button_changes_what_the_next_snapshot_shows(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/button"))
    clicked = await ok(provider, ctx, "browser.click", text="Click me")
    assert clicked == {
        "clicked": "#toggle",
        "label": "Click me",
        "nowReads": "Clicked!",  # what the click made it say
        "url": site.url("/button"),
        "title": "Button",
    }
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "Clicked!"
    assert [e["label"] for e in snapshot["elements"]] == ["Clicked!"]


async def test_click_by_text_prefers_the_exact_label(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/twins"))
    clicked = await ok(provider, ctx, "browser.click", text="Save draft")
    assert clicked["label"] == "Save draft"
    assert "saves: draft" in (await ok(provider, ctx, "browser.snapshot"))["text"]


async def test_click_by_text_picks_an_option_of_a_list_drawn_open_as_a_control(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """An option of a select of several rows is a control the page draws: pressed, with no
    notice that no control has the text."""
    await ok(provider, ctx, "browser.open", url=site.url("/listbox"))
    clicked = await ok(provider, ctx, "browser.click", text="Sudan")
    assert "notice" not in clicked, clicked
    assert await out_line(provider, ctx) == "Sudan"


async def test_a_checkbox_its_click_drew_again_answers_the_state_of_the_one_drawn(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A row's checkbox whose change draws the table again is gone after the click: the
    answer reads the one its selector names now, as the page shows it."""
    await ok(provider, ctx, "browser.open", url=site.url("/rebuilt-rows"))
    selector = '[data-id="1"] > td:nth-of-type(1) > input'
    assert selector in [
        e["selector"] for e in (await ok(provider, ctx, "browser.snapshot"))["elements"]
    ]
    chosen = await ok(provider, ctx, "browser.click", selector=selector)
    assert chosen["checked"] is True
    unchosen = await ok(provider, ctx, "browser.click", selector=selector)
    assert unchosen["checked"] is False
    assert await in_page(provider, ctx, "people[1].chosen") is False


async def test_choosing_the_option_a_select_holds_already_sets_nothing_off(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A person picking the option already chosen makes no change event: a type of it
    neither, so the page's handler (a search, an order) runs once for one choice."""
    await ok(provider, ctx, "browser.open", url=site.url("/listbox"))
    for _ in range(2):
        chose = await ok(provider, ctx, "browser.type", selector="#countries", value="Spain")
        assert chose["value"] == "Spain"
    assert await out_line(provider, ctx) == "Spain"
    await ok(provider, ctx, "browser.type", selector="#countries", value="France")
    assert await out_line(provider, ctx) == "France 2"


async def test_an_ambiguous_text_click_is_refused_and_nothing_is_clicked(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/twins"))
    error = await refused(provider, ctx, "browser.click", text="Save")
    assert error == (
        '"Save" matches 2 elements: body > button:nth-of-type(1) (button "Save"); '
        'body > button:nth-of-type(2) (button "Save"). Nothing was clicked; click one by its '
        "selector."
    )
    assert "saves: none" in (await ok(provider, ctx, "browser.snapshot"))["text"]
    clicked = await ok(provider, ctx, "browser.click", selector="body > button:nth-of-type(2)")
    assert clicked["label"] == "Save"
    assert "saves: two" in (await ok(provider, ctx, "browser.snapshot"))["text"]


async def test_back_to_a_form_answer_the_browser_did_not_keep_may_have_run_and_sends_nothing(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/post-form"))
    assert (await ok(provider, ctx, "browser.click", text="Send"))["title"] == "Sent"
    await ok(provider, ctx, "browser.click", text="Page B")
    with pytest.raises(MayHaveRunError) as went:
        await act(provider, ctx, "browser.back")
    assert str(went.value).startswith(
        "browser.back went to the answer to a form that was sent (POST), which the browser "
        "did not keep"
    )
    assert site.arrived["POST /sent"] == 1  # the form was not sent again
    assert (await ok(provider, ctx, "browser.back"))["title"] == "Post form"


async def test_a_form_the_browsers_own_check_stops_is_said_not_sent(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/checked-form"))
    clicked = await ok(provider, ctx, "browser.click", text="Send")
    assert clicked["url"] == site.url("/checked-form")
    assert clicked["notice"] == (
        'The form was not sent: the browser\'s own check stopped it at the field "Name" '
        '(input[name="q"]), which says "Please fill out this field." (1 other field too). Fix '
        "the field, then send the form again."
    )
    pressed = await ok(provider, ctx, "verb.press_key", key="Enter", selector='input[name="q"]')
    assert pressed["notice"] == clicked["notice"]  # Enter sends the form as its button does
    await ok(provider, ctx, "browser.type", selector='input[name="q"]', value="hat")
    typed = await ok(provider, ctx, "browser.type", selector="#mail", value="nobody", submit=True)
    assert typed["notice"].startswith(
        'The form was not sent: the browser\'s own check stopped it at the field "Mail" (#mail), '
        "which says \"Please include an '@' in the email address."
    )
    assert site.arrived["/result?q=hat&color=nobody"] == 0
    sent = await ok(provider, ctx, "browser.type", selector="#mail", value="a@b.c", submit=True)
    assert (sent["title"], "notice" in sent) == ("Result", False)


async def test_a_form_the_pages_own_check_stops_is_said_stopped_by_the_page(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """novalidate: the browser checks nothing, the page's script does and says why in its own
    words, which the answer quotes; the browser's message is no part of the page."""
    await ok(provider, ctx, "browser.open", url=site.url("/page-checked-form"))
    clicked = await ok(provider, ctx, "browser.click", text="Send")
    assert clicked["notice"] == (
        'The form was not sent: the page\'s own check stopped it at the field "Name *" '
        '(input[name="q"]); the page says why beside it. Fix the field, then send the form '
        'again. The page now shows: "Tell us your name."'
    )
    assert "Tell us your name." in (await ok(provider, ctx, "browser.snapshot"))["text"]


async def test_a_message_another_field_shows_as_it_loses_the_focus_says_whose_it_is(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/checked-on-leaving"))
    assert "notice" not in await ok(provider, ctx, "browser.type", selector="#email", value="bob")
    typed = await ok(provider, ctx, "browser.type", selector="#name", value="Ada")
    assert typed["notice"] == 'The page now shows: "Enter a valid email" (by #email, another field)'


async def test_what_the_page_shows_after_an_action_that_it_did_not_before_is_quoted(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A toast after a click, once: the note the page showed from the start, and the toast
    already shown, are not news. A toast only its class names (no role, no live region) is
    quoted too, and one the page took away before the answer."""
    await ok(provider, ctx, "browser.open", url=site.url("/page-checked-form"))
    saved = await ok(provider, ctx, "browser.click", text="Save draft")
    assert saved["notice"] == 'The page now shows: "Draft saved"'
    published = await ok(provider, ctx, "browser.click", text="Publish")
    assert published["notice"] == 'The page now shows: "Published to 3 readers"'
    checked = await ok(provider, ctx, "browser.click", text="Check")
    assert checked["notice"] == 'The page now shows: "Name is too short."'
    typed = await ok(provider, ctx, "browser.type", selector='input[name="q"]', value="Ann")
    assert "notice" not in typed
    again = await ok(provider, ctx, "browser.click", text="Save draft")
    assert "notice" not in again
    # A snackbar shown for 0.4 s is gone by the answer; words of work under way say nothing.
    copied = await ok(provider, ctx, "browser.click", text="Copy link")
    assert copied["notice"] == 'The page showed, and took away again: "Link copied"'
    synced = await ok(provider, ctx, "browser.click", text="Sync")
    assert "notice" not in synced


CODE = "def total(prices):\n    if prices:\n        return sum(prices)\n    return {'none': 0}"


async def test_code_is_typed_into_a_code_editor_through_its_hidden_field_as_given(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A code editor draws its lines itself and takes keys in a field it hides: named by its
    lines or by that field, it is pressed, its text selected whole and replaced by a paste,
    which it keeps as given (typed keys would have its Enter indent each line once more).
    Its lines read with their indents; keys pressed on them reach its field."""
    await ok(provider, ctx, "browser.open", url=site.url("/code-editor"))
    typed = await ok(provider, ctx, "browser.type", selector="#lines", value=CODE)
    assert await in_page(provider, ctx, "code") == CODE
    assert typed["notice"].startswith(
        "#lines is in a code editor (#editor) that takes keys in a field of its own (#keys)"
    )
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == CODE
    await ok(provider, ctx, "browser.type", selector="#keys", value="print(1)")
    assert await in_page(provider, ctx, "code") == "print(1)"
    # Keys pressed on its lines go to its field too, as a press there gives them.
    await ok(provider, ctx, "verb.press_key", selector="#lines", text=" # ok")
    assert await in_page(provider, ctx, "code") == "print(1) # ok"


async def test_typing_replaces_what_a_field_holds_that_moves_the_caret_as_it_is_focused(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """An input mask puts the caret at the field's end as the field gains the focus: the text
    is selected after the focus, as a person selects it, so the typing replaces it."""
    await ok(provider, ctx, "browser.open", url=site.url("/caret-to-end"))
    typed = await ok(provider, ctx, "browser.type", selector="#phone", value="+1 (903) 111-2233")
    assert typed["value"] == "+1 (903) 111-2233"
    assert await in_page(provider, ctx, "phone.value") == "+1 (903) 111-2233"


async def test_items_a_tag_field_makes_of_the_typing_are_said_not_called_keys_turned_away(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A comma in a tag field (Tagify's, a chip input) makes what was typed before it a tag
    beside the field, and empties the field: the answer says which tags it made, not that
    the page turned the keys away. The zero-width space such a field keeps is not read."""
    await ok(provider, ctx, "browser.open", url=site.url("/tag-field"))
    typed = await ok(provider, ctx, "browser.type", selector="#tag", value="red, green,")
    assert typed["value"] == ""
    assert typed["notice"] == (
        'The page made the text typed into #tag into items beside it ("red", "green"), as a '
        "tag field does, and took it out of the field."
    )
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == "Tags red green"


async def test_a_text_longer_than_its_field_keeps_is_said_cut_or_typed_on_into_the_next_boxes(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/short-fields"))
    cut = await ok(provider, ctx, "browser.type", selector="#zip", value="1234567")
    assert (cut["value"], cut["notice"]) == (
        "12345",
        "#zip keeps at most 5 characters (its maxlength): only the first 5 were typed, and the "
        "other 2 left out. Type a value that fits the field.",
    )
    first = "#code > .digit:first-child"
    code = await ok(provider, ctx, "browser.type", selector=first, value="482913")
    assert code["value"] == "4"
    assert code["notice"] == (
        f"{first} keeps 1 character: the page moved the focus on as it filled, and the text "
        "went on into the next 5 fields, as a person typing on would. Take a snapshot to see "
        "each field."
    )
    boxes = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    digits = [box.get("value") for box in boxes if (box.get("label") or "").startswith("Digit")]
    assert digits == list("482913")
    longer = await ok(provider, ctx, "browser.type", selector=first, value="12345678")
    assert longer["notice"].endswith(
        "into the next 5 fields, as a person typing on would; its last 2 characters were left "
        "out: no field took them."
    )
    late = await ok(
        provider, ctx, "browser.type", selector="#late > .late:first-child", value="7305"
    )
    assert "went on into the next 3 fields" in late["notice"]
    boxes = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    lates = [box.get("value") for box in boxes if (box.get("label") or "").startswith("Late")]
    assert lates == list("7305")
    assert (await ok(provider, ctx, "browser.type", selector="#zip", value="123"))["value"] == "123"
    assert "notice" not in await ok(provider, ctx, "browser.type", selector="#zip", value="99")
    # A field that takes its separators out as they come has room for the rest again: all of
    # a number written with them goes in, as a person's keys would.
    phone = await ok(provider, ctx, "browser.type", selector="#phone", value="(555) 123-4567")
    assert (phone["value"], phone.get("notice")) == ("5551234567", None)
    # The maxlength counts an emoji twice (two UTF-16 units); the browser keeps it whole or not.
    mood = await ok(provider, ctx, "browser.type", selector="#mood", value="\U0001f600" * 3)
    assert (mood["value"], mood["notice"]) == (
        "\U0001f600" * 2,
        "#mood keeps at most 5 characters (its maxlength): only the first 2 were typed, and the "
        "other 1 left out. Type a value that fits the field.",
    )


async def test_a_type_that_sets_the_page_suggesting_answers_once_it_has_shown_them(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/suggest"))
    for field, typed, shown in (
        ("#debounced", "ap", "apple\napricot"),
        ("#fetched", "r", "red\nrose"),
    ):
        assert (await ok(provider, ctx, "browser.type", selector=field, value=typed))[
            "value"
        ] == typed
        assert shown in (await ok(provider, ctx, "browser.snapshot"))["text"]


async def test_a_control_in_a_box_a_person_cannot_scroll_is_refused_not_scrolled_to(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/clipped"))
    for text in ("Cut short", "In a collapsed section"):
        said = await refused(provider, ctx, "browser.click", text=text)
        assert "is hidden inside a box that shows only part of what it holds and that a person " \
            "cannot scroll" in said  # fmt: skip
        assert await out_line(provider, ctx) == "none"
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "none\nFirst line\nSecond line\nDown in a list\nAcross a strip"
    listed = [element.get("label") for element in snapshot["elements"]]
    assert listed == ["Down in a list", "Across a strip"]
    for text, done in (("Down in a list", "scrolled down"), ("Across a strip", "scrolled across")):
        await ok(provider, ctx, "browser.click", text=text)
        assert await out_line(provider, ctx) == done


async def test_a_list_a_person_scrolls_by_the_wheel_is_scrolled_though_its_overflow_is_hidden(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A time picker's column hides its overflow until the pointer is over it: its hours
    below are listed (off-screen), clicked, and scrolled to, as in any list a person scrolls.
    A list that fits the box that scrolls it scrolls that box. Each cell is listed once."""
    await ok(provider, ctx, "browser.open", url=site.url("/wheel-lists"))
    listed = {e["label"]: e for e in (await ok(provider, ctx, "browser.snapshot"))["elements"]}
    assert [label for label in listed if label.isdigit()] == [f"{n:02}" for n in range(24)]
    assert listed["16"]["tag"] == "li"
    assert listed["16"]["inViewport"] is False  # below the column's end, where it scrolls
    await ok(provider, ctx, "browser.click", text="16")
    assert await out_line(provider, ctx) == "hour 16"
    down = await ok(provider, ctx, "browser.scroll", selector="#hours", direction="bottom")
    assert (down["box"], down["atBottom"]) == ("#hours", True)
    moved = await ok(provider, ctx, "browser.scroll", selector="#countries", direction="down")
    assert moved["box"] == "#wrap"
    assert moved["scrollY"] == await in_page(provider, ctx, "wrap.scrollTop") > 0
    # Brought into view, a list taller than its box stays where it shows, not at its middle.
    await in_page(provider, ctx, "wrap.scrollTop = 0")
    await ok(provider, ctx, "browser.scroll", selector="#countries")
    assert await in_page(provider, ctx, "wrap.scrollTop") <= 16  # its top, not its middle


async def test_a_click_answers_the_state_a_person_sees_of_what_it_pressed(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A list item the page marks picked is something to press, not text alone: no notice
    says the click pressed only text. A menu's option the click hid shows no state; the
    one it kept (checked false) was not the choice it made."""
    await ok(provider, ctx, "browser.open", url=site.url("/picked-items"))
    # Controls of one name, one to an item, say whose item they are in.
    listed = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    deletes = [e.get("group") for e in listed if e.get("label") == "Delete"]
    assert deletes == ["Alpha", "Beta"]
    picked = await ok(provider, ctx, "browser.click", text="Deploy")
    assert (picked["marked"], "notice" in picked) == ("checked", False)
    await ok(provider, ctx, "browser.click", text="Region")
    chose = await ok(provider, ctx, "browser.click", text="Spokane")
    assert "checked" not in chose
    assert await out_line(provider, ctx) == "chose Spokane"


async def test_a_click_on_an_option_of_a_select_says_to_choose_it_by_typing(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The browser draws a select's list itself: a click by its text reaches nothing."""
    await ok(provider, ctx, "browser.open", url=site.url("/form"))
    assert await refused(provider, ctx, "browser.click", text="blue") == (
        '"blue" is an option of the select select[name="color"], whose list the browser draws '
        'itself: nothing was clicked. Choose it with browser.type on select[name="color"] with '
        'the value "Blue".'
    )
    chosen = await ok(provider, ctx, "browser.type", selector='select[name="color"]', value="Blue")
    assert chosen["value"] == "Blue"


async def test_a_click_on_a_control_lands_beside_the_controls_inside_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A press at the element's centre would work another control (the card's Delete
    button, the link in the checkbox's label): it goes where only the element is."""
    await ok(provider, ctx, "browser.open", url=site.url("/inner-controls"))
    await ok(provider, ctx, "browser.click", selector="#card")
    assert "opened" in (await ok(provider, ctx, "browser.snapshot", selector="#out"))["text"]
    ticked = await ok(provider, ctx, "browser.click", selector="#terms")
    assert (ticked["url"], ticked["checked"]) == (site.url("/inner-controls"), True)
    # A box its button fills whole is that button (a tab that is all link).
    await ok(provider, ctx, "browser.click", selector="#wrap")
    assert "wrapped" in (await ok(provider, ctx, "browser.snapshot", selector="#out"))["text"]


async def test_a_click_by_the_name_a_snapshot_guessed_takes_that_icon_over_a_longer_name(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/trash-icons"))
    icon = (await ok(provider, ctx, "browser.snapshot"))["elements"][0]
    assert (icon["label"], icon.get("labelGuessed")) == ("trash", True)
    clicked = await ok(provider, ctx, "browser.click", text="trash")
    assert clicked["label"] == "trash"  # as the snapshot named it
    assert "draft deleted" in (await ok(provider, ctx, "browser.snapshot", selector="#out"))["text"]


async def test_a_link_to_a_server_that_is_down_says_what_could_not_be_loaded(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/dead-link"))
    clicked = await ok(provider, ctx, "browser.click", text="Gone")
    assert clicked["url"].startswith("chrome-error:")
    assert clicked["notice"] == (
        "Could not load http://127.0.0.1:47/gone: the connection was refused. The page now "
        "shows the browser's error page; back returns to the page before."
    )
    assert (await ok(provider, ctx, "browser.back"))["title"] == "Dead link"
    unsafe = await ok(provider, ctx, "browser.click", text="Unsafe")
    assert unsafe["notice"].startswith(
        "Could not load http://127.0.0.1:9/: the browser never loads pages from that port"
    )


async def test_a_window_opened_by_a_click_becomes_the_page_until_it_closes(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/opener"))
    clicked = await ok(provider, ctx, "browser.click", text="Open popup")
    assert clicked["url"] == site.url("/closer")
    assert clicked["notice"] == (
        "The click opened a new tab, shown now (the answer's url is its page); the tabs verb "
        "switches back to the page it opened from."
    )
    assert (await ok(provider, ctx, "browser.snapshot"))["title"] == "Closer"
    assert (await refused(provider, ctx, "browser.back")) == (
        "There is no earlier page in this tab, which opened from another (a link to a new "
        "tab, say); the tabs verb switches back to that one, or closes this one."
    )
    closed = await ok(provider, ctx, "browser.click", text="Close me")
    assert closed["url"] == site.url("/opener")
    assert closed["notice"] == (
        "The page closed itself as it was pressed (a popup's Close, window.close()); the tab "
        "shown now, whose page the answer's url is, is the one it was opened from."
    )
    assert (await ok(provider, ctx, "browser.snapshot"))["title"] == "Opener"
    # A handler's window.open: nothing on the button says it opens a window.
    scripted = await ok(provider, ctx, "browser.click", text="Open by script")
    assert (scripted["url"], scripted["title"]) == (site.url("/closer"), "Closer")
    assert (await ok(provider, ctx, "browser.snapshot"))["title"] == "Closer"
    await ok(provider, ctx, "browser.click", text="Close me")
    # Its window shows only once its page has answered, long after the opener settled.
    slow = await ok(provider, ctx, "browser.click", text="Open a slow window")
    assert (slow["url"], slow["title"]) == (site.url("/closer-later"), "Closer")


async def test_a_window_a_click_opens_after_its_answer_is_shown_and_the_next_snapshot_says_so(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/opener"))
    page = provider.page_for(ctx)
    assert page is not None
    clicked = await ok(provider, ctx, "browser.click", text="Open a window later")
    assert clicked["title"] == "Opener"  # nothing opened yet as it answered
    async with page.context.expect_page(timeout=10_000):
        await in_page(provider, ctx, "openLater()")
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert (snapshot["title"], snapshot["url"]) == ("Closer", site.url("/closer"))
    [problem] = snapshot["consoleProblems"]
    assert problem["text"] == (
        f"A window opened after the last action answered ({site.url('/closer')}); it is the "
        "page shown now. The tabs verb switches back to the page it opened from."
    )


async def test_a_link_into_a_named_window_already_open_shows_that_tab_and_says_so(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/opener"))
    opened = await ok(provider, ctx, "browser.click", text="Open results")
    assert opened["url"] == site.url("/page-a")
    await ok(provider, ctx, "verb.tabs", action="switch", index=0)
    clicked = await ok(provider, ctx, "browser.click", text="Show B in results")
    assert (clicked["url"], clicked["title"]) == (site.url("/page-b"), "Page B")
    assert clicked["notice"] == (
        "The click loaded its page in another tab, one the session had open already (a link "
        "or window.open naming that window), shown now (the answer's url is its page); the "
        "tabs verb switches back to the page it was pressed on."
    )
    assert (await ok(provider, ctx, "browser.snapshot"))["title"] == "Page B"
    listed = (await ok(provider, ctx, "verb.tabs"))["tabs"]
    assert [(t["title"], t["current"]) for t in listed] == [("Opener", False), ("Page B", True)]


async def test_a_window_a_page_opens_by_itself_is_listed_but_not_shown(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/pops-up"))
    page = provider.page_for(ctx)
    assert page is not None
    if len(page.context.pages) < 2:  # opened as the page loaded; Chromium tells a moment later
        await page.context.wait_for_event("page", timeout=5000)
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["title"] == "Pops up"  # the agent stays where it was
    [problem] = snapshot["consoleProblems"]
    assert problem["level"] == "warning"
    assert problem["text"].startswith(
        f"The page opened a window by itself ({site.url('/page-b')}); it is not shown."
    )
    listed = (await ok(provider, ctx, "verb.tabs"))["tabs"]
    assert [(t["title"], t["current"]) for t in listed] == [("Pops up", True), ("Page B", False)]
    await ok(provider, ctx, "verb.tabs", action="switch", index=1)
    assert (await ok(provider, ctx, "browser.snapshot"))["title"] == "Page B"


async def test_a_selector_that_matches_several_elements_is_refused_with_the_count(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/twins"))
    error = await refused(provider, ctx, "browser.click", selector="button")
    assert error == (
        "button matches 3 elements; take a new snapshot and use a selector that matches "
        "exactly one."
    )
    assert "saves: none" in (await ok(provider, ctx, "browser.snapshot"))["text"]


@pytest.mark.parametrize(
    ("action", "parameters", "expected"),
    [
        ("browser.click", {"selector": "#nope"}, "No element matches #nope; take a new snapshot."),
        (
            "browser.inspect",
            {"selector": "#nope"},
            "No element matches #nope; take a new snapshot.",
        ),
        (
            "browser.type",
            {"selector": "button[", "value": "x"},
            "button[ is not a valid CSS selector; copy a selector from the latest snapshot.",
        ),
        (
            "browser.snapshot",
            {"selector": "#nope"},
            "No element matches #nope; take a new snapshot.",
        ),
        (
            "browser.click",
            {"text": "Nowhere to be found"},
            'No visible element has the text "Nowhere to be found"; take a new snapshot and '
            "click by selector.",
        ),
        (
            "browser.click",
            {"selector": "#under"},
            "#under is covered by body > div (div), so nothing was clicked. Close or dismiss "
            "what covers it first (a dialog's close button or Escape (verb.press_key), a "
            "banner's accept or reject button; a tooltip or a menu that showed on hover goes "
            "once the pointer moves off: verb.mouse with action move), then try again.",
        ),
    ],
)
async def test_refusals_say_what_to_do_differently(
    provider: ChromiumProvider,
    site: Site,
    ctx: Context,
    action: str,
    parameters: dict[str, object],
    expected: str,
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/covered"))
    assert await refused(provider, ctx, action, **parameters) == expected


async def test_an_element_asked_for_before_any_page_is_open_says_to_open_one(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """On the blank page a session starts on, no element is missing: nothing was opened. A
    page written into the blank page (a script's popup) is still asked for its elements."""
    for action, parameters in [
        ("browser.click", {"text": "Sign in"}),
        ("browser.click", {"selector": "#sign-in"}),
        ("browser.inspect", {"selector": "#sign-in"}),
    ]:
        assert await refused(provider, ctx, action, **parameters) == (
            f"Nothing is open: the page is blank, so {action} was not run; use browser.open."
        )
    await ok(provider, ctx, "browser.open", url="about:blank")
    page = provider.page_for(ctx)
    assert page is not None
    await page.evaluate("document.body.innerHTML = '<p>Written by a script</p>'")
    assert await refused(provider, ctx, "browser.click", selector="#sign-in") == (
        "No element matches #sign-in; take a new snapshot."
    )


async def test_a_field_drawn_under_its_own_label_is_not_covered(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A press on a control's label is a press on the control: a floating label drawn over
    its field, a styled box over a hidden checkbox, leave them free to type into and click.
    Another control's label still covers a field."""
    await ok(provider, ctx, "browser.open", url=site.url("/floating-labels"))
    listed = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert {e["selector"]: e.get("covered", False) for e in listed} == {
        "#mail": False,
        "#pin": False,
        "#dark": False,
        "#other": True,
    }
    assert (await ok(provider, ctx, "browser.type", selector="#mail", value="a@b.test"))[
        "value"
    ] == "a@b.test"
    await ok(provider, ctx, "browser.type", selector="#pin", value="1234")
    assert (await ok(provider, ctx, "browser.click", selector="#dark"))["checked"] is True
    refusal = await refused(provider, ctx, "browser.type", selector="#other", value="x")
    assert refusal.startswith(
        '#other is covered by body > div:nth-of-type(3) > label (label "Not its label")'
    ), refusal
    assert await in_page(provider, ctx, "[mail.value, pin.value, other.value]") == [
        "a@b.test",
        "1234",
        "",
    ]


async def test_type_presses_each_key_where_the_page_listens_for_keys(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Where the page listens for keys, the text is typed key by key, so the page sees each:
    keys it refuses are not in the field (and the answer says what it holds), and an
    autocomplete that reads keyup lists its words. Where nothing listens, and for a text
    with a new line, it is inserted at once, as before."""
    await ok(provider, ctx, "browser.open", url=site.url("/keys"))
    letters = await ok(provider, ctx, "browser.type", selector="#letters", value="Ab_c")
    assert letters["value"] == "bc"
    assert letters["notice"] == (
        "The page turned away some keys typed into #letters: it holds 'bc' of 'Ab_c'. Type "
        "only what it takes."
    )
    locked = await ok(provider, ctx, "browser.type", selector="#locked", value="XK-4471")
    assert locked["notice"].startswith("The page turned away every key typed into #locked")
    shout = await ok(provider, ctx, "browser.type", selector="#shout", value="hi")
    assert (shout["value"], "notice" in shout) == ("HI", False)  # formatted, not turned away
    digits = await ok(provider, ctx, "browser.type", selector="#no-digits", value="x1y2")
    assert digits["value"] == "xy"
    await ok(provider, ctx, "browser.type", selector="#search", value="ap")
    assert await in_page(provider, ctx, "words.textContent") == "appleapricot"
    plain = await ok(provider, ctx, "browser.type", selector="#plain", value="one\ntwo")
    assert plain["value"] == "one\ntwo"


async def test_a_submit_by_enter_where_enter_does_nothing_says_so(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Enter in a field in no form, with nothing listening for keys or a change there, sets
    nothing off: the answer says so and points at the page's own button. Where the page
    handles Enter itself, or the change it commits, no such word."""
    await ok(provider, ctx, "browser.open", url=site.url("/formless"))
    idle = await ok(provider, ctx, "browser.type", selector="#q", value="hats", submit=True)
    assert idle["notice"] == (
        "Enter was pressed in #q, but it is in no form, and the page listens for no key or "
        "change there: nothing was sent. Click the page's own button to send it (Submit, a "
        "search icon)."
    )
    assert await out_line(provider, ctx) == "none"
    keyed = await ok(provider, ctx, "browser.type", selector="#k", value="caps", submit=True)
    assert "notice" not in keyed, keyed
    assert await out_line(provider, ctx) == "entered caps"
    changed = await ok(provider, ctx, "browser.type", selector="#c", value="gloves", submit=True)
    assert "notice" not in changed, changed
    assert await out_line(provider, ctx) == "changed gloves"
    # A field the page filters by as it is typed: Enter did nothing, the text did already.
    filtered = await ok(provider, ctx, "browser.type", selector="#f", value="mia", submit=True)
    assert filtered["notice"] == (
        "Enter was pressed in #f, but it is in no form, and the page listens for no key or "
        "change there: Enter set nothing off. The page takes the text as it is typed (it "
        "listens for input there): what it shows now is its answer to it; take a snapshot to "
        "see it."
    )
    assert await out_line(provider, ctx) == "filtered mia"


async def test_type_into_a_field_read_only_until_it_has_the_focus_types_as_a_person_does(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A field a page keeps read-only until it has the focus (against autofill) takes the
    text; one read-only for good is refused, as before."""
    await ok(provider, ctx, "browser.open", url=site.url("/unsent-forms"))
    typed = await ok(provider, ctx, "browser.type", selector="#guarded", value="s3cret")
    assert "notice" not in typed, typed
    assert await in_page(provider, ctx, "document.querySelector('#guarded').value") == "s3cret"
    error = await refused(provider, ctx, "browser.type", selector="#fixed", value="x")
    assert error.startswith("#fixed is read-only; nothing was typed.")


async def test_a_click_on_an_action_a_row_shows_on_hover_says_to_hover_the_row(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A row's action hidden until the pointer is over the row (a style rule shows it then)
    is refused with the row to hover; hovered, it is clicked. A menu's item a click shows
    is only said hidden."""
    await ok(provider, ctx, "browser.open", url=site.url("/hover-actions"))
    unseen = await refused(provider, ctx, "browser.click", selector="#archive2")
    assert unseen == (
        '#archive2 is see-through until the pointer is over what holds it, #row2 (div "Invoice '
        '2"), so nothing was clicked; hover that first (verb.hover), then take a new snapshot.'
    )
    await ok(provider, ctx, "verb.hover", selector="#row2")
    await ok(provider, ctx, "browser.click", selector="#archive2")
    assert await out_line(provider, ctx) == "archived 2"
    closed = await refused(provider, ctx, "browser.click", selector="#rename")
    assert closed.startswith("#rename is not visible (hidden, or inside a closed menu")


async def test_a_submit_by_enter_in_a_form_enter_does_not_send_says_so(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Enter sends no form whose first button that sends it is disabled, nor one with several
    fields and no such button: the answer says so, and names the button. A button the page
    enabled as the text went in, or a form of one field, is sent, and no such word."""
    await ok(provider, ctx, "browser.open", url=site.url("/unsent-forms"))
    await ok(provider, ctx, "browser.type", selector="#first", value="Ann")
    wizard = await ok(provider, ctx, "browser.type", selector="#last", value="Lee", submit=True)
    assert wizard["notice"] == (
        "Enter was pressed in #last, but its form has several fields and no button that sends "
        "it (Enter sends such a form only when it has one field), and the page listens for no "
        "key or change there: nothing was sent. Click the page's own button to go on (#next "
        '(button "Next")).'
    )
    await ok(provider, ctx, "browser.type", selector="#mail", value="ann@example.com")
    terms = await ok(provider, ctx, "browser.type", selector="#pass", value="pw1", submit=True)
    assert terms["notice"] == (
        "Enter was pressed in #pass, but its form's button that sends it, #create (button "
        '"Create account"), is disabled, and the page listens for no key or change there: '
        "nothing was sent. Take a snapshot to see what the form waits for (a box to tick, a "
        "field to fill)."
    )
    assert await out_line(provider, ctx) == "none"
    await ok(provider, ctx, "browser.type", selector="#user", value="ann")
    # Sent, or heard: a button the page enabled as the password went in, a form of one field,
    # a field that hears Enter as its own input (a line break it turns into a send).
    for field, said in (("#pw", "sent login"), ("#one", "sent single"), ("#line", "line sent")):
        sent = await ok(provider, ctx, "browser.type", selector=field, value="x", submit=True)
        assert "notice" not in sent, sent
        assert await out_line(provider, ctx) == said
    fenced = await ok(provider, ctx, "browser.type", selector="#fenced-in", value="x", submit=True)
    assert fenced["notice"].startswith(
        "Enter was pressed in #fenced-in, but its form's button that sends it, "
    )
    assert await out_line(provider, ctx) == "line sent"


async def test_type_says_when_the_field_did_not_take_the_text(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A spinner whose page refuses every key still holds what it held: the answer says the
    text was not taken and points at the page's own controls, through type, fill_form and
    press_key alike, and a password field the page disabled as it was focused says so. A page that
    keeps only the digits typed took them: no notice."""
    await ok(provider, ctx, "browser.open", url=site.url("/keys"))
    spin = await ok(provider, ctx, "browser.type", selector="#spin", value="8")
    assert spin["value"] == "3"
    assert spin["notice"] == (
        "The page did not take what was typed into #spin: it holds '3', not '8'. It may turn "
        "keys away there, or be set by its own controls (arrows, buttons, a picker); take a "
        "snapshot to see them."
    )
    filled = await ok(provider, ctx, "verb.fill_form", fields=[{"selector": "#spin", "value": "8"}])
    assert filled["filled"][0]["notice"].startswith("The page did not take what was typed")
    keys = await ok(provider, ctx, "verb.press_key", selector="#spin", text="8")
    assert keys["notice"].startswith("The page did not take the keys typed into #spin: it still")
    typed_on = await ok(provider, ctx, "verb.press_key", selector="#letters", text="x")
    assert "notice" not in typed_on, typed_on
    amount = await ok(provider, ctx, "browser.type", selector="#amount", value="1,250")
    assert (amount["value"], "notice" in amount) == ("1250", False)
    secret = await ok(provider, ctx, "browser.type", selector="#secret", value="hunter2")
    assert secret["notice"].startswith("The page disabled #secret as the text was typed")
    assert await in_page(provider, ctx, "secret.value") == ""
    await ok(provider, ctx, "browser.click", selector="#up")
    assert await in_page(provider, ctx, "spin.value") == "4"


async def test_type_answers_what_the_field_holds_once_the_page_reworked_the_text(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Text inserted at once is answered with what the field holds after the page's own
    handlers ran: the page's capitals, the mark it added in the work queued right after the
    input, an editor's own rendering of a text whose input it cancelled (so no input event
    came to say the text was in), and the mark a listener at the document added after the
    page had sent an input event of its own."""
    await ok(provider, ctx, "browser.open", url=site.url("/reworks"))
    upper = await ok(provider, ctx, "browser.type", selector="#upper", value="quiet")
    assert upper["value"] == "QUIET"
    later = await ok(provider, ctx, "browser.type", selector="#later", value="done")
    assert later["value"] == "done!"
    editor = await ok(provider, ctx, "browser.type", selector="#editor", value="mine")
    assert await in_page(provider, ctx, "editor.textContent") == "[mine]"
    assert editor["value"] == "[mine]"
    copied = await ok(provider, ctx, "browser.type", selector="#copied", value="twice")
    assert copied["value"] == "twice."
    assert await in_page(provider, ctx, "copy.value") == "twice"
    guarded = await ok(provider, ctx, "browser.type", selector="#guarded", value="8")
    assert guarded["value"] == "3"
    assert guarded["notice"].startswith("The page did not take what was typed into #guarded")


async def test_an_editors_value_keeps_its_lines(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """An editable box's value reads as a textarea's would: each paragraph or <br> ends a
    line, an empty paragraph is an empty line, white space the page keeps is kept, and the
    markup's own indentation is not text. Text typed with line breaks reads back with them,
    in the type's answer and in the snapshot."""
    await ok(provider, ctx, "browser.open", url=site.url("/editor-lines"))
    values = {
        element["selector"]: element.get("value")
        for element in (await ok(provider, ctx, "browser.snapshot"))["elements"]
    }
    assert values == {
        "#paragraphs": "First\nSecond",
        "#kept": "",
        "#written": "one bold two\nthree\nfour",
    }
    typed = await ok(provider, ctx, "browser.type", selector="#kept", value="a  b\nc\n\nd")
    assert typed["value"] == "a  b\nc\n\nd"
    assert "notice" not in typed, typed
    typed = await ok(provider, ctx, "browser.type", selector="#paragraphs", value="x\ny")
    assert typed["value"] == "x\ny"
    assert await in_page(provider, ctx, "paragraphs.innerText.split(/\\n+/)") == ["x", "y"]
    shown = (await ok(provider, ctx, "browser.inspect", selector="#paragraphs"))["value"]
    assert shown == "x\ny"


async def test_a_form_stopped_at_a_field_in_a_components_shadow_tree_is_said_not_sent(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/component-form"))
    clicked = await ok(provider, ctx, "browser.click", text="Create")
    assert clicked["notice"] == (
        'The form was not sent: the browser\'s own check stopped it at the field "Full name" '
        '(#f > x-field >> #i), which says "Please fill out this field.". Fix the field, then '
        "send the form again."
    )
    assert await out_line(provider, ctx) == "out: none"


async def test_a_field_the_page_rewrites_as_it_loses_focus_is_told_by_the_next_action(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The typing answered what the field held; the action that takes the focus from it
    says what the page made of it then (its own date format, or nothing), once."""
    await ok(provider, ctx, "browser.open", url=site.url("/date-on-blur"))
    typed = await ok(provider, ctx, "browser.type", selector="#date", value="2027-01-22")
    assert (typed["value"], typed.get("notice")) == ("2027-01-22", None)
    named = await ok(provider, ctx, "browser.type", selector="#name", value="Ann")
    assert named["notice"] == (
        'The page changed #date after it was typed into: it holds "22/01/2027" now, not '
        '"2027-01-22" (a suggestion picked, a field the page formats, or one it reads anew '
        "as it loses focus)."
    )
    await ok(provider, ctx, "browser.type", selector="#date", value="2027-02-03")
    clicked = await ok(provider, ctx, "browser.click", selector="#go")
    assert clicked["notice"].startswith(
        'The page changed #date after it was typed into: it holds "03/02/2027" now, not '
    )
    assert "notice" not in await ok(provider, ctx, "browser.click", selector="#go")
    # Emptied, as a page that took the text in empties it: not told.
    await ok(provider, ctx, "browser.type", selector="#date", value="tomorrow")
    assert "notice" not in await ok(provider, ctx, "browser.click", selector="#go")
    # What the Enter of a submit left there, a date of the page's own.
    submitted = await ok(provider, ctx, "browser.type", selector="#date", value="soon", submit=True)
    assert submitted["notice"].startswith(
        "The page did not take what was typed into #date: it holds '01/01/2030', not 'soon'."
    )


async def test_words_a_page_forges_on_the_typing_binding_are_not_taken_for_its_state(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The page can call the binding its state after typing is told by: what it says that
    is not JSON, for another typing, or too long to read, is left unread, and the answer
    is what the field holds."""
    await ok(provider, ctx, "browser.open", url=site.url("/forged-word"))
    assert await in_page(provider, ctx, "typeof window.__browserhostTyped") == "function"
    typed = await ok(provider, ctx, "browser.type", selector="#field", value="mine")
    assert typed["value"] == "mine"


async def test_scroll_moves_by_screens_to_ends_and_to_elements(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/long"))
    down = await ok(provider, ctx, "browser.scroll", direction="down")
    assert down["direction"] == "down"
    assert down["scrollY"] == 720  # nine tenths of the 800 px desktop viewport
    assert (down["atTop"], down["atBottom"]) == (False, False)
    bottom = await ok(provider, ctx, "browser.scroll", direction="bottom")
    assert bottom["scrollY"] == bottom["maxScrollY"] > 720
    assert bottom["atBottom"] is True
    top = await ok(provider, ctx, "browser.scroll", direction="top")
    assert top == {
        "scrollY": 0,
        "maxScrollY": bottom["maxScrollY"],
        "atTop": True,
        "atBottom": False,
        "direction": "top",
    }
    to_end = await ok(provider, ctx, "browser.scroll", selector="#end")
    assert to_end["scrolledTo"] == "#end"
    assert "direction" not in to_end
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["scrollY"] == to_end["scrollY"] > 0
    assert [e["inViewport"] for e in snapshot["elements"]] == [True]


async def test_a_click_by_a_text_several_controls_have_lists_them_with_their_groups(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/pizzas"))
    error = await refused(provider, ctx, "browser.click", text="Olives")
    assert error == (
        '"Olives" matches 2 elements: #olives-1 (input "Olives" in "First pizza"); #olives-2 '
        '(input "Olives" in "Second pizza"). Nothing was clicked; click one by its selector.'
    )
    assert await in_page(provider, ctx, "document.querySelectorAll(':checked').length") == 0


async def test_a_click_presses_a_shape_where_it_is_drawn_not_at_its_boxs_middle(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A donut's slice is drawn around a hole in the middle of its box: pressed there, the
    click was refused as outside the slice's visible part, with advice to scroll."""
    await ok(provider, ctx, "browser.open", url=site.url("/donut"))
    clicked = await ok(provider, ctx, "browser.click", selector="#big")
    assert clicked["clicked"] == "#big"
    assert await out_line(provider, ctx) == "big slice"
    await ok(provider, ctx, "browser.click", text="red")  # the small slice, by its colour
    assert await out_line(provider, ctx) == "small slice"


async def test_a_click_inside_a_shape_drawn_as_an_outline_says_the_press_goes_through_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Its inside lets the pointer through to the drawing that holds it: the shape is in view,
    and no scrolling would change that."""
    await ok(provider, ctx, "browser.open", url=site.url("/outlines"))
    error = await refused(provider, ctx, "browser.click", selector="#box")
    assert error == (
        "A press inside #box reaches #drawing (svg) under it: #box lets the pointer through "
        "there (drawn as an outline, say), so nothing was clicked; press a point on its drawn "
        "part with verb.mouse (x and y as a capture shows them)."
    )


async def test_scroll_says_which_box_it_moved_where_the_page_does_not_scroll(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/pinned"))
    down = await ok(provider, ctx, "browser.scroll", direction="down")
    assert down["box"] == "#feed"
    assert down["scrollY"] == await in_page(provider, ctx, "feed.scrollTop") > 0
    assert await in_page(provider, ctx, "scrollY") == 0  # the page itself did not move
    assert (await ok(provider, ctx, "browser.snapshot"))["scrollY"] == down["scrollY"]
    # A short list is no panel of the page's: a snapshot says the page does not scroll.
    await ok(provider, ctx, "browser.open", url=site.url("/short-scroller"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert (snapshot["scrollY"], snapshot["maxScrollY"]) == (0, 0)


async def test_scroll_with_a_selector_and_a_direction_scrolls_that_box_itself(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A box of its own given with a direction scrolls that way (where it used to be brought
    into view, the direction left unsaid); an element that does not scroll is refused."""
    await ok(provider, ctx, "browser.open", url=site.url("/marks"))
    down = await ok(provider, ctx, "browser.scroll", selector="#lines", direction="bottom")
    assert (down["box"], down["direction"], down["atBottom"]) == ("#lines", "bottom", True)
    assert down["scrollY"] == await in_page(provider, ctx, "lines.scrollTop") > 0
    up = await ok(provider, ctx, "browser.scroll", selector="#lines", direction="top")
    assert (up["scrollY"], up["atTop"]) == (0, True)
    error = await refused(provider, ctx, "browser.scroll", selector="#c1", direction="down")
    assert error == (
        "#c1 does not scroll (what it holds fits in it), so nothing was scrolled; give "
        "direction alone to scroll the page, or selector alone to bring #c1 into view."
    )


async def test_the_body_or_the_root_given_with_a_direction_scrolls_the_page(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The document scrolls the page, not its body: the body named with a direction moved
    nothing and answered that the page could not scroll. It scrolls the page, as the root
    does."""
    await ok(provider, ctx, "browser.open", url=site.url("/long-listing"))
    down = await ok(provider, ctx, "browser.scroll", selector="body", direction="down")
    assert down["scrollY"] == await in_page(provider, ctx, "scrollY") > 0
    assert (down["maxScrollY"] > down["scrollY"], "box" in down, "scrolledTo" in down) == (
        True,
        False,
        False,
    )
    more = await ok(provider, ctx, "browser.scroll", selector="html", direction="down")
    assert more["scrollY"] == await in_page(provider, ctx, "scrollY") > down["scrollY"]


async def test_a_direction_for_a_box_that_scrolls_only_across_is_refused_saying_so(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/wide-table"))
    error = await refused(provider, ctx, "browser.scroll", selector="#wrap", direction="down")
    assert error == SCROLLS_SIDEWAYS.format(selector="#wrap")
    assert error.startswith("#wrap scrolls only sideways, and browser.scroll moves up and down")
    far = await ok(provider, ctx, "browser.scroll", selector="#wrap td:last-child")
    assert far["scrollY"] == 0
    assert await in_page(provider, ctx, "wrap.scrollLeft") > 0


async def test_a_box_drawn_from_the_bottom_up_says_its_scroll_from_the_top(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A chat laid out column-reverse starts at its bottom, its newest message in view (the
    browser counts that as 0 and up into negative numbers): the answers count from its top,
    as for any box, and top and bottom go where they say."""
    await ok(provider, ctx, "browser.open", url=site.url("/chat-reversed"))
    await ok(provider, ctx, "browser.snapshot")
    end = 30 * 40 - 200
    up = await ok(provider, ctx, "browser.scroll", selector="#chat", direction="up")
    assert (up["scrollY"], up["maxScrollY"], up["atBottom"]) == (end - 180, end, False)
    top = await ok(provider, ctx, "browser.scroll", selector="#chat", direction="top")
    assert (top["scrollY"], top["atTop"]) == (0, True)
    oldest = await ok(provider, ctx, "browser.inspect", selector="#chat > p:last-child")
    assert oldest["inViewport"] is True  # Message 1, drawn at the top
    bottom = await ok(provider, ctx, "browser.scroll", selector="#chat", direction="bottom")
    assert (bottom["scrollY"], bottom["atBottom"]) == (end, True)
    assert await in_page(provider, ctx, "chat.scrollTop") == 0


async def test_back_and_forward_walk_history_and_refuse_past_its_ends(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/links"))
    error = await refused(provider, ctx, "browser.back")
    assert error == "There is no earlier page to go back to; use browser.open."
    await ok(provider, ctx, "browser.click", text="Page A")
    back = await ok(provider, ctx, "browser.back")
    assert back == {"url": site.url("/links"), "title": "Links"}
    forward = await ok(provider, ctx, "browser.forward")
    assert forward == {"url": site.url("/page-a"), "title": "Page A"}
    error = await refused(provider, ctx, "browser.forward")
    assert error == "There is no later page to go forward to."


async def test_back_and_forward_follow_the_history_the_page_itself_changes(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/routes"))
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    back = await ok(provider, ctx, "browser.back")
    assert back == {"url": site.url("/routes"), "title": "Routes"}
    await ok(provider, ctx, "browser.click", text="Next step")  # drops Page A from history
    error = await refused(provider, ctx, "browser.forward")
    assert error == "There is no later page to go forward to."
    within = await ok(provider, ctx, "browser.back")
    assert within == {"url": site.url("/routes"), "title": "Routes"}
    forward = await ok(provider, ctx, "browser.forward")
    assert forward == {"url": site.url("/routes?step=2"), "title": "Routes"}

    # A page that adds an entry as it loads again drops the later ones.
    await ok(provider, ctx, "browser.open", url=site.url("/routes-at-load"))
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    back = await ok(provider, ctx, "browser.back")
    assert back["title"] == "Routes at load"
    error = await refused(provider, ctx, "browser.forward")
    assert error == "There is no later page to go forward to."

    # Right after the open, the entry it added at its load is the first step back.
    await ok(provider, ctx, "browser.open", url=site.url("/page-b"))
    await ok(provider, ctx, "browser.open", url=site.url("/routes-at-load"))
    back = await ok(provider, ctx, "browser.back")
    assert back == {"url": site.url("/routes-at-load"), "title": "Routes at load"}
    back = await ok(provider, ctx, "browser.back")
    assert back == {"url": site.url("/page-b"), "title": "Page B"}


async def test_inspect_reports_the_documented_computed_styles(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/button"))
    inspected = await ok(provider, ctx, "browser.inspect", selector="#toggle")
    assert inspected["selector"] == "#toggle"
    assert inspected["tag"] == "button"
    assert inspected["label"] == "Click me"
    assert inspected["inViewport"] is True
    assert list(inspected["styles"]) == list(INSPECT_STYLES)
    assert inspected["styles"]["padding"] == "8px 16px"
    assert inspected["styles"]["display"] == "inline-block"
    assert inspected["bounds"]["width"] > 0


async def test_capture_is_a_png_of_the_viewport(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/page-b"))
    captured = await ok(provider, ctx, "browser.capture", label="page-b")
    image = base64.b64decode(captured["base64"])
    assert image.startswith(b"\x89PNG\r\n\x1a\n")
    assert (captured["mime"], captured["width"], captured["height"]) == ("image/png", 1280, 800)
    assert (captured["url"], captured["title"]) == (site.url("/page-b"), "Page B")


async def test_resize_switches_between_the_four_viewports(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    sizes = {"mobile": (390, 844), "tablet": (820, 1180), "desktop": (1280, 800)}
    for mode in ("mobile", "fill", "tablet", "desktop"):
        resized = await ok(provider, ctx, "browser.resize", viewport=mode)
        width, height = sizes.get(mode, (None, None))
        assert resized == {"viewport": {"mode": mode, "width": width, "height": height}}
        captured = await ok(provider, ctx, "browser.capture")
        if width is not None:
            assert (captured["width"], captured["height"]) == (width, height)
        else:  # fill follows the (headless) window
            assert captured["width"] == 1280
        assert captured["url"] == site.url("/page-a")
        assert captured["viewport"] == resized["viewport"]


async def test_open_can_choose_the_viewport(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    opened = await ok(provider, ctx, "browser.open", url=site.url("/page-a"), viewport="tablet")
    assert opened["viewport"] == {"mode": "tablet", "width": 820, "height": 1180}
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["viewport"] == opened["viewport"]


async def test_snapshot_reports_console_problems_once(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/console"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["consoleProblems"] == [
        {"level": "error", "text": "boom error", "source": site.url("/console")},
        {"level": "warning", "text": "careful warning", "source": site.url("/console")},
        {"level": "error", "text": "Uncaught Error: uncaught kaboom"},
    ]
    assert (await ok(provider, ctx, "browser.snapshot"))["consoleProblems"] == []


async def test_what_a_page_left_behind_said_is_not_reported_as_the_next_pages(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open_and_hear(provider, ctx, site.url("/console"), "/console")
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    assert (await ok(provider, ctx, "browser.snapshot"))["consoleProblems"] == []
    # A move within one document (history.pushState) leaves what it said its own.
    await _open_and_hear(provider, ctx, site.url("/console"), "/console")
    page = provider.page_for(ctx)
    assert page is not None
    await page.evaluate("history.pushState({}, '', '#moved')")
    problems = (await ok(provider, ctx, "browser.snapshot"))["consoleProblems"]
    assert problems[:2] == [
        {"level": "error", "text": "boom error", "source": site.url("/console")},
        {"level": "warning", "text": "careful warning", "source": site.url("/console")},
    ]


async def _open_and_hear(provider: ChromiumProvider, ctx: Context, url: str, *sources: str) -> None:
    """Open ``url`` and wait until the page has logged a console message from each path in
    ``sources``, so the next snapshot has had every one of them to report or leave out."""
    await ok(provider, ctx, "browser.resize", viewport="desktop")  # opens the key's page
    page = provider.page_for(ctx)
    assert page is not None
    unheard = set(sources)
    heard = asyncio.Event()

    def on_console(message: ConsoleMessage) -> None:
        # The provider's own listener came first, so it has seen the message already.
        unheard.discard(urlsplit(message.location["url"]).path)
        if not unheard:
            heard.set()

    page.on("console", on_console)
    try:
        await ok(provider, ctx, "browser.open", url=url)
        async with asyncio.timeout(10):
            await heard.wait()
    finally:
        page.remove_listener("console", on_console)


async def test_the_browsers_own_favicon_request_is_not_a_console_problem(
    provider: ChromiumProvider, ctx: Context
) -> None:
    """Chromium asks every site for /favicon.ico by itself; a 404 there is not the page's."""
    with serving() as fresh:  # a new origin: the browser asks each one for a favicon once
        await _open_and_hear(provider, ctx, fresh.url("/page-a"), "/favicon.ico")
        snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["consoleProblems"] == []


async def test_a_missing_resource_the_page_asks_for_is_a_console_problem(
    provider: ChromiumProvider, ctx: Context
) -> None:
    """The image's 404 is reported once; the favicon 404 the same page also logs is not."""
    with serving() as fresh:
        await _open_and_hear(
            provider, ctx, fresh.url("/missing-image"), "/missing.png", "/favicon.ico"
        )
        snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["consoleProblems"] == [
        {
            "level": "error",
            "text": "Failed to load resource: the server responded with a status of 404 "
            "(Not Found)",
            "source": fresh.url("/missing.png"),
        }
    ]


async def test_a_dialog_a_click_causes_is_dismissed_and_reported_in_its_answer(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/confirm"))
    clicked = await ok(provider, ctx, "browser.click", text="Delete")
    dismissed = {"type": "confirm", "message": "Delete it?", "answer": "dismissed"}
    assert clicked["dialogs"] == [dismissed]
    # The agent is told it was a Cancel it did not choose, and how to answer OK instead.
    assert clicked["notice"].startswith("The page asked a question (a confirm) and got Cancel")
    assert "call the dialog verb with accept true, then do this again" in clicked["notice"]
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert "answer: false" in snapshot["text"]
    assert snapshot["consoleProblems"] == []  # reported once, where it happened
    await ok(provider, ctx, "verb.dialog", accept=True)
    accepted = await ok(provider, ctx, "browser.click", text="Delete")
    assert accepted["dialogs"][0]["answer"] == "accepted"
    assert "notice" not in accepted
    assert "answer: true" in (await ok(provider, ctx, "browser.snapshot"))["text"]


async def test_rows_a_grid_places_out_of_their_order_are_read_as_drawn(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A grid that sorts by moving its rows, not their nodes (AG Grid): the text and the
    elements follow the rows as drawn, so the cheapest car reads first."""
    await ok(provider, ctx, "browser.open", url=site.url("/placed-rows"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "Ford 32000\nToyota 35000\nPorsche 72000"
    boxes = [item["label"] for item in snapshot["elements"] if item["tag"] == "input"]
    assert boxes == ["Select Ford", "Select Toyota", "Select Porsche"]


async def test_a_fields_loose_label_leaves_out_a_tooltip_faded_out_beside_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The words before a field name it as a person reads them: not a tooltip's, at opacity
    0, which the snapshot's text leaves out too."""
    await ok(provider, ctx, "browser.open", url=site.url("/faded-tip"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "Code"
    [field] = snapshot["elements"]
    assert (field["label"], field["labelGuessed"]) == ("Code", True)


async def test_a_button_another_lies_half_over_is_pressed_where_it_shows(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Another button over its middle, as big as it: a person presses the strip that shows,
    and so does the click, reaching it and not the one over it."""
    await ok(provider, ctx, "browser.open", url=site.url("/half-covered"))
    assert (await ok(provider, ctx, "browser.click", text="ONE"))["clicked"] == "#one"
    assert await in_page(provider, ctx, "out.textContent") == "one"
    await ok(provider, ctx, "browser.click", selector="#two")
    assert await in_page(provider, ctx, "out.textContent") == "two"


async def test_a_state_told_by_a_class_alone_is_read_and_names_no_selector(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A switch drawn on by a class `on` reads as marked on, a like by `is-liked` as liked;
    selectors name no class or label that changes with the state (`sel`, a BEM modifier,
    "currently selected"), so that they still name their element once the state changed."""
    await ok(provider, ctx, "browser.open", url=site.url("/state-classes"))
    listed = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    switches = [item for item in listed if item["tag"] == "span"]
    assert [item.get("marked") for item in switches] == ["on", None]
    selectors = [item["selector"] for item in listed]
    assert not any(
        part in selector for selector in selectors for part in ("sel", "--", "currently")
    ), selectors
    clicked = await ok(provider, ctx, "browser.click", selector=switches[1]["selector"])
    assert clicked["marked"] == "on"
    two = next(item["selector"] for item in listed if item.get("label") == "Two")
    await ok(provider, ctx, "browser.click", selector=two)
    one = next(item["selector"] for item in listed if item.get("label") == "One")
    assert (await ok(provider, ctx, "browser.click", selector=one))["clicked"] == one
    liked = await ok(provider, ctx, "browser.click", text="Like")  # a class `is-liked`
    assert liked["marked"] == "liked"
    unliked = await ok(provider, ctx, "browser.click", selector=liked["clicked"])
    assert "marked" not in unliked


async def test_a_click_by_text_the_pointer_goes_through_presses_the_card_around_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A card's title that lets the pointer through (pointer-events: none): a person's press
    there is one on the card, and so is a click by that text; text over nothing that takes
    a press is still refused."""
    await ok(provider, ctx, "browser.open", url=site.url("/see-through-card"))
    clicked = await ok(provider, ctx, "browser.click", text="Trail Runner")
    assert clicked["clicked"] == "#card"
    assert await in_page(provider, ctx, "out.textContent") == "opened"
    error = await refused(provider, ctx, "browser.click", text="Sold out")
    assert error.endswith(
        "does not take clicks (its style lets them through to what is under "
        "it), so nothing was clicked; the page does not offer it now."
    )


async def test_the_option_the_keys_are_on_is_no_value_of_an_empty_combobox(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A list that marks the option its keys are on aria-selected (Tom Select's): the field
    holds nothing until one is chosen, and says so."""
    await ok(provider, ctx, "browser.open", url=site.url("/keys-on-option"))
    field = await ok(provider, ctx, "browser.inspect", selector="#who")
    assert (field["value"], field["expanded"]) == ("", True)


async def test_keys_the_page_sends_on_into_another_field_are_said_to_have_gone_there(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A field that moves the focus elsewhere after its first key: the answer says where the
    rest went, not that the page turned it away."""
    await ok(provider, ctx, "browser.open", url=site.url("/jumps-away"))
    typed = await ok(provider, ctx, "browser.type", selector="#comment", value="abc")
    assert typed["value"] == "a"
    assert typed["notice"] == (
        "The page moved the focus from #comment to #search as the text was typed: #comment "
        "holds 'a', and the rest went into #search, which holds 'bc'. Take a snapshot to see "
        "both; type into each field what it should hold."
    )
    assert await in_page(provider, ctx, "[comment.value, search.value]") == ["a", "bc"]
    # Typed whole into a field, with the focus left elsewhere after: nothing to tell.
    assert "notice" not in await ok(provider, ctx, "browser.type", selector="#name", value="Bo")


async def test_a_suggestion_the_page_takes_and_hides_as_it_is_pressed_is_clicked(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """An autocomplete that picks on mousedown and hides its list: the release lands where
    the list was, as a person's does, and the pick is done, once; not a press that slipped."""
    await ok(provider, ctx, "browser.open", url=site.url("/pick-on-press"))
    await ok(provider, ctx, "browser.type", selector="#city", value="Bo")
    clicked = await ok(provider, ctx, "browser.click", text="Boston")
    assert clicked["clicked"] == "#boston"
    assert clicked["notice"].startswith(
        'The page changed #city after it was typed into: it holds "Boston"'
    )
    assert await in_page(provider, ctx, "[city.value, window.picked]") == ["Boston", 1]


async def test_a_snapshot_reads_what_is_drawn_not_what_a_widget_hides_for_screen_readers(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The form control a widget draws in its place, clipped to nothing, shows nothing a
    person sees (no reviewer is chosen); a note for screen readers alone is not on the page
    either. The list the widget opens in a box of no size is drawn, and so read and listed."""
    await ok(provider, ctx, "browser.open", url=site.url("/widget-stand-ins"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "Reviewers\nAdd reviewers\nTotal: $40\nCat Moss\nDan Ford"
    listed = {element["label"]: element for element in snapshot["elements"]}
    assert "Search people" in listed
    assert listed["Dan Ford"]["role"] == "option"
    await ok(provider, ctx, "browser.click", text="Dan Ford")
    assert await in_page(provider, ctx, "window.picked") == "Dan Ford"


async def test_a_shadow_root_holding_several_elements_side_by_side_is_read_and_acted_on(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A component whose shadow root holds its elements at its top (a star rating): the
    snapshot reads them as drawn, and a click on one reaches it."""
    await ok(provider, ctx, "browser.open", url=site.url("/shadow-row"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "Rate it\n\u2605\u2605Good!"
    second = snapshot["elements"][1]["selector"]
    assert second == "#stars >> span:nth-of-type(2)"
    await ok(provider, ctx, "browser.click", selector=second)
    assert await in_page(provider, ctx, "window.rated") == 2


async def test_a_click_on_what_only_a_double_click_works_on_says_so(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A cell edited in place on a double click: the click answers, and says which verb
    does what a person would do instead; a cell that takes a click is not told so."""
    await ok(provider, ctx, "browser.open", url=site.url("/double-click"))
    clicked = await ok(provider, ctx, "browser.click", text="Ann")
    assert clicked["notice"] == (
        "#name listens for a double click and for no single one, so this click may have done "
        'nothing to it; verb.mouse with action "click", selector #name and clickCount 2 '
        "double-clicks it."
    )
    assert await in_page(provider, ctx, "out.textContent") == "-"
    await ok(provider, ctx, "verb.mouse", action="click", selector="#name", clickCount=2)
    assert await in_page(provider, ctx, "out.textContent") == "editing Ann"
    picked = await ok(provider, ctx, "browser.click", text="Oslo")
    assert "notice" not in picked
    assert await in_page(provider, ctx, "out.textContent") == "picked Oslo"


async def test_a_dialog_between_actions_is_reported_in_the_next_snapshot(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/confirm"))
    await in_page(provider, ctx, "alert('Time is up')")  # returns once the provider dismissed it
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["consoleProblems"] == [
        {"level": "warning", "text": "Dismissed an alert dialog: Time is up"}
    ]


async def test_snapshot_can_be_scoped_to_one_subtree(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/form"))
    whole = await ok(provider, ctx, "browser.snapshot")
    scoped = await ok(provider, ctx, "browser.snapshot", selector="#form-area")
    assert whole["scope"] == "page"
    assert scoped["scope"] == "#form-area"
    assert "Outside the form" in whole["text"]
    assert "Outside the form" not in scoped["text"]
    assert scoped["elements"] == whole["elements"]  # every control is inside the form
    assert [e["selector"] for e in scoped["elements"]] == [
        "#q",
        'select[name="color"]',
        'input[name="agree"]',
        "#form-area > form > button",
    ]


async def test_snapshot_caps_text_and_elements_and_says_how_much_there_was(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/huge"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert 20_000 - 10 < len(snapshot["text"]) <= 20_000  # up to the last word's end
    assert snapshot["text"].endswith("word2344")
    assert snapshot["textTruncated"] is True
    assert snapshot["textTotalChars"] > 20_000
    assert len(snapshot["elements"]) == 250
    assert snapshot["elementsTruncated"] is True
    assert snapshot["interactiveElementsOnPage"] == 300


async def test_the_browser_runs_with_the_server_flags(provider: ChromiumProvider) -> None:
    """The launched command line has the documented flags, and --no-sandbox only as root."""
    pid = await browser_pid(await provider._launcher.browser())
    cmdline = await asyncio.to_thread(Path(f"/proc/{pid}/cmdline").read_bytes)
    arguments = cmdline.decode().split("\0")
    for flag in LAUNCH_FLAGS:
        assert flag in arguments
    assert ("--no-sandbox" in arguments) is not sandboxed()
    assert "--headless" in arguments


async def test_the_catalog_record_declares_all_ten_actions(provider: ChromiumProvider) -> None:
    record = provider.registration()
    assert (record["id"], record["name"], record["provides"]) == (
        "chromium",
        "Chromium",
        ["browser"],
    )
    assert sorted(record["actions"]) == sorted(ACTIONS)
    answer = await act(provider, Context(), "browser.resize", viewport="desktop")
    assert answer["ok"] is True


async def test_a_hidden_select_names_the_control_the_page_draws_in_its_place(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A select a library hides behind a control of its own is not chosen behind the page's
    back: the refusal names that control, and it opens the list; a hidden select with no
    control of its own after it is refused as hidden."""
    await ok(provider, ctx, "browser.open", url=site.url("/custom-select"))
    error = await refused(provider, ctx, "browser.type", selector="#speed", value="Fast")
    assert error == (
        "#speed is hidden, so nothing was typed: the page shows its own control in its place, "
        'div.fancy (div "Slow"); use that instead (click it, then the option it shows).'
    )
    await ok(provider, ctx, "browser.click", selector="div.fancy")
    assert await out_line(provider, ctx) == "opened"
    plain = await refused(provider, ctx, "browser.type", selector="#plain", value="A")
    assert plain.startswith("#plain is not visible (hidden, or inside a closed menu")
    # Kept 1 px wide and clipped to nothing (select2): hidden too, its control named.
    listed = [
        item["selector"] for item in (await ok(provider, ctx, "browser.snapshot"))["elements"]
    ]
    assert "#country" not in listed
    assert "span.selection" in listed
    by_text = await refused(provider, ctx, "browser.click", text="Portugal")
    assert by_text == (
        '"Portugal" is an option of the select #country, which the page hides and shows its '
        'own control for, span.selection (span "Canada"): nothing was clicked. Click that '
        'control, then the option "Portugal" it shows.'
    )
    typed = await refused(provider, ctx, "browser.type", selector="#country", value="Portugal")
    assert typed.startswith("#country is hidden, so nothing was typed: the page shows its own")


async def test_typing_into_what_reads_keys_or_is_a_knob_is_refused_naming_the_verb_that_works(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """No field takes text there: a box that reads keys takes them from press_key, which
    then types them; a slider's knob is dragged."""
    await ok(provider, ctx, "browser.open", url=site.url("/key-terminal"))
    refusal = await refused(provider, ctx, "browser.type", selector="#term", value="ls")
    assert refusal == (
        "#term is not a text field but reads the keys pressed on it, so nothing was typed; "
        "verb.press_key with selector #term and text types them into it key by key, as a "
        "person does."
    )
    await ok(provider, ctx, "verb.press_key", selector="#term", text="ls")
    assert await in_page(provider, ctx, "term.textContent") == "$ ls"
    await ok(provider, ctx, "browser.open", url=site.url("/bare-slider"))
    knob = await refused(provider, ctx, "browser.type", selector="span.ui-slider-handle", value="4")
    assert knob.startswith("span.ui-slider-handle is the knob of a slider the page draws")


async def test_a_letter_no_us_key_types_reaches_a_page_that_reads_keys_as_its_key(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """é, ñ, €: each goes as the key a keyboard of its language sends, so a terminal that
    reads keydown shows it, and a field that counts its letters on keyup counts it."""
    await ok(provider, ctx, "browser.open", url=site.url("/key-terminal"))
    await ok(provider, ctx, "verb.press_key", selector="#term", text="café €5")
    assert await in_page(provider, ctx, "term.textContent") == "$ café €5"
    typed = await ok(provider, ctx, "browser.type", selector="#name", value="José Ñ")
    assert typed["value"] == "José Ñ"
    assert await in_page(provider, ctx, "count.textContent") == "6"


async def test_a_link_in_a_menu_a_hover_opens_is_refused_naming_the_trigger_to_hover(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The trigger listens for mouseenter alone: it is listed, and the refusal of the hidden
    link names it (not the page's root, which the body of no size led to)."""
    await ok(provider, ctx, "browser.open", url=site.url("/hover-menu"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [e["selector"] for e in elements] == ["#trig"]
    refusal = await refused(provider, ctx, "browser.click", text="Log out")
    assert 'open it with #trig (div "Account") first (click it, or hover it)' in refusal
    await ok(provider, ctx, "verb.hover", selector="#trig")
    clicked = await ok(provider, ctx, "browser.click", text="Log out")
    assert clicked["url"].endswith("#out")
