"""Each session's own browser on a Selenium Grid 4.

With a Grid address set (``BROWSERHOST_CHROMIUM_GRID``), nothing is launched on this machine:
the first action of a context key asks the Grid for a session of its own (W3C
``POST /session`` with Chromium options from :class:`~.launch.ChromiumConfig`), and Playwright
drives that browser over the DevTools socket the Grid proxies for it (the session's ``se:cdp``
capability, through ``connect_over_cdp``). The session ends (``DELETE /session/{id}``) when the
key's tab closes: idle, to make room, or with the provider.

Playwright's own Grid support (``SELENIUM_REMOTE_URL`` with ``chromium.launch``) was measured
too (``benches/bench_grid.py``) and not chosen: on a loopback Grid it clicks and starts a
session as fast as ``se:cdp`` does, within the run's noise, but it is one setting for the whole
Playwright process (read when its driver starts, not per provider), and it hides the session
id, so nothing here could end a session or tell one the Grid ended.

What the Grid says becomes what the agent reads::

    the Grid does not answer (refused, DNS, timeout)   GridUnreachableError
                                                        → PROVIDER_UNAVAILABLE, nothing ran
    the new-session request timed out in its queue,     ActionError "the Grid is busy"
    or waited longer than :data:`NEW_SESSION_S`          → refused, nothing ran
    any other session that was not created              ActionError, nothing ran
    the browser stops answering while an action runs    BrowserGoneError (:mod:`.errors`)
    (a node that died, a session the Grid deleted)      → REQUEST_FAILED; the next action
                                                          gets a new session and is told so

The Grid keeps its side of the DevTools socket open when the browser behind it dies, so
Playwright alone would wait out every call on a dead browser. :meth:`Grid.guard` asks the
browser process itself (``Browser.getVersion``, which a busy page does not hold up) before each
action, so that a session the Grid ended while the key was idle is replaced before anything is
sent to it, and every :data:`WATCH_S` while the action runs, ending it when the browser no
longer answers.

The providers listing shows the Grid's free and busy slots (:meth:`Grid.listed`, from its
``/status`` within :data:`STATUS_S`); a Grid that does not answer is said there, not raised.
Only slots this provider could be given count: those of :data:`BROWSER_NAME` on a node that is
up, and no more free ones on a node than its ``maxSessions`` leaves (a node lists a slot for
every browser it knows, Firefox and Edge included, often more than it runs at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import httpx

from browserhost.contract.errors import ProviderUnavailableError
from browserhost.sdk import ActionError

from . import driver, features
from .driver import Driver
from .errors import BrowserGoneError
from .launch import ENV_GRID, LAUNCH_FLAGS, ChromiumConfig

if TYPE_CHECKING:
    from playwright.async_api import Browser, CDPSession

T = TypeVar("T")

logger = logging.getLogger(__name__)

NEW_SESSION_S = 12.0
"""How long a new session may wait in the Grid's queue before the action is refused as busy:
inside the host's 20 s deadline for an action, with room to open the page after."""
CONNECT_S = 10.0
"""For the Grid to answer at all, and for its DevTools socket to open."""
DELETE_S = 10.0
CLOSE_S = 5.0
"""For a browser to close its context or disconnect; a dead one never does."""
WATCH_S = 1.0
"""How often a running action's browser is asked whether it is still there."""
PING_S = 3.0
"""How long the browser process has to answer that; it answers in milliseconds, busy page or
not."""
LATE_SESSION_S = 60.0
"""How long a new-session request given up on is still waited for, to end the session it
makes after all (the Grid's queue does not forget a request when its caller leaves)."""
STATUS_S = 2.0
"""For the Grid's ``/status`` when a listing counts its slots: a listing never waits long."""
JSON_UTF8 = {"Content-Type": "application/json; charset=utf-8"}
"""Grid 4 refuses a body whose type does not say utf-8."""

BROWSER_NAME = "chrome"
"""The ``browserName`` a new session asks for: chromedriver's, for Chrome and Chromium alike."""

