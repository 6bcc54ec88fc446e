"""The catalog record of a provider, typed: what the SDK builds and the host's catalog reads.

A record arrives as a mapping (an entry point returns one; see :mod:`browserhost.host.catalog`
for every key) and is read into these models::

    ProviderRecord      id, name, provides, actions, verbs, answer, close, capacity, checks,
      ├── PanelRecord   surface, service, endpoint, token, enabled, launch, ...
      └── LaunchRecord

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

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic import ValidationInfo as Info

from .actions import ACTIONS
from .checks import Checks
from .limits import PROVIDER_ID_PATTERN, PROVIDER_NAME_MAX, VERBS_MAX
from .surface import Surface
from .verbs import VerbSpec

ROLE: Final = "browser"
DOCKS: Final = ("top", "bottom", "left", "right")
PANEL_SIZE_MIN: Final = 24
PANEL_SIZE_MAX: Final = 480
PANEL_SIZE_DEFAULT: Final = 40
SERVICE_ENTRY_RULE: Final = (
    "panel.entry must be a path on the provider service, such as /surface/panel (letters, "
    "digits and . _ ~ - between slashes, no query)"
)
_id_pattern = re.compile(PROVIDER_ID_PATTERN)

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

    @property
    def placed(self) -> bool:
        """The record says where the panel goes (which needs a surface and an entry)."""
        return bool({"dock", "size"} & self.model_fields_set)

    def to_record(self) -> dict[str, object]:
        return self.model_dump(exclude_unset=True, mode="python")


class LaunchRecord(_Record):
    """How an in-process provider launches instances: ``create(instance_id=..., options=...,
    home=..., fresh=...)`` gets options checked against ``options_schema``."""

    options_schema: Mapping[str, Any] = Field(default={"type": "object"}, alias="schema")
    help: str = ""
    create: Callable[..., Mapping[str, Any]]

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


class ProviderRecord(_Record):
    """One provider's record; the fields are checked in this order, the first refusal wins."""

    enabled: bool = True
    provides: tuple[str, ...] | None = None
    # Checked when missing too (validate_default), so the refusal says what to write.
    id: str = Field(default=None, validate_default=True)
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
        surface = info.data.get("surface") not in (None, False)
        for name in ("dock", "size"):
            if name in declared and not (surface and declared.get("entry") is not None):
                raise InstallError(
                    f"panel.{name} places a panel beside a surface; it needs both a surface "
                    "and a panel.entry"
                )
        return panel

    @field_validator("launch", mode="before")
    @classmethod
    def _launch(cls, launch: object, info: Info) -> object:
        if launch is None:
            return None
        if info.data.get("answer") is None:
            raise InstallError("launch is for an in-process provider (one with an answer handler)")
        if not isinstance(launch, Mapping) or not callable(launch.get("create")):
            raise InstallError('launch must be an object: {"schema", "help", "create"}')
        return launch

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
    """Refuse a record unless every ``provides`` it declares is exactly ``["browser"]``."""
    if record.get("enabled") is False:  # said first: nothing else matters of it
        raise InstallError("the provider is disabled")
    service = record.get("service")
    contributes = record.get("contributes")
    nested = contributes.get("service") if isinstance(contributes, Mapping) else None
    declared = [
        (where, holder["provides"])
        for where, holder in (
            ("service.provides", service),
            ("provides", record),
            ("contributes.service.provides", nested),
        )
        if isinstance(holder, Mapping) and "provides" in holder
    ]
    if not declared:
        raise InstallError('the record does not declare provides: ["browser"]')
    for where, roles in declared:
        if not isinstance(roles, list) or not roles:
            raise InstallError(f'{where} must be exactly ["browser"]')
        for role in roles:
            if role != ROLE:
                raise InstallError(
                    f"{where} names the role {role!r}, which browserhost does not know; it "
                    'must be exactly ["browser"]'
                )
        if len(roles) > 1:
            raise InstallError(f'{where} lists "browser" {len(roles)} times; list it once')


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
