"""The chromium provider's own verbs on the widget pages, with their refusals."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from browserhost.contract import Context
from browserhost.host.verb_schemas import read_schema
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider
from browserhost.providers.chromium.held import plan_dropped
from browserhost.providers.chromium.verbs import WAIT_MAX_S
from browserhost.providers.key_verbs import (
    KEY_NAMES,
    OTHER_KEYS,
    is_key,
    not_a_key,
    not_focused,
    to_the_page,
)

from .driving import TEST_TIMEOUTS, in_page, ok, out_line, refused
from .site import Site
from .widgetsite import ZEBRA_TEXT

pytestmark = pytest.mark.asyncio(loop_scope="module")

VERBS = {
    "find", "press_key", "hover", "drag", "select_text", "mouse", "wait_for", "fill_form",
    "dialog", "upload", "tabs", "network", "console", "pdf", "download", "cookies",
    "set_cookies", "wait_for_close",
}  # fmt: skip


async def test_the_verbs_are_declared_and_evaluate_only_when_the_user_allows_it() -> None:
    names = {v["name"] for v in ChromiumProvider(ChromiumConfig()).registration()["verbs"]}
    assert names == VERBS
    allowed = ChromiumProvider(ChromiumConfig(allow_evaluate=True)).registration()["verbs"]
    assert {v["name"] for v in allowed} == VERBS | {"evaluate"}


async def test_find_reaches_anywhere_on_a_big_page_without_reading_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/docs-index.html"))
    found = await ok(provider, ctx, "verb.find", text="zebra")
    assert found["total"] == 1
    [zebra] = found["elements"]
    assert (zebra["label"], zebra["inViewport"]) == (ZEBRA_TEXT, False)
    await ok(provider, ctx, "browser.click", selector=zebra["selector"])
    assert await out_line(provider, ctx) == f"out: open {ZEBRA_TEXT}"
    some = await ok(provider, ctx, "verb.find", text=r"^zone\.", regex=True, limit=3)
    assert (len(some["elements"]), some["total"] > 3) == (3, True)
    bad = await refused(provider, ctx, "verb.find", text="(", regex=True)
    assert bad == "'(' is not a valid regular expression."


async def test_press_key_hover_and_wait_for(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/dialog-form.html"))
    await ok(provider, ctx, "browser.click", text="Create new user")
    shown = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert "\u00d7 (Close)" in {e.get("label") for e in shown}  # a sign says less than its title
    pressed = await ok(provider, ctx, "verb.press_key", key="esc")  # the dialog closes
    assert pressed["key"] == "Escape"  # by its usual other name
    labels = {e.get("label") for e in (await ok(provider, ctx, "browser.snapshot"))["elements"]}
    assert "Create an account" not in labels
    bad = await refused(provider, ctx, "verb.press_key", key="NoSuchKey")
    assert bad.startswith("'NoSuchKey' is not a key: give a name (Enter, Escape, Tab,")
    assert bad.endswith("nothing was pressed. To type a text, give text.")

    await ok(provider, ctx, "browser.open", url=site.url("/w/tabs.html"))
    hovered = await ok(provider, ctx, "verb.hover", selector='li[aria-controls="tabs-3"]')
    assert hovered["label"] == "Aenean lacinia"
    hovered_class = await in_page(
        provider, ctx, "document.querySelector('li[aria-controls=\"tabs-3\"]').className"
    )
    assert "ui-state-hover" in hovered_class

    await ok(provider, ctx, "browser.open", url=site.url("/w/timing.html"))
    await ok(provider, ctx, "verb.wait_for", text="Blue Mug")
    await ok(provider, ctx, "verb.wait_for", text="Loading products…", gone=True)
    late = await refused(provider, ctx, "verb.wait_for", text="Never shown", timeout_s=0.3)
    assert late == "'Never shown' did not appear within 0.3 s; take a snapshot to see the page."
    neither = await refused(provider, ctx, "verb.wait_for")
    assert neither == "wait_for takes text, selector or seconds (one of them)."


async def test_press_key_types_a_text_where_the_focus_is_then_the_key(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A terminal reads keys on an element that is not a field: browser.type refuses it, and
    press_key types the command key by key, then presses Enter."""
    await ok(provider, ctx, "browser.open", url=site.url("/terminal"))
    refusal = await refused(provider, ctx, "browser.type", selector="#term", value="ls")
    assert refusal.startswith("#term is not a text field")
    ran = await ok(provider, ctx, "verb.press_key", selector="#term", text="echo hi", key="Return")
    assert (ran["typed"], ran["key"]) == ("echo hi", "Enter")
    assert await out_line(provider, ctx) == "ran: echo hi"
    nothing = await refused(provider, ctx, "verb.press_key", selector="#term")
    assert "give key, text, or both" in nothing
    # A name that is no key is refused before the text is typed, not after.
    shown = await in_page(provider, ctx, "term.textContent")
    bad = await refused(
        provider, ctx, "verb.press_key", selector="#term", text="rm", key="Ctrl+Nope"
    )
    assert bad == not_a_key("Ctrl+Nope")
    assert await in_page(provider, ctx, "term.textContent") == shown
    plus = await ok(provider, ctx, "verb.press_key", selector="#term", key="shift++")
    assert plus["key"] == "Shift++"
    assert await in_page(provider, ctx, "term.textContent") == "$ +"  # a new line, its key


