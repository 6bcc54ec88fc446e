"""``browserhost doctor``: what a first run needs, checked for real, one finding each.

Each check returns a :class:`Finding`: ``ok`` (with what was found), ``fail`` (with what to do)
or ``skip`` (not needed here, and why). Checks run in this order:

- the data dir exists or can be created, and a file can be written in it;
- the token file is sane: readable, a token or absent, not readable by other users;
- the port ``serve`` would listen on is free, or held by a ``serve`` of this data dir (it
  answers this data dir's token);
- the selected provider is installed (and every provider record loaded), or is the bridge,
  which ``serve`` installs itself;
- each installed provider's own checks (:mod:`browserhost.contract.checks`: the chromium provider
  launches Chromium, or reaches its remote browser or Grid), when it is the one to use;
- each provider service the host would run starts and says hello.

Nothing here changes the selection or writes a token: the checks leave the data dir as a first
``serve`` would find it (created, when it was missing).
"""

from __future__ import annotations

import errno
import logging
import os
import socket
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

import httpx

from browserhost import config
from browserhost.api.auth import UNAUTHORIZED_HINT
from browserhost.api.paths import PROVIDERS_PATH
from browserhost.contract.bridge import HOW_TO_CONNECT
from browserhost.contract.checks import Checks, Finding, Verdict
from browserhost.contract.errors import BrowserhostError
from browserhost.host import Host
from browserhost.host.bridge import BRIDGE_ID
from browserhost.host.bridge import offered as bridge_offered
from browserhost.host.catalog import log as catalog_log
from browserhost.host.selection import SelectionReadError
from browserhost.host.services import ManagedService
from browserhost.transports.base import NotSentError

__all__ = ["Finding", "Verdict", "examine"]

FIRST_BROWSER = "chromium"
"""The provider a first run uses (``serve --select chromium``): said when it is missing, as
its checks cannot run then."""
PROBE_S = 1.0


async def examine(data_dir: Path, host: str, port: int) -> list[Finding]:
    """Every check, in the order of the module docstring."""
    usable = _data_dir(data_dir)
    findings = [usable]
    if usable.verdict == "fail":  # the token and the selection live there: one line says it
        findings.append(Finding("token", "skip", "not read: the data dir is not usable"))
    else:
        findings.append(_token(data_dir))
    findings.append(_port(host, port, data_dir))
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
        findings += await _providers_checks(browser_host, selected)
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


def _port(host: str, port: int, data_dir: Path) -> Finding:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # As uvicorn binds: a port left in TIME_WAIT by an earlier serve is free to it.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return _port_taken(host, port, exc, data_dir)
    return Finding("port", "ok", f"{host}:{port} is free")


def _port_taken(host: str, port: int, error: OSError, data_dir: Path) -> Finding:
    address = f"{'[' + host + ']' if ':' in host else host}:{port}"
    if error.errno is not None and error.errno != errno.EADDRINUSE:
        why = f"Cannot listen on {address} ({error.strerror}); serve with --host or --port."
        return Finding("port", "fail", why)
    held_by = _holder(address, config.read_token(data_dir))
    if held_by == "this data dir":
        return Finding(
            "port", "ok", f"{address} is served by browserhost already running (this data dir)"
        )
    if held_by == "another serve":  # the usual cause
        return Finding(
            "port",
            "fail",
            f"{address} is taken by a browserhost serve already running, which this data "
            "dir's token does not open; use that one, stop it, or serve another with --port.",
        )
    return Finding(
        "port",
        "fail",
        f"{address} is in use by another program; serve with --port (or stop that program).",
    )


def _holder(address: str, token: str | None) -> Literal["this data dir", "another serve"] | None:
    """Who holds ``address``. First asked for the provider list with no token: a serve
    refuses it in words of its own, at once (its OpenAPI document, asked for before, is
    built on the first ask: a serve just started on a loaded machine took longer than the
    probe waits), and anything else is another program, which is sent no token. Then asked
    with this data dir's token: a serve of this data dir answers its provider list, which
    only it can (a pid file would outlive a crash, and say nothing of who holds the port)."""
    url = f"http://{address}{PROVIDERS_PATH}"
    try:
        unasked = httpx.get(url, timeout=PROBE_S, trust_env=False)
        said = unasked.json().get("error", "")
    except (httpx.HTTPError, ValueError, AttributeError):
        return None
    refused = unasked.status_code == httpx.codes.UNAUTHORIZED
    if not (refused and isinstance(said, str) and said.endswith(UNAUTHORIZED_HINT)):
        return None
    if token is None:
        return "another serve"
    try:
        answer = httpx.get(
            url, headers={"Authorization": f"Bearer {token}"}, timeout=PROBE_S, trust_env=False
        )
        listed = answer.json() if answer.status_code == httpx.codes.OK else None
    except (httpx.HTTPError, ValueError):
        return "another serve"
    return (
        "this data dir" if isinstance(listed, dict) and "providers" in listed else "another serve"
    )


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


async def _providers_checks(host: Host, selected: str | None) -> list[Finding]:
    """What each installed provider checks of itself, for the one to use (every one, when
    none is selected yet); the others say they are not needed."""
    findings = []
    if host.catalog.get(FIRST_BROWSER) is None:
        findings.append(Finding(FIRST_BROWSER, "skip", "the chromium provider is not installed"))
    for provider in host.catalog.all():
        if provider.checks is None:
            continue
        if selected not in (None, provider.id):
            findings.append(Finding(provider.id, "skip", f"not needed: {selected} is selected"))
        else:
            findings += await _offered(provider.id, provider.checks)
    return findings


async def _offered(provider_id: str, checks: Checks) -> list[Finding]:
    try:
        return await checks()
    except Exception as exc:  # noqa: BLE001  # a provider's broken check is its finding, not a crash
        return [
            Finding(
                provider_id,
                "fail",
                f"Its checks failed: {type(exc).__name__}: {exc}. Report this to the provider's "
                "authors; its other checks did not run.",
            )
        ]


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
