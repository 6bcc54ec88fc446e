"""The stub provider: every action with the documented data shape, on pages that link up."""

from __future__ import annotations

import base64
import struct
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from browserhost.contract import ACTIONS, Context
from browserhost.contract.actions import OpenParameters, SnapshotParameters
from browserhost.contract.errors import ProviderRejectedError
from browserhost.host import Host
from browserhost.providers.stub import StubProvider, register

SESSION = Context(session_id="ses_1")


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    host = Host(tmp_path)
    host.catalog.install(register())
    yield host
    await host.aclose()


async def act(
    host: Host, action: str, parameters: object = None, context: Context = SESSION
) -> dict[str, Any]:
    outcome = await host.dispatch(action, parameters, context, provider_id="stub")
    return outcome.data


# The keys each action's data carries in the reference table (optional ones where they apply).
DATA_KEYS = {
    "browser.open": {"url", "title", "opened", "settled", "viewport"},
    "browser.snapshot": {
        "url", "title", "scope", "scrollY", "maxScrollY", "text", "elements", "viewport",
        "consoleProblems",
    },
    "browser.click": {"clicked", "label", "url", "title"},
    "browser.type": {"selector", "url", "title", "value"},
    "browser.scroll": {"scrollY", "maxScrollY", "atTop", "atBottom", "direction"},
    "browser.back": {"url", "title"},
    "browser.forward": {"url", "title"},
    "browser.inspect": {
        "selector", "tag", "label", "bounds", "inViewport", "styles", "type", "value",
    },
    "browser.capture": {"base64", "mime", "width", "height", "url", "title", "viewport"},
    "browser.resize": {"viewport"},
}  # fmt: skip


async def test_the_stub_answers_every_action_with_its_documented_data_shape(host: Host) -> None:
    script: list[tuple[str, dict[str, Any]]] = [
        ("browser.open", {"url": "https://stub.test/form"}),
        ("browser.snapshot", {}),
        ("browser.type", {"selector": "#q", "value": "cats"}),
        ("browser.inspect", {"selector": "#q"}),
        ("browser.scroll", {"direction": "down"}),
        ("browser.capture", {"label": "form"}),
        ("browser.resize", {"viewport": "mobile"}),
        ("browser.click", {"selector": "#about"}),
        ("browser.back", {}),
        ("browser.forward", {}),
    ]
    assert {name for name, _ in script} == set(ACTIONS)
    for name, parameters in script:
        data = await act(host, name, parameters)
        assert set(data) == DATA_KEYS[name], name
        ACTIONS[name].data.model_validate(data)  # the contract's own model of the shape
        if "viewport" in data:
            assert set(data["viewport"]) == {"mode", "width", "height"}


async def test_open_then_snapshot_shows_the_page_with_its_links(host: Host) -> None:
    opened = await act(host, "browser.open", {"url": "https://stub.test/"})
    assert (opened["title"], opened["settled"]) == ("Stub home", True)
    snapshot = await act(host, "browser.snapshot")
    assert snapshot["url"] == "https://stub.test/"
    assert snapshot["scope"] == "page"
    assert snapshot["text"] == "Welcome to the stub site."
    assert [e["selector"] for e in snapshot["elements"]] == [
        "#home",
        "#about",
        "#form",
        "#long",
        "#more",
    ]
    first = snapshot["elements"][0]
    assert set(first) >= {"selector", "tag", "bounds", "label", "inViewport"}
    assert set(first["bounds"]) == {"x", "y", "width", "height"}


async def test_clicking_a_link_navigates_and_back_and_forward_walk_the_history(host: Host) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/"})
    clicked = await act(host, "browser.click", {"text": "About"})
    assert clicked == {
        "clicked": "#about",
        "label": "About",
        "url": "https://stub.test/about",
        "title": "About the stub",
    }
    assert (await act(host, "browser.snapshot"))["title"] == "About the stub"
    assert await act(host, "browser.back") == {"url": "https://stub.test/", "title": "Stub home"}
    assert await act(host, "browser.forward") == {
        "url": "https://stub.test/about",
        "title": "About the stub",
    }


async def test_a_button_reveals_text_on_the_same_page(host: Host) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/"})
    clicked = await act(host, "browser.click", {"selector": "#more"})
    assert clicked["url"] == "https://stub.test/"
    assert (await act(host, "browser.snapshot"))["text"].endswith("Here is more.")


async def test_typing_and_submitting_a_form_shows_results(host: Host) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/form"})
    typed = await act(host, "browser.type", {"selector": "#q", "value": "cats"})
    assert typed == {
        "selector": "#q",
        "url": "https://stub.test/form",
        "title": "Search",
        "value": "cats",
    }
    field = [e for e in (await act(host, "browser.snapshot"))["elements"] if e["selector"] == "#q"]
    assert (field[0]["label"], field[0]["value"]) == ("Query", "cats")
    await act(host, "browser.click", {"selector": "#go"})
    results = await act(host, "browser.snapshot")
    assert results["url"] == "https://stub.test/search?q=cats"
    assert results["text"] == "Results for cats"


