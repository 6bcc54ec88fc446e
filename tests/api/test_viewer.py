"""The viewer, driven in a real Chromium like any page: the picture, taking over, handing
back, a second viewer, and the socket's own gate."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from playwright.async_api import Browser, Page
from websockets.asyncio.client import ClientConnection

from browserhost.contract.surface import INPUT_BATCH_MAX
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider
from browserhost.providers.stub import StubProvider
from tests.conftest import TOKEN
from tests.providers.chromium.site import Site
from tests.providers.chromium.site import serving as serving_site

from .viewing import (
    ACTIONS,
    Served,
    click_picture,
    host_caught_up,
    serving,
    wait_for_control,
    wait_for_picture,
    wait_for_picture_size,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

TAKE_OVER = "Nobody is in control — click the picture to take over"
AGENT = "The agent is working — click the picture to take over"
YOU = "You are in control"
OTHER = "Another viewer is in control"
AGENT_VIEWPORT = (1280, 800)
"""The chromium provider's desktop viewport, which its picture shows pixel for pixel."""


@pytest.fixture
def stub_host(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path / "data", StubProvider().registration()) as served:
        yield served


async def test_the_stub_picture_appears_and_clicking_it_takes_control_from_the_agent(
    browser: Browser, stub_host: Served
) -> None:
    page = await browser.new_page()
    await page.goto(stub_host.viewer)
    assert "#token" not in page.url  # the token leaves the address bar at once
    width, height = await wait_for_picture(page)
    assert width > 0
    assert height > 0
    await wait_for_control(page, TAKE_OVER)

    with stub_host.client() as http:
        opened = http.post(ACTIONS, json={"action": "browser.snapshot"})
        assert opened.status_code == 200, opened.text
        await wait_for_control(page, AGENT)
        await click_picture(page, 5, 5)
        await wait_for_control(page, YOU)
        before = list(stub_host.received)
        refused = http.post(ACTIONS, json={"action": "browser.snapshot"})
        assert refused.status_code == 423
        assert refused.json()["code"] == "USER_IN_CONTROL"
        assert stub_host.received == before  # it never reached the provider

        await page.click("#hand-back")
        await wait_for_control(page, AGENT)
        assert http.post(ACTIONS, json={"action": "browser.snapshot"}).status_code == 200
        assert stub_host.received[-1] == "browser.snapshot"
    await page.close()


async def test_a_second_viewer_sees_who_holds_control_and_cannot_take_it(
    browser: Browser, stub_host: Served
) -> None:
    first, second = await browser.new_page(), await browser.new_page()
    for page in (first, second):
        await page.goto(stub_host.viewer)
        await wait_for_picture(page)
    await click_picture(first, 5, 5)
    await wait_for_control(first, YOU)
    await wait_for_control(second, OTHER)
    await click_picture(second, 5, 5)
    await wait_for_control(second, "Another viewer is in control; wait until they hand back.")
    await wait_for_control(first, YOU)

    await first.close()  # leaving hands back
    await wait_for_control(second, AGENT)
    await second.close()


async def test_pointer_moves_alone_take_nothing(browser: Browser, stub_host: Served) -> None:
    page = await browser.new_page()
    await page.goto(stub_host.viewer)
    await wait_for_picture(page)
    box = await page.locator("#picture").bounding_box()
    assert box is not None
    for step in range(10):
        await page.mouse.move(box["x"] + 10 + step * 5, box["y"] + 10 + step * 3)
    await host_caught_up(page)  # whatever the moves sent has been handled
    await wait_for_control(page, TAKE_OVER)
    with stub_host.client() as http:
        assert http.post(ACTIONS, json={"action": "browser.snapshot"}).status_code == 200
    await page.close()


async def test_the_stubs_address_bar_opens_a_page_in_the_session_the_picture_shows(
    browser: Browser, stub_host: Served
) -> None:
    context = {"directory": "/work/app", "sessionId": "watched"}
    with stub_host.client() as http:
        http.post(
            ACTIONS,
            json={"action": "browser.open", "parameters": {"url": "http://site.test/"},
                  "context": context},
        )  # fmt: skip
        page = await browser.new_page()
        await page.goto(stub_host.viewer)
        await wait_for_picture(page)
        bar = page.frame_locator("#panel").locator("#address")
        await bar.fill("site.test/about")
        await bar.press("Enter")
        await wait_for_control(page, YOU)  # typing an address is acting
        await page.click("#hand-back")
        snapshot = http.post(
            ACTIONS, json={"action": "browser.snapshot", "context": context}
        ).json()["data"]
        assert (snapshot["url"], snapshot["title"]) == ("http://site.test/about", "About the stub")
    await page.close()


