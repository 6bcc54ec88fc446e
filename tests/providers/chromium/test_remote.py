"""A remote browser the test starts itself: a Chromium listening for DevTools
(``connect_over_cdp``), or a Playwright browser server run by the driver bundled with the
Python package (``chromium.connect``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import httpx
import pytest
import pytest_asyncio
from playwright.async_api import async_playwright

from browserhost.contract import Context, ProviderRequest
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider
from browserhost.providers.chromium.launch import LAUNCH_FLAGS, sandboxed

from .driving import TEST_TIMEOUTS, ok, refused
from .site import Site

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]

CTX = Context(directory="/work/app", session_id="remote")
WS_PATH = "/browserhost-test"


class Remote(NamedTuple):
    http: str
    """``http://127.0.0.1:port``"""
    socket: str
    """``ws://127.0.0.1:port/devtools/browser/<id>``"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def devtools(
    chromium_path: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Remote]:
    """A headless Chromium of the test's own, listening for DevTools."""
    profile: Path = tmp_path_factory.mktemp("remote-profile")
    flags = [
        "--headless",
        "--disable-gpu",
        "--remote-debugging-port=0",
        f"--user-data-dir={profile}",
    ]
    if os.geteuid() == 0:
        flags.append("--no-sandbox")
    process = await asyncio.create_subprocess_exec(
        chromium_path,
        *flags,
        "about:blank",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    drain: asyncio.Task[bytes] | None = None
    try:
        async with asyncio.timeout(20):
            while True:
                line = (await process.stderr.readline()).decode()
                assert line, "Chromium exited before it listened for DevTools"
                if "DevTools listening on ws://" in line:
                    break
        socket = "ws://" + line.split("ws://", 1)[1].strip()
        port = socket.split("/")[2].rsplit(":", 1)[1]
        drain = asyncio.create_task(process.stderr.read())  # keep Chromium's log pipe flowing
        yield Remote(f"http://127.0.0.1:{port}", socket)
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        async with asyncio.timeout(10):
            await process.wait()
        if drain is not None:
            drain.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await drain


async def _targets(endpoint: str) -> list[str]:
    async with httpx.AsyncClient(trust_env=False, timeout=5) as client:
        listed = (await client.get(f"{endpoint}/json/list")).json()
    return [target["url"] for target in listed if target["type"] == "page"]


@pytest.mark.parametrize("route", ["http", "socket"])
async def test_a_devtools_endpoint_is_driven_like_a_local_browser(
    devtools: Remote, site: Site, route: str
) -> None:
    endpoint = devtools.http if route == "http" else devtools.socket
    provider = ChromiumProvider(ChromiumConfig(endpoint=endpoint), timeouts=TEST_TIMEOUTS)
    try:
        await ok(provider, CTX, "browser.open", url=site.url("/button"))
        assert site.url("/button") in await _targets(devtools.http)
        await ok(provider, CTX, "browser.click", selector="#toggle")
        assert (await ok(provider, CTX, "browser.snapshot"))["text"] == "Clicked!"
    finally:
        await provider.aclose()
    # Closing the provider closes its contexts, not someone else's browser.
    assert await _targets(devtools.http) == ["about:blank"]


async def test_back_and_forward_to_pages_kept_in_the_back_forward_cache_answer_as_they_show(
    devtools: Remote, site: Site
) -> None:
    """A browser of the user's own keeps the pages it leaves (Playwright's own launch turns
    that off): one shown again from there fires no load event. Back and forward answer with
    it well within a host's deadline, and the page is not asked for again."""
    provider = ChromiumProvider(ChromiumConfig(endpoint=devtools.http), timeouts=TEST_TIMEOUTS)
    kept = Context(directory="/work/app", session_id="kept")

    async def travel(action: str) -> object:
        deadline_ms = int(time.time() * 1000) + 8_000  # the wait for a load is 10 s
        answer = await provider.answer(ProviderRequest(action, action, {}, kept, None, deadline_ms))
        assert answer["ok"] is True, answer
        return answer["data"]

    try:
        await ok(provider, kept, "browser.open", url=site.url("/links"))
        await ok(provider, kept, "browser.click", text="Page A")
        asked = (site.arrived["/links"], site.arrived["/page-a"])
        assert await travel("browser.back") == {"url": site.url("/links"), "title": "Links"}
        assert (await ok(provider, kept, "browser.snapshot"))["title"] == "Links"
        assert await travel("browser.forward") == {"url": site.url("/page-a"), "title": "Page A"}
        assert (site.arrived["/links"], site.arrived["/page-a"]) == asked
    finally:
        await provider.aclose()


class BrowserServer(NamedTuple):
    endpoint: str
    """``ws://127.0.0.1:port/browserhost-test``, as the server printed it"""
    process: asyncio.subprocess.Process


@pytest_asyncio.fixture(loop_scope="module")
async def browser_server(
    chromium_path: str, unused_tcp_port: int, tmp_path: Path
) -> AsyncIterator[BrowserServer]:
    """A Playwright browser server of the test's own on a fixed port and path, launched by
    ``python -m playwright launch-server`` with the flags the provider launches Chromium with."""
    config = tmp_path / "launch-server.json"
    config.write_text(
        json.dumps(
            {
                "executablePath": chromium_path,
                "headless": True,
                "chromiumSandbox": sandboxed(),  # off as root: Playwright adds --no-sandbox
                "args": list(LAUNCH_FLAGS),
                "host": "127.0.0.1",
                "port": unused_tcp_port,
                "wsPath": WS_PATH,
                "timeout": 20_000,
            }
        )
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "playwright", "launch-server", "--browser", "chromium", "--config", str(config)),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        # `python -m playwright` runs the Node.js driver as its child; a session of its own
        # lets the teardown stop both, by this process group's id.
        start_new_session=True,
    )
    assert process.stdout is not None
    try:
        said: list[str] = []
        async with asyncio.timeout(30):
            while not (line := (await process.stdout.readline()).decode()).startswith("ws://"):
                assert line, "the browser server exited before it listened:\n" + "".join(said)
                said.append(line)
        yield BrowserServer(line.strip(), process)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        async with asyncio.timeout(15):
            # The driver closes its Chromium on SIGTERM before it exits; its stdout, which
            # Chromium does not share, ends when it has.
            await process.stdout.read()
            await process.wait()


