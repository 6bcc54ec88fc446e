"""Chromium killed mid-action under a real ``browserhost serve``: the whole browser, or only
its renderers, while the site holds the page the action is loading.

One server and one browser serve the module; the site counts every request it receives, so a
test sees that the browser asked for the page once and nobody asked again.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import LiveServer, serving_selected
from tests.processes import (
    CHROMIUM_NAMES,
    PROCESS_WAIT_S,
    Holdings,
    browser_of,
    chromium_processes,
    descendants,
    kill_browser,
    processes,
)
from tests.providers.chromium.site import Site

ACTIONS = "/api/browser-providers/actions"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[LiveServer]:
    yield from serving_selected(
        tmp_path_factory, "chromium", env={"BROWSERHOST_CHROMIUM": chromium_path}
    )


def act(http: httpx.Client, session: str, action: str, **parameters: object) -> httpx.Response:
    context = {"sessionId": session, "directory": None}
    return http.post(ACTIONS, json={"action": action, "parameters": parameters, "context": context})


def opened(http: httpx.Client, session: str, url: str) -> dict[str, Any]:
    response = act(http, session, "browser.open", url=url)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()["data"]
    return found


def kill_renderers(root: int) -> set[int]:
    """SIGKILL the renderers of the browser under ``root``: its pages crash, it lives."""
    renderers = {
        pid
        for pid in chromium_processes(root)
        if "--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes().decode()
    }
    assert renderers
    for pid in renderers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return renderers


def others(root: int) -> set[int]:
    """The live processes under ``root`` that are not Chromium's: Playwright's driver."""
    return {
        pid
        for pid, process in descendants(root).items()
        if process.name not in CHROMIUM_NAMES and process.name and not process.zombie
    }


def alive(chromium: dict[int, int]) -> bool:
    """Whether the browser process of ``chromium`` (a :func:`chromium_processes`) still runs."""
    running = processes().get(browser_of(chromium))
    return running is not None and not running.zombie


KILLS = {"browser": kill_browser, "renderers": kill_renderers}


@pytest.mark.parametrize("killed", list(KILLS))
def test_chromium_killed_mid_open_may_have_run_loaded_once_and_leaves_nothing_behind(
    server: LiveServer, site: Site, killed: str
) -> None:
    session = f"killed-{killed}"
    held = f"/held?session={session}"
    with server.client() as http:
        assert opened(http, session, site.url("/page-a"))["title"] == "Page A"
        before = Holdings.of(server.process.pid)
        browsers_before = chromium_processes(server.process.pid)
        drivers_before = others(server.process.pid)
        with ThreadPoolExecutor(1) as pool, site.holding() as arrived:
            in_flight = pool.submit(act, http, session, "browser.open", url=site.url(held))
            assert arrived.wait(PROCESS_WAIT_S), "the browser never asked for the held page"
            gone = KILLS[killed](server.process.pid)
            response = in_flight.result(timeout=60)
        answer = response.json()
        assert response.status_code == 504, answer
        assert (answer["ok"], answer["code"]) == (False, "REQUEST_FAILED")
        assert "may have run" in answer["error"]
        after = act(http, session, "browser.open", url=site.url("/page-b"))
        if after.status_code != 200 and killed == "renderers" and not alive(browsers_before):
            # Chromium's browser process itself now and then crashes (SIGSEGV) a moment after
            # all its renderers are killed, under the next open: reported as the browser
            # gone mid-action, it may have run; the open after relaunches it.
            assert after.json()["code"] == "REQUEST_FAILED", after.text
            after = act(http, session, "browser.open", url=site.url("/page-b"))
        assert after.status_code == 200, after.text
        assert after.json()["data"]["title"] == "Page B"
        snapshot = act(http, session, "browser.snapshot").json()
        assert snapshot["data"]["text"] == "This is page B", snapshot
    assert site.arrived[held] == 1  # asked once, and never again after the relaunch
    assert not set(chromium_processes(server.process.pid)) & gone
    before.assert_nothing_more_later(replaced=True)
    relaunched = chromium_processes(server.process.pid)
    assert len([pid for pid, parent in relaunched.items() if parent not in relaunched]) == 1
    assert len(relaunched) <= len(browsers_before), (relaunched, browsers_before)
    assert others(server.process.pid) == drivers_before  # Playwright's driver lives on
