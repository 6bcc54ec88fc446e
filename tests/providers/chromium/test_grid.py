"""The chromium provider on a real Selenium Grid 4: a standalone server the module starts on
loopback (:mod:`.grid_server`), two Chrome sessions at most, a short session timeout, a
queue that waits as long as a start of Chrome may take, and more slots listed than it runs.

After every test the Grid holds no session: whatever a test started, the provider ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from browserhost.contract import Context, ProviderRequest, normalize
from browserhost.providers.chromium import BrowserGoneError, ChromiumConfig, ChromiumProvider
from browserhost.providers.chromium.grid import (
    JSON_UTF8,
    GridUnreachableError,
    chromium_capabilities,
)
from browserhost.transports.base import LostError, NotSentError
from browserhost.transports.inprocess import InProcessTransport

from ...conftest import TOKEN, LiveServer, free_port, start_server
from .driving import TEST_TIMEOUTS, act, ok, refused
from .grid_server import SESSION_START_S, SLOTS, RunningGrid, running_grid, write_config
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")

STATUS_WAIT_S = 60.0
FULL_QUEUE_S = 5
"""The queue timeout of the Grid whose own refusal a test waits for."""

A = Context(directory="/work/app", session_id="grid-a")
B = Context(directory="/work/app", session_id="grid-b")
C = Context(directory="/work/app", session_id="grid-c")


@pytest.fixture(scope="module")
def grid(chromium_path: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningGrid]:
    """A Grid 4 standalone on loopback, started here and stopped at the module's end."""
    with running_grid(write_config(tmp_path_factory.mktemp("grid"), chromium_path)) as running:
        yield running


async def _grid_sessions(address: str) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(trust_env=False, timeout=5) as client:
        status = (await client.get(f"{address}/status")).json()["value"]
    return [
        slot["session"] for node in status["nodes"] for slot in node["slots"] if slot["session"]
    ]


async def _until_sessions(address: str, count: int) -> list[dict[str, Any]]:
    """The Grid's sessions once there are ``count`` (the Grid frees a slot a moment after it
    answers a delete)."""
    async with asyncio.timeout(STATUS_WAIT_S):
        # The Grid has no event to wait on: ask again.
        while len(sessions := await _grid_sessions(address)) != count:  # noqa: ASYNC110  # see above
            await asyncio.sleep(0.1)
    return sessions


async def _until_queued(address: str, count: int) -> None:
    """Until ``count`` new-session requests wait in the Grid's queue (its GraphQL view)."""
    query = {"query": "{ sessionsInfo { sessionQueueRequests } }"}
    async with asyncio.timeout(STATUS_WAIT_S), httpx.AsyncClient(trust_env=False) as client:
        while True:
            answer = (await client.post(f"{address}/graphql", json=query)).json()
            if len(answer["data"]["sessionsInfo"]["sessionQueueRequests"]) == count:
                return
            await asyncio.sleep(0.1)  # the Grid has no event to wait on: ask again


@pytest_asyncio.fixture(autouse=True, loop_scope="module")
async def nothing_left_behind(grid: RunningGrid) -> AsyncIterator[None]:
    yield
    await _until_sessions(grid.address, 0)


def _patient(provider: ChromiumProvider) -> ChromiumProvider:
    """``provider``, waiting for a new Grid session as long as the test Grids do: a start of
    Chrome on a loaded machine can take longer than the provider's own wait."""
    assert provider._grid is not None
    provider._grid.new_session_s = SESSION_START_S
    return provider


@pytest_asyncio.fixture(loop_scope="module")
async def provider(grid: RunningGrid) -> AsyncIterator[ChromiumProvider]:
    own = _patient(ChromiumProvider(ChromiumConfig(grid=grid.address), timeouts=TEST_TIMEOUTS))
    yield own
    await own.aclose()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_two_sessions_get_two_grid_sessions_and_keep_apart(
    provider: ChromiumProvider, grid: RunningGrid, site: Site
) -> None:
    await ok(provider, A, "browser.open", url=site.url("/button"))
    await ok(provider, B, "browser.open", url=site.url("/button"))
    sessions = await _grid_sessions(grid.address)
    assert len({session["sessionId"] for session in sessions}) == 2
    await ok(provider, A, "browser.click", selector="#toggle")
    assert (await ok(provider, A, "browser.snapshot"))["text"] == "Clicked!"
    assert (await ok(provider, B, "browser.snapshot"))["text"] == "Click me"


