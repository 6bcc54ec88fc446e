"""The JSON Schema of ``POST /api/browser-providers/actions``, derived from the contract.

One variant per action, so a client (or a fuzzer) knows which parameters each action takes.
The schema describes exactly what the host accepts, which is more lenient than the parameter
models' types suggest (see :mod:`browserhost.contract.actions`):

- strings are trimmed, and a blank string counts as absent;
- an optional field that is not a string (``null``, ``5``) counts as absent, so it is
  documented as "a string" in its description and constrained only where a string is given;
- a required field must be a string with something besides whitespace in it, unless the
  parameter model lists it in ``may_be_blank``; a model's ``at_least_one`` fields become an
  ``anyOf``;
- a string longer than its model's ``maxLength`` is refused (``maxLength`` constrains only
  strings, so it holds for the optional fields too).

Whitespace is Python's (``str.strip``), spelled out, because JSON Schema regex engines
disagree on what ``\\s`` means.
"""

from __future__ import annotations

from typing import Any

from browserhost.contract import ACTIONS
from browserhost.contract.limits import CALLER_TIMEOUT_MAX_MS, CALLER_TIMEOUT_MIN_MS

_WS = (
    "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f"
    "\\u205f\\u3000"
)
NOT_BLANK = f"[^{_WS}]"

_OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_PORT = "(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})"
_HOST = f"(localhost|({_OCTET}\\.){{3}}{_OCTET}|([A-Za-z0-9]{{1,20}}\\.)+[A-Za-z]{{2,10}})"
_PATH_CHARS = "A-Za-z0-9._~!$&'()*+,;=:@"
URL = (
    f"^[{_WS}]*[Hh][Tt][Tt][Pp][Ss]?://{_HOST}(:{_PORT})?(/[{_PATH_CHARS}-]*)*"
    f"([?][{_PATH_CHARS}/?-]*)?(#[{_PATH_CHARS}/?-]*)?[{_WS}]*$"
)
"""Absolute http(s) URLs of the common forms (a name, localhost or an IPv4 address, a port, a
path, a query). The host accepts more (any URL an RFC 3986 parser reads as http or https); the
pattern is what clients and generated examples can rely on."""


def _one_of(options: list[str]) -> str:
    return f"^[{_WS}]*({'|'.join(options)})[{_WS}]*$"


def _blank_or(options: list[str]) -> str:
    return f"^[{_WS}]*({'|'.join(options)})?[{_WS}]*$"


def _enum(field: dict[str, Any]) -> list[str] | None:
    for option in [field, *field.get("anyOf", [])]:
        if "enum" in option:
            return list(option["enum"])
    return None


def _max_length(field: dict[str, Any]) -> dict[str, Any]:
    for option in [field, *field.get("anyOf", [])]:
        if "maxLength" in option:
            return {"maxLength": option["maxLength"]}
    return {}


def _field(
    field: dict[str, Any], *, required: bool, may_be_blank: bool, url: bool
) -> dict[str, Any]:
    described = {"description": field["description"]} if "description" in field else {}
    described |= _max_length(field)
    options = _enum(field)
    if field.get("type") == "boolean":
        return {**described, "default": field.get("default", False)}  # only `true` counts
    if required:
        if options:
            return {**described, "type": "string", "pattern": _one_of(options)}
        if url:
            return {**described, "type": "string", "pattern": URL}
        if may_be_blank:
            return {**described, "type": "string"}
        return {**described, "type": "string", "pattern": NOT_BLANK}
    if options:
        return {
            **described,
            "anyOf": [
                {"type": "string", "pattern": _blank_or(options)},
                {"not": {"type": "string"}},
            ],
        }
    return described  # a string when given; anything else counts as absent


def parameters_schema(action: str) -> dict[str, Any]:
    """What ``parameters`` may be for ``action``; unknown keys are allowed and dropped."""
    parameters = ACTIONS[action].parameters
    model = parameters.model_json_schema()
    required = list(model.get("required", []))
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            name: _field(
                field,
                required=name in required,
                may_be_blank=name in parameters.may_be_blank,
                url=name == "url",
            )
            for name, field in model.get("properties", {}).items()
        },
    }
    if required:
        schema["required"] = required
    if parameters.at_least_one:
        schema["anyOf"] = [
            {
                "required": [name],
                "properties": {name: {"type": "string", "pattern": NOT_BLANK}},
            }
            for name in parameters.at_least_one
        ]
    return schema


def _needs_parameters(schema: dict[str, Any]) -> bool:
    return "required" in schema or "anyOf" in schema


def action_request_schema(schema: dict[str, Any], _: object = None) -> None:
    """Replace the body model's schema (a pydantic ``json_schema_extra`` hook) in place."""
    common = {
        "context": {
            "description": (
                "Where the action comes from, as an object; null, a missing field or a value "
                "that is not an object is unknown."
            ),
            "properties": {
                "directory": {
                    "description": "The project folder (a string); captures are saved there."
                },
                "sessionId": {"description": "The agent conversation (a string)."},
            },
        },
        "providerId": {
            "type": ["string", "null"],
            "description": "Use this provider for this call only, instead of the selection.",
        },
        "timeoutMs": {
            "type": ["integer", "null"],
            "minimum": CALLER_TIMEOUT_MIN_MS,
            "maximum": CALLER_TIMEOUT_MAX_MS,
            "description": (
                "How long to wait for the answer, in milliseconds, instead of the action's own "
                "wait (45 s for open, 20 s for the rest); the provider gets it as a deadline."
            ),
        },
    }
    variants = []
    for action, spec in ACTIONS.items():
        parameters = parameters_schema(action)
        needed = _needs_parameters(parameters)
        variant: dict[str, Any] = {
            "title": action,
            "description": spec.description,
            "type": "object",
            "properties": {
                "action": {"const": action},
                "parameters": parameters if needed else {**parameters, "type": ["object", "null"]},
                **common,
            },
            "required": ["action", "parameters"] if needed else ["action"],
        }
        variants.append(variant)
    schema.clear()
    schema.update(
        {
            "title": "ActionRequest",
            "description": "One agent action; `parameters` follow the action's own rules.",
            "oneOf": variants,
        }
    )
