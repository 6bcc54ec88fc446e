"""The provider's panel page in the real viewer, in a real Chromium, talking to its real
service process: its requests, the theme and the watched session it is told, and that it
stays loaded while the person switches sessions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, FrameLocator, Page

from . import panel_service
from .viewing import ACTIONS, Served, serving, wait_for_picture

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path / "data", panel_service.record()) as running:
        yield running


async def panel_shows(page: Page, output: str, text: str) -> None:
    await (
        page.frame_locator("#panel")
        .locator(f"#{output}")
        .filter(has_text=text)
        .wait_for(timeout=15_000)
    )


async def result(panel: FrameLocator) -> dict[str, object]:
    shown: dict[str, object] = json.loads(str(await panel.locator("#result").text_content()))
    return shown


async def test_the_panel_asks_its_service_and_gets_the_answer_back(
    browser: Browser, served: Served
) -> None:
    page = await browser.new_page()
    await page.goto(served.viewer)
    await wait_for_picture(page)
    panel = page.frame_locator("#panel")
    await panel.locator("#ask").click()
    await panel_shows(page, "result", "serviceResult")
    answered = await result(panel)
    assert answered | {"body": None} == {
        "type": "serviceResult",
        "id": "r1",
        "ok": True,
        "status": 200,
        "body": None,
    }
    body = answered["body"]
    assert isinstance(body, dict)
    assert (body["method"], body["path"], body["body"]) == (
        "POST",
        "/panel/echo?q=1",
        {"hello": "service"},
    )
    await panel.locator("#stray").click()
    await panel_shows(page, "result", "INVALID_ACTION")
    refused = await result(panel)
    assert (refused["id"], refused["ok"], refused["code"]) == ("r2", False, "INVALID_ACTION")
    assert str(refused["error"]).startswith("The panel may send requests only to paths under")
    await page.close()


async def test_the_panel_is_told_the_theme_when_it_loads_and_when_it_changes(
    browser: Browser, served: Served
) -> None:
    page = await browser.new_page(color_scheme="light")
    await page.goto(served.viewer)
    await panel_shows(page, "theme", "light")
    await page.emulate_media(color_scheme="dark")
    await panel_shows(page, "theme", "dark")
    await page.close()


async def test_the_panel_follows_the_watched_session_without_reloading(
    browser: Browser, served: Served
) -> None:
    with served.client() as http:
        for session, path in (("alpha", "/about"), ("beta", "/form")):
            opened = http.post(
                ACTIONS,
                json={"action": "browser.open", "parameters": {"url": f"http://site.test{path}"},
                      "context": {"directory": "/work/app", "sessionId": session}},
            )  # fmt: skip
            assert opened.status_code == 200, opened.text
    page = await browser.new_page()
    await page.goto(served.viewer)
    await wait_for_picture(page)
    await panel_shows(page, "sessions", "beta")  # the agent acted there last
    await page.wait_for_function("document.getElementById('session').options.length === 3")
    alpha = await page.eval_on_selector("#session", "s => s.options[1].value")
    await page.select_option("#session", alpha)
    await panel_shows(page, "sessions", "beta,alpha")
    await page.select_option("#session", "")  # follow the agent again: beta
    # One document saw all three: a reload would have forgotten the first two.
    await panel_shows(page, "sessions", "beta,alpha,beta")
    await page.close()


async def test_no_other_page_can_show_the_viewer_in_a_frame(
    browser: Browser, served: Served
) -> None:
    """A page that framed the viewer unseen could have a person's click take control for
    it: the browser shows no viewer there (the panel above shows the viewer may frame its
    own pages)."""
    page = await browser.new_page()
    await page.set_content(f'<iframe id="viewer" src="{served.viewer}"></iframe>')
    holder = await page.wait_for_selector("#viewer")
    assert holder is not None
    frame = await holder.content_frame()
    assert frame is not None
    await frame.wait_for_load_state()
    assert frame.url.startswith("chrome-error://")
    assert await frame.locator("#picture").count() == 0
    await page.close()