async def test_a_chosen_session_stays_chosen_until_its_viewer_leaves(
    browser: Browser, stub_host: Served
) -> None:
    with stub_host.client() as http:
        for session, path in (("alpha", "/about"), ("beta", "/form")):
            context = {"directory": "/work/app", "sessionId": session}
            http.post(
                ACTIONS,
                json={"action": "browser.open", "parameters": {"url": f"http://site.test{path}"},
                      "context": context},
            )  # fmt: skip
        page = await browser.new_page()
        await page.goto(stub_host.viewer)
        await wait_for_picture(page)
        await page.wait_for_function("document.getElementById('session').options.length === 3")
        labels = await page.eval_on_selector_all("#session option", "o => o.map(x => x.text)")
        assert labels == [
            "Follow the agent",
            "alpha in app: About the stub",
            "beta in app: Search (shown)",
        ]
        alpha = await page.eval_on_selector("#session", "s => s.options[1].value")
        await page.select_option("#session", alpha)
        await page.wait_for_function(
            "document.querySelector('#session option:checked').text.endsWith('(shown)')"
        )
        # The agent acts elsewhere: the chosen session stays on screen and chosen.
        beta = {"directory": "/work/app", "sessionId": "beta"}
        http.post(ACTIONS, json={"action": "browser.snapshot", "context": beta})
        await _wait_for_last_action(page, "browser.snapshot")
        # The viewer is told of an agent action, then of the sessions as they are after it;
        # so once it is told of the next action, it was told all the first one changed.
        http.post(
            ACTIONS,
            json={"action": "browser.inspect", "parameters": {"selector": "#q"},
                  "context": beta},
        )  # fmt: skip
        await _wait_for_last_action(page, "browser.inspect")
        chosen = await page.eval_on_selector("#session", "s => s.options[s.selectedIndex].text")
        assert chosen == "alpha in app: About the stub (shown)"
        await page.close()  # leaving lets go of the chosen session
        watcher = await browser.new_page()
        await watcher.goto(stub_host.viewer)
        await wait_for_picture(watcher)
        # The host lets go when it hears the first viewer leave, and tells this one then: it
        # follows the agent, to the session the agent acted on last.
        await watcher.wait_for_function(
            "() => { const s = document.getElementById('session'); return s.options.length === 3"
            " && s.value === '' && s.options[2].text.endsWith('(shown)'); }"
        )
        assert await watcher.eval_on_selector("#session", "s => s.value") == ""  # following
        shown = await watcher.eval_on_selector_all("#session option", "o => o.map(x => x.text)")
        assert shown[2] == "beta in app: Search (shown)"  # the session the agent acted on last
        await watcher.close()


async def test_an_agent_action_refused_while_a_person_holds_control_shows_in_the_viewer(
    browser: Browser, stub_host: Served
) -> None:
    page = await browser.new_page()
    await page.goto(stub_host.viewer)
    await wait_for_picture(page)
    await click_picture(page, 5, 5)
    await wait_for_control(page, YOU)
    with stub_host.client() as http:
        assert http.post(ACTIONS, json={"action": "browser.back"}).status_code == 423
    await page.wait_for_function(
        "document.getElementById('last-action').textContent.startsWith("
        "'Agent: browser.back refused: a person is in control')"
    )
    await page.close()


