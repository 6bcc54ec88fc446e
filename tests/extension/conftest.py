"""The Chrome extension's fixtures: a real Chromium (one per test module) with the unpacked
extension loaded, a real ``browserhost serve`` it is connected to (paired: the test approves
it through the API, as a person does), and a test site served on loopback; or, for a test
that calls the host's own objects, a host served for real in a thread of its own
(:func:`linked`)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn
from playwright.sync_api import BrowserContext, Page, Worker, sync_playwright

from browserhost.api.app import create_app
from browserhost.contract import Context
from browserhost.host import Host
from browserhost.host.bridge import Bridge
from browserhost.providers.chromium.launch import LAUNCH_FLAGS
from tests.conftest import TOKEN, LiveServer, listening, serving_selected
from tests.processes import wait_until

EXTENSION = Path(__file__).parents[2] / "src" / "browserhost" / "extension"
PROVIDERS = "/api/browser-providers"
PENDING = "/api/bridge/pending"
ACTIONS = "/api/browser-providers/actions"
WAIT_S = 15.0
REDIAL_MAX_S = 30.0
"""The longest pause between two dials of an extension that lost its host (``BACKOFF_MAX_MS``
in ``connection.js``)."""
NO_TAB = "No tab is shared with the agent"
SESSION = Context(session_id="agent")

T = TypeVar("T")


@dataclass
class Loaded:
    """The browser with the extension, and the extension's service worker."""

    context: BrowserContext
    worker: Worker

    @property
    def extension_id(self) -> str:
        return self.worker.url.split("/")[2]

    def status(self) -> str:
        return str(self.worker.evaluate("browserhost.link.status"))

    def wait_status(self, wanted: str, timeout_s: float = WAIT_S) -> None:
        """Poll, bounded: the socket is the extension's own, and tells the test nothing."""
        deadline = time.monotonic() + timeout_s
        while (seen := self.status()) != wanted:
            assert time.monotonic() < deadline, f"status {seen!r}, wanted {wanted!r}"
            time.sleep(0.05)

    def dial(self, url: str, token: str = "") -> None:
        self.worker.evaluate(
            "([url, token]) => chrome.storage.local.set({url, token})", [url, token]
        )

    def pair(self, host_url: str) -> str:
        """Approve this browser's request to pair with the host at ``host_url`` through the API,
        as ``browserhost bridge approve ID`` does, with the id the extension shows; that id."""
        self.wait_status("pending")
        pending = str(self.worker.evaluate("browserhost.link.pending"))
        headers = {"Authorization": f"Bearer {TOKEN}"}
        with httpx.Client(base_url=host_url, headers=headers, trust_env=False) as http:
            approved = http.post(f"{PENDING}/{pending}/approve")
        assert approved.status_code == 200, approved.text
        self.wait_status("on")
        return pending

    def state_text(self) -> str:
        return str(self.worker.evaluate("chrome.storage.local.get('state')")["state"]["text"])

    def tab_id(self, url: str) -> int:
        found: int = self.worker.evaluate(
            "async (url) => (await chrome.tabs.query({url}))[0].id", url
        )
        return found

    def page(self, url: str) -> Page:
        # A round trip, so Playwright has taken in the tabs the extension opened meanwhile.
        self.worker.evaluate("0")
        [shown] = [page for page in self.context.pages if page.url == url]
        return shown

    def badge(self) -> str:
        return str(self.worker.evaluate("chrome.action.getBadgeText({})"))

    def popup(self, tab: int) -> Page:
        """The toolbar button's popup, opened as a page about ``tab``."""
        shown = self.context.new_page()
        shown.goto(f"chrome-extension://{self.extension_id}/popup.html?tab={tab}")
        shown.wait_for_selector("body[data-ready=true]")
        return shown

    def share(self, url: str) -> None:
        """Share the tab showing ``url`` as a person does: the popup's button."""
        popup = self.popup(self.tab_id(url))
        assert popup.text_content("#share") == "Share this tab"
        popup.click("#share")
        popup.wait_for_selector("#share:text('Stop sharing this tab')")
        popup.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serving_selected(tmp_path_factory, "bridge")


