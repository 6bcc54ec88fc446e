"""The bridge end to end: a real ``browserhost serve`` and a real ``browserhost bridge
connect --provider chromium`` in another process, both on loopback, against a site that counts
every request it receives; and the viewer page, in a real Chromium, showing the bridged
browser."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from playwright.async_api import async_playwright

from tests.api.viewing import click_picture, launch_options, wait_for_control, wait_for_picture
from tests.cli.test_verbs import Shell
from tests.conftest import TOKEN, LiveServer, free_port, serving_selected, start_server
from tests.mcp.conftest import call_ok, http_mcp
from tests.providers.chromium.site import Site
from tests.spawning import READY_WAIT_S, spawn

pytestmark = pytest.mark.slow

PROVIDERS = "/api/browser-providers"
ACTIONS = "/api/browser-providers/actions"
CONNECT_WAIT_S = READY_WAIT_S
AGENT = "The agent is working — click the picture to take over"
YOU = "You are in control"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serving_selected(tmp_path_factory, "bridge")


class Connector:
    """One ``browserhost bridge connect`` process."""

    def __init__(
        self, server: LiveServer, chromium_path: str, log: Path, provider: str = "chromium"
    ) -> None:
        env = {
            **os.environ,
            "BROWSERHOST_BRIDGE_TOKEN": TOKEN,
            "BROWSERHOST_CHROMIUM": chromium_path,
        }
        env.pop("BROWSERHOST_TOKEN", None)
        with log.open("ab") as errors:
            self.process = spawn(
                [sys.executable, "-m", "browserhost", "bridge", "connect", server.url,
                 "--provider", provider],
                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors,
            )  # fmt: skip
        self.log = log

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        self.process.wait(timeout=20)


def bridge_row(http: httpx.Client) -> dict[str, Any]:
    [row] = http.get(PROVIDERS).json()["providers"]
    found: dict[str, Any] = row["bridge"]
    return found


def wait_connected(http: httpx.Client, connector: Connector, connected: bool = True) -> None:
    """Poll the listing, bounded: the connection is made by another process."""
    deadline = time.monotonic() + CONNECT_WAIT_S
    while bridge_row(http)["connected"] is not connected:
        assert connector.process.poll() is None or not connected, connector.log.read_text()
        assert time.monotonic() < deadline, connector.log.read_text()
        time.sleep(0.05)


@pytest.fixture
def connector(server: LiveServer, chromium_path: str, tmp_path: Path) -> Iterator[Connector]:
    running = Connector(server, chromium_path, tmp_path / "connect.log")
    with server.client() as http:
        wait_connected(http, running)
    yield running
    running.stop()
    with server.client() as http:
        wait_connected(http, running, connected=False)


def act(http: httpx.Client, action: str, **parameters: object) -> httpx.Response:
    context = {"sessionId": "bridged", "directory": None}
    return http.post(ACTIONS, json={"action": action, "parameters": parameters, "context": context})


def test_with_no_browser_connected_an_action_is_provider_unavailable(
    server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        assert bridge_row(http) == {"connected": False}
        answer = act(http, "browser.open", url=f"{site.origin}/page-a")
    assert answer.status_code == 503
    assert answer.json() == {
        "ok": False,
        "code": "PROVIDER_UNAVAILABLE",
        "error": "Bridge (a browser that connects in) is not reachable (the bridge has no "
        "browser connected; connect the browserhost extension, or start `browserhost bridge "
        "connect`). Nothing was sent.",
    }
    assert site.arrived["/page-a"] == 0


def test_browserhost_providers_says_whether_a_browser_is_connected(
    server: LiveServer, chromium_path: str, tmp_path: Path
) -> None:
    shell = Shell(server, tmp_path)
    assert shell.ok("providers").splitlines() == [
        "* bridge  Bridge (a browser that connects in) (selected)",
        "    no browser connected: connect the browserhost extension, or start "
        "`browserhost bridge connect`",
    ]
    [row] = shell.answer("providers")["providers"]
    assert row["bridge"] == {"connected": False}

    connector = Connector(server, chromium_path, tmp_path / "connect.log")
    try:
        with server.client() as http:
            wait_connected(http, connector)
        assert shell.ok("providers").splitlines()[:2] == [
            "* bridge  Bridge (a browser that connects in) (selected)",
            "    browser connected: Chromium",
        ]
        [row] = shell.answer("providers")["providers"]
        assert row["bridge"] == {"connected": True, "provider": "Chromium"}
    finally:
        connector.stop()
        with server.client() as http:
            wait_connected(http, connector, connected=False)


def test_the_ten_actions_run_in_the_connected_chromium_over_http(
    server: LiveServer, site: Site, connector: Connector
) -> None:
    with server.client() as http:
        assert bridge_row(http)["connected"] is True

        def ok(action: str, **parameters: object) -> dict[str, Any]:
            answer = act(http, action, **parameters)
            assert answer.status_code == 200, answer.text
            assert answer.json()["providerId"] == "bridge"
            data: dict[str, Any] = answer.json()["data"]
            return data

        assert ok("browser.open", url=f"{site.origin}/form")["title"] == "Form"
        assert "#q" in [element["selector"] for element in ok("browser.snapshot")["elements"]]
        ok("browser.type", selector="#q", value="bridged")
        assert ok("browser.inspect", selector="#q")["value"] == "bridged"
        ok("browser.scroll", direction="down")
        assert ok("browser.click", text="Search")["url"].startswith(f"{site.origin}/result")
        assert ok("browser.back")["url"] == f"{site.origin}/form"
        assert ok("browser.forward")["url"].startswith(f"{site.origin}/result")
        assert ok("browser.resize", viewport="mobile")["viewport"]["mode"] == "mobile"
        captured = ok("browser.capture")
        assert captured["mime"] == "image/png"


async def test_the_actions_run_through_mcp_too(
    server: LiveServer, site: Site, connector: Connector
) -> None:
    with anyio.fail_after(120):
        async with http_mcp(server) as client:
            opened = await call_ok(client, "browser_open", {"url": f"{site.origin}/links"})
            clicked = await call_ok(client, "browser_click", {"text": "Page A"})
            snapshot = await call_ok(client, "browser_snapshot")
    assert opened["title"] == "Links"
    assert clicked["url"] == f"{site.origin}/page-a"
    assert "This is page A" in snapshot["text"]


def test_killing_the_connecting_side_mid_action_is_request_failed_once_then_a_new_one_works(
    server: LiveServer, site: Site, chromium_path: str, tmp_path: Path
) -> None:
    first = Connector(server, chromium_path, tmp_path / "first.log")
    with server.client() as http, ThreadPoolExecutor(1) as pool:
        wait_connected(http, first)
        with site.holding() as held:
            opening = pool.submit(act, http, "browser.open", url=f"{site.origin}/held-bridge")
            assert held.wait(30), "the page was never asked for"
            first.stop(signal.SIGKILL)
            answer = opening.result(timeout=30)
        assert answer.status_code == 504, answer.text
        assert answer.json()["code"] == "REQUEST_FAILED"
        assert "may have run" in answer.json()["error"]
        wait_connected(http, first, connected=False)
        assert act(http, "browser.snapshot").json()["code"] == "PROVIDER_UNAVAILABLE"

        second = Connector(server, chromium_path, tmp_path / "second.log")
        try:
            wait_connected(http, second)
            opened = act(http, "browser.open", url=f"{site.origin}/page-b")
            assert opened.status_code == 200, opened.text
            assert opened.json()["data"]["title"] == "Page B"
        finally:
            second.stop()
    assert site.arrived["/held-bridge"] == 1  # ran at most once: never replayed


def test_bridge_listen_serves_the_bridge_alone_while_the_api_stays_put(
    tmp_path: Path, chromium_path: str
) -> None:
    bridge_port = free_port()
    server = start_server(
        tmp_path / "data",
        providers="bridge",
        extra_args=("--bridge-listen", f"127.0.0.1:{bridge_port}", "--select", "bridge"),
    )
    try:
        bridge_only = f"http://127.0.0.1:{bridge_port}"
        with httpx.Client(trust_env=False) as other:
            assert other.get(f"{bridge_only}/api/browser-providers").status_code == 404
            assert other.get(f"{bridge_only}/viewer/").status_code == 404
        listening = LiveServer(bridge_only, TOKEN, server.data_dir, server.process, server.log_path)
        connector = Connector(listening, chromium_path, tmp_path / "connect.log", "stub")
        try:
            with server.client() as http:
                wait_connected(http, connector)
                opened = act(http, "browser.open", url="https://example.com")
        finally:
            connector.stop()
    finally:
        server.stop()
    assert opened.status_code == 200, opened.text


@pytest.mark.parametrize("provider", ["stub", "chromium"])
async def test_the_viewer_shows_a_bridged_browser_and_a_person_takes_over_and_hands_back(
    server: LiveServer, site: Site, chromium_path: str, tmp_path: Path, provider: str
) -> None:
    """The picture and the person's clicks travel over the bridge's socket; while the person
    holds control the agent is refused and nothing reaches the connected browser."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(**launch_options(chromium_path))
        page = await browser.new_page()
        await page.goto(f"{server.url}/viewer/#token={TOKEN}")
        await wait_for_control(page, "Bridge (a browser that connects in) shows no picture.")

        connector = Connector(server, chromium_path, tmp_path / "connect.log", provider)
        try:
            with server.client() as http:
                wait_connected(http, connector)
                [row] = http.get(PROVIDERS).json()["providers"]
                assert row["surface"] is True
                assert act(http, "browser.open", url=f"{site.origin}/page-a").status_code == 200
                await wait_for_picture(page, timeout_s=30)
                await wait_for_control(page, AGENT)

                await click_picture(page, 5, 5)
                await wait_for_control(page, YOU)
                refused = act(http, "browser.open", url=f"{site.origin}/page-b?{provider}")
                assert refused.status_code == 423, refused.text
                assert refused.json()["code"] == "USER_IN_CONTROL"

                await page.click("#hand-back")
                await wait_for_control(page, AGENT)
                snapshot = act(http, "browser.snapshot")
                assert snapshot.status_code == 200, snapshot.text
                assert snapshot.json()["data"]["url"] == f"{site.origin}/page-a"
        finally:
            connector.stop()
            await browser.close()
        with server.client() as http:
            wait_connected(http, connector, connected=False)
    if provider == "chromium":
        assert site.arrived[f"/page-b?{provider}"] == 0  # the refused open reached nothing
