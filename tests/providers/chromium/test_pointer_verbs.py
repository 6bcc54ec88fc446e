"""The pointer verbs (hover, drag, select_text, mouse) on pages that listen as widget
libraries do: each test reads what the page itself recorded."""

from __future__ import annotations

import json
from typing import Any

import pytest

from browserhost.contract import Context
from browserhost.providers.chromium import ChromiumProvider

from .driving import in_page, ok, out_line, refused
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def _open(provider: ChromiumProvider, site: Site, ctx: Context, page: str) -> Any:
    return await ok(provider, ctx, "browser.open", url=site.url(f"/w/{page}"))


def _under(end: dict[str, Any]) -> str:
    under: dict[str, Any] = end["under"]
    return f"{under['tag']} {under.get('label', '')}".strip()


# --- hover ----------------------------------------------------------------------------------


async def test_hover_by_text_moves_the_pointer_from_where_it_was(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "tabs.html")
    first = await ok(provider, ctx, "verb.hover", text="Proin dolor")
    assert (first["hovered"], first["label"]) == ('li[aria-controls="tabs-2"]', "Proin dolor")
    assert first["start"] == first["end"]  # nothing had moved the pointer on this page yet
    second = await ok(provider, ctx, "verb.hover", text="Aenean lacinia")
    assert (second["start"]["x"], second["start"]["y"]) == (first["end"]["x"], first["end"]["y"])
    assert _under(second["end"]) == "a Aenean lacinia"
    assert second["title"] == "Tabs"
    hovered = await in_page(
        provider,
        ctx,
        "[...document.querySelectorAll('li.ui-state-hover')].map((li) => li.textContent)",
    )
    assert hovered == ["Aenean lacinia"]


async def test_hover_by_text_refuses_a_text_that_names_no_element(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "tabs.html")
    missing = await refused(provider, ctx, "verb.hover", text="No such tab")
    assert missing == (
        'No visible element has the text "No such tab"; take a new snapshot and hover by selector.'
    )
    neither = await refused(provider, ctx, "verb.hover")
    assert neither.startswith("arguments: give selector or text")
    assert neither.endswith("; nothing was done.")
    nowhere = await refused(provider, ctx, "verb.drag", text="Beta")
    assert nowhere == (
        "arguments: give one destination: toSelector, toText, or an offset (offsetX, offsetY); "
        "nothing was done."
    )


# --- drag -----------------------------------------------------------------------------------


async def test_drag_carries_an_html5_draggable_item_to_a_drop_zone(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "dragdrop.html")
    dragged = await ok(provider, ctx, "verb.drag", text="Apples", to_selector="#basket")
    assert await out_line(provider, ctx) == "out: dropped apples in basket"
    assert await in_page(provider, ctx, "window.log[0]") == "dragstart apples"
    assert dragged["label"] == "Apples"
    assert _under(dragged["start"]) == "li Apples"
    assert dragged["end"]["under"]["selector"] == "#basket"
    basket = await in_page(provider, ctx, "document.querySelector('#basket').textContent")
    assert "Apples" in basket


async def test_a_drag_whose_drop_the_page_refused_says_nothing_moved(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "dragdrop.html")
    listed = [e["label"] for e in (await ok(provider, ctx, "browser.snapshot"))["elements"]]
    assert "Urgent" in listed  # draggable, though only its document listens for drags
    error = await refused(provider, ctx, "verb.drag", text="Plums", to_selector="#freezer")
    assert error.startswith(
        '[data-id="plums"] was dragged, but the page did not take it where it was dropped, on '
        "#freezer: the drag ended with nothing dropped, so nothing moved."
    )
    assert await in_page(provider, ctx, "window.log") == ["dragstart plums", "dragend none"]
    # A drop the page takes is answered as before, its end told.
    await ok(provider, ctx, "verb.drag", text="Plums", to_selector="#basket")
    assert await in_page(provider, ctx, "window.log.slice(-1)") == ["dragend move"]


async def test_drag_refuses_a_drop_zone_something_covers_and_presses_nothing(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "dragdrop.html")
    covered = await refused(provider, ctx, "verb.drag", text="Pears", to_selector="#archive")
    assert covered.startswith(
        '#archive is covered by #notice (div "Archive is closed today"), so nothing was dragged.'
    )
    assert await in_page(provider, ctx, "window.log") == []


