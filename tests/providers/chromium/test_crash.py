"""A browser killed between or during actions: relaunched, and never reported as success."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
import pytest_asyncio
from playwright.async_api import Error as PlaywrightError

from browserhost.contract import Context, ProviderRequest, normalize
from browserhost.providers.chromium import (
    BrowserGoneError,
    ChromiumConfig,
    ChromiumProvider,
    pagescript,
)
from browserhost.providers.chromium.errors import PageStuckError, PageWaitingError
from browserhost.providers.chromium.inputs import STILL_LOADING
from browserhost.transports.base import LostError
from browserhost.transports.inprocess import InProcessTransport

from .driving import TEST_TIMEOUTS, act, browser_pid, ok, refused
from .site import FREEZING, Site

CTX = Context(directory="/work/app", session_id="crash")


pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def own(chromium_path: str) -> AsyncIterator[ChromiumProvider]:
    """A provider of this module's own, since its tests kill the browser; each test starts
    with browser.open, which relaunches it if the test before left it dead."""
    provider = ChromiumProvider(ChromiumConfig(executable=chromium_path), timeouts=TEST_TIMEOUTS)
    yield provider
    await provider.aclose()


async def _kill_browser(provider: ChromiumProvider) -> None:
    """SIGKILL the browser process and wait (bounded) until Playwright has noticed."""
    browser = await provider._launcher.browser()
    gone = asyncio.Event()
    browser.on("disconnected", lambda _: gone.set())
    os.kill(await browser_pid(browser), signal.SIGKILL)
    async with asyncio.timeout(10):
        await gone.wait()


async def test_killing_the_browser_between_actions_is_survived(
    own: ChromiumProvider, site: Site
) -> None:
    await ok(own, CTX, "browser.open", url=site.url("/page-a"))
    first = await own._launcher.browser()
    await _kill_browser(own)
    opened = await ok(own, CTX, "browser.open", url=site.url("/page-b"))
    assert opened["title"] == "Page B"
    assert opened["notice"] == (
        "The browser restarted since this session's last action: its pages, cookies and "
        "logins are gone; this page was opened without them."
    )
    assert (await ok(own, CTX, "browser.snapshot"))["text"] == "This is page B"
    assert await own._launcher.browser() is not first


async def test_an_action_in_flight_when_the_browser_dies_is_not_reported_as_success(
    own: ChromiumProvider, site: Site
) -> None:
    await ok(own, CTX, "browser.open", url=site.url("/page-a"))
    call = normalize("browser.open", {"url": site.url("/held")})
    request = ProviderRequest("in-flight", call.name, call.parameters, CTX)
    with site.holding() as arrived:
        in_flight = asyncio.create_task(own.answer(request))
        async with asyncio.timeout(10):
            assert await asyncio.to_thread(arrived.wait, 10)
        await _kill_browser(own)
        async with asyncio.timeout(10):
            with pytest.raises(BrowserGoneError, match="may or may not have happened"):
                await in_flight
    assert (await ok(own, CTX, "browser.open", url=site.url("/page-b")))["title"] == "Page B"


async def test_the_host_reports_a_browser_lost_mid_action_as_may_have_run(
    own: ChromiumProvider, site: Site
) -> None:
    """Through the in-process transport, the way the host calls a built-in provider."""
    transport = InProcessTransport(own.answer)
    await ok(own, CTX, "browser.open", url=site.url("/page-a"))
    call = normalize("browser.open", {"url": site.url("/held")})
    request = ProviderRequest("in-flight", call.name, call.parameters, CTX)
    with site.holding() as arrived:
        in_flight = asyncio.create_task(transport.send(request, timeout_s=30))
        async with asyncio.timeout(10):
            assert await asyncio.to_thread(arrived.wait, 10)
        await _kill_browser(own)
        async with asyncio.timeout(10):
            with pytest.raises(LostError):
                await in_flight


async def _kill_renderers(provider: ChromiumProvider) -> None:
    """SIGKILL every renderer of the provider's browser: its pages crash, the browser lives."""
    browser = await provider._launcher.browser()
    session = await browser.new_browser_cdp_session()
    info = await session.send("SystemInfo.getProcessInfo")
    await session.detach()
    for process in info["processInfo"]:
        if process["type"] == "renderer":
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(process["id"]), signal.SIGKILL)


async def test_a_renderer_crash_is_reported_on_the_action_it_hit(
    own: ChromiumProvider, site: Site
) -> None:
    await ok(own, CTX, "browser.open", url=site.url("/page-a"))
    call = normalize("browser.open", {"url": site.url("/held-crash")})
    request = ProviderRequest("crashing", call.name, call.parameters, CTX)
    with site.holding() as arrived:
        in_flight = asyncio.create_task(own.answer(request))
        assert await asyncio.to_thread(arrived.wait, 10)
        await _kill_renderers(own)
        async with asyncio.timeout(10):
            with pytest.raises(BrowserGoneError, match=r"page crashed while browser\.open ran"):
                await in_flight
    # The next action gets a working page, and says nothing more about the crash.
    assert (await ok(own, CTX, "browser.open", url=site.url("/page-b")))["title"] == "Page B"
    assert (await ok(own, CTX, "browser.snapshot"))["text"] == "This is page B"


