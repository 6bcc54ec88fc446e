"""The catalog record of a provider, typed: what the SDK builds and the host's catalog reads.

A record arrives as a mapping (an entry point returns one; see :mod:`browserhost.host.catalog`
for every key) and is read into these models::

    ProviderRecord      id, name, provides, actions, verbs, answer, close, capacity, checks,
      ├── PanelRecord   surface, service, endpoint, token, enabled, launch, ...
      ├── LaunchRecord
      └── ConfigurationRecord

A record that does not fit is refused with :class:`InstallError`, whose message names the field
(``panel.dock must be one of top, bottom, left, right``): :func:`read` turns pydantic's first
complaint into one. What needs more than the record to check (an endpoint that must be
loopback, a panel file to read, a verb's JSON Schema) is the catalog's.
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
)
from pydantic import ValidationInfo as Info

from .actions import ACTIONS
from .checks import Checks
from .lifecycle import OPTIONAL_OPERATIONS
from .limits import PROTOCOL_VERSION, PROVIDER_ID_PATTERN, PROVIDER_NAME_MAX, VERBS_MAX
from .surface import Surface
from .verbs import VerbSpec
from .wire import ProtocolVersionError, check_version

ROLE: Final = "browser"
PROVIDES_ORDER: Final = "service.provides, then provides, then contributes.service.provides"
DOCKS: Final = ("top", "bottom", "left", "right")
PANEL_SIZE_MIN: Final = 24
PANEL_SIZE_MAX: Final = 480
PANEL_SIZE_DEFAULT: Final = 40
SERVICE_ENTRY_RULE: Final = (
    "panel.entry must be a path on the provider service, such as /surface/panel (letters, "
    "digits and . _ ~ - between slashes, no query)"
)
PANEL_REQUESTS_RULE: Final = (
    "panel.requests must be a path prefix on the provider service ending in /, such as /panel/ "
    "(letters, digits and . _ ~ - between slashes; not /surface/ nor /browser-control, the "
    "host's own calls)"
)
_id_pattern = re.compile(PROVIDER_ID_PATTERN)
_prefix_pattern = re.compile(r"(/[A-Za-z0-9._~-]+)+/")
_web_url = re.compile(r"https?://[^\s]+")

Dock = Literal["top", "bottom", "left", "right"]
Handler = Callable[..., Awaitable[Any]]


class InstallError(ValueError):
    """A record the catalog will not list; the message says why."""


class _Record(BaseModel):
    # Records hold live objects (handlers, a Surface), and unknown keys are another
    # version's: ignored, as a newer record read by an older host.
    model_config = ConfigDict(arbitrary_types_allowed=True, extra="ignore", frozen=True)


class PanelRecord(_Record):
    """A page of the provider's own docked to one edge of its surface's picture."""

    entry: str | os.PathLike[str] | None = None
    """In process, the path of one self-contained .html file; a service, a path on it."""
    dock: Dock = "top"
    size: int = PANEL_SIZE_DEFAULT
    """The page's thickness across its edge, in CSS pixels."""
    requests: str | None = None
    """A provider service's path prefix (``/panel/``) the page may send requests to through
    the viewer; none when unset."""

    @field_validator("dock", mode="before")
    @classmethod
    def _dock(cls, dock: object) -> object:
        if dock not in DOCKS:
            raise InstallError(f"panel.dock must be one of {', '.join(DOCKS)}")
        return dock

    @field_validator("size", mode="before")
    @classmethod
    def _size(cls, size: object) -> int:
        if isinstance(size, bool) or not isinstance(size, int):
            raise InstallError("panel.size must be a whole number of CSS pixels")
        if not PANEL_SIZE_MIN <= size <= PANEL_SIZE_MAX:
            raise InstallError(f"panel.size must be from {PANEL_SIZE_MIN} to {PANEL_SIZE_MAX}")
        return size

    @field_validator("requests", mode="before")
    @classmethod
    def _requests(cls, prefix: object) -> object:
        if prefix is None:
            return None
        if (
            not isinstance(prefix, str)
            or not _prefix_pattern.fullmatch(prefix)
            or {".", ".."} & set(prefix.split("/"))
            or prefix.startswith(("/surface/", "/browser-control"))
        ):
            raise InstallError(PANEL_REQUESTS_RULE)
        return prefix

    @property
    def placed(self) -> bool:
        """The record says where the panel goes (which needs a surface and an entry)."""
        return bool({"dock", "size"} & self.model_fields_set)

    def to_record(self) -> dict[str, object]:
        return self.model_dump(exclude_unset=True, mode="python")


