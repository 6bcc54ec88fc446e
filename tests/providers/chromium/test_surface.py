"""The chromium provider's surface on a real Chromium: the picture a viewer draws, and a
person's input on the page it shows."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from browserhost.contract import Context
from browserhost.contract.surface import (
    Frame,
    KeyEvent,
    PointerEvent,
    Size,
    TextEvent,
    WheelEvent,
)
from browserhost.providers.chromium import ChromiumProvider
from browserhost.providers.chromium.contexts import ContextPool
from browserhost.providers.chromium.surface import ChromiumSurface, session_id

from .driving import act, in_page, ok, out_line
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")

Events = list[PointerEvent | WheelEvent | KeyEvent | TextEvent]

DECODE = """async ([jpeg, x, y]) => {
  const image = new Image();
  image.src = "data:image/jpeg;base64," + jpeg;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const drawing = canvas.getContext("2d");
  drawing.drawImage(image, 0, 0);
  const pixel = Array.from(drawing.getImageData(x, y, 1, 1).data);
  return { width: image.naturalWidth, height: image.naturalHeight, pixel };
}"""


def surface_of(provider: ChromiumProvider) -> ChromiumSurface:
    return provider.surface()


@pytest_asyncio.fixture(loop_scope="module")
async def quick_surface(provider: ChromiumProvider) -> AsyncIterator[ChromiumSurface]:
    """A surface of its own on the provider's sessions, quick to give up watching (0.2 s)."""
    surface = ChromiumSurface(provider._pool, idle_stop_s=0.2)
    yield surface
    await surface.aclose()


async def showing(surface: ChromiumSurface, title: str, after: int = 0) -> Frame:
    """The first frame titled ``title``, from the current picture on."""
    async with asyncio.timeout(10):
        while True:
            frame = await surface.frame(after, 1.0)
            if frame is not None:
                if frame.title == title:
                    return frame
                after = frame.seq


async def decoded(provider: ChromiumProvider, ctx: Context, frame: Frame, x: int, y: int) -> Any:
    """The JPEG as Chromium decodes it: its size and the colour at ``x, y``."""
    page = provider.page_for(ctx)
    assert page is not None
    return await page.evaluate(DECODE, [base64.b64encode(frame.data).decode("ascii"), x, y])


async def centre(provider: ChromiumProvider, ctx: Context, selector: str) -> tuple[float, float]:
    bounds = (await ok(provider, ctx, "browser.inspect", selector=selector))["bounds"]
    return bounds["x"] + bounds["width"] / 2, bounds["y"] + bounds["height"] / 2


def press(x: float, y: float) -> Events:
    return [
        PointerEvent(type="pointer", action="down", x=x, y=y, button=0, buttons=1),
        PointerEvent(type="pointer", action="up", x=x, y=y, button=0, buttons=0),
    ]


def keys(*names: str, modifiers: tuple[str, ...] = ()) -> Events:
    mods: list[Any] = list(modifiers)
    return [
        KeyEvent(type="key", action=action, key=name, modifiers=mods)
        for name in names
        for action in ("down", "up")
    ]


async def value_of(provider: ChromiumProvider, ctx: Context, selector: str) -> str:
    inspected = await ok(provider, ctx, "browser.inspect", selector=selector)
    value: str = inspected["value"]
    return value


