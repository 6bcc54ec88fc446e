"""Reading the JSON Schemas records and verbs declare: a property's own schema, references
followed. Shared by the host, which checks values against them, and the command line, which
types ``KEY=VALUE`` pairs by them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def resolve(root: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    """``node`` with a local ``$ref`` (``#/$defs/Proxy``) followed, and a nullable ``anyOf``
    reduced to its one other branch."""
    for _ in range(8):
        reference = node.get("$ref")
        if isinstance(reference, str) and reference.startswith("#/"):
            target: Any = root
            for part in reference[2:].split("/"):
                target = target.get(part, {}) if isinstance(target, Mapping) else {}
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            continue
        branches = [b for b in node.get("anyOf", []) if b.get("type") != "null"]
        if len(branches) == 1 and "properties" not in node:
            node = {**branches[0], **{k: v for k, v in node.items() if k != "anyOf"}}
            continue
        return node
    return node
