"""Long values read whole, and ``find`` over all the text a person sees (issue 24).

``longvalue.html`` holds a textarea, an editable box and a combobox whose values run past what
a snapshot of the page shows, each ending in a word of its own. ``docindex.html`` is shaped like
the Python docs' index: an entry is plain text in a list item, with its links beside it or in a
list nested under it, then a table whose rows end in a link.
"""

from __future__ import annotations

from typing import Any

import pytest

from browserhost.contract import Context, data
from browserhost.providers.chromium import ChromiumProvider
from browserhost.render import element_notes

from .driving import assert_shape, in_page, ok, out_line, refused
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")

VALUE_CUT = 200
"""What a snapshot of the page shows of a value (``VALUE_MAX`` in ``snapshot.js``)."""
FOUND_TEXT_MAX = 160


async def _open(provider: ChromiumProvider, site: Site, ctx: Context, page: str) -> None:
    await ok(provider, ctx, "browser.open", url=site.url(f"/w/{page}"))


async def _page_value(provider: ChromiumProvider, ctx: Context, selector: str) -> str:
    """What the page itself holds in a field, or shows in an element."""
    script = f"(() => {{ const el = document.querySelector({selector!r}); "
    value: str = await in_page(provider, ctx, script + "return el.value ?? el.textContent; })()")
    return value


# --- values cut short ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("selector", "last"), [("#notes", "Quokka."), ("#story", "Pangolin."), ("#route", "Ocelot.")]
)
async def test_a_long_value_is_cut_in_a_page_snapshot_with_its_length_and_inspect_reads_it_all(
    provider: ChromiumProvider, site: Site, ctx: Context, selector: str, last: str
) -> None:
    await _open(provider, site, ctx, "longvalue.html")
    whole = await _page_value(provider, ctx, selector)
    assert whole.endswith(last)
    assert len(whole) > VALUE_CUT
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert_shape(data.SnapshotData, snapshot)  # valueTotalChars is documented
    [listed] = [e for e in snapshot["elements"] if e["selector"] == selector]
    assert len(listed["value"]) == VALUE_CUT
    assert listed["value"].endswith("…")
    assert last not in listed["value"]
    assert listed["valueTotalChars"] == len(whole)
    left = len(whole) - (VALUE_CUT - 1)
    assert f"(+{left:,} chars; inspect it to read all)" in element_notes(listed)[0]

    inspected = await ok(provider, ctx, "browser.inspect", selector=selector)
    assert inspected["value"] == whole
    assert "valueTotalChars" not in inspected


async def test_a_snapshot_scoped_to_a_field_gives_its_whole_value(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "longvalue.html")
    scoped = await ok(provider, ctx, "browser.snapshot", selector="#notes")
    [notes] = scoped["elements"]
    assert notes["value"] == await _page_value(provider, ctx, "#notes")
    assert notes["value"].endswith("Quokka.")
    assert "valueTotalChars" not in notes


async def test_typing_a_long_value_answers_it_cut_with_its_length(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "longvalue.html")
    text = "Rain all day. " * 32 + "Wombat"
    typed = await ok(provider, ctx, "browser.type", selector="#notes", value=text)
    assert (len(typed["value"]), typed["valueTotalChars"]) == (VALUE_CUT, len(text))
    assert await out_line(provider, ctx) == f"out: notes {len(text)} chars, ending Wombat"
    assert (await ok(provider, ctx, "browser.inspect", selector="#notes"))["value"] == text


# --- find over all visible text -------------------------------------------------------------


async def _find(provider: ChromiumProvider, ctx: Context, text: str) -> list[dict[str, Any]]:
    found = await ok(provider, ctx, "verb.find", text=text)
    assert found["total"] == len(found["elements"])
    elements: list[dict[str, Any]] = found["elements"]
    return elements