class LaunchRecord(_Record):
    """How a provider launches instances, for a record of any kind. In process,
    ``create(instance_id=..., options=..., home=..., fresh=...)`` gets options checked against
    ``options_schema``; a provider service is sent them (:mod:`.lifecycle`)."""

    options_schema: Mapping[str, Any] = Field(
        default={"type": "object"}, validation_alias=AliasChoices("schema", "inputSchema")
    )
    help: str = ""
    documentation_url: str | None = Field(default=None, alias="documentationUrl")
    operations: tuple[str, ...] = ()
    """What its instances may offer beside ``close``: start, detach, sync_cookies, references."""
    create: Callable[..., Mapping[str, Any]] | None = None

    @field_validator("options_schema", "help", mode="before")
    @classmethod
    def _kind(cls, value: object, info: Info) -> object:
        kind, refused = {
            "options_schema": (Mapping, 'launch.schema must describe an object ("type": "object")'),
            "help": (str, "launch.help must be text"),
        }[info.field_name or ""]
        if not isinstance(value, kind):
            raise InstallError(refused)
        return value

    @field_validator("documentation_url", mode="before")
    @classmethod
    def _documentation(cls, url: object) -> object:
        if url is not None and not (isinstance(url, str) and _web_url.fullmatch(url)):
            raise InstallError("launch.documentationUrl must be an http(s) URL")
        return url

    @field_validator("operations", mode="before")
    @classmethod
    def _operations(cls, declared: object) -> tuple[str, ...]:
        if not isinstance(declared, list | tuple) or any(
            operation not in OPTIONAL_OPERATIONS for operation in declared
        ):
            raise InstallError(
                f"launch.operations must list some of {', '.join(OPTIONAL_OPERATIONS)}"
            )
        return tuple(dict.fromkeys(declared))


class ConfigurationRecord(_Record):
    """The provider's own settings, changed with ``configure``: options checked against
    ``input_schema``, then given to ``configure`` in process or sent to a service."""

    input_schema: Mapping[str, Any] = Field(alias="inputSchema")
    configure: Callable[..., Awaitable[Any]] | None = None


_WITH_HOOK: dict[str, tuple[type[_Record], str, str]] = {
    "launch": (LaunchRecord, '{"schema", "help", "operations", ...}', "create"),
    "configuration": (ConfigurationRecord, '{"inputSchema": {...}}', "configure"),
}
"""A record's parts that hold a callable in process: their model, their shape, the callable."""


