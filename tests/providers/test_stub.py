"""The stub provider: every action with the documented data shape, on pages that link up."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import struct
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from browserhost.contract import ACTIONS, Context, ProviderRequest
from browserhost.contract.actions import OpenParameters, SnapshotParameters
from browserhost.contract.errors import ProviderRejectedError
from browserhost.contract.surface import (
    Frame,
    InputEvent,
    KeyEvent,
    PointerEvent,
    Size,
    TextEvent,
)
from browserhost.host import Host
from browserhost.providers.stub import StubProvider, StubSurface, register

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
    data: dict[str, Any] = outcome.data
    return data


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


async def test_cookies_set_in_a_session_are_read_back_for_their_addresses_only(
    host: Host,
) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/about"})
    cookies = [
        {"name": "site", "value": "1", "url": "https://stub.test/"},
        {"name": "deep", "value": "2", "domain": "stub.test", "path": "/deep", "secure": True},
    ]
    assert await act(host, "verb.set_cookies", {"cookies": cookies}) == {"set": ["site", "deep"]}
    on_page = (await act(host, "verb.cookies"))["cookies"]
    assert on_page == [
        {
            "name": "site",
            "value": "1",
            "domain": "stub.test",
            "path": "/",
            "expires": -1,
            "httpOnly": False,
            "secure": False,
            "sameSite": "Lax",
        }
    ]
    deep = await act(host, "verb.cookies", {"urls": ["https://stub.test/deep/x"]})
    assert [cookie["name"] for cookie in deep["cookies"]] == ["site", "deep"]
    plain = await act(host, "verb.cookies", {"urls": ["http://stub.test/deep/x"]})
    assert [cookie["name"] for cookie in plain["cookies"]] == ["site"]  # secure: https only
    other = await act(host, "verb.cookies", context=Context(session_id="ses_2"), parameters={
        "urls": ["https://stub.test/"]
    })  # fmt: skip
    assert other == {"cookies": []}


async def test_a_cookie_without_url_or_domain_and_path_is_refused_and_none_is_set(
    host: Host,
) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/"})
    cookies = [
        {"name": "good", "value": "1", "url": "https://stub.test/"},
        {"name": "lost", "value": "2", "path": "/"},
    ]
    with pytest.raises(ProviderRejectedError) as refused:
        await act(host, "verb.set_cookies", {"cookies": cookies})
    assert refused.value.message == (
        "cookie 1 (lost) needs url, or domain and path. No cookie was set."
    )
    assert await act(host, "verb.cookies") == {"cookies": []}


@pytest.mark.parametrize(
    ("action", "parameters", "refusal"),
    [
        ("browser.click", {"selector": "#missing"}, "No element matches #missing"),
        ("browser.click", {"text": "Nowhere"}, "No element is labelled 'Nowhere'"),
        ("browser.type", {"selector": "#about", "value": "x"}, "is not a text field"),
        ("browser.forward", {}, "no later page"),
        ("browser.inspect", {"selector": "#q"}, "No element matches #q"),
        ("verb.hover", {"text": "Nowhere"}, "No element is labelled 'Nowhere'"),
        ("verb.mouse", {"action": "click", "x": 1280, "y": 0}, r"\(1280, 0\) is outside the "),
        ("verb.mouse", {"action": "wheel", "x": 0, "y": 0}, "wheel needs deltaX or deltaY"),
        ("verb.drag", {"selector": "#about", "toSelector": "#home"}, "nothing to drag"),
        ("verb.select_text", {"text": "Welcome"}, "text cannot be selected"),
    ],
)
async def test_what_the_page_cannot_do_is_refused_with_advice(
    host: Host, action: str, parameters: dict[str, Any], refusal: str
) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/"})
    with pytest.raises(ProviderRejectedError, match=refusal):
        await act(host, action, parameters)


async def test_hover_and_mouse_tell_what_is_under_the_pointer_where_it_starts_and_ends(
    host: Host,
) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/"})
    about = {"selector": "#about", "tag": "a", "label": "About"}
    hovered = await act(host, "verb.hover", {"text": "About"})
    assert hovered == {
        "hovered": "#about",
        "label": "About",
        "start": {"x": 116, "y": 136, "under": about},  # where nothing had put it yet
        "end": {"x": 116, "y": 136, "under": about},
        "url": "https://stub.test/",
        "title": "Stub home",
    }
    moved = await act(host, "verb.mouse", {"action": "move", "x": 600, "y": 400})
    assert (moved["start"]["under"], moved["end"]["under"]) == (
        about,
        {"selector": "body", "tag": "body"},
    )


async def test_a_mouse_click_at_a_point_acts_on_the_element_drawn_there(host: Host) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/"})
    await act(host, "verb.mouse", {"action": "click", "x": 100, "y": 250})  # "Show more"
    assert (await act(host, "browser.snapshot"))["text"].endswith("Here is more.")
    await act(host, "verb.mouse", {"action": "down", "x": 100, "y": 90})  # Home
    up = await act(host, "verb.mouse", {"action": "up", "x": 100, "y": 130})  # About
    assert up["url"] == "https://stub.test/"  # pressed on one link, released on another
    await act(host, "verb.mouse", {"action": "down", "x": 100, "y": 130})
    up = await act(host, "verb.mouse", {"action": "up", "x": 110, "y": 140})
    assert (up["url"], up["title"]) == ("https://stub.test/about", "About the stub")


async def test_the_mouse_on_an_element_clicks_at_its_centre(host: Host) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/"})
    clicked = await act(host, "verb.mouse", {"action": "click", "text": "About"})
    assert (clicked["selector"], clicked["label"]) == ("#about", "About")
    assert clicked["end"] == {
        "x": 116,
        "y": 136,
        "under": {"selector": "#about", "tag": "a", "label": "About"},
    }
    assert (clicked["url"], clicked["title"]) == ("https://stub.test/about", "About the stub")
    with pytest.raises(ProviderRejectedError, match="give one place"):
        await act(host, "verb.mouse", {"action": "click", "selector": "#about", "x": 1, "y": 1})


async def test_the_mouse_wheel_scrolls_the_stubs_page(host: Host) -> None:
    await act(host, "browser.open", {"url": "https://stub.test/long"})
    await act(host, "verb.mouse", {"action": "wheel", "x": 300, "y": 300, "deltaY": 240})
    assert (await act(host, "browser.snapshot"))["scrollY"] == 240


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


# --- the surface: the stub's page as a picture, and a person's hands on it -------------------


def png_size(picture: bytes) -> tuple[int, int]:
    from PIL import Image

    with Image.open(io.BytesIO(picture)) as image:
        assert image.format == "PNG"
        return image.size


def press(x: float, y: float) -> list[InputEvent]:
    return [
        PointerEvent(type="pointer", action="down", x=x, y=y, buttons=1),
        PointerEvent(type="pointer", action="up", x=x, y=y),
    ]


def keys(text: str) -> list[InputEvent]:
    events: list[InputEvent] = []
    for key in text:
        events.append(KeyEvent(type="key", action="down", key=key))
        events.append(KeyEvent(type="key", action="up", key=key))
    return events


@pytest.fixture
def stub() -> StubProvider:
    return StubProvider()


async def run(
    stub: StubProvider, action: str, parameters: object = None, session: str = "ses_1"
) -> dict[str, Any]:
    request = ProviderRequest.from_wire(
        json.dumps(
            {
                "requestId": "r1",
                "action": action,
                "parameters": parameters or {},
                "context": {"directory": None, "sessionId": session},
            }
        ).encode()
    )
    assert request is not None
    answer = await stub.answer(request)
    assert answer["ok"] is True, answer
    data: dict[str, Any] = answer["data"]
    return data


async def newest(stub: StubProvider) -> Frame:
    async with asyncio.timeout(5):
        frame = await stub.surface().frame(0, 0)
    assert frame is not None
    return frame


async def test_the_surfaces_frames_are_pngs_of_the_size_they_state(stub: StubProvider) -> None:
    await run(stub, "browser.open", {"url": "http://site.test/"})
    frame = await newest(stub)
    assert (frame.mime, frame.width, frame.height) == ("image/png", 1280, 800)
    assert png_size(frame.data) == (1280, 800)
    assert frame.title == "Stub home"


async def test_an_action_that_changes_the_page_wakes_a_waiting_frame_request(
    stub: StubProvider,
) -> None:
    await run(stub, "browser.open", {"url": "http://site.test/"})
    before = await newest(stub)
    async with asyncio.timeout(5):
        waiting = asyncio.create_task(stub.surface().frame(before.seq, 5))
        await asyncio.sleep(0)  # let it start waiting: the click must come after
        await run(stub, "browser.click", {"text": "About"})
        after = await waiting
    assert after is not None
    assert after.seq == before.seq + 1
    assert after.title == "About the stub"


async def test_a_frame_request_with_nothing_new_answers_none_after_its_wait(
    stub: StubProvider,
) -> None:
    await run(stub, "browser.open", {"url": "http://site.test/"})
    current = await newest(stub)
    await run(stub, "browser.snapshot")  # reads the page, changes nothing
    async with asyncio.timeout(5):
        assert await stub.surface().frame(current.seq, 0.05) is None


async def test_clicking_a_painted_link_follows_it_as_browser_click_does(
    stub: StubProvider,
) -> None:
    await run(stub, "browser.open", {"url": "http://site.test/"})
    about = next(
        e for e in (await run(stub, "browser.snapshot"))["elements"] if e["label"] == "About"
    )
    bounds = about["bounds"]
    await stub.surface().input(press(bounds["x"] + 5, bounds["y"] + 5))
    assert (await run(stub, "browser.snapshot"))["url"] == "http://site.test/about"
    assert (await newest(stub)).title == "About the stub"


async def test_pointer_down_on_one_link_and_up_on_another_clicks_neither(
    stub: StubProvider,
) -> None:
    await run(stub, "browser.open", {"url": "http://site.test/"})
    await stub.surface().input(
        [
            PointerEvent(type="pointer", action="down", x=30, y=90, buttons=1),
            PointerEvent(type="pointer", action="up", x=30, y=130),
        ]
    )
    assert (await run(stub, "browser.snapshot"))["url"] == "http://site.test/"


async def test_typing_on_the_picture_fills_the_field_and_enter_submits(
    stub: StubProvider,
) -> None:
    await run(stub, "browser.open", {"url": "http://site.test/form"})
    field = await run(stub, "browser.inspect", {"selector": "#q"})
    before = await newest(stub)
    surface = stub.surface()
    await surface.input(press(field["bounds"]["x"] + 5, field["bounds"]["y"] + 5))
    await surface.input([*keys("owk"), KeyEvent(type="key", action="down", key="Backspace")])
    await surface.input([TextEvent(type="text", text="ls")])
    typed = await run(stub, "browser.inspect", {"selector": "#q"})
    assert typed["value"] == "owls"
    assert (await newest(stub)).seq > before.seq
    await surface.input([KeyEvent(type="key", action="down", key="Enter")])
    assert (await run(stub, "browser.snapshot"))["text"] == "Results for owls"


async def test_resize_repaints_at_the_new_size(stub: StubProvider) -> None:
    await run(stub, "browser.open", {"url": "http://site.test/"})
    before = await newest(stub)
    chosen = await stub.surface().resize(Size(width=640, height=480))
    frame = await newest(stub)
    assert chosen == Size(width=640, height=480)
    assert (frame.seq, frame.width, frame.height) == (before.seq + 1, 640, 480)
    assert png_size(frame.data) == (640, 480)


async def test_the_copy_chord_puts_the_focused_fields_value_on_the_clipboard(
    stub: StubProvider,
) -> None:
    await run(stub, "browser.open", {"url": "http://site.test/form"})
    await run(stub, "browser.type", {"selector": "#q", "value": "owls"})
    surface = stub.surface()
    await surface.input([KeyEvent(type="key", action="down", key="c", modifiers=["Control"])])
    assert await surface.clipboard() == "owls"


async def test_the_picture_follows_the_last_session_unless_one_is_shown(
    stub: StubProvider,
) -> None:
    await run(stub, "browser.open", {"url": "http://site.test/about"})
    await run(stub, "browser.open", {"url": "http://site.test/form"}, session="ses_2")
    surface = stub.surface()
    listed = await surface.sessions()
    assert [(s.url, s.shown) for s in listed] == [
        ("http://site.test/about", False),
        ("http://site.test/form", True),
    ]
    await surface.show(listed[0].id)
    assert (await newest(stub)).title == "About the stub"
    await surface.show(None)
    assert (await newest(stub)).title == "Search"


def test_the_stubs_record_offers_its_surface_and_an_address_bar_docked_on_top() -> None:
    from browserhost.host import Catalog

    catalog = Catalog()
    installed = catalog.install(register())
    assert isinstance(installed.surface, StubSurface)
    assert installed.public()["surface"] is True
    assert installed.public()["panel"] == {"dock": "top", "size": 40}


async def test_the_stubs_address_bar_is_one_self_contained_page() -> None:
    from browserhost.host import Catalog

    installed = Catalog().install(register())
    assert installed.panel is not None
    page = (await installed.panel.page()).decode()
    assert '<input id="address"' in page
    assert 'postMessage({ type: "open", url }' in page
    assert "src=" not in page, "nothing loads from elsewhere"
    assert "href=" not in page, "nothing loads from elsewhere"
