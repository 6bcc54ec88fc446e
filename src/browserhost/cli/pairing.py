"""``browserhost bridge pending``, ``paired``, ``approve ID``, ``deny ID``, ``forget ID``: the
viewer's Allow and Deny, from a terminal."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from .calls import Target, run
from .lines import duration, pairing_line
from .options import JsonOption, TokenOption, UrlOption
from .output import out, print_json

if TYPE_CHECKING:
    from browserhost.client import Client, PairedInfo, PendingInfo

WaitingId = Annotated[
    str,
    typer.Argument(
        metavar="ID",
        help="The id the waiting browser shows (browserhost bridge pending lists them).",
    ),
]
PairedId = Annotated[
    str,
    typer.Argument(
        metavar="ID", help="A paired browser's id (browserhost bridge paired lists them)."
    ),
]


def pending(
    api_url: UrlOption = None, api_token: TokenOption = None, as_json: JsonOption = False
) -> None:
    """List the browsers waiting for your approval to connect to this host's bridge."""

    async def act(client: Client) -> None:
        waiting = await client.pending()
        if as_json:
            print_json([row.to_wire() for row in waiting])
            return
        for row in waiting:
            ago = duration(max(0.0, time.time() - row.since))
            out.print(pairing_line(row.id, row.name, row.origin, f"asked {ago} ago"))
        if not waiting:
            out.print("No browser is waiting for approval.")
        else:
            out.print(
                "Allow one whose browserhost button shows the same id: browserhost bridge "
                "approve ID (or deny ID)."
            )

    run(Target(api_url, api_token, as_json), act)


def paired(
    api_url: UrlOption = None, api_token: TokenOption = None, as_json: JsonOption = False
) -> None:
    """List the browsers you approved; each connects with its own secret."""

    async def act(client: Client) -> None:
        found = await client.paired()
        if as_json:
            print_json([row.to_wire() for row in found])
            return
        for row in found:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.paired_at))
            out.print(pairing_line(row.id, row.name, row.origin, f"paired {when}"))
        if not found:
            out.print("No browser is paired.")

    run(Target(api_url, api_token, as_json), act)


def approve(
    pairing_id: WaitingId,
    api_url: UrlOption = None,
    api_token: TokenOption = None,
    as_json: JsonOption = False,
) -> None:
    """Let a waiting browser connect (the viewer's Allow): it gets a secret of its own."""
    said = (
        "it is connected, and connects again with its own secret. Revoke it with: "
        f"browserhost bridge forget {pairing_id}"
    )
    _decide(Target(api_url, api_token, as_json), lambda c: c.approve(pairing_id), "Approved", said)


def deny(
    pairing_id: WaitingId,
    api_url: UrlOption = None,
    api_token: TokenOption = None,
    as_json: JsonOption = False,
) -> None:
    """Refuse a waiting browser (the viewer's Deny): it is disconnected."""
    said = "it was disconnected."
    _decide(Target(api_url, api_token, as_json), lambda c: c.deny(pairing_id), "Denied", said)


def forget(
    pairing_id: PairedId,
    api_url: UrlOption = None,
    api_token: TokenOption = None,
    as_json: JsonOption = False,
) -> None:
    """Revoke a paired browser: it is disconnected and must be approved again."""
    said = "it is disconnected, and must be approved again to connect."
    _decide(Target(api_url, api_token, as_json), lambda c: c.forget(pairing_id), "Forgot", said)


def _decide(
    target: Target,
    ask: Callable[[Client], Awaitable[PendingInfo | PairedInfo]],
    done: str,
    said: str,
) -> None:
    """One decision about one browser, and what it did: ``Denied ID (name): ...``."""

    async def act(client: Client) -> None:
        record = await ask(client)
        if target.as_json:
            print_json(record.to_wire())
        else:
            out.print(Text.assemble(f"{done} ", (record.id, "bold"), f" ({record.name}): {said}"))

    run(target, act)