class ProviderRecord(_Record):
    """One provider's record; the fields are checked in this order, the first refusal wins."""

    enabled: bool = True
    provides: tuple[str, ...] | None = None
    # Checked when missing too (validate_default), so the refusal says what to write.
    id: str = Field(default=None, validate_default=True)
    protocol_version: int = Field(default=PROTOCOL_VERSION, alias="protocolVersion")
    """The provider protocol the provider was made for. A record without it (one written
    before the field) is read as this host's version; one naming another is refused."""
    name: str | None = None
    """Shown to people; the id when unset."""
    actions: frozenset[str] = Field(default=None, validate_default=True)
    """Every action the provider implements: an explicit list, never a default, so a provider
    is never offered an action added after it was written."""
    verbs: tuple[VerbSpec, ...] = ()
    answer: Handler | None = None
    close: Callable[[], Awaitable[None]] | None = None
    capacity: Callable[[], Awaitable[Any]] | None = None
    checks: Checks | None = None
    """What ``browserhost doctor`` runs for this provider (:mod:`.checks`)."""
    state: Callable[[], str] | None = None
    """What the browser it starts on this machine is doing now: ``stopped``, ``starting``,
    ``running`` or ``failed``; shown in the providers listing, so a caller can tell a first
    action that waits for a browser from a slow page."""
    service: Mapping[str, Any] | None = None
    endpoint: object = None
    """Read only when the record has neither an answer handler nor a service."""
    token: object = None
    surface: Surface | bool | None = None
    panel: PanelRecord | None = None
    launch: LaunchRecord | None = None
    configuration: ConfigurationRecord | None = None

    @field_validator("provides", mode="before")
    @classmethod
    def _provides(cls, roles: object) -> tuple[str, ...] | None:
        # Only a list declares (check_roles); an entry that is not text names no role.
        if not isinstance(roles, list | tuple):
            return None
        return tuple(role for role in roles if isinstance(role, str))

    @field_validator("enabled", mode="before")
    @classmethod
    def _enabled(cls, enabled: object) -> object:
        if enabled is False:
            raise InstallError("the provider is disabled")
        return enabled

    @field_validator("id", mode="before")
    @classmethod
    def _id(cls, provider_id: object) -> str:
        if not isinstance(provider_id, str) or not _id_pattern.fullmatch(provider_id):
            raise InstallError(f"id must match {PROVIDER_ID_PATTERN}")
        return provider_id

    @field_validator("protocol_version", mode="before")
    @classmethod
    def _protocol_version(cls, version: object) -> int:
        try:
            check_version(version, "the record declares", "this host")
        except ProtocolVersionError as exc:
            raise InstallError(str(exc)) from None
        return PROTOCOL_VERSION

    @field_validator("name", mode="before")
    @classmethod
    def _name(cls, name: object) -> str | None:
        if not isinstance(name, str):
            return None  # lenient since the first records: the id is shown instead
        name = name.strip()
        if not name or len(name) > PROVIDER_NAME_MAX:
            raise InstallError(f"name must be 1..{PROVIDER_NAME_MAX} characters")
        return name

    @field_validator("actions", mode="before")
    @classmethod
    def _actions(cls, declared: object) -> frozenset[str]:
        return read_actions(declared)

    @field_validator("verbs", mode="before")
    @classmethod
    def _verbs(cls, declared: object) -> tuple[VerbSpec, ...]:
        return read_verb_specs(declared)

    @field_validator("answer", "close", mode="before")
    @classmethod
    def _handler(cls, handler: object) -> object:
        # Lenient since the first records: a record without one answers some other way.
        return handler if callable(handler) else None

    @field_validator("capacity", "checks", mode="before")
    @classmethod
    def _in_process(cls, hook: object, info: Info) -> object:
        if hook is not None and not (callable(hook) and info.data.get("answer") is not None):
            raise InstallError(
                f"{info.field_name} must be an async callable of an in-process provider"
            )
        return hook

    @field_validator("state", mode="before")
    @classmethod
    def _state(cls, state: object, info: Info) -> object:
        if state is not None and not (callable(state) and info.data.get("answer") is not None):
            raise InstallError("state must be a callable of an in-process provider")
        return state

    @field_validator("service", mode="before")
    @classmethod
    def _service(cls, service: object) -> object:
        declares = isinstance(service, Mapping) and ("python" in service or "command" in service)
        return service if declares else None

    @field_validator("surface", mode="before")
    @classmethod
    def _surface(cls, surface: object, info: Info) -> object:
        if info.data.get("answer") is not None:
            if surface not in (None, False) and not isinstance(surface, Surface):
                raise InstallError(
                    "surface must be a browserhost.sdk.Surface object for an in-process provider"
                )
        elif surface not in (None, False, True):
            raise InstallError("surface must be true or false for a provider service")
        return surface

    @field_validator("panel", mode="before")
    @classmethod
    def _panel(cls, panel: object, info: Info) -> object:
        if panel is not None and not isinstance(panel, Mapping | PanelRecord):
            raise InstallError('panel must be an object: {"entry", "dock", "size"}')
        declared = dict(panel) if isinstance(panel, Mapping) else {}
        in_process = info.data.get("answer") is not None
        entry = declared.get("entry")
        if entry is not None and not isinstance(entry, str | os.PathLike if in_process else str):
            raise InstallError(
                "panel.entry must be the path of an .html file"
                if in_process
                else SERVICE_ENTRY_RULE
            )
        if in_process and declared.get("requests") is not None:
            raise InstallError(
                "panel.requests is for a provider service: an in-process provider has no "
                "service for its page to ask; leave it out"
            )
        surface = info.data.get("surface") not in (None, False)
        for name in ("dock", "size"):
            if name in declared and not (surface and declared.get("entry") is not None):
                raise InstallError(
                    f"panel.{name} places a panel beside a surface; it needs both a surface "
                    "and a panel.entry"
                )
        return panel

    @field_validator("launch", "configuration", mode="before")
    @classmethod
    def _declared_with_hook(cls, declared: object, info: Info) -> object:
        # Both hold a callable for an in-process provider (create, configure); a provider
        # service is sent the launch or the configuration instead, so it gives none.
        name = info.field_name or ""
        model, shape, hook = _WITH_HOOK[name]
        if declared is None or isinstance(declared, model):
            return declared
        if not isinstance(declared, Mapping) or (
            name == "configuration" and not isinstance(declared.get("inputSchema"), Mapping)
        ):
            raise InstallError(f"{name} must be an object: {shape}")
        in_process = info.data.get("answer") is not None
        if in_process != callable(declared.get(hook)):
            raise InstallError(
                f"{name}.{hook} is a callable of an in-process provider, and only of one: a "
                f"provider service is sent the {name} instead (leave {hook} out)"
            )
        return declared

    @property
    def shown_name(self) -> str:
        return self.name or self.id

    @property
    def declares_service(self) -> bool:
        return self.service is not None

    def to_record(self) -> dict[str, Any]:
        """The record as a mapping, as an entry point returns it (what was set, no more)."""
        record: dict[str, Any] = {name: getattr(self, name) for name in self.model_fields_set}
        record["actions"] = sorted(self.actions)
        record["verbs"] = [verb.to_wire() for verb in self.verbs]
        if "protocol_version" in record:
            record["protocolVersion"] = record.pop("protocol_version")
        if self.provides is not None:
            record["provides"] = list(self.provides)
        if self.panel is not None:
            record["panel"] = self.panel.to_record()
        return record