async def test_wait_for_answers_the_dialogs_the_page_showed_as_it_waited(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A confirm a timer shows while the agent waits is answered as any unplanned one
    (dismissed), and the wait's answer says so: it was not told anywhere."""
    await ok(provider, ctx, "browser.open", url=site.url("/confirm"))
    clicked = await ok(provider, ctx, "browser.click", text="Start timer")
    assert "dialogs" not in clicked  # the timer outlasts the click's wait
    waited = await ok(provider, ctx, "verb.wait_for", text="later:")
    assert waited["dialogs"] == [
        {"type": "confirm", "message": "Stay signed in?", "answer": "dismissed"}
    ]
    assert waited["matched"]["text"] == "later: false"


async def test_press_key_holds_shift_for_what_a_keyboard_types_with_shift(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A person types a capital or a ? with Shift held: a page that reads the key's shiftKey
    (a shortcut on ?, a game) sees it so, in a typed text and in a key pressed alone."""
    await ok(provider, ctx, "browser.open", url=site.url("/keyboard"))
    await ok(provider, ctx, "verb.press_key", selector="#term", text="aB!c")
    await ok(provider, ctx, "verb.press_key", selector="#term", key="?")
    assert await in_page(provider, ctx, "log") == [
        "a/KeyA",
        "S-Shift/ShiftLeft",
        "S-B/KeyB",
        "S-!/Digit1",
        "c/KeyC",
        "S-Shift/ShiftLeft",
        "S-?/Slash",
    ]


async def test_type_and_submit_says_which_button_enter_sent_the_form_as(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Enter sends a form as a press on its first button that sends it: here its Cancel."""
    await ok(provider, ctx, "browser.open", url=site.url("/cancel-first"))
    typed = await ok(provider, ctx, "browser.type", selector="#mail", value="a@b.c", submit=True)
    assert await in_page(provider, ctx, "out.textContent") == "cancel"
    assert typed["notice"] == (
        "Enter sent the form as a press on its first button, body > form > button:nth-of-type(1) "
        '(button "Cancel"), would (it has 2 that send it); to send it with another, click '
        "that one."
    )


async def test_a_field_drawn_only_once_focused_is_to_be_clicked_first_not_hovered(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/focus-shows"))
    error = await refused(provider, ctx, "browser.type", selector="#month", value="11")
    assert error == (
        "#month is see-through until it has the focus (a field drawn only then), so nothing "
        'was typed; click what holds it, #date (div "MM"), first, then take a new snapshot.'
    )
    await ok(provider, ctx, "browser.click", selector="#date")
    await ok(provider, ctx, "browser.type", selector="#month", value="11")
    assert await in_page(provider, ctx, "month.textContent") == "11"


async def test_scroll_to_the_bottom_passes_a_feed_that_loads_more_as_it_comes_into_view(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The end of the feed lies a screen above the page's bottom: a jump straight there
    would never show it, and the feed would load nothing."""
    await ok(provider, ctx, "browser.open", url=site.url("/feed-above-footer"))
    # A post not loaded yet: the refusal says the page goes on below, where it may come.
    unloaded = await refused(provider, ctx, "browser.click", text="Post 32")
    assert unloaded.endswith(
        "The page goes on below the view: one that adds more as it is scrolled (a feed) may "
        "show it further down; browser.scroll down, then try again."
    )
    await ok(provider, ctx, "browser.scroll", direction="bottom")
    assert await in_page(provider, ctx, "feed.lastElementChild.textContent") == "Post 32"


async def test_press_key_says_where_the_keys_now_go(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/choice-only"))
    first = await ok(provider, ctx, "verb.press_key", key="Tab")
    assert first["focus"] == '#country (input "Country")'
    assert (await ok(provider, ctx, "verb.press_key", key="Tab"))["focus"] == '#city (input "City")'
    await in_page(provider, ctx, "document.activeElement.blur()")
    lost = await ok(provider, ctx, "verb.press_key", text="x")
    assert "focus" not in lost
    assert lost["notice"].startswith("No element had the focus, so 'x' went to the page itself")


async def test_press_key_on_an_element_the_keys_do_not_reach_is_refused(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """An option the field's keys are not on, and words that take no focus, are refused,
    saying where the keys would go; the option they are on takes them through its field. A
    key pressed with nothing focused is said to have gone to the page itself."""
    await ok(provider, ctx, "browser.open", url=site.url("/keys-owner"))
    error = await refused(provider, ctx, "verb.press_key", selector="#cherry", key="Enter")
    assert error == not_focused("#cherry", '#fruit (input "Fruit")')
    assert error.startswith(
        "#cherry does not take the focus, so nothing was pressed: the keys would go to #fruit "
        '(input "Fruit").'
    )
    assert await out_line(provider, ctx) == "none"
    await ok(provider, ctx, "verb.press_key", selector="#apple", key="Enter")
    assert await out_line(provider, ctx) == "chose Apple"
    await in_page(provider, ctx, "fruit.blur()")
    error = await refused(provider, ctx, "verb.press_key", selector="#plain", key="Enter")
    assert error == not_focused("#plain", None)
    pressed = await ok(provider, ctx, "verb.press_key", key="Escape")
    assert pressed["notice"] == to_the_page(None, "Escape")
    assert pressed["notice"].startswith("No element had the focus, so Escape went to the page")
    assert await out_line(provider, ctx) == "page Escape"
    assert "notice" not in await ok(provider, ctx, "verb.press_key", key="Tab")


async def test_press_key_reaches_an_element_the_pointer_cannot(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Keys need no pointer: a handle under what the page draws over it takes them, where a
    click is refused as covered."""
    await ok(provider, ctx, "browser.open", url=site.url("/covered-slider"))
    assert "is covered by" in await refused(provider, ctx, "browser.click", selector="#level")
    await ok(provider, ctx, "verb.press_key", selector="#level", key="ArrowRight")
    assert await in_page(provider, ctx, "level.value") == "51"


async def test_an_element_the_keys_changed_is_still_the_one_its_selector_names(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A tree item the keys opened reads its children's words too: the answer said so, and
    the next action on the same selector takes it as it is now, not as another element drawn
    in its place."""
    await ok(provider, ctx, "browser.open", url=site.url("/key-tree"))
    await ok(provider, ctx, "browser.snapshot")
    opened = await ok(provider, ctx, "verb.press_key", selector="#folder", key="ArrowRight")
    assert opened["focus"] == '#folder (div "Folder notes.txt todo.txt")'
    clicked = await ok(provider, ctx, "browser.click", selector="#folder")
    assert (clicked["clicked"], clicked["expanded"]) == ("#folder", True)
    assert await out_line(provider, ctx) == "chose folder"


async def test_every_name_press_key_takes_is_a_key_playwright_presses(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """press_key refuses a name it does not know before it types anything: each name it
    knows must be one Playwright presses, or a text would be typed and its key refused."""
    await ok(provider, ctx, "browser.open", url=site.url("/keyboard"))
    page = provider.page_for(ctx)
    assert page is not None
    known = sorted({*KEY_NAMES.values(), *OTHER_KEYS, *map(chr, range(32, 127))})
    assert all(map(is_key, known))
    for name in known:
        await page.keyboard.press(name)  # raises for a name Playwright does not know
    heard = await in_page(provider, ctx, "log.length")
    assert heard >= len(known)


async def test_wait_for_waits_for_the_match_a_person_sees_and_says_what_it_was(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/waiting.html"))
    # No control has the text yet: the click presses the instruction's word, and says so.
    early = await ok(provider, ctx, "browser.click", text="Confirm")
    assert early["clicked"] == "#later > b"
    assert early["notice"].startswith('No control is named "Confirm": the click pressed #later')
    # The click waits for the toast its timer shows, and quotes it (its class names it).
    saved = await ok(provider, ctx, "browser.click", text="Save")
    assert saved["notice"] == 'The page now shows: "Order saved"'
    # The hidden copy first in the page is not the one waited on.
    saved = await ok(provider, ctx, "verb.wait_for", text="Order saved", timeout_s=5)
    assert saved["matched"] == {"tag": "p", "text": "Order saved"}
    assert await in_page(provider, ctx, "document.querySelectorAll('#toasts p').length") == 1
    # A text the page's own words name is matched there, and the answer shows it.
    named = await ok(provider, ctx, "verb.wait_for", text="a note says")
    assert named["matched"]["text"] == "Press Save; a note says when it is done."
    assert named["notice"].startswith(
        "'a note says' was on the page before the wait began, in p \"Press Save; a note says "
        'when it is done.", so the wait ended at once.'
    )
    assert "notice" not in saved  # "Order saved" whole, the toast itself
    # Gone means no match shown: the hidden copy does not make the shown toast gone.
    shown = await refused(
        provider, ctx, "verb.wait_for", selector=".toast", gone=True, timeout_s=0.5
    )
    assert shown == "'.toast' did not go within 0.5 s; take a snapshot to see the page."
    await in_page(provider, ctx, "document.querySelector('#toasts p').remove()")
    gone = await ok(provider, ctx, "verb.wait_for", selector=".toast", gone=True, timeout_s=5)
    assert gone["state"] == "hidden"
    assert "matched" not in gone


async def test_wait_for_seconds_waits_that_long_then_answers_the_page(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A page that changes after a delay, with nothing named to wait for: wait_for seconds."""
    await ok(provider, ctx, "browser.open", url=site.url("/w/timing.html"))
    await in_page(provider, ctx, "setTimeout(() => { out.textContent = 'out: later'; }, 200)")
    started = time.monotonic()
    waited = await ok(provider, ctx, "verb.wait_for", seconds=0.6)
    assert time.monotonic() - started >= 0.6
    assert waited == {"waitedS": 0.6, "url": site.url("/w/timing.html")}
    assert await out_line(provider, ctx) == "out: later"


async def test_wait_for_seconds_is_one_mode_bounded_before_anything_is_sent(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    [declared] = [
        v for v in provider.registration()["verbs"] if v["name"] == "wait_for"
    ]  # the schema the host checks arguments against before sending them
    checker = read_schema(declared["inputSchema"])
    assert checker.problems({"seconds": WAIT_MAX_S}) == []
    [too_long] = checker.problems({"seconds": WAIT_MAX_S + 1})
    assert (list(too_long.path), too_long.message) == (
        ["seconds"],
        f"{WAIT_MAX_S + 1} is greater than the maximum of {WAIT_MAX_S}",
    )
    assert checker.problems({"seconds": 0})  # no wait at all is no wait to ask for

    await ok(provider, ctx, "browser.open", url=site.url("/w/timing.html"))
    started = time.monotonic()
    over = await refused(provider, ctx, "verb.wait_for", seconds=WAIT_MAX_S + 1)
    assert (
        over == f"seconds: Input should be less than or equal to {WAIT_MAX_S:g}; nothing was done."
    )
    both = await refused(provider, ctx, "verb.wait_for", text="Blue Mug", seconds=1)
    assert both == "wait_for takes text, selector or seconds (one of them)."
    gone = await refused(provider, ctx, "verb.wait_for", seconds=1, gone=True)
    assert gone == (
        "gone waits for a text or selector to disappear, not for seconds; give text or "
        "selector with it. Nothing was waited for."
    )
    assert time.monotonic() - started < 1, "refused without waiting"


async def test_fill_form_sets_fields_selects_and_styled_checkboxes(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/checkboxradio.html"))
    filled = await ok(
        provider, ctx, "verb.fill_form",
        fields=[{"selector": "#agree", "value": True}, {"selector": "#radio-3", "value": "true"}],
    )  # fmt: skip
    assert [f["checked"] for f in filled["filled"]] == [True, True]
    assert await out_line(provider, ctx) == "out: radio-3 checked"
    await ok(provider, ctx, "browser.open", url=site.url("/w/stateful.html"))
    filled = await ok(
        provider, ctx, "verb.fill_form",
        fields=[{"selector": "#size", "value": "L"}, {"selector": "#bio", "value": "Hi"}],
    )  # fmt: skip
    assert [f["value"] for f in filled["filled"]] == ["L", "Hi"]
    # A checkbox the page draws with its role (aria-checked "mixed") is clicked as a native one.
    ticked = await ok(provider, ctx, "verb.fill_form", fields=[{"selector": "#all", "value": True}])
    assert ticked["filled"] == [{"selector": "#all", "checked": True}]
    assert not any("focused" in f for f in filled["filled"])  # each was, as it was filled
    assert "notice" not in filled["filled"][1]
    await ok(provider, ctx, "browser.open", url=site.url("/short-fields"))
    filled = await ok(
        provider, ctx, "verb.fill_form",
        fields=[{"selector": "#zip", "value": "123456"}, {"selector": "#after", "value": "x"}],
    )  # fmt: skip
    assert filled["filled"][0]["value"] == "12345"
    assert filled["filled"][0]["notice"].startswith("#zip keeps at most 5 characters")
    assert "notice" not in filled["filled"][1]
    # A field the page empties as the next one takes the focus is not said to hold the text.
    await ok(provider, ctx, "browser.open", url=site.url("/choice-only"))
    filled = await ok(
        provider, ctx, "verb.fill_form",
        fields=[{"selector": "#country", "value": "Spain"}, {"selector": "#city", "value": "Vigo"}],
    )  # fmt: skip
    country, city = filled["filled"]
    assert (country["value"], city["value"]) == ("", "Vigo")
    assert country["notice"].startswith(
        "The page changed #country after it was filled, as the next field took the focus: it "
        "is empty now, not 'Spain'"
    )


async def test_typing_into_an_empty_editor_keeps_the_caret_its_page_placed(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Bold pressed, then the text typed: it goes where the page put the caret, in bold."""
    await ok(provider, ctx, "browser.open", url=site.url("/bold-editor"))
    await ok(provider, ctx, "browser.click", text="Bold")
    typed = await ok(provider, ctx, "browser.type", selector="#ed", value="Ship it")
    assert "notice" not in typed
    assert await in_page(provider, ctx, "ed.querySelector('strong').textContent") == "\ufeffShip it"


async def test_an_editor_longer_than_its_box_is_refused_with_a_way_to_type_in_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """No scroll brings the whole text into its box: scrolling, as an element merely out of
    view is told to, would not help."""
    await ok(provider, ctx, "browser.open", url=site.url("/long-editor"))
    error = await refused(provider, ctx, "browser.type", selector="#text", value="new")
    assert error.startswith("#text is larger than the box that scrolls it")
    assert "verb.press_key" in error
    await ok(provider, ctx, "browser.click", text="line 2")
    await ok(provider, ctx, "verb.press_key", key="End")
    await ok(provider, ctx, "verb.press_key", text="!")
    assert await in_page(provider, ctx, "text.children[1].textContent") == "line 2!"


async def test_dialog_answers_the_next_confirm_and_prompt(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/dialogs.html"))
    await ok(provider, ctx, "verb.dialog", accept=True)
    clicked = await ok(provider, ctx, "browser.click", text="Ask confirm")
    assert clicked["dialogs"][0]["answer"] == "accepted"
    assert await out_line(provider, ctx) == "out: confirm true"
    await ok(provider, ctx, "verb.dialog", accept=True, text="Zoe")
    prompted = await ok(provider, ctx, "browser.click", text="Ask prompt")
    assert prompted["dialogs"] == [
        {"type": "prompt", "message": "Your name?", "answer": "accepted", "text": "Zoe"}
    ]
    assert await out_line(provider, ctx) == "out: prompt Zoe"
    await ok(provider, ctx, "browser.click", text="Ask confirm")  # the plan was used once
    assert await out_line(provider, ctx) == "out: confirm false"


async def test_a_control_find_listed_is_refused_once_its_selector_names_another(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """find lists Post 3's Like by its place in the feed; a post that comes in at the top
    makes that selector name Post 2's: refused, as one a snapshot listed is."""
    await ok(provider, ctx, "browser.open", url=site.url("/feed-grows"))
    found = await ok(provider, ctx, "verb.find", text="Post 3")
    like = found["elements"][0]["near"][0]["selector"]
    assert like == "#feed > article:nth-of-type(3) > button"
    await ok(provider, ctx, "browser.click", selector="#more")
    error = await refused(provider, ctx, "browser.click", selector=like)
    assert error.startswith(f"{like} no longer names the element your latest snapshot listed")
    assert await out_line(provider, ctx) == "none"


async def test_wait_for_a_text_sees_an_option_a_select_was_given(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Its list shows only once opened: the select that holds it is what appeared."""
    await ok(provider, ctx, "browser.open", url=site.url("/options-later"))
    waited = await ok(provider, ctx, "verb.wait_for", text="Quebec", timeoutS=5)
    assert waited["matched"]["tag"] == "select"
    assert await in_page(provider, ctx, "state.options.length") == 3


async def test_fill_form_waits_for_what_a_toggle_set_off_and_tells_a_switch_put_back(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The page turns the switch on, then off again when its save fails: fill_form waits
    for that, as a click does, and says the switch is off."""
    await ok(provider, ctx, "browser.open", url=site.url("/switch-reverts"))
    filled = await ok(provider, ctx, "verb.fill_form", fields=[{"selector": "#sms", "value": True}])
    assert filled["filled"][0]["checked"] is False
    assert filled["filled"][0]["notice"].startswith("#sms is still unchecked")
    assert await out_line(provider, ctx) == "Could not save SMS alerts"


async def test_a_planned_answer_no_dialog_took_is_dropped_after_the_next_action(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Planned for a confirm the click did not bring (a modal of the page's own came), it
    is dropped and said so: a confirm shown actions later is answered as configured, not
    accepted behind the agent's back. Reading the page spends no plan."""
    await ok(provider, ctx, "browser.open", url=site.url("/w/dialogs.html"))
    await ok(provider, ctx, "verb.dialog", accept=True)
    await ok(provider, ctx, "browser.snapshot")
    clicked = await ok(provider, ctx, "browser.click", selector="#out")
    assert clicked["notice"] == plan_dropped((True, None))
    assert clicked["notice"].startswith(
        "No alert, confirm or prompt came up, so the plan to accept"
    )
    confirmed = await ok(provider, ctx, "browser.click", text="Ask confirm")
    assert confirmed["dialogs"][0]["answer"] == "dismissed"
    assert await out_line(provider, ctx) == "out: confirm false"


async def test_a_page_asking_whether_to_leave_it_is_left_said_and_spends_no_plan(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The question of leaving is always answered so; a plan to dismiss is for a confirm."""
    await ok(provider, ctx, "browser.open", url=site.url("/leave-guard"))
    await ok(provider, ctx, "browser.type", selector="#draft", value="unsaved")
    await ok(provider, ctx, "verb.dialog", accept=False)
    left = await ok(provider, ctx, "browser.click", text="Leave")
    assert (left["title"], left["notice"]) == ("Confirm", plan_dropped((False, None)))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert [p["text"] for p in snapshot["consoleProblems"]] == [
        "The page asked whether to leave it (it may have had unsaved changes); it was left."
    ]


async def test_upload_takes_files_from_the_project_only(
    provider: ChromiumProvider, site: Site, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.txt").write_text("hello")
    (tmp_path / "x.txt").write_text("outside the project")
    ctx = Context(directory=str(project), session_id="upload")
    await ok(provider, ctx, "browser.open", url=site.url("/w/controls.html"))
    await ok(provider, ctx, "verb.upload", selector="#avatar", files=["a.txt"])
    assert await out_line(provider, ctx) == "out: files a.txt"
    outside = await refused(provider, ctx, "verb.upload", selector="#avatar", files=["../x.txt"])
    assert outside == "../x.txt is outside the project directory; nothing was set."
    not_file = await refused(provider, ctx, "verb.upload", selector="#spice", files=["a.txt"])
    assert not_file == "#spice is not a file input."
    assert await out_line(provider, ctx) == "out: files a.txt"  # the refusals set nothing


async def test_a_file_input_hidden_in_its_label_is_listed_and_a_click_on_it_names_upload(
    provider: ChromiumProvider, site: Site, tmp_path: Path
) -> None:
    """The label is what shows: the snapshot lists the input by it, and a click there opens
    the file chooser, which takes no files from here; upload does."""
    (tmp_path / "a.txt").write_text("hello")
    ctx = Context(directory=str(tmp_path), session_id="hidden-file")
    await ok(provider, ctx, "browser.open", url=site.url("/hidden-file"))
    listed = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(item["selector"], item["label"]) for item in listed] == [("#upload", "Choose a file")]
    clicked = await ok(provider, ctx, "browser.click", text="Choose a file")
    assert clicked["notice"] == (
        "The click opens the browser's file chooser, which takes no files from here: nothing "
        "was chosen. Choose files with verb.upload on #upload."
    )
    await ok(provider, ctx, "verb.upload", selector="#upload", files=["a.txt"])
    assert await in_page(provider, ctx, "out.textContent") == "got a.txt"
    assert [item.get("value") for item in listed] == [""]  # before: no file chosen
    chosen = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(item["selector"], item["value"]) for item in chosen] == [("#upload", "a.txt")]


async def test_a_drop_zone_that_opens_a_hidden_file_input_takes_files(
    provider: ChromiumProvider, site: Site, tmp_path: Path
) -> None:
    """A box whose click clicks a file input of its own (Dropzone's): a click says which
    input's chooser it opened, and upload on the box clicks it and gives that chooser the
    files; on an element that opens none, upload says so."""
    (tmp_path / "a.txt").write_text("hello")
    ctx = Context(directory=str(tmp_path), session_id="drop-zone")
    await ok(provider, ctx, "browser.open", url=site.url("/drop-zone"))
    clicked = await ok(provider, ctx, "browser.click", text="Drop files here to upload")
    assert clicked["notice"] == (
        "The click opens the browser's file chooser, which takes no files from here: nothing "
        "was chosen. Choose files with verb.upload on input.zone-input."
    )
    assert await in_page(provider, ctx, "got.textContent") == "none"
    uploaded = await ok(provider, ctx, "verb.upload", selector="#zone", files=["a.txt"])
    assert uploaded == {"selector": "#zone", "files": ["a.txt"], "clicked": True}
    assert await in_page(provider, ctx, "got.textContent") == "a.txt"
    none = await refused(provider, ctx, "verb.upload", selector="h1", files=["a.txt"])
    assert none == (
        "h1 is not a file input, and the click on it opened no file chooser within 3 s, so no "
        "file was chosen (it was clicked). Name the file input, or the button that opens the "
        "chooser."
    )


async def test_every_upload_through_a_drop_zone_in_a_row_takes_its_files(
    provider: ChromiumProvider, site: Site, tmp_path: Path
) -> None:
    """The chooser an upload's click opens is caught every time, not only when the catching
    happens to be turned on before the click lands."""
    ctx = Context(directory=str(tmp_path), session_id="drop-zone-again")
    await ok(provider, ctx, "browser.open", url=site.url("/drop-zone"))
    for n in range(15):
        (tmp_path / f"{n}.txt").write_text("hello")
        await ok(provider, ctx, "verb.upload", selector="#zone", files=[f"{n}.txt"])
        assert await in_page(provider, ctx, "got.textContent") == f"{n}.txt"


async def test_tabs_lists_switches_and_closes_windows(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/opener"))
    await ok(provider, ctx, "browser.click", text="Open popup")
    listed = (await ok(provider, ctx, "verb.tabs"))["tabs"]
    assert [(t["title"], t["current"]) for t in listed] == [("Opener", False), ("Closer", True)]
    switched = (await ok(provider, ctx, "verb.tabs", action="switch", index=0))["tabs"]
    assert [(t["title"], t["current"]) for t in switched] == [("Opener", True), ("Closer", False)]
    assert (await ok(provider, ctx, "browser.snapshot"))["title"] == "Opener"
    closed = (await ok(provider, ctx, "verb.tabs", action="close", index=1))["tabs"]
    assert [t["title"] for t in closed] == ["Opener"]  # the numbers held: 1 was Closer
    assert (await ok(provider, ctx, "browser.snapshot"))["title"] == "Opener"
    wrong = await refused(provider, ctx, "verb.tabs", action="switch", index=5)
    assert wrong == "switch needs the index of a tab, one of 0..0, as tabs list numbers them."


async def test_evaluate_runs_only_when_the_user_turned_it_on(
    provider: ChromiumProvider, chromium_path: str, site: Site, ctx: Context
) -> None:
    off = await refused(provider, ctx, "verb.evaluate", expression="1 + 1")
    assert off == "evaluate is turned off; only the user can turn it on."
    allowed = ChromiumProvider(
        ChromiumConfig(executable=chromium_path, allow_evaluate=True), timeouts=TEST_TIMEOUTS
    )
    try:
        await ok(allowed, ctx, "browser.open", url=site.url("/page-a"))
        assert await ok(allowed, ctx, "verb.evaluate", expression="document.title") == {
            "value": "Page A"
        }
    finally:
        await allowed.aclose()


async def test_dialogs_are_accepted_by_default_when_the_user_configured_it(
    chromium_path: str, site: Site, ctx: Context
) -> None:
    accepting = ChromiumProvider(
        ChromiumConfig(executable=chromium_path, dialogs="accept"), timeouts=TEST_TIMEOUTS
    )
    try:
        await ok(accepting, ctx, "browser.open", url=site.url("/w/dialogs.html"))
        asked = await ok(accepting, ctx, "browser.click", text="Ask prompt")
        assert (asked["dialogs"][0]["answer"], asked["dialogs"][0]["text"]) == ("accepted", "Ann")
        assert await out_line(accepting, ctx) == "out: prompt Ann"  # the prompt's own default
        await ok(accepting, ctx, "verb.dialog", accept=False)  # the agent's plan comes first
        await ok(accepting, ctx, "browser.click", text="Ask confirm")
        assert await out_line(accepting, ctx) == "out: confirm false"
    finally:
        await accepting.aclose()


async def test_a_dialog_left_open_is_read_then_answered_and_holds_everything_else(
    chromium_path: str, site: Site, ctx: Context
) -> None:
    asking = ChromiumProvider(
        ChromiumConfig(executable=chromium_path, dialogs="ask"), timeouts=TEST_TIMEOUTS
    )
    try:
        await ok(asking, ctx, "browser.open", url=site.url("/w/dialogs.html"))
        clicked = await ok(asking, ctx, "browser.click", text="Ask confirm")
        assert clicked["label"] == "Ask confirm"
        assert clicked["dialogs"] == [
            {"type": "confirm", "message": "Delete it?", "answer": "open"}
        ]
        held = await refused(asking, ctx, "browser.snapshot")
        assert held == (
            "A confirm dialog is open and holds the page: 'Delete it?'. Answer it with the "
            "dialog verb (accept or dismiss); nothing else runs until then. browser.snapshot "
            "was not run."
        )
        answered = await ok(asking, ctx, "verb.dialog", accept=True)
        assert answered["answered"] == {
            "type": "confirm",
            "message": "Delete it?",
            "answer": "accepted",
        }
        assert await out_line(asking, ctx) == "out: confirm true"  # the click went on

        await ok(asking, ctx, "browser.click", text="Ask prompt")
        await ok(asking, ctx, "verb.dialog", accept=True, text="Zoe")
        assert await out_line(asking, ctx) == "out: prompt Zoe"

        # A dialog the page shows between actions holds the next one.
        await ok(asking, ctx, "browser.click", text="Alert later")
        async with asyncio.timeout(30):  # until the alert shows and is left open
            await asking._pool.dialog_shown(ctx.key).wait()
        later = await refused(asking, ctx, "browser.click", text="Ask confirm")
        assert later.startswith("An alert dialog is open and holds the page: 'Time is up'.")
        await ok(asking, ctx, "verb.dialog", accept=False)
        assert await out_line(asking, ctx) == "out: alerted later"

        # A page that greets with an alert as it loads: open answers before the load ends.
        opened = await ok(asking, ctx, "browser.open", url=site.url("/greets"))
        assert (opened["settled"], opened["dialogs"][0]["message"]) == (False, "Welcome back")
        await ok(asking, ctx, "verb.dialog", accept=True)
        assert (await ok(asking, ctx, "browser.snapshot"))["text"] == "Greets"
        await ok(asking, ctx, "browser.back")

        # With nothing open, the verb plans the answer to the next dialog, as in other modes.
        assert await ok(asking, ctx, "verb.dialog", accept=False) == {"next": "dismiss"}
        planned = await ok(asking, ctx, "browser.click", text="Ask confirm")
        assert planned["dialogs"][0]["answer"] == "dismissed"
        assert "notice" not in planned  # the Cancel the agent asked for
        assert await out_line(asking, ctx) == "out: confirm false"
    finally:
        await asking.aclose()


async def test_hover_and_fill_form_refuse_what_a_person_could_not_do(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/overlay.html"))
    covered = await refused(provider, ctx, "verb.hover", selector="#buy")
    assert covered.startswith("#buy is covered by #cookie-banner")
    await ok(provider, ctx, "browser.open", url=site.url("/w/stateful.html"))
    not_field = await refused(
        provider, ctx, "verb.fill_form",
        fields=[{"selector": "#bio", "value": "Changed"}, {"selector": "#bold", "value": "x"}],
    )  # fmt: skip
    # A button that stays down takes true or false, as a checkbox does.
    assert not_field == (
        "#bold is a toggle button: give true or false, not 'x'; nothing more set. Set before "
        "it: #bio."
    )
    bold = await ok(provider, ctx, "verb.fill_form", fields=[{"selector": "#bold", "value": True}])
    assert bold["filled"][0]["pressed"] is True
    slider = await refused(
        provider, ctx, "verb.fill_form", fields=[{"selector": "#volume", "value": "70"}]
    )
    assert slider.startswith("#volume is a slider the page draws, not a text field")
    assert "set it with verb.press_key" in slider
    # true or false for a slider says what it is, as text does, not that it takes text.
    told = await refused(
        provider, ctx, "verb.fill_form", fields=[{"selector": "#volume", "value": True}]
    )
    assert told.startswith("#volume is a slider the page draws, not a text field")
    assert (await ok(provider, ctx, "browser.inspect", selector="#bio"))["value"] == "Changed"
    no_option = await refused(
        provider, ctx, "verb.fill_form", fields=[{"selector": "#size", "value": "XXL"}]
    )
    assert no_option == '#size has no option "XXL"; its options are "S", "M", "L".'
    # Refused after a field was set: the answer says which, not to set them again.
    after_one = await refused(
        provider, ctx, "verb.fill_form",
        fields=[{"selector": "#bio", "value": "Again"}, {"selector": "#size", "value": "XXL"}],
    )  # fmt: skip
    assert after_one.endswith("Set before it: #bio.")
    text = await refused(
        provider, ctx, "verb.fill_form", fields=[{"selector": "#bio", "value": True}]
    )
    assert text == "#bio takes text, not True; nothing more set."
    assert (await ok(provider, ctx, "browser.inspect", selector="#bio"))["value"] == "Again"
    await ok(provider, ctx, "browser.open", url=site.url("/w/checkboxradio.html"))
    vague = await refused(
        provider, ctx, "verb.fill_form", fields=[{"selector": "#agree", "value": "Subscribe"}]
    )
    assert vague.startswith("#agree is a checkbox: give true or false, not 'Subscribe'")
    radio = await refused(
        provider, ctx, "verb.fill_form", fields=[{"selector": "#radio-1", "value": False}]
    )
    assert radio.startswith("#radio-1 is a radio: choose another one of its group")
    assert await out_line(provider, ctx) == "out: none"  # nothing was set


async def test_wait_for_text_in_a_collapsed_panel_waits_until_the_panel_opens(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Text inside a panel of no height is in the page but not seen: it has not appeared
    until the panel opens, and has gone once it collapses again."""
    await ok(provider, ctx, "browser.open", url=site.url("/collapsed-panel"))
    early = await refused(provider, ctx, "verb.wait_for", text="Order placed!", timeout_s=0.5)
    assert early == "'Order placed!' did not appear within 0.5 s; take a snapshot to see the page."
    await ok(provider, ctx, "browser.click", text="Place order")
    await ok(provider, ctx, "verb.wait_for", text="Order placed!")
    assert "Order placed!" in (await ok(provider, ctx, "browser.snapshot"))["text"]
    await ok(provider, ctx, "browser.click", text="Collapse")
    gone = await ok(provider, ctx, "verb.wait_for", text="Order placed!", gone=True, timeout_s=5)
    assert gone["state"] == "hidden"
