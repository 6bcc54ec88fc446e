"""An action's answer as the host gives it back. Plain data: a client reads it without a model."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

JsonValue = Any
"""An answer's ``data``: an object for the ten actions, any JSON value for a verb."""


@dataclass(frozen=True)
class Outcome:
    """An action's answer as the host gives it back: who answered, and the ``data`` as the
    provider gave it (a capture's saved ``path`` added)."""

    provider_id: str
    data: JsonValue
    session: Mapping[str, object] | None = None
    """For an action routed to an instance: its routing and control state (001's
    ``session``), never its data."""

    def to_wire(self) -> dict[str, object]:
        wire = {"ok": True, "providerId": self.provider_id, "data": self.data}
        return wire if self.session is None else wire | {"session": dict(self.session)}
