"""The extension refuses what the chromium provider refuses, in the same words: the checks of
``refusals.js`` run in a real Chromium beside their Python twins, on the same page-script
answers, and each pair must say the same thing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest
from playwright.sync_api import Page, Route, sync_playwright

from browserhost.providers.chromium import fields, pointer, targets
from browserhost.providers.pointer_verbs import MOUSE_DONE
from browserhost.sdk import ActionError
from tests.extension.conftest import EXTENSION

ORIGIN = "http://extension.test"

COVER = {"selector": "#cookies", "tag": "div", "label": "We use cookies"}
AIMS: list[dict[str, Any]] = [
    {},
    {"hidden": True},
    {
        "hidden": True,
        "closedIn": {"selector": "#more > summary", "tag": "summary", "label": "More"},
    },
    {"hidden": True, "standIn": {"selector": "#speed-button", "tag": "span", "label": "Fast"}},
    {"clipped": True, "standIn": {"selector": "button.dropdown-toggle", "tag": "button"}},
    {"inert": True},
    {"inert": True, "pressedBy": {"selector": "div.v-field", "tag": "div", "label": "Country"}},
    {"blocked": {"selector": "#app", "tag": "div"}},
    {"hidden": True, "hoverShows": {"selector": "span.number", "tag": "span"}},
    {"hidden": True, "focusShows": {"selector": "div.date", "tag": "div"}},
    {"moving": True},
    {"text": "report.pdf", "repeated": 2},
    {"text": "report.pdf", "noText": True},
    {"text": "report.pdf", "offText": COVER},
    {"text": "report.pdf", "offText": {"selector": "#icon", "tag": "svg"}},
    {"outside": True},
    {"outside": True, "larger": True},
    {"through": {"selector": "#drawing", "tag": "svg"}},
    {"coveredBy": COVER},
    {"coveredBy": {"selector": "#veil", "tag": "div"}},
]
USABLE: list[dict[str, Any]] = [{"disabled": True, "aim": {}}, *({"aim": aim} for aim in AIMS)]
FOUND: list[dict[str, Any]] = [
    {},
    {"error": "invalid"},
    {"error": "nohost", "partial": "#plain"},
    {"error": "count", "count": 0},
    {"error": "count", "count": 3, "selector": "#list >> li"},
]
TEXT_FIELDS: list[dict[str, Any]] = [
    {"typable": True},
    {"typable": False, "tag": "div"},
    {"typable": False, "tag": "input", "type": "checkbox"},
    {"typable": True, "readonly": True},
    {"typable": True, "readonly": True, "role": "combobox"},
    *({"typable": False, "tag": "div", "role": role} for role in targets.WIDGET_ADVICE),
]
OPTIONS = [{"label": f"Colour {n}", "value": f"c{n}"} for n in range(25)]
WANTED = ["Colour 3", "c4", "colour 5", "Mauve"]


@pytest.fixture(scope="module")
def page(chromium_path: str) -> Iterator[Page]:
    """A page that can import the extension's modules (served from its folder)."""

    def from_folder(route: Route) -> None:
        name = route.request.url.removeprefix(f"{ORIGIN}/")
        if name == "":
            route.fulfill(content_type="text/html", body="<!doctype html><title>t</title>")
        else:
            route.fulfill(content_type="text/javascript", body=(EXTENSION / name).read_text())

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path)
        shown = browser.new_page()
        shown.route(f"{ORIGIN}/**", from_folder)
        shown.goto(f"{ORIGIN}/")
        yield shown
        browser.close()


def said(check: Callable[[], object]) -> str | None:
    """What the Python check refuses with, or ``None``."""
    try:
        check()
    except ActionError as refused:
        return str(refused)
    return None


def said_in_js(page: Page, call: str, args: list[Any]) -> list[str | None]:
    """``call(...args)`` of refusals.js for each of ``args``: what it refuses with, or null."""
    answers: list[str | None] = page.evaluate(
        """async ([call, args]) => {
          const refusals = await import("./refusals.js");
          return args.map((arg) => {
            try {
              refusals[call](...arg);
              return null;
            } catch (error) {
              if (!(error instanceof refusals.Refusal)) throw error;
              return error.message;
            }
          });
        }""",
        [call, args],
    )
    return answers


def test_the_usability_refusals_are_the_chromium_providers(page: Page) -> None:
    # What each refusal says was not done: a click's, a typing's, and each other input aimed
    # as a click is (hover, drag, the mouse's actions).
    for done in dict.fromkeys(["clicked", "typed", "hovered", "dragged", *MOUSE_DONE.values()]):
        python = [said(partial(targets.check_usable, "#go", info, done)) for info in USABLE]
        assert said_in_js(page, "checkUsable", [["#go", i, done] for i in USABLE]) == python
        assert sum(refused is not None for refused in python) == len(USABLE) - 1
        assert all(f"nothing was {done}" in refused for refused in python if refused)


def test_the_selector_refusals_are_the_chromium_providers(page: Page) -> None:
    found = [said(partial(targets.check_found, answer, "#go")) for answer in FOUND]
    assert said_in_js(page, "checkFound", [[answer, "#go"] for answer in FOUND]) == found
    counts = [said(partial(targets.check_count, n, "li")) for n in (0, 1, 2)]
    assert said_in_js(page, "checkCount", [[n, "li"] for n in (0, 1, 2)]) == counts
    assert counts[1] is None
    assert None not in (counts[0], counts[2])


