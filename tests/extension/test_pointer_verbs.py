"""The extension's verbs beyond the ten, end to end: ``drag`` and ``select_text`` declared with
the chromium provider's schemas, run in a real Chromium through the host's HTTP API, each
checked by what the page itself recorded."""

from __future__ import annotations

from browserhost.providers.pointer_verbs import DragArguments, SelectTextArguments
from tests.conftest import LiveServer
from tests.extension.conftest import Loaded, act, data, declared_verbs
from tests.providers.chromium.site import Site


def test_the_extension_declares_drag_and_select_text_with_the_pointer_verbs_schemas(
    extension: Loaded, server: LiveServer
) -> None:
    verbs = declared_verbs(server)
    assert verbs["drag"]["inputSchema"] == DragArguments.model_json_schema()
    assert verbs["select_text"]["inputSchema"] == SelectTextArguments.model_json_schema()
    assert (verbs["drag"]["changesPage"], verbs["select_text"]["changesPage"]) == (True, True)


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


def test_a_drag_without_one_destination_is_refused_and_nothing_moves(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    url = site.url("/w/ext-sortable.html")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        refused = act(http, "verb.drag", text="Apples", toText="Dates", offsetY=40)
        outside = act(http, "verb.drag", text="Apples", offsetY=-5000)
        before = act(http, "verb.drag", text="Apples", toText="Dates", at="before")
    assert refused.json()["code"] == "PROVIDER_REJECTED", refused.text
    assert refused.json()["error"].startswith("Give one destination")
    assert "outside the" in outside.json()["error"]
    assert before.json()["error"].startswith("This browser drops in the middle of an element")
    assert extension.page(url).evaluate("window.log") == []


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
