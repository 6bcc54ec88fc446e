"""The host's cancel and deadline reaching the extension during an action, end to end: a real
Chromium with the extension, connected to a host served for real in a thread of its own (its
dispatch takes a cancel, and its transport a deadline, that ``serve`` gives no way to set)."""

from __future__ import annotations

import asyncio

import pytest

from browserhost.contract import ProviderRequest, normalize
from browserhost.contract.errors import RequestFailedError
from browserhost.transports.base import LostError
from tests.extension.conftest import SESSION, WAIT_S, Hosted, Loaded
from tests.providers.chromium.site import Site


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
