"""Finding, launching or connecting to the Chromium behind the provider.

The browser starts lazily, on the first action, and again on the first action after it
crashed or disconnected. Where it comes from, in order:

1. ``endpoint`` (``BROWSERHOST_CHROMIUM_ENDPOINT``): a browser someone else runs. A
   ``ws://`` URL is a Playwright browser server (``chromium.connect``); an ``http://host:port``
   URL, or a ``ws://…/devtools/browser/…`` one, is a Chrome DevTools endpoint
   (``chromium.connect_over_cdp``).
2. ``executable`` (``BROWSERHOST_CHROMIUM``): this Chromium or Chrome.
3. ``chromium``, ``chromium-browser`` or ``google-chrome`` on ``PATH``.
4. The Chromium that ``playwright install chromium`` downloaded.

An instance launched with a profile (:mod:`.instances`) runs Chromium on that profile's user
data with ``launch_persistent_context``: one context, kept on disk, that its sessions share.

Playwright itself is imported on first launch (:mod:`.driver`), so the provider package
imports without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from browserhost.config import OWN_ADDRESS_ENV
from browserhost.contract.data import ViewportMode
from browserhost.sdk import ActionError

from . import driver, features, own_address
from .addresses import ENV_PRIVATE_NETWORK, AddressPolicy, own_host, own_port
from .driver import Driver
from .errors import connect_failed, launch_failed

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Playwright

logger = logging.getLogger(__name__)

DialogMode = Literal["dismiss", "accept", "ask"]

ENV_EXECUTABLE = "BROWSERHOST_CHROMIUM"
ENV_ENDPOINT = "BROWSERHOST_CHROMIUM_ENDPOINT"
ENV_GRID = "BROWSERHOST_CHROMIUM_GRID"
ENV_EVALUATE = "BROWSERHOST_CHROMIUM_EVALUATE"
ENV_DIALOGS = "BROWSERHOST_CHROMIUM_DIALOGS"
ENV_IDLE = "BROWSERHOST_CHROMIUM_IDLE_S"
ENV_MAX_CONTEXTS = "BROWSERHOST_CHROMIUM_MAX_CONTEXTS"

IDLE_S = 15 * 60.0
MAX_CONTEXTS = 20
"""Each adds about 30 MB to Chromium's memory (31.5 MiB in bench_memory), a page and its context."""
DIALOG_MODES: tuple[DialogMode, ...] = ("dismiss", "accept", "ask")
PATH_NAMES = ("chromium", "chromium-browser", "google-chrome")

LAUNCH_FLAGS = (
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # A page whose load failed stays as it failed: Chromium would load it again by itself (a
    # second later, then after longer waits), changing the page with no action asked for.
    "--disable-auto-reload",
    # Headless windows default to 780x580; "fill" follows the window, so give it desktop size.
    "--window-size=1280,800",
)
LAUNCH_TIMEOUT_S = 20.0
CONNECT_TIMEOUT_S = 15.0

INSTALL_CHROMIUM = (
    "No Chromium found. Install one with `apt-get install chromium` or "
    f"`playwright install chromium`, or set {ENV_EXECUTABLE} to its path."
)


