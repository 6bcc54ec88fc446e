"""Launching Chromium instances with options: a profile, a locale, a proxy, a display.

The chromium provider's record declares ``launch`` (see :mod:`browserhost.host.instances`):
:class:`LaunchOptions` is the schema the host checks, and each instance is a
:class:`~.provider.ChromiumProvider` of its own, configured from the provider's settings (where
Chromium comes from, dialogs, evaluate, addresses) and the options. Nothing here names a
binary or a command-line flag: a caller chooses among these options and nothing else.

A ``profile`` keeps the browser's user data (cookies, local storage, logins) under the data
dir, in ``providers/chromium/profiles/<name>``, a real folder (a symbolic link there is
refused: the logins would be kept wherever it points); the instance is then persistent. One
profile is used by one instance at a time. Its sessions share the profile's one context, each
with pages of its own (:class:`ProfileShare`), since a login is what a profile is for.

A ``storageState`` is read from a regular file of at most :data:`STORAGE_STATE_MAX_BYTES`
(a FIFO or a device, which could block the read, is refused).
"""

from __future__ import annotations

import json
import os
import stat
import zoneinfo
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol, cast

from pydantic import ConfigDict, Field, ValidationError
from pydantic.json_schema import SkipJsonSchema

from browserhost.contract.base import WireModel
from browserhost.contract.data import ViewportMode
from browserhost.contract.limits import INSTANCE_SEPARATOR
from browserhost.sdk import ActionError

from .instance_operations import operations

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, CDPSession, Page

    from .launch import ChromiumConfig
    from .records import Timeouts

PROFILES = "profiles"
STORAGE_STATE_MAX_BYTES = 10_000_000

LAUNCH_HELP = (
    "Launch a Chromium of its own, routed to like a provider (select it, or send providerId). "
    "Without a profile it is ephemeral: its cookies go when it closes or the host stops. With "
    "a profile its cookies, local storage and logins are kept under the data dir and survive "
    "restarts: sign in once (take over in the viewer, or run it headed) and the agent stays "
    "signed in. One profile is used by one instance at a time."
)


def _no_null_defaults(schema: dict[str, Any]) -> None:
    """An option left out is simply not set: its schema shows no ``"default": null``."""
    for prop in schema.get("properties", {}).values():
        if "default" in prop and prop["default"] is None:
            del prop["default"]


