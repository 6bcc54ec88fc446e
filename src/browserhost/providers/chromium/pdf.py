"""The chromium provider's ``pdf`` verb: the page printed to a PDF file in the project, next
to the captures (``<directory>/.browserhost/captures/<timestamp>-<label>.pdf``).

Chromium prints to PDF only when it runs headless; a headed browser is refused before
anything is asked of it, and a remote one that turns out to be headed is refused with the
same sentence.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from browserhost.captures import save_in_captures
from browserhost.contract import Context
from browserhost.contract.limits import CAPTURE_LABEL_MAX
from browserhost.sdk import ActionError, Provider, VerbArguments, verb

from . import driver, pagescript
from .errors import playwright_errors

if TYPE_CHECKING:
    from .access import TabAccess
    from .launch import ChromiumConfig

PDF_TIMEOUT_S = 15.0
"""The longest a page may take to print: inside the host's 20 s deadline for a verb."""

HEADED_REFUSAL = (
    "Chromium prints a page to PDF only when it runs headless, and this browser shows its "
    "window, so nothing was saved; use capture for a picture, or a headless instance."
)

PaperFormat = Literal["A4", "A3", "A5", "Letter", "Legal", "Tabloid"]


class PdfArguments(VerbArguments):
    paper: PaperFormat = Field("A4", description="The paper size.")
    landscape: bool = Field(False, description="Print across the long side of the paper.")
    background: bool = Field(
        False, description="Print background colours and images, as the screen shows them."
    )
    label: str | None = Field(
        None, max_length=CAPTURE_LABEL_MAX, description="Short name for the file, e.g. invoice."
    )


class PdfVerb(Provider):
    """The ``pdf`` verb, run on the context key's tab as one action."""

    access: TabAccess
    config: ChromiumConfig

    @verb(
        "Save the page as a PDF file (as printing it would: paper size, landscape, "
        "backgrounds) in the project's .browserhost/captures/ folder, and answer its path.",
        changes_page=False,
    )
    async def pdf(self, arguments: PdfArguments, context: Context) -> dict[str, Any]:
        if not self.config.headless:
            raise ActionError(HEADED_REFUSAL)
        project = _project(context.directory)
        async with self.access.using(context, "verb.pdf") as tab:
            page = await tab.page()
            with playwright_errors("verb.pdf"):
                try:
                    async with asyncio.timeout(PDF_TIMEOUT_S):
                        document = await page.pdf(
                            format=arguments.paper,
                            landscape=arguments.landscape,
                            print_background=arguments.background,
                        )
                except TimeoutError:
                    raise ActionError(
                        f"The page did not print within {PDF_TIMEOUT_S:g} s, so nothing was "
                        "saved; try again once it has loaded."
                    ) from None
                except driver.PlaywrightError as exc:
                    if "not implemented" in str(exc).lower():  # a headed remote browser
                        raise ActionError(HEADED_REFUSAL) from exc
                    raise
            label = arguments.label or "page"
            path = await asyncio.to_thread(save_in_captures, project, document, label, "pdf")
            if path is None:
                raise ActionError(
                    f"The PDF could not be written under {project}/.browserhost/captures/ "
                    "(see the host's log), so nothing was saved."
                )
            return {
                "path": str(path),
                "bytes": len(document),
                "url": page.url,
                "title": await pagescript.title(page),
            }


def _project(directory: str | None) -> Path:
    """The project directory a PDF is saved in; refuses a session without one."""
    project = None if directory is None else Path(directory)
    if project is None or not project.is_absolute() or not project.is_dir():
        raise ActionError(
            "The session has no project directory to save the PDF in, so nothing was saved. "
            "A project is a session of its own, with its own pages: work in one from the open "
            "on (on the command line: --project DIR on each command)."
        )
    return project
