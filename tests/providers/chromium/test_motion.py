"""Actions on pages that move: what an action started (a transition, an animation, a panel
stepped open by script, a dialog that renders its contents a moment later) is over when the
action answers, so the next snapshot and click see the page as it comes to rest."""

from __future__ import annotations

from typing import Any

import pytest

from browserhost.contract import Context
from browserhost.providers.chromium import ChromiumProvider

from .driving import in_page, ok, out_line, refused
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def _labels(provider: ChromiumProvider, ctx: Context) -> dict[str, dict[str, Any]]:
    elements = (await ok(provider, ctx, "browser.snapshot"))["elements"]
    return {element.get("label", ""): element for element in elements}


async def test_a_click_on_an_accordion_answers_once_its_panels_stopped_sliding(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/motion.html"))
    await ok(provider, ctx, "browser.click", text="Returns")
    # The page marks a panel shown only at its transition's end.
    assert await in_page(provider, ctx, "window.log") == ["out: hidden s1", "out: shown s2"]
    guide = (await _labels(provider, ctx))["Read the returns guide"]
    resting = await in_page(
        provider, ctx, "document.getElementById('guide').getBoundingClientRect().y"
    )
    assert guide["bounds"]["y"] == round(resting)
    await ok(provider, ctx, "browser.click", selector=guide["selector"])
    assert await out_line(provider, ctx) == "out: guide opened"


async def test_a_panel_stepped_open_by_script_is_open_when_the_click_answers(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/motion.html"))
    await ok(provider, ctx, "browser.click", text="More")
    assert await out_line(provider, ctx) == "out: drawer open"
    await ok(provider, ctx, "browser.click", text="Questions and answers")
    assert await out_line(provider, ctx) == "out: faq opened"


async def test_a_panel_stepped_open_by_an_interval_is_open_when_the_click_answers(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """jQuery before 3 steps its animations on a 13 ms interval, not in animation frames."""
    await ok(provider, ctx, "browser.open", url=site.url("/w/motion.html"))
    await ok(provider, ctx, "browser.click", text="Older")
    assert await out_line(provider, ctx) == "out: archive open"
    listed = {e.get("label") for e in (await ok(provider, ctx, "browser.snapshot"))["elements"]}
    assert "2019" in listed


async def test_a_fading_picker_is_gone_before_the_next_click(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/motion.html"))
    await ok(provider, ctx, "browser.click", text="Pick a date")
    await ok(provider, ctx, "browser.click", text="14")
    seen = await _labels(provider, ctx)
    assert "14" not in seen  # the picker finished fading and went away
    assert "covered" not in seen["Submit"]
    await ok(provider, ctx, "browser.click", text="Submit")
    assert await out_line(provider, ctx) == "out: submitted 12/14/2026"


async def test_a_dialog_is_listed_with_its_contents_right_after_the_click_that_opens_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/wc-dialog.html"))
    await ok(provider, ctx, "browser.click", text="Edit profile")
    seen = await _labels(provider, ctx)
    assert seen["Name"]["value"] == "Ann"
    assert "covered" not in seen["Name"]
    assert "covered" not in seen["Save"]
    panel = "document.getElementById('profile').shadowRoot.querySelector('.panel')"
    assert (
        await in_page(provider, ctx, f"getComputedStyle({panel}).opacity") == "1"
    )  # its opening animation is over
    await ok(provider, ctx, "browser.type", selector=seen["Name"]["selector"], value="Bea")
    await ok(provider, ctx, "browser.click", selector=seen["Save"]["selector"])
    assert await out_line(provider, ctx) == "out: saved Bea"


async def test_an_element_still_moving_is_clicked_where_it_comes_to_rest(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/motion.html"))
    submit = (await _labels(provider, ctx))["Submit"]
    # The page itself starts moving the button (an animation no action started), by far more
    # than its height, just before the agent clicks it.
    await in_page(
        provider,
        ctx,
        """document.getElementById('submit').animate(
             [{transform: 'translateY(0)'}, {transform: 'translateY(300px)'}],
             {duration: 450, fill: 'forwards', easing: 'steps(3, jump-end)'})""",
    )
    await ok(provider, ctx, "browser.click", selector=submit["selector"])
    assert await out_line(provider, ctx) == "out: submitted"


async def test_an_element_that_keeps_moving_is_refused_rather_than_clicked_where_it_was(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/motion.html"))
    submit = (await _labels(provider, ctx))["Submit"]
    await in_page(
        provider,
        ctx,
        """document.getElementById('submit').animate(
             [{transform: 'translateX(0)'}, {transform: 'translateX(600px)'}],
             {duration: 20000})""",
    )
    error = await refused(provider, ctx, "browser.click", selector=submit["selector"])
    assert "kept moving" in error
    assert "nothing was clicked" in error
    assert "verb.mouse at x and y where it is going" in error  # one that never stops
    assert await in_page(provider, ctx, "window.log") == []


async def test_a_dialog_that_renders_its_contents_later_is_waited_for_until_it_has_them(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/w/wc-dialog.html"))
    await ok(provider, ctx, "browser.click", text="Add an address")
    seen = await _labels(provider, ctx)
    assert "covered" not in seen["Save"]
    await ok(provider, ctx, "browser.click", selector=seen["Save"]["selector"])
    assert await out_line(provider, ctx) == "out: saved Ann"


async def test_a_click_whose_element_the_pointer_moves_is_aimed_again_and_never_lands_elsewhere(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """An icon that shrinks away for a moment as the pointer comes (a hover rule that swaps
    in a picture still loading) is clicked once it is back, and the row under it never gets
    the press; one that jumps aside each time is refused after three tries, the page having
    got no press at all."""
    await ok(provider, ctx, "browser.open", url=site.url("/hover-moves"))
    clicked = await ok(provider, ctx, "browser.click", selector="#more")
    assert clicked["clicked"] == "#more"
    assert await in_page(provider, ctx, "window.log") == ["more"]
    refusal = await refused(provider, ctx, "browser.click", selector="#jumpy")
    assert refusal.startswith(
        "#jumpy was not clicked: each time the pointer came over it (3 tries), the page "
        "changed under it, and the press would have reached #row (div) instead"
    ), refusal
    assert await in_page(provider, ctx, "window.log") == ["more"]


async def test_a_click_whose_element_the_page_moves_as_it_is_pressed_says_it_got_no_click(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The press takes the focus from the field before, whose warning then pushes the button
    down: the release misses it and the page clicks nothing, which the answer says; a click
    again lands."""
    await ok(provider, ctx, "browser.open", url=site.url("/moves-on-blur"))
    await ok(provider, ctx, "browser.type", selector="#nick", value="x")
    refusal = await refused(provider, ctx, "browser.click", selector="#send")
    assert refusal == (
        "#send got no click: the page moved it as it was pressed (a message shown above it as "
        "the field before lost focus, say), so the release missed it. The press itself reached "
        "the page; take a new snapshot, then click it again."
    )
    assert await out_line(provider, ctx) == "out: none"
    clicked = await ok(provider, ctx, "browser.click", selector="#send")
    assert clicked["clicked"] == "#send"
    assert await out_line(provider, ctx) == "out: sent x"


async def test_words_a_page_forges_where_the_press_guard_tells_a_miss_are_not_taken(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The page can write in the place the press guard tells what a press missed: words that
    name no element are left unread, the click answers as pressed, and the page got it."""
    await ok(provider, ctx, "browser.open", url=site.url("/forged-guard"))
    clicked = await ok(provider, ctx, "browser.click", selector="#go")
    assert clicked["clicked"] == "#go"
    assert await out_line(provider, ctx) == "pressed"
