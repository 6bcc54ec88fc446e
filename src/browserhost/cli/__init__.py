"""The ``browserhost`` command line.

``serve`` runs the host; ``mcp`` runs the MCP server on stdio. Every other verb is a thin
call over the HTTP API of a running host: one per browser action, generated from
:data:`browserhost.contract.outline.OUTLINES` (the actions' parameters as options), plus
``providers``, ``select``, the instance and pairing commands, and ``shell`` to run many.

Exit status: 0 on success, 2 for a usage error (a bad option, or a data dir ``serve`` cannot
use), :data:`EXIT_REFUSED` when the call was refused and nothing ran,
:data:`EXIT_MAY_HAVE_RUN` when it was sent and may have run, :data:`EXIT_NOT_WRITTEN` when it
ran but its image could not be written to ``-o FILE``.

One module per job: :mod:`.server` (commands that run something here), :mod:`.actions`
(the browser verbs), :mod:`.providers`, :mod:`.instances`, :mod:`.pairing`, :mod:`.shell`,
:mod:`.trace`;
:mod:`.options` and :mod:`.output` are what they share.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any, cast

# httpx imports its own command line (click, pygments, rich's progress bars) whenever those are
# installed, which typer's are: a sixth of a verb's CPU, for a command never used here. A module
# set to None fails its import, and httpx then goes without.
sys.modules.setdefault("httpx._main", cast(ModuleType, None))

import typer

from browserhost.contract.outline import OUTLINES

from . import actions, instances, pairing, providers, server, shell, trace
from .options import Command, Group
from .output import EXIT_MAY_HAVE_RUN, EXIT_NOT_WRITTEN, EXIT_REFUSED, cli_names

app = typer.Typer(
    cls=Group,
    help="One browser tool for AI agents, any browser behind it.",
    no_args_is_help=True,
    # --install-completion and --show-completion: tab completion in bash, zsh, fish, PowerShell.
    add_completion=True,
)
bridge_commands = typer.Typer(
    cls=Group,
    help="Serve a host elsewhere with a browser on this machine (connect), or decide which "
    "browsers may connect to this host's bridge (pending, approve, deny, paired, forget).",
    no_args_is_help=True,
)
trace_commands = typer.Typer(
    cls=Group,
    help="A session's recording: every action, its answer and a picture of the page after "
    "it, written as a Playwright trace or one HTML page (export), and the sessions recorded.",
    no_args_is_help=True,
)


@app.callback()
def _group() -> None:
    """One browser tool for AI agents, any browser behind it."""


def _help(function: Callable[..., Any]) -> str:
    """A docstring as help whose paragraphs the terminal wraps: typer keeps the docstring's
    own line breaks, which read as ragged lines at any other width."""
    paragraphs = inspect.cleandoc(function.__doc__ or "").split("\n\n")
    return "\n\n".join(re.sub(r"\s*\n\s*", " ", paragraph) for paragraph in paragraphs)


def _add(
    group: typer.Typer,
    name: str,
    function: Callable[..., Any],
    panel: str | None = None,
    **extra: Any,
) -> None:
    group.command(name, cls=Command, help=_help(function), rich_help_panel=panel, **extra)(function)


_add(app, "serve", server.serve)
_add(app, "mcp", server.mcp)
_add(app, "doctor", server.doctor)
_add(app, "extension", server.extension)
app.add_typer(bridge_commands, name="bridge")
_add(bridge_commands, "connect", server.bridge_connect)
_add(bridge_commands, "pending", pairing.pending)
_add(bridge_commands, "paired", pairing.paired)
for name, (summary, _, _) in pairing.DECISIONS.items():
    bridge_commands.command(name, cls=Command, help=summary)(pairing.decide)
for _outline in OUTLINES.values():
    app.command(
        _outline.verb,
        cls=Command,
        help=cli_names(_outline.description),
        short_help=actions.short_help(_outline),
        rich_help_panel="Browser actions",
    )(actions.ActionVerb(_outline))
_add(app, "call", actions.call, "Browser actions")
_add(app, "shell", shell.shell, "Browser actions")
_add(app, "providers", providers.providers, "Providers")
_add(app, "select", providers.select, "Providers")
_add(app, "configure", providers.configure, "Providers")
_add(app, "instances", instances.instances, "Instances")
# --help is launch's own: with a PROVIDER it also lists that provider's options.
_add(app, "launch", instances.launch, "Instances", context_settings={"help_option_names": []})
_add(app, "close", instances.close, "Instances")
_add(app, "instance", instances.instance, "Instances")
app.add_typer(trace_commands, name="trace", rich_help_panel="Recording")
_add(trace_commands, "export", trace.export)
_add(trace_commands, "sessions", trace.sessions)


def main() -> None:
    app(prog_name="browserhost")


__all__ = ["EXIT_MAY_HAVE_RUN", "EXIT_NOT_WRITTEN", "EXIT_REFUSED", "app", "main"]
