"""``providers``, ``select`` and ``configure``: which browser providers the host has, which
answers, and a provider's own settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from .calls import Target, run
from .lines import arguments_line, bridge_line, capacity_line, service_line
from .options import JsonOption, PairsOption, TokenOption, UrlOption, object_option
from .output import USAGE_ERROR, err, out, print_json
from .pairs import json_object, option_lines, typed_pairs

if TYPE_CHECKING:
    from browserhost.client import Client


def providers(
    api_url: UrlOption = None, api_token: TokenOption = None, as_json: JsonOption = False
) -> None:
    """List the browser providers and which one is selected."""
    target = Target(api_url, api_token, as_json)

    async def act(client: Client) -> None:
        listing = await client.providers()
        if as_json:
            print_json(listing.model_dump(mode="json", by_alias=True))
            return
        for row in listing.providers:
            chosen = row.id == listing.selected_id
            out.print(
                Text.assemble(
                    ("* " if chosen else "  ", "green"),
                    (row.id, "bold"),
                    f"  {row.name}",
                    (" (selected)" if chosen else "", "green"),
                )
            )
            if row.service is not None:
                out.print(service_line(row.service))
            if row.bridge is not None:
                out.print(bridge_line(row.bridge))
            if row.capacity is not None:
                out.print(capacity_line(row.capacity))
            for verb in row.verbs:
                out.print(Text.assemble("    call ", (verb.name, "cyan"), f"  {verb.description}"))
                arguments = arguments_line(verb.input_schema)
                if arguments is not None:
                    out.print(arguments)
        if not listing.providers:
            out.print("No browser provider is installed.")
        if listing.selected_id is None:
            out.print("None is selected; choose one with: browserhost select ID")

    run(target, act)


def select(
    provider_id: Annotated[str, typer.Argument(metavar="ID", help="A provider id.")],
    api_url: UrlOption = None,
    api_token: TokenOption = None,
    as_json: JsonOption = False,
) -> None:
    """Choose the provider that answers actions (the others stay installed)."""
    target = Target(api_url, api_token, as_json)

    async def act(client: Client) -> None:
        selected = await client.select(provider_id)
        if as_json:
            print_json({"selectedId": selected})
        else:
            out.print(Text.assemble("Selected ", (selected, "bold"), "."))

    run(target, act)


OPTIONS_EXAMPLE = '{"userAgent": "probe/1"}'


def configure(
    provider_id: Annotated[
        str, typer.Argument(metavar="ID", help="A provider with a configuration.")
    ],
    pairs: PairsOption = None,
    options: Annotated[str | None, object_option("--options", "options", OPTIONS_EXAMPLE)] = None,
    api_url: UrlOption = None,
    api_token: TokenOption = None,
    as_json: JsonOption = False,
) -> None:
    """Change a provider's own settings. The host checks them against the provider's
    configuration schema first: a value that breaks it is refused, naming the field, and
    nothing changes. Without options, lists the ones it takes."""
    target = Target(api_url, api_token, as_json)
    given = json_object(options, "--options", OPTIONS_EXAMPLE)

    async def act(client: Client) -> None:
        listing = await client.providers()
        row = next((row for row in listing.providers if row.id == provider_id), None)
        schema = {} if row is None or row.configuration is None else row.configuration.input_schema
        if not pairs and not given and row is not None and row.configuration is not None:
            err.print(Text(f"Give {provider_id}'s options with --set KEY=VALUE:"))
            for key, line in option_lines(schema):
                err.print(Text.assemble("  ", (key, "bold"), f"  {line}"))
            raise SystemExit(USAGE_ERROR)
        sent = given | typed_pairs(pairs or [], schema, "--set")
        configured = await client.configure(provider_id, sent)
        if as_json:
            print_json(configured.model_dump(mode="json", by_alias=True))
        else:
            out.print(
                Text.assemble("Configured ", (configured.id, "bold"), f": {', '.join(sent)}.")
            )

    run(target, act)
