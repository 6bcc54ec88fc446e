"""The stub's cookies: one jar per tab, in memory, read and set as a browser's are.

A cookie is sent to an address when its domain is the address's host or a parent of it, its
path is a prefix of the address's path, and a secure one only over https.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from browserhost.providers.session_verbs import CookieToSet

Cookie = dict[str, Any]
"""A cookie as ``cookies`` answers it: name, value, domain, path, expires, httpOnly, secure,
sameSite."""


def stored(cookie: CookieToSet) -> Cookie:
    """The cookie as the jar keeps it; one given by url takes the url's host and path."""
    domain, path = cookie.domain, cookie.path
    if cookie.url is not None:
        parts = urlsplit(cookie.url)
        domain, path = parts.hostname or "", parts.path.rpartition("/")[0] or "/"
    return {
        "name": cookie.name,
        "value": cookie.value,
        "domain": domain,
        "path": path,
        "expires": cookie.expires if cookie.expires is not None else -1,
        "httpOnly": cookie.http_only,
        "secure": cookie.secure,
        "sameSite": cookie.same_site or "Lax",
    }


def put(jar: list[Cookie], cookie: Cookie) -> None:
    """Add ``cookie``, replacing the one of the same name, domain and path."""
    same = (cookie["name"], cookie["domain"], cookie["path"])
    jar[:] = [kept for kept in jar if (kept["name"], kept["domain"], kept["path"]) != same]
    jar.append(cookie)


def sent_to(jar: list[Cookie], urls: list[str]) -> list[Cookie]:
    """The cookies a browser would send to any of ``urls``."""
    return [cookie for cookie in jar if any(_matches(cookie, url) for url in urls)]


def _matches(cookie: Cookie, url: str) -> bool:
    parts = urlsplit(url)
    host, path = parts.hostname or "", parts.path or "/"
    domain = str(cookie["domain"]).removeprefix(".")
    on_host = host == domain or host.endswith("." + domain)
    prefix = str(cookie["path"])
    on_path = path == prefix or path.startswith(prefix.rstrip("/") + "/")
    return on_host and on_path and (parts.scheme == "https" or not cookie["secure"])
