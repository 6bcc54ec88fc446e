"""The viewer's timeline, in a real Chromium: the agent's steps beside the live picture, the
failed one marked, and a step's picture and answer when it is clicked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.async_api import Browser

from browserhost.host.step_pictures import PictureTaking
from browserhost.providers.stub import StubProvider

from .viewing import ACTIONS, Served, serving, wait_for_picture

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def recording_host(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path / "data", StubProvider().registration()) as served:
        served.host.recorder.enabled = True  # as serve does, unless told not to
        # The steps below follow each other at once: each its own picture all the same.
        served.host.recorder.pictures = PictureTaking(pause_s=0)
        yield served


async def test_the_timeline_lists_the_agents_steps_marks_the_failure_and_shows_a_step(
    browser: Browser, recording_host: Served
) -> None:
    agent = {"sessionId": "agent-7"}
    with recording_host.client() as http:
        for action, parameters in (
            ("browser.open", {"url": "https://example.com/"}),
            ("browser.snapshot", {}),
            ("browser.click", {"selector": "#no-such-link"}),
        ):
            http.post(ACTIONS, json={"action": action, "parameters": parameters, "context": agent})

    page = await browser.new_page()
    try:
        await page.goto(recording_host.viewer)
        await wait_for_picture(page)
        steps = page.locator("#steps .step")
        await steps.nth(2).wait_for(timeout=30_000)
        assert await page.locator("#steps .step-action").all_inner_texts() == [
            "browser.open",
            "browser.snapshot",
            "browser.click",
        ]
        failed = page.locator("#steps .step.failed")
        assert await failed.count() == 1
        assert await failed.get_attribute("data-outcome") == "PROVIDER_REJECTED"
        assert "PROVIDER_REJECTED" in await failed.inner_text()
        assert "agent-7" in await page.locator("#recording-session").inner_text()

        await failed.locator("button").click()
        assert "#no-such-link" in await page.locator("#step-error").inner_text()
        await steps.nth(0).locator("button").click()
        await page.locator("#step-picture:not([hidden])").wait_for()
        assert await page.locator("#step-picture").evaluate(
            "image => image.complete && image.naturalWidth > 0"
        )
        summary = await page.locator("#step-summary").inner_text()
        assert summary.startswith("#1 browser.open: ok")
        answer = await page.locator("#step-answer").text_content()  # in a closed <details>
        assert "https://example.com/" in str(answer)
    finally:
        await page.close()


async def test_a_host_that_does_not_record_says_so_in_the_timeline(
    browser: Browser, tmp_path: Path
) -> None:
    with serving(tmp_path / "data", StubProvider().registration()) as served:
        page = await browser.new_page()
        try:
            await page.goto(served.viewer)
            await page.get_by_text("This host records nothing now").wait_for(timeout=30_000)
            assert await page.locator("#steps .step").count() == 0
        finally:
            await page.close()
