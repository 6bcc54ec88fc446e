"""The extension's pointer verbs, end to end: ``hover``, ``drag``, ``select_text`` and
``mouse`` declared with the chromium provider's schemas, run in a real Chromium through the
host's HTTP API, each checked by what the page itself recorded."""

from __future__ import annotations

from browserhost.providers.chromium import pointer
from browserhost.providers.pointer_verbs import (
    HOVER_HELP,
    MOUSE_HELP,
    DragArguments,
    HoverArguments,
    MouseArguments,
    SelectTextArguments,
)
from tests.conftest import LiveServer
from tests.extension.conftest import Loaded, act, data, declared_verbs
from tests.providers.chromium.site import Site


def test_the_extension_declares_the_pointer_verbs_with_their_schemas(
    extension: Loaded, server: LiveServer
) -> None:
    verbs = declared_verbs(server)
    assert verbs["drag"]["inputSchema"] == DragArguments.model_json_schema()
    assert verbs["select_text"]["inputSchema"] == SelectTextArguments.model_json_schema()
    assert verbs["hover"]["inputSchema"] == HoverArguments.model_json_schema()
    assert verbs["mouse"]["inputSchema"] == MouseArguments.model_json_schema()
    assert (verbs["hover"]["description"], verbs["mouse"]["description"]) == (
        HOVER_HELP,
        MOUSE_HELP,
    )
    for name in ("hover", "drag", "select_text", "mouse"):
        assert verbs[name]["changesPage"] is True, name


