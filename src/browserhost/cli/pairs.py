"""``KEY=VALUE`` pairs from the command line (``--set``, ``--arg``) as one JSON object, each
value typed by the schema it is for."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import typer

from browserhost.contract.json_schema import resolve


def typed_pairs(pairs: list[str], schema: Mapping[str, Any], flag: str) -> dict[str, object]:
    """``a.b=value`` nests; a value is read as its schema property's type: a string stays a
    string, anything else is read as JSON (``3``, ``true``, ``["a"]``), and what does not fit
    is left for the host's schema check to word."""
    typed: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"{flag} takes KEY=VALUE, not {pair!r}.")
        *parents, leaf = key.split(".")
        holder, node = typed, resolve(schema, schema)
        for part in parents:
            inner = holder.setdefault(part, {})
            if not isinstance(inner, dict):
                raise typer.BadParameter(f"{flag} {key}: {part} is given a value already.")
            holder = inner
            node = resolve(schema, (node.get("properties") or {}).get(part) or {})
        wanted = resolve(schema, (node.get("properties") or {}).get(leaf) or {}).get("type")
        if wanted == "string":
            holder[leaf] = value
            continue
        try:
            holder[leaf] = json.loads(value)
        except ValueError:
            holder[leaf] = value
    return typed
