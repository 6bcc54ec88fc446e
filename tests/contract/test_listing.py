"""How the CLI and the MCP text show an answer: a snapshot's element kinds, state notes and what
was left out, and what an action caused."""

from __future__ import annotations

import json

import pytest

from browserhost.render import (
    element_kind,
    element_notes,
    quoted,
    snapshot_notes,
    terminal_lines,
)


def test_a_kind_names_the_role_and_a_type_that_adds_to_it() -> None:
    assert element_kind({"tag": "input", "role": "checkbox", "type": "checkbox"}) == "checkbox"
    assert element_kind({"tag": "input", "role": "textbox", "type": "email"}) == "textbox[email]"
    assert element_kind({"tag": "li"}) == "li"


def test_notes_say_the_state_a_person_sees() -> None:
    field = {"value": 'say "hi"', "required": True, "invalid": True, "inViewport": False}
    assert element_notes(field) == ['value="say \\"hi\\""', "required", "invalid", "off-screen"]
    assert element_notes({"checked": False, "expanded": True}) == ["unchecked", "expanded"]
    assert element_notes({"checked": "mixed", "pressed": True}) == ["checked=mixed", "pressed"]
    assert element_notes({"selected": False, "covered": True}) == ["not selected", "covered"]
    assert element_notes({"disabled": False, "inViewport": True}) == []


def test_a_value_cut_short_says_how_much_is_left_and_how_to_read_it() -> None:
    cut = {"value": "x" * 199 + "…", "valueTotalChars": 1433}
    assert element_notes(cut) == [f'value="{"x" * 199}…" (+1,234 chars; inspect it to read all)']
    huge = {"value": "y…", "valueTotalChars": 30_000}
    assert element_notes(huge) == ['value="y…" (+29,999 chars; inspect reads the first 20,000)']


@pytest.mark.parametrize("value", ["Näme — ✓", 'say "hi"\n', "", 7, 1.5, None, True, ["ä", 2]])
def test_labels_and_values_are_quoted_as_json_with_non_ascii_kept(value: object) -> None:
    assert quoted(value) == json.dumps(value, ensure_ascii=False)


def test_notes_quote_values_and_options_keeping_non_ascii() -> None:
    select = {"value": "Zürich", "options": ["Zürich", "Genève"], "multiple": True}
    assert element_notes(select) == ['value="Zürich"', 'several of options "Zürich", "Genève"']
    cut = {"options": ["00", "01"], "optionsTotal": 100}
    assert element_notes(cut) == ['options "00", "01" and 98 more']


def test_snapshot_notes_say_what_was_left_out_and_the_notice() -> None:
    cut = {
        "elements": [{}] * 250,
        "elementsTruncated": True,
        "interactiveElementsOnPage": 1439,
        "elementsAbove": 900,
        "elementsBelow": 289,
        "textTruncated": True,
        "textAboveChars": 19042,
        "textBelowChars": 0,
        "textTotalChars": 38845,
        "notice": "The page is still loading; what it shows may change.",
    }
    assert snapshot_notes(cut) == [
        "elements: 250 listed of 1439, the rest 900 above and 289 below the viewport; scroll, "
        "or scope the snapshot with a selector",
        "text: the part around the viewport; 19042 characters above it, 0 below, 38845 in all",
        "The page is still loading; what it shows may change.",
    ]
    assert snapshot_notes({"elements": [], "text": "short"}) == []


def test_a_click_says_where_its_downloads_went_and_why_one_was_not_saved() -> None:
    answer = {
        "url": "https://site.test/files",
        "title": "Files",
        "clicked": "#all",
        "label": "Download all",
        "downloads": [
            {"filename": "report.csv", "path": "/work/app/.browserhost/downloads/report.csv"},
            {"filename": "video.mp4", "error": "larger than 100 MB; cancelled, not saved"},
        ],
    }
    assert [line.plain for line in terminal_lines("browser.click", answer)] == [
        'Clicked "Download all" (#all)  now at https://site.test/files',
        "Downloaded report.csv to /work/app/.browserhost/downloads/report.csv",
        "Download video.mp4: larger than 100 MB; cancelled, not saved",
    ]
