"""The host's cancel and deadline reaching the extension during an action, end to end: a real
Chromium with the extension, connected to a host served for real in a thread of its own (its
dispatch takes a cancel, and its transport a deadline, that ``serve`` gives no way to set)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
import uvicorn

from browserhost.api.app import create_app
from browserhost.contract import Context, ProviderRequest, normalize
from browserhost.contract.errors import RequestFailedError
from browserhost.host import Host
from browserhost.host.bridge import Bridge
from browserhost.transports.base import LostError
from tests.conftest import TOKEN, free_port
from tests.extension.conftest import WAIT_S, Loaded, bridge_url
from tests.processes import wait_until
from tests.providers.chromium.site import Site

T = TypeVar("T")
SESSION = Context(session_id="cancelled")


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
        return outcome.data


@pytest.fixture
def hosted(tmp_path: Path) -> Iterator[Hosted]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    host = Host(tmp_path / "data")
    bridge = Bridge(host)
    host.select("bridge")
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(host, TOKEN, bridge=bridge), host="127.0.0.1", port=port, log_level="warning"
        )
    )
    serving = asyncio.run_coroutine_threadsafe(server.serve(), loop)
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


async def event() -> asyncio.Event:
    return asyncio.Event()


def test_a_cancel_stops_a_running_open_and_its_tab_goes_on(linked: Hosted, site: Site) -> None:
    linked.open(site.url("/page-a")).result(timeout=WAIT_S)
    cancel = linked.run(event())
    with site.holding() as held:
        # An address of its own: Chrome's cache makes a second request for an address wait
        # while a first one is still answered.
        opening = linked.open(site.url("/held?cancelled"), cancel)
        assert held.wait(WAIT_S)
        linked.loop.call_soon_threadsafe(cancel.set)
        with pytest.raises(RequestFailedError, match="may have run"):
            opening.result(timeout=WAIT_S)
        # The held page never answers while this block runs: the next open is not kept
        # waiting behind the cancelled one.
        reopened = linked.open(site.url("/page-b")).result(timeout=WAIT_S)
    assert reopened.data["title"] == "Page B"
    after = linked.snapshot()
    assert (after["url"], after["text"]) == (site.url("/page-b"), "This is page B")


def test_a_call_whose_deadline_passes_behind_another_never_runs(
    linked: Hosted, extension: Loaded, site: Site
) -> None:
    late = site.url("/page-a?late=1")
    call = normalize("browser.open", {"url": late})
    request = ProviderRequest("browser-late", call.name, call.parameters, SESSION)
    with site.holding() as held:
        opening = linked.open(site.url("/held?first"))
        assert held.wait(WAIT_S)
        with pytest.raises(LostError) as lost:
            linked.run(linked.bridge.transport.send(request, 1.0))
        assert extension.badge() == "..."  # the open it waited behind still runs
    assert str(lost.value) == (
        "the connected browser could not answer: browser.open stopped: the host's deadline "
        "passed before it reached the page; nothing ran."
    )
    assert opening.result(timeout=WAIT_S).data["title"] == "Held"
    assert linked.snapshot()["url"] == site.url("/held?first")
    assert site.arrived["/page-a?late=1"] == 0
