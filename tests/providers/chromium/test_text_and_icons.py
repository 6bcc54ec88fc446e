"""Text with no element of its own, and controls with no name of their own (issue 24).

A click by text that names part of an element's text (one file of a folder drawn as lines of
one item, one word of an inbox item's "Reply Forward") presses that text, not the middle of
the element. Icon-only controls and SVG shapes with handlers are listed, named by what the
page offers or, as a marked guess, by their icon class. Each test checks what the page itself
recorded (``widgets/filetree.html``, ``inbox.html``, ``icons.html``).
"""

from __future__ import annotations

from typing import Any

import pytest

from browserhost.contract import Context
from browserhost.providers.chromium import ChromiumProvider
from browserhost.render import element_notes

from .driving import in_page, ok, out_line, refused
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def _open(provider: ChromiumProvider, site: Site, ctx: Context, page: str) -> None:
    await ok(provider, ctx, "browser.open", url=site.url(f"/w/{page}"))


async def _elements(provider: ChromiumProvider, ctx: Context) -> list[dict[str, Any]]:
    elements: list[dict[str, Any]] = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    return elements


# --- a click by text on part of an element's text ---------------------------------------------


async def test_a_click_by_text_presses_that_file_in_a_folder_drawn_as_one_item(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "filetree.html")
    clicked = await ok(provider, ctx, "browser.click", text="Kasie")
    assert (clicked["clicked"], clicked["label"]) == ("#people", "Kasie")
    assert await out_line(provider, ctx) == "out: open people/Kasie"
    await ok(provider, ctx, "browser.click", text="teodoro")
    assert await out_line(provider, ctx) == "out: open people/Teodoro"
    await ok(provider, ctx, "browser.click", text="todo.txt")  # words on one line
    assert await out_line(provider, ctx) == "out: open drafts/todo.txt"


async def test_a_click_by_text_presses_that_word_of_a_row_of_actions(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "inbox.html")
    clicked = await ok(provider, ctx, "browser.click", text="Forward")
    assert clicked["label"] == "Forward"
    assert clicked["clicked"] == "#actions-1 > span:nth-of-type(2)"  # the element pressed
    assert await out_line(provider, ctx) == "out: forward mail-1"
    await ok(provider, ctx, "browser.click", text="Reply")
    assert await out_line(provider, ctx) == "out: reply mail-1"


async def test_a_click_by_text_presses_the_item_that_shows_only_a_mark_beside_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/handles"))
    clicked = await ok(provider, ctx, "browser.click", text="Bonds")
    assert clicked["clicked"] == "#list > li:nth-of-type(2)"
    assert await out_line(provider, ctx) == "out: Bonds"
    await ok(provider, ctx, "browser.click", text="stocks")
    assert await out_line(provider, ctx) == "out: Stocks"