async def test_the_socket_refuses_a_bad_token_a_late_hello_and_a_foreign_page(
    stub_host: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    socket_url = stub_host.url.replace("http", "ws") + "/api/surface"
    async with websockets.connect(socket_url) as socket:
        await socket.send(json.dumps({"t": "hello", "token": "wrong"}))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await socket.recv()
        assert _closing(closed.value) == (4002, "bad token")
    async with websockets.connect(socket_url) as socket:
        await socket.send(json.dumps({"t": "drawn", "seq": 1}))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await socket.recv()
        assert _closing(closed.value) == (1008, "hello first")
    monkeypatch.setattr("browserhost.api.viewer.HELLO_TIMEOUT_S", 0.2)
    async with websockets.connect(socket_url) as socket:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await socket.recv()
        assert _closing(closed.value) == (4001, "hello timeout")
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with websockets.connect(socket_url, origin="http://evil.test"):  # type: ignore[arg-type]
            pass
    assert refused.value.response.status_code == 403
    async with websockets.connect(socket_url) as socket:
        await socket.send(json.dumps({"t": "hello", "token": TOKEN, "viewer": "v1"}))
        assert json.loads(await socket.recv()) == {"t": "ready", "viewer": "viewer v1"}


async def test_an_input_batch_over_input_batch_max_is_refused_and_types_nothing(
    stub_host: Served,
) -> None:
    """A click on the field and keys to fill the batch: one event over is "not understood",
    nothing of it reaches the page and nobody takes control; exactly at the limit, all of it
    is typed."""
    with stub_host.client() as http:
        opened = http.post(
            ACTIONS, json={"action": "browser.open", "parameters": {"url": "http://site.test/form"}}
        )
        assert opened.status_code == 200, opened.text
        field = _inspect(http)["bounds"]
    x, y = field["x"] + 5, field["y"] + 5
    click = [
        {"type": "pointer", "action": "down", "x": x, "y": y, "buttons": 1},
        {"type": "pointer", "action": "up", "x": x, "y": y},
    ]
    key = {"type": "text", "text": "k"}
    socket_url = stub_host.url.replace("http", "ws") + "/api/surface"
    async with websockets.connect(socket_url) as socket:
        await socket.send(json.dumps({"t": "hello", "token": TOKEN, "viewer": "v1"}))
        over = click + [key] * (INPUT_BATCH_MAX + 1 - len(click))
        await socket.send(json.dumps({"t": "input", "events": over}))
        assert await _told_before_clipboard(socket) == [
            {"t": "error", "message": "That input was not understood; nothing was sent."}
        ]
        with stub_host.client() as http:
            assert _inspect(http)["value"] == ""  # answered, not 423: nobody took control
        at_the_limit = click + [key] * (INPUT_BATCH_MAX - len(click))
        await socket.send(json.dumps({"t": "input", "events": at_the_limit}))
        await socket.send(json.dumps({"t": "handBack"}))
        assert await _told_before_clipboard(socket) == []
    with stub_host.client() as http:
        assert _inspect(http)["value"] == "k" * (INPUT_BATCH_MAX - len(click))


async def test_a_viewer_still_decoding_a_picture_is_sent_the_next(stub_host: Served) -> None:
    """Pictures go out ahead of the viewer's word that it decoded the last one: what the
    agent changes shows up while the first picture is still unacknowledged."""
    socket_url = stub_host.url.replace("http", "ws") + "/api/surface"
    async with websockets.connect(socket_url) as socket:
        await socket.send(json.dumps({"t": "hello", "token": TOKEN, "viewer": "v1"}))
        first = await _next_picture(socket)
        with stub_host.client() as http:
            opened = http.post(
                ACTIONS,
                json={"action": "browser.open", "parameters": {"url": "http://site.test/form"}},
            )
            assert opened.status_code == 200, opened.text
        while (second := await _next_picture(socket))["title"] != "Search":
            pass  # the agent's page on its way
        assert second["seq"] > first["seq"]


async def test_a_viewer_that_floods_drawn_or_never_says_it_is_still_served_one_at_a_time(
    stub_host: Served,
) -> None:
    """A hostile viewer: thousands of "drawn" for pictures never sent earn it nothing, and the
    host goes on answering it and the agent."""
    socket_url = stub_host.url.replace("http", "ws") + "/api/surface"
    async with websockets.connect(socket_url) as socket:
        await socket.send(json.dumps({"t": "hello", "token": TOKEN, "viewer": "v1"}))
        first = await _next_picture(socket)
        for seq in range(5_000):
            await socket.send(json.dumps({"t": "drawn", "seq": seq}))
        assert await _told_before_clipboard(socket) == []  # each handled, in order
        with stub_host.client() as http:
            opened = http.post(
                ACTIONS,
                json={"action": "browser.open", "parameters": {"url": "http://site.test/form"}},
            )
            assert opened.status_code == 200, opened.text
        while (later := await _next_picture(socket))["title"] != "Search":
            assert later["seq"] > first["seq"]
    async with websockets.connect(socket_url) as quiet:  # never acknowledges a picture
        await quiet.send(json.dumps({"t": "hello", "token": TOKEN, "viewer": "v2"}))
        await _next_picture(quiet)
        with stub_host.client() as http:
            assert http.post(ACTIONS, json={"action": "browser.snapshot"}).status_code == 200


async def _next_picture(socket: ClientConnection) -> dict[str, Any]:
    """The next picture's description, once the picture itself has arrived."""
    async with asyncio.timeout(5):
        while True:
            raw = await socket.recv()
            if isinstance(raw, bytes) or json.loads(raw)["t"] != "frame":
                continue
            meta: dict[str, Any] = json.loads(raw)
            assert isinstance(await socket.recv(), bytes)
            return meta


async def _wait_for_last_action(page: Page, action: str) -> None:
    """Until the viewer shows ``action`` as the agent's last."""
    await page.wait_for_function(
        "want => document.getElementById('last-action').textContent.startsWith(want)",
        arg=f"Agent: {action} ",
        timeout=30_000,
    )


def _inspect(http: httpx.Client) -> dict[str, Any]:
    inspected = http.post(
        ACTIONS, json={"action": "browser.inspect", "parameters": {"selector": "#q"}}
    )
    assert inspected.status_code == 200, inspected.text
    data: dict[str, Any] = inspected.json()["data"]
    return data


async def _told_before_clipboard(socket: ClientConnection) -> list[dict[str, Any]]:
    """Ask for the clipboard, and gather the errors and refusals the host sends before its
    answer: the viewer's messages are handled in order, so none can come after it."""
    await socket.send(json.dumps({"t": "copy"}))
    told: list[dict[str, Any]] = []
    async with asyncio.timeout(10):
        while True:
            raw = await socket.recv()
            if isinstance(raw, bytes):  # a picture
                continue
            message = json.loads(raw)
            if message["t"] == "clipboard":
                return told
            if message["t"] in ("error", "refused"):
                told.append(message)


def _closing(closed: websockets.ConnectionClosed) -> tuple[int, str]:
    """The close code and reason the host sent."""
    assert closed.rcvd is not None
    return closed.rcvd.code, closed.rcvd.reason


# --- chromium: the person types where the agent could not --------------------------------


@pytest.fixture
def site() -> Iterator[Site]:
    with serving_site() as running:
        yield running


@pytest.fixture
def chromium_host(tmp_path: Path, chromium_path: str) -> Iterator[Served]:
    provider = ChromiumProvider(ChromiumConfig(executable=chromium_path))
    with serving(tmp_path / "data", provider.registration()) as served:
        yield served


async def test_typing_in_the_chromium_picture_fills_the_agents_field(
    browser: Browser, chromium_host: Served, site: Site
) -> None:
    context = {"directory": None, "sessionId": "viewer"}
    with chromium_host.client() as http:

        def act(action: str, **parameters: object) -> dict[str, object]:
            answer = http.post(
                ACTIONS, json={"action": action, "parameters": parameters, "context": context}
            )
            assert answer.status_code == 200, answer.text
            data: dict[str, object] = answer.json()["data"]
            return data

        act("browser.open", url=site.url("/form"))
        page = await browser.new_page(viewport={"width": 1400, "height": 1000})
        await page.goto(chromium_host.viewer)
        # The field's bounds are in the agent's page pixels, which the picture shows.
        await wait_for_picture_size(page, AGENT_VIEWPORT)
        field = act("browser.inspect", selector="#q")
        bounds = field["bounds"]
        assert isinstance(bounds, dict)
        await click_picture(page, bounds["x"] + 5, bounds["y"] + bounds["height"] / 2)
        await wait_for_control(page, YOU)
        # Taking over lays the page out at the size the person sees it.
        await wait_for_picture_size(page)
        await page.keyboard.type("kittens")
        refused = http.post(
            ACTIONS, json={"action": "browser.snapshot", "parameters": {}, "context": context}
        )
        assert refused.json()["code"] == "USER_IN_CONTROL"
        await page.click("#hand-back")
        await wait_for_control(page, AGENT)
        assert act("browser.inspect", selector="#q")["value"] == "kittens"
        # The person's window size went with them: the agent's viewport is back.
        await wait_for_picture_size(page, AGENT_VIEWPORT)
        assert act("browser.snapshot")["viewport"] == {
            "mode": "desktop",
            "width": AGENT_VIEWPORT[0],
            "height": AGENT_VIEWPORT[1],
        }
        await page.close()
    await asyncio.sleep(0)


async def test_the_agents_last_action_is_shown_whole_in_a_narrow_viewer(
    browser: Browser, stub_host: Served
) -> None:
    page = await browser.new_page(viewport={"width": 480, "height": 600})
    await page.goto(stub_host.viewer)
    await wait_for_picture(page)
    await click_picture(page, 5, 5)
    await wait_for_control(page, YOU)
    with stub_host.client() as http:
        assert http.post(ACTIONS, json={"action": "browser.back"}).status_code == 423
    shown = page.locator("#last-action")
    await page.wait_for_function(
        "document.getElementById('last-action').textContent.startsWith("
        "'Agent: browser.back refused: a person is in control')"
    )
    # Nothing of it is cut: not by its own box, nor by the bar's, nor by the window's edge.
    cut = await shown.evaluate(
        """(el) => {
          const box = el.getBoundingClientRect();
          const bar = document.getElementById("bar").getBoundingClientRect();
          return el.scrollWidth > el.clientWidth || box.right > bar.right
            || box.bottom > bar.bottom || box.right > innerWidth;
        }"""
    )
    assert cut is False
    assert await shown.is_visible()
    await page.close()
