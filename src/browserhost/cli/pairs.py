"""``KEY=VALUE`` pairs from the command line (``--set``, ``--arg``) as one JSON object, each
value typed by the schema it is for, and the lines that list what a schema takes."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
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


def json_object(raw: str | None, flag: str, example: str) -> dict[str, object]:
    """The JSON object an option gives (``{}`` without the option); anything else is refused
    as a usage error showing ``example``."""
    if raw is None:
        return {}
    try:
        parsed = json.loads(raw)
    except ValueError:
        parsed = None
    if not isinstance(parsed, dict):
        raise typer.BadParameter(f"{flag} takes a JSON object, e.g. '{example}'.")
    return parsed


def option_lines(
    schema: Mapping[str, Any], root: Mapping[str, Any] | None = None, prefix: str = ""
) -> Iterator[tuple[str, str]]:
    """``KEY=TYPE`` and its words, for every option of ``schema`` (nested ones dotted): what
    ``--set`` takes."""
    top = schema if root is None else root
    node = resolve(top, schema)
    for key, raw in (node.get("properties") or {}).items():
        prop = resolve(top, raw)
        if prop.get("properties"):
            yield from option_lines(prop, top, f"{prefix}{key}.")
            continue
        kind = "|".join(prop["enum"]) if "enum" in prop else str(prop.get("type", "value"))
        words = ": ".join(str(t) for t in (prop.get("title"), prop.get("description")) if t)
        if "default" in prop:
            words += f" (default: {json.dumps(prop['default'])})"
        yield f"{prefix}{key}={kind.upper() if 'enum' not in prop else kind}", words
