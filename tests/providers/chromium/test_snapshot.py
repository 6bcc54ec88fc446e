"""Snapshot selectors on a page with over a hundred interactive elements, many of them alike."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browserhost.contract import Context
from browserhost.contract.limits import SNAPSHOT_ELEMENTS_MAX, SNAPSHOT_TEXT_MAX
from browserhost.providers.chromium import ChromiumProvider

from .driving import in_page, ok, out_line, refused
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def _many(provider: ChromiumProvider, site: Site, ctx: Context) -> list[dict[str, Any]]:
    await ok(provider, ctx, "browser.open", url=site.url("/many"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert "elementsTruncated" not in snapshot
    elements: list[dict[str, Any]] = snapshot["elements"]
    assert len(elements) >= 100
    return elements


async def test_every_selector_matches_exactly_its_element(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    elements = await _many(provider, site, ctx)
    page = provider.page_for(ctx)
    assert page is not None
    keys = await page.evaluate(
        "(selectors) => selectors.map((s) => [...document.querySelectorAll(s)]"
        ".map((el) => el.dataset.k ?? null))",
        [element["selector"] for element in elements],
    )
    for element, matched in zip(elements, keys, strict=True):
        assert len(matched) == 1, element
        assert matched[0] is not None, element  # only the marked controls are interactive
    assert len({key for [key] in keys}) == len(elements)
    total = await page.evaluate("document.querySelectorAll('[data-k]').length")
    assert len(elements) == total  # and every marked control is listed


async def test_clicking_every_selector_hits_that_element(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    elements = await _many(provider, site, ctx)
    page = provider.page_for(ctx)
    assert page is not None
    expected = await page.evaluate(
        "(selectors) => selectors.map((s) => document.querySelector(s).dataset.k)",
        [element["selector"] for element in elements],
    )
    for element, key in zip(elements, expected, strict=True):
        clicked = await ok(provider, ctx, "browser.click", selector=element["selector"])
        assert clicked["clicked"] == element["selector"]
        hit = await page.evaluate("window.hits.at(-1)")
        assert hit == key, element


async def test_selectors_are_short_where_the_page_allows(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    elements = await _many(provider, site, ctx)
    by_label: dict[str, list[str]] = {}
    for element in elements:
        by_label.setdefault(element.get("label", ""), []).append(element["selector"])
    assert by_label["Nav 3"] == ['a[href="#nav3"]']
    assert by_label["Test id 2"] == ['[data-testid="tid-2"]']
    assert by_label["Primary"] == ["button.primary"]
    assert by_label["Starts with a digit"] == ["#\\31 st"]
    assert by_label["Spaced id"] == ["#has\\ space"]
    assert by_label["Field 1"] == ['input[name="unique-1"]']
    assert by_label["S2"] == ['input[name="size"][value="s2"]']
    assert all(len(selector) <= 120 for selector in (e["selector"] for e in elements))


async def test_elements_carry_only_the_fields_that_apply(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    elements = await _many(provider, site, ctx)
    by_label = {element.get("label"): element for element in elements}
    link = by_label["Nav 0"]
    assert set(link) == {"selector", "tag", "bounds", "inViewport", "role", "label"}
    assert (link["tag"], link["role"], link["inViewport"]) == ("a", "link", True)
    radio = by_label["S0"]
    assert (radio["tag"], radio["type"], radio["role"]) == ("input", "radio", "radio")
    close = by_label["Close"]
    assert (close["tag"], close["role"]) == ("span", "button")
    unnamed = [e for e in elements if e["tag"] == "textarea"]
    assert unnamed[0]["missingAccessibleName"] is True
    assert "label" not in unnamed[0]
    deep = by_label["Deep"]
    assert deep["inViewport"] is False
    labels = {element.get("label") for element in elements}
    assert "Not shown" not in labels
    assert "Invisible" not in labels


async def test_a_full_snapshot_gives_the_whole_text_and_every_element(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/huge"))
    capped = await ok(provider, ctx, "browser.snapshot")
    full = await ok(provider, ctx, "browser.snapshot", full=True)
    assert capped["textTotalChars"] > len(capped["text"])
    assert full["text"].startswith("word0 word1")
    assert full["text"].endswith("Button 299")
    assert "word4999" in full["text"]
    assert "word4999" not in capped["text"]
    assert len(full["elements"]) == capped["interactiveElementsOnPage"] == 300
    assert full["elements"][-1]["label"] == "Button 299"
    absent = {"textTruncated", "textTotalChars", "elementsTruncated", "interactiveElementsOnPage"}
    assert absent.isdisjoint(full)


async def test_text_laid_out_where_no_one_sees_it_is_left_out(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A faded-out tooltip, drawers moved off the page and a popup scaled to nothing: innerText
    keeps their text."""
    await ok(provider, ctx, "browser.open", url=site.url("/unseen-text"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "Shown heading\nShown text and more\nShown link"
    assert [element["label"] for element in snapshot["elements"]] == ["Shown link"]
    for viewport in ("mobile", "desktop"):  # a drawer off the page whatever the viewport
        await ok(provider, ctx, "browser.resize", viewport=viewport)
        assert "drawer" not in (await ok(provider, ctx, "browser.snapshot"))["text"]


async def test_text_a_box_that_does_not_scroll_hides_is_left_out(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A carousel's other slides sit in its track, beside the box that shows one; a collapsed
    panel holds its text itself."""
    await ok(provider, ctx, "browser.open", url=site.url("/clipped-text"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "Shown heading\nSlide one\nQuestion?\nAfter"


async def test_text_with_emoji_read_whole_is_not_said_to_be_cut(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/emoji"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "\U0001f41f Fish\n\n\U0001f980 Crab"
    assert "textTruncated" not in snapshot


async def test_a_label_cut_at_an_emoji_and_half_an_emoji_are_whole_characters(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Half of a character cannot be sent on as UTF-8 (the MCP answer failed): a label is cut
    before the emoji it would split, and half an emoji the page wrote reads as U+FFFD."""
    await ok(provider, ctx, "browser.open", url=site.url("/emoji-cut"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    (button,) = snapshot["elements"]
    assert button["label"] == "x" * 98 + "\u2026"
    assert snapshot["text"].endswith("half \ufffd")
    clicked = await ok(provider, ctx, "browser.click", selector="body > button")
    assert clicked["label"] == "x" * 98 + "\u2026"


async def test_a_carousel_shows_the_slide_its_track_was_moved_to(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The track is one slide wide and moved by a transform: the slide on show is drawn past
    its end, and is what the snapshot reads and lists. Scrolling to a slide the frame hides
    is refused, as script scrolling the frame would show half of two slides."""
    await ok(provider, ctx, "browser.open", url=site.url("/carousel"))

    async def shown() -> tuple[str, list[str]]:
        snapshot = await ok(provider, ctx, "browser.snapshot")
        return snapshot["text"], [item["label"] for item in snapshot["elements"]]

    assert await shown() == ("Slide A\nBook A\nShow slide C", ["Book A", "Show slide C"])
    # A slide not on show has no near controls: those on show are another slide's.
    (hidden,) = (await ok(provider, ctx, "verb.find", text="Slide B"))["elements"]
    assert (hidden["inViewport"], hidden["near"]) == (False, [])
    await ok(provider, ctx, "browser.click", text="Show slide C")
    assert await shown() == ("Slide C\nBook C\nShow slide C", ["Book C", "Show slide C"])
    error = await refused(provider, ctx, "browser.scroll", selector="#slide-A > h4")
    assert "a box that shows only part of what it holds" in error
    assert await shown() == ("Slide C\nBook C\nShow slide C", ["Book C", "Show slide C"])


async def test_boxes_side_by_side_read_as_separate_words(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """innerText reads two buttons with nothing between them in the source as "OKCancel";
    a person sees two words. A word whose parts are set apart by markup alone stays one."""
    await ok(provider, ctx, "browser.open", url=site.url("/boxes-in-a-line"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "OK Cancel\nItem 1 Some text Delete\n\nunbelievable deal New"
    scoped = await ok(provider, ctx, "browser.snapshot", selector="div:first-of-type")
    assert scoped["text"] == "OK Cancel"


async def test_slides_outside_a_bordered_carousel_are_not_read(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/bordered-slides"))
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == "Slide 2: New arrivals\nAfter"


async def test_prices_read_as_drawn_cents_raised_and_an_old_price_apart(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """innerText reads $19 and its cents as "$1999/mo", and the old price struck out
    touches the new one ("~~$30~~$20")."""
    await ok(provider, ctx, "browser.open", url=site.url("/prices-drawn"))
    text = (await ok(provider, ctx, "browser.snapshot"))["text"]
    assert text == "$19^99/mo\n\nOnly 12 left\n\n~~$30~~ $20"


async def test_a_link_drawn_as_a_logo_with_its_words_indented_away_is_listed_by_them(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/logo-link"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "About"
    listed = [(e["selector"], e["label"]) for e in snapshot["elements"]]
    assert listed == [("#logo", "Acme home"), ("body > a:nth-of-type(3)", "About")]
    clicked = await ok(provider, ctx, "browser.click", selector="#logo")
    assert clicked["url"] == site.url("/page-a")


async def test_words_hidden_inside_a_line_leave_the_line_whole(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A link, a cell or a button that holds words drawn nowhere is read in its line, the
    hidden words left out: the sentence, the table's row and the toolbar read on one line."""
    await ok(provider, ctx, "browser.open", url=site.url("/hidden-words-in-a-line"))
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == (
        "You have 3 messages waiting.\nPlan Price Action\nBasic $9.00 Choose\nFind: Go\n"
        "Post Share Like\nBy ada Send"
    )


async def test_buttons_after_a_field_read_apart_however_often_their_words_repeat(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The label's space before its field is the label's: read without it, its line was
    not found, and the next line's "OKCancel" was set apart in its place."""
    await ok(provider, ctx, "browser.open", url=site.url("/fields-in-a-line"))
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == "Name OK Cancel\nOK Cancel"


async def test_text_reads_words_as_they_are_drawn(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """innerText runs together what touches in the source ("$19Sale", "HomeLibraryData",
    "NameEmail"), reads every option of a closed select, and the text loses a <pre>'s indents
    and its columns. A person reads a space where a gap is drawn and none where none is (letters
    in boxes of their own, code set in a box), the chosen option alone, code as laid out; sees
    which price and which task are struck out, and cents or an exponent set raised."""
    await ok(provider, ctx, "browser.open", url=site.url("/words-as-drawn"))
    expected = (
        "$19 Sale\n\nStock left\n\nHome Library Data\n\nName Email\n\nSize Large left\n\n"
        "Country\nSpain\ndef total(prices):\n    if prices:\n        return sum(prices)\n\n"
        "Call run() now\n\nI am years old, supercalifragilistic.\n\nThen fetch(), json().\n\n"
        "Pick now\n\nif (a) {\n    b();\n}\nHome Docs\n\nNow $49.99 ~~$59.99~~\n\n~~Buy milk~~\n"
        "Walk dog\n$10 ~~$12~~\n\nOnly $49^99: E = mc^2, the 1st claim^3.\n\n5 entries\n\n"
        "Name    Qty\nApple     3"
    )
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == expected
    scoped = await ok(provider, ctx, "browser.snapshot", selector="pre:first-of-type")
    assert scoped["text"] == "def total(prices):\n    if prices:\n        return sum(prices)"
    scoped = await ok(provider, ctx, "browser.snapshot", selector="p:last-of-type > label")
    assert scoped["text"] == "5 entries"  # the select first in what is read


async def test_items_laid_out_in_rows_read_a_row_a_line(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """innerText reads each item of a flex or grid box on a line of its own ("Name\nAlice\n
    Age\n30"); a person reads a row a line, in the order it is drawn, its items apart where
    they are drawn apart. Cards of several lines each, and a column, read as before."""
    await ok(provider, ctx, "browser.open", url=site.url("/rows"))
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == (
        "Name Alice\nAge 30\nShop Pricing Docs Log in\n+ Download Bold\n"
        "Third Second First\n\nWas $25.00 per month.\n\n$19.99\nHome (3 unread) Inbox\n"
        "Blue Mug\n$12\nRed Kettle\n$30\nOne\nTwo"
    )


async def test_the_empty_squares_of_a_board_keep_each_mark_in_its_place(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """innerText reads a tic-tac-toe board's marks a line each, its empty squares not at all,
    and which square holds which mark is lost. Rows of boxes of one size, some empty, read a
    row a line, an empty box as a dash: in a grid box, in boxes floated side by side, and a
    week of days whose first days are empty. Cards of unequal size read as before."""
    await ok(provider, ctx, "browser.open", url=site.url("/boards"))
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == (
        "X \u2014 O\n\u2014 O \u2014\n\u2014 \u2014 X\n"
        "\u2014 \u2014 X\nO \u2014 \u2014\n\u2014 X\n"
        "\u2014 \u2014 \u2014 1 2 3 4\n5 6 7 8 9 10 11\n"
        "Tea Cake"
    )


async def test_words_beside_a_box_floated_to_one_side_read_in_the_order_drawn(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """innerText reads a box floated to the right of its line on a line of its own, before
    the words it is written first ("Open daily", then "Cafe Rosa"); a person reads the line
    left to right. A paragraph around a floated picture reads as before."""
    await ok(provider, ctx, "browser.open", url=site.url("/floats-beside"))
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == (
        "Cafe Rosa Open daily\n\nCoffee $3\nTea $2\n\nRosa roasts its own beans."
    )


async def test_a_line_break_and_an_empty_box_between_words_are_read_as_drawn(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Two buttons after a line break read "BackNext", and two words with a legend's swatch
    drawn between them "SalesMarketing"; a select's line ran on past the break after it."""
    await ok(provider, ctx, "browser.open", url=site.url("/breaks-and-boxes"))
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == (
        "x\nBack Next\nNights 1\nBack Next\nSales Marketing"
    )


async def test_an_empty_cell_of_a_data_table_keeps_its_column(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """innerText reads "Ann", an empty cell, "Oslo" as "Ann Oslo": Oslo moves to the phone's
    column. In a table with headers an empty cell reads as a dash; a cell showing an icon
    is not empty, and a table with no headers (a layout) reads as before. A calendar's days
    set in blocks read a week a line, the first week's "1" where it is, not in "2016"."""
    await ok(provider, ctx, "browser.open", url=site.url("/tables"))
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == (
        "\u2014 Phone City VIP\nAnn \u2014 Oslo \u2014\nBob 555-1234 Rome\n1. Story\n100 points\n"
        "\nPay by 10/01/2016\n\nSu Mo Tu We Th Fr Sa\n" + "\u2014 " * 6 + "1\n2 3 4 5 6 7 8"
    )


async def test_items_drawn_from_the_bottom_up_read_top_down(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """innerText reads a chat's messages newest first, as the page holds them; a person reads
    them as drawn, the newest last."""
    await ok(provider, ctx, "browser.open", url=site.url("/chat"))
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == (
        "Bob: Hi Ann\nAnn: Dinner ~~today~~ tonight?\nBob: See you at 5\n\nType a reply"
    )


async def test_an_ordered_lists_numbers_are_read_as_drawn(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """innerText leaves out the numbers a list draws; "the third step" is found by them."""
    await ok(provider, ctx, "browser.open", url=site.url("/numbered"))
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == (
        "1. Mix flour\n2. Add eggs\na. one\nb. two\n3. Bake\nV. Five\nIX. Nine\nX. Ten\n"
        "2. Second\n1. First\nHome\n1. Yes\n2. Yes\nBullet"
    )


async def test_text_too_long_to_show_whole_ends_at_a_words_end(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/one-long-paragraph"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["textBelowChars"] > 0
    words = snapshot["text"].split(" ")
    assert words[0] == "word0000"
    assert all(re.fullmatch(r"word\d{4}", word) for word in words), words[-1]  # none cut short


async def test_a_listing_too_long_to_show_whole_is_read_around_the_viewport(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/long-listing"))
    top = await ok(provider, ctx, "browser.snapshot")
    assert top["text"].startswith("    line 0000 of the listing\n    line 0001 of the listing\n")
    await ok(provider, ctx, "browser.scroll", direction="bottom")
    bottom = await ok(provider, ctx, "browser.snapshot")
    assert bottom["text"].endswith("\n    line 1498 of the listing\n    line 1499 of the listing")
    assert bottom["textAboveChars"] > 0
    assert "line 0000" not in bottom["text"]


async def test_the_article_in_view_is_read_before_a_long_sidebar_written_first(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A sidebar of 700 links is written before the article it is laid out beside: the text
    around the view starts with the article a person sees at the top, not with the sidebar's
    links down to where the room runs out, and holds none of the links drawn far below."""
    await ok(provider, ctx, "browser.open", url=site.url("/sidebar-first"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"].startswith("Main headline\nParagraph 0 of the article, with ")
    assert "Paragraph 39 of the article" in snapshot["text"]
    assert "Category 650" not in snapshot["text"]
    assert snapshot["textAboveChars"] > 0


async def test_a_menu_item_its_list_item_disables_is_disabled(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/disabled-item"))
    listed = {
        item["label"]: item for item in (await ok(provider, ctx, "browser.snapshot"))["elements"]
    }
    assert (listed["Copy"].get("disabled"), listed["Share"].get("disabled")) == (None, True)
    error = await refused(provider, ctx, "browser.click", text="Share")
    assert " is disabled, so nothing was clicked" in error


async def test_a_closed_combobox_shows_its_chosen_items_not_their_buttons_or_a_placeholder(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Its value is what it shows chosen: no "Remove item" or sign beside each, and no
    placeholder, which only names it."""
    await ok(provider, ctx, "browser.open", url=site.url("/chosen-tags"))
    listed = {
        item["selector"]: item for item in (await ok(provider, ctx, "browser.snapshot"))["elements"]
    }
    assert listed["#tags"]["value"] == "Black Navy"
    assert (listed["#empty"]["label"], listed["#empty"]["value"]) == ("Select a country", "")


async def test_an_open_custom_select_is_named_by_what_it_shows_not_its_options(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/open-combobox"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    [combobox] = [element for element in elements if element.get("role") == "combobox"]
    assert (combobox["label"], combobox["value"], combobox["expanded"]) == (
        "Pick one",
        "Pick one",
        True,
    )


async def test_a_snapshot_names_what_the_page_draws_with_nothing_to_read(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A canvas and an SVG of bare shapes hold nothing a snapshot can read: it names them,
    so the agent knows to capture them (or press them by point); an icon and a chart with
    words are not named (inspect gives an SVG word's fill: its colour). A snapshot of the SVG
    alone says it is only drawing, not that the page may still be loading."""
    await ok(provider, ctx, "browser.open", url=site.url("/drawings"))
    page = await ok(provider, ctx, "browser.snapshot")
    assert page["text"] == "Count the sides\nSales"
    assert page["notice"] == (
        "Drawn, with nothing to read in it: #board (canvas 200x150), #grid (svg 160x160: 1 "
        "circle, 1 line, the first #grid > circle), #pad (svg 100x100: 1 rect, #pad > rect). "
        "browser.capture shows it; verb.mouse clicks it by x and y. An svg's shapes are "
        "elements a selector names (as named here) for browser.inspect, verb.drag and "
        "verb.mouse."
    )
    assert [e["selector"] for e in page["elements"]] == ["#pad"]
    sales = (await ok(provider, ctx, "browser.inspect", selector="#chart > text"))["styles"]
    assert (sales["fill"], sales["stroke"]) == ("rgb(0, 128, 0)", "none")  # painted green
    grid = await ok(provider, ctx, "browser.snapshot", selector="#grid")
    assert grid["notice"] == (
        "This shows no text and no interactive elements, only drawing: #grid (svg 160x160: "
        "1 circle, 1 line, the first #grid > circle). browser.capture shows it; verb.mouse "
        "clicks it by x and y. An svg's shapes are elements a selector names (as named here) "
        "for browser.inspect, verb.drag and verb.mouse."
    )


async def test_a_field_is_named_by_the_loose_label_written_before_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A <label> tied to nothing just before a field, the text before it, the caption above
    the box it is alone in or under it in that box, its row's header: what a person reads as
    its name, which the snapshot guesses (and says it guessed). A label tied to another field
    names only that one; the text before a checkbox, or a sentence, names nothing."""
    await ok(provider, ctx, "browser.open", url=site.url("/loose-labels"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(e["selector"], e.get("label"), e.get("labelGuessed")) for e in elements] == [
        ("#user", "Username", True),
        ("#pass", "Password", True),
        ("#note", None, None),
        ("#mail", "Mail", None),
        ("#date", "Date:", True),
        ("#colour", "Color:", True),
        ("#genre", "Genre", True),
        ("#depart", "Departure date", True),
        ("#genre2", "Genre", True),
        ("#year", "Year", True),
        ("#apple", None, None),
        ("#code", None, None),
    ]
    inspected = await ok(provider, ctx, "browser.inspect", selector="#genre")
    assert (inspected["label"], inspected["labelGuessed"]) == ("Genre", True)
    await ok(provider, ctx, "browser.type", selector="#genre", value="Drama")
    typed = await ok(provider, ctx, "browser.snapshot")
    assert {"selector": "#genre", "label": "Genre", "value": "Drama"}.items() <= next(
        e for e in typed["elements"] if e["selector"] == "#genre"
    ).items()


async def test_pictures_named_only_by_alt_or_title_are_named_and_found(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Icons set among the text whose names no text holds, a photo, and a box the page calls
    a swatch, are named in the notice (by name, by colour), each after the words before it,
    and found by name; a button's icon and an avatar beside its person's name are not."""
    await ok(provider, ctx, "browser.open", url=site.url("/pictures"))
    page = await ok(provider, ctx, "browser.snapshot")
    assert page["notice"] == (
        'Pictures among the text, named where no text says it: "vegan" after "Caesar salad", '
        '"gluten-free" after "Caesar salad", "meat" after "Chicken wings", a green box after '
        '"Pick the", "A plate of wings" after "Pick the ones.".'
    )
    assert [e["label"] for e in page["elements"]] == ["Add to cart"]
    found = await ok(provider, ctx, "verb.find", text="gluten")
    assert [(hit["tag"], hit["text"]) for hit in found["elements"]] == [("img", "gluten-free")]


async def test_shapes_drawn_beside_listed_ones_are_named_as_where_to_drop(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Circles the page handles are listed; the outline box they go into, which nothing
    handles, is named in the notice by selector (a line is too thin to drop on)."""
    await ok(provider, ctx, "browser.open", url=site.url("/drop-shapes"))
    page = await ok(provider, ctx, "browser.snapshot")
    assert [e["tag"] for e in page["elements"]] == ["circle", "circle"]
    assert page["notice"] == (
        "Drawn beside the shapes listed, with no name or handler of their own (a box or a mark "
        "to drop on): #area > rect (rect 80x50 at 18,60). browser.capture shows it; verb.mouse "
        "clicks it by x and y. An svg's shapes are elements a selector names (as named here) "
        "for browser.inspect, verb.drag and verb.mouse."
    )
    dropped = await ok(
        provider,
        ctx,
        "verb.drag",
        selector=page["elements"][0]["selector"],
        toSelector="#area > rect",
    )
    assert dropped["end"]["under"]["tag"] in ("rect", "svg")


async def test_items_scrolled_out_of_their_box_are_listed_off_screen_until_scrolled_to(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A list in a box of its own shows its first items, the third cut in half at the box's
    end (not covered); the rest are drawn below it, where no person sees them: off-screen,
    though the page's own view holds them. A click scrolls the box to one, which is then in
    view."""
    await ok(provider, ctx, "browser.open", url=site.url("/scrolled-box"))
    await in_page(provider, ctx, "box.scrollTop = 0")
    listed = {e["selector"]: e for e in (await ok(provider, ctx, "browser.snapshot"))["elements"]}
    assert [listed[b]["inViewport"] for b in ("#b0", "#b1", "#b2", "#b9")] == [True] * 3 + [False]
    assert "covered" not in listed["#b2"]  # half of it shows at the box's end: not covered
    assert (await ok(provider, ctx, "browser.inspect", selector="#b9"))["inViewport"] is False
    await ok(provider, ctx, "browser.click", selector="#b9")
    assert await out_line(provider, ctx) == "b9"
    assert (await ok(provider, ctx, "browser.inspect", selector="#b9"))["inViewport"] is True


async def test_items_above_the_top_of_a_box_scrolled_down_are_listed_and_clicked(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A list scrolled down in a box of its own at the top of the page puts its first items
    above the page's top; scrolling the box back reaches them, so they are listed, and a
    click scrolls them into view and presses them."""
    await ok(provider, ctx, "browser.open", url=site.url("/scrolled-box"))
    listed = [e["selector"] for e in (await ok(provider, ctx, "browser.snapshot"))["elements"]]
    assert listed == [f"#b{n}" for n in range(10)]
    await ok(provider, ctx, "browser.click", selector="#b0")
    assert await out_line(provider, ctx) == "b0"


async def test_a_value_the_browsers_own_check_refuses_is_invalid_however_it_came_in(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A number past its max and a date before its min, set by the page, are invalid; a
    value in range is not, nor an empty required field nobody has been at."""
    await ok(provider, ctx, "browser.open", url=site.url("/out-of-range"))
    listed = {e["selector"]: e for e in (await ok(provider, ctx, "browser.snapshot"))["elements"]}
    assert [listed[s].get("invalid") for s in ("#seats", "#day", "#fine", "#need")] == [
        True,
        True,
        None,
        None,
    ]


async def test_boxes_in_view_that_scroll_by_themselves_are_named_with_their_scroll(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A list that draws only the rows it shows holds more than any snapshot lists: the
    notice names it, and a panel beside it, with where each is scrolled to; not a text area
    (its value is what it holds), nor a box below the view. Scrolled, the list says so."""
    await ok(provider, ctx, "browser.open", url=site.url("/scroll-boxes"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert "Person 3" in snapshot["text"]
    assert "Person 4" not in snapshot["text"]
    assert re.fullmatch(
        'Boxes that scroll by themselves hold more than they show: `#people` list "People" '
        r"\(scroll 0/14880\), `div\.panel` \(scroll 0/[1-9]\d+\)\. browser\.scroll with a box's "
        "selector and a direction moves it; a long list may add its rows only as it scrolls.",
        snapshot["notice"],
    )
    await ok(provider, ctx, "browser.scroll", selector="#people", direction="down")
    scrolled = await ok(provider, ctx, "browser.snapshot")
    assert '`#people` list "People" (scroll 0/' not in scrolled["notice"]
    assert "Person 0" not in scrolled["text"]
    assert "`#people` list" in scrolled["notice"]


async def test_a_click_by_a_text_no_row_drawn_shows_names_the_boxes_that_may_hold_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A list that draws only the rows it shows has no "Person 40" yet: the refusal says
    which box may hold it, and scrolled there, the click finds it."""
    await ok(provider, ctx, "browser.open", url=site.url("/scroll-boxes"))
    error = await refused(provider, ctx, "browser.click", text="Person 40")
    assert error.startswith(
        'No visible element has the text "Person 40"; take a new snapshot and click by '
        "selector. A box that scrolls by itself may hold it out of view, in rows not drawn "
        'yet: `#people` list "People" (scroll 0/14880), `div.panel` (scroll 0/'
    )
    assert error.endswith(
        "; browser.scroll with the box's selector and a direction moves it. The page goes on "
        "below the view: one that adds more as it is scrolled (a feed) may show it further "
        "down; browser.scroll down, then try again."
    )
    found = await ok(provider, ctx, "verb.find", text="Person 40")  # none, and where to look
    assert (found["total"], found["notice"]) == (0, error.partition("selector. ")[2])
    await in_page(provider, ctx, "people.scrollTop = 1200; draw()")
    assert "notice" not in await ok(provider, ctx, "verb.find", text="Person 40")
    clicked = await ok(provider, ctx, "browser.click", text="Person 40")
    assert clicked["clicked"] == "#rows > div:nth-of-type(1)"


async def test_a_search_field_in_a_closed_list_is_not_listed_nor_clicked(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The field is in a panel not shown: it is not taken for drawn as the button beside it,
    and a type into it is pointed to that button, which opens the list."""
    await ok(provider, ctx, "browser.open", url=site.url("/closed-search"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert [element["selector"] for element in snapshot["elements"]] == ["#flag", "#phone"]
    refusal = await refused(provider, ctx, "browser.type", selector="#search", value="Japan")
    assert refusal.startswith(
        "#search is hidden, so nothing was typed: the page shows its own control in its place, "
        '#flag (button "UK +44")'
    )


async def test_a_checkbox_is_named_by_the_words_beside_it_in_a_box_of_its_own(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/loose-boxes"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    named = {element["selector"]: element.get("label") for element in snapshot["elements"]}
    assert named == {"#olives": "Olives", "#dark": "Dark mode", "#a": None, "#b": None}


async def test_a_chosen_item_is_named_by_its_words_not_its_remove_buttons(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/chosen-items"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    listbox = next(element for element in elements if element.get("role") == "listbox")
    assert listbox["value"] == "Acme, Orbit"
    options = [element["label"] for element in elements if element.get("role") == "option"]
    assert options == ["Acme", "Orbit"]


async def test_the_text_of_a_web_component_drawn_with_no_box_of_its_own_is_read(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Its host is styled display: contents, which the browser calls not visible: what it
    holds is drawn all the same."""
    await ok(provider, ctx, "browser.open", url=site.url("/boxless-host"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "Free shipping on orders over $50"
    found = await ok(provider, ctx, "verb.find", text="Free shipping")
    assert found["total"] == 1


async def test_a_web_components_own_part_is_not_listed_beside_it_nor_matched_apart(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A press on the circle its shadow tree draws is a press on the radio: one element, and
    a click by its text names it once."""
    await ok(provider, ctx, "browser.open", url=site.url("/component-radio"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(e["selector"], e.get("label")) for e in elements] == [("body > x-radio", "Team")]
    clicked = await ok(provider, ctx, "browser.click", text="Team")
    assert (clicked["clicked"], clicked.get("checked")) == ("body > x-radio", True)


async def test_a_picture_named_where_no_text_says_it_is_told_whatever_its_size(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/word-picture"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["notice"] == (
        'Pictures among the text, named where no text says it: "lantern" after "word in the '
        'picture.".'
    )


async def test_a_components_see_through_field_and_wrapped_button_are_listed_once_each(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The field is drawn see-through until it is focused: the box it is drawn in stands for
    it. The host that points as a button does is not listed beside the button it wraps."""
    await ok(provider, ctx, "browser.open", url=site.url("/component-field"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(e["selector"], e.get("label")) for e in elements] == [
        ('body > x-field >> input[aria-label="Your name"]', "Your name"),
        ("body > x-button >> button", "Join"),
    ]
    field = elements[0]["selector"]
    typed = await ok(provider, ctx, "browser.type", selector=field, value="Ann")
    assert typed["value"] == "Ann"


async def test_a_field_is_named_by_its_label_not_the_list_it_holds_beside_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/label-with-list"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(e["selector"], e.get("label")) for e in elements] == [("#from", "From:")]


async def test_a_box_scrolled_by_itself_is_read_where_it_shows(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A chat opened at its latest messages: the text too long for one snapshot is the part
    of its log in view and what comes before it, not its oldest messages, which come first
    on the page after the heading."""
    await ok(provider, ctx, "browser.open", url=site.url("/chat-log"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    text = snapshot["text"]
    assert snapshot["textTotalChars"] > len(text)
    assert text.endswith("Message 599: the quick brown fox jumps over the lazy dog.")
    assert "Message 0:" not in text
    assert snapshot["textAboveChars"] > 0  # told there is more above


async def test_alike_checkboxes_in_grid_cells_named_by_them_say_whose_row_they_are_in(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Every row's checkbox named alike, each in a cell that takes its name: each checkbox,
    and its cell, is listed in its row's words, not left to be told apart by counting."""
    await ok(provider, ctx, "browser.open", url=site.url("/row-checks"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    checks = [e.get("group") for e in elements if e.get("role") == "checkbox"]
    assert checks == ["Toyota Celica", "Ford Mondeo"]
    cells = [e.get("group") for e in elements if e["label"].startswith("Press Space")]
    assert cells == ["Toyota Celica"] * 2 + ["Ford Mondeo"] * 2
    # A header and the filter inside it named alike are one item: no other's words.
    make = [e for e in elements if e.get("label") == "Make"]
    assert [(e.get("role"), e.get("group")) for e in make] == [
        ("columnheader", None),
        ("searchbox", None),
    ]


async def test_a_column_header_with_a_filter_field_in_it_is_listed_and_sorts(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A header the page listens on holds a filter field (Tabulator's): both are listed, the
    header as the control that sorts, not dropped as a mere wrapper of the field. A column's
    resize handle is listed after its header, not again in every row."""
    await ok(provider, ctx, "browser.open", url=site.url("/filter-headers"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(e.get("role"), e["label"]) for e in elements] == [
        ("columnheader", "Name"),
        ("searchbox", "Name"),
        (None, "resize handle"),
        ("columnheader", "Age"),
        ("gridcell", "Oli Bob"),
        ("gridcell", "12"),
        ("gridcell", "Mary May"),
        ("gridcell", "1"),
    ]
    clicked = await ok(provider, ctx, "browser.click", selector=elements[0]["selector"])
    assert clicked["sort"] == "ascending"


async def test_the_x_on_each_tag_in_a_box_that_takes_several_is_listed_and_removes_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """select2's remove mark on a chosen tag is marked role presentation inside the box's combobox,
    yet styled as a press of its own: listed, one to a tag, and a click on one removes that
    tag and opens no list."""
    await ok(provider, ctx, "browser.open", url=site.url("/tag-box"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    removes = [e for e in elements if e["label"] == "\u00d7"]
    assert [(e.get("role"), e.get("group")) for e in removes] == [(None, "urgent"), (None, "later")]
    await ok(provider, ctx, "browser.click", selector=removes[0]["selector"])
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert "urgent" not in snapshot["text"]
    assert "later" in snapshot["text"]
    box = next(e for e in snapshot["elements"] if e.get("role") == "combobox")
    assert box["expanded"] is False


async def test_words_a_style_sheet_draws_beside_an_elements_own_are_read(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A required field's asterisk, a badge, a count from an attribute, a cell's label drawn by
    the page's style sheet are read where they are drawn; a counter's number (which the
    browser does not tell), a sign alone and an icon's glyph are not words."""
    await ok(provider, ctx, "browser.open", url=site.url("/drawn-words"))
    for _ in range(2):  # the read kept at the load, then one of its own
        lines = (await ok(provider, ctx, "browser.snapshot"))["text"].split("\n")
        for line in ("Full name *", "Features NEW", "Cart 3", "Plan: Pro Price: $20", "Starred"):
            assert line in lines, lines
        assert [line for line in lines if "Choose plan" in line] == ["1. Choose plan"]
        assert not [line for line in lines if "/" in line or "Step" in line], lines
        await ok(provider, ctx, "browser.scroll", direction="down")


async def test_text_a_page_hides_while_its_box_stays_is_not_read(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Clipped to nothing, transparent, of no size, or moved off the page: no person reads it,
    so neither does the agent (a page could hide orders to it there). Text drawn through a
    gradient, and words inside hidden ones drawn in their own colour, are read."""
    await ok(provider, ctx, "browser.open", url=site.url("/hidden-text"))
    text = (await ok(provider, ctx, "browser.snapshot"))["text"]
    assert text.split("\n") == [
        "Visible sentence.",
        "Partly clipped",
        "Half shown",
        "Gradient text",
        "Kept",
        "Inside a placed box",
    ]


async def test_a_maps_markers_popup_and_controls_drawn_out_of_boxes_of_no_size_are_read(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Leaflet draws markers and an open popup in a pane of no size that a translation moves
    (not one scaled to nothing), and its controls from a holder of no height at the map's
    edge (no sign of where they are drawn): all of them show, and are read."""
    await ok(provider, ctx, "browser.open", url=site.url("/map"))
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"] == "Our office \u00d7\n+"
    labels = [element.get("label") for element in snapshot["elements"]]
    assert {"Office", "Close popup", "Zoom in"} <= set(labels), labels


async def test_alike_buttons_each_in_a_web_components_own_tree_say_whose_they_are(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Each tag's Remove is drawn in the tag's shadow tree (Shoelace's): each is listed in
    its tag's words, found out through the shadow root."""
    await ok(provider, ctx, "browser.open", url=site.url("/shadow-tags"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    removes = [e.get("group") for e in elements if e["label"] == "Remove"]
    assert removes == ["Cheese", "Olives"]


async def test_progress_bars_and_meters_are_listed_with_how_far_along_they_are(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Their text is nothing, so the snapshot's text cannot say how far an upload is: each is
    listed with its name and its value (busy, where it does not say)."""
    await ok(provider, ctx, "browser.open", url=site.url("/progress"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [(e["label"], e["value"]) for e in elements] == [
        ("Upload", "70%"),
        ("Disk used", "8 (0 to 10)"),
        ("Sync", "busy"),
        ("Import", "40"),
    ]


async def test_each_star_of_a_rating_the_page_listens_on_as_a_whole_is_listed_and_pressed(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The page listens on the row of stars and reads which one was pressed: the stars are
    listed, each pressed on itself, not the row, whose middle may be between two."""
    await ok(provider, ctx, "browser.open", url=site.url("/star-rating"))
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    assert [e["selector"] for e in elements] == [
        f"#stars > span:nth-of-type({n})" for n in range(1, 6)
    ]
    await ok(provider, ctx, "browser.click", selector=elements[3]["selector"])
    assert await in_page(provider, ctx, "rated.textContent") == "4"


async def test_a_page_that_inflates_its_answer_is_read_within_the_limits(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The page script runs in the page, which can replace it: what it answers is cut to the
    snapshot's limits, and the session goes on."""
    await ok(provider, ctx, "browser.open", url=site.url("/inflated-answer"))
    for _ in range(2):  # the first snapshot after the open, and one of a settled page
        snapshot = await ok(provider, ctx, "browser.snapshot")
        assert len(snapshot["text"]) == SNAPSHOT_TEXT_MAX
        assert len(snapshot["elements"]) == SNAPSHOT_ELEMENTS_MAX
    await ok(provider, ctx, "browser.click", text="Press")
    assert await out_line(provider, ctx) == "pressed"