# A string option's own rules sit on the string, where the schema shows them (pydantic drops
# them from an optional field's schema).
ProxyServer = Annotated[
    str, Field(pattern=r"^(http|https|socks5)://[A-Za-z0-9.\[\]:-]+$", max_length=300)
]
ProxyBypass = Annotated[str, Field(pattern=r"^[A-Za-z0-9.*,<>:\[\]_/-]+$", max_length=2000)]
ProfileName = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")]
Locale = Annotated[str, Field(pattern=r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$", max_length=35)]
TimeZone = Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_+/-]{0,63}$")]
UserAgent = Annotated[str, Field(pattern=r"^[ -~]+$", max_length=512)]


class ProxyOptions(WireModel):
    model_config = ConfigDict(extra="forbid", title="Proxy", json_schema_extra=_no_null_defaults)

    server: ProxyServer = Field(
        title="Proxy server",
        description="The proxy's address: http://host:port, https://host:port or "
        "socks5://host:port.",
    )
    bypass: ProxyBypass | SkipJsonSchema[None] = Field(
        None,
        title="Bypass",
        description="Comma-separated hosts reached directly, e.g. .internal,localhost; "
        "<-loopback> sends loopback through the proxy too.",
    )
    username: str | SkipJsonSchema[None] = Field(
        None, title="Username", description="For a proxy that asks for credentials.", max_length=256
    )
    password: str | SkipJsonSchema[None] = Field(
        None,
        title="Password",
        description="Kept in the data dir readable by you alone; never shown.",
        max_length=256,
        json_schema_extra={"writeOnly": True},
    )


class LaunchOptions(WireModel):
    """What a launched Chromium may be asked to be."""

    model_config = ConfigDict(
        extra="forbid", title="Chromium launch options", json_schema_extra=_no_null_defaults
    )

    headless: bool = Field(
        True,
        title="Headless",
        description="Run without a window; false shows one (needs a display: DISPLAY set).",
    )
    profile: ProfileName | SkipJsonSchema[None] = Field(
        None,
        title="Profile",
        description="Keep cookies, local storage and logins in this named profile under the "
        "data dir, across restarts (the instance is then persistent).",
    )
    viewport: ViewportMode = Field(
        "desktop",
        title="Viewport",
        description="The page size each session starts with: mobile, tablet, desktop, or fill "
        "(follow the window).",
    )
    locale: Locale | SkipJsonSchema[None] = Field(
        None, title="Locale", description="The browser's language and formats, e.g. de-DE."
    )
    timezone: TimeZone | SkipJsonSchema[None] = Field(
        None, title="Time zone", description="An IANA time zone, e.g. Europe/Berlin."
    )
    user_agent: UserAgent | SkipJsonSchema[None] = Field(
        None, title="User agent", description="The User-Agent the browser sends."
    )
    proxy: ProxyOptions | SkipJsonSchema[None] = Field(
        None, title="Proxy", description="Send the browser's traffic through a proxy."
    )
    storage_state: str | SkipJsonSchema[None] = Field(
        None,
        title="Storage state",
        description="A Playwright storage-state file on this machine to start from (cookies "
        "and local storage; a profile takes its cookies, once).",
        max_length=4096,
    )


LAUNCH_SCHEMA: dict[str, Any] = LaunchOptions.model_json_schema(by_alias=True)


class Instance(Protocol):
    """What this module needs of a chromium provider: the provider class is passed in, so
    that this module does not import it."""

    config: ChromiumConfig
    timeouts: Timeouts

    def registration(self) -> dict[str, Any]: ...
    def status(self) -> str: ...
    async def start(self) -> None: ...
    async def retire(self) -> None: ...
    async def profile_context(self) -> BrowserContext | None: ...
    def session_keys(self) -> list[tuple[str | None, str | None]]: ...


def launch_record(base: Instance, make: Callable[..., Instance]) -> dict[str, object]:
    """The ``launch`` of the chromium provider's record; ``make`` builds an instance (the
    provider class)."""
    held: dict[str, str] = {}  # profile name -> the instance that uses it

    def create(
        *, instance_id: str, options: Mapping[str, Any], home: Path, fresh: bool
    ) -> dict[str, object]:
        try:
            chosen = LaunchOptions.model_validate(options)
        except ValidationError as exc:
            problem = exc.errors(include_url=False)[0]
            raise ActionError(f"{problem['loc']}: {problem['msg']}.") from None
        remote = base.config.endpoint is not None
        if remote and (chosen.profile or not chosen.headless or chosen.proxy):
            raise ActionError(
                "The chromium provider uses a remote browser (BROWSERHOST_CHROMIUM_ENDPOINT), "
                "which takes no profile, window or proxy from here; leave those options out."
            )
        if chosen.timezone is not None:
            _check_timezone(chosen.timezone)
        profile_dir: Path | None = None
        if chosen.profile is not None:
            holder = held.get(chosen.profile)
            if holder is not None:
                raise ActionError(
                    f"The profile {chosen.profile!r} is in use by {holder}; one profile is used "
                    f"by one browser at a time. Close it first (browserhost close {holder})."
                )
            profile_dir = home / PROFILES / chosen.profile
            _refuse_links(home, profile_dir.parent, profile_dir)
            profile_dir.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # A restored profile already holds what was imported when it was launched.
        state = None
        if chosen.storage_state is not None and (fresh or profile_dir is None):
            state = _storage_state(chosen.storage_state)
        context_options = {
            name: value
            for name, value in (
                ("locale", chosen.locale),
                ("timezone_id", chosen.timezone),
                ("user_agent", chosen.user_agent),
            )
            if value is not None
        }
        proxy = None if chosen.proxy is None else chosen.proxy.model_dump(exclude_none=True)
        config = replace(
            base.config,
            headless=chosen.headless,
            profile_dir=None if profile_dir is None else str(profile_dir),
            viewport=chosen.viewport,
            proxy=proxy,
            context_options=context_options,
            storage_state=state,
        )
        instance = make(config, timeouts=base.timeouts)
        if chosen.profile is not None:
            held[chosen.profile] = instance_id

        async def close() -> None:
            try:
                await instance.retire()
            finally:
                if chosen.profile is not None and held.get(chosen.profile) == instance_id:
                    del held[chosen.profile]

        name = instance_id.partition(INSTANCE_SEPARATOR)[2]
        return instance.registration() | {
            "name": f"Chromium ({name})",
            "close": close,
            "persistence": "ephemeral" if chosen.profile is None else "persistent",
            "status": instance.status,
            "details": lambda: _details(chosen, state is not None),
            "start": instance.start,
            "operations": operations(instance, chosen.profile, _storage_state),
        }

    return {
        "schema": LAUNCH_SCHEMA,
        "help": LAUNCH_HELP,
        "operations": ["start", "sync_cookies", "references"],
        "create": create,
    }


def _details(chosen: LaunchOptions, imported: bool) -> dict[str, object]:
    """What the instance is, for anyone listing it: never the proxy's credentials."""
    details: dict[str, object] = {"headless": chosen.headless, "viewport": chosen.viewport}
    for name, value in (
        ("profile", chosen.profile),
        ("locale", chosen.locale),
        ("timezone", chosen.timezone),
        ("userAgent", chosen.user_agent),
    ):
        if value is not None:
            details[name] = value
    if chosen.proxy is not None:
        proxy: dict[str, object] = {"server": chosen.proxy.server}
        if chosen.proxy.bypass is not None:
            proxy["bypass"] = chosen.proxy.bypass
        proxy["credentials"] = chosen.proxy.username is not None
        details["proxy"] = proxy
    if imported:
        details["storageStateImported"] = True
    return details


def _check_timezone(name: str) -> None:
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ActionError(
            f"{name!r} is not a time zone this machine knows; use an IANA name such as "
            "Europe/Berlin."
        ) from None


def _refuse_links(*folders: Path) -> None:
    for folder in folders:
        if folder.is_symlink():
            raise ActionError(
                f"{folder} is a symbolic link; a profile is kept only in a real folder under "
                "the data dir, so its logins stay there. Remove the link, or move the folder "
                "it points to in its place."
            )


def _storage_state(path: str) -> dict[str, Any]:
    """The storage state in ``path``, checked for its shape; its contents are never echoed."""
    try:
        # Non-blocking: opening a FIFO for reading would otherwise wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise ActionError(
            f"The storage-state file {path} cannot be read: {exc.strerror}."
        ) from None
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ActionError(f"The storage-state file {path} is not a regular file.")
        try:
            raw = file.read(STORAGE_STATE_MAX_BYTES + 1)
        except OSError as exc:
            raise ActionError(
                f"The storage-state file {path} cannot be read: {exc.strerror}."
            ) from None
    try:
        state = json.loads(raw) if len(raw) <= STORAGE_STATE_MAX_BYTES else None
    except (ValueError, RecursionError):
        state = None
    if (
        not isinstance(state, dict)
        or not isinstance(state.get("cookies", []), list)
        or not isinstance(state.get("origins", []), list)
    ):
        raise ActionError(
            f"{path} is not a Playwright storage-state file ({{cookies, origins}} as JSON, at "
            f"most {STORAGE_STATE_MAX_BYTES // 1_000_000} MB)."
        )
    return {"cookies": state.get("cookies", []), "origins": state.get("origins", [])}


class ProfileShare:
    """A session's share of a profile's one context: its own pages in it, closed with it,
    while the context and its cookies stay. Stands in for a ``BrowserContext`` where a
    :class:`~.contexts.Tab` uses one (new pages, CDP sessions, the browser, closing)."""

    def __init__(self, profile: BrowserContext) -> None:
        self._profile = profile
        self._pages: list[Page] = []

    @classmethod
    def of(cls, profile: BrowserContext) -> BrowserContext:
        # The tab needs only the four members below; typed as what it stands in for.
        return cast("BrowserContext", cls(profile))

    @property
    def browser(self) -> Browser | None:
        return self._profile.browser

    async def new_page(self) -> Page:
        page = await self._profile.new_page()
        self._own(page)
        return page

    async def new_cdp_session(self, page: Page) -> CDPSession:
        return await self._profile.new_cdp_session(page)

    async def close(self) -> None:
        for page in self._pages:
            if not page.is_closed():
                await page.close()
        self._pages.clear()

    def _own(self, page: Page) -> None:
        self._pages.append(page)
        page.on("popup", self._own)  # a window its pages open is the session's too
