"""``browserhost trace export`` against a live host driving a real Chromium: the trace opens in
Playwright's own trace viewer (``playwright show-trace``), and the HTML page in a browser,
which fetches nothing."""

from __future__ import annotations

import os
import re
import sys
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.async_api import Browser

from tests.cli.running import browserhost
from tests.conftest import LiveServer, serving_selected, start_server
from tests.providers.chromium.site import Site
from tests.spawning import spawn, stop, wait_ready

pytestmark = pytest.mark.slow
in_module_loop = pytest.mark.asyncio(loop_scope="module")  # the module's browser's loop

PLAYWRIGHT = Path(sys.executable).parent / "playwright"
VIEWER_READY_S = 120.0
"""Node starting the trace viewer's server on a loaded machine: generous."""


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[LiveServer]:
    yield from serving_selected(
        tmp_path_factory, "chromium", env={"BROWSERHOST_CHROMIUM": chromium_path}
    )


def act_in(host: LiveServer, site: Site, *session: str) -> None:
    """Four steps in the session, the last one failing (exit 3: refused, nothing ran)."""
    assert browserhost(host.url, "open", site.url("/form"), *session).status == 0
    typed = browserhost(host.url, "type", "--selector", "#q", "--value", "kittens", *session)
    assert typed.status == 0, typed
    assert browserhost(host.url, "snapshot", *session).status == 0
    missing = browserhost(host.url, "click", "--selector", "#no-such-button", *session)
    assert missing.status == 3, missing


@contextmanager
def trace_viewer(trace: Path, log: Path) -> Iterator[str]:
    """``playwright show-trace`` serving ``trace`` over HTTP; the URL it prints."""
    # BROWSER: the viewer also tries to open a browser tab itself; here that does nothing.
    env = {**os.environ, "BROWSER": "true"}
    command = [str(PLAYWRIGHT), "show-trace", "--host", "127.0.0.1", "--port", "0", str(trace)]
    with log.open("wb") as printed:
        process = spawn(command, stdout=printed, stderr=printed, env=env)
    try:
        wait_ready(
            process,
            lambda: "Listening on http" in log.read_text(errors="replace"),
            "playwright show-trace",
            log,
            VIEWER_READY_S,
        )
        found = re.search(r"Listening on (http\S+)", log.read_text())
        assert found is not None
        yield found.group(1)
    finally:
        stop(process)


@in_module_loop
async def test_the_exported_trace_opens_in_playwrights_trace_viewer_with_each_step_and_the_failure(
    host: LiveServer, site: Site, browser: Browser, tmp_path: Path
) -> None:
    act_in(host, site)  # the CLI's own session, as export takes it by default
    trace = tmp_path / "agent.zip"
    exported = browserhost(host.url, "trace", "export", "-o", str(trace))
    assert exported.status == 0, exported
    assert re.search(r"Wrote 4 steps \(1 failed\) of cli-\S+ to ", exported.out)
    assert f"playwright show-trace {trace}" in exported.err
    with zipfile.ZipFile(trace) as archive:
        pictures = [name for name in archive.namelist() if name.startswith("resources/")]
        assert pictures
        assert all(archive.read(name).startswith(b"\xff\xd8") for name in pictures)

    with trace_viewer(trace, tmp_path / "show-trace.log") as url:
        page = await browser.new_page()
        try:
            await page.goto(url)
            titles = page.locator(".action-title-method")
            await titles.nth(3).wait_for(timeout=60_000)
            assert await titles.all_inner_texts() == [
                "browser.open",
                "browser.type",
                "browser.snapshot",
                "browser.click",
            ]
            entries = page.locator(".tree-view-entry")
            assert "error" in str(await entries.nth(3).get_attribute("class"))
            assert "error" not in str(await entries.nth(0).get_attribute("class"))
            await titles.nth(3).click()
            await page.get_by_text("Errors", exact=True).click()
            await page.get_by_text("No element matches", exact=False).first.wait_for()
        finally:
            await page.close()


@in_module_loop
async def test_the_html_export_is_one_page_with_every_step_and_fetches_nothing(
    host: LiveServer, site: Site, browser: Browser, tmp_path: Path
) -> None:
    act_in(host, site, "--session", "html-agent")
    page_file = tmp_path / "agent.html"
    exported = browserhost(
        host.url, "trace", "export", "--session", "html-agent", "--html", "-o", str(page_file)
    )
    assert exported.status == 0, exported
    html = page_file.read_text()
    assert "browserhost recording: html-agent" in html
    assert "4 steps, 1 failed" in html
    assert html.count('<li class="failed">') == 1
    assert "kittens" in html  # the page reported the field's value back: not a secret
    assert "data:image/jpeg;base64," in html
    assert re.findall(r'(?:src|href)="(?!data:)', html) == []

    page = await browser.new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    try:
        await page.goto(page_file.as_uri())
        actions = await page.locator("summary .action").all_inner_texts()
        assert actions == ["browser.open", "browser.type", "browser.snapshot", "browser.click"]
        await page.locator("li.failed summary").click()
        await page.get_by_text("No element matches", exact=False).first.wait_for()
        shown = page.locator("li.failed img, li:first-child img").first
        await page.locator("li:first-child summary").click()
        assert await shown.evaluate("image => image.complete && image.naturalWidth > 0")
    finally:
        await page.close()
    assert requested == [page_file.as_uri()]  # the page alone: nothing else was fetched


def test_export_says_when_nothing_is_recorded_and_writes_nothing(tmp_path: Path) -> None:
    server = start_server(
        tmp_path / "data", extra_args=("--select", "stub"), env={"BROWSERHOST_RECORDING": "off"}
    )
    try:
        assert browserhost(server.url, "snapshot", "--session", "quiet").status == 0
        target = tmp_path / "none.zip"
        refused = browserhost(
            server.url, "trace", "export", "--session", "quiet", "-o", str(target)
        )
        assert refused.status == 2
        assert "This host records nothing now" in refused.err
        assert "Nothing is recorded for the session 'quiet'; nothing was written." in refused.err
        assert not target.exists()
        assert "Nothing is recorded yet." in browserhost(server.url, "trace", "sessions").out
        assert not (tmp_path / "data" / "recordings").exists()
    finally:
        server.stop()