def test_hover_by_text_moves_the_pointer_from_where_it_was(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/tabs.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        first = data(act(http, "verb.hover", text="Proin dolor"))
        assert (first["hovered"], first["label"]) == ('li[aria-controls="tabs-2"]', "Proin dolor")
        assert first["start"] == first["end"]  # nothing had moved the pointer on this page yet
        second = data(act(http, "verb.hover", text="Aenean lacinia"))
    assert (second["start"]["x"], second["start"]["y"]) == (first["end"]["x"], first["end"]["y"])
    assert second["end"]["under"]["label"] == "Aenean lacinia"
    assert second["title"] == "Tabs"
    hovered = "[...document.querySelectorAll('li.ui-state-hover')].map((li) => li.textContent)"
    assert extension.page(url).evaluate(hovered) == ["Aenean lacinia"]


LAST_OUT = "window.log.filter((line) => line.startsWith('out:')).at(-1)"
"""The last event the canvas page told of (its other lines are what it drew)."""


def test_mouse_clicks_double_clicks_and_right_clicks_at_points_of_a_canvas(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/canvas.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        clicked = data(act(http, "verb.mouse", action="click", x=120, y=80))
        page = extension.page(url)
        assert page.evaluate(LAST_OUT) == "out: click 120,80 detail 1"
        assert "stamp 120,80" in page.evaluate("window.log")  # waited for
        board = {"selector": "#board", "tag": "canvas"}
        assert clicked["start"] == clicked["end"] == {"x": 120, "y": 80, "under": board}
        double = data(act(http, "verb.mouse", action="click", x=60, y=40, clickCount=2))
        assert page.evaluate(LAST_OUT) == "out: dblclick 60,40"
        assert (double["start"]["x"], double["start"]["y"]) == (120, 80)
        data(act(http, "verb.mouse", action="click", x=10, y=20, button="right"))
        assert page.evaluate("window.log.slice(-3)") == [
            "out: down 10,20 button 2",
            "out: contextmenu 10,20",
            "out: up 10,20",
        ]


def test_mouse_down_move_and_up_draw_a_stroke_and_a_wheel_scrolls(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/canvas.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        data(act(http, "verb.mouse", action="down", x=20, y=20))
        data(act(http, "verb.mouse", action="move", x=200, y=150))
        data(act(http, "verb.mouse", action="up"))  # where the pointer is
        page = extension.page(url)
        log = page.evaluate("window.log")
        assert "draw 200,150" in log
        assert [line for line in log if line.startswith("out:")] == [
            "out: down 20,20 button 0",
            "out: up 200,150",
            "out: click 200,150 detail 1",  # pressed and released on the canvas: a click
        ]
        page.evaluate("window.log.length = 0")
        turned = data(act(http, "verb.mouse", action="wheel", x=200, y=200, deltaY=400))
        assert page.evaluate("[window.log, scrollY]") == [["wheel 400"], 400]
        assert turned["end"]["under"]["tag"] == "div"  # the canvas scrolled away from the point


def test_mouse_refuses_a_point_outside_the_viewport_and_one_place_too_many(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/canvas.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        width = extension.page(url).evaluate("innerWidth")
        outside = act(http, "verb.mouse", action="click", x=width, y=10)
        assert outside.status_code == 400, outside.text
        assert outside.json()["error"].startswith(f"({width}, 10) is outside the viewport")
        both = act(http, "verb.mouse", action="click", x=10, y=10, selector="#board")
        assert both.status_code == 400, both.text
        assert "one place" in both.json()["error"]
        # Past the declared schema (a negative x, an action it does not name): the host
        # refuses it before anything reaches the extension, and goes on answering.
        for action, x in (("click", -5), ("tap", 5)):
            refused = act(http, "verb.mouse", action=action, x=x, y=10)
            assert (refused.status_code, refused.json()["code"]) == (400, "INVALID_ACTION")
        assert data(act(http, "verb.mouse", action="move", x=5, y=5))["end"]["x"] == 5
    assert extension.page(url).evaluate("window.log") == []


def test_a_drag_onto_a_column_runs_the_pages_html5_drag_and_drop(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/ext-dragdrop.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        dragged = data(act(http, "verb.drag", selector="#card-a", toSelector="#done"))
    page = extension.page(url)
    assert page.evaluate("window.log") == ["out: dropped card-a in done"]
    assert page.evaluate("[...document.querySelectorAll('#done .card')].map((c) => c.id)") == [
        "card-a"
    ]
    assert (dragged["dragged"], dragged["label"]) == ("#card-a", "Write the report")
    assert dragged["start"]["under"]["selector"] == "#card-a"
    assert dragged["end"]["under"]["selector"] == "#done"
    assert (dragged["url"], dragged["title"]) == (url, "Board (HTML5 drag and drop)")


def test_a_drag_reorders_a_sortable_list_driven_by_mouse_events(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/ext-sortable.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        onto = data(act(http, "verb.drag", text="Dates", toText="Bananas"))
        page = extension.page(url)
        assert page.evaluate("window.log") == ["out: order: apples,dates,bananas,cherries"]
        down = data(act(http, "verb.drag", text="Apples", offsetY=100))
    assert page.evaluate("window.log")[1:] == ["out: order: dates,bananas,apples,cherries"]
    assert onto["label"] == "Dates"
    assert round(down["end"]["y"] - down["start"]["y"], 1) == 100


def test_a_drag_reorders_a_list_the_browsers_own_drag_and_drop_sorts(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: a list that holds still a moment after each move
    (SortableJS) is passed item by item, the drag's moves a frame apart."""
    url = site.url("/w/native-sortable.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        data(act(http, "verb.drag", text="Eggs", toText="Apples"))
        out = extension.page(url).evaluate("document.getElementById('out').textContent")
    assert out == "out: order e,a,b,c,d"


def test_a_drag_whose_drop_the_page_refused_says_nothing_moved(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: a drop zone the page never lets take a drop."""
    url = site.url("/w/dragdrop.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        refused = act(http, "verb.drag", text="Plums", toSelector="#freezer")
        assert refused.json()["code"] == "PROVIDER_REJECTED", refused.text
        assert refused.json()["error"].startswith(
            '[data-id="plums"] was dragged, but the page did not take it where it was dropped, '
            "on #freezer: the drag ended with nothing dropped, so nothing moved."
        )
    assert extension.page(url).evaluate("window.log") == ["dragstart plums", "dragend none"]


def test_a_refused_mouse_says_what_its_action_did_not_do(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As the chromium provider says it: a mouse move refused is no click."""
    url = site.url("/w/dragdrop.html")
    covered = '#archive is covered by #notice (div "Archive is closed today"), so nothing was'
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        for action, done in (("move", "moved"), ("down", "pressed")):
            refused = act(http, "verb.mouse", action=action, selector="#archive")
            assert refused.json()["code"] == "PROVIDER_REJECTED", refused.text
            assert refused.json()["error"].startswith(f"{covered} {done}. ")
    assert extension.page(url).evaluate("window.log") == []


def test_a_drag_by_text_drops_on_the_middle_of_the_tile_the_text_labels(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """The page script finds the tile a text labels for the extension too (dropItem)."""
    url = site.url("/tiles")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        dragged = data(act(http, "verb.drag", text="A", toText="D"))
    assert extension.page(url).evaluate("out.textContent") == "out: order B,C,D,A,E,F"
    assert dragged["end"]["under"]["tag"] == "li"


def test_a_drag_without_one_destination_is_refused_and_nothing_moves(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/ext-sortable.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        refused = act(http, "verb.drag", text="Apples", toText="Dates", offsetY=40)
        outside = act(http, "verb.drag", text="Apples", offsetY=-5000)
        by_offset = act(http, "verb.drag", text="Apples", offsetY=40, at="after")
    assert refused.json()["code"] == "PROVIDER_REJECTED", refused.text
    assert refused.json()["error"].startswith("Give one destination")
    assert "outside the" in outside.json()["error"]
    assert by_offset.json()["error"].startswith("at places the drop on an element")
    assert extension.page(url).evaluate("window.log") == []


def test_a_drag_drops_before_or_after_the_item_it_is_dropped_on(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: this list, as jQuery UI's, goes by which way the
    pointer moves over an item, and `at` says which side."""
    url = site.url("/w/sortable.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        data(act(http, "verb.drag", text="Item 1", toText="Item 3", at="before"))
        first = extension.page(url).evaluate("document.getElementById('out').textContent")
        data(act(http, "verb.drag", text="Item 4", toText="Item 2", at="after"))
        second = extension.page(url).evaluate("document.getElementById('out').textContent")
    assert (first, second) == ("out: order 2,1,3,4", "out: order 2,4,1,3")


def test_a_drop_a_person_could_not_make_is_refused_in_the_providers_words(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/list-in-a-box")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        refused = act(http, "verb.drag", text="Ticket 20", toText="Ticket 1")
    assert refused.json()["code"] == "PROVIDER_REJECTED", refused.text
    assert "do not show together in #box, the box that scrolls them" in refused.json()["error"]


def test_select_text_selects_it_with_the_mouse_as_the_page_sees_on_mouseup(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/ext-highlight.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        spread = data(act(http, "verb.select_text", text="quick brown fox jumps"))
        page = extension.page(url)
        assert page.evaluate("window.log") == ["out: selected: quick brown fox jumps"]
        scoped = data(act(http, "verb.select_text", text="FOX", selector="#second"))
        far = data(act(http, "verb.select_text", text="hidden treasure"))
    assert page.evaluate("window.log")[1:] == [
        "out: selected: fox",
        "out: selected: Hidden Treasure",
    ]
    assert spread["selected"].split() == ["quick", "brown", "fox", "jumps"]
    assert spread["selector"] == "#first"
    assert spread["start"]["under"]["tag"] == "b"  # the press was on "quick"
    assert (scoped["selected"], scoped["selector"]) == ("fox", "#second")
    assert far["selected"] == "Hidden Treasure"
    assert page.evaluate("scrollY") > 0  # scrolled to it, below the fold


def test_select_text_refuses_a_text_the_page_does_not_show_and_selects_nothing(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/ext-highlight.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        refused = act(http, "verb.select_text", text="purple elephant")
        elsewhere = act(http, "verb.select_text", text="second fox", selector="#first")
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"] == (
        '"purple elephant" is not on the page, so nothing was selected; take a new snapshot '
        "and give the text as it shows there."
    )
    assert elsewhere.json()["error"].startswith('"second fox" is not inside #first')
    page = extension.page(url)
    assert page.evaluate("window.log") == []
    assert page.evaluate("getSelection().toString()") == ""


def test_select_text_selects_in_a_fields_value_the_field_focused(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: a field's value is selected in the field."""
    url = site.url("/copy-field")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        chosen = data(act(http, "verb.select_text", text="Kq7-ZZ19-xwv", selector="#src"))
        found = data(act(http, "verb.select_text", text="ab-12"))
    assert chosen == {"selected": "Kq7-ZZ19-xwv", "selector": "#src"}
    assert found == {"selected": "AB-12", "selector": "#code"}
    page = extension.page(url)
    assert page.evaluate("[document.activeElement.id, document.activeElement.selectionEnd]") == [
        "code",
        5,
    ]


def test_select_text_looks_into_iframes_as_a_snapshot_reads_them(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/frames.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        named = data(act(http, "verb.select_text", text="inner: none", selector="#cross"))
        page = extension.page(url)
        [same] = [frame for frame in page.frames if frame.name == "same"]
        [cross] = [frame for frame in page.frames if "cross=1" in frame.url]
        assert cross.evaluate("getSelection().toString()") == "inner: none"
        anywhere = data(act(http, "verb.select_text", text="card NUMBER"))
    assert (named["selected"], named["selector"]) == ("inner: none", "#cross >> #out")
    assert named["start"]["under"]["selector"] == "#cross >> #out"
    assert named["start"]["y"] > 200  # in the page, not in its frame
    assert (anywhere["selected"], anywhere["selector"]) == (
        "Card number",
        '#same >> label[for="card"]',
    )
    assert same.evaluate("getSelection().toString()") == "Card number"


def test_a_click_by_text_on_one_word_of_a_row_presses_that_word(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/inbox.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        clicked = data(act(http, "browser.click", text="Forward"))
    assert clicked["label"] == "Forward"
    assert clicked["clicked"] == "#actions-1 > span:nth-of-type(2)"
    assert extension.page(url).evaluate("window.log") == ["out: forward mail-1"]


KEYS_HEARD = """window.keys = [];
for (const type of ["keydown", "keyup"]) {
  addEventListener(type, (e) => keys.push(`${type.slice(3)} ${e.key}`), true);
}"""


def test_mouse_holds_modifiers_while_it_clicks_and_lets_them_go(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/files.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        page = extension.page(url)
        data(act(http, "verb.mouse", action="click", text="notes.txt"))
        page.evaluate(KEYS_HEARD)
        data(act(http, "verb.mouse", action="click", text="photo.png", modifiers=["Shift"]))
        assert page.evaluate(LAST_OUT) == "out: selected notes.txt,budget.xlsx,photo.png"
        assert page.evaluate("window.keys") == ["down Shift", "up Shift"]  # held as a key
        data(act(http, "verb.mouse", action="click", text="budget.xlsx", modifiers=["Control"]))
        assert page.evaluate(LAST_OUT) == "out: selected notes.txt,photo.png"
        data(act(http, "browser.click", text="report.pdf"))  # no key held any more
        assert page.evaluate(LAST_OUT) == "out: selected report.pdf"


def test_a_slider_dragged_answers_the_value_it_was_left_at(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: a range drawn inside its thumb, pressed there."""
    url = site.url("/w/drawn-controls.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        dragged = data(act(http, "verb.drag", text="Volume", offsetX=60))
    assert dragged["value"] == extension.page(url).evaluate("volume.value") != "30"


def test_a_drag_the_page_showed_no_change_for_says_so(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: a box no drag moves stays, and the answer says the
    page showed no change; a slider the drag sets says nothing of the kind."""
    with server.client() as http:
        data(act(http, "browser.open", url=site.url("/drag-nothing")))
        box = data(act(http, "verb.drag", selector="#box", offsetX=0, offsetY=30))
        level = data(act(http, "verb.drag", selector="#level", offsetX=50))
    assert box["notice"] == pointer.changed_nothing("#box", "div", None)
    assert "notice" not in level
    assert level["value"] != "0"
