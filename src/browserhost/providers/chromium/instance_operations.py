"""What a launched Chromium instance offers beside close: ``references`` (what uses it) and,
for a profile instance, ``sync_cookies`` (copy cookies between its profile and a Playwright
storage-state file). ``start`` is the instance's own start.

``sync_cookies`` takes a scope of exactly one of ``fromFile`` (add that file's cookies to the
profile, with ``add_cookies``: they are kept in it) and ``toFile`` (write the profile's
cookies there as a storage-state file, readable by this user alone), and optionally
``domains`` (only cookies of those sites and their subdomains). Both start the profile's
browser if it is not running: cookies are read and written through it, never from its files.
A copy from another running instance (``fromInstance``) is the host's: it runs ``toFile`` on
one and ``fromFile`` on the other (``browserhost.host.cookie_copy``).
An instance without a profile keeps a context per session, gone with it, so it does not offer
``sync_cookies``; ``detach`` is not offered at all: Playwright ends the browsers it launched
when the host stops (see README).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from browserhost.files import replace_atomically
from browserhost.sdk import ActionError

if TYPE_CHECKING:
    from playwright._impl._api_structures import SetCookieParam
    from playwright.async_api import BrowserContext

Operation = Callable[[Mapping[str, Any]], Awaitable[dict[str, object]]]


class Operated(Protocol):
    async def profile_context(self) -> BrowserContext | None: ...
    def session_keys(self) -> list[tuple[str | None, str | None]]: ...


def operations(
    instance: Operated, profile: str | None, read_state: Callable[[str], dict[str, Any]]
) -> dict[str, Operation]:
    """The operations of one instance; ``read_state`` reads and checks a storage-state file."""

    async def references(scope: Mapping[str, Any]) -> dict[str, object]:
        found: list[dict[str, object]] = []
        if profile is not None:
            found.append({"kind": "profile", "id": profile, "label": f"Profile {profile}"})
        for directory, session_id in instance.session_keys():
            label = f"Session {session_id or 'default'}" + (f" in {directory}" if directory else "")
            found.append({"kind": "session", "id": f"{directory}|{session_id}", "label": label})
        return {"references": found}

    async def sync_cookies(scope: Mapping[str, Any]) -> dict[str, object]:
        source, target, domains = _scope(scope)
        context = await instance.profile_context()
        if context is None:
            raise ActionError("This instance has no profile, so it has no cookies to sync.")
        if source is not None:
            cookies = _within(read_state(source)["cookies"], domains)
            await context.add_cookies(cookies)
        else:
            assert target is not None
            state = await context.storage_state()
            cookies = _within(list(state["cookies"]), domains)
            payload = json.dumps({"cookies": cookies, "origins": []}, indent=1).encode()
            try:
                replace_atomically(Path(target), payload, ".cookies-")
            except OSError as exc:
                raise ActionError(
                    f"The storage-state file {target} cannot be written: {exc.strerror}. No "
                    "cookies were written."
                ) from None
        copied = sorted({str(c.get("domain", "")).lstrip(".") for c in cookies})
        return {"copiedCookies": {"domains": copied, "count": len(cookies)}}

    found: dict[str, Operation] = {"references": references}
    if profile is not None:
        found["sync_cookies"] = sync_cookies
    return found


def _scope(scope: Mapping[str, Any]) -> tuple[str | None, str | None, list[str] | None]:
    source, target, domains = scope.get("fromFile"), scope.get("toFile"), scope.get("domains")
    unknown = set(scope) - {"fromFile", "toFile", "domains"}
    if unknown or (source is None) == (target is None):
        raise ActionError(
            "sync_cookies takes exactly one of fromFile or toFile (a storage-state file's "
            "path), and optionally domains (a list of sites). No cookies were copied."
        )
    path = source if source is not None else target
    if not isinstance(path, str) or not path:
        raise ActionError("fromFile and toFile are the path of a file. No cookies were copied.")
    # Read and written by the host, wherever the caller runs: a relative path would be the
    # host's working folder's, which no caller means.
    if not Path(path).is_absolute():
        raise ActionError(
            f"{path} is not an absolute path: the file is read or written on the host's "
            "machine, so give its whole path. No cookies were copied."
        )
    if target is not None and not Path(target).parent.is_dir():
        raise ActionError(
            f"There is no folder {Path(target).parent} on the host's machine to write {target} "
            "in. No cookies were copied."
        )
    if domains is not None and not (
        isinstance(domains, list) and all(isinstance(d, str) and d for d in domains)
    ):
        raise ActionError(
            'domains is a list of sites, e.g. ["example.com"]. No cookies were copied.'
        )
    return source, target, domains


def _within(cookies: list[Any], domains: list[str] | None) -> list[SetCookieParam]:
    """The cookies of ``domains`` (each site and its subdomains), or all without a list."""
    kept = []
    for cookie in cookies:
        if not isinstance(cookie, dict):
            continue
        host = str(cookie.get("domain", "")).lstrip(".").lower()
        if domains is None or any(
            host == d.lower().lstrip(".") or host.endswith("." + d.lower().lstrip("."))
            for d in domains
        ):
            kept.append(cookie)
    return cast("list[SetCookieParam]", kept)  # Playwright's own shape, as it wrote them