async def test_find_matches_plain_text_in_a_list_item_and_names_the_link_under_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The Python docs' index: "sum()" is text, its link "built-in function" is nested."""
    await _open(provider, site, ctx, "docindex.html")
    [entry] = await _find(provider, ctx, "sum()")  # not the hidden "sum() of hidden things"
    assert (entry["tag"], entry["text"], entry["inViewport"]) == (
        "li",
        "sum() built-in function",
        True,
    )
    script = f"document.querySelector({entry['selector']!r}).firstChild.data.trim()"
    assert await in_page(provider, ctx, script) == "sum()"  # the selector names that item
    link = entry["near"][0]
    assert (link["tag"], link["label"]) == ("a", "built-in function")
    await ok(provider, ctx, "browser.click", selector=link["selector"])
    assert await out_line(provider, ctx) == "out: open library/functions.html#sum"


async def test_a_click_by_text_means_the_open_dialogs_button_not_the_covered_page_s(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The page's buttons are named "Delete" exactly, the dialog's reads "DELETE" as drawn:
    the one a person sees is meant."""
    await ok(provider, ctx, "browser.open", url=site.url("/delete-dialog"))
    clicked = await ok(provider, ctx, "browser.click", text="Delete")
    assert clicked["label"] == "DELETE"
    assert await in_page(provider, ctx, "out.textContent") == "deleted"


async def test_a_click_by_text_that_matches_buttons_of_several_rows_names_their_rows(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/row-actions"))
    error = await refused(provider, ctx, "browser.click", text="Edit")
    assert error == (
        '"Edit" matches 2 elements: body > div:nth-of-type(1) > button (button "Edit" in '
        '"Alpha"); body > div:nth-of-type(2) > button (button "Edit" in "Beta"). Nothing was '
        "clicked; click one by its selector."
    )
    # Beside another action of every row, each is in its row's words, not in that action's.
    listed = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    rows = ["Ada Changer", "Grace Remover"]  # their words whole, where an action's name starts one
    assert [e["group"] for e in listed if e["label"] == "Change"] == rows
    assert [e["group"] for e in listed if e["label"] == "Remove"] == rows


async def test_a_click_by_a_text_many_controls_have_lists_those_around_the_view(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Thirty Likes: the refusal lists the eight nearest where the page is scrolled to."""
    await ok(provider, ctx, "browser.open", url=site.url("/many-likes"))
    await in_page(provider, ctx, "p15.scrollIntoView()")
    error = await refused(provider, ctx, "browser.click", text="Like")
    assert error.startswith('"Like" matches 30 elements: ')
    assert '#p15 > button (button "Like" in "Post 15")' in error
    assert "#p1 > button" not in error


async def test_find_quotes_the_words_around_a_cell_cell_by_cell(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/price-cells"))
    (cell,) = (await ok(provider, ctx, "verb.find", text="Widget B"))["elements"]
    assert cell["context"] == "Widget B $10 7"  # not "Widget B$107", a price of $107


@pytest.mark.parametrize(
    ("text", "tag", "href"),
    [
        ("sorted()", "li", "library/functions.html#sorted"),
        ("absolute value", "td", "library/functions.html#abs"),
        ("see also the glossary", "p", "glossary.html"),
    ],
)
async def test_find_names_the_link_in_the_same_item_or_row_not_a_neighbours(
    provider: ChromiumProvider, site: Site, ctx: Context, text: str, tag: str, href: str
) -> None:
    await _open(provider, site, ctx, "docindex.html")
    [entry] = await _find(provider, ctx, text)
    assert entry["tag"] == tag
    assert text in entry["text"]
    assert len(entry["text"]) <= FOUND_TEXT_MAX  # the long paragraph is cut around the match
    await ok(provider, ctx, "browser.click", selector=entry["near"][0]["selector"])
    assert await out_line(provider, ctx) == f"out: open {href}"


async def test_find_names_first_the_control_in_the_texts_own_row_of_plain_boxes(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The row after "Pear" starts nearer in reading order than Pear's own box, above it."""
    await ok(provider, ctx, "browser.open", url=site.url("/box-rows"))
    for name, own in (("Apple", "#c1"), ("Pear", "#c2"), ("Plum", "#c3")):
        [entry] = await _find(provider, ctx, name)
        assert entry["near"][0]["selector"] == own, name


async def test_find_lists_a_control_once_not_again_as_its_label_or_text(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await _open(provider, site, ctx, "docindex.html")
    [field] = await _find(provider, ctx, "Quick search")  # the <label> is the field's name
    assert (field["selector"], field["label"], "near" in field) == ("#q", "Quick search", False)
    found = await _find(provider, ctx, "built-in function")
    links = [e for e in found if e["tag"] == "a"]
    assert len(links) == 4
    assert not any("near" in link for link in links)
    [heading] = [e for e in found if e["tag"] != "a"]
    assert (heading["tag"], heading["selector"]) == ("h2", "#builtins")
    assert [e["label"] for e in heading["near"][:2]] == ["abs docs", "all docs"]
    await ok(provider, ctx, "browser.type", selector=field["selector"], value="sum")
    assert await _page_value(provider, ctx, "#q") == "sum"


async def test_find_says_text_scrolled_out_of_its_box_is_out_of_view(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/marks"))
    first = (await ok(provider, ctx, "verb.find", text="Line 0"))["elements"]
    last = (await ok(provider, ctx, "verb.find", text="Line 9"))["elements"]
    assert [(hit["text"], hit["inViewport"]) for hit in first + last] == [
        ("Line 0", True),
        ("Line 9", False),
    ]


async def test_text_the_page_writes_decomposed_is_found_by_the_text_as_typed(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A page that writes "ñ" as "n" and a combining tilde: a click, find and select_text
    given the text as an agent types it (composed) find it."""
    await ok(provider, ctx, "browser.open", url=site.url("/decomposed"))
    clicked = await ok(provider, ctx, "browser.click", text="\u00d1and\u00fa Caf\u00e9")
    assert clicked["label"] == "\u00d1and\u00fa Caf\u00e9"
    assert await in_page(provider, ctx, "out.textContent") == "ordered"
    found = await ok(provider, ctx, "verb.find", text="Logro\u00f1o")
    assert [item["text"] for item in found["elements"]] == ["Meet at Logro\u00f1o"]
    selected = await ok(provider, ctx, "verb.select_text", text="Logro\u00f1o")
    assert selected["selected"] == "Logron\u0303o"  # as the page reports its selection


async def test_find_gives_each_of_two_links_alike_in_a_long_paragraph_its_own_words(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Two "more" links in one long paragraph: each found with the words around it, which
    tell them apart, not with the paragraph's start."""
    await ok(provider, ctx, "browser.open", url=site.url("/two-mores"))
    found = (await ok(provider, ctx, "verb.find", text="more"))["elements"]
    assert [item["selector"] for item in found] == ['a[href="#a"]', 'a[href="#b"]']
    first, second = (item["context"] for item in found)
    assert "after apples more ipsum" in first
    assert second.endswith("ipsum after pears more end.")
    assert max(len(first), len(second)) <= 160


async def test_find_quotes_the_words_around_an_item_of_a_long_list_line_by_line(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """An item of a long list is found with the items around it, each apart as drawn: not
    "72 - appleItem 73 - pear", one item's last word run into the next one's first."""
    await ok(provider, ctx, "browser.open", url=site.url("/long-list"))
    (item,) = (await ok(provider, ctx, "verb.find", text="Item 77"))["elements"]
    assert "Item 76 - pear Item 77 - plum Item 78 - apple" in item["context"]
    assert "appleItem" not in item["context"]
    assert len(item["context"]) <= 160


async def test_text_cut_away_by_a_box_no_one_scrolls_is_not_read_as_shown(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A section collapsed to no height, a list clipped shut, a note for screen readers: find
    says their text is out of view, never the page's around them in view; a click by it is
    refused as out of reach; a snapshot lists none of it."""
    await ok(provider, ctx, "browser.open", url=site.url("/clipped-shut"))
    for text in ("Coupon accepted", "Spain"):
        (found,) = (await ok(provider, ctx, "verb.find", text=text))["elements"]
        assert (found["text"], found["inViewport"]) == (text, False)
    assert (await ok(provider, ctx, "verb.find", text="for screen readers"))["total"] == 0
    refusal = await refused(provider, ctx, "browser.click", text="Spain")
    assert "a box that shows only part of what it holds" in refusal
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert (snapshot["text"], snapshot["elements"]) == ("Your order", [])