async def test_the_ten_actions_run_on_a_grid_browser(
    provider: ChromiumProvider, site: Site
) -> None:
    await ok(provider, A, "browser.open", url=site.url("/form"))
    await ok(provider, A, "browser.type", selector="#q", value="grid", submit=True)
    assert "You searched for: grid" in (await ok(provider, A, "browser.snapshot"))["text"]
    await ok(provider, A, "browser.back")
    assert (await ok(provider, A, "browser.forward"))["title"] == "Result"
    await ok(provider, A, "browser.open", url=site.url("/button"))
    assert (await ok(provider, A, "browser.inspect", selector="#toggle"))["label"] == "Click me"
    await ok(provider, A, "browser.click", text="Click me")
    await ok(provider, A, "browser.scroll", direction="down")
    assert (await ok(provider, A, "browser.resize", viewport="mobile"))["viewport"]["width"] < 600
    captured = await ok(provider, A, "browser.capture")
    assert captured["width"] < 600


async def test_closing_the_provider_ends_its_grid_sessions(grid: RunningGrid, site: Site) -> None:
    own = _patient(ChromiumProvider(ChromiumConfig(grid=grid.address), timeouts=TEST_TIMEOUTS))
    await ok(own, A, "browser.open", url=site.url("/page-a"))
    await ok(own, B, "browser.open", url=site.url("/page-b"))
    assert len(await _grid_sessions(grid.address)) == 2
    await own.aclose()
    assert await _until_sessions(grid.address, 0) == []


async def test_an_idle_session_ends_its_grid_session_and_the_next_action_says_so(
    grid: RunningGrid, site: Site
) -> None:
    clock = Clock()
    own = _patient(
        ChromiumProvider(
            ChromiumConfig(grid=grid.address, idle_s=60), timeouts=TEST_TIMEOUTS, clock=clock
        )
    )
    try:
        await ok(own, A, "browser.open", url=site.url("/page-a"))
        await ok(own, B, "browser.open", url=site.url("/page-b"))
        clock.now += 30
        await ok(own, B, "browser.snapshot")
        clock.now += 40
        assert await own.close_idle() == [A.key]
        [left] = await _until_sessions(grid.address, 1)
        opened = await ok(own, A, "browser.open", url=site.url("/page-a"))
        assert opened["notice"].startswith("This session went unused for 1 min")
        assert left in await _until_sessions(grid.address, 2)
    finally:
        await own.aclose()


def _held_open(site: Site) -> ProviderRequest:
    """An open of a page the site holds back until the test lets it go."""
    call = normalize("browser.open", {"url": site.url("/held")})
    return ProviderRequest("in-flight", call.name, call.parameters, A)


async def test_a_browser_killed_mid_action_is_request_failed_then_a_new_session(
    provider: ChromiumProvider, grid: RunningGrid, site: Site
) -> None:
    """The node's Chromium dies under an action: the host hears "lost" (REQUEST_FAILED),
    and the session's next action runs on a new Grid session."""
    transport = InProcessTransport(provider.answer)
    await ok(provider, A, "browser.open", url=site.url("/page-a"))
    [first] = await _grid_sessions(grid.address)
    pid = int(first["capabilities"]["goog:processID"])  # the node's Chromium, as it reports
    assert pid > 1
    request = _held_open(site)
    with site.holding() as arrived:
        in_flight = asyncio.create_task(transport.send(request, timeout_s=30))
        assert await asyncio.to_thread(arrived.wait, 10)
        os.kill(pid, signal.SIGKILL)
        async with asyncio.timeout(10):
            with pytest.raises(LostError, match="may or may not have happened"):
                await in_flight
    opened = await ok(provider, A, "browser.open", url=site.url("/page-b"))
    assert opened["notice"].startswith("This session's browser on the Selenium Grid went away")
    [now] = await _until_sessions(grid.address, 1)
    assert now["sessionId"] != first["sessionId"]


