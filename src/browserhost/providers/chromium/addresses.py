"""Which addresses the browser may show.

Only ``http`` and ``https`` pages (and the blank page every tab starts on) are shown: a
redirect, a link or a script that leads to ``file:``, ``chrome:``, ``data:`` or the like is
blocked. Two more rules keep a page's text from steering the agent somewhere it should not go:

* browserhost's own address (its API, its docs) is never shown. ``browserhost serve`` puts
  where it listens in ``BROWSERHOST_OWN_ADDRESS`` for the provider it runs.
* Loopback and private-network addresses (``localhost``, ``127.0.0.1``, ``10.x``,
  ``192.168.x``, ...) are allowed, since agents test local development servers, unless the
  user sets ``BROWSERHOST_CHROMIUM_PRIVATE_NETWORK=deny``. Names are resolved when the agent
  opens them; a page that navigates by itself is judged by the address it names (a name that
  resolves to a private address only later is not caught there).
"""

from __future__ import annotations

import asyncio
import ipaddress
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from .errors import BLOCKED_SCHEMES_HELP

ALLOWED_SCHEMES = frozenset({"http", "https"})
ERROR_PAGE_SCHEME = "chrome-error"
"""Chromium's own error page for a failed load: shown, not loaded from anywhere."""
BLANK = "about:blank"
LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain"})
RESOLVE_TIMEOUT_S = 3.0
ENV_PRIVATE_NETWORK = "BROWSERHOST_CHROMIUM_PRIVATE_NETWORK"
PRIVATE_REFUSED = (
    "it is a loopback or private-network address, which the user does not let the browser "
    f"open ({ENV_PRIVATE_NETWORK}=deny)"
)


@dataclass(frozen=True)
class AddressPolicy:
    own_port: int | None = None
    """The port browserhost itself listens on, on this machine; ``None`` when it serves no
    HTTP (an embedded host, MCP over stdio)."""
    private_network: bool = True
    """Whether loopback and private-network addresses may be shown."""

    def refusal(self, url: str) -> str | None:
        """Why ``url`` may not be shown (a clause for :func:`~.errors.blocked_message`), or
        ``None``. Judges the address as written, with no name lookup: for pages that navigate
        by themselves."""
        if url == BLANK:
            return None
        parts = urlsplit(url)
        if parts.scheme == ERROR_PAGE_SCHEME:
            return None
        if parts.scheme not in ALLOWED_SCHEMES:
            return BLOCKED_SCHEMES_HELP
        host = (parts.hostname or "").lower()
        local = _local_name(host) or _private(host)
        if local and self.own_port is not None and _port(parts) == self.own_port:
            return "it is browserhost's own address, which the browser does not show"
        if local and not self.private_network:
            return PRIVATE_REFUSED
        return None

    async def refusal_to_open(self, url: str) -> str | None:
        """:meth:`refusal`, and when private networks are denied, the addresses ``url``'s host
        name resolves to as well."""
        said = self.refusal(url)
        if said is not None or self.private_network or url == BLANK:
            return said
        host = urlsplit(url).hostname or ""
        try:
            async with asyncio.timeout(RESOLVE_TIMEOUT_S):
                found = await asyncio.get_running_loop().getaddrinfo(host, None)
        except (OSError, TimeoutError):
            return None  # the load itself reports a name that does not resolve
        if any(_private(str(entry[4][0])) for entry in found):
            return PRIVATE_REFUSED
        return None


def _local_name(host: str) -> bool:
    return host in LOCAL_NAMES or host.endswith(".localhost")


def _private(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return False
    return address.is_private or address.is_loopback or address.is_link_local


def _port(parts: SplitResult) -> int:
    try:
        given = parts.port
    except ValueError:
        given = None
    return given if given is not None else (443 if parts.scheme == "https" else 80)


def own_port(address: str) -> int | None:
    """The port of :data:`~browserhost.config.OWN_ADDRESS_ENV` (``host:port``), or ``None``."""
    _, _, port = address.strip().rpartition(":")
    return int(port) if port.isdigit() else None
