"""``browserhost doctor``: what a first run needs, checked for real, one finding each.

Each check returns a :class:`Finding`: ``ok`` (with what was found), ``fail`` (with what to do)
or ``skip`` (not needed here, and why). Checks run in this order:

- the data dir exists or can be created, and a file can be written in it;
- the token file is sane: readable, a token or absent, not readable by other users;
- the port ``serve`` would listen on is free;
- the selected provider is installed (and every provider record loaded), or is the bridge,
  which ``serve`` installs itself;
- Chromium launches, as the provider launches it (its path and version), or the remote browser
  of ``BROWSERHOST_CHROMIUM_ENDPOINT`` answers, or the Selenium Grid of
  ``BROWSERHOST_CHROMIUM_GRID`` is ready with Chrome slots (then nothing is launched here, as
  the provider launches nothing), when the chromium provider is the one to use;
- each provider service the host would run starts and says hello.

Nothing here changes the selection or writes a token: the checks leave the data dir as a first
``serve`` would find it (created, when it was missing).
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import socket
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

import httpx

from browserhost import config
from browserhost.contract.bridge import HOW_TO_CONNECT
from browserhost.contract.errors import BrowserhostError
from browserhost.host import Host
from browserhost.host.bridge import BRIDGE_ID
from browserhost.host.bridge import offered as bridge_offered
from browserhost.host.catalog import log as catalog_log
from browserhost.host.selection import SelectionReadError
from browserhost.host.services import ManagedService
from browserhost.transports.base import NotSentError

if TYPE_CHECKING:
    from browserhost.providers.chromium.launch import ChromiumConfig

Verdict = Literal["ok", "fail", "skip"]
CHROMIUM = "chromium"
VERSION_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class Finding:
    """One check's outcome, told in one line."""

    check: str
    verdict: Verdict
    detail: str


async def examine(data_dir: Path, host: str, port: int) -> list[Finding]:
    """Every check, in the order of the module docstring."""
    usable = _data_dir(data_dir)
    findings = [usable]
    if usable.verdict == "fail":  # the token and the selection live there: one line says it
        findings.append(Finding("token", "skip", "not read: the data dir is not usable"))
    else:
        findings.append(_token(data_dir))
    findings.append(_port(host, port))
    browser_host = Host(data_dir)
    try:
        with _refusals() as refused:
            browser_host.catalog.discover(config.enabled_providers())
        findings += [Finding("providers", "fail", message) for message in refused]
        selected = None
        if usable.verdict != "fail":
            selection = _selection(browser_host)
            findings.append(selection)
            selected = selection.detail.split(" ", 1)[0] if selection.verdict == "ok" else None
        findings.append(await _chromium(browser_host, selected))
        for provider in browser_host.catalog.all():
            if provider.service is not None:
                findings.append(await _service(provider.id, provider.service))
    finally:
        await browser_host.aclose()
    return findings


def _data_dir(directory: Path) -> Finding:
    try:
        config.prepare_data_dir(directory)
        fd, probe = tempfile.mkstemp(dir=directory, prefix=".doctor-")
        os.close(fd)
        os.unlink(probe)
    except config.DataDirError as exc:
        return Finding("data dir", "fail", str(exc))
    except OSError as exc:
        return Finding(
            "data dir",
            "fail",
            f"Cannot write in {directory} ({exc.strerror}); make it writable, or pass "
            "--data-dir (or set BROWSERHOST_DATA_DIR to) a directory you can write.",
        )
    return Finding("data dir", "ok", f"{directory} (writable)")


def _token(directory: Path) -> Finding:
    if os.environ.get("BROWSERHOST_TOKEN"):
        return Finding("token", "ok", "from BROWSERHOST_TOKEN")
    path = config.token_path(directory)
    try:
        stored = config.stored_token(path)
    except config.DataDirError as exc:
        return Finding("token", "fail", str(exc))
    if stored is None:
        return Finding("token", "ok", f"none yet: serve writes one to {path} (mode 0600)")
    if not stored:
        return Finding("token", "ok", f"{path} is empty: serve replaces it with a new token")
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        return Finding(
            "token",
            "fail",
            f"{path} can be read by other users (mode {mode:04o}); run: chmod 600 {path}",
        )
    return Finding("token", "ok", f"{path} (mode {mode:04o})")