@dataclass(frozen=True)
class ChromiumConfig:
    """Where the browser comes from; see the module docstring for the order."""

    executable: str | None = None
    endpoint: str | None = None
    grid: str | None = None
    """A Selenium Grid 4 address: each session gets a browser of its own there (:mod:`.grid`),
    and nothing is launched or connected to here."""
    headless: bool = True
    allow_evaluate: bool = False
    """Offer the ``evaluate`` verb (page JavaScript); the user's choice, never the agent's."""
    dialogs: DialogMode = "dismiss"
    """What happens to a dialog the agent did not plan for with the ``dialog`` verb: Cancel
    (``dismiss``), OK (``accept``), or left open for the agent to read and answer (``ask``)."""
    idle_s: float = IDLE_S
    """A session (context key) unused this long has its browser context closed."""
    max_contexts: int = MAX_CONTEXTS
    """Browser contexts open at once; a new session closes the least recently used idle one."""
    private_network: bool = True
    """Whether pages on loopback and private-network addresses may be shown."""
    own_port: int | None = None
    """Where browserhost itself listens, never shown (see :mod:`.addresses`)."""
    own_host: str | None = None
    """The address it listens on there."""
    profile_dir: str | None = None
    """A persistent profile's user data; ``None``: a throwaway profile per launch."""
    viewport: ViewportMode = "desktop"
    """The viewport a new session's page starts with."""
    proxy: Mapping[str, str] | None = None
    """Playwright's ``proxy`` (server, bypass, username, password) for the whole browser."""
    context_options: Mapping[str, Any] = field(default_factory=dict)
    """Playwright context options every session gets: locale, timezone_id, user_agent."""
    storage_state: Mapping[str, Any] | None = None
    """Cookies and local storage to start each session with (a profile takes the cookies,
    once, on its first start)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ChromiumConfig:
        source = os.environ if environ is None else environ
        return cls(
            executable=source.get(ENV_EXECUTABLE, "").strip() or None,
            endpoint=source.get(ENV_ENDPOINT, "").strip() or None,
            grid=source.get(ENV_GRID, "").strip() or None,
            allow_evaluate=source.get(ENV_EVALUATE, "").strip() in ("1", "true", "yes"),
            dialogs=_dialog_mode(source.get(ENV_DIALOGS, "")),
            idle_s=_number(source, ENV_IDLE, IDLE_S, minimum=1.0),
            max_contexts=int(_number(source, ENV_MAX_CONTEXTS, MAX_CONTEXTS, minimum=1)),
            private_network=source.get(ENV_PRIVATE_NETWORK, "").strip().lower() != "deny",
            own_port=own_port(source.get(OWN_ADDRESS_ENV, "")),
            own_host=own_host(source.get(OWN_ADDRESS_ENV, "")),
        )


def _number(source: Mapping[str, str], name: str, default: float, *, minimum: float) -> float:
    text = source.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = minimum - 1
    if value < minimum:
        logger.warning(
            "%s=%s is not a number of at least %g; using %g.", name, text, minimum, default
        )
        return default
    return value


def _dialog_mode(value: str) -> DialogMode:
    wanted = value.strip().lower() or "dismiss"
    for mode in DIALOG_MODES:
        if mode == wanted:
            return mode
    logger.warning(
        "%s=%s is not one of %s; dialogs are dismissed.", ENV_DIALOGS, value, "|".join(DIALOG_MODES)
    )
    return "dismiss"


def find_chromium(configured: str | None, downloaded: str | None = None) -> str:
    """The executable to launch, or :class:`ActionError` saying how to get one.

    ``downloaded`` is Playwright's own Chromium, used only when it exists on disk.
    """
    if configured is not None:
        if os.path.isfile(configured) and os.access(configured, os.X_OK):
            return configured
        raise ActionError(
            f"{ENV_EXECUTABLE} is set to {configured}, which is not an executable file; "
            "point it at a Chromium or Chrome binary, or unset it."
        )
    for name in PATH_NAMES:
        found = shutil.which(name)
        if found is not None:
            return found
    if downloaded is not None and os.path.isfile(downloaded):
        return downloaded
    raise ActionError(INSTALL_CHROMIUM)


def devtools_socket(endpoint: str) -> bool:
    """A ``ws://…/devtools/browser/…`` URL is Chrome's own DevTools socket, not a Playwright
    browser server; it is reached with ``connect_over_cdp`` like an http endpoint."""
    return urlsplit(endpoint).path.startswith("/devtools/browser/")


def sandboxed() -> bool:
    """Chromium's sandbox cannot run as root: ``--no-sandbox`` then, and only then."""
    return os.geteuid() != 0