def bridge_url(server: LiveServer | str, via: str = "127.0.0.1") -> str:
    url = server if isinstance(server, str) else server.url
    return f"ws://{via}:{url.rsplit(':', 1)[1]}/ext/bridge"


@pytest.fixture(scope="module")
def loaded(
    server: LiveServer, chromium_path: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Loaded]:
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            tmp_path_factory.mktemp("profile"),
            executable_path=chromium_path,
            # The new headless mode loads unpacked extensions; Playwright's own headless
            # switch picks the old one.
            headless=False,
            args=[
                "--headless=new",
                *LAUNCH_FLAGS,
                f"--disable-extensions-except={EXTENSION}",
                f"--load-extension={EXTENSION}",
            ],
        )
        worker = context.service_workers[0] if context.service_workers else None
        if worker is None:
            worker = context.wait_for_event("serviceworker", timeout=WAIT_S * 1000)
        browser = Loaded(context, worker)
        browser.dial(bridge_url(server))
        browser.pair(server.url)
        yield browser
        context.close()


@pytest.fixture
def extension(loaded: Loaded, server: LiveServer) -> Iterator[Loaded]:
    """Connected to ``server``, nothing shared, no tab but a blank one."""
    if loaded.worker.evaluate("browserhost.link.url") != bridge_url(server):
        loaded.dial(bridge_url(server))
    loaded.wait_status("on")
    yield loaded
    loaded.worker.evaluate("chrome.storage.session.clear()")
    for page in loaded.context.pages[1:]:
        page.close()


def act(
    http: httpx.Client, action: str, /, session: str | None = None, **parameters: object
) -> httpx.Response:
    """One action through the HTTP API; ``session`` names the agent session it is for (the
    verb ``mouse`` has a parameter named ``action`` of its own)."""
    body: dict[str, object] = {"action": action, "parameters": parameters}
    if session is not None:
        body["context"] = {"sessionId": session}
    return http.post(ACTIONS, json=body)


def declared_verbs(server: LiveServer) -> dict[str, dict[str, Any]]:
    """The verbs the connected extension declares, as the host lists them, by name."""
    with server.client() as http:
        [row] = http.get(PROVIDERS).json()["providers"]
    return {verb["name"]: verb for verb in row["verbs"]}


def data(answer: httpx.Response) -> dict[str, Any]:
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()["data"]
    return found


@dataclass
class Hosted:
    """A host with the bridge selected, serving on loopback from its own event loop."""

    host: Host
    bridge: Bridge
    loop: asyncio.AbstractEventLoop
    url: str

    def submit(self, work: Coroutine[Any, Any, T]) -> Future[T]:
        return asyncio.run_coroutine_threadsafe(work, self.loop)

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return self.submit(work).result(timeout=WAIT_S)

    def open(self, url: str, cancel: asyncio.Event | None = None) -> Future[Any]:
        return self.submit(self.host.dispatch("browser.open", {"url": url}, SESSION, cancel=cancel))

    def snapshot(self) -> dict[str, Any]:
        outcome = self.run(self.host.dispatch("browser.snapshot", {}, SESSION))
        found: dict[str, Any] = outcome.data
        return found


@pytest.fixture
def hosted(tmp_path: Path) -> Iterator[Hosted]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    host = Host(tmp_path / "data")
    bridge = Bridge(host)
    host.select("bridge")
    bound = listening()
    port = bound.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(host, TOKEN, bridge=bridge), log_level="warning")
    )
    serving = asyncio.run_coroutine_threadsafe(server.serve([bound]), loop)
    deadline = time.monotonic() + WAIT_S
    while not server.started:  # uvicorn sets a flag and sends no event
        assert time.monotonic() < deadline, "the host did not start"
        time.sleep(0.01)
    try:
        yield Hosted(host, bridge, loop, f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        serving.result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()


@pytest.fixture
def linked(extension: Loaded, hosted: Hosted) -> Hosted:
    extension.dial(bridge_url(hosted.url))
    extension.pair(hosted.url)
    # The badge can still show the connection to an earlier test's host: this host says.
    wait_until(lambda: hosted.bridge.transport.link is not None, "the extension did not connect")
    return hosted
