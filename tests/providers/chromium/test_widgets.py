"""What an agent sees and does on pages built the way widget libraries build them.

Each test reproduces one way agents failed on real pages (``widgets/``: jQuery UI widgets,
Bootstrap controls, a page built by script, a big index, frames and shadow roots, overlays,
dialogs) and checks what the page itself shows afterwards, not only the provider's answer.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from browserhost.contract import Context
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider, Timeouts
from browserhost.render import element_notes

from .driving import in_page, ok, out_line, refused
from .site import Site
from .widgetsite import ZEBRA_TEXT

pytestmark = pytest.mark.asyncio(loop_scope="module")

STATE_CLASSES = re.compile(r"active|hover|highlight|selected|focus|checked|current|open")


async def _open(provider: ChromiumProvider, site: Site, ctx: Context, page: str) -> Any:
    return await ok(provider, ctx, "browser.open", url=site.url(f"/w/{page}"))


async def _snapshot(provider: ChromiumProvider, ctx: Context, **parameters: str) -> Any:
    return await ok(provider, ctx, "browser.snapshot", **parameters)


async def _by_label(provider: ChromiumProvider, ctx: Context) -> dict[str, dict[str, Any]]:
    """The snapshot's elements by label (labels on these pages are unique)."""
    elements = (await _snapshot(provider, ctx))["elements"]
    return {element.get("label", ""): element for element in elements}


# --- 1. state is visible ------------------------------------------------------------------


async def test_a_picked_date_shows_as_the_fields_value(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "datepicker.html")
    before = await _by_label(provider, ctx)
    assert before["Date:"]["value"] == ""
    await ok(provider, ctx, "browser.click", selector=before["Date:"]["selector"])
    picked = await ok(provider, ctx, "browser.click", text="14")
    assert picked["label"] == "14"
    after = await _by_label(provider, ctx)
    assert after["Date:"]["value"] == "12/14/2026"
    assert "14" not in after  # the calendar closed: its days are no longer listed
    assert await out_line(provider, ctx) == "out: 12/14/2026"