class Launcher:
    """Owns the one browser; :meth:`browser` (re)starts it, and Playwright's driver, on demand.

    ``shared`` is a driver shared with others, stopped by whoever made it; without one, the
    launcher has its own and stops it as it closes."""

    def __init__(self, config: ChromiumConfig, shared: Driver | None = None) -> None:
        self._config = config
        self._lock = asyncio.Lock()
        self._driver = Driver() if shared is None else shared
        self._own_driver = shared is None
        self._browser: Browser | None = None
        self.profile: BrowserContext | None = None
        """The persistent profile's one context, while its browser runs."""
        self._retired = False
        self._failed = False
        self._state_pending = config.storage_state is not None
        self._own = AddressPolicy(own_port=config.own_port, own_host=config.own_host)

    @property
    def retired(self) -> bool:
        return self._retired

    def status(self) -> str:
        """``running``, ``starting``, ``failed`` (the last start did not work) or ``stopped``."""
        if self._browser is not None and self._browser.is_connected():
            return "running"
        if self._lock.locked() and not self._retired:
            return "starting"
        return "failed" if self._failed else "stopped"

    async def retire(self) -> None:
        """Close the browser for good: an action still on its way does not relaunch it."""
        self._retired = True
        await self.aclose()

    async def browser(self) -> Browser:
        """The connected browser, launched or reconnected when there is none."""
        async with self._lock:
            if self._retired:
                raise ActionError("This browser instance was closed; nothing ran.")
            if self._browser is not None and self._browser.is_connected():
                return self._browser
            self._browser = None
            self.profile = None
            # Seconds pass before the first answer: say so (serve and mcp log it on stderr).
            remote = self._config.endpoint is not None
            logger.info("Connecting to the remote browser…" if remote else "Starting Chromium…")
            started = time.monotonic()
            playwright = await self._driver.start()
            try:
                self._browser = await self._open(playwright)
            except BaseException:
                self._failed = True
                raise
            self._failed = False
            done = "Connected" if remote else "Chromium started"
            logger.info("%s in %.1f s", done, time.monotonic() - started)
            return self._browser

    async def aclose(self) -> None:
        async with self._lock:
            browser, self._browser = self._browser, None
            profile, self.profile = self.profile, None
            if browser is not None and browser.is_connected():
                # Already gone is as good as closed.
                with contextlib.suppress(driver.PlaywrightError):
                    # A profile's context writes its cookies to disk as it closes.
                    await (profile or browser).close()
            if self._own_driver:
                await self._driver.stop()

    async def _open(self, playwright: Playwright) -> Browser:
        endpoint = self._config.endpoint
        if endpoint is not None:
            scheme = urlsplit(endpoint).scheme
            if scheme not in ("ws", "wss", "http", "https"):
                raise ActionError(
                    f"{ENV_ENDPOINT} must be a ws:// Playwright browser-server URL or an "
                    "http://host:port DevTools URL."
                )
            try:
                if scheme in ("ws", "wss") and not devtools_socket(endpoint):
                    connected = await playwright.chromium.connect(
                        endpoint, timeout=CONNECT_TIMEOUT_S * 1000
                    )
                else:
                    connected = await playwright.chromium.connect_over_cdp(
                        endpoint, timeout=CONNECT_TIMEOUT_S * 1000
                    )
                await own_address.guard(connected, self._own)
                return connected
            except driver.PlaywrightError as exc:
                raise connect_failed() from exc
        executable = find_chromium(self._config.executable, playwright.chromium.executable_path)
        config = self._config
        started, unshown = features.launch_command(executable, headless=config.headless)
        settings: dict[str, Any] = {
            "executable_path": started,
            "headless": config.headless,
            "chromium_sandbox": sandboxed(),
            "args": [*LAUNCH_FLAGS, *unshown, *own_address.launch_args(self._own)],
            "timeout": LAUNCH_TIMEOUT_S * 1000,
        }
        if config.proxy is not None:
            settings["proxy"] = own_address.proxy_settings(config.proxy, self._own)
        try:
            if config.profile_dir is None:
                return await playwright.chromium.launch(**settings)
            profile = await playwright.chromium.launch_persistent_context(
                config.profile_dir,
                no_viewport=True,
                accept_downloads=True,  # saved by each tab (downloads.py)
                **config.context_options,
                **settings,
            )
            if self._state_pending and config.storage_state is not None:
                # Imported once: later starts keep what the profile holds by then.
                await profile.add_cookies(list(config.storage_state.get("cookies", [])))
                self._state_pending = False
            self.profile = profile
            assert profile.browser is not None  # a local Chromium's context has its browser
            return profile.browser
        except driver.PlaywrightError as exc:
            if "connection closed" in str(exc).lower():
                self._driver.forget()
            raise launch_failed(exc, executable) from exc