CANDIDATES: list[dict[str, Any]] = [
    {"selector": "#a", "tag": "button", "label": "Delete"},
    {"selector": "#b", "tag": "button", "label": "Delete", "group": "Ada Diaz"},
    {"selector": "#c", "tag": "span", "label": "30", "marked": "other month"},
    {"selector": "#d", "tag": "a", "label": "1", "group": "April", "marked": "other month"},
]


def test_the_candidates_a_text_matches_are_listed_as_the_chromium_provider_lists_them(
    page: Page,
) -> None:
    js = page.evaluate(
        """async (all) => all.map((await import("./refusals.js")).candidate)""", CANDIDATES
    )
    assert js == [targets.candidate(match) for match in CANDIDATES]
    assert js[3] == '#d (a "1" in "April", marked other month)'


def test_a_click_whose_selector_does_not_show_its_text_is_refused_in_the_same_words(
    page: Page,
) -> None:
    for label in ("Write the report", ""):
        js = page.evaluate(
            """async (label) =>
              (await import("./refusals.js")).notShowing("#card", "Book the room", label)""",
            label,
        )
        assert js == targets.not_showing("#card", "Book the room", label)


def test_the_notice_of_a_row_drawn_again_for_another_item_is_the_chromium_providers(
    page: Page,
) -> None:
    for done in ("clicked", "typed into"):
        js = page.evaluate(
            """async (done) => (await import("./refusals.js")).chased("#a", "#b", done)""", done
        )
        assert js == targets.chased("#a", "#b", done)


def test_the_typing_refusals_are_the_chromium_providers(page: Page) -> None:
    python = [said(partial(targets.check_takes_text, "#q", info)) for info in TEXT_FIELDS]
    assert said_in_js(page, "checkTakesText", [["#q", info] for info in TEXT_FIELDS]) == python
    assert python[0] is None
    assert None not in python[1:]


def test_the_option_refusal_and_choice_are_the_chromium_providers(page: Page) -> None:
    python = [said(partial(fields.option_value, "#colour", OPTIONS, w)) for w in WANTED]
    assert said_in_js(page, "optionValue", [["#colour", OPTIONS, w] for w in WANTED]) == python
    chosen = page.evaluate(
        """async ([options, wanted]) => {
          const { optionValue } = await import("./refusals.js");
          return wanted.slice(0, 3).map((one) => optionValue("#colour", options, one));
        }""",
        [OPTIONS, WANTED],
    )
    assert chosen == [fields.option_value("#colour", OPTIONS, w) for w in WANTED[:3]]


HIDDEN: list[dict[str, Any]] = [
    {"selector": "#p", "tag": "a", "label": "Privacy", **where}
    for where in (
        {"opener": {"selector": "#account", "tag": "button", "label": "Account"}},
        {"opener": {"selector": "#products", "tag": "a", "label": "Products", "leaves": True}},
        {"within": {"selector": "nav", "tag": "nav", "label": "Account Profile Privacy"}},
        {},
        {
            "alike": [
                {"selector": "#p", "tag": "a", "label": "Privacy", "group": "Account"},
                {"selector": "#q", "tag": "a", "label": "Privacy"},
            ],
            "alikeTotal": 7,
        },
    )
]


def test_the_refusal_for_a_control_hidden_in_a_closed_menu_is_the_chromium_providers(
    page: Page,
) -> None:
    for words, doing in (("CLICKING", ("click", "clicked")), ("DRAGGING", ("drag", "dragged"))):
        python = [targets.hidden_refusal("Privacy", hidden, doing) for hidden in HIDDEN]
        js = page.evaluate(
            """async ([words, hiddens]) => {
              const refusals = await import("./refusals.js");
              return hiddens.map((hidden) => {
                try {
                  const found = { total: 0, matches: [], hidden };
                  refusals.checkFoundText("Privacy", found, refusals[words]);
                } catch (error) {
                  return error.message;
                }
              });
            }""",
            [words, HIDDEN],
        )
        assert js == python


def test_the_refusal_for_words_of_an_element_that_is_no_control_is_the_chromium_providers(
    page: Page,
) -> None:
    among = {"selector": "#p1", "tag": "p", "label": "The quick brown fox jumps over the lazy"}
    for words, doing in (("CLICKING", ("click", "clicked")), ("HOVERING", ("hover", "hovered"))):
        js = page.evaluate(
            """async ([words, among]) => {
              const refusals = await import("./refusals.js");
              try {
                refusals.checkFoundText("lazy", { total: 0, matches: [], among }, refusals[words]);
              } catch (error) {
                return error.message;
              }
            }""",
            [words, among],
        )
        assert js == targets.among_refusal("lazy", among, doing)


DROPS: list[dict[str, Any]] = [
    {"to": {"x": 1, "y": 2}},
    {"gone": True},
    {"changed": True},
    {"inside": True},
    {"hidden": True},
    {"apartIn": "#box"},
    {"outside": True},
    {"clipped": True},
    {"through": {"selector": "#drawing", "tag": "svg"}},
    {"coveredBy": COVER},
]


def test_the_drop_refusals_are_the_chromium_providers(page: Page) -> None:
    python = [said(partial(pointer.check_droppable, "#a", "#b", found)) for found in DROPS]
    assert said_in_js(page, "checkDroppable", [["#a", "#b", found] for found in DROPS]) == python
    assert python[0] is None
    assert all("nothing was dragged" in refused for refused in python[1:] if refused)
    assert None not in python[1:]
