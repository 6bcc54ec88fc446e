"""Reading the JSON Schemas records and verbs declare: a property's own schema, references
followed. Shared by the host, which checks values against them, the command line, which
types ``KEY=VALUE`` pairs by them, and MCP, which lists them to models (:func:`plain`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def resolve(root: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    """``node`` with a local ``$ref`` (``#/$defs/Proxy``) followed, and a nullable ``anyOf``
    reduced to its one other branch."""
    for _ in range(8):
        followed = _followed(root, node)
        if followed is node:
            return node
        node = followed
    return node


def _followed(root: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    """One step of :func:`resolve`: ``node`` itself when there is none to take."""
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/"):
        target: Any = root
        for part in reference[2:].split("/"):
            target = target.get(part, {}) if isinstance(target, Mapping) else {}
        return {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    branches = [b for b in node.get("anyOf", []) if b.get("type") != "null"]
    if len(branches) == 1 and "properties" not in node:
        return {**branches[0], **{k: v for k, v in node.items() if k != "anyOf"}}
    return node


PLAIN_DEPTH_MAX = 32
"""How many schemas deep :func:`plain` reads; no tool's arguments nest so far."""

_SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions")
_SUBSCHEMAS = ("items", "additionalProperties", "not", "contains", "propertyNames")
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")


def plain(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` as every model's tool interface reads it: self-contained, with no ``$ref``
    or ``$defs`` (Gemini's API, several MCP clients and tool-calling frameworks fail on
    them), an optional value not also ``null`` (absent says that), and no ``title`` (the
    property's name is its title). It accepts no more than ``schema`` does, so a call made
    by it is still checked against the schema as declared. A reference met again inside
    its own expansion (a recursive model), or a part more than :data:`PLAIN_DEPTH_MAX`
    schemas deep (a provider's schema is the far side's to write), is left open: ``{}``
    with its description."""

    def walk(node: Any, expanding: frozenset[str], depth: int = 0) -> Any:
        if not isinstance(node, Mapping):
            return node
        if depth > PLAIN_DEPTH_MAX:
            described = node.get("description")
            return {"description": described} if isinstance(described, str) else {}
        for _ in range(8):
            reference = node.get("$ref")
            if isinstance(reference, str):
                if reference in expanding:
                    described = resolve(schema, node).get("description")
                    return {"description": described} if described else {}
                expanding |= {reference}
            followed = _followed(schema, node)
            if followed is node:
                break
            node = followed
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in ("title", "$ref", "$defs", "definitions") or (
                key == "default" and value is None
            ):
                continue
            if key in _SUBSCHEMA_MAPS and isinstance(value, Mapping):
                value = {name: walk(sub, expanding, depth + 1) for name, sub in value.items()}
            elif key in _SUBSCHEMAS:
                value = walk(value, expanding, depth + 1)
            elif key in _SUBSCHEMA_LISTS and isinstance(value, list):
                value = [walk(sub, expanding, depth + 1) for sub in value]
                if key in ("anyOf", "oneOf"):
                    value = [sub for sub in value if sub.get("type") != "null"] or value
            elif key == "type" and isinstance(value, list):
                value = [name for name in value if name != "null"] or value
                value = value[0] if len(value) == 1 else value
            out[key] = value
        joined = out.get("allOf")
        if isinstance(joined, list) and len(joined) == 1 and isinstance(joined[0], Mapping):
            del out["allOf"]
            out = {**joined[0], **out}
        return out

    plained: dict[str, Any] = walk(schema, frozenset())
    return plained
