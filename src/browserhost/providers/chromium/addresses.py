"""Which addresses the browser may show.

Only ``http`` and ``https`` pages (and the blank page every tab starts on) are shown: a
redirect, a link or a script that leads to ``file:``, ``chrome:``, ``data:`` or the like is
blocked. Two more rules keep a page's text from steering the agent somewhere it should not go:

* browserhost's own address (its API, its docs) is never shown, nor reached by any request
  (a frame, an image, a ``fetch``), whatever its spelling. ``browserhost serve`` puts where it
  listens in ``BROWSERHOST_OWN_ADDRESS`` for the provider it runs; :meth:`AddressPolicy.own`
  judges a URL as Chromium reads it (:func:`canonical_host`), and :mod:`.own_address` blocks
  the requests in the browser's network stack.
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
from urllib.parse import SplitResult, unquote, urlsplit

from .errors import BLOCKED_SCHEMES_HELP

ALLOWED_SCHEMES = frozenset({"http", "https"})
ERROR_PAGE_SCHEME = "chrome-error"
"""Chromium's own error page for a failed load: shown, not loaded from anywhere."""
BLANK = "about:blank"
LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain"})
DEFAULT_PORTS = frozenset({80, 443})
"""A port every web site uses: browserhost there is blocked on its own addresses only, not on
every host (see :meth:`AddressPolicy.own_refusal`)."""
OWN_REFUSED = "it is browserhost's own address, which the browser does not show"
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
    own_host: str | None = None
    """The address it listens on (``127.0.0.1``, ``0.0.0.0``, ``::1``, a LAN address)."""
    private_network: bool = True
    """Whether loopback and private-network addresses may be shown."""

    def own(self, url: str) -> bool:
        """Whether a request for ``url`` could reach browserhost itself."""
        return self.own_refusal(url) is not None

    def own_refusal(self, url: str) -> str | None:
        """Why a request for ``url`` could reach browserhost itself (a clause, as
        :meth:`refusal`), or ``None``.

        Any host on browserhost's port could, since any host name may lead to this machine
        (a name that resolves to ``127.0.0.1``, one of the machine's own addresses); only
        when that port is one every site uses (:data:`DEFAULT_PORTS`) is the host judged: a
        loopback spelling, or the address browserhost listens on."""
        parts = urlsplit(url)
        if self.own_port is None or parts.scheme not in ALLOWED_SCHEMES:
            return None
        if _port(parts) != self.own_port:
            return None
        host = canonical_host(parts.hostname or "")
        listening = None if self.own_host is None else canonical_host(self.own_host)
        if _loopback(host) or host == listening:
            return OWN_REFUSED
        if self.own_port in DEFAULT_PORTS:
            return None
        return (
            f"it is on port {self.own_port}, browserhost's own, which the browser loads from "
            "no host, since a host name may lead to this machine (the user can run browserhost "
            "on another port)"
        )

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
        own = self.own_refusal(url)
        if own is not None:
            return own
        host = canonical_host(parts.hostname or "")
        if not self.private_network and (_local_name(host) or _private(host)):
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


def canonical_host(host: str) -> str:
    """``host`` as Chromium reads it (the WHATWG URL standard's host parser), with the final
    dot of a fully qualified name dropped: ``LocalHost.`` is ``localhost``, ``2130706433``,
    ``0x7f.1`` and ``0177.0.0.1`` are ``127.0.0.1``, ``[::FFFF:127.0.0.1]`` is
    ``::ffff:7f00:1``."""
    name = unquote(host).strip("[]").lower().removesuffix(".")
    address = _ip(name)
    return name if address is None else str(address)


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if ":" in name:
        try:
            return ipaddress.IPv6Address(name.split("%")[0])
        except ValueError:
            return None
    parts = name.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers = [_ipv4_number(part) for part in parts]
    if any(number is None for number in numbers):
        return None
    *high, last = [number for number in numbers if number is not None]
    if any(number > 255 for number in high) or last >= 256 ** (5 - len(parts)):
        return None
    value = sum(number << 8 * (3 - place) for place, number in enumerate(high)) + last
    return ipaddress.IPv4Address(value)


def _ipv4_number(part: str) -> int | None:
    """A part of an IPv4 address as the URL standard reads it: decimal, ``0x`` hex, or
    octal with a leading ``0``."""
    digits, base = part, 10
    if part[:2] in ("0x", "0X"):
        digits, base = part[2:] or "0", 16
    elif len(part) > 1 and part.startswith("0"):
        digits, base = part[1:], 8
    try:
        return int(digits, base) if digits.isascii() and digits.isalnum() else None
    except ValueError:
        return None


def _loopback(host: str) -> bool:
    """A canonical host that reaches this machine without a name lookup: a local name, any
    of ``127.0.0.0/8`` or ``::1``, also mapped into IPv6, or the unspecified address (which
    connects to this machine)."""
    if _local_name(host):
        return True
    address = _unmapped(host)
    return address is not None and (address.is_loopback or address.is_unspecified)


def _local_name(host: str) -> bool:
    return host in LOCAL_NAMES or host.endswith(".localhost")


def _private(host: str) -> bool:
    address = _unmapped(host)
    if address is None:
        return False
    return (
        address.is_private or address.is_loopback or address.is_link_local or address.is_unspecified
    )


def _unmapped(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address ``host`` names, an IPv4 one mapped into IPv6 as itself (it reaches the
    same place)."""
    address = _ip(host)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


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


def own_host(address: str) -> str | None:
    """The host of :data:`~browserhost.config.OWN_ADDRESS_ENV` (``host:port``), or ``None``."""
    host, _, _ = address.strip().rpartition(":")
    return host.strip("[]") or None
