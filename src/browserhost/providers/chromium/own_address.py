"""Keeping every request away from browserhost's own address, in the browser's network stack.

:meth:`.addresses.AddressPolicy.own` says which URLs could reach browserhost. Chromium refuses
them before it connects, for every request of every frame, worker and window (an iframe, an
image, a ``fetch``, a redirect, a popup), however the page spells the address: Chromium
rewrites ``2130706433``, ``0x7f.1`` or ``[::FFFF:127.0.0.1]`` into one form first, and the
rules below match every host on browserhost's port.

* A browser browserhost launches gets a host resolver rule (:func:`launch_args`): a host on
  that port fails to resolve (``net::ERR_NAME_NOT_RESOLVED``), IP literals and WebSockets
  included. With a proxy, that port bypasses it (:func:`proxy_settings`), so that Chromium
  resolves the host itself and the rule applies. Free: the rule is matched as the host is
  resolved, which happens anyway.
* A browser browserhost connects to (``BROWSERHOST_CHROMIUM_ENDPOINT``) was started without
  that rule: its requests to that port are paused and failed (``net::ERR_BLOCKED_BY_CLIENT``)
  through the DevTools protocol (:func:`guard`: ``Fetch.enable`` on the browser's own
  session, which covers all its targets, with a pattern for that port only, so that no other
  request is paused). WebSockets are not seen there; the host refuses a page's own (its
  ``Origin`` is not the host's).

A blocked frame shows Chromium's error page for the address; a blocked page or window is
told to the agent and left (:meth:`.page_watch.PageWatch._on_request_failed`). Sites elsewhere on
browserhost's port are blocked too: run browserhost on another port to reach them.
``Network.setBlockedURLs`` was tried and left out: it acts in the page's own process only (no
navigation, no iframe in another process, no worker); Playwright's ``route`` pauses every
request.

Known limits: a Selenium Grid's browsers run elsewhere, where this machine's loopback is not
theirs, and get neither. When browserhost listens on port 80 or 443
(:data:`~.addresses.DEFAULT_PORTS`), only the loopback spellings and the address it listens on
are blocked: a host name that resolves to this machine, or another of the machine's addresses
when it listens on all of them, is not.

Measured (2 shared cores, medians of 200 loads in 4 interleaved rounds of 50): a page with 8
images, a script and an iframe loaded in 170 ms without either, 163 ms with the rule, 170 ms
with the pattern; a plain page in 71.5, 69.8 and 71.6 ms: no cost beyond the noise.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import devtools, driver
from .addresses import DEFAULT_PORTS, AddressPolicy, canonical_host

if TYPE_CHECKING:
    from playwright.async_api import Browser

LOOPBACK_PATTERNS = (
    "localhost",
    "localhost.",
    "*.localhost",
    "*.localhost.",
    "localhost.localdomain",
    "127.*",
    "0.0.0.0",
    "[::1]",
    "[::]",
    "[::ffff:7f*]",
    "[::ffff:0:0]",
)
"""Loopback hosts as Chromium writes them, for a port every site uses: where browserhost
itself listens is added."""

PLAYWRIGHT_LOOPBACK = (
    "localhost",
    "127.0.0.1",
    "::1",
    "[::]",
    "[::1]",
    "<loopback>",
    "<-loopback>",
)
"""Bypass entries after which Playwright no longer sends loopback through the proxy; without
one, it adds ``<-loopback>`` last (its ``shouldProxyLoopback``)."""

BLOCKED_REASON = "BlockedByClient"


def _hosts(policy: AddressPolicy) -> list[str]:
    """Host patterns for browserhost's port: every host, unless the port is one every site
    uses (see :meth:`.AddressPolicy.own_refusal`)."""
    if policy.own_port not in DEFAULT_PORTS:
        return ["*"]
    hosts = list(LOOPBACK_PATTERNS)
    if policy.own_host is not None:
        listening = canonical_host(policy.own_host)
        hosts.append(f"[{listening}]" if ":" in listening else listening)
    return hosts


def launch_args(policy: AddressPolicy) -> list[str]:
    """Chromium's flag making browserhost's port unresolvable on its hosts (:func:`_hosts`),
    or none when browserhost serves no HTTP."""
    if policy.own_port is None:
        return []
    rules = ", ".join(f"MAP {host}:{policy.own_port} ~NOTFOUND" for host in _hosts(policy))
    return [f"--host-resolver-rules={rules}"]


def proxy_settings(proxy: Mapping[str, str], policy: AddressPolicy) -> dict[str, str]:
    """Playwright's ``proxy`` with browserhost's port bypassing it, so that the resolver rule
    applies there too. Chromium lets the last matching bypass entry decide, so the port comes
    after the ``<-loopback>`` Playwright would otherwise add at the end."""
    settings = dict(proxy)
    if policy.own_port is None:
        return settings
    bypass = [entry.strip() for entry in settings.get("bypass", "").split(",") if entry.strip()]
    if not any(entry in PLAYWRIGHT_LOOPBACK for entry in bypass):
        bypass.append("<-loopback>")
    bypass += [f"{host}:{policy.own_port}" for host in _hosts(policy)]
    settings["bypass"] = ",".join(bypass)
    return settings


def fetch_patterns(policy: AddressPolicy) -> list[str]:
    """``Fetch.enable`` URL patterns for browserhost's port; they may match more (``:7878/``
    in a path), which :func:`guard` lets through."""
    port = policy.own_port
    if port not in DEFAULT_PORTS:
        return [f"*:{port}/*"]
    scheme = "http" if port == 80 else "https"  # a URL leaves out its scheme's own port
    patterns = [f"{scheme}://{host}/*" for host in _hosts(policy)]
    return patterns + [f"*://{host}:{port}/*" for host in _hosts(policy)]


async def guard(browser: Browser, policy: AddressPolicy) -> None:
    """Fail, in ``browser``, every request ``policy`` says could reach browserhost: for a
    browser started without :func:`launch_args`. Lasts as long as the connection."""
    if policy.own_port is None:
        return

    session = await browser.new_browser_cdp_session()
    answering: set[asyncio.Task[None]] = set()

    async def answer(paused: dict[str, Any]) -> None:
        request = {"requestId": paused["requestId"]}
        with contextlib.suppress(driver.PlaywrightError):  # the browser, or the request, went away
            if policy.own(paused["request"]["url"]):
                await devtools.send(
                    session, "Fetch.failRequest", request | {"errorReason": BLOCKED_REASON}
                )
            else:
                await devtools.send(session, "Fetch.continueRequest", request)

    def on_paused(paused: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(answer(paused))
        answering.add(task)  # held until done: the loop keeps only a weak reference
        task.add_done_callback(answering.discard)

    devtools.listen(session, "Fetch.requestPaused", on_paused)
    patterns = [{"urlPattern": pattern} for pattern in fetch_patterns(policy)]
    await session.send("Fetch.enable", {"patterns": patterns})
