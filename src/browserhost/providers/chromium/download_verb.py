"""The ``download`` verb: click something and wait for the file it downloads, or wait for the
next download (001's ``page_download``: listen before clicking, never click again).

Where the file goes and how it is bounded is :mod:`.downloads`.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from pydantic import Field

from browserhost.contract import Context
from browserhost.contract.deadlines import seconds_said
from browserhost.contract.limits import ACTION_TIMEOUT_S, TEXT_MAX
from browserhost.sdk import ActionError, Provider, VerbArguments, seconds_left, verb

from . import targets
from .downloads import ANSWER_MARGIN_S
from .inputs import press

if TYPE_CHECKING:
    from .access import TabAccess

DOWNLOAD_WAIT_MAX_S = 110.0
"""The longest the verb waits: inside the host's largest caller timeout."""


class DownloadArguments(VerbArguments):
    selector: str | None = Field(
        None, min_length=1, max_length=TEXT_MAX, description="Click this element to download."
    )
    text: str | None = Field(
        None, min_length=1, max_length=TEXT_MAX, description="Or click the element with this text."
    )
    timeout_s: float = Field(
        15.0, gt=0, le=DOWNLOAD_WAIT_MAX_S, description="How long to wait for the file, in s."
    )


class DownloadVerb(Provider):
    """The ``download`` verb, on the context key's tab."""

    access: TabAccess

    @verb(
        "Download a file: click selector (or the element with text) and wait for the file it "
        "downloads, or without either wait for the next download. The file is saved in the "
        "project's .browserhost/downloads/; answers its filename and path. Raise timeoutS (and "
        "the call's timeoutMs) for a big file."
    )
    async def download(self, arguments: DownloadArguments, context: Context) -> dict[str, Any]:
        if arguments.selector is not None and arguments.text is not None:
            raise ActionError("download takes selector or text, not both; nothing was clicked.")
        wait_s = min(arguments.timeout_s, seconds_left(ACTION_TIMEOUT_S) - ANSWER_MARGIN_S)
        async with self.access.using(context, "verb.download") as tab:
            page = await tab.page()
            loop = asyncio.get_running_loop()
            deadline = loop.time() + wait_s
            since = None
            clicked = None
            if arguments.selector is not None or arguments.text is not None:
                selector = arguments.selector or await targets.by_text(page, arguments.text or "")
                aimed = await targets.target(
                    page, selector, "click", fresh=arguments.text is not None, watch=True,
                    by_text=arguments.text,
                )  # fmt: skip
                clicked = aimed.clicked[0] or selector
                since = tab.downloads.mark()
                await press(tab, page, aimed)
            started = await tab.downloads.next_started(since, max(0.0, deadline - loop.time()))
            done = "The click was done but no" if clicked is not None else "No"
            if started is None:
                raise ActionError(
                    f"{done} download started within {seconds_said(wait_s)}; take a snapshot "
                    "to see the page (nothing was clicked again)."
                )
            saved = await tab.downloads.finished(started, max(0.0, deadline - loop.time()))
            if saved.path is None:
                raise ActionError(f"{saved.filename} was not saved: {saved.error}.")
            answer = {"filename": saved.filename, "path": saved.path, "url": page.url}
            return answer if clicked is None else answer | {"clicked": clicked}