async def test_a_click_by_text_presses_the_words_of_a_box_that_holds_more_after_them(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A board's column names itself with words of its own before the cards it holds: a
    click by those words presses them, on the column, not a card."""
    await _open(provider, site, ctx, "board.html")
    clicked = await ok(provider, ctx, "browser.click", text="Done")
    assert clicked["clicked"] == "#done"
    assert await out_line(provider, ctx) == "out: done"
    await ok(provider, ctx, "browser.click", text="To do")
    assert await out_line(provider, ctx) == "out: todo"


async def test_a_click_by_text_that_runs_from_words_into_a_link_presses_that_link(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Of two "more" links in a paragraph, the words before one and its own ("after pears
    more") name that one; text over two links, or over no control at all, names none, and
    the refusal for the latter says which element's words hold it."""
    await ok(provider, ctx, "browser.open", url=site.url("/two-mores"))
    clicked = await ok(provider, ctx, "browser.click", text="after pears more")
    assert (clicked["clicked"], clicked["label"]) == ('a[href="#b"]', "more")
    assert (await ok(provider, ctx, "browser.snapshot"))["url"].endswith("#b")
    await ok(provider, ctx, "browser.click", text="More ipsum ipsum")  # the words after it
    assert (await ok(provider, ctx, "browser.snapshot"))["url"].endswith("#a")
    both = await refused(
        provider, ctx, "browser.click", text="more ipsum " + "ipsum " * 39 + "after pears more"
    )
    assert both.startswith('No visible element has the text "more ipsum')
    plain = await refused(provider, ctx, "browser.click", text="ipsum after pears")
    assert plain.startswith(
        '"ipsum after pears" shows only among other words, in body > p (p "Intro words here. '
    )
    assert plain.endswith(
        "which is no control: nothing was clicked. To click there anyway, click body > p by "
        "selector; to select those words, use verb.select_text."
    )


async def test_a_click_by_text_finds_the_words_a_web_component_shows(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Words a component draws in its open shadow root, in a box that is no control (a drop
    zone, an item the page listens for at the document), are found by their text as the
    page's own are: the snapshot reads them, and a click by them presses them."""
    await ok(provider, ctx, "browser.open", url=site.url("/shadow-words"))
    assert "Shadow zone" in (await ok(provider, ctx, "browser.snapshot"))["text"]
    clicked = await ok(provider, ctx, "browser.click", text="Shadow zone")
    assert clicked["clicked"] == "#w >> #zone"
    assert await out_line(provider, ctx) == "out: zone"


async def test_a_click_by_a_text_that_only_part_of_a_name_holds_says_whose_name_it_was(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """No control reads "Delete" exactly: the one whose name holds it is clicked, and the
    answer says it matched only in part, naming it (all of its name, where the press went to
    those words of it); an exact match says nothing of the kind."""
    await ok(provider, ctx, "browser.open", url=site.url("/partly-named"))
    clicked = await ok(provider, ctx, "browser.click", text="Delete")
    assert clicked["notice"] == (
        'No element reads exactly "Delete": this clicked the one whose name holds it, '
        '"Delete all messages".'
    )
    assert "notice" not in await ok(provider, ctx, "browser.click", text="archive")
    # Pressed on those words of its text: the name quoted is the whole of it still.
    item = await ok(provider, ctx, "browser.click", text="Item 4")
    assert item["notice"] == (
        'No element reads exactly "Item 4": this clicked the one whose name holds it, '
        '"Item 4 - apple".'
    )


async def test_arrows_named_only_by_the_action_the_page_keeps_on_them_are_told_apart(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/month-arrows"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(e["label"], e.get("labelGuessed")) for e in elements] == [
        ("prev", True),
        ("next", True),
    ]


async def test_words_drawn_apart_inside_one_control_stay_apart_in_its_name(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "badges.html")
    labels = {e["selector"]: e["label"] for e in await _elements(provider, ctx)}
    names = [labels[f"#{name}"] for name in ("inbox", "sent", "save", "day", "note", "shout")]
    assert names == ["Inbox 12", "Sent 3", "Save draft", "Monday", "Note1", "NEW 4"]
    clicked = await ok(provider, ctx, "browser.click", text="Inbox 12")
    assert clicked["label"] == "Inbox 12"
    assert await out_line(provider, ctx) == "out: open inbox"
    await ok(provider, ctx, "browser.click", text="Save draft")
    assert await out_line(provider, ctx) == "out: save draft"


async def test_a_click_given_a_selector_and_a_text_presses_only_where_they_agree(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The text checks what the selector names: where the element does not show it, the two
    name different elements and nothing is clicked."""
    await _open(provider, site, ctx, "board.html")
    error = await refused(provider, ctx, "browser.click", selector="#card-1", text="Book the room")
    assert error == (
        '#card-1 reads "Write the report", not "Book the room", so nothing was clicked: give '
        "the selector or the text alone, or take a new snapshot."
    )
    assert await out_line(provider, ctx) == "out: none"
    await ok(provider, ctx, "browser.click", selector="#card-2", text="book the ROOM")
    assert await out_line(provider, ctx) == "out: card-2"


async def test_a_checkbox_or_radio_hidden_in_its_label_is_listed_once_with_what_it_shows(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A radio card's styled box and a checkbox's drawn tick, in the label of a control
    hidden there, are the control: listed once, clicked by its text, and a press on the box
    answers the control's state."""
    await _open(provider, site, ctx, "board.html")
    listed = [
        (element["selector"], element.get("label"))
        for element in await _elements(provider, ctx)
        if element["tag"] != "div"
    ]
    assert listed == [
        ('input[name="plan"][value="free"]', "Free"),
        ('input[name="plan"][value="pro"]', "Pro"),
        ("#news", "Send me news"),
    ]
    pro = await ok(provider, ctx, "browser.click", text="Pro")
    assert (pro["clicked"], pro["checked"]) == ('input[name="plan"][value="pro"]', True)
    free = await ok(
        provider, ctx, "browser.click", selector="fieldset > label:nth-of-type(1) > span"
    )
    assert free["checked"] is True
    assert await in_page(provider, ctx, "document.querySelector('[value=pro]').checked") is False


async def test_a_file_drawn_under_something_else_is_refused_and_nothing_is_clicked(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "filetree.html")
    error = await refused(provider, ctx, "browser.click", text="photo.png")
    assert error.startswith('A press in the middle of "photo.png" in #locked would reach ')
    assert "nothing was clicked" in error
    error = await refused(provider, ctx, "browser.click", text="copy.txt")
    assert error.startswith('"copy.txt" appears 2 times in the text of #twice')
    # Several elements hold the text: the candidates are listed, as for whole labels.
    error = await refused(provider, ctx, "browser.click", text="readme.txt")
    assert error.startswith('"readme.txt" matches 2 elements: #drafts (li "draft.txt')
    assert "#old (li" in error
    assert await out_line(provider, ctx) == "out: none"


# --- what is clickable but unnamed, or was not listed ------------------------------------------


async def test_icon_actions_inside_a_clickable_card_are_listed_with_guessed_names(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "icons.html")
    elements = await _elements(provider, ctx)
    tweet = [e for e in elements if e["tag"] in ("article", "span")][:5]
    # The tweet, and each action with a cursor rule of its own; not the text it inherits to.
    assert [(e["tag"], e.get("label")) for e in tweet] == [
        ("article", "Shipping the new release today."),
        ("span", "reply"),
        ("span", "retweet"),
        ("span", "star"),
        ("span", "Delete"),
    ]
    star = tweet[3]
    assert (star["labelGuessed"], star["missingAccessibleName"]) == (True, True)
    assert element_notes(star)[0] == "guessed label"
    assert "labelGuessed" not in tweet[4]  # its title names it
    await ok(provider, ctx, "browser.click", selector=tweet[2]["selector"])
    assert await out_line(provider, ctx) == "out: retweet"
    await ok(provider, ctx, "browser.click", selector=star["selector"])
    assert await out_line(provider, ctx) == "out: star"
    # An icon named only by its test id, as Material UI's are: a chip's delete.
    chip = next(e for e in elements if e["selector"] == "#drop-red")
    assert (chip["label"], chip["labelGuessed"]) == ("cancel", True)
    await ok(provider, ctx, "browser.click", text="cancel")
    assert await out_line(provider, ctx) == "out: removed Red"
    # Without its test id: known by its path data, the icon set's or the chip's own.
    trash = next(e for e in elements if e["selector"] == "#trash")
    assert (trash["label"], trash["labelGuessed"]) == ("delete", True)
    assert next(e for e in elements if e["selector"] == "#open-list")["label"] == "arrow drop down"


async def test_icons_named_only_by_a_plain_class_are_listed_with_it_and_clicked_by_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "icons.html")
    elements = await _elements(provider, ctx)
    controls = [e for e in elements if e.get("label") in ("reply", "like", "share")][1:]
    assert [(e["label"], e["labelGuessed"]) for e in controls] == [
        ("reply", True),
        ("like", True),
        ("share", True),
    ]
    await ok(provider, ctx, "browser.click", selector=controls[1]["selector"])
    assert await out_line(provider, ctx) == "out: post-2 like"
    await ok(provider, ctx, "browser.click", text="share")  # by the name it was listed with
    assert await out_line(provider, ctx) == "out: post-2 btn-share"
    # Of several classes, the one naming a control's part: a select's caret.
    caret = next(e for e in elements if e["selector"] == "i.el-icon")
    assert (caret["label"], caret["labelGuessed"]) == ("select caret", True)


async def test_icons_drawn_as_an_x_or_three_bars_are_guessed_close_and_menu(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """An icon of bare shapes, named nowhere, is known by what it draws: an X, as two strokes
    or a filled cross, is "close", three bars "menu"; a plus or a tick is neither, and stays
    unnamed. A click by the guessed name presses it."""
    await _open(provider, site, ctx, "marks.html")
    named = {
        e["selector"]: (e.get("label"), e.get("labelGuessed"))
        for e in await _elements(provider, ctx)
    }
    assert named == {
        "#menu": ("menu", True),
        "#dismiss": ("close", True),
        "#shut": ("close", True),
        "#plus": (None, None),
        "#tick": (None, None),
    }
    await ok(provider, ctx, "browser.click", selector="#shut")
    assert await out_line(provider, ctx) == "out: shut"
    await ok(provider, ctx, "browser.click", text="close")  # the one left
    assert await out_line(provider, ctx) == "out: dismiss"


async def test_an_image_maps_regions_are_listed_where_they_are_drawn_and_clicked_there(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """An <area> is drawn nowhere itself: it is the part of its picture its shape covers.
    Listed as a link with those bounds, it is clicked there, by text or selector, the picture
    scrolled into view first."""
    await _open(provider, site, ctx, "imagemap.html")
    listed = (await ok(provider, ctx, "browser.snapshot", full=True))["elements"]
    regions = {e["label"]: (e["role"], e["bounds"]) for e in listed if e["tag"] == "area"}
    corner = "(({x, y}) => [Math.round(x), Math.round(y)])"
    picture = await in_page(
        provider, ctx, f"{corner}(document.querySelector('img').getBoundingClientRect())"
    )
    assert regions == {
        "North region": ("link", {"x": picture[0], "y": picture[1], "width": 150, "height": 100}),
        "South region": (
            "link",
            {"x": picture[0] + 185, "y": picture[1] + 110, "width": 80, "height": 80},
        ),
        "East region": (
            "link",
            {"x": picture[0] + 160, "y": picture[1] + 10, "width": 130, "height": 80},
        ),
    }
    await ok(provider, ctx, "browser.click", text="South region")
    assert await out_line(provider, ctx) == "out: South region"
    await ok(provider, ctx, "browser.click", selector='area[href="#east"]')  # a triangle
    assert await out_line(provider, ctx) == "out: East region"


async def test_svg_shapes_with_handlers_are_listed_and_hovered(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "icons.html")
    shapes = {e["selector"]: e for e in await _elements(provider, ctx) if e["tag"] != "span"}
    assert {"#mon", "#tue", "#wed"} <= set(shapes)
    assert shapes["#tue"]["label"] == "Tuesday"  # its <title>
    await ok(provider, ctx, "verb.hover", selector="#mon")
    assert await out_line(provider, ctx) == "out: tip Monday: 3 visits"
    await ok(provider, ctx, "verb.hover", selector="#tue")
    assert await out_line(provider, ctx) == "out: tip Tuesday: 5 visits"


async def test_an_element_with_something_smaller_drawn_over_its_middle_is_pressed_where_it_shows(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A pie menu's slice under its label, a button under a badge: not covered, and
    clicked beside what is drawn over it."""
    await ok(provider, ctx, "browser.open", url=site.url("/labelled-slices"))
    listed = {e["selector"]: e for e in await _elements(provider, ctx)}
    assert [listed[s].get("covered") for s in ("#left", "#right", "#wide")] == [None] * 3
    for selector in ("#right", "#left", "#wide"):
        clicked = await ok(provider, ctx, "browser.click", selector=selector)
        assert clicked["clicked"] == selector
        assert await out_line(provider, ctx) == f"out: {selector[1:]}"


async def test_an_icon_a_stylesheet_draws_as_text_is_named_by_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A "★" drawn by ::before names its button; an icon font's private glyph does not; two
    arrows are told apart by all of their classes; a picture by its file's name, unless
    that is a hash."""
    await ok(provider, ctx, "browser.open", url=site.url("/drawn-icons"))
    buttons = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(b.get("label"), b.get("labelGuessed")) for b in buttons] == [
        ("\u2605", None),
        ("trash", True),
        ("spinner up", True),
        ("spinner down", True),
        ("arrow left", True),
        ("chevron right", True),
        (None, None),
        ("send", True),
        ("star", True),
        ("reply", True),
        ("heart", True),
        ("slider handle", True),
        ("bold", True),
        ("Heading 1", None),
    ]
    assert buttons[-8]["missingAccessibleName"] is True
    await ok(provider, ctx, "browser.click", text="arrow left")
    assert await out_line(provider, ctx) == "back"
    await ok(provider, ctx, "browser.click", text="\u2605")
    assert await out_line(provider, ctx) == "starred"
    await ok(provider, ctx, "browser.click", text="spinner down")
    assert await out_line(provider, ctx) == "down"
    await ok(provider, ctx, "browser.click", text="send")  # its picture is send.svg
    assert await out_line(provider, ctx) == "sent"
    await ok(provider, ctx, "browser.click", text="slider handle")
    assert await out_line(provider, ctx) == "held"


async def test_classes_that_only_style_a_control_and_a_fields_colour_name_nothing(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """`-rotate-180` is no "rotate" slider, `bg-white` no "white" box, `form-radio` no "form
    radio", and code boxes, one lit, are no swatches to name by colour."""
    await ok(provider, ctx, "browser.open", url=site.url("/utility-classes"))
    listed = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(item["tag"], item.get("label")) for item in listed] == [
        ("input", None),
        ("input", None),
        ("input", None),
        ("div", "modal backdrop"),
        ("input", None),
        ("span", None),
    ]


async def test_a_toggle_whose_state_is_only_a_class_shows_it_as_marked(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A star the page marks `clicked`, a reply icon it marks `is-active`, a heart whose
    picture it swaps for heart-clicked.svg: their names stay theirs, and the mark is their
    state, in the click's answer and the snapshot."""
    await ok(provider, ctx, "browser.open", url=site.url("/drawn-icons"))
    star = await ok(provider, ctx, "browser.click", selector="#star")
    reply = await ok(provider, ctx, "browser.click", selector="#reply")
    assert (star["label"], star["marked"], reply["label"], reply["marked"]) == (
        "star",
        "clicked",
        "reply",
        "active",
    )
    heart = await ok(provider, ctx, "browser.click", selector="#heart")
    assert (heart["label"], heart["marked"]) == ("heart", "clicked")
    listed = {e["selector"]: e for e in await _elements(provider, ctx)}
    marks = [(listed[s]["label"], listed[s].get("marked")) for s in ("#star", "#reply", "#heart")]
    assert marks == [("star", "clicked"), ("reply", "active"), ("heart", "clicked")]
    assert "marked active" in element_notes(listed["#reply"])
    unmarked = await ok(provider, ctx, "browser.click", selector="#reply")
    assert "marked" not in unmarked


async def test_shapes_and_swatches_with_no_name_are_named_by_their_colour(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A person picks "the green triangle" or "the brown swatch" by its colour; icons on a
    common backdrop are not named by it."""
    await ok(provider, ctx, "browser.open", url=site.url("/shapes"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(e["tag"], e.get("label"), e.get("labelGuessed")) for e in elements] == [
        ("circle", "red", True),
        ("rect", "blue", True),
        ("polygon", "green", True),
        ("span", "brown", True),
        ("span", "pink", True),
        ("span", "magenta", True),
        ("span", "purple", True),
        ("span", "light red", True),
        ("span", "light green", True),
        ("span", "olive", True),
        ("span", "red", True),
        ("span", "dark yellow", True),
        ("span", "red", True),
        ("span", None, None),
        ("span", None, None),
    ]
    await ok(provider, ctx, "browser.click", text="green")
    assert await out_line(provider, ctx) == "triangle"


async def test_a_letter_that_ends_a_class_tells_kinds_apart(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A board's cells marked `mark-x` and `mark-o`: their names say whose mark it is."""
    await ok(provider, ctx, "browser.open", url=site.url("/marks"))
    named = {e["selector"]: e.get("label") for e in await _elements(provider, ctx)}
    assert (named["#c1"], named["#c2"]) == ("cell mark x", "cell mark o")