async def test_a_day_of_the_month_before_or_after_shows_as_marked_other_month(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Two days read "30" (March's, April's), told apart by a class alone: the snapshot says
    which is the other month's, and the one it does not mark is this month's."""
    await _open(provider, site, ctx, "month-grid.html")
    listed = (await _snapshot(provider, ctx))["elements"]
    thirties = [e for e in listed if e["label"] == "30"]
    assert [e.get("marked") for e in thirties] == ["other month", None]
    assert [e.get("marked") for e in listed if e["label"] == "1"] == [None, "other month"]
    assert all("marked" not in e for e in listed if e["label"] == "15")
    error = await refused(provider, ctx, "browser.click", text="30")
    assert error.startswith(
        f'"30" matches 2 elements: {thirties[0]["selector"]} (span "30", marked other month); '
        f'{thirties[1]["selector"]} (span "30"). Nothing was clicked'
    )
    await ok(provider, ctx, "browser.click", selector=thirties[1]["selector"])
    assert await out_line(provider, ctx) == "out: 2026-04-30"


async def test_a_day_drawn_faint_among_its_months_is_told_apart_as_faded(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """April's 1st, greyed in March's grid by a class that says nothing of why: the refusal
    of a click by "1" says which of the two is drawn faint, as a person sees it; today's,
    white on blue, is not faint."""
    await ok(provider, ctx, "browser.open", url=site.url("/faded-days"))
    error = await refused(provider, ctx, "browser.click", text="1")
    assert error.startswith(
        '"1" matches 2 elements: #days > tr:nth-of-type(1) > td:nth-of-type(5) (td "1" in '
    )
    april = '#days > tr:nth-of-type(6) > td:nth-of-type(1) (td "1" in "2 3 4 5 6 7", marked faded)'
    assert f"{april}. Nothing was clicked" in error
    await ok(provider, ctx, "browser.click", text="15")
    assert await out_line(provider, ctx) == "out: 2024-03-15"


async def test_a_day_bootstrap_datepicker_marks_old_or_new_shows_as_marked_other_month(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/old-new-days"))
    listed = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(e["label"], e.get("marked")) for e in listed] == [
        ("29", "other month"),
        ("1", None),
        ("29", None),
        ("31", None),
        ("1", "other month"),
    ]


async def test_every_kind_of_state_is_reported_where_it_applies(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "stateful.html")
    seen = await _by_label(provider, ctx)
    assert seen["More options"]["expanded"] is False
    assert seen["Shipping details"]["expanded"] is False
    assert seen["Locked"]["disabled"] is True
    email = seen["Email"]
    assert (email["value"], email["required"], email["invalid"]) == ("not-an-email", True, True)
    assert seen["Bio"]["value"] == "Hello there"
    assert (seen["Size"]["value"], seen["Size"]["options"]) == ("M", ["S", "M", "L"])
    assert seen["Bold"]["pressed"] is False
    assert seen["Select all"]["checked"] == "mixed"
    assert seen["Volume"]["value"] == "30 percent"
    assert seen["Balance"]["value"] == "40"
    assert seen["Plan"]["readonly"] is True
    assert seen["Month"]["value"] == "Empty"
    notify = seen["Notifications"]
    assert (notify["selector"], notify["checked"], notify["labelGuessed"]) == (
        "#notify",
        False,
        True,
    )
    # A thumb that reads its value: stepped again and again by the selector listed once.
    for value in ("5", "6"):
        stepped = await ok(provider, ctx, "verb.press_key", selector="#seats", key="ArrowRight")
        assert stepped["value"] == value
    # Typed as a number, told as a name: its number is read beside the name, and taken.
    typed = await ok(provider, ctx, "browser.type", selector="#month", value="11")
    assert (typed["value"], "notice" in typed) == ("November (11)", False)
    # Flags that do not hold are left out, never reported as false.
    assert not {"required", "invalid", "readonly", "disabled"} & set(seen["Bio"])

    clicked = await ok(provider, ctx, "browser.click", selector=seen["Bold"]["selector"])
    assert clicked["pressed"] is True  # the clicked element's state after the click
    expanded = await ok(provider, ctx, "browser.click", text="Shipping details")
    assert expanded["expanded"] is True
    summary = await ok(provider, ctx, "browser.click", text="More options")
    assert summary["expanded"] is True
    after = await _by_label(provider, ctx)
    assert (after["Bold"]["pressed"], after["Shipping details"]["expanded"]) == (True, True)

    inspected = await ok(provider, ctx, "browser.inspect", selector=seen["Size"]["selector"])
    assert (inspected["value"], inspected["role"]) == ("M", "combobox")


async def test_a_password_fields_value_is_never_reported(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "dialog-form.html")
    await ok(provider, ctx, "browser.click", text="Create new user")
    password = (await _by_label(provider, ctx))["Password"]
    assert "value" not in password
    typed = await ok(provider, ctx, "browser.type", selector=password["selector"], value="s3cret")
    assert "value" not in typed
    inspected = await ok(provider, ctx, "browser.inspect", selector=password["selector"])
    assert "value" not in inspected
    assert "s3cret" not in str(await _snapshot(provider, ctx))


# --- 2. styled controls ----------------------------------------------------------------------


async def test_checkboxes_and_radios_hidden_behind_labels_are_listed_and_clickable(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "checkboxradio.html")
    seen = await _by_label(provider, ctx)
    controls = ["New York", "Paris", "London", "2 Star", "3 Star", "4 Star", "5 Star"]
    controls += ["I agree to the terms", "Dark mode"]
    for label in controls:
        assert seen[label]["checked"] is False, label
        assert seen[label]["bounds"]["width"] > 10, label  # the label a person sees, not 1x1
    assert (await ok(provider, ctx, "browser.click", text="Paris"))["checked"] is True
    assert await out_line(provider, ctx) == "out: radio-2 checked"
    by_selector = await ok(provider, ctx, "browser.click", selector=seen["4 Star"]["selector"])
    assert by_selector["checked"] is True
    assert (await ok(provider, ctx, "browser.click", text="I agree to the terms"))["checked"]
    assert (await ok(provider, ctx, "browser.click", text="Dark mode"))["checked"] is True
    after = await _by_label(provider, ctx)
    checked = {label for label in controls if after[label]["checked"]}
    assert checked == {"Paris", "4 Star", "I agree to the terms", "Dark mode"}
    assert "label" not in {element["tag"] for element in after.values()}  # listed once
    # Each says the question it answers: its fieldset's legend, as the MCP listing shows.
    assert {after[label].get("group") for label in controls[:3]} == {"Select a Location:"}
    assert after["2 Star"]["group"] == "Hotel Ratings:"
    assert element_notes(after["Paris"])[0] == 'in "Select a Location:"'
    assert (after["Yes"]["group"], after["No"]["group"]) == ("Gift wrap", "Gift wrap")  # ARIA
    assert "group" not in after["Dark mode"]  # in no group


async def test_controls_a_library_draws_over_a_hidden_native_one_are_listed_and_used(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Named by aria-label alone: the see-through input over its box, or the range clipped
    inside its thumb, is listed with the box a person presses, and pressed there."""
    await _open(provider, site, ctx, "drawn-controls.html")
    seen = await _by_label(provider, ctx)
    for label in ("Email alerts", "Dark theme", "Small", "Large", "Volume"):
        assert seen[label]["bounds"]["width"] >= 20, label  # the box drawn, not the input
    # Drawn with a dash for "some", as Material UI marks it on its input; named by no class
    # that says so (it goes with the state).
    assert seen["All alerts"]["checked"] == "mixed"
    assert "indeterminate" not in seen["All alerts"]["selector"]
    assert (await ok(provider, ctx, "browser.click", text="Email alerts"))["checked"] is True
    assert (await ok(provider, ctx, "browser.click", text="Dark theme"))["checked"] is True
    large = await ok(provider, ctx, "browser.click", selector=seen["Large"]["selector"])
    assert large["checked"] is True
    assert (await ok(provider, ctx, "browser.type", selector="#volume", value="70"))[
        "value"
    ] == "70"
    assert await out_line(provider, ctx) == "out: Email alerts,Dark theme,Large volume 70"
    dragged = await ok(provider, ctx, "verb.drag", text="Volume", offset_x=-120)
    assert dragged["start"]["under"]["selector"] == "#thumb"
    assert dragged["value"] == "30"  # where the slider was left
    assert await out_line(provider, ctx) == "out: Email alerts,Dark theme,Large volume 30"
    # Keys on it answer the value they left.
    pressed = await ok(provider, ctx, "verb.press_key", selector="#volume", key="ArrowRight")
    assert pressed["value"] == "31"


# --- 3. click by text hits the item, not its container -------------------------------------


async def test_click_by_text_picks_the_menu_item_not_the_menu(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "selectmenu.html")
    opened = await ok(provider, ctx, "browser.click", selector="#speed-button")
    assert (opened["expanded"], opened["value"]) == (True, "Medium")
    await ok(provider, ctx, "browser.click", text="Fast")
    button = (await _by_label(provider, ctx))["Fast"]
    assert (button["role"], button["value"], button["expanded"]) == ("combobox", "Fast", False)

    await _open(provider, site, ctx, "autocomplete.html")
    await ok(provider, ctx, "browser.type", selector="#tags", value="ja")
    menu = await _by_label(provider, ctx)
    assert {"Java", "JavaScript"} <= set(menu)  # the items are elements an agent can name
    assert menu["Java"]["tag"] == "li"
    error = await refused(provider, ctx, "browser.click", text="Jav")
    assert error.startswith('"Jav" matches 2 elements')  # the two items, never the list
    await ok(provider, ctx, "browser.click", text="Java")
    assert await out_line(provider, ctx) == "out: chose Java"
    assert (await _by_label(provider, ctx))["Tags:"]["value"] == "Java"


async def test_an_option_drawn_again_as_another_is_not_clicked_by_its_old_selector(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The list keeps its option elements as the text filters it: the first option listed
    for "Mar" shows another name once "Marv" is typed."""
    await ok(provider, ctx, "browser.open", url=site.url("/reused-options"))
    await ok(provider, ctx, "browser.type", selector="#who", value="Mar")
    assert (await _by_label(provider, ctx))["Margaret Hamilton"]["selector"] == "#option-0"
    await ok(provider, ctx, "browser.type", selector="#who", value="Marv")
    error = await refused(provider, ctx, "browser.click", selector="#option-0")
    assert error == (
        "#option-0 no longer names the element your latest snapshot listed (the page changed: "
        'it reads "Marvin Minsky" now, listed as "Margaret Hamilton"), so nothing was clicked; '
        "take a new snapshot."
    )
    assert await in_page(provider, ctx, "out.textContent") == ""
    assert (await _by_label(provider, ctx))["Marvin Minsky"]["selector"] == "#option-0"
    await ok(provider, ctx, "browser.click", selector="#option-0")
    assert await in_page(provider, ctx, "out.textContent") == "chose Marvin Minsky"


async def test_text_names_what_reads_it_exactly_before_what_holds_it_in_part(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A link in a closed menu reads "Privacy": a visible link that only holds the word is
    not pressed in its place, and the refusal says what opens the menu. Plain text reading
    "5" is pressed before a button whose name holds a 5 inside a word."""
    await ok(provider, ctx, "browser.open", url=site.url("/hidden-items"))
    error = await refused(provider, ctx, "browser.click", text="Privacy")
    assert error == (
        '"Privacy" is a[href="#privacy"] (a "Privacy"), hidden now (in a closed menu, tab or '
        'section), so nothing was clicked; open it with #account (button "Account") first '
        "(click it, or hover it), then click it."
    )
    assert await in_page(provider, ctx, "out.textContent") == ""
    await ok(provider, ctx, "browser.click", text="5")
    assert await in_page(provider, ctx, "out.textContent") == "pressed 5"
    await ok(provider, ctx, "browser.click", text="FAQ")  # no control reads it exactly
    assert await in_page(provider, ctx, "out.textContent") == "pressed privacy FAQ"
    # A checkbox in a closed tab, named by the label around it, which reads nothing hidden.
    error = await refused(provider, ctx, "browser.click", text="Email me invoices")
    assert error.startswith('"Email me invoices" is #pane-billing > label > input')
    assert 'open it with #tab-billing (button "Billing") first' in error
    # Opened from a link to a page of its own: a click there would leave the page.
    error = await refused(provider, ctx, "browser.click", text="Kettles")
    assert error.endswith(
        'open it with #products (a "Products") first (hover it with verb.hover: it is a '
        "link), then click it."
    )


async def test_a_text_several_hidden_controls_read_is_refused_naming_each_with_its_row(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Each row's Delete shows only under the pointer: the refusal lists every one with its
    row, so an agent asked to delete Bob's mail is not steered to the first row's."""
    await ok(provider, ctx, "browser.open", url=site.url("/hover-rows"))
    error = await refused(provider, ctx, "browser.click", text="Delete")
    row = "body > div:nth-of-type({}) > span:nth-of-type(2) > button"
    assert error == (
        '"Delete" names 3 controls hidden now (in closed menus, tabs or sections, or shown only '
        f'while the pointer is over what holds them): {row.format(1)} (button "Delete" in "Alice '
        f'\u2014 Lunch?"); {row.format(2)} (button "Delete" in "Bob \u2014 Report"); '
        f'{row.format(3)} (button "Delete" in "Carol \u2014 Trip"). Nothing was clicked; show '
        "the one you mean first (hover or open what holds it), then click it by its selector."
    )


async def test_the_option_the_keys_are_on_is_highlighted_not_chosen(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Its list marks it aria-selected, as a combobox's list is advised to: Enter would choose
    it, and nothing is chosen yet."""
    await ok(provider, ctx, "browser.open", url=site.url("/active-option"))
    listed = await _by_label(provider, ctx)
    assert "selected" not in listed["Rust"]
    assert listed["Rust"]["highlighted"] is True
    assert listed["Ruby"]["selected"] is False
    assert "value" not in listed["Ruby Rust"]  # the list: nothing chosen


async def test_an_option_a_focused_list_has_the_keys_on_is_chosen_where_it_says_so(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A list that holds the focus itself marks what is chosen aria-selected, the option the
    keys are on too: both are chosen, and the list takes several."""
    await ok(provider, ctx, "browser.open", url=site.url("/chosen-options"))
    listed = await _by_label(provider, ctx)
    assert (listed["Olive"]["highlighted"], listed["Olive"]["selected"]) == (True, True)
    assert listed["Cheese"]["selected"] is False
    assert (listed["Toppings"]["value"], listed["Toppings"]["multiple"]) == ("Ham, Olive", True)
    error = await refused(provider, ctx, "browser.type", selector="#toppings", value="Cheese")
    assert error.endswith(
        "click the option you want in it (where it takes several, verb.mouse with modifiers "
        '["Control"] adds one to those chosen).'
    )


async def test_a_submit_into_a_list_filtered_as_typed_picks_from_the_whole_text(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The menu suggests once typing pauses, and Enter takes its first item: pressed as the
    text went in, it found nothing suggested yet."""
    await _open(provider, site, ctx, "autocomplete.html")
    await ok(provider, ctx, "browser.type", selector="#tags", value="Scal", submit=True)
    assert await out_line(provider, ctx) == "out: chose Scala"
    # fill_form waits for what its text set off, as type does: the suggestions are shown.
    await ok(provider, ctx, "verb.fill_form", fields=[{"selector": "#tags", "value": "Ja"}])
    assert await in_page(provider, ctx, "getComputedStyle(menu).display") != "none"


async def test_a_click_on_a_menu_opened_under_the_resting_pointer_picks_the_item_clicked(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The menu opens under the pointer where a click left it: the page takes the item
    there only at the pointer's next move (jQuery UI's menus), which a jump straight to
    another item would make the one chosen."""
    await _open(provider, site, ctx, "autocomplete.html")
    await ok(provider, ctx, "browser.click", text="Start")
    await ok(provider, ctx, "browser.type", selector="#tags", value="ja")
    clicked = await ok(provider, ctx, "browser.click", text="JavaScript")
    assert clicked["label"] == "JavaScript"
    assert await out_line(provider, ctx) == "out: chose JavaScript"
    assert await in_page(provider, ctx, "document.getElementById('tags').value") == "JavaScript"


async def test_elements_that_behave_as_buttons_are_listed_and_clicked_by_text(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "clickables.html")
    labels = set(await _by_label(provider, ctx))
    assert {"Rename", "Duplicate", "Delete", "✕"} <= labels
    assert any(label.startswith("Pro plan") for label in labels)
    await ok(provider, ctx, "browser.click", text="Pro plan")
    assert await out_line(provider, ctx) == "out: picked Pro plan"
    await ok(provider, ctx, "browser.click", text="Duplicate")
    assert await out_line(provider, ctx) == "out: menu Duplicate"


async def test_elements_a_page_listens_on_with_add_event_listener_are_listed(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """No role, no pointer cursor, no handler attribute: only DevTools sees their handlers.
    Icons, a section's heading and colour swatches are listed and clicked; the body and a
    container listening for all it holds are not listed."""
    await _open(provider, site, ctx, "listeners.html")
    listed = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(e["selector"], e.get("label")) for e in listed] == [
        ("#forward", "forward"),
        ("#archive", "Archive"),
        ("#section-head", "Shipping details"),
        ("#swatches > span:nth-of-type(1)", "swatch red"),  # named by the colour shown
        ("#swatches > span:nth-of-type(2)", "swatch blue"),
    ]
    await ok(provider, ctx, "browser.click", selector="#archive")
    assert await out_line(provider, ctx) == "out: archive"
    await ok(provider, ctx, "browser.click", text="Shipping details")
    assert "Ships in 2 days" in (await ok(provider, ctx, "browser.snapshot"))["text"]
    await ok(provider, ctx, "browser.click", text="swatch blue")
    assert await out_line(provider, ctx) == "out: swatch blue"


# --- 4. selectors keep their meaning -------------------------------------------------------


async def test_selectors_never_use_state_classes(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "tabs.html")
    first = await _by_label(provider, ctx)
    await ok(provider, ctx, "browser.click", text="Proin dolor")  # moves active and hover
    second = await _by_label(provider, ctx)
    for element in [*first.values(), *second.values()]:
        assert not STATE_CLASSES.search(element["selector"]), element
    assert first["Nunc tincidunt"]["selector"] == second["Nunc tincidunt"]["selector"]
    assert (second["Nunc tincidunt"]["selected"], second["Proin dolor"]["selected"]) == (
        False,
        True,
    )
    await ok(provider, ctx, "browser.click", selector=first["Nunc tincidunt"]["selector"])
    assert await out_line(provider, ctx) == "out: tab Nunc tincidunt"


async def test_a_selector_that_now_names_another_element_is_refused(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "clickables.html")
    duplicate = (await _by_label(provider, ctx))["Duplicate"]["selector"]
    # A new first item shifts the others: the same path now names "Rename".
    await in_page(
        provider,
        ctx,
        "document.querySelector('ul.menu').prepend(Object.assign("
        "document.createElement('li'), {textContent: 'Share'}))",
    )
    error = await refused(provider, ctx, "browser.click", selector=duplicate)
    assert error.startswith(f"{duplicate} no longer names the element your latest snapshot")
    assert await out_line(provider, ctx) == "out: none"
    # By text, the element is found on the page as it is now: nothing to contradict.
    await ok(provider, ctx, "browser.click", text="Rename")
    assert await out_line(provider, ctx) == "out: menu Rename"
    # After a new snapshot the agent's selectors are good again.
    fresh = (await _by_label(provider, ctx))["Duplicate"]["selector"]
    await ok(provider, ctx, "browser.click", selector=fresh)
    assert await out_line(provider, ctx) == "out: menu Duplicate"


async def test_an_element_rendered_again_with_the_same_label_is_still_clickable(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "spa.html")
    more = (await _by_label(provider, ctx))["Load more"]["selector"]
    # Frameworks re-create nodes on render; the listener moves with the page's own code.
    await in_page(
        provider,
        ctx,
        "(() => { const old = [...document.querySelectorAll('button')].at(-1);"
        " const copy = old.cloneNode(true); copy.onclick = () => old.click();"
        " old.replaceWith(copy); })()",
    )
    await ok(provider, ctx, "browser.click", selector=more)
    assert "out: loaded 24" in (await _snapshot(provider, ctx))["text"]


# --- 5. pages built by script ----------------------------------------------------------------


async def test_open_waits_for_a_page_built_after_its_load_event(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    opened = await _open(provider, site, ctx, "spa.html")
    assert (opened["settled"], opened["title"]) == (True, "Inventory")
    snapshot = await _snapshot(provider, ctx)
    assert len([e for e in snapshot["elements"] if e.get("role") == "link"]) == 12
    assert "notice" not in snapshot
    await ok(provider, ctx, "browser.click", text="Load more")
    snapshot = await _snapshot(provider, ctx)
    assert len([e for e in snapshot["elements"] if e.get("role") == "link"]) == 24
    assert "loaded 24" in snapshot["text"]


async def test_a_snapshot_of_an_empty_page_says_it_may_still_be_loading(
    chromium_path: str, site: Site, ctx: Context
) -> None:
    impatient = ChromiumProvider(
        ChromiumConfig(executable=chromium_path), timeouts=Timeouts(open_settle_s=1.0)
    )
    try:
        opened = await ok(impatient, ctx, "browser.open", url=site.url("/empty"))
        snapshot = await ok(impatient, ctx, "browser.snapshot")
    finally:
        await impatient.aclose()
    assert opened["settled"] is False  # nothing ever appeared: the wait ran out, no error
    assert "may still be loading" in snapshot["notice"]


# --- 6. big pages ----------------------------------------------------------------------------


async def test_a_big_page_is_read_around_the_viewport(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "docs-index.html")
    top = await _snapshot(provider, ctx)
    assert (top["elementsTruncated"], top["elementsAbove"]) == (True, 0)
    assert top["elementsBelow"] == top["interactiveElementsOnPage"] - len(top["elements"])
    assert (top["textTruncated"], top["textAboveChars"]) == (True, 0)
    assert top["textBelowChars"] > 0
    assert ZEBRA_TEXT not in top["text"]
    zebra = 'a[href="#api-1400"]'
    await ok(provider, ctx, "browser.scroll", selector=zebra)
    there = await _snapshot(provider, ctx)
    assert ZEBRA_TEXT in there["text"]
    assert there["textAboveChars"] > 0
    assert there["elementsAbove"] > 0
    listed = {element.get("label"): element for element in there["elements"]}
    assert listed[ZEBRA_TEXT]["inViewport"] is True
    assert top["textTotalChars"] == there["textTotalChars"]


async def test_an_entry_far_down_is_reached_without_reading_the_page(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "docs-index.html")
    await ok(provider, ctx, "browser.click", text=ZEBRA_TEXT)
    assert await out_line(provider, ctx) == f"out: open {ZEBRA_TEXT}"
    scoped = await _snapshot(provider, ctx, selector="#api-1400")
    assert [element["label"] for element in scoped["elements"]] == [ZEBRA_TEXT]


# --- 7. covered, disabled, hidden: refused at once, with what is in the way ------------------


async def test_a_click_on_a_covered_element_names_what_covers_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "overlay.html")
    seen = await _by_label(provider, ctx)
    assert seen["Buy now"]["covered"] is True
    assert "covered" not in seen["Accept cookies"]
    error = await refused(provider, ctx, "browser.click", text="Buy now")
    assert error.startswith('#buy is covered by #cookie-banner (div "We use cookies')
    assert await out_line(provider, ctx) == "out: none"
    await ok(provider, ctx, "browser.click", text="Accept cookies")
    assert "covered" not in (await _by_label(provider, ctx))["Buy now"]
    await ok(provider, ctx, "browser.click", text="Buy now")
    assert await out_line(provider, ctx) == "out: bought"


async def test_a_modal_dialog_covers_the_page_behind_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "dialog-form.html")
    await ok(provider, ctx, "browser.click", text="Create new user")
    error = await refused(provider, ctx, "browser.click", selector="#create-user")
    assert error.startswith("#create-user is covered by div.ui-widget-overlay")
    await ok(provider, ctx, "browser.type", selector="#name", value="")
    await ok(provider, ctx, "browser.click", text="Create an account")
    name = (await _by_label(provider, ctx))["Name"]
    assert (name["value"], name["invalid"]) == ("", True)
    await ok(provider, ctx, "browser.type", selector="#name", value="Ada Lovelace")
    await ok(provider, ctx, "browser.click", text="Create an account")
    assert await out_line(provider, ctx) == "out: created Ada Lovelace"
    # Its Cancel, not the page's under it, is the Cancel a person sees while it is open.
    await ok(provider, ctx, "browser.click", text="Create new user")
    closed = await ok(provider, ctx, "browser.click", text="Cancel")
    assert closed["clicked"] != "#cancel-order"
    assert await in_page(provider, ctx, "getComputedStyle(dialog).display") == "none"
    assert (await ok(provider, ctx, "browser.click", text="Cancel"))["clicked"] == "#cancel-order"
    assert await out_line(provider, ctx) == "out: order cancelled"


async def test_a_button_the_page_enables_a_moment_later_is_waited_for_and_clicked(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/enabled-later"))
    clicked = await ok(provider, ctx, "browser.click", selector="#go")
    assert clicked["label"] == "Go"
    assert "Gone" in (await ok(provider, ctx, "browser.snapshot"))["text"]


async def test_disabled_and_hidden_targets_are_refused_before_any_input(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "stateful.html")
    error = await refused(provider, ctx, "browser.click", text="Locked")
    assert error.startswith("#locked is disabled, so nothing was clicked")
    assert await out_line(provider, ctx) == "out: none"
    await _open(provider, site, ctx, "datepicker.html")
    await ok(provider, ctx, "browser.click", selector="#date")
    day = (await _by_label(provider, ctx))["14"]["selector"]
    await ok(provider, ctx, "browser.click", text="14")  # picks it, and the calendar closes
    error = await refused(provider, ctx, "browser.click", selector=day)
    assert error.startswith(f"{day} is not visible")


# --- 8. answers say what happened -----------------------------------------------------------


async def test_dialogs_an_action_caused_are_in_its_answer(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "dialogs.html")
    alerted = await ok(provider, ctx, "browser.click", text="Show alert")
    assert alerted["dialogs"] == [{"type": "alert", "message": "Saved!", "answer": "dismissed"}]
    assert "notice" not in alerted  # an alert asks nothing
    asked = await ok(provider, ctx, "browser.click", text="Ask prompt")
    assert asked["dialogs"] == [{"type": "prompt", "message": "Your name?", "answer": "dismissed"}]
    assert asked["notice"].startswith("The page asked a question (a prompt) and got Cancel")
    assert await out_line(provider, ctx) == "out: prompt null"
    assert (await _snapshot(provider, ctx))["consoleProblems"] == []


# --- 9. frames and shadow roots --------------------------------------------------------------


async def test_frames_and_shadow_roots_are_listed_and_acted_on(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    # A cross-origin iframe loads in a process of its own; the page still settles.
    assert (await _open(provider, site, ctx, "frames.html"))["settled"] is True
    elements = (await _snapshot(provider, ctx))["elements"]
    selectors = [element["selector"] for element in elements]
    for wanted in ("#same >> #card", "#same >> #pay", "#cross >> #card", "#cross >> #pay"):
        assert wanted in selectors
    shadow = [s for s in selectors if s.startswith("body > todo-app >> ")]
    assert len(shadow) == 2
    cross_card = elements[selectors.index("#cross >> #card")]
    assert cross_card["bounds"]["y"] > 0  # placed in the page, not in its frame

    await ok(provider, ctx, "browser.type", selector="#cross >> #card", value="4242")
    error = await refused(provider, ctx, "browser.click", text="Pay")
    assert "#same >> #pay" in error
    assert "#cross >> #pay" in error
    # find looks into the frames, and places what it finds in the page as a snapshot does.
    found = (await ok(provider, ctx, "verb.find", text="Pay"))["elements"]
    by_selector = {element["selector"]: element for element in found}
    pay = elements[selectors.index("#cross >> #pay")]["bounds"]
    assert round(by_selector["#cross >> #pay"]["bounds"]["y"]) == round(pay["y"])
    assert "#same >> #pay" in by_selector
    # select_text does too, where the page itself does not show the text.
    selected = await ok(provider, ctx, "verb.select_text", text="inner: none")
    assert selected["selected"] == "inner: none"
    assert selected["selector"].startswith("#same >> ")
    await ok(provider, ctx, "browser.click", selector="#cross >> #pay")
    inner = await _snapshot(provider, ctx, selector="#cross")
    assert "inner: paid 4242" in inner["text"]
    assert "inner: none" in (await _snapshot(provider, ctx, selector="#same"))["text"]

    await ok(provider, ctx, "browser.type", selector=shadow[0], value="milk")
    await ok(provider, ctx, "browser.click", selector=shadow[1])
    assert await out_line(provider, ctx) == "out: added milk"
    for selector in selectors:  # every listed selector names exactly one element
        await ok(provider, ctx, "browser.inspect", selector=selector)


async def test_a_components_controls_are_listed_where_its_host_is(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A shadow root's nodes and the page's are of different trees, which the browser orders
    arbitrarily: they are listed in the order of their hosts."""
    await ok(provider, ctx, "browser.open", url=site.url("/shadow-order"))
    listed = [item["label"] for item in (await ok(provider, ctx, "browser.snapshot"))["elements"]]
    assert listed == ["Nickname", "Save", "Save page"]


async def test_a_frame_in_a_frame_is_listed_one_step_a_frame_and_found_by_text(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Each frame is one step of the selector (each was counted once per frame around it),
    and a click or find by text looks into frames in frames."""
    await ok(provider, ctx, "browser.open", url=site.url("/nest-1"))
    (button,) = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert button["selector"] == "#middle >> #inner >> body > button"
    await ok(provider, ctx, "browser.inspect", selector=button["selector"])
    (found,) = (await ok(provider, ctx, "verb.find", text="Deep button"))["elements"]
    assert found["selector"] == button["selector"]
    clicked = await ok(provider, ctx, "browser.click", text="Deep button")
    assert (clicked["clicked"], clicked["nowReads"]) == (button["selector"], "pressed")


async def test_an_editor_frame_the_focus_left_is_not_said_to_be_focused(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """An editor drawn in a frame (TinyMCE's) keeps its body as its document's active
    element once the focus moved to the page's own field: one element has the focus."""
    await ok(provider, ctx, "browser.open", url=site.url("/frame-editor"))
    await ok(provider, ctx, "browser.type", selector="#editor >> body", value="Hello")
    await ok(provider, ctx, "browser.type", selector="#subject", value="Hi")
    listed = (await _snapshot(provider, ctx))["elements"]
    assert [e["selector"] for e in listed if e.get("focused")] == ["#subject"]


async def test_a_click_in_a_frame_below_the_fold_brings_the_frame_into_view_first(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The frame's own document fits its element in view; the page around it must scroll
    too, or the press lands below the window, on the page."""
    await _open(provider, site, ctx, "frame-below.html")
    seen = await ok(provider, ctx, "browser.inspect", selector="#same >> #pay")
    assert (seen["inViewport"], seen["bounds"]["y"] > 1200) == (False, True)  # placed in the page
    await ok(provider, ctx, "browser.click", selector="#same >> #pay")
    assert "inner: paid" in (await _snapshot(provider, ctx, selector="#same"))["text"]
    await ok(provider, ctx, "browser.scroll", direction="top")
    await ok(provider, ctx, "browser.type", selector="#cross >> #card", value="4242")
    await ok(provider, ctx, "browser.click", selector="#cross >> #pay")
    assert "inner: paid 4242" in (await _snapshot(provider, ctx, selector="#cross"))["text"]
    assert await in_page(provider, ctx, "window.log") == []


async def test_icon_buttons_of_rows_redrawn_anew_say_their_row_and_a_stale_one_is_refused(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Every row is drawn anew after each change (a list framework's fresh keys), and its
    buttons have no name: each says its row, and the selector of one listed before a
    delete, which now names the next row's, is refused rather than pressed."""
    await _open(provider, site, ctx, "icon-rows.html")
    listed = (await _snapshot(provider, ctx))["elements"]
    deletes = [e for e in listed if e["selector"].endswith("button:nth-of-type(2)")]
    assert all(e.get("label", "") == "" for e in deletes)
    assert [e["group"].split()[0] for e in deletes] == ["Frozen", "Ice", "Eclair", "Cupcake"]
    await ok(provider, ctx, "browser.click", selector=deletes[0]["selector"])
    error = await refused(provider, ctx, "browser.click", selector=deletes[1]["selector"])
    assert error.startswith(f"{deletes[1]['selector']} no longer names the element")
    assert await in_page(provider, ctx, "window.log") == ["delete Frozen yoghurt"]


async def test_a_tables_row_action_listed_before_the_table_was_sorted_is_refused(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Every row's Actions cell reads "Edit Delete": sorted, the selector of Quinn Wong's
    Delete names Ada Diaz's, and a row whose first cell was rewritten in place holds another
    too; both are refused with the row each is in. A status changed in a row leaves it the
    same row."""
    await _open(provider, site, ctx, "users-table.html")
    deletes = [e for e in (await _snapshot(provider, ctx))["elements"] if e["label"] == "Delete"]
    quinn = deletes[0]["selector"]
    await ok(provider, ctx, "browser.click", selector="#by-name")
    error = await refused(provider, ctx, "browser.click", selector=quinn)
    assert error == (
        f"{quinn} no longer names the element your latest snapshot listed (the page changed: "
        'it is in "Ada Diaz" now, listed in "Quinn Wong"), so nothing was clicked; take a new '
        "snapshot."
    )
    first = next(e for e in (await _snapshot(provider, ctx))["elements"] if e["label"] == "Delete")
    await ok(provider, ctx, "browser.click", selector="#approve")  # its status only
    await ok(provider, ctx, "browser.click", selector=first["selector"])
    await ok(provider, ctx, "browser.click", selector="#rename")  # in place: another row
    error = await refused(provider, ctx, "browser.click", selector=first["selector"])
    assert 'it is in "Zoe Park" now, listed in "Ada Diaz"' in error
    assert await in_page(provider, ctx, "window.log") == ["delete Ada Diaz"]


async def test_a_row_a_virtual_list_drew_again_for_another_item_is_refused(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "icon-rows.html")
    listed = (await _snapshot(provider, ctx))["elements"]
    (third,) = [e for e in listed if e.get("group") == "Row 3"]
    assert third["label"] == "Price"  # as every row's is
    await ok(provider, ctx, "verb.mouse", action="wheel", selector="#rows", deltaY=90)
    error = await refused(provider, ctx, "browser.type", selector=third["selector"], value="2")
    assert 'it is in "Row 6" now, listed in "Row 3"' in error
    assert await in_page(provider, ctx, "window.log") == []


async def test_a_row_a_virtual_list_draws_again_as_it_is_scrolled_to_is_chased_to_its_item(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A row drawn below the list's view is listed; scrolled into view to be pressed, its
    node shows another contact, and the one row that now shows the contact listed is the one
    pressed, and named. The selector listed still names the other contact's row."""
    await _open(provider, site, ctx, "recycled-rows.html")
    listed = (await _snapshot(provider, ctx))["elements"]
    (thirteen,) = [e for e in listed if e.get("group") == "Contact 13"]
    assert thirteen["inViewport"] is False
    clicked = await ok(provider, ctx, "browser.click", selector=thirteen["selector"])
    assert await in_page(provider, ctx, "window.log") == ["Contact 13"]
    now = clicked["clicked"]
    assert now != thirteen["selector"]
    assert clicked["notice"] == (
        f"{thirteen['selector']} showed another item once scrolled into view (the list draws "
        f"its rows again as it scrolls): the item your snapshot listed there is {now} now, "
        "which was clicked."
    )
    await ok(provider, ctx, "browser.click", selector=now)  # the contact it now shows
    assert await in_page(provider, ctx, "window.log") == ["Contact 13", "Contact 13"]


async def test_a_field_of_a_virtual_list_typed_into_below_its_view_is_its_items(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "icon-rows.html")
    listed = (await _snapshot(provider, ctx))["elements"]
    (eighth,) = [e for e in listed if e.get("group") == "Row 8"]
    assert eighth["inViewport"] is False
    typed = await ok(provider, ctx, "browser.type", selector=eighth["selector"], value="2")
    assert typed["selector"] != eighth["selector"]
    assert typed["value"] == "2"
    assert await in_page(provider, ctx, "window.log") == ["price 8"]
    assert (
        await in_page(provider, ctx, "document.querySelector('.row[data-item=\"8\"] input').value")
        == "2"
    )


async def test_a_box_in_a_closed_details_is_not_listed_and_its_summary_opens_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The browser draws nothing of a closed <details> but its summary: a press where the
    box would be lands on the summary."""
    await _open(provider, site, ctx, "details.html")
    listed = [e["selector"] for e in (await _snapshot(provider, ctx))["elements"]]
    assert listed == ["#more > summary", "#save"]
    error = await refused(provider, ctx, "browser.click", selector="#invite")
    assert error == (
        "#invite is in a closed section, so nothing was clicked; open it first (click "
        '#more > summary (summary "Advanced")), then take a new snapshot.'
    )
    assert await in_page(provider, ctx, "window.log") == []
    await ok(provider, ctx, "browser.click", selector="#more > summary")
    assert (await ok(provider, ctx, "browser.click", selector="#invite"))["checked"] is True


async def test_find_says_a_frame_in_a_frame_below_the_window_is_out_of_view(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The inner frame is in its own frame's view, which reaches below the page's window."""
    await ok(provider, ctx, "browser.open", url=site.url("/nest-low-1"))
    (found,) = (await ok(provider, ctx, "verb.find", text="Deep button"))["elements"]
    assert (found["inViewport"], found["bounds"]["y"] > 800) == (False, True)


async def test_a_step_into_something_that_is_no_frame_or_host_is_refused(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "frames.html")
    error = await refused(provider, ctx, "browser.click", selector="#out >> button")
    assert error.startswith("#out is neither an iframe nor an element with an open shadow root")
    error = await refused(provider, ctx, "browser.click", selector="iframe >> #pay")
    assert error.startswith("No element matches") or "matches 2 elements" in error


# --- the corpus check ----------------------------------------------------------------------

EVERY_CONTROL: dict[str, tuple[str, dict[str, dict[str, Any]]]] = {
    "stateful.html": ("", {
        "More options": {"expanded": False}, "Shipping details": {"expanded": False},
        "Locked": {"disabled": True}, "Email": {"value": "not-an-email"},
        "Bio": {"value": "Hello there"}, "Size": {"value": "M"}, "Bold": {"pressed": False},
        "Select all": {"checked": "mixed"}, "Volume": {"value": "30 percent"},
        "Balance": {"value": "40"}, "Plan": {"value": "fixed"}, "Edit me": {},
    }),
    "checkboxradio.html": ("", {
        label: {"checked": False} for label in (
            "New York", "Paris", "London", "2 Star", "3 Star", "4 Star", "5 Star",
            "I agree to the terms", "Dark mode",
        )
    }),
    "tabs.html": ("", {
        "Nunc tincidunt": {"selected": True}, "Proin dolor": {"selected": False},
        "Aenean lacinia": {"selected": False},
    }),
    "selectmenu.html": ("#speed-button", {
        "Slower": {"role": "option"}, "Slow": {}, "Fast": {}, "Faster": {},
    }),
    "spinner.html": ("", {"Select a value:": {"value": "5"}, "Get value": {}}),
    "clickables.html": ("", {"✕": {}, "Rename": {}, "Duplicate": {}, "Delete": {}}),
    "overlay.html": ("", {"Buy now": {"covered": True}, "Accept cookies": {}}),
    "dialogs.html": ("", {"Show alert": {}, "Ask confirm": {}, "Ask prompt": {}}),
    "datepicker.html": ("#date", {"Date:": {"value": ""}, "Prev": {}, "Next": {}, "31": {}}),
}  # fmt: skip


@pytest.mark.parametrize("page", sorted(EVERY_CONTROL))
async def test_every_control_a_person_can_click_is_listed_with_its_state(
    provider: ChromiumProvider, site: Site, ctx: Context, page: str
) -> None:
    """Each page's controls as a person sees them (after opening a menu where one must be)."""
    opener, expected = EVERY_CONTROL[page]
    await _open(provider, site, ctx, page)
    if opener:
        await ok(provider, ctx, "browser.click", selector=opener)
    seen = await _by_label(provider, ctx)
    for label, state in expected.items():
        assert label in seen, (label, sorted(seen))
        for key, value in state.items():
            assert seen[label].get(key) == value, (label, key, seen[label])


async def test_unnamed_icon_buttons_are_listed_and_work(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "spinner.html")
    elements = (await _snapshot(provider, ctx))["elements"]
    arrows = [e for e in elements if e.get("missingAccessibleName")]
    assert [e["role"] for e in arrows] == ["button", "button"]
    up = min(arrows, key=lambda e: e["bounds"]["y"])
    clicked = await ok(provider, ctx, "browser.click", selector=up["selector"])
    assert clicked["clicked"] == up["selector"]
    assert (await _by_label(provider, ctx))["Select a value:"]["value"] == "6"


# --- patterns from UI kits: slotted text, redrawn rows, timers, feeds, odd controls ---------


async def test_shadow_controls_that_show_slotted_text_are_named_and_clickable(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "components.html")
    seen = await _by_label(provider, ctx)
    button, box = seen["Subscribe"], seen["I agree to the terms"]
    assert "covered" not in button
    assert (box["role"], box["checked"]) == ("checkbox", False)
    await ok(provider, ctx, "browser.click", selector=button["selector"])
    assert await out_line(provider, ctx) == "out: subscribed"
    checked = await ok(provider, ctx, "browser.click", selector=box["selector"])
    assert checked["checked"] is True
    assert await out_line(provider, ctx) == "out: terms true"


async def test_a_components_own_text_is_read_where_it_is_drawn(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "components.html")
    text = (await _snapshot(provider, ctx))["text"]
    # The badge and the label touch in one line, as drawn.
    card = "Blue kettle\nPrice: $25\nShips Monday, by post.\nOnly 3 leftSize Large"
    assert f"Subscribe\n{card}\nout: none" in text  # in its place in the page
    assert (await _snapshot(provider, ctx, selector="#card"))["text"] == card


async def test_a_page_that_is_one_web_component_opens_settled_and_reads_what_it_can(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    opened = await _open(provider, site, ctx, "wc-app.html")
    assert opened["settled"] is True  # not taken for a blank page still to be filled
    snapshot = await _snapshot(provider, ctx)
    assert snapshot["text"] == "Status\nAll systems normal"
    # A closed shadow root is said, not passed over: no script reads it (an undefined
    # element, drawn as nothing, is not named; nor an empty editor, which is a field).
    assert snapshot["notice"] == (
        "body > x-feedback draws content no script can read (a closed shadow root, most "
        "likely): its text and controls are not listed. browser.capture shows it; verb.mouse "
        "clicks it by x and y."
    )


async def test_a_redrawn_row_with_the_same_kind_of_control_is_not_mistaken_for_another(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "rows.html")
    boxes = [e["selector"] for e in (await _snapshot(provider, ctx))["elements"]][:3]
    await ok(provider, ctx, "browser.click", text="Clear first")  # the rows are drawn anew
    error = await refused(provider, ctx, "browser.click", selector=boxes[1])
    assert "no longer names the element your latest snapshot listed" in error
    assert await out_line(provider, ctx) == "out: none"


async def test_the_wait_after_a_click_covers_the_timers_it_started(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    opened = await _open(provider, site, ctx, "timing.html")
    assert opened["settled"] is True  # a price ticking every 50 ms does not hold it up
    products = await _by_label(provider, ctx)
    assert {"Blue Mug", "Red Cup"} <= set(products)  # aria-busy was waited out
    await ok(provider, ctx, "browser.click", text="Save changes")  # a toast after 300 ms
    assert "Changes saved" in (await _snapshot(provider, ctx))["text"]
    signed = await ok(provider, ctx, "browser.click", text="Sign in")  # a result after 600 ms
    assert signed["disabled"] is True
    assert signed["notice"] == (
        "The click went in; the page disabled #signin after it: it takes one press, waits to "
        "be enabled again (the next step's fields filled, a request answered), or has nothing "
        "more to do (a last page's Next, a first page's Back)."
    )
    assert (await _by_label(provider, ctx))["Signed in"]["disabled"] is True
    assert await out_line(provider, ctx) == "out: welcome"


async def test_scrolling_a_feed_waits_for_what_it_loads(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "feed.html")
    scrolled = await ok(provider, ctx, "browser.scroll", direction="bottom")
    assert scrolled["atBottom"] is False  # more posts arrived below
    labels = set(await _by_label(provider, ctx))
    assert "Like post 20" in labels


async def test_a_rows_selection_box_is_named_by_its_row_and_refused_once_the_row_changed(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The boxes name nothing: each is told by its row's first text, the header's as all
    rows; sorted in place, a box listed for Alice now in Carol's row is refused, not ticked."""
    await _open(provider, site, ctx, "table-rows.html")
    seen = await _by_label(provider, ctx)
    assert {"all rows", "Alice", "Bob", "Carol", "Fruit", "Apples"} <= set(seen)
    assert seen["Alice"]["labelGuessed"] is True
    alice = seen["Alice"]["selector"]
    await ok(provider, ctx, "browser.click", text="Sort by age")
    error = await refused(provider, ctx, "browser.click", selector=alice)
    assert 'it reads "Carol" now, listed as "Alice"' in error
    assert await out_line(provider, ctx) == "out: none"
    await ok(provider, ctx, "browser.click", text="Alice")
    assert await out_line(provider, ctx) == "out: selected Alice"


async def test_a_combobox_whose_search_field_is_out_of_sight_is_listed_by_its_box(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """react-select keeps its search field out of sight once a value is chosen: the combobox
    is listed by the box around it, with the value that box shows, and a click on that
    value presses the combobox, where the field's cell drawn over it was called a cover."""
    await ok(provider, ctx, "browser.open", url=site.url("/hidden-search"))
    combobox = (await _by_label(provider, ctx))["Country"]
    assert (combobox["selector"], combobox["role"], combobox["value"]) == (
        "#country",
        "combobox",
        "Canada",
    )
    clicked = await ok(provider, ctx, "browser.click", text="Canada")
    assert clicked["clicked"] == "#country"
    assert await in_page(provider, ctx, "out.textContent") == "opened"


async def test_a_combobox_whose_box_shows_its_choice_beside_the_field_reads_that_choice(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The field stays in sight and holds no text: the value is what its box shows chosen,
    never its placeholder, and a press on the choice drawn over the field opens it."""
    await ok(provider, ctx, "browser.open", url=site.url("/choice-boxes"))
    seen = {
        element["selector"]: element for element in (await _snapshot(provider, ctx))["elements"]
    }
    assert (seen["#assignee"]["label"], seen["#assignee"]["value"]) == ("Search a person", "")
    assert (seen["#country"]["label"], seen["#country"]["value"]) == ("Country", "Canada")
    assert seen["#tags"]["value"] == "react"  # a chip, though a press on it removes it
    await ok(provider, ctx, "browser.click", text="Pick Grace Wilson")
    picked = await ok(provider, ctx, "browser.click", selector="#assignee")
    assert picked["value"] == "Grace Wilson"
    assert await in_page(provider, ctx, "out.textContent") == "opened"
    # A range's two fields share a box whose "to" between them is no choice of either.
    assert {seen["#from"]["value"], seen["#until"]["value"]} == {""}
    # A read-only one takes no text: a click opens its list.
    error = await refused(provider, ctx, "browser.type", selector="#country", value="Brazil")
    assert error == (
        "#country is a read-only combobox, so nothing was typed; click it, then click the "
        "option you want (a snapshot lists them)."
    )


async def test_text_typed_into_a_combobox_that_only_searches_says_nothing_is_chosen(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/search-combobox"))
    typed = await ok(provider, ctx, "browser.type", selector="#land", value="Ca")
    assert (typed["value"], typed["expanded"]) == ("Ca", True)
    assert typed["notice"].startswith(
        "#land shows its list open after the text: nothing is chosen by typing."
    )
    entered = await ok(provider, ctx, "browser.type", selector="#land", value="Canada", submit=True)
    assert entered["notice"].startswith("#land still shows its list open after Enter: Enter may")
    chosen = await ok(provider, ctx, "browser.click", text="Canada")
    assert "notice" not in chosen
    field = await ok(provider, ctx, "browser.inspect", selector="#land")
    assert (field["value"], field["expanded"]) == ("Canada", False)


async def test_controls_drawn_as_radix_and_headless_ui_draw_them_are_named_and_reached(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/radix-like"))
    await in_page(provider, ctx, "menu.focus()")
    listed = await _snapshot(provider, ctx)
    by_selector = {element["selector"]: element for element in listed["elements"]}
    # The chosen value lets the pointer through to its trigger: no element of its own.
    assert [e["selector"] for e in listed["elements"] if e["label"] == "Timezone GMT"] == ["#tz"]
    assert by_selector["#terms"]["label"] == "Accept terms"  # a button its label names
    assert by_selector["#m2"].get("highlighted") is True  # the item the focused menu is on
    # The hidden select's control is its trigger before it, never the form's Save after it.
    error = await refused(provider, ctx, "browser.click", text="PST")
    assert "shows its own control for, #tz (button" in error
    assert await out_line(provider, ctx) == "none"
    # A click by the label's words is a click on the control it names.
    ticked = await ok(provider, ctx, "browser.click", text="Accept terms")
    assert (ticked["checked"], "notice" in ticked) == (True, False)
    await ok(provider, ctx, "browser.click", text="Lock")
    blocked = await refused(provider, ctx, "browser.click", selector="#behind")
    assert blocked.startswith("#behind is out of reach while something else is open")
    await ok(provider, ctx, "browser.click", text="Lock")
    # A modal that lets no pointer reach the page behind it (Radix's): the same.
    await ok(provider, ctx, "browser.click", text="Open sheet")
    behind = await refused(provider, ctx, "browser.click", selector="#drop")
    assert behind.startswith("#drop is out of reach while something else is open: the page")
    assert "#sheet (div" in behind
    await in_page(provider, ctx, "document.body.style.pointerEvents = ''; sheet.hidden = true")
    assert by_selector["#drop"]["label"] == "Drop"
    dropped = await ok(provider, ctx, "browser.click", text="Drop")
    assert "notice" not in dropped  # a button styled for danger is no message of the page's
    # See-through until the pointer is over its box, as a number field's arrows are.
    unseen = await refused(provider, ctx, "browser.click", selector="#more")
    assert unseen.startswith("#more is see-through until the pointer is over what holds it")
    await ok(provider, ctx, "verb.hover", selector="#number")
    await ok(provider, ctx, "browser.click", selector="#more")
    assert await out_line(provider, ctx) == "more"


async def test_a_see_through_select_over_the_box_it_chooses_for_is_listed_and_set(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A person presses the box that shows the year, and the select drawn over it opens: it
    is listed by that box, and type chooses its option."""
    await ok(provider, ctx, "browser.open", url=site.url("/overlaid-select"))
    (year,) = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert (year["selector"], year["label"], year["value"]) == ("#year", "2000", "2000")
    await ok(provider, ctx, "browser.type", selector="#year", value="1990")
    assert await in_page(provider, ctx, "out.textContent") == "year 1990"


async def test_a_select_listed_in_part_says_how_many_options_it_has(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Only the first 25 options are listed: the count of all says the rest exist, and type
    chooses one of them."""
    await ok(provider, ctx, "browser.open", url=site.url("/long-select"))
    number = (await _by_label(provider, ctx))["Number"]
    assert (number["options"][-1], number["optionsTotal"]) == ("24", 100)
    chosen = await ok(provider, ctx, "browser.type", selector="#number", value="56")
    assert chosen["value"] == "56"


async def test_controls_beyond_text_fields_are_set_and_read(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "controls.html")
    seen = await _by_label(provider, ctx)
    assert "" not in seen  # the transparent native input behind the custom select is not listed
    assert seen["2"]["current"] == "page"
    assert seen["Name"]["sort"] == "ascending"  # its header cell's, as the button sorts by it
    assert seen["Note"]["value"] == "Ship on Monday"
    toppings = seen["Toppings"]
    assert (toppings["multiple"], toppings["options"]) == (True, ["Cheese", "Olives", "Ham"])
    assert (await ok(provider, ctx, "browser.type", selector="#spice", value="7"))["value"] == "7"
    assert await out_line(provider, ctx) == "out: spice 7"
    chosen = await ok(provider, ctx, "browser.type", selector="#toppings", value="Cheese, Ham")
    assert chosen["value"] == "Cheese, Ham"
    assert await out_line(provider, ctx) == "out: toppings Cheese+Ham"
    error = await refused(provider, ctx, "browser.click", text="Sold out")
    assert error.startswith("#sold does not take clicks")
    assert "covered" not in seen["Sold out"]
    await ok(provider, ctx, "browser.click", text="Slide two")  # clipped: brought into view first
    assert (await ok(provider, ctx, "browser.snapshot"))["url"].endswith("#two")


async def test_fields_take_a_value_as_a_person_enters_it_and_refuse_one_they_cannot_take(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A value a field cannot take is refused, the field left as it was, and the page's console
    warns of nothing: the page never got the value."""
    await _open(provider, site, ctx, "controls.html")
    typed = await ok(provider, ctx, "browser.type", selector="#when", value="2026-12-24")
    assert typed["value"] == "2026-12-24"
    assert await out_line(provider, ctx) == "out: when 2026-12-24"
    error = await refused(provider, ctx, "browser.type", selector="#when", value="next Friday")
    assert "date field and does not take 'next Friday'" in error
    error = await refused(provider, ctx, "browser.type", selector="#when", value="2026-02-30")
    assert error == (
        "#when is a date field, and '2026-02-30' is written as it takes one but names no day "
        "there is (a 30th of February, a 13th month, 25 o'clock); give one that exists. "
        "Nothing was changed."
    )
    assert await out_line(provider, ctx) == "out: when 2026-12-24"
    # Refused unseen: the page's console holds no warning of a value it never got.
    assert (await ok(provider, ctx, "browser.snapshot"))["consoleProblems"] == []
    error = await refused(provider, ctx, "browser.type", selector="#qty", value="a dozen")
    assert error.startswith("#qty takes a number")
    error = await refused(provider, ctx, "browser.type", selector="#spice", value="13")
    assert error == (
        "#spice is a range from 0 to 10 in steps of 1, which '13' is not on; give one of its "
        "values. Nothing was changed."
    )
    error = await refused(provider, ctx, "browser.type", selector="#code", value="B-2")
    assert error == (  # and it was not even focused
        "#code is read-only; nothing was typed. Where the page sets it with a picker (a "
        "calendar, a list), click it and choose there."
    )
    error = await refused(provider, ctx, "browser.type", selector="#size", value="M")
    assert error == '#size\'s option "M" is disabled; nothing was chosen.'
    seen = await _by_label(provider, ctx)
    assert [seen[label]["value"] for label in ("Deliver on", "Quantity", "Code", "Size")] == [
        "2026-12-24",
        "1",
        "A-1",
        "S",
    ]
    assert await out_line(provider, ctx) == "out: when 2026-12-24"  # nothing refused changed
    assert (await ok(provider, ctx, "browser.type", selector="#qty", value="12"))["value"] == "12"
    assert await out_line(provider, ctx) == "out: qty 12"
    note = await ok(provider, ctx, "browser.type", selector="#note", value="Ship on Friday")
    assert note["value"] == "Ship on Friday"  # what it held is replaced, not added to
    assert await out_line(provider, ctx) == "out: note Ship on Friday"


async def test_a_control_inside_its_label_is_named_by_the_labels_own_text(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "labels.html")
    labels = [e.get("label") for e in (await _snapshot(provider, ctx))["elements"]]
    assert labels == [
        "Monday digest", "Turn on notifications", "I accept", "I decline", "Country",
        "Monday plan",
    ]  # fmt: skip
    await ok(provider, ctx, "browser.click", text="I accept")
    accepted = (await _by_label(provider, ctx))["I accept"]
    assert accepted["checked"] is True
