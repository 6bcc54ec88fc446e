"""``browserhost shell``: many verbs, one a line, over one connection to the host."""

from __future__ import annotations

import shlex
import sys

import typer
from rich.text import Text

from .calls import Target, check_url, sharing
from .options import ProviderOption, SessionOption, TokenOption, UrlOption
from .output import USAGE_ERROR, err

PROMPT = "browserhost> "


def shell(
    context: typer.Context,
    provider: ProviderOption = None,
    session: SessionOption = None,
    api_url: UrlOption = None,
    api_token: TokenOption = None,
) -> None:
    """Run browserhost commands read one a line, over one connection, in one session.

    Each line is a command line without the word browserhost: open https://example.com,
    then snapshot, then click --text More.

    A line that starts with # is a comment; a # anywhere else is the command's own text
    (click --selector #buy needs no quotes).

    From a terminal it prompts (exit, quit or Ctrl-D end it). Each line prints what that
    command prints, errors included, and the next line runs anyway. The shell's exit status
    is that of the last line that failed (0 when none did). A line's own --url, --token,
    --session, --project or --provider sends that line alone elsewhere.
    """
    check_url(api_url)
    root = context.find_root().command
    prompting = sys.stdin.isatty()
    failed = 0
    with sharing(Target(api_url, api_token, provider=provider, session=session)):
        while True:
            try:
                line = input(PROMPT) if prompting else sys.stdin.readline()
            except EOFError:
                break
            if not prompting and not line:
                break
            if line.lstrip().startswith("#"):
                continue  # a comment; a # further on is text: selectors start with one
            try:
                argv = shlex.split(line)
            except ValueError as exc:
                err.print(Text(f"Cannot read the line ({exc}); nothing was sent."))
                failed = USAGE_ERROR
                continue
            if not argv:
                continue
            if argv[0] in ("exit", "quit"):
                break
            if argv[0] in ("shell", "serve", "mcp"):
                err.print(Text(f"{argv[0]} does not run inside the shell; nothing was sent."))
                failed = USAGE_ERROR
                continue
            try:
                root.main(args=argv, prog_name="browserhost", standalone_mode=True)
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                failed = status or failed
    raise typer.Exit(failed)
