"""The options many commands share, and the command classes every command is built with.

A fixed command declares them as parameters (``api_url: UrlOption = None``); a verb
generated from an action puts them in its signature (:mod:`browserhost.cli.actions`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

SESSION_HELP = (
    "The agent session: each one has its own browser context. Without it every browserhost "
    "command of yours, from any directory, acts in one session."
)

UrlOption = Annotated[
    str | None,
    typer.Option(
        "--url",
        envvar="BROWSERHOST_URL",
        metavar="URL",
        show_default=False,
        show_envvar=False,
        help="The running browserhost (default: $BROWSERHOST_URL, else http://127.0.0.1:7878).",
    ),
]
TokenOption = Annotated[
    str | None,
    typer.Option(
        "--token",
        envvar="BROWSERHOST_TOKEN",
        metavar="TOKEN",
        show_default=False,
        show_envvar=False,
        help="API token (default: $BROWSERHOST_TOKEN, else the data dir's token file).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the raw JSON answer.")]
ProviderOption = Annotated[
    str | None,
    typer.Option(
        "--provider", metavar="ID", help="Send to this provider instead of the selected one."
    ),
]
SessionOption = Annotated[str | None, typer.Option("--session", metavar="ID", help=SESSION_HELP)]
TimeoutOption = Annotated[
    int | None,
    typer.Option(
        "--timeout-ms",
        metavar="MS",
        show_default=False,
        help="Wait this long for the answer (100 to 120000 ms) instead of the action's own "
        "wait; still unanswered then, it may have run (exit 4).",
    ),
]
ProjectOption = Annotated[
    Path | None,
    typer.Option(
        "--project",
        envvar="BROWSERHOST_PROJECT",
        metavar="DIR",
        file_okay=False,
        exists=True,
        resolve_path=True,
        show_default=False,
        show_envvar=False,
        help="The project the session works in (default: $BROWSERHOST_PROJECT): verbs such as "
        "upload read files from it and captures are saved in it. The session in a project is "
        "that project's own.",
    ),
]
PairsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "--arg",
        metavar="KEY=VALUE",
        help="One option or argument; repeat it (a.b=... for a nested one). Typed by the "
        "schema it is for: numbers, true/false and JSON lists are read as such.",
    ),
]


def object_option(flag: str, what: str, example: str) -> Any:
    """A ``FLAG OBJECT`` option: ``what`` as one JSON object (read with
    :func:`~browserhost.cli.pairs.json_object`)."""
    return typer.Option(
        flag, metavar="OBJECT", help=f"All {what} as a JSON object, e.g. {flag} '{example}'."
    )


DataDirOption = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        metavar="DIR",
        help="Where the selection and token live (default: $BROWSERHOST_DATA_DIR, else the "
        "user data dir).",
        show_default=False,
    ),
]


def _untyped_flags(params: list[Any]) -> list[Any]:
    """Flags shown as ``--json``, not ``--json <bool>``: a flag takes no value to describe
    (typer labels every option without a metavar with its type)."""
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""
    return params


class Command(TyperCommand):
    """A command whose help shows no type for a flag."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _untyped_flags(super().get_params(ctx))


class Group(TyperGroup):
    """A group whose help shows no type for a flag."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _untyped_flags(super().get_params(ctx))