async def test_a_frame_after_an_open_is_a_jpeg_of_the_page_with_its_title(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/surface"), viewport="desktop")
    frame = await showing(surface_of(provider), "Surface")
    assert frame.mime == "image/jpeg"
    assert (frame.width, frame.height) == (1280, 800)
    x, y = await centre(provider, ctx, "#go")
    picture = await decoded(provider, ctx, frame, round(x) - 70, round(y))  # beside its label
    assert (picture["width"], picture["height"]) == (1280, 800)
    red, green, blue, _ = picture["pixel"]
    assert (red < 60, green > 120, blue < 60) == (True, True, True), picture  # the green button


async def test_an_animating_page_numbers_each_new_picture_and_a_request_waits_for_one(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    surface = surface_of(provider)
    await ok(provider, ctx, "browser.open", url=site.url("/ticking"))
    first = await showing(surface, "Ticking")
    seen = [first.seq]
    for _ in range(5):
        newer = await surface.frame(seen[-1], 5.0)
        assert newer is not None
        seen.append(newer.seq)
    assert seen == sorted(set(seen)), seen
    assert seen[-1] - seen[0] >= 5


async def test_a_still_page_gives_nothing_new_until_it_changes(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    surface = surface_of(provider)
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    still = await showing(surface, "Page A")
    while (later := await surface.frame(still.seq, 0.5)) is not None:
        still = later  # the last paints of the load
    waiting = asyncio.ensure_future(surface.frame(still.seq, 5.0))
    await asyncio.sleep(0)  # the request is waiting before the page changes
    assert not waiting.done()
    await in_page(provider, ctx, "document.querySelector('h1').textContent = 'Changed'")
    async with asyncio.timeout(5):
        changed = await waiting
    assert changed is not None
    assert changed.seq > still.seq


async def test_a_press_and_release_at_a_buttons_centre_clicks_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    surface = surface_of(provider)
    await ok(provider, ctx, "browser.open", url=site.url("/surface"), viewport="desktop")
    await showing(surface, "Surface")
    x, y = await centre(provider, ctx, "#go")
    moves: Events = [PointerEvent(type="pointer", action="move", x=x - 5, y=y - 5)]
    await surface.input([*moves, *press(x, y)])
    assert await out_line(provider, ctx) == "out: clicked"


async def test_keys_type_into_the_focused_field_and_editing_keys_act(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    surface = surface_of(provider)
    await ok(provider, ctx, "browser.open", url=site.url("/surface"))
    await showing(surface, "Surface")
    await surface.input(press(*await centre(provider, ctx, "#field")))
    await surface.input(keys("h", "i", "x", "Backspace", "!", "ArrowLeft", "Shift", "I"))
    assert await value_of(provider, ctx, "#field") == "hiI!"
    await surface.input(press(*await centre(provider, ctx, "#notes")))
    await surface.input([*keys("a", "Enter", "b"), *keys("Tab")])
    assert await value_of(provider, ctx, "#notes") == "a\nb"
    focused = await in_page(provider, ctx, "document.activeElement.id")
    assert focused == "popup"  # Tab moved focus on, as a keyboard does


async def test_a_text_event_inserts_pasted_text_at_the_caret(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    surface = surface_of(provider)
    await ok(provider, ctx, "browser.open", url=site.url("/surface"))
    await showing(surface, "Surface")
    await surface.input(press(*await centre(provider, ctx, "#field")))
    await surface.input([*keys("a"), TextEvent(type="text", text="pasted ✓ text"), *keys("z")])
    assert await value_of(provider, ctx, "#field") == "apasted ✓ textz"


async def test_resize_sizes_the_picture_until_the_agent_chooses_a_viewport(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    surface = surface_of(provider)
    await ok(provider, ctx, "browser.open", url=site.url("/surface"), viewport="desktop")
    frame = await showing(surface, "Surface")
    settled = await surface.resize(Size(width=800, height=600))
    assert settled == Size(width=800, height=600)
    async with asyncio.timeout(10):
        while (frame.width, frame.height) != (800, 600):
            frame = await surface.frame(frame.seq, 1.0) or frame
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["viewport"] == {"mode": "custom", "width": 800, "height": 600}
    assert await in_page(provider, ctx, "[innerWidth, innerHeight]") == [800, 600]
    x, y = await centre(provider, ctx, "#go")
    await surface.input(press(x, y))  # frame pixels are CSS pixels at this size
    assert await out_line(provider, ctx) == "out: clicked"
    await ok(provider, ctx, "browser.resize", viewport="desktop")
    async with asyncio.timeout(10):
        while (frame.width, frame.height) != (1280, 800):
            frame = await surface.frame(frame.seq, 1.0) or frame


async def test_clipboard_is_the_text_selected_and_copied(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    surface = surface_of(provider)
    await ok(provider, ctx, "browser.open", url=site.url("/surface"))
    await showing(surface, "Surface")
    assert await surface.clipboard() == ""
    await surface.input(press(*await centre(provider, ctx, "#field")))
    await surface.input([TextEvent(type="text", text="copy me"), *keys("ArrowLeft")])
    await surface.input(keys("a", "c", modifiers=("Control",)))
    assert await surface.clipboard() == "copy me"
    assert await value_of(provider, ctx, "#field") == "copy me"  # a chord types nothing
    x, y = await centre(provider, ctx, "#words")
    await surface.input(press(x + 300, y))  # on the page, beside the words
    await surface.input(keys("a", "c", modifiers=("Control",)))
    copied = await surface.clipboard()
    assert "Words worth copying" in copied
    assert "out: none" in copied


async def test_the_picture_follows_the_session_the_agent_acted_on_last(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    surface = surface_of(provider)
    other = Context(directory="/work/other", session_id=ctx.session_id)
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    await ok(provider, other, "browser.open", url=site.url("/page-b"))
    frame = await showing(surface, "Page B")
    listed = {session.id: session for session in await surface.sessions()}
    mine, theirs = listed[session_id(ctx.key)], listed[session_id(other.key)]
    assert (mine.url, mine.title, mine.shown) == (site.url("/page-a"), "Page A", False)
    assert (theirs.url, theirs.title, theirs.shown) == (site.url("/page-b"), "Page B", True)
    await ok(provider, ctx, "browser.snapshot")
    await showing(surface, "Page A", frame.seq)
    shown = [session.id for session in await surface.sessions() if session.shown]
    assert shown == [session_id(ctx.key)]


async def test_show_pins_a_session_until_asked_to_follow_again(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    surface = surface_of(provider)
    other = Context(directory="/work/other", session_id=ctx.session_id)
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    await ok(provider, other, "browser.open", url=site.url("/page-b"))
    frame = await showing(surface, "Page B")
    await surface.show(session_id(ctx.key))
    frame = await showing(surface, "Page A", frame.seq)
    await ok(provider, other, "browser.open", url=site.url("/surface"))
    assert await surface.frame(frame.seq, 1.0) is None  # the pinned page did not change
    await surface.input(press(*await centre(provider, ctx, "h1")))  # on the pinned page
    assert await out_line(provider, other) == "out: none"
    await surface.show("no such session")  # changes nothing
    assert [s.id for s in await surface.sessions() if s.shown] == [session_id(ctx.key)]
    await surface.show(None)
    await showing(surface, "Surface", frame.seq)  # other acted last


async def test_a_window_the_persons_click_opens_is_shown(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    surface = surface_of(provider)
    await ok(provider, ctx, "browser.open", url=site.url("/surface"))
    frame = await showing(surface, "Surface")
    await surface.input(press(*await centre(provider, ctx, "#popup")))
    await showing(surface, "Page B", frame.seq)
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["url"] == site.url("/page-b")  # and the agent's next action sees it too


async def test_the_wheel_scrolls_the_page_under_the_pointer(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    surface = surface_of(provider)
    await ok(provider, ctx, "browser.open", url=site.url("/long"))
    await showing(surface, "Long")
    await surface.input([WheelEvent(type="wheel", x=400, y=300, delta_y=600)])
    scrolled = """new Promise((done) => {
      const check = () => scrollY >= 300 && done(scrollY);
      check();
      addEventListener("scroll", check);
    })"""
    async with asyncio.timeout(5):
        assert await in_page(provider, ctx, scrolled) >= 300


async def test_an_action_running_on_the_shown_session_marks_its_frames(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    surface = surface_of(provider)
    await ok(provider, ctx, "browser.open", url=site.url("/ticking"))
    frame = await showing(surface, "Ticking")
    assert not frame.agent_active
    waiting = asyncio.ensure_future(
        act(provider, ctx, "verb.wait_for", text="no such text ever", timeoutS=1.5)
    )
    try:
        async with asyncio.timeout(5):
            while not frame.agent_active:
                frame = await surface.frame(frame.seq, 1.0) or frame
    finally:
        await asyncio.gather(waiting, return_exceptions=True)
    await surface.control("user")
    assert surface.controller == "user"
    await surface.control("none")


async def test_a_page_renewed_under_the_picture_keeps_it_live(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Going back to ``fill`` moves the session to a fresh page; the screencast moves too."""
    surface = surface_of(provider)
    await ok(provider, ctx, "browser.open", url=site.url("/surface"), viewport="desktop")
    before = provider.page_for(ctx)
    frame = await showing(surface, "Surface")
    await ok(provider, ctx, "browser.resize", viewport="fill")
    assert provider.page_for(ctx) is not before
    frame = await showing(surface, "Surface", frame.seq)
    await in_page(provider, ctx, "document.title = 'Renewed'")
    await showing(surface, "Renewed", frame.seq)


async def test_the_screencast_stops_when_nobody_watches_and_starts_again_when_asked(
    provider: ChromiumProvider, site: Site, ctx: Context, quick_surface: ChromiumSurface
) -> None:
    surface = quick_surface
    await ok(provider, ctx, "browser.open", url=site.url("/ticking"))
    frame = await showing(surface, "Ticking")
    assert surface.casting
    runner = surface._runner
    assert runner is not None
    async with asyncio.timeout(5):
        await runner
    assert not surface.casting
    await surface.input(press(*await centre(provider, ctx, "#box")))  # input needs no picture
    again = await surface.frame(frame.seq, 5.0)
    assert again is not None
    assert again.seq > frame.seq
    assert surface.casting


async def test_keys_typed_while_the_picture_stops_all_arrive(
    provider: ChromiumProvider, site: Site, ctx: Context, quick_surface: ChromiumSurface
) -> None:
    # The field's first key holds the page for 1.5 s: long enough for a surface nobody asks
    # for frames to stop its screencast midway through the person's batch of keys.
    surface = quick_surface
    await ok(provider, ctx, "browser.open", url=site.url("/surface"))
    await showing(surface, "Surface")
    await surface.input(press(*await centre(provider, ctx, "#field")))
    await in_page(
        provider,
        ctx,
        "document.getElementById('field').addEventListener('keydown', () => {"
        " if (window.held) return; window.held = true;"
        " const end = Date.now() + 1500; while (Date.now() < end); })",
    )
    await surface.input(keys("a", "b", "c"))
    assert await value_of(provider, ctx, "#field") == "abc"


async def test_a_still_of_an_unwatched_page_is_one_screenshot_and_starts_no_screencast(
    provider: ChromiumProvider, site: Site, ctx: Context, quick_surface: ChromiumSurface
) -> None:
    # What a recording's step takes: a picture of the page, without the stream a viewer gets.
    surface = quick_surface
    await ok(provider, ctx, "browser.open", url=site.url("/surface"), viewport="desktop")
    # Scrolled, so that a picture of the document's top would show the button elsewhere.
    await in_page(provider, ctx, "document.body.style.height = '3000px'; scrollTo(0, 40)")
    still = await surface.still((480, 360), 4.0, 0.3)
    assert still is not None
    assert not surface.casting
    assert (still.mime, still.width, still.height) == ("image/jpeg", 480, 300)  # drawn small
    x, y = await centre(provider, ctx, "#go")  # where the person sees it
    scale = 480 / 1280
    picture = await decoded(provider, ctx, still, round((x - 70) * scale), round(y * scale))
    red, green, blue, _ = picture["pixel"]
    assert (red < 60, green > 120, blue < 60) == (True, True, True), picture
    above = await decoded(provider, ctx, still, round((x - 70) * scale), round((y - 45) * scale))
    assert above["pixel"][:3] != picture["pixel"][:3]  # the button's top edge is where seen
    await in_page(provider, ctx, "document.body.style.height = ''; scrollTo(0, 0)")

    watched = await showing(surface, "Surface")  # a viewer watches: the stream's picture
    assert surface.casting
    during = await surface.still((480, 360), 4.0, 0.1)
    assert during is not None
    assert during.seq >= watched.seq


async def test_a_surface_with_no_session_shows_nothing_and_takes_nothing() -> None:
    surface = ChromiumSurface(ContextPool())
    try:
        assert await surface.frame(0, 0.1) is None
        assert await surface.sessions() == []
        await surface.input(press(10, 10))
        assert await surface.resize(Size(width=640, height=480)) is None
        assert await surface.clipboard() == ""
    finally:
        await surface.aclose()


async def test_a_chord_types_nothing_but_altgr_types_its_character(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Control+Q or Alt+Q is a command; Control+Alt is AltGr, which types "@" on a German
    keyboard (its ``key`` is the character typed)."""
    surface = surface_of(provider)
    await ok(provider, ctx, "browser.open", url=site.url("/surface"))
    await showing(surface, "Surface")
    await surface.input(press(*await centre(provider, ctx, "#field")))
    altgr: Events = [
        KeyEvent(type="key", action=action, key="@", code="KeyQ", modifiers=["Control", "Alt"])
        for action in ("down", "up")
    ]
    await surface.input([*keys("q", modifiers=("Alt",)), *keys("q", modifiers=("Control",))])
    await surface.input([*altgr, *keys("x")])
    assert await value_of(provider, ctx, "#field") == "@x"