BUSY = (
    "The Selenium Grid is busy: it had no free browser{when}. Nothing ran; try again in a "
    "moment (the user can add nodes or slots to the Grid)."
)
GRID_GAVE_UP = " and is not waiting for one any longer"
"""The Grid's own queue timeout answered first: how long it waited is the Grid's setting."""
WE_GAVE_UP = " within {seconds:g} s, when browserhost stopped waiting"
UNREACHABLE = (
    f"the Selenium Grid set by {ENV_GRID} does not answer; check that it is running and "
    "reachable from this machine"
)
"""Read after "Chromium is not reachable (…)" (the host's words for PROVIDER_UNAVAILABLE)."""
GRID = "Selenium Grid"
"""Where the browsers run, as the providers listing names it."""
LISTED_UNREACHABLE = (
    f"does not answer within {STATUS_S:g} s; check that it is running and reachable from "
    f"this machine ({ENV_GRID})"
)
NO_NODE = (
    "no node with a Chrome slot is up: an action waits in the Grid's queue, then is refused as busy"
)


class GridUnreachableError(ProviderUnavailableError):
    """The Grid did not answer: nothing was sent to any browser (``PROVIDER_UNAVAILABLE``)."""


@dataclass(frozen=True)
class Capacity:
    """The Grid's Chrome slots on nodes that are up, as its ``/status`` reports them."""

    free: int
    """Slots a new session could take now: free ones, no more than their node has room for."""
    busy: int
    """Slots with a session."""
    slots: int
    """All of them, free or not: none means no node that is up can start Chrome."""
    ready: bool
    """What the Grid says of itself: it can take new sessions."""


def chromium_capabilities(config: ChromiumConfig) -> dict[str, Any]:
    """The W3C capabilities of a new session: Chromium with the provider's own flags."""
    args = list(LAUNCH_FLAGS)
    if config.headless:
        # chromedriver passes no --disable-features of its own, so this one is the only one.
        args += ["--headless=new", features.switched_off(features.UNSHOWN)]
    # A Grid node runs the browser in a container or as a service user where Chromium's
    # sandbox cannot start; the node is the isolation (docker-selenium's images do the same).
    args.append("--no-sandbox")
    wanted = {"browserName": BROWSER_NAME, "goog:chromeOptions": {"args": args}}
    return {"capabilities": {"alwaysMatch": wanted}}


