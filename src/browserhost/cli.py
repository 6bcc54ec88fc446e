"""The ``browserhost`` command line."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from browserhost import config
from browserhost.contract.errors import BrowserhostError

app = typer.Typer(
    help="One browser tool for AI agents, any browser behind it.",
    no_args_is_help=True,
    add_completion=False,
)
err = Console(stderr=True)


@app.callback()
def _group() -> None:
    """One browser tool for AI agents, any browser behind it."""

DataDirOption = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        help="Where the selection and token live [default: $BROWSERHOST_DATA_DIR or the user "
        "data dir].",
        show_default=False,
    ),
]


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = config.DEFAULT_HOST,
    port: Annotated[int, typer.Option(help="Port to listen on.")] = config.DEFAULT_PORT,
    data_dir: DataDirOption = None,
    select: Annotated[
        str | None, typer.Option("--select", help="Select this provider before serving.")
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host", help="Also accept requests addressed to this host name (repeatable)."
        ),
    ] = None,
) -> None:
    """Serve the browser API (and later the viewer) until interrupted."""
    import uvicorn

    from browserhost.api.app import create_app
    from browserhost.host import Host

    directory = config.data_dir(data_dir)
    token = config.ensure_token(directory)
    browser_host = Host(directory)
    browser_host.catalog.discover(config.enabled_providers())
    if select is not None:
        try:
            browser_host.select(select)
        except BrowserhostError as exc:
            err.print(f"[red]{exc.code}[/red]: {exc}")
            raise typer.Exit(2) from None
    api = create_app(browser_host, token, allow_host or ())
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    listing = browser_host.providers()
    err.print(f"browserhost serving at [bold]{url}[/bold]")
    err.print(f"  data dir   {directory}")
    err.print(f"  token      {token}  (stored in {config.token_path(directory)})")
    names = ", ".join(provider.id for provider in browser_host.catalog.all()) or "none"
    err.print(f"  providers  {names}; selected: {listing.selected_id or 'none'}")
    server = uvicorn.Server(uvicorn.Config(api, host=host, port=port, log_level="warning"))
    asyncio.run(server.serve())


def main() -> None:
    app()
