"""What "settled" means after an action: what the action started has ended when it answers.

An action whose effect is done by the time its input is answered settles after one frame;
one that started a timer, a request or a frame callback is waited for, so the answer and a
snapshot taken at once show the end of it, never the page halfway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from browserhost.contract import Context
from browserhost.providers.chromium import ChromiumProvider

from .driving import in_page, ok, out_line
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def _text_after_click(
    provider: ChromiumProvider, ctx: Context, site: Site, button: str
) -> str:
    await ok(provider, ctx, "browser.open", url=site.url("/later"))
    await ok(provider, ctx, "browser.click", selector=button)
    snapshot = await ok(provider, ctx, "browser.snapshot")
    return str(snapshot["text"])


async def test_a_click_whose_request_outlasts_the_wait_says_the_page_still_waits_for_it(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """The answer is of its moment: the agent is told the page still waits for its server,
    not left to read an unchanged page as a click that did nothing."""
    await ok(provider, ctx, "browser.open", url=site.url("/later"))
    clicked = await ok(provider, ctx, "browser.click", selector="#report")
    assert clicked["notice"].startswith(
        f"The page is still waiting for its server (GET {site.url('/answer-later?ms=4500')}); "
        "what it shows may change when that answers."
    )
    await ok(provider, ctx, "verb.wait_for", text="report ready", timeout_s=10)


@pytest.mark.parametrize(
    ("button", "shown"),
    [
        ("#now", "done at once"),
        ("#timer", "timer done"),
        ("#fetch", "fetched ready"),
        ("#frame", "frame done"),
        ("#swap", "swapped ready"),
    ],
)
async def test_what_a_click_started_has_ended_when_it_answers(
    provider: ChromiumProvider, site: Site, ctx: Context, button: str, shown: str
) -> None:
    text = await _text_after_click(provider, ctx, site, button)
    assert shown in text
    assert "idle" not in text


async def test_open_waits_for_a_page_filled_in_after_its_load_event(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    opened = await ok(provider, ctx, "browser.open", url=site.url("/filled-late"))
    assert opened["settled"] is True
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert "Loaded ready" in snapshot["text"]
    assert [element.get("label") for element in snapshot["elements"]] == ["Go"]


@pytest.mark.parametrize(
    ("path", "shown"), [("/drawn-at-load", "Drawn"), ("/queued-at-load", "Queued")]
)
async def test_open_waits_for_what_a_page_draws_right_after_its_load_event(
    provider: ChromiumProvider, site: Site, ctx: Context, path: str, shown: str
) -> None:
    for _ in range(3):  # the page's own reloads too: each document is watched from its start
        opened = await ok(provider, ctx, "browser.open", url=site.url(path))
        assert opened["settled"] is True
        snapshot = await ok(provider, ctx, "browser.snapshot")
        assert f"{shown} ready" in snapshot["text"]
        assert [element.get("label") for element in snapshot["elements"]] == ["Go"]


@pytest.mark.parametrize("path", ["/timed-in-script", "/timed-at-load"])
async def test_open_and_a_link_wait_for_a_timer_the_page_set_as_it_loaded(
    provider: ChromiumProvider, site: Site, ctx: Context, path: str
) -> None:
    """A page that fills itself in by a short timer it set as it loaded is waited for, as a
    click that sets one is: its first snapshot shows it filled in, not its placeholder."""
    for how in ("open", "open", "link"):
        if how == "open":
            opened = await ok(provider, ctx, "browser.open", url=site.url(path))
            assert opened["settled"] is True
        else:
            await ok(provider, ctx, "browser.open", url=site.url("/to-timed"))
            clicked = await ok(provider, ctx, "browser.click", selector="#to")
            assert clicked["url"] == site.url("/timed-in-script")
        snapshot = await ok(provider, ctx, "browser.snapshot")
        assert "Timed ready" in snapshot["text"]
        assert "Loading" not in snapshot["text"]
        assert [element.get("label") for element in snapshot["elements"]] == ["Go"]


async def test_open_follows_a_chain_of_load_timers_and_forgets_those_cleared(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """Each timer of a chain set by the one before it is waited for; one cleared (by either
    clearing function, its id as a number or a string) is not, and the open is settled."""
    opened = await ok(provider, ctx, "browser.open", url=site.url("/timed-chain"))
    assert opened["settled"] is True
    assert (await ok(provider, ctx, "browser.snapshot"))["text"] == "Timed ready"


async def test_open_does_not_wait_out_a_timer_loop_the_page_keeps_setting(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A clock that sets its timer again as each tick runs is a loop, not a wait: the open
    answers settled, between two ticks."""
    opened = await ok(provider, ctx, "browser.open", url=site.url("/clock"))
    assert opened["settled"] is True
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert snapshot["text"].startswith("Clock")
    assert [element.get("label") for element in snapshot["elements"]] == ["Go"]