async def test_a_session_the_grid_deletes_mid_action_may_have_run(
    provider: ChromiumProvider, grid: RunningGrid, site: Site
) -> None:
    await ok(provider, A, "browser.open", url=site.url("/page-a"))
    [session] = await _grid_sessions(grid.address)
    request = _held_open(site)
    with site.holding() as arrived:
        in_flight = asyncio.create_task(provider.answer(request))
        assert await asyncio.to_thread(arrived.wait, 10)
        async with httpx.AsyncClient(trust_env=False, timeout=10) as client:
            await client.delete(f"{grid.address}/session/{session['sessionId']}")
        async with asyncio.timeout(10):
            with pytest.raises(BrowserGoneError):
                await in_flight
    assert (await ok(provider, A, "browser.snapshot"))["url"] == "about:blank"


async def _delete_the_session(address: str) -> str:
    """End the one session the Grid holds, as the Grid ends one it timed out; its id."""
    [session] = await _grid_sessions(address)
    async with httpx.AsyncClient(trust_env=False, timeout=10) as client:
        answer = await client.delete(f"{address}/session/{session['sessionId']}")
    assert answer.status_code == 200
    await _until_sessions(address, 0)
    return str(session["sessionId"])


async def test_a_session_the_grid_deleted_between_actions_refuses_a_click_then_opens_anew(
    provider: ChromiumProvider, grid: RunningGrid, site: Site
) -> None:
    """Deleted while idle: the next click is refused before it runs (never sent to a browser
    that is gone, to hang or to answer "may have run"), and an open gets a new session."""
    await ok(provider, A, "browser.open", url=site.url("/button"))
    deleted = await _delete_the_session(grid.address)
    async with asyncio.timeout(10):
        said = await refused(provider, A, "browser.click", selector="#toggle")
    assert said.startswith("This session's browser on the Selenium Grid went away")
    assert "browser.click was not run" in said
    async with asyncio.timeout(20):
        opened = await ok(provider, A, "browser.open", url=site.url("/button"))
    assert "notice" not in opened
    assert (await ok(provider, A, "browser.click", selector="#toggle"))["label"] == "Click me"
    [now] = await _grid_sessions(grid.address)
    assert now["sessionId"] != deleted


async def test_a_session_the_grid_deleted_between_actions_snapshots_anew_and_says_so(
    provider: ChromiumProvider, grid: RunningGrid, site: Site
) -> None:
    await ok(provider, A, "browser.open", url=site.url("/page-a"))
    deleted = await _delete_the_session(grid.address)
    async with asyncio.timeout(20):
        shot = await ok(provider, A, "browser.snapshot")
    assert shot["notice"].startswith("This session's browser on the Selenium Grid went away")
    assert "its pages, cookies and logins are gone and the page is blank" in shot["notice"]
    assert shot["url"] == "about:blank"
    [now] = await _grid_sessions(grid.address)
    assert now["sessionId"] != deleted


async def _take_every_slot(address: str, chromium_path: str, slots: int) -> list[str]:
    """Take the Grid's ``slots`` sessions directly, as another of its clients would; their
    ids. A request the Grid gave up on while its Chrome still started is asked again."""
    wanted = chromium_capabilities(ChromiumConfig(executable=chromium_path))
    async with (
        asyncio.timeout(SESSION_START_S),
        httpx.AsyncClient(base_url=address, trust_env=False, timeout=SESSION_START_S) as client,
    ):
        while len(taken := await _grid_sessions(address)) < slots:
            await client.post("/session", json=wanted, headers=JSON_UTF8)
    return [str(session["sessionId"]) for session in taken]