def _port(host: str, port: int) -> Finding:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # As uvicorn binds: a port left in TIME_WAIT by an earlier serve is free to it.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return Finding("port", "fail", _port_taken(host, port, exc))
    return Finding("port", "ok", f"{host}:{port} is free")


def _port_taken(host: str, port: int, error: OSError) -> str:
    address = f"{'[' + host + ']' if ':' in host else host}:{port}"
    if error.errno is not None and error.errno != errno.EADDRINUSE:
        return f"Cannot listen on {address} ({error.strerror}); serve with --host or --port."
    try:
        answer = httpx.get(f"http://{address}/openapi.json", timeout=1.0, trust_env=False)
        ours = answer.json().get("info", {}).get("title", "").lower().startswith("browserhost")
    except (httpx.HTTPError, ValueError, AttributeError):
        ours = False
    if ours:  # a second serve is the usual cause
        return (
            f"{address} is taken by a browserhost serve already running; use that one, stop "
            "it, or serve another with --port."
        )
    return f"{address} is in use by another program; serve with --port (or stop that program)."


@contextmanager
def _refusals() -> Iterator[list[str]]:
    """The catalog's warnings while it loads: records refused, plugins that failed to load."""
    messages: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            messages.append(record.getMessage())

    handler = Collect(logging.WARNING)
    catalog_log.addHandler(handler)
    propagate, catalog_log.propagate = catalog_log.propagate, False  # said once, by doctor
    try:
        yield messages
    finally:
        catalog_log.removeHandler(handler)
        catalog_log.propagate = propagate


def _selection(host: Host) -> Finding:
    installed = ", ".join(provider.id for provider in host.catalog.all()) or "none"
    try:
        selected = host.selection.read()
    except SelectionReadError as exc:
        return Finding(
            "selection",
            "fail",
            f"The selection file cannot be read ({exc}); choose again: browserhost select ID "
            f"(installed: {installed}).",
        )
    if selected is None:
        return Finding(
            "selection",
            "skip",
            f"none yet; serve --select ID or browserhost select ID chooses (installed: "
            f"{installed})",
        )
    if selected == BRIDGE_ID:  # installed by serve itself, not by a package
        if bridge_offered(config.enabled_providers()):
            return Finding(
                "selection",
                "ok",
                f"{selected} (serve offers it unless --no-bridge; it answers once a browser "
                f"connects: {HOW_TO_CONNECT}; installed: {installed})",
            )
        return Finding(
            "selection",
            "fail",
            f"{selected} is selected but BROWSERHOST_PROVIDERS leaves it out (installed: "
            f"{installed}); add {selected} to it, or choose another: browserhost select ID.",
        )
    if host.catalog.get(selected) is None:
        narrowed = " or widen BROWSERHOST_PROVIDERS" if config.enabled_providers() else ""
        return Finding(
            "selection",
            "fail",
            f"{selected} is selected but not installed (installed: {installed}); install its "
            f"package{narrowed}, or choose another: browserhost select ID.",
        )
    return Finding("selection", "ok", f"{selected} (installed: {installed})")


async def _chromium(host: Host, selected: str | None) -> Finding:
    if host.catalog.get(CHROMIUM) is None:
        return Finding("chromium", "skip", "the chromium provider is not installed")
    if selected not in (None, CHROMIUM):
        return Finding("chromium", "skip", f"not needed: {selected} is selected")
    from browserhost.providers.chromium.launch import ChromiumConfig, Launcher, find_chromium
    from browserhost.sdk import ActionError

    settings = ChromiumConfig.from_env()
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
    from browserhost.providers.chromium.grid import GRID, STATUS_S, Grid, GridUnreachableError
    from browserhost.providers.chromium.launch import ENV_GRID
    from browserhost.sdk import ActionError

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


async def _service(provider_id: str, service: ManagedService) -> Finding:
    check = f"{provider_id} service"
    started = time.monotonic()
    try:
        async with service.using():
            took = time.monotonic() - started
    except NotSentError as exc:
        return Finding(
            check,
            "fail",
            f"It did not start: {exc}. Its log is services/{provider_id}.log in the data dir.",
        )
    except BrowserhostError as exc:
        return Finding(check, "fail", f"It did not start: {exc}")
    return Finding(check, "ok", f"started and said hello in {took:.1f} s")