async def test_a_snapshot_at_once_after_an_open_waits_for_what_its_first_frame_started(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    for _ in range(2):
        await ok(provider, ctx, "browser.open", url=site.url("/fetches-at-first-frame"))
        snapshot = await ok(provider, ctx, "browser.snapshot")
        assert "waiting" not in snapshot["text"]
        assert "fetched" in snapshot["text"]


async def test_a_snapshot_at_once_after_an_open_shows_what_its_first_frame_showed(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    # The snapshot reads the page while that frame is due: a read the frame changed (here an
    # attribute only) is read again.
    for _ in range(3):
        await ok(provider, ctx, "browser.open", url=site.url("/shown-at-first-frame"))
        snapshot = await ok(provider, ctx, "browser.snapshot")
        assert [element.get("label") for element in snapshot["elements"]] == ["Go"]


async def test_a_snapshot_of_one_element_at_once_after_an_open_waits_for_its_first_frame(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/drawn-at-load"))
    snapshot = await ok(provider, ctx, "browser.snapshot", selector="#app")
    assert snapshot["text"] == "Drawn ready\nGo"


READ_AT_LOAD = (
    "new Promise((done) => { const store = window[Symbol.for('browserhost')];"
    " const until = performance.now() + 2000;"
    " const look = () => (store.kept || performance.now() > until ? done() : setTimeout(look, 5));"
    " look(); })"
)
"""Waits (2 s at most) until the page has read itself after its load, and keeps that read."""


async def test_the_read_a_page_does_of_itself_after_its_load_is_no_snapshot_of_the_agents(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A calm page reads itself right after its load, a read the agent's first snapshot takes
    over. Until then the agent saw nothing of it: a button drawn again since is pressed as
    the page shows it now, not refused as changed since a snapshot."""
    await ok(provider, ctx, "browser.open", url=site.url("/redrawn"))
    await in_page(provider, ctx, READ_AT_LOAD)
    await ok(provider, ctx, "browser.click", selector="#swap")
    await ok(provider, ctx, "browser.click", selector="#b")
    assert await out_line(provider, ctx) == "pressed New"


def _value_of(snapshot: dict[str, Any], selector: str) -> object:
    return next(e for e in snapshot["elements"] if e["selector"] == selector).get("value")


def _checked_of(snapshot: dict[str, Any], selector: str) -> object:
    return next(e for e in snapshot["elements"] if e["selector"] == selector).get("checked")


@pytest.mark.parametrize(
    ("path", "change", "shown"),
    [
        # Told by no event: a field's value and a box checked by script, a scroll by script
        # (told at the next frame); and a text (told by a mutation).
        ("/form", "q.value = 'set by script'", lambda s: _value_of(s, "#q") == "set by script"),
        (
            "/form",
            "document.querySelector('[name=agree]').checked = true",
            lambda s: any(e.get("checked") for e in s["elements"]),
        ),
        ("/long", "scrollTo(0, 400)", lambda s: s["scrollY"] == 400),
        (
            "/form",
            "document.querySelector('p').textContent = 'Changed by script'",
            lambda s: "Changed by script" in s["text"],
        ),
        # A web component's own tree, which a document's mutation observer does not see.
        (
            "/component-field",
            "document.querySelector('x-field').shadowRoot.querySelector('span').textContent ="
            " 'Changed in its shadow'",
            lambda s: "Changed in its shadow" in s["text"],
        ),
        # Told by nothing at all: the page looks otherwise.
        (
            "/quietly-changed",
            "document.styleSheets[0].insertRule('#late { display: block }', 1)",
            lambda s: "Shown later" in s["text"],
        ),
        (
            "/quietly-changed",
            "const sheet = document.styleSheets[0];"
            " sheet.insertRule('#gear { display: inline-block }', sheet.cssRules.length)",
            lambda s: any(e.get("label") == "Settings" for e in s["elements"]),
        ),
        (
            "/quietly-changed",
            "document.styleSheets[0].disabled = true",
            lambda s: "Panel open" in s["text"],
        ),
        (
            "/quietly-changed",
            "document.styleSheets[1].media.mediaText = 'print'",
            lambda s: "Faded tip" in s["text"],
        ),
        (
            "/quietly-changed",
            "return tip.animate([{ opacity: 1 }, { opacity: 0 }],"
            " { duration: 20, fill: 'forwards' }).finished",
            lambda s: "Tip to fade" not in s["text"],
        ),
        (
            "/quietly-changed",
            "card.onmouseover = () => {}; menu.onclick = () => {}",
            lambda s: {"#card", "#menu"} <= {e["selector"] for e in s["elements"]},
        ),
        ("/quietly-changed", "document.designMode = 'on'", None),
        ("/quietly-changed", "t.checked = true", lambda s: "Panel open" in s["text"]),
        (
            "/quietly-changed",
            "customElements.define('x-late', class extends HTMLElement { connectedCallback() {"
            " this.attachShadow({ mode: 'open' }).innerHTML = '<button>Ready</button>'; } })",
            lambda s: any(e.get("label") == "Ready" for e in s["elements"]),
        ),
        (
            "/quietly-changed",
            "all.indeterminate = true",
            lambda s: _checked_of(s, "#all") == "mixed",
        ),
    ],
    ids=[
        "value",
        "checked",
        "scroll",
        "text",
        "shadow",
        "style-rule",
        "style-rule-icon",
        "sheet-disabled",
        "sheet-media",
        "animation-ended",
        "handler-properties",
        "design-mode",
        "unlisted-box",
        "late-component",
        "indeterminate",
    ],
)
async def test_the_first_snapshot_after_an_open_shows_what_the_page_changed_since_its_load(
    provider: ChromiumProvider,
    site: Site,
    ctx: Context,
    path: str,
    change: str,
    shown: Callable[[dict[str, Any]], bool] | None,
) -> None:
    """The page's own read at its load stands for the agent's first snapshot only while
    nothing it shows changed: what the page's script changed since is read anew, as a
    snapshot right after it reads it."""
    await ok(provider, ctx, "browser.open", url=site.url(path))
    await in_page(provider, ctx, f"{READ_AT_LOAD}.then(() => {{ {change}; }})")
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert shown is None or shown(snapshot), snapshot
    again = await ok(provider, ctx, "browser.snapshot")
    assert (snapshot["text"], snapshot["elements"]) == (again["text"], again["elements"])


async def test_open_answers_for_the_page_its_load_listeners_left(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    opened = await ok(provider, ctx, "browser.open", url=site.url("/changed-at-load"))
    assert opened["title"] == "Changed at load"
    assert opened["settled"] is True
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert "Changed" in snapshot["text"]
    assert "Before load" not in snapshot["text"]


async def test_open_of_a_page_that_cannot_tell_of_its_load_asks_it_instead(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    opened = await ok(provider, ctx, "browser.open", url=site.url("/wiped-at-load"))
    assert opened["title"] == "Wiped"
    # Settled: it did not wait out the whole settle time (which answers unsettled); the load
    # Playwright saw ended the wait for the page's own word.
    assert opened["settled"] is True
    clicked = await ok(provider, ctx, "browser.click", selector="button")
    assert clicked["title"] == "Wiped"
    snapshot = await ok(provider, ctx, "browser.snapshot")
    assert [element.get("label") for element in snapshot["elements"]] == ["Gone"]


async def test_back_and_forward_answer_for_the_page_its_script_left_after_its_load(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/titled-late"))
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    back = await ok(provider, ctx, "browser.back")
    assert back == {"url": site.url("/titled-late"), "title": "Titled ready"}
    forward = await ok(provider, ctx, "browser.forward")
    assert forward == {"url": site.url("/page-a"), "title": "Page A"}


async def test_a_step_or_an_open_within_the_document_waits_for_the_route_it_draws(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """An app draws each route on a timer after it moves there. back after a snapshot (which
    ended every earlier watch of the page's timers) answers for the route drawn, not the
    one before; an open of the same page at another fragment (a hash route) waits for what
    its page draws, and answers settled at once, with no load to wait for."""
    url = site.url("/timer-routes")
    await ok(provider, ctx, "browser.open", url=url)
    await ok(provider, ctx, "browser.click", text="One")
    await ok(provider, ctx, "browser.click", text="Two")
    await ok(provider, ctx, "browser.snapshot")
    back = await ok(provider, ctx, "browser.back")
    assert back == {"url": url + "?p=one", "title": "Routes one"}
    assert "Page one" in (await ok(provider, ctx, "browser.snapshot"))["text"]
    await ok(provider, ctx, "browser.open", url=url + "#/sent")
    opened = await ok(provider, ctx, "browser.open", url=url + "#/drafts")
    assert (opened["title"], opened["settled"]) == ("Routes drafts", True)
    assert "Page drafts" in (await ok(provider, ctx, "browser.snapshot"))["text"]


async def test_a_page_that_starts_a_worker_is_not_waiting_for_its_server(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    """A worker's script is fetched for the worker, whose end the page never hears: the open
    settles, and a click says nothing of a server still awaited."""
    opened = await ok(provider, ctx, "browser.open", url=site.url("/with-worker"))
    assert opened["settled"] is True
    clicked = await ok(provider, ctx, "browser.click", text="Open")
    assert "notice" not in clicked
    assert clicked["nowReads"] == "Opened"
