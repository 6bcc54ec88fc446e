"""What crosses between the host and a provider: the request envelope and the answer.

The host posts ``{requestId, action, parameters, context}`` (``action`` is one of the ten, or
``verb.<name>`` for a verb the provider declared); a provider answers
``{ok: true, data: {...}}`` or ``{ok: false, error: "..."}``. Anything else is not a browser
result, and the host reports the page state as unknown.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ConfigDict, Field, field_validator

from .actions import ACTIONS, ActionName, Parameters
from .base import WireModel
from .limits import ERROR_TEXT_MAX
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

    def to_wire(self) -> dict[str, Any]:
        parameters = self.parameters
        return {
            "requestId": self.request_id,
            "action": self.action,
            "parameters": (
                parameters.to_wire() if isinstance(parameters, Parameters) else dict(parameters)
            ),
            "context": self.context.to_wire(),
        }

    @classmethod
    def from_wire(cls, body: str | bytes) -> ProviderRequest | None:
        """Provider-side read of the host's post; ``None`` is not a browser action (answer 400).

        The host validated the parameters before sending; they are read again here so a
        provider works with typed models.
        """
        try:
            wire = json.loads(body)
        except ValueError:
            return None
        if not isinstance(wire, dict):
            return None
        request_id, action = wire.get("requestId"), wire.get("action")
        parameters = wire.get("parameters")
        if not isinstance(request_id, str) or not request_id:
            return None
        if verb_name(action) is not None and isinstance(parameters, dict):
            return cls(request_id, str(action), parameters, Context.read(wire.get("context")))
        spec = ACTIONS.get(action) if isinstance(action, str) else None
        if spec is None or not isinstance(parameters, dict):
            return None
        try:
            model = spec.parameters.model_validate(parameters)
        except ValueError:
            return None
        return cls(request_id, spec.name, model, Context.read(wire.get("context")))


@dataclass(frozen=True)
class Success:
    data: dict[str, Any]
    ok: bool = True


@dataclass(frozen=True)
class Refusal:
    error: str
    ok: bool = False


Result = Success | Refusal


@dataclass(frozen=True)
class Outcome:
    """An action's answer as the host gives it back: who answered, and the ``data`` as the
    provider gave it (a capture's saved ``path`` added)."""

    provider_id: str
    data: dict[str, Any]

    def to_wire(self) -> dict[str, object]:
        return {"ok": True, "providerId": self.provider_id, "data": self.data}


def parse_result(value: object) -> Result | None:
    """Host-side read of a provider answer. ``None`` means it is not a browser result."""
    if not isinstance(value, dict):
        return None
    ok = value.get("ok")
    if ok is True:
        answer = value.get("data")
        return Success(answer) if isinstance(answer, dict) else None
    if ok is False:
        error = value.get("error")
        if isinstance(error, str) and 0 < len(error) <= ERROR_TEXT_MAX:
            return Refusal(error)
    return None