def read(record: Mapping[str, Any] | ProviderRecord) -> ProviderRecord:
    """``record`` as a :class:`ProviderRecord`, or :class:`InstallError` naming the field."""
    if isinstance(record, ProviderRecord):
        return record
    if not isinstance(record, Mapping):
        raise InstallError("a provider record must be a mapping (a dict) of its fields")
    check_roles(record)
    try:
        return ProviderRecord.model_validate(record)
    except ValidationError as exc:
        raise refusal(exc) from None


def refusal(error: ValidationError) -> InstallError:
    """The first thing pydantic found wrong, as a refusal that names the field."""
    problem = error.errors(include_url=False)[0]
    said = problem.get("ctx", {}).get("error")
    if isinstance(said, InstallError):
        return said
    where = ".".join(str(part) for part in problem["loc"]) or "the record"
    return InstallError(f"{where}: {problem['msg']}")


def check_roles(record: Mapping[str, Any]) -> None:
    """Refuse a record that does not declare the browser role.

    The declaration is the first ``provides`` that is a list, looked for in
    ``service.provides``, ``provides``, ``contributes.service.provides``: it must contain
    ``"browser"``, beside any other roles. A later list never overrides an earlier one, so a
    service that says what it provides is not made a browser by a looser field.
    """
    if record.get("enabled") is False:  # said first: nothing else matters of it
        raise InstallError("the provider is disabled")
    where, roles = _first_provides(record)
    if roles is None:
        raise InstallError(
            f'the record does not declare provides: ["browser"] (a list, read from '
            f"{PROVIDES_ORDER})"
        )
    if ROLE not in roles:
        raise InstallError(
            f'{where} does not list "browser", so the record is not a browser provider; add '
            f"it there: the first provides list decides ({PROVIDES_ORDER})"
        )


def _first_provides(record: Mapping[str, Any]) -> tuple[str, list[object] | None]:
    service = record.get("service")
    contributes = record.get("contributes")
    nested = contributes.get("service") if isinstance(contributes, Mapping) else None
    for where, holder in (
        ("service.provides", service),
        ("provides", record),
        ("contributes.service.provides", nested),
    ):
        roles = holder.get("provides") if isinstance(holder, Mapping) else None
        if isinstance(roles, list | tuple):
            return where, list(roles)
    return "provides", None


def read_actions(declared: object) -> frozenset[str]:
    """The actions a record says its provider implements."""
    if declared is None:
        raise InstallError(
            "actions must list the browser actions the provider implements, such as "
            '["browser.open", "browser.snapshot"]; there is no default'
        )
    if not isinstance(declared, list | tuple | set | frozenset):
        raise InstallError("actions must be a list of browser action names")
    listed: set[str] = set()
    for action in declared:
        if action not in ACTIONS:
            raise InstallError(
                f"actions lists {action!r}, which is not a browser action; choose from "
                f"{', '.join(ACTIONS)}"
            )
        if action in listed:
            raise InstallError(f"actions lists {action!r} twice")
        listed.add(action)
    return frozenset(listed)


def read_verb_specs(declared: object) -> tuple[VerbSpec, ...]:
    """The verbs a record declares; a malformed one refuses the whole record, so a provider
    never runs with half of what it meant to offer."""
    if not isinstance(declared, list | tuple):
        raise InstallError("verbs must be a list of verb declarations")
    if len(declared) > VERBS_MAX:
        raise InstallError(
            f"{len(declared)} verbs are declared; a provider may declare at most {VERBS_MAX}"
        )
    verbs: dict[str, VerbSpec] = {}
    for raw in declared:
        where = raw.get("name") if isinstance(raw, Mapping) else raw
        try:
            verb = raw if isinstance(raw, VerbSpec) else VerbSpec.model_validate(raw)
        except ValidationError as exc:
            problem = exc.errors(include_url=False)[0]["msg"].removeprefix("Value error, ")
            raise InstallError(f"verb {where!r} is not a valid declaration: {problem}") from None
        if verb.name in verbs:
            raise InstallError(f"verb {verb.name!r} is declared twice")
        verbs[verb.name] = verb
    return tuple(verbs.values())