async def test_a_crashed_page_is_replaced_on_the_next_action(
    own: ChromiumProvider, site: Site
) -> None:
    await ok(own, CTX, "browser.open", url=site.url("/page-a"))
    page = own.page_for(CTX)
    assert page is not None
    crashed = asyncio.Event()
    page.on("crash", lambda _: crashed.set())
    with contextlib.suppress(PlaywrightError):  # the navigation dies with the renderer
        await page.goto("chrome://crash")
    async with asyncio.timeout(10):
        await crashed.wait()
    snapshot = await ok(own, CTX, "browser.snapshot")
    assert snapshot["url"] == "about:blank"
    assert own.page_for(CTX) is not page
    assert (await ok(own, CTX, "browser.open", url=site.url("/page-b")))["title"] == "Page B"


STUCK = r"^The page stopped answering for 8 s .* so it was closed; the next action starts"


@pytest.mark.parametrize(
    ("action", "parameters"),
    [
        ("browser.click", {"text": "Freeze"}),  # the click's own handler never returns
        ("browser.click", {"text": "Alert forever"}),  # dialogs dismissed one after another
        ("browser.type", {"selector": "#name", "value": "Ann"}),  # a key handler that loops
    ],
)
async def test_a_page_that_never_yields_is_closed_and_the_session_goes_on(
    own: ChromiumProvider, site: Site, action: str, parameters: dict[str, str]
) -> None:
    await ok(own, CTX, "browser.open", url=site.url("/hangs"))
    with pytest.raises(PageStuckError, match=STUCK):
        await act(own, CTX, action, **parameters)
    await ok(own, CTX, "browser.open", url=site.url("/page-b"))
    assert (await ok(own, CTX, "browser.snapshot"))["text"] == "This is page B"


async def test_a_page_stuck_between_actions_is_closed_by_the_next_one(
    own: ChromiumProvider, site: Site
) -> None:
    await ok(own, CTX, "browser.open", url=site.url("/hangs"))
    told = site.arrived[FREEZING]
    await ok(own, CTX, "browser.click", text="Freeze later")  # in 1.5 s: after the click
    # The page tells the site as it freezes, with its thread held from then on.
    assert await asyncio.to_thread(site.wait_for_requests, lambda n: n[FREEZING] > told)
    with pytest.raises(PageStuckError, match=STUCK):
        await act(own, CTX, "browser.snapshot")
    assert (await ok(own, CTX, "browser.snapshot"))["url"] == "about:blank"


