"""What crosses between the host and a provider: the request envelope and the answer.

The host posts ``{protocolVersion, requestId, action, parameters, context, deadline}``
(``action`` is one of the ten, or ``verb.<name>`` for a verb the provider declared;
``deadline`` is when the host stops waiting for the answer, in milliseconds since the epoch);
a provider answers
``{ok: true, data: ...}`` or ``{ok: false, error: "..."}``. The ten answer an object (their
model in :mod:`.data`); a verb answers any JSON value (a number, a list). Anything else is not
a browser result, and the host reports the page state as unknown.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ConfigDict, Field, field_validator

from .actions import ACTIONS, Parameters
from .base import WireModel
from .limits import ERROR_TEXT_MAX, PROTOCOL_VERSION
from .outcome import JsonValue
from .outcome import Outcome as Outcome  # re-exported: the answer beside the request
from .outline import ActionName
from .verbs import verb_name


class Context(WireModel):
    """Where an action comes from. The host fills it; the model never types it.

    Either field is ``None`` when unknown, which is not a scope of its own.
    """

    model_config = ConfigDict(frozen=True)

    directory: str | None = Field(None, description="The project the agent works in.")
    session_id: str | None = Field(None, description="The agent conversation the action is for.")

    @field_validator("directory", "session_id", mode="before")
    @classmethod
    def _blank_is_unknown(cls, value: object) -> str | None:
        return value if isinstance(value, str) and value else None

    @classmethod
    def read(cls, value: object) -> Context:
        """Lenient read: anything that is not an object, or a field that is not a non-empty
        string, counts as unknown."""
        return cls.model_validate(value if isinstance(value, dict) else {})

    @property
    def key(self) -> tuple[str | None, str | None]:
        return (self.directory, self.session_id)

    def to_wire(self) -> dict[str, object]:
        return {"directory": self.directory, "sessionId": self.session_id}


@dataclass(frozen=True)
class ProviderRequest:
    """One action as a provider receives it: one of the ten with its validated parameters
    model, or a provider verb (``verb.<name>``) with its arguments as sent."""

    request_id: str
    action: ActionName | str
    parameters: Parameters | Mapping[str, Any]
    context: Context
    browser_id: str | None = None
    """The instance a provider service launched that the action is for (its host id,
    ``provider~name``); ``None`` for the provider itself."""
    deadline_ms: int | None = None
    """When the host stops waiting for the answer, in milliseconds since the epoch; a
    provider bounds its own waits by it (:meth:`seconds_left`)."""

    def seconds_left(self, default_s: float) -> float:
        """The time until :attr:`deadline_ms` (never below zero), or ``default_s`` when the
        request carries no deadline."""
        if self.deadline_ms is None:
            return default_s
        return max(0.0, self.deadline_ms / 1000 - time.time())

    def to_wire(self) -> dict[str, Any]:
        parameters = self.parameters
        wire = {
            "protocolVersion": PROTOCOL_VERSION,
            "requestId": self.request_id,
            "action": self.action,
            "parameters": (
                parameters.to_wire() if isinstance(parameters, Parameters) else dict(parameters)
            ),
            "context": self.context.to_wire(),
        }
        if self.deadline_ms is not None:
            wire["deadline"] = self.deadline_ms
        return wire if self.browser_id is None else wire | {"browserId": self.browser_id}

    @classmethod
    def from_wire(cls, body: str | bytes) -> ProviderRequest | None:
        """Provider-side read of the host's post; ``None`` is not a browser action (answer 400).

        The host validated the parameters before sending; they are read again here so a
        provider works with typed models. An envelope without ``protocolVersion`` (from a
        host older than the field) is read as this version; one naming another version is
        refused with :class:`ProtocolVersionError` before anything runs.
        """
        try:
            wire = json.loads(body)
        except ValueError:
            return None
        if not isinstance(wire, dict):
            return None
        check_version(
            wire.get("protocolVersion", PROTOCOL_VERSION), "the host sent", "this provider"
        )
        request_id, action = wire.get("requestId"), wire.get("action")
        parameters = wire.get("parameters")
        if not isinstance(request_id, str) or not request_id:
            return None
        browser_id = wire.get("browserId")
        browser_id = browser_id if isinstance(browser_id, str) and browser_id else None
        context = Context.read(wire.get("context"))
        deadline = wire.get("deadline")
        deadline_ms = deadline if type(deadline) is int and deadline > 0 else None
        if verb_name(action) is not None and isinstance(parameters, dict):
            return cls(request_id, str(action), parameters, context, browser_id, deadline_ms)
        spec = ACTIONS.get(action) if isinstance(action, str) else None
        if spec is None or not isinstance(parameters, dict):
            return None
        try:
            model = spec.parameters.model_validate(parameters)
        except ValueError:
            return None
        return cls(request_id, spec.name, model, context, browser_id, deadline_ms)


class ProtocolVersionError(ValueError):
    """Two sides of the provider protocol speak different versions; nothing was sent or run.
    The message names both."""


def check_version(version: object, said_by: str, reader: str) -> None:
    """Refuse a ``protocolVersion`` other than :data:`PROTOCOL_VERSION`: ``said_by`` names
    who declared it (``"the record declares"``), ``reader`` who reads it (``"this host"``)."""
    if version != PROTOCOL_VERSION or isinstance(version, bool):
        raise ProtocolVersionError(
            f"{said_by} provider protocol version {version!r} and {reader} speaks version "
            f"{PROTOCOL_VERSION}; install versions of browserhost and the provider made for "
            "the same protocol, and restart them"
        )


@dataclass(frozen=True)
class ServiceHello:
    """What a provider service answers ``GET /browser-control`` with once it is ready: the
    protocol version it speaks, the actions it implements, whether it has a surface. The host
    sends nothing to a service before it has read one of its own version."""

    protocol_version: int
    actions: frozenset[str]
    surface: bool

    def to_wire(self) -> dict[str, object]:
        return {
            "protocolVersion": self.protocol_version,
            "actions": sorted(self.actions),
            "surface": self.surface,
        }

    @classmethod
    def read(cls, body: bytes) -> ServiceHello | None:
        """The hello in ``body``; ``None`` when it is not one."""
        try:
            wire = json.loads(body)
            version, actions, surface = wire["protocolVersion"], wire["actions"], wire["surface"]
        except (ValueError, TypeError, KeyError, RecursionError):
            return None
        if (
            isinstance(version, bool)
            or not isinstance(version, int)
            or not isinstance(actions, list)
            or not all(isinstance(action, str) for action in actions)
            or not isinstance(surface, bool)
        ):
            return None
        return cls(version, frozenset(actions), surface)


@dataclass(frozen=True)
class Success:
    data: JsonValue
    ok: bool = True


@dataclass(frozen=True)
class Refusal:
    error: str
    ok: bool = False


Result = Success | Refusal


def parse_result(value: object) -> Result | None:
    """Host-side read of a provider answer. ``None`` means it is not a browser result."""
    if not isinstance(value, dict):
        return None
    ok = value.get("ok")
    if ok is True:
        # Any JSON value: the transports have read it as JSON, within ANSWER_MAX_BYTES.
        return Success(value["data"]) if "data" in value else None
    if ok is False:
        error = value.get("error")
        if isinstance(error, str) and 0 < len(error) <= ERROR_TEXT_MAX:
            return Refusal(error)
    return None