class Grid:
    """The Grid sessions of one provider: one browser per context key, each its own session.

    ``address`` is the Grid's (router's or standalone's) base URL, ``http://host:4444``.
    ``shared`` is a driver shared with others, stopped by whoever made it; without one, the Grid
    has its own and stops it as it closes.
    """

    def __init__(self, address: str, config: ChromiumConfig, shared: Driver | None = None) -> None:
        self._address = address.rstrip("/")
        self._config = config
        self._http = httpx.AsyncClient(
            base_url=self._address, timeout=httpx.Timeout(CONNECT_S), trust_env=False
        )
        self._driver = Driver() if shared is None else shared
        self._own_driver = shared is None
        self._sessions: dict[Browser, str] = {}
        self._pings: dict[Browser, CDPSession] = {}
        self._dead: set[Browser] = set()
        self._late: set[asyncio.Task[None]] = set()
        self.new_session_s = NEW_SESSION_S

    @property
    def sessions(self) -> int:
        """The Grid sessions this provider holds now."""
        return len(self._sessions)

    async def browser(self) -> Browser:
        """A new Grid session's browser, connected; the session is ended if the connection
        cannot be made."""
        playwright = await self._driver.start()
        logger.info("Asking the Selenium Grid for a browser…")
        started = time.monotonic()
        session, cdp = await self._new_session()
        try:
            browser = await playwright.chromium.connect_over_cdp(cdp, timeout=CONNECT_S * 1000)
        except driver.PlaywrightError as exc:
            await self._delete(session)
            raise ActionError(
                "The Selenium Grid started a browser but its DevTools connection could not be "
                "opened; check that the Grid proxies WebSockets (se:cdp). Nothing ran."
            ) from exc
        self._sessions[browser] = session
        logger.info("Grid session started in %.1f s", time.monotonic() - started)
        return browser

    def usable(self, browser: Browser) -> bool:
        """Whether ``browser`` is connected and has not stopped answering."""
        return browser.is_connected() and browser not in self._dead

    async def alive(self, browser: Browser) -> bool:
        """Ask the browser process whether it is there; one that does not answer is dead."""
        try:
            async with asyncio.timeout(PING_S):
                ping = self._pings.get(browser)
                if ping is None:
                    ping = self._pings[browser] = await browser.new_browser_cdp_session()
                await ping.send("Browser.getVersion")
        except (TimeoutError, driver.PlaywrightError):
            self._dead.add(browser)
            return False
        return True

    async def guard(
        self, work: Awaitable[T], browser: Callable[[], Browser | None], action: str
    ) -> T:
        """``work``'s result, or :class:`~.errors.BrowserGoneError` as soon as the browser it
        runs on (``browser()``, once it has one) stops answering.

        The browser is asked first, before ``work`` starts: the Grid may have ended the
        session, or its node stopped, while the key was idle, and the Grid keeps the socket
        open all the same. One that does not answer is marked dead, so ``work`` starts on a
        new session (and is told so) instead of being sent to it."""
        before = browser()
        if before is not None and before.is_connected() and before not in self._dead:
            await self.alive(before)
        task = asyncio.ensure_future(work)
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=WATCH_S)
                if done:
                    return task.result()
                current = browser()
                if current is not None and not await self.alive(current):
                    raise BrowserGoneError(
                        f"The browser's Selenium Grid session ended while {action} ran (its "
                        "node stopped, or the Grid ended the session), so it may or may not "
                        "have happened. The next action gets a new browser; take a new "
                        "snapshot to see where things stand."
                    )
        finally:
            if not task.done():
                task.cancel()
                await asyncio.wait({task})
            if not task.cancelled():
                task.exception()  # retrieved: what a dead browser raised is said above

    async def end(self, browser: Browser) -> None:
        """Disconnect from ``browser`` and end its Grid session."""
        session = self._sessions.pop(browser, None)
        self._pings.pop(browser, None)
        self._dead.discard(browser)
        # A session the Grid ended is gone already; a dead browser never answers.
        with contextlib.suppress(driver.PlaywrightError, TimeoutError):
            async with asyncio.timeout(CLOSE_S):
                await browser.close()
        if session is not None:
            await self._delete(session)

    async def capacity(self) -> Capacity:
        """Free and busy Chrome slots over the Grid's nodes that are up, asked with a short
        timeout (:data:`STATUS_S`)."""
        try:
            async with asyncio.timeout(STATUS_S):
                answer = await self._http.get("/status", timeout=STATUS_S)
            status = answer.json()["value"]
        except (httpx.HTTPError, TimeoutError) as exc:
            raise GridUnreachableError(UNREACHABLE) from exc
        except (ValueError, KeyError, TypeError) as exc:
            raise ActionError(f"{ENV_GRID} does not point at a Selenium Grid 4.") from exc
        free = busy = slots = 0
        for node in status.get("nodes", []):
            if node.get("availability") == "UP":
                node_free, node_busy, node_slots = _node_slots(node)
                free += node_free
                busy += node_busy
                slots += node_slots
        return Capacity(free=free, busy=busy, slots=slots, ready=bool(status.get("ready")))

    async def listed(self) -> dict[str, object]:
        """The Grid's slots as the providers listing shows them next to the provider; a Grid
        that does not answer is said so there, never raised."""
        try:
            capacity = await self.capacity()
        except GridUnreachableError:
            return {"source": GRID, "problem": LISTED_UNREACHABLE}
        except ActionError as exc:
            return {"source": GRID, "problem": str(exc)}
        row: dict[str, object] = {"source": GRID, "free": capacity.free, "busy": capacity.busy}
        if capacity.slots == 0:
            row["problem"] = NO_NODE
        return row

    async def aclose(self) -> None:
        """End every session this provider holds, and any a late answer brings."""
        for browser in list(self._sessions):
            await self.end(browser)
        if self._late:
            await asyncio.wait(self._late, timeout=DELETE_S)
        for late in self._late:
            late.cancel()
        await self._http.aclose()
        if self._own_driver:
            await self._driver.stop()

    async def _new_session(self) -> tuple[str, str]:
        """``(session id, se:cdp URL)`` of a new session, or the refusal to raise."""
        posting = asyncio.ensure_future(
            self._http.post(
                "/session",
                json=chromium_capabilities(self._config),
                headers=JSON_UTF8,
                timeout=httpx.Timeout(CONNECT_S, read=LATE_SESSION_S),
            )
        )
        try:
            async with asyncio.timeout(self.new_session_s):
                answer = await asyncio.shield(posting)
        except TimeoutError:
            self._end_when_answered(posting)
            waited = WE_GAVE_UP.format(seconds=self.new_session_s)
            raise ActionError(BUSY.format(when=waited)) from None
        except httpx.HTTPError as exc:
            raise GridUnreachableError(UNREACHABLE) from exc
        value = _value(answer)
        if answer.status_code == 200 and "sessionId" in value:
            session = str(value["sessionId"])
            cdp = value.get("capabilities", {}).get("se:cdp")
            if not isinstance(cdp, str):
                await self._delete(session)
                raise ActionError(
                    "The Selenium Grid gave a browser without a DevTools connection (se:cdp); "
                    "it needs Grid 4 with Chrome or Chromium nodes. Nothing ran."
                )
            return session, self._rebased(cdp)
        message = str(value.get("message", "")).strip().splitlines()
        first = message[0] if message else f"HTTP {answer.status_code}"
        if "timed out" in first.lower() or "queue" in first.lower():
            raise ActionError(BUSY.format(when=GRID_GAVE_UP))
        raise ActionError(f"The Selenium Grid did not start a browser ({first}). Nothing ran.")

    def _rebased(self, cdp: str) -> str:
        """``se:cdp`` on the address this provider reaches the Grid at: a Grid behind a proxy
        or a Kubernetes service advertises its own inside address, which may not resolve
        here."""
        ours, theirs = urlsplit(self._address), urlsplit(cdp)
        scheme = "wss" if ours.scheme == "https" else "ws"
        return urlunsplit((scheme, ours.netloc, theirs.path, theirs.query, ""))

    def _end_when_answered(self, posting: asyncio.Future[httpx.Response]) -> None:
        async def end_late() -> None:
            with contextlib.suppress(httpx.HTTPError):
                value = _value(await posting)
                if "sessionId" in value:
                    await self._delete(str(value["sessionId"]))

        late = asyncio.get_running_loop().create_task(end_late())
        self._late.add(late)
        late.add_done_callback(self._late.discard)

    async def _delete(self, session: str) -> None:
        try:
            await self._http.delete(f"/session/{session}", timeout=DELETE_S)
        except httpx.HTTPError:
            # The Grid ends an unused session itself after its session timeout.
            logger.warning("Could not end a Selenium Grid session; the Grid will time it out.")


def _node_slots(node: dict[str, Any]) -> tuple[int, int, int]:
    """``(free, busy, all)`` Chrome slots of one node of ``/status``.

    A node lists a slot for each browser it could start, up to ``maxSessions`` of each, but
    runs no more than ``maxSessions`` sessions in all: the free slots it lists beyond that
    would be refused as busy."""
    slots = node.get("slots", [])
    running = sum(1 for slot in slots if slot.get("session"))
    ours = [slot for slot in slots if _is_ours(slot.get("stereotype"))]
    busy = sum(1 for slot in ours if slot.get("session"))
    free = len(ours) - busy
    limit = node.get("maxSessions")
    if isinstance(limit, int):
        free = min(free, max(limit - running, 0))
    return free, busy, len(ours)


def _is_ours(stereotype: object) -> bool:
    if not isinstance(stereotype, dict):
        return False
    name = stereotype.get("browserName")
    return isinstance(name, str) and name.lower() == BROWSER_NAME


def _value(answer: httpx.Response) -> dict[str, Any]:
    try:
        value = answer.json().get("value")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