async def test_text_names_the_item_of_a_list_the_page_listens_on_as_a_whole(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The list holds the words among others; the item that reads them exactly is the one
    meant, not the list's middle."""
    await ok(provider, ctx, "browser.open", url=site.url("/nested-list"))
    hovered = await ok(provider, ctx, "verb.hover", text="Mockups")
    assert (hovered["hovered"], hovered["label"]) == ('[data-id="mock"]', "Mockups")


async def test_a_drag_between_items_a_box_scrolls_apart_says_how_to_drag_by_hand(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """No viewport shows both: a larger one would not help, the box is what scrolls them."""
    await ok(provider, ctx, "browser.open", url=site.url("/list-in-a-box"))
    error = await refused(provider, ctx, "verb.drag", text="Ticket 20", to_text="Ticket 1")
    assert "do not show together in #box, the box that scrolls them" in error
    assert "verb.mouse" in error


async def test_drag_reaches_drops_a_box_scrolls_away_or_a_drag_shows(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A drop a box of its own scrolls out of sight is as out of view as one off the page:
    brought into view where the dragged item still shows (a board's far column), or said
    apart in that box (below an item in a short list); a drop a page shows only once a
    drag began (a bin) is looked for then; one never shown is refused, the item let go
    where it was picked up."""
    await ok(provider, ctx, "browser.open", url=site.url("/drop-zones"))
    apart = await refused(provider, ctx, "verb.drag", selector="#invoice", to_selector="#paid")
    assert apart.startswith(
        "#invoice and #paid do not show together in #box, the box that scrolls them"
    )
    assert await out_line(provider, ctx) == "none"
    await ok(provider, ctx, "verb.drag", selector="#card", to_selector="#col4")
    assert await out_line(provider, ctx) == "card dropped on col4"
    await ok(provider, ctx, "verb.drag", text="Old draft", to_selector="#bin")
    assert await out_line(provider, ctx) == "draft dropped on bin"
    never = await refused(provider, ctx, "verb.drag", selector="#draft", to_selector="#never")
    assert never == (
        "#never is not visible, not even once the drag began, so nothing was dragged (#draft "
        "was let go where it was picked up); open what contains it, or take a new snapshot."
    )
    assert await out_line(provider, ctx) == "let go draft"
    # What is not dragged as the browser drags is not pressed for a drop that does not show:
    # a press and release there would be a click.
    note = await refused(provider, ctx, "verb.drag", selector="#note", to_selector="#never")
    assert note.startswith("#never is not visible, so nothing was dragged")
    assert await out_line(provider, ctx) == "let go draft"


async def test_drag_reorders_a_list_the_browsers_own_drag_and_drop_sorts(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The list moves the item past each one it is dragged over and then holds still for a
    moment (SortableJS): the drag's moves come a frame apart, so it passes them all."""
    await _open(provider, site, ctx, "native-sortable.html")
    await ok(provider, ctx, "verb.drag", text="Eggs", to_text="Apples", at="before")
    assert await out_line(provider, ctx) == "out: order e,a,b,c,d"


async def test_drag_reorders_a_sortable_list_that_waits_for_motion(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "sortable.html")
    await ok(provider, ctx, "verb.drag", text="Item 1", to_text="Item 3")
    assert await out_line(provider, ctx) == "out: order 2,3,1,4"
    await ok(provider, ctx, "verb.drag", text="Item 4", to_text="Item 2")
    assert await out_line(provider, ctx) == "out: order 4,2,3,1"


async def test_drag_drops_before_or_after_the_item_it_is_dropped_on(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A drop in the middle of an item lands before or after it by the way the pointer came
    (this list, as jQuery UI's, goes by which way it moves over an item); `at` says which."""
    await _open(provider, site, ctx, "sortable.html")
    await ok(provider, ctx, "verb.drag", text="Item 1", to_text="Item 3", at="before")
    assert await out_line(provider, ctx) == "out: order 2,1,3,4"  # the middle: after Item 3
    await ok(provider, ctx, "verb.drag", text="Item 4", to_text="Item 2", at="after")
    assert await out_line(provider, ctx) == "out: order 2,4,1,3"  # the middle: before Item 2
    refusal = await refused(provider, ctx, "verb.drag", text="Item 1", offset_y=40, at="after")
    assert "at places the drop on an element: give toSelector or toText" in refusal


async def test_drag_before_or_after_a_tree_node_lands_clear_of_its_middle_half(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A tree takes a drop in a node's middle half as into it: before and after land clear
    of that half's edges, where such a tree could take them either way."""
    await _open(provider, site, ctx, "tree-drop.html")
    await ok(provider, ctx, "verb.drag", text="Cheese", to_text="Apples", at="after")
    assert await out_line(provider, ctx) == "out: Cheese after Apples"
    await ok(provider, ctx, "verb.drag", text="Apples", to_text="Cheese", at="before")
    assert await out_line(provider, ctx) == "out: Apples before Cheese"
    await ok(provider, ctx, "verb.drag", text="Apples", to_text="Bananas")
    assert await out_line(provider, ctx) == "out: Apples into Bananas"


async def test_drag_by_text_drops_on_the_middle_of_the_tile_the_text_labels(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A tile's name is a small label at its top: dropped there, the pointer never passes the
    tile's middle, and a sortable grid that waits for that (jQuery UI's) moves nothing."""
    await ok(provider, ctx, "browser.open", url=site.url("/tiles"))
    dragged = await ok(provider, ctx, "verb.drag", text="A", to_text="D")
    assert await out_line(provider, ctx) == "out: order B,C,D,A,E,F"
    assert dragged["end"]["under"]["tag"] == "li"  # the tile, below its label
    await ok(provider, ctx, "verb.drag", text="E", to_text="C", at="before")
    assert await out_line(provider, ctx) == "out: order B,E,C,D,A,F"


async def test_drag_drops_into_a_shape_drawn_as_an_outline(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A hollow shape's inside shows the drawing it is in, or a shape drawn under it: the
    pointer goes through to those, as a person's does, and the page takes the drop by where
    it is."""
    await ok(provider, ctx, "browser.open", url=site.url("/outlines"))
    into_box = await ok(provider, ctx, "verb.drag", selector="#tri", to_selector="#box")
    assert await out_line(provider, ctx) == "out: in box"
    assert into_box["end"]["under"]["selector"] == "#drawing"
    into_frame = await ok(provider, ctx, "verb.drag", selector="#tri", to_selector="#frame")
    assert await out_line(provider, ctx) == "out: in frame"
    assert into_frame["end"]["under"]["selector"] == "#panel"


async def test_drag_onto_an_item_cut_off_by_its_box_says_whether_scrolling_helps(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Each item's middle lies below the box that holds it, where the next element is drawn:
    that one does not cover it, and only the list a person scrolls can show it."""
    await ok(provider, ctx, "browser.open", url=site.url("/outlines"))
    scrolled = await refused(provider, ctx, "verb.drag", selector="#tri", to_selector="#far")
    assert scrolled == (
        "#far is outside the visible part of its container, so nothing was dragged; scroll to "
        "it with browser.scroll, or take a new snapshot."
    )
    clipped = await refused(provider, ctx, "verb.drag", selector="#tri", to_selector="#cut")
    assert clipped.startswith(
        "#cut is cut off where the drop would go by a box that shows only part of what it holds "
        "and that a person cannot scroll"
    )
    assert await out_line(provider, ctx) == "out: none"


async def test_drag_by_offset_moves_a_draggable_box_by_that_much(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "sortable.html")
    dragged = await ok(provider, ctx, "verb.drag", selector="#draggable", offset_x=120, offset_y=40)
    assert await out_line(provider, ctx) == "out: box at 130,50"
    start, end = dragged["start"], dragged["end"]
    assert (end["x"] - start["x"], end["y"] - start["y"]) == (120, 40)
    assert end["under"]["selector"] == "#draggable"  # it came along


async def test_drag_by_offset_sets_a_sliders_value(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "slider.html")
    typed = await refused(provider, ctx, "browser.type", selector=".ui-slider-handle", value="75")
    assert typed == (
        ".ui-slider-handle is a slider the page draws, not a text field, so nothing was typed; "
        "set it with verb.press_key (ArrowRight, ArrowLeft, Home, End) once a click has focused "
        "it, or verb.drag its handle by offsetX."
    )
    await ok(provider, ctx, "verb.drag", text="Volume", offset_x=50)
    assert await out_line(provider, ctx) == "out: value 75"
    snapshot = await ok(provider, ctx, "browser.snapshot")
    [handle] = [e for e in snapshot["elements"] if e.get("label") == "Volume"]
    assert handle["value"] == "75"


async def test_drag_refuses_a_drop_point_outside_the_viewport(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "slider.html")
    outside = await refused(provider, ctx, "verb.drag", text="Volume", offset_x=5000)
    assert "is outside the viewport, which is 1280x800 CSS pixels; nothing was dragged." in outside
    assert await in_page(provider, ctx, "window.log") == []


# --- select_text ----------------------------------------------------------------------------


async def test_select_text_selects_with_the_mouse_across_inline_elements(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "highlight.html")
    chosen = await ok(provider, ctx, "verb.select_text", text="quick  brown\n fox")
    assert (chosen["selected"], chosen["selector"]) == ("quick brown fox", "#first")
    assert await out_line(provider, ctx) == 'out: selected "quick brown fox"'
    assert _under(chosen["start"]).startswith("p The quick brown")
    assert _under(chosen["end"]) == "b fox jumps"
    again = await ok(provider, ctx, "verb.select_text", text="brown fox jumps over")
    assert again["selected"] == "brown fox jumps over"  # pressed inside the first selection
    assert await out_line(provider, ctx) == 'out: selected "brown fox jumps over"'


async def test_select_text_takes_the_text_as_a_snapshot_shows_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Lines a line break sets apart, words a margin sets apart and a word with soft hyphens
    in it are selected by their text as a snapshot shows it."""
    await _open(provider, site, ctx, "highlight.html")
    text = (await ok(provider, ctx, "browser.snapshot"))["text"]
    for asked, selected, selector in (
        ("123 Main Street Springfield", "123 Main Street\nSpringfield", "#addr"),
        ("John Smith signed", "JohnSmith signed", "#apart"),
        (
            "Donaudampfschifffahrt f\u00e4hrt",
            "Donau\u00addampf\u00adschiff\u00adfahrt f\u00e4hrt",
            "#hyphened",
        ),
    ):
        assert " ".join(text.split()).count(asked) == 1, asked
        chosen = await ok(provider, ctx, "verb.select_text", text=asked)
        assert (chosen["selected"], chosen["selector"]) == (selected, selector)
        said = f"out: selected {json.dumps(selected, ensure_ascii=False)}"
        assert await in_page(provider, ctx, "window.log.at(-1)") == said
    # The words within one paragraph, before the same ending one item and starting the next.
    city = await ok(provider, ctx, "verb.select_text", text="New York")
    assert (city["selected"], city["selector"]) == ("New York", "#city")


async def test_select_text_selects_in_a_fields_value_the_field_focused(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A field's text is its value, which no press through the page reaches: selected in the
    field, as keys there would, for a copy (Control+c) to take."""
    await ok(provider, ctx, "browser.open", url=site.url("/copy-field"))
    chosen = await ok(provider, ctx, "verb.select_text", text="Kq7-ZZ19-xwv", selector="#src")
    assert chosen == {"selected": "Kq7-ZZ19-xwv", "selector": "#src"}
    focused = "[document.activeElement.id, document.activeElement.selectionStart]"
    assert await in_page(provider, ctx, focused) == ["src", 0]
    found = await ok(provider, ctx, "verb.select_text", text="ab-12")  # anywhere on the page
    assert found == {"selected": "AB-12", "selector": "#code"}


async def test_pointer_and_keys_answers_name_the_element_inside_iframes(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A button two iframes deep: the pointer's answer names it, not the outer iframe it is
    drawn in, and so does press_key's answer of where the keys went."""
    await ok(provider, ctx, "browser.open", url=site.url("/nest-1"))
    deep = "#middle >> #inner >> body > button"
    hovered = await ok(provider, ctx, "verb.hover", selector=deep)
    assert hovered["end"]["under"] == {"selector": deep, "tag": "button", "label": "Deep button"}
    pressed = await ok(provider, ctx, "verb.press_key", selector=deep, key="Shift")
    assert pressed["focus"] == f'{deep} (button "Deep button")'


async def test_a_drag_the_page_showed_no_change_for_says_so(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A text area dragged inside stays as it was, and a box the page does not move stays:
    the answer says the page showed no change, and how a text area is resized; a drag over
    words says it selected them instead. A slider the drag sets says nothing of the kind."""
    await ok(provider, ctx, "browser.open", url=site.url("/drag-nothing"))
    note = await ok(provider, ctx, "verb.drag", selector="#note", offsetX=60, offsetY=0)
    assert note["notice"] == (
        "The page showed no change as #note was dragged: it stayed where it was, and no "
        "element, text or style of the page changed. It may be nothing the page moves by a "
        "drag; take a snapshot to check. A text area is resized by its bottom-right corner, "
        "pressed with verb.mouse."
    )
    box = await ok(provider, ctx, "verb.drag", selector="#box", offsetX=0, offsetY=30)
    assert box["notice"] == (
        "The page showed no change as #box was dragged: it stayed where it was, and no "
        "element, text or style of the page changed. It may be nothing the page moves by a "
        "drag; take a snapshot to check."
    )
    level = await ok(provider, ctx, "verb.drag", selector="#level", offsetX=50)
    assert "notice" not in level
    assert level["value"] != "0"
    words = await ok(provider, ctx, "verb.drag", selector="#words", offsetX=40)
    assert (
        'no element, text or style of the page changed; the drag selected text instead ("'
        in (words["notice"])
    )


async def test_select_text_reaches_text_scrolled_out_of_its_box_and_across_a_fields_lines(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Text a box that scrolls by itself has scrolled out of view is scrolled to, as a click
    scrolls to its element, not refused as covered by what is drawn where it would be; a
    text area's words a line apart are selected with the line break between them."""
    await ok(provider, ctx, "browser.open", url=site.url("/select-scrolled"))
    chosen = await ok(provider, ctx, "verb.select_text", text="treasure phrase")
    assert (chosen["selected"], chosen["selector"]) == ("treasure phrase", "#hid")
    assert await in_page(provider, ctx, "box.scrollTop > 0") is True
    lines = await ok(provider, ctx, "verb.select_text", text="here Line two")
    assert lines == {"selected": "here\nLine two", "selector": "#lines"}


async def test_select_text_matches_case_only_when_no_exact_match_exists(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "highlight.html")
    chosen = await ok(provider, ctx, "verb.select_text", text="the quick test", selector="#story")
    assert chosen["selected"] == "The QUICK test"
    assert await out_line(provider, ctx) == 'out: selected "The QUICK test"'


async def test_select_text_reaches_text_drawn_in_a_shadow_root(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "highlight.html")
    chosen = await ok(provider, ctx, "verb.select_text", text="begun is half")
    assert (chosen["selected"], chosen["selector"]) == (
        "begun is half",
        "#story > pull-quote",
    )
    assert await out_line(provider, ctx) == 'out: selected "begun is half"'


async def test_select_text_scrolls_to_text_below_the_fold(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "highlight.html")
    chosen = await ok(provider, ctx, "verb.select_text", text="judge my vow")
    assert chosen["selected"] == "judge my vow"
    assert await in_page(provider, ctx, "scrollY > 0") is True
    assert await in_page(provider, ctx, "window.log.at(-1)") == 'out: selected "judge my vow"'


async def test_select_text_in_a_link_selects_it_without_following_or_clicking_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "highlight.html")
    chosen = await ok(provider, ctx, "verb.select_text", text="terms of service")
    assert chosen["selected"] == "terms of service"
    assert await in_page(provider, ctx, "window.getSelection().toString()") == "terms of service"
    assert await in_page(provider, ctx, "[window.clicks, location.hash]") == [[], ""]
    # Set without the mouse, and said so: the page heard no release.
    assert chosen["notice"].startswith("The text starts or ends in a link or a control")
    assert await out_line(provider, ctx) == "out: none"


async def test_select_text_leaves_a_selection_the_page_took_as_the_page_has_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "highlight.html")
    chosen = await ok(provider, ctx, "verb.select_text", text="what you select")
    assert chosen["selected"] == ""
    assert await in_page(provider, ctx, "window.log.at(-1)") == "out: marked what you select"
    assert await in_page(provider, ctx, "document.querySelectorAll('mark').length") == 1


async def test_select_text_refuses_text_a_person_could_not_select(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "highlight.html")
    hidden = await refused(provider, ctx, "verb.select_text", text="A hidden sentence")
    assert hidden == (
        'No visible text "A hidden sentence" on the page, so nothing was selected; take a new '
        "snapshot and copy the text as it shows it."
    )
    elsewhere = await refused(
        provider, ctx, "verb.select_text", text="lazy dog", selector="#second"
    )
    assert elsewhere.startswith('No visible text "lazy dog" in #second')
    locked = await refused(provider, ctx, "verb.select_text", text="cannot be copied")
    assert locked.startswith('"cannot be copied" cannot be selected: the page turned selection')
    assert await in_page(provider, ctx, "[window.log, window.getSelection().toString()]") == [
        [],
        "",
    ]


# --- mouse ----------------------------------------------------------------------------------


async def test_mouse_clicks_at_a_point_of_a_canvas(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "canvas.html")
    clicked = await ok(provider, ctx, "verb.mouse", action="click", x=120, y=80)
    assert await out_line(provider, ctx) == "out: click 120,80 detail 1"
    assert "stamp 120,80" in await in_page(provider, ctx, "window.log")  # waited for
    assert (
        clicked["start"]
        == clicked["end"]
        == {
            "x": 120,
            "y": 80,
            "under": {"selector": "#board", "tag": "canvas"},
        }
    )
    double = await ok(provider, ctx, "verb.mouse", action="click", x=60, y=40, click_count=2)
    assert await out_line(provider, ctx) == "out: dblclick 60,40"
    # Two presses, as a person's: a click for each, the second counted as the second.
    clicks = await in_page(provider, ctx, "window.log.filter((l) => l.includes('click 60'))")
    assert clicks == [
        "out: click 60,40 detail 1",
        "out: click 60,40 detail 2",
        "out: dblclick 60,40",
    ]
    assert (double["start"]["x"], double["start"]["y"]) == (120, 80)
    await ok(provider, ctx, "verb.mouse", action="click", x=10, y=20, button="right")
    assert await in_page(provider, ctx, "window.log.slice(-3)") == [
        "out: down 10,20 button 2",
        "out: contextmenu 10,20",
        "out: up 10,20",
    ]


async def test_mouse_down_move_and_up_draw_a_stroke(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "canvas.html")
    await ok(provider, ctx, "verb.mouse", action="down", x=20, y=20)
    await ok(provider, ctx, "verb.mouse", action="move", x=200, y=150)
    await ok(provider, ctx, "verb.mouse", action="up", x=300, y=150)
    log = await in_page(provider, ctx, "window.log")
    assert "draw 200,150" in log
    assert [line for line in log if line.startswith("out:")] == [
        "out: down 20,20 button 0",
        "out: up 300,150",
        "out: click 300,150 detail 1",  # pressed and released on the canvas: a click
    ]


async def test_a_word_of_an_editor_is_pressed_where_it_is(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The mouse by text on a word of an editable box goes to the word, not the box's middle:
    a double click there selects it."""
    await ok(provider, ctx, "browser.open", url=site.url("/editor-words"))
    await ok(provider, ctx, "verb.mouse", action="click", text="world", click_count=2)
    assert await in_page(provider, ctx, "getSelection().toString()") == "world"


async def test_a_range_is_pressed_and_dragged_from_its_thumb(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A press on the track's middle would set the value to the middle, and a drag by an
    offset would start there: both start from the thumb, where the value puts it, on a range
    turned to run the other way too."""
    await ok(provider, ctx, "browser.open", url=site.url("/ranges"))
    values = "[plain.value, turned.value]"
    await ok(provider, ctx, "browser.click", selector="#plain")
    await ok(provider, ctx, "browser.click", selector="#turned")
    assert await in_page(provider, ctx, values) == ["40", "40"]
    await ok(provider, ctx, "verb.drag", selector="#plain", offset_x=50)  # a quarter further
    await ok(provider, ctx, "verb.drag", selector="#turned", offset_x=50)  # a quarter back
    assert await in_page(provider, ctx, values) == ["65", "15"]


async def test_mouse_given_no_place_acts_where_the_pointer_is(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "canvas.html")
    before = await refused(provider, ctx, "verb.mouse", action="down")
    assert before == (
        "The pointer is not on this page yet, so nothing was pressed; give x and y, selector, "
        "or text."
    )
    await ok(provider, ctx, "verb.mouse", action="down", x=20, y=20)
    await ok(provider, ctx, "verb.mouse", action="move", x=200, y=150)
    released = await ok(provider, ctx, "verb.mouse", action="up")
    assert (released["end"]["x"], released["end"]["y"]) == (200, 150)
    log = await in_page(provider, ctx, "window.log")
    assert [line for line in log if line.startswith("out:")][-2:] == [
        "out: up 200,150",
        "out: click 200,150 detail 1",
    ]
    move = await refused(provider, ctx, "verb.mouse", action="move")
    assert "move needs a place: x and y, selector, or text" in move


async def test_mouse_wheel_scrolls_what_is_under_the_point(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "canvas.html")
    turned = await ok(provider, ctx, "verb.mouse", action="wheel", x=200, y=200, delta_y=400)
    assert await in_page(provider, ctx, "[window.log, scrollY]") == [["wheel 400"], 400]
    assert turned["end"]["under"]["tag"] == "div"  # the canvas scrolled away from the point


async def test_mouse_refuses_a_point_outside_the_viewport(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "canvas.html")
    outside = await refused(provider, ctx, "verb.mouse", action="click", x=1280, y=10)
    assert outside == (
        "(1280, 10) is outside the viewport, which is 1280x800 CSS pixels (x and y from 0 up "
        "to those); nothing was done."
    )
    still = await refused(provider, ctx, "verb.mouse", action="wheel", x=10, y=10)
    assert still == "wheel needs deltaX or deltaY, the pixels to scroll; nothing was done."
    assert await in_page(provider, ctx, "[window.log, scrollY]") == [[], 0]


async def test_a_refused_mouse_says_what_its_action_did_not_do(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A mouse move refused is no click: the refusal says nothing was moved (pressed, for a
    button held down; hovered, for a hover), and the page got nothing."""
    await _open(provider, site, ctx, "dragdrop.html")
    covered = '#archive is covered by #notice (div "Archive is closed today"), so nothing was'
    for action, done in (("move", "moved"), ("down", "pressed"), ("click", "clicked")):
        refusal = await refused(provider, ctx, "verb.mouse", action=action, selector="#archive")
        assert refusal.startswith(f"{covered} {done}. Close or dismiss what covers it first")
    hover = await refused(provider, ctx, "verb.hover", selector="#archive")
    assert hover.startswith(f"{covered} hovered. ")
    assert await in_page(provider, ctx, "window.log") == []


async def test_mouse_on_an_element_double_and_right_clicks_where_a_click_would(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Rows with no role and no pointer cursor, named by text or selector: a double click
    opens one, a right click opens the page's own menu for it."""
    await _open(provider, site, ctx, "files.html")
    opened = await ok(
        provider, ctx, "verb.mouse", action="click", text="budget.xlsx", click_count=2
    )
    assert await out_line(provider, ctx) == "out: opened budget.xlsx"
    assert (opened["selector"], opened["label"]) == ("#files > li:nth-of-type(2)", "budget.xlsx")
    assert _under(opened["end"]) == "li budget.xlsx"
    menu = await ok(
        provider, ctx, "verb.mouse", action="click", selector="#files > li:nth-of-type(3)",
        button="right",
    )  # fmt: skip
    assert await out_line(provider, ctx) == "out: menu for photo.png"
    assert menu["label"] == "photo.png"
    assert await in_page(provider, ctx, "getComputedStyle(menu).display") == "block"


async def test_mouse_holds_modifiers_while_it_clicks_and_lets_them_go(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "files.html")
    await ok(provider, ctx, "verb.mouse", action="click", text="notes.txt")
    await ok(provider, ctx, "verb.mouse", action="click", text="photo.png", modifiers=["Shift"])
    assert await out_line(provider, ctx) == "out: selected notes.txt,budget.xlsx,photo.png"
    await ok(provider, ctx, "verb.mouse", action="click", text="budget.xlsx", modifiers=["Control"])
    assert await out_line(provider, ctx) == "out: selected notes.txt,photo.png"
    await ok(provider, ctx, "browser.click", text="report.pdf")  # no key held any more
    assert await out_line(provider, ctx) == "out: selected report.pdf"


async def test_mouse_refuses_a_place_it_cannot_use_and_does_nothing(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "files.html")
    missing = await refused(provider, ctx, "verb.mouse", action="click", text="nothing.doc")
    assert missing == (
        'No visible element has the text "nothing.doc"; take a new snapshot and pick by selector.'
    )
    both = await refused(provider, ctx, "verb.mouse", action="click", x=5, y=5, text="notes.txt")
    assert "give one place: x and y, selector, or text" in both
    half = await refused(provider, ctx, "verb.mouse", action="click", x=5)
    assert "give both x and y" in half
    twice = await refused(
        provider, ctx, "verb.mouse", action="click", text="notes.txt", modifiers=["Shift", "Shift"]
    )
    assert "give each of modifiers once" in twice
    unknown = await refused(
        provider, ctx, "verb.mouse", action="click", text="notes.txt", modifiers=["Hyper"]
    )
    assert "modifiers" in unknown
    assert await in_page(provider, ctx, "window.log") == []


PUSH_BINS_BELOW = """(gap) => {
  const bins = document.querySelector(".bins");
  const top = document.querySelector("#basket").getBoundingClientRect().top;
  bins.style.marginTop = 24 + innerHeight + gap - top + "px";
}"""


async def test_drag_brings_a_drop_zone_below_the_fold_into_view_with_the_item(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "dragdrop.html")
    page = provider.page_for(ctx)
    assert page is not None
    await page.evaluate(PUSH_BINS_BELOW, 20)
    dragged = await ok(provider, ctx, "verb.drag", text="Plums", to_selector="#basket")
    assert await out_line(provider, ctx) == "out: dropped plums in basket"
    assert await in_page(provider, ctx, "scrollY > 0") is True
    assert _under(dragged["start"]) == "li Plums"


async def test_drag_carries_an_item_to_a_drop_zone_a_page_away_scrolling_as_it_goes(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """No viewport shows both: the item is pressed where it is, and the page scrolled to the
    zone with the button held, as a person scrolls while dragging (one drag, one drop)."""
    await _open(provider, site, ctx, "dragdrop.html")
    page = provider.page_for(ctx)
    assert page is not None
    await page.evaluate(PUSH_BINS_BELOW, 2000)
    dragged = await ok(provider, ctx, "verb.drag", text="Plums", to_selector="#basket")
    assert await out_line(provider, ctx) == "out: dropped plums in basket"
    assert await in_page(provider, ctx, "window.log.slice(0, 1)") == ["dragstart plums"]
    assert _under(dragged["start"]) == "li Plums"
    assert dragged["end"]["under"]["selector"] == "#basket"


DONE_ITEMS = "[...done.children].map((li) => li.textContent)"
"""The items of /two-lists' second list, in order, as the page holds them."""


async def test_a_drop_before_or_after_an_item_of_a_list_beside_goes_above_or_below_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Dragged across from one list to the one beside it, before and after mean above and
    below the item in that list, as it stacks its items, not left and right of it as the
    drag goes."""
    await ok(provider, ctx, "browser.open", url=site.url("/two-lists"))
    await ok(provider, ctx, "verb.drag", text="Design logo", to_text="Ship it", at="before")
    assert await in_page(provider, ctx, DONE_ITEMS) == ["Set up repo", "Design logo", "Ship it"]
    await ok(provider, ctx, "verb.drag", text="Buy domain", to_text="Set up repo", at="after")
    assert await in_page(provider, ctx, DONE_ITEMS) == [
        "Set up repo",
        "Buy domain",
        "Design logo",
        "Ship it",
    ]


async def test_a_drop_before_or_after_a_list_itself_goes_to_its_start_or_end(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Dropped on the list, not an item of it (a board's other column, or its own), before
    and after mean before its first item and after its last, not a fifth in from its edge
    the way the drag goes, which lands among its items."""
    await ok(provider, ctx, "browser.open", url=site.url("/two-lists"))
    await ok(provider, ctx, "verb.drag", text="Design logo", to_selector="#done", at="after")
    assert await in_page(provider, ctx, DONE_ITEMS) == ["Set up repo", "Ship it", "Design logo"]
    await ok(provider, ctx, "verb.drag", text="Buy domain", to_selector="#done", at="before")
    assert await in_page(provider, ctx, DONE_ITEMS) == [
        "Buy domain",
        "Set up repo",
        "Ship it",
        "Design logo",
    ]
    await ok(provider, ctx, "verb.drag", text="Design logo", to_selector="#done", at="before")
    assert (await in_page(provider, ctx, DONE_ITEMS))[:2] == ["Design logo", "Buy domain"]


async def test_a_drag_of_a_slider_the_page_draws_starts_from_its_knob(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A track with role slider and a knob in it that the page drags: the drag presses the
    knob, not the track's middle, and the answer reads the value it was left at."""
    await ok(provider, ctx, "browser.open", url=site.url("/knob-slider"))
    dragged = await ok(provider, ctx, "verb.drag", selector="#track", offset_x=140, offset_y=0)
    assert dragged["start"]["under"]["selector"] == "#knob"
    assert dragged["value"] == "70"
    assert await in_page(provider, ctx, "knob.style.left") == "196px"


async def test_a_slider_knob_that_tells_no_value_reads_where_it_sits_on_its_track(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A knob with no ARIA (jQuery UI's) shows its value only by where it sits: a snapshot
    reads that as a share of its track, and a drag answers the share it was left at. A
    list row's drag handle is no slider's and reads nothing."""
    await ok(provider, ctx, "browser.open", url=site.url("/bare-slider"))
    listed = {e["selector"]: e for e in (await ok(provider, ctx, "browser.snapshot"))["elements"]}
    assert listed["span.ui-slider-handle"]["value"] == "20% along its track"
    assert "value" not in listed["span.drag-handle"]
    knob = "span.ui-slider-handle"
    dragged = await ok(provider, ctx, "verb.drag", selector=knob, offset_x=90, offset_y=0)
    assert dragged["value"] == "50% along its track"
    assert await in_page(provider, ctx, "knob.style.left") == "50%"


async def test_a_drag_of_an_upright_range_starts_from_its_thumb(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A range set upright (a vertical writing mode, its low end at the bottom) is pressed on
    its thumb, where its value puts it: a press on the track's middle would first jump the
    value to 50, and the drag up would end far past where it was meant to."""
    await ok(provider, ctx, "browser.open", url=site.url("/upright-range"))
    dragged = await ok(provider, ctx, "verb.drag", selector="#up", offset_x=0, offset_y=-80)
    assert 55 <= int(dragged["value"]) <= 70  # 20, and 80 of its 184 pixels of travel
