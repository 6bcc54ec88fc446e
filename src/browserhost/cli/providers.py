"""``providers`` and ``select``: which browser providers the host has, and which answers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from .calls import Target, run
from .lines import bridge_line, capacity_line, service_line
from .options import JsonOption, TokenOption, UrlOption
from .output import out, print_json

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