class PageWatch:
    """The pages open in a browser, whoever opened them, kept current from CDP target events
    on a connection of the test's own."""

    def __init__(self) -> None:
        self.pages: dict[str, str] = {}
        self._changed = asyncio.Event()

    def seen(self, event: dict[str, Any]) -> None:
        info = event["targetInfo"]
        if info["type"] == "page":
            self.pages[info["targetId"]] = info["url"]
            self._changed.set()

    def gone(self, event: dict[str, Any]) -> None:
        self.pages.pop(event["targetId"], None)
        self._changed.set()

    async def until(self, done: Callable[[list[str]], bool]) -> None:
        async with asyncio.timeout(10):
            while not done(list(self.pages.values())):
                self._changed.clear()
                await self._changed.wait()


@contextlib.asynccontextmanager
async def watching(endpoint: str) -> AsyncIterator[PageWatch]:
    watch = PageWatch()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.connect(endpoint, timeout=10_000)
        session = await browser.new_browser_cdp_session()
        session.on("Target.targetCreated", watch.seen)
        session.on("Target.targetInfoChanged", watch.seen)
        session.on("Target.targetDestroyed", watch.gone)
        await session.send("Target.setDiscoverTargets", {"discover": True})
        try:
            yield watch
        finally:
            await browser.close()


async def test_a_playwright_browser_server_is_driven_and_outlives_the_provider(
    browser_server: BrowserServer, site: Site
) -> None:
    endpoint = browser_server.endpoint
    assert urlsplit(endpoint).path == WS_PATH
    provider = ChromiumProvider(ChromiumConfig(endpoint=endpoint), timeouts=TEST_TIMEOUTS)
    async with watching(endpoint) as watch:
        try:
            await ok(provider, CTX, "browser.open", url=site.url("/button"))
            await watch.until(lambda pages: site.url("/button") in pages)
            await ok(provider, CTX, "browser.click", selector="#toggle")
            assert (await ok(provider, CTX, "browser.snapshot"))["text"] == "Clicked!"
        finally:
            await provider.aclose()
        # Closing the provider disconnects it: the server closes the provider's pages...
        await watch.until(lambda pages: site.url("/button") not in pages)
    # ...and keeps running, its browser open to the next client.
    assert browser_server.process.returncode is None
    again = ChromiumProvider(ChromiumConfig(endpoint=endpoint), timeouts=TEST_TIMEOUTS)
    try:
        assert (await ok(again, CTX, "browser.open", url=site.url("/page-a")))["title"] == "Page A"
    finally:
        await again.aclose()


@pytest.mark.parametrize("scheme", ["http", "ws"])
async def test_an_unreachable_endpoint_is_refused_without_naming_it(
    unused_tcp_port: int, scheme: str
) -> None:
    endpoint = f"{scheme}://127.0.0.1:{unused_tcp_port}{WS_PATH if scheme == 'ws' else ''}"
    provider = ChromiumProvider(ChromiumConfig(endpoint=endpoint), timeouts=TEST_TIMEOUTS)
    try:
        error = await refused(provider, CTX, "browser.snapshot")
    finally:
        await provider.aclose()
    assert error == (
        "Could not connect to the remote browser set by BROWSERHOST_CHROMIUM_ENDPOINT; check "
        "that it is running and reachable from this machine."
    )
    assert str(unused_tcp_port) not in error


async def test_an_endpoint_that_is_not_ws_or_http_is_refused() -> None:
    provider = ChromiumProvider(ChromiumConfig(endpoint="ftp://127.0.0.1:9222"))
    try:
        error = await refused(provider, CTX, "browser.snapshot")
    finally:
        await provider.aclose()
    assert error == (
        "BROWSERHOST_CHROMIUM_ENDPOINT must be a ws:// Playwright browser-server URL or an "
        "http://host:port DevTools URL."
    )
