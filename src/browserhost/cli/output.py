"""What the command line prints, and the exit status it ends with.

stdout carries the answer alone (``--json`` included); everything else (errors, progress)
goes to stderr.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from rich.console import Console
from rich.text import Text

from browserhost.contract.errors import BrowserhostError
from browserhost.contract.names import renamed

EXIT_REFUSED = 3
"""The call was refused before anything ran (including a provider's own refusal)."""
EXIT_MAY_HAVE_RUN = 4
"""The call was sent and no usable answer came back: the page may have changed."""
EXIT_NOT_WRITTEN = 1
"""The capture ran and answered, but its image could not be written to ``-o FILE``."""
USAGE_ERROR = 2

out = Console(soft_wrap=True, highlight=False)
err = Console(stderr=True, soft_wrap=True, highlight=False)


def print_lines(lines: Iterable[Text]) -> None:
    for line in lines:
        out.print(line)


def print_json(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False), flush=True)


def print_error(error: BrowserhostError) -> None:
    from browserhost.connection import describe

    code, _, message = describe(error).partition(": ")
    err.print(Text.assemble((code, "bold red"), ": ", cli_names(message)))


def exit_status(error: BrowserhostError) -> int:
    return EXIT_MAY_HAVE_RUN if error.may_have_run else EXIT_REFUSED


def cli_name(kind: str, name: str) -> str:
    """``browser.snapshot`` → ``snapshot``, ``verb.mouse`` → ``call mouse``: what a person
    types (:mod:`browserhost.contract.names`)."""
    return name if kind == "browser" else f"call {name}"


def cli_names(text: str) -> str:
    return renamed(text, cli_name)