async def test_type_with_submit_goes_straight_to_the_results(host: Host) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/form"})
    typed = await act(host, "browser.type", {"selector": "#q", "value": "dogs", "submit": True})
    assert typed["url"] == "https://stub.test/search?q=dogs"


async def test_scrolling_a_long_page_moves_by_a_screen_and_stops_at_the_ends(host: Host) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/long"})
    down = await act(host, "browser.scroll", {"direction": "down"})
    assert (down["scrollY"], down["atTop"], down["atBottom"]) == (800, False, False)
    bottom = await act(host, "browser.scroll", {"direction": "bottom"})
    assert bottom["scrollY"] == bottom["maxScrollY"] == 200 * 24 - 800
    assert bottom["atBottom"] is True
    up = await act(host, "browser.scroll", {"direction": "top"})
    assert (up["scrollY"], up["atTop"]) == (0, True)
    into_view = await act(host, "browser.scroll", {"selector": "#form"})
    assert into_view["scrolledTo"] == "#form"


async def test_resize_changes_the_viewport_and_the_capture_size(host: Host) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/"})
    assert await act(host, "browser.resize", {"viewport": "mobile"}) == {
        "viewport": {"mode": "mobile", "width": 390, "height": 844}
    }
    capture = await act(host, "browser.capture")
    png = base64.b64decode(capture["base64"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert struct.unpack(">II", png[16:24]) == (390, 844) == (capture["width"], capture["height"])
    fill = await act(host, "browser.resize", {"viewport": "fill"})
    assert fill == {"viewport": {"mode": "fill", "width": None, "height": None}}


async def test_inspect_describes_one_element(host: Host) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/"})
    inspected = await act(host, "browser.inspect", {"selector": "#about"})
    assert (inspected["tag"], inspected["label"], inspected["inViewport"]) == ("a", "About", True)
    assert inspected["styles"]["display"] == "inline-block"  # as the CLI test prints it
    assert all(isinstance(value, str) for value in inspected["styles"].values())


async def test_each_session_has_its_own_page_and_history(host: Host) -> None:
    other = Context(session_id="ses_2")
    await act(host, "browser.open", {"url": "https://stub.test/about"})
    assert (await act(host, "browser.snapshot", context=other))["url"] == "about:blank"
    await act(host, "browser.open", {"url": "https://stub.test/form"}, other)
    assert (await act(host, "browser.snapshot"))["url"] == "https://stub.test/about"


@pytest.mark.parametrize(
    ("action", "parameters", "refusal"),
    [
        ("browser.click", {"selector": "#missing"}, "No element matches #missing"),
        ("browser.click", {"text": "Nowhere"}, "No element is labelled 'Nowhere'"),
        ("browser.type", {"selector": "#about", "value": "x"}, "is not a text field"),
        ("browser.forward", {}, "no later page"),
        ("browser.inspect", {"selector": "#q"}, "No element matches #q"),
    ],
)
async def test_what_the_page_cannot_do_is_refused_with_advice(
    host: Host, action: str, parameters: dict[str, Any], refusal: str
) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/"})
    with pytest.raises(ProviderRejectedError, match=refusal):
        await act(host, action, parameters)


async def test_back_from_the_first_page_is_refused(host: Host) -> None:
    with pytest.raises(ProviderRejectedError, match="no earlier page"):
        await act(host, "browser.back")


def test_the_stub_registers_like_any_provider_with_all_ten_actions() -> None:
    record = register()
    assert (record["id"], record["provides"]) == ("stub", ["browser"])
    assert sorted(record["actions"]) == sorted(ACTIONS)
    assert callable(record["answer"])
    assert "endpoint" not in record


async def test_a_scoped_snapshot_places_the_element_where_the_whole_page_does() -> None:
    """Scoping to one element changes what is listed, not where that element is."""
    stub, context = StubProvider(), Context(session_id="scoped")
    await stub.open(OpenParameters(url="http://site.test/form"), context)
    page = await stub.snapshot(SnapshotParameters(), context)
    scoped = await stub.snapshot(SnapshotParameters(selector="#go"), context)
    [whole] = [element for element in page.elements if element.selector == "#go"]
    assert scoped.scope == "#go"
    assert scoped.elements == [whole]
    assert scoped.text == "Search"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_session_idle_for_the_idle_time_is_forgotten_and_a_busy_one_kept(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    host = Host(tmp_path)
    host.catalog.install(StubProvider(idle_s=60, clock=clock).registration())
    idle, busy = Context(session_id="idle"), Context(session_id="busy")
    try:
        await act(host, "browser.open", {"url": "https://stub.test/about"}, idle)
        await act(host, "browser.open", {"url": "https://stub.test/form"}, busy)
        clock.now += 59
        await act(host, "browser.snapshot", {}, busy)
        clock.now += 1
        forgotten = await act(host, "browser.snapshot", {}, idle)
        kept = await act(host, "browser.snapshot", {}, busy)
    finally:
        await host.aclose()
    assert forgotten["url"] == "about:blank"  # a new session starts on a blank page
    assert kept["url"] == "https://stub.test/form"


def test_the_stub_forgets_sessions_after_15_minutes_by_default() -> None:
    assert StubProvider().idle_s == 15 * 60