async def test_a_click_whose_page_waits_for_a_slow_server_answers_and_the_page_loads_later(
    own: ChromiumProvider, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chromium runs no script in a page that waits for its next document: the page is not
    stuck, it is neither closed nor called stuck, and what cannot read it says why."""
    monkeypatch.setattr(pagescript, "PAGE_ANSWER_S", 1.0)  # how long a read waits for it
    await ok(own, CTX, "browser.open", url=site.url("/to-held"))
    with site.holding() as arrived:
        clicked = await ok(own, CTX, "browser.click", text="Held page")
        assert clicked["label"] == "Held page"
        assert clicked["notice"] == STILL_LOADING
        assert arrived.is_set()
        said = await refused(own, CTX, "browser.snapshot")
        assert said.startswith(f"The page is waiting for {site.url('/held')} to answer (")
        assert said.endswith("Take a snapshot again in a moment, or open another address.")
        # Its element could not be found, so nothing was pressed: it did not run.
        again = await refused(own, CTX, "browser.click", text="Held page")
        assert again.startswith(f"The page is waiting for {site.url('/held')} to answer (")
        assert again.endswith("browser.click did not run; try it again in a moment.")
    async with asyncio.timeout(10):  # the load goes on in the same page once released
        while (snapshot := await ok(own, CTX, "browser.snapshot"))["title"] != "Held":
            assert snapshot["url"] in (site.url("/to-held"), site.url("/held")), snapshot
    assert snapshot["text"] == "held page"


@pytest.mark.parametrize(
    ("verb", "arguments"),
    [
        ("verb.press_key", {"selector": "a[href='/held']", "key": "Enter"}),
        ("verb.mouse", {"action": "click", "text": "Held page"}),
    ],
)
async def test_a_key_or_a_mouse_press_whose_page_waits_for_a_slow_server_says_so(
    own: ChromiumProvider, site: Site, verb: str, arguments: dict[str, object]
) -> None:
    """A verb's press that followed a link answers with the page as it stood when its wait
    ran out, and says that the page is still loading, as a click does."""
    await ok(own, CTX, "browser.open", url=site.url("/to-held"))
    with site.holding() as arrived:
        pressed = await ok(own, CTX, verb, **arguments)
        assert arrived.is_set()
        assert pressed["notice"] == STILL_LOADING
    async with asyncio.timeout(10):
        while (await ok(own, CTX, "browser.snapshot"))["title"] != "Held":
            pass


async def test_a_document_the_parser_is_halfway_through_is_read_once_it_ends_or_said_loading(
    own: ChromiumProvider, site: Site
) -> None:
    """A read waits for the parser to reach the document's end (briefly), and one it did not
    reach says the page is still loading; once the rest arrives, the whole page is read."""
    await ok(own, CTX, "browser.open", url=site.url("/to-held"))
    with site.holding() as arrived:
        await ok(own, CTX, "browser.click", text="Half body")
        assert arrived.is_set()
        async with asyncio.timeout(10):  # until the new document has committed
            while (half := await ok(own, CTX, "browser.snapshot"))["url"] != site.url("/half-body"):
                assert half["url"] == site.url("/to-held"), half
    assert (half["title"], half["text"]) == ("Half body", "first half")
    assert half["notice"] == "The page is still loading; what it shows may change."
    whole = await ok(own, CTX, "browser.snapshot")
    assert whole["text"] == "first half\n\nsecond half"


async def test_a_document_still_arriving_holds_up_no_page_opened_after_it(
    own: ChromiumProvider, site: Site
) -> None:
    """A page whose body still streams when another is opened (Chromium tells no end of
    its request) is no request of the next page's: it opens settled, waiting for nothing, and
    its clicks are not said to wait for the first page's server."""
    await ok(own, CTX, "browser.open", url=site.url("/to-held"))
    with site.holding() as arrived:
        await ok(own, CTX, "browser.click", text="Half body")
        assert arrived.is_set()
        async with asyncio.timeout(10):  # until the new document has committed
            while (await ok(own, CTX, "browser.snapshot"))["url"] != site.url("/half-body"):
                pass
        for _ in range(2):
            opened = await ok(own, CTX, "browser.open", url=site.url("/links"))
            assert opened["settled"] is True, opened
        clicked = await ok(own, CTX, "browser.click", text="Page A")
        assert "notice" not in clicked, clicked


async def test_back_while_a_link_waits_for_its_server_goes_back_and_says_so(
    own: ChromiumProvider, site: Site
) -> None:
    """The step aborts the load still pending, which Playwright reports as the step's own
    failure: the page went back all the same, and the answer must say so."""
    await ok(own, CTX, "browser.open", url=site.url("/page-a"))
    await ok(own, CTX, "browser.open", url=site.url("/to-held"))
    with site.holding() as arrived:
        await ok(own, CTX, "browser.click", text="Held page")
        assert arrived.is_set()
        went = await ok(own, CTX, "browser.back")
    assert (went["url"], went["title"]) == (site.url("/page-a"), "Page A")
    assert (await ok(own, CTX, "browser.snapshot"))["url"] == site.url("/page-a")
    assert (await ok(own, CTX, "browser.forward"))["url"] == site.url("/to-held")


async def test_a_new_document_with_nothing_of_it_arrived_yet_is_waited_for_then_read(
    own: ChromiumProvider, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the headers, on which Chromium commits the new document, and its first bytes,
    the page has no element: a read waits for them, and says why when they do not come."""
    monkeypatch.setattr(pagescript, "RETRY_WAIT_S", 0.5)  # how long a read waits for them
    await ok(own, CTX, "browser.open", url=site.url("/to-held"))
    with site.holding() as arrived:
        clicked = await ok(own, CTX, "browser.click", text="Held body")
        assert clicked["url"] == site.url("/held-body")
        assert arrived.is_set()
        async with asyncio.timeout(10):  # until the new document has committed
            while (said := await act(own, CTX, "browser.snapshot"))["ok"]:
                assert said["data"]["url"] == site.url("/to-held"), said
        assert said["error"] == (
            "The page's new document has started to arrive but none of it is shown yet, so "
            "browser.snapshot did not run; try again in a moment."
        )
    monkeypatch.undo()
    snapshot = await ok(own, CTX, "browser.snapshot")
    assert (snapshot["title"], snapshot["text"]) == ("Held body", "held body")


async def test_an_open_whose_server_answers_too_late_may_have_run_and_loads_later(
    own: ChromiumProvider, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site was asked and may act on it: never "nothing ran"."""
    monkeypatch.setattr(own, "timeouts", replace(own.timeouts, open_commit_s=1.0))
    await ok(own, CTX, "browser.open", url=site.url("/page-a"))
    call = normalize("browser.open", {"url": site.url("/held")})
    request = ProviderRequest("late", call.name, call.parameters, CTX)
    with site.holding(), pytest.raises(PageWaitingError) as waiting:
        await own.answer(request)
    assert str(waiting.value).startswith(f"The page is waiting for {site.url('/held')} to answer")
    assert "browser.open may or may not have happened" in str(waiting.value)
    async with asyncio.timeout(10):
        while (snapshot := await ok(own, CTX, "browser.snapshot"))["title"] != "Held":
            assert snapshot["url"] in (site.url("/page-a"), site.url("/held")), snapshot
