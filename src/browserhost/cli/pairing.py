"""``browserhost bridge pending``, ``paired``, ``approve ID``, ``deny ID``, ``forget ID``: the
viewer's Allow and Deny, from a terminal."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from .calls import Target, listing, run
from .lines import duration, pairing_line
from .options import JsonOption, TokenOption, UrlOption
from .output import out, print_json

if TYPE_CHECKING:
    from browserhost.client import Client, PairedInfo, PendingInfo

BrowserId = Annotated[
    str,
    typer.Argument(
        metavar="ID",
        help="The id the browser shows (browserhost bridge pending or paired lists them).",
    ),
]


def _asked(row: PendingInfo) -> Text:
    ago = duration(max(0.0, time.time() - row.since))
    return pairing_line(row.id, row.name, row.origin, f"asked {ago} ago")


def _paired(row: PairedInfo) -> Text:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.paired_at))
    return pairing_line(row.id, row.name, row.origin, f"paired {when}")


pending = listing(
    "List the browsers waiting for your approval to connect to this host's bridge.",
    lambda client: client.pending(),
    _asked,
    "No browser is waiting for approval.",
    "Allow one whose browserhost button shows the same id: browserhost bridge approve ID "
    "(or deny ID).",
)
paired = listing(
    "List the browsers you approved; each connects with its own secret.",
    lambda client: client.paired(),
    _paired,
    "No browser is paired.",
)


DECISIONS = {
    "approve": (
        "Let a waiting browser connect (the viewer's Allow): it gets a secret of its own.",
        "Approved",
        "it is connected, and connects again with its own secret. Revoke it with: "
        "browserhost bridge forget {id}",
    ),
    "deny": (
        "Refuse a waiting browser (the viewer's Deny): it is disconnected.",
        "Denied",
        "it was disconnected.",
    ),
    "forget": (
        "Revoke a paired browser: it is disconnected and must be approved again.",
        "Forgot",
        "it is disconnected, and must be approved again to connect.",
    ),
}
"""Each decision about one browser: its command's help, what it did, what that means."""


def decide(
    context: typer.Context,
    pairing_id: BrowserId,
    api_url: UrlOption = None,
    api_token: TokenOption = None,
    as_json: JsonOption = False,
) -> None:
    """The command of each of :data:`DECISIONS`, named by how it was called."""
    name = context.info_name or ""
    _, done, said = DECISIONS[name]
    target = Target(api_url, api_token, as_json)

    async def act(client: Client) -> None:
        asks: dict[str, Callable[[str], Awaitable[PendingInfo | PairedInfo]]] = {
            "approve": client.approve,
            "deny": client.deny,
            "forget": client.forget,
        }
        record = await asks[name](pairing_id)
        if target.as_json:
            print_json(record.to_wire())
            return
        meaning = said.format(id=pairing_id)
        out.print(Text.assemble(f"{done} ", (record.id, "bold"), f" ({record.name}): {meaning}"))

    run(target, act)