async def test_a_full_grid_refuses_as_busy_and_nothing_ran(
    chromium_path: str, tmp_path: Path, site: Site
) -> None:
    """The Grid's own queue timeout answers before browserhost stops waiting. On a Grid of
    its own: the module's Grid waits long enough for any start of Chrome."""
    config = write_config(tmp_path, chromium_path, slots=1, queue_timeout_s=FULL_QUEUE_S)
    with contextlib.ExitStack() as stack:
        small = await asyncio.to_thread(stack.enter_context, running_grid(config))
        taken = await _take_every_slot(small.address, chromium_path, 1)
        own = _patient(ChromiumProvider(ChromiumConfig(grid=small.address), timeouts=TEST_TIMEOUTS))
        reached = site.arrived["/page-a"]
        try:
            said = await refused(own, C, "browser.open", url=site.url("/page-a"))
        finally:
            await own.aclose()
        assert said == (
            "The Selenium Grid is busy: it had no free browser and is not waiting for one any "
            "longer. Nothing ran; try again in a moment (the user can add nodes or slots to the "
            "Grid)."
        )
        assert site.arrived["/page-a"] == reached
        assert [session["sessionId"] for session in await _grid_sessions(small.address)] == taken
        await asyncio.to_thread(stack.close)


async def test_a_full_grid_refuses_as_busy_when_browserhost_stops_waiting_first(
    provider: ChromiumProvider, site: Site
) -> None:
    """The Grid would queue the request longer than browserhost waits: the refusal names
    browserhost's wait, and the session the Grid grants later is ended."""
    await ok(provider, A, "browser.open", url=site.url("/page-a"))
    await ok(provider, B, "browser.open", url=site.url("/page-b"))
    assert provider._grid is not None
    provider._grid.new_session_s = 1.0
    said = await refused(provider, C, "browser.open", url=site.url("/page-a"))
    assert said == (
        "The Selenium Grid is busy: it had no free browser within 1 s, when browserhost "
        "stopped waiting. Nothing ran; try again in a moment (the user can add nodes or slots "
        "to the Grid)."
    )


async def test_a_session_waiting_in_the_grids_queue_holds_up_no_other_session(
    provider: ChromiumProvider, grid: RunningGrid, site: Site
) -> None:
    """While C waits for a browser the full Grid has not got, A and B act as usual; C gets
    the first slot that is freed."""
    await ok(provider, A, "browser.open", url=site.url("/page-a"))
    [of_a] = await _grid_sessions(grid.address)
    await ok(provider, B, "browser.open", url=site.url("/page-b"))
    [of_b] = [s for s in await _grid_sessions(grid.address) if s["sessionId"] != of_a["sessionId"]]
    waiting = asyncio.ensure_future(ok(provider, C, "browser.open", url=site.url("/page-a")))
    await _until_queued(grid.address, 1)
    shot = await ok(provider, A, "browser.snapshot")
    assert shot["title"] == "Page A"
    assert not waiting.done()  # A answered while C still waited
    async with httpx.AsyncClient(trust_env=False, timeout=10) as client:
        await client.delete(f"{grid.address}/session/{of_b['sessionId']}")
    assert (await waiting)["title"] == "Page A"


async def test_an_unreachable_grid_is_provider_unavailable(site: Site) -> None:
    nowhere = ChromiumProvider(ChromiumConfig(grid=f"http://127.0.0.1:{free_port()}"))
    try:
        with pytest.raises(GridUnreachableError):
            await act(nowhere, A, "browser.open", url=site.url("/page-a"))
        transport = InProcessTransport(nowhere.answer)
        call = normalize("browser.snapshot", {})
        with pytest.raises(NotSentError, match="does not answer"):
            await transport.send(ProviderRequest("x", call.name, call.parameters, A), 20)
    finally:
        await nowhere.aclose()


