"""Verbs beyond the ten: actions a provider contributes by name.

A provider declares each verb it offers: a name, a description written for the agent, a JSON
Schema for its arguments, and whether it changes the page or only reads it. On the wire a
verb travels like any action, under a name in its own namespace so it never collides with the
ten: ``{"action": "verb.press_key", "parameters": {"key": "Escape"}}``. The host checks the
arguments against the declared schema before sending, and every gate, deadline and code is the
same as for the ten actions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import Field, field_validator

from .actions import ACTIONS
from .base import WireModel
from .limits import ACTION_TIMEOUT_S

VERB_PREFIX = "verb."
"""What a verb's wire action name starts with: ``verb.<name>``."""

VERB_NAME_PATTERN = r"^[a-z][a-z0-9_]{0,47}$"
VERB_DESCRIPTION_MAX = 1_000
VERB_TIMEOUT_S = ACTION_TIMEOUT_S
"""How long a verb may take before the host gives up on the answer."""

_name = re.compile(VERB_NAME_PATTERN)
_RESERVED = frozenset(spec.verb for spec in ACTIONS.values()) | {"providers", "call"}


class VerbSpec(WireModel):
    """One verb a provider offers, as it declares it and as callers discover it."""

    name: str = Field(description="snake_case; the wire action is verb.<name>.")
    description: str = Field(description="What it does, for the agent that will call it.")
    input_schema: dict[str, Any] = Field(
        description="JSON Schema (an object schema) of the verb's arguments."
    )
    changes_page: bool = Field(
        True, description="False for a verb that only reads the page (find, list tabs)."
    )

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str) -> str:
        if not _name.fullmatch(value):
            raise ValueError(f"a verb name must match {VERB_NAME_PATTERN}")
        if value in _RESERVED:
            raise ValueError(f"{value!r} is one of the ten actions' names")
        return value

    @field_validator("description")
    @classmethod
    def _check_description(cls, value: str) -> str:
        value = value.strip()
        if not 0 < len(value) <= VERB_DESCRIPTION_MAX:
            raise ValueError(f"a description must be 1..{VERB_DESCRIPTION_MAX} characters")
        return value

    @field_validator("input_schema")
    @classmethod
    def _check_schema(cls, value: dict[str, Any]) -> dict[str, Any]:
        if value.get("type") != "object":
            raise ValueError('input_schema must be an object schema ({"type": "object", ...})')
        return value

    @property
    def action(self) -> str:
        """The wire action name: ``verb.<name>``."""
        return VERB_PREFIX + self.name


def verb_name(action: object) -> str | None:
    """The verb an action name asks for (``verb.find`` -> ``find``), else ``None``."""
    if isinstance(action, str) and action.startswith(VERB_PREFIX):
        return action.removeprefix(VERB_PREFIX)
    return None


def read_arguments(raw: object) -> Mapping[str, Any] | None:
    """A verb's arguments: an object, or nothing (``{}``); ``None`` for anything else."""
    if raw is None:
        return {}
    return raw if isinstance(raw, Mapping) else None
