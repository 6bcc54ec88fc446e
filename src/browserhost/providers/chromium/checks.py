"""The chromium provider's checks for ``browserhost doctor`` (:mod:`browserhost.contract.checks`).

One finding, from where the provider's browser would come from, in the provider's own order:
the Selenium Grid of ``BROWSERHOST_CHROMIUM_GRID`` is ready with Chrome slots (nothing is
launched here, as the provider launches nothing), or the remote browser of
``BROWSERHOST_CHROMIUM_ENDPOINT`` answers, or Chromium launches as the provider launches it
(its path and version). Of a remote address only the scheme, host and port are shown.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from urllib.parse import urlsplit

from browserhost.contract.checks import Finding
from browserhost.sdk import ActionError

from .grid import GRID, STATUS_S, Grid, GridUnreachableError
from .launch import ENV_GRID, ChromiumConfig, Launcher, find_chromium

CHROMIUM = "chromium"
VERSION_TIMEOUT_S = 10.0


async def checks() -> list[Finding]:
    """The ``checks`` hook of the chromium provider's record."""
    return [await _browser(ChromiumConfig.from_env())]


async def _browser(settings: ChromiumConfig) -> Finding:
    if settings.grid is not None:  # the provider's first choice too
        return await _grid(settings.grid, settings)
    if settings.endpoint is not None:
        where = _origin(settings.endpoint)
        check = "remote browser"
    else:
        check = CHROMIUM
        try:
            where = find_chromium(settings.executable)
        except ActionError:
            where = "Playwright's own Chromium"  # the launcher looks there last
    launcher = Launcher(settings)
    started = time.monotonic()
    try:
        browser = await launcher.browser()
        version = browser.version
    except ActionError as exc:
        return Finding(check, "fail", str(exc))
    finally:
        await launcher.aclose()
    took = time.monotonic() - started
    if check == CHROMIUM:
        return Finding(
            check, "ok", f"{where}, {_version(where) or version}, launched in {took:.1f} s"
        )
    return Finding(check, "ok", f"{where} answered in {took:.1f} s (Chromium {version})")


def _origin(address: str) -> str:
    """Where ``address`` points, and nothing else: its user, path and query may carry a
    credential, so they are never shown."""
    parts = urlsplit(address)
    return f"{parts.scheme}://{parts.hostname}{f':{parts.port}' if parts.port else ''}"


async def _grid(address: str, settings: ChromiumConfig) -> Finding:
    where = _origin(address)
    grid = Grid(address, settings)
    started = time.monotonic()
    try:
        capacity = await grid.capacity()
    except GridUnreachableError:
        return Finding(
            GRID,
            "fail",
            f"{where} ({ENV_GRID}) does not answer within {STATUS_S:g} s; start the Grid or "
            f"check that it is reachable from this machine, or unset {ENV_GRID} to launch "
            "Chromium here.",
        )
    except ActionError:
        return Finding(
            GRID,
            "fail",
            f"{where} ({ENV_GRID}) answers, but not as a Selenium Grid 4 does at /status; set "
            f"{ENV_GRID} to the Grid's hub, router or standalone address (http://host:4444).",
        )
    finally:
        await grid.aclose()
    took = time.monotonic() - started
    # A Grid says it is not ready both when no node is up and when every slot is taken; the
    # slots tell the two apart.
    if capacity.slots == 0:
        return Finding(
            GRID,
            "fail",
            f"{where} answers but no node that is up has a Chrome slot, and the chromium "
            "provider asks it for Chrome; start a Chrome or Chromium node, or wait for one to "
            "register: until then every action waits in the Grid's queue and is refused as "
            "busy.",
        )
    full = "; all taken now: a new agent session waits for one" if capacity.free == 0 else ""
    return Finding(
        GRID,
        "ok",
        f"{where} answered in {took:.1f} s: {capacity.free} free, {capacity.busy} busy "
        f"Chrome slots{full}; each agent session's browser starts there, none here",
    )


def _version(executable: str) -> str | None:
    """What the binary says of itself (``Chromium 156.0.8078.73 built on Debian ...``)."""
    if shutil.which(executable) is None:
        return None
    try:
        said = subprocess.run(
            [executable, "--version"],
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    line = said.stdout.strip().partition("\n")[0]
    return line.partition(" built on ")[0] or None
