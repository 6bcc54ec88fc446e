"""``instances``, ``launch`` and ``close``: browsers launched with options of their own."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from .calls import Target, run
from .lines import instance_line
from .options import JsonOption, TokenOption, UrlOption
from .output import USAGE_ERROR, out, print_json

if TYPE_CHECKING:
    from browserhost.client import Client


def instances(
    api_url: UrlOption = None, api_token: TokenOption = None, as_json: JsonOption = False
) -> None:
    """List the launched browser instances."""

    async def act(client: Client) -> None:
        found = await client.instances()
        if as_json:
            print_json([row.model_dump(mode="json", by_alias=True) for row in found])
            return
        for row in found:
            out.print(instance_line(row))
        if not found:
            out.print("No browser instance is launched; start one with: browserhost launch ID")

    run(Target(api_url, api_token, as_json), act)


def launch(
    context: typer.Context,
    provider: Annotated[
        str | None,
        typer.Argument(metavar="PROVIDER", help="A provider that launches, e.g. chromium."),
    ] = None,
    pairs: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="KEY=VALUE",
            help="One launch option; repeat it (proxy.server=... for a nested one). Typed by "
            "the provider's schema: see browserhost launch PROVIDER --help.",
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            metavar="NAME",
            help="The instance's name; its id is PROVIDER~NAME (default: a number).",
        ),
    ] = None,
    wants_help: Annotated[
        bool,
        typer.Option(
            "--help",
            "-h",
            is_eager=False,
            help="Show this message and the provider's launch options.",
        ),
    ] = False,
    api_url: UrlOption = None,
    api_token: TokenOption = None,
    as_json: JsonOption = False,
) -> None:
    """Launch a browser instance of a provider with options (--help with a PROVIDER lists
    them)."""
    if provider is None:
        out.print(context.get_help())
        raise typer.Exit(0 if wants_help else USAGE_ERROR)
    chosen: str = provider

    async def act(client: Client) -> None:
        listing = await client.providers()
        row = next((row for row in listing.providers if row.id == chosen), None)
        schema = {} if row is None or row.launch is None else row.launch.input_schema
        if wants_help:
            out.print(context.get_help())
            if row is None or row.launch is None:
                out.print(Text(f"\n{chosen} is not a provider that launches instances."))
                return
            out.print(Text(f"\n{row.launch.help}\n\nOptions of {chosen} (--set KEY=VALUE):"))
            for key, line in _launch_option_lines(schema):
                out.print(Text.assemble("  ", (key, "bold"), f"  {line}"))
            return
        launched = await client.launch(chosen, _launch_options(pairs or [], schema), name=name)
        if as_json:
            print_json(launched.model_dump(mode="json", by_alias=True))
        else:
            out.print(instance_line(launched))
            out.print(Text(f"Route actions to it with: browserhost select {launched.id}"))

    run(Target(api_url, api_token, as_json), act)


def close(
    instance_id: Annotated[
        str, typer.Argument(metavar="ID", help="An instance id, e.g. chromium~work.")
    ],
    api_url: UrlOption = None,
    api_token: TokenOption = None,
    as_json: JsonOption = False,
) -> None:
    """Close a browser instance: its browser stops and it is forgotten (a profile stays)."""

    async def act(client: Client) -> None:
        closed = await client.close_instance(instance_id)
        if as_json:
            print_json(closed.model_dump(mode="json", by_alias=True))
        else:
            out.print(Text.assemble("Closed ", (closed.id, "bold"), "."))

    run(Target(api_url, api_token, as_json), act)


def _resolve(root: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    from browserhost.host.instances import resolve

    return resolve(root, node)


def _launch_option_lines(
    schema: Mapping[str, Any], root: Mapping[str, Any] | None = None, prefix: str = ""
) -> Iterator[tuple[str, str]]:
    """``KEY=TYPE`` and its words, for every option of a launch schema (nested ones dotted)."""
    top = schema if root is None else root
    node = _resolve(top, schema)
    for key, raw in (node.get("properties") or {}).items():
        prop = _resolve(top, raw)
        if prop.get("properties"):
            yield from _launch_option_lines(prop, top, f"{prefix}{key}.")
            continue
        kind = "|".join(prop["enum"]) if "enum" in prop else str(prop.get("type", "value"))
        words = ": ".join(str(t) for t in (prop.get("title"), prop.get("description")) if t)
        if "default" in prop:
            words += f" (default: {json.dumps(prop['default'])})"
        yield f"{prefix}{key}={kind.upper() if 'enum' not in prop else kind}", words


def _launch_options(pairs: list[str], schema: Mapping[str, Any]) -> dict[str, object]:
    """``--set key=value`` pairs as an options object: ``proxy.server=...`` nests, and each
    value is read as its schema property's type (a string stays a string; anything else is
    read as JSON, and the host's schema check words what does not fit)."""
    options: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"--set takes KEY=VALUE, not {pair!r}.")
        *parents, leaf = key.split(".")
        holder, node = options, _resolve(schema, schema)
        for part in parents:
            inner = holder.setdefault(part, {})
            if not isinstance(inner, dict):
                raise typer.BadParameter(f"--set {key}: {part} is given a value already.")
            holder = inner
            node = _resolve(schema, (node.get("properties") or {}).get(part) or {})
        wanted = _resolve(schema, (node.get("properties") or {}).get(leaf) or {}).get("type")
        if wanted == "string":
            holder[leaf] = value
            continue
        try:
            holder[leaf] = json.loads(value)
        except ValueError:
            holder[leaf] = value
    return options
