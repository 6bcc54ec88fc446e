"""``instances``, ``launch`` and ``close``: browsers launched with options of their own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from .calls import Target, listing, run
from .lines import instance_line
from .options import JsonOption, PairsOption, TokenOption, UrlOption
from .output import USAGE_ERROR, out, print_json
from .pairs import option_lines, typed_pairs

if TYPE_CHECKING:
    from browserhost.client import Client


InstanceId = Annotated[
    str, typer.Argument(metavar="ID", help="An instance id, e.g. chromium~work.")
]


instances = listing(
    "List the launched browser instances.",
    lambda client: client.instances(),
    instance_line,
    "No browser instance is launched; start one with: browserhost launch ID",
    wire=lambda row: row.model_dump(mode="json", by_alias=True),
)


def launch(
    context: typer.Context,
    provider: Annotated[
        str | None,
        typer.Argument(metavar="PROVIDER", help="A provider that launches, e.g. chromium."),
    ] = None,
    pairs: PairsOption = None,
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
            for key, line in option_lines(schema):
                out.print(Text.assemble("  ", (key, "bold"), f"  {line}"))
            return
        launched = await client.launch(chosen, typed_pairs(pairs or [], schema, "--set"), name=name)
        if as_json:
            print_json(launched.model_dump(mode="json", by_alias=True))
        else:
            out.print(instance_line(launched))
            out.print(Text(f"Route actions to it with: browserhost select {launched.id}"))

    run(Target(api_url, api_token, as_json), act)


def close(
    instance_id: InstanceId,
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


def instance(
    instance_id: InstanceId,
    operation: Annotated[
        str,
        typer.Argument(
            metavar="OPERATION",
            help="One its row lists (browserhost instances --json): start, detach, "
            "sync_cookies, references, close.",
        ),
    ],
    pairs: PairsOption = None,
    api_url: UrlOption = None,
    api_token: TokenOption = None,
    as_json: JsonOption = False,
) -> None:
    """Run an operation on a browser instance: start a stopped persistent one, detach it,
    sync its cookies with a storage-state file, list what uses it."""

    async def act(client: Client) -> None:
        done = await client.operate(instance_id, operation, typed_pairs(pairs or [], {}, "--set"))
        if as_json:
            print_json(done.model_dump(mode="json", by_alias=True))
            return
        out.print(instance_line(done.instance))
        for reference in done.result.get("references", []):
            out.print(Text(f"    {reference.get('kind')}: {reference.get('label')}"))
        copied = done.result.get("copiedCookies")
        if isinstance(copied, dict):
            out.print(Text(f"    {copied.get('count')} cookies copied"))

    run(Target(api_url, api_token, as_json), act)
