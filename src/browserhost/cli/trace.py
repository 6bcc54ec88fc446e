"""``browserhost trace export`` and ``trace sessions``: a session's recording as a file to look
at (a Playwright trace for ``playwright show-trace``, or one HTML page), and which sessions the
host has recorded."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from .calls import Target, default_session, listing, run
from .captures import check_output
from .options import SessionOption, TokenOption, UrlOption
from .output import EXIT_NOT_WRITTEN, USAGE_ERROR, err, out

if TYPE_CHECKING:
    from browserhost.client import Client
    from browserhost.contract.recording import RecordingSummary

OutputOption = Annotated[
    Path,
    typer.Option(
        "-o",
        "--output",
        metavar="FILE",
        dir_okay=False,
        help="Where to write it (a .zip for the trace, a .html with --html).",
    ),
]
HtmlOption = Annotated[
    bool,
    typer.Option("--html", help="Write one self-contained HTML page instead of a trace."),
]


def export(
    output: OutputOption,
    session: SessionOption = None,
    html: HtmlOption = False,
    api_url: UrlOption = None,
    api_token: TokenOption = None,
) -> None:
    """Write a session's recording: every action, its parameters, outcome and time, and a
    small picture of the page after it.

    As a Playwright trace zip, which `playwright show-trace FILE` opens (the actions and
    their pictures), or with --html as one page any browser opens, with nothing to fetch.
    Without --session it is your own session, the one your browserhost commands act in.
    """
    check_output(output)
    target = Target(api_url, api_token, session=session)
    chosen = session or default_session()

    async def act(client: Client) -> None:
        recording = await client.recording(chosen, pictures=True)
        if not recording.steps:
            await _nothing_recorded(client, chosen)
        if html:
            from browserhost.recording_page import recording_page

            content = recording_page(recording).encode()
        else:
            from browserhost.playwright_trace import trace_zip

            content = trace_zip(recording)
        try:
            output.write_bytes(content)
        except OSError as exc:
            err.print(Text(f"Cannot write {output} ({exc.strerror}); choose another -o FILE."))
            raise SystemExit(EXIT_NOT_WRITTEN) from None
        failed = sum(step.failed for step in recording.steps)
        out.print(
            Text(f"Wrote {len(recording.steps)} steps ({failed} failed) of {chosen} to {output}.")
        )
        if not html:
            err.print(Text(f"Open it with: playwright show-trace {output}"))

    run(target, act)


async def _nothing_recorded(client: Client, chosen: str) -> None:
    answer = await client.recordings()
    if not answer.recording:
        err.print(
            "This host records nothing now (serve --no-recording, or BROWSERHOST_RECORDING=off)."
        )
    others = ", ".join(_named(row) for row in answer.sessions[:10])
    err.print(
        Text(
            f"Nothing is recorded for the session {chosen!r}; nothing was written. "
            + (f"Recorded: {others}; pick one with --session ID." if others else "")
        )
    )
    raise SystemExit(USAGE_ERROR)


def _named(row: RecordingSummary) -> str:
    return f"{row.session_id or '(no session)'} ({row.steps} steps)"


def _line(row: RecordingSummary) -> Text:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.updated_at))
    failed = f", {row.failures} failed" if row.failures else ""
    return Text.assemble(
        (row.session_id or "(no session)", "bold"), f"  {row.steps} steps{failed}, last {when}"
    )


async def _sessions(client: Client) -> Sequence[RecordingSummary]:
    return (await client.recordings()).sessions


sessions = listing(
    "List the sessions the host has recorded, the latest first.",
    _sessions,
    _line,
    "Nothing is recorded yet.",
    "Write one as a trace with: browserhost trace export --session ID -o FILE",
)