async def test_capacity_counts_the_chrome_sessions_the_grid_would_start(
    provider: ChromiumProvider, site: Site
) -> None:
    """The node lists Firefox slots and more Chrome slots than it runs: neither counts as
    free, so a full Grid says 0 free, as its refusal of a third session does."""
    grid = provider._grid
    assert grid is not None
    before = await grid.capacity()
    assert (before.free, before.busy, before.ready) == (SLOTS, 0, True)
    await ok(provider, A, "browser.open", url=site.url("/page-a"))
    one = await grid.capacity()
    assert (one.free, one.busy) == (SLOTS - 1, 1)
    await ok(provider, B, "browser.open", url=site.url("/page-b"))
    full = await grid.capacity()
    assert (full.free, full.busy) == (0, SLOTS)
    grid.new_session_s = 1.0  # the Grid's own refusal is another test's
    said = await refused(provider, C, "browser.open", url=site.url("/page-a"))
    assert said.startswith("The Selenium Grid is busy")


def _browserhost(server: LiveServer, project: Path, *args: str) -> str:
    """What ``browserhost ARGS`` prints, run against ``server``; it must succeed."""
    done = subprocess.run(
        [sys.executable, "-m", "browserhost", *args],
        cwd=project,
        env={**os.environ, "BROWSERHOST_URL": server.url, "BROWSERHOST_TOKEN": TOKEN},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done
    return done.stdout


async def _serving(grid_address: str, data_dir: Path) -> LiveServer:
    return await asyncio.to_thread(
        start_server,
        data_dir,
        providers="chromium",
        extra_args=("--select", "chromium"),
        env={"BROWSERHOST_CHROMIUM_GRID": grid_address},
    )


async def test_browserhost_providers_shows_the_grids_free_and_busy_slots(
    grid: RunningGrid, site: Site, tmp_path: Path
) -> None:
    """Through a real ``browserhost serve`` and the command line: a session's browser takes
    a slot, and the listing says so."""
    server = await _serving(grid.address, tmp_path / "data")
    try:
        listed = await asyncio.to_thread(_browserhost, server, tmp_path, "providers")
        assert listed.splitlines()[:2] == [
            "* chromium  Chromium (selected)",
            f"    Selenium Grid: {SLOTS} free, 0 busy",
        ]
        await asyncio.to_thread(
            _browserhost, server, tmp_path, "open", site.url("/page-a"), "--session", "one"
        )
        listed = await asyncio.to_thread(_browserhost, server, tmp_path, "providers")
        assert f"    Selenium Grid: {SLOTS - 1} free, 1 busy" in listed.splitlines()
        await asyncio.to_thread(
            _browserhost, server, tmp_path, "open", site.url("/page-b"), "--session", "two"
        )
        with server.client() as http:
            answer = (await asyncio.to_thread(http.get, "/api/browser-providers")).json()
        [row] = answer["providers"]
        assert row["capacity"] == {"source": "Selenium Grid", "free": 0, "busy": SLOTS}
    finally:
        await asyncio.to_thread(server.stop)


async def test_browserhost_providers_says_when_the_grid_does_not_answer(
    tmp_path: Path,
) -> None:
    """The listing is not failed by a Grid that is down: the provider is listed, and the
    line under it says what to check."""
    server = await _serving(f"http://127.0.0.1:{free_port()}", tmp_path / "data")
    try:
        listed = await asyncio.to_thread(_browserhost, server, tmp_path, "providers")
        assert listed.splitlines()[:2] == [
            "* chromium  Chromium (selected)",
            "    Selenium Grid: does not answer within 2 s; check that it is running and "
            "reachable from this machine (BROWSERHOST_CHROMIUM_GRID)",
        ]
        answer = json.loads(
            await asyncio.to_thread(_browserhost, server, tmp_path, "providers", "--json")
        )
        [row] = answer["providers"]
        assert set(row["capacity"]) == {"source", "problem"}
        assert "127.0.0.1" not in json.dumps(answer)  # no endpoint in an answer
    finally:
        await asyncio.to_thread(server.stop)


async def test_the_grid_setting_is_read_from_the_environment() -> None:
    config = ChromiumConfig.from_env({"BROWSERHOST_CHROMIUM_GRID": " http://grid:4444 "})
    assert config.grid == "http://grid:4444"
    assert ChromiumConfig.from_env({}).grid is None
