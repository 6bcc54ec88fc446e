"""The browsers a person let be the bridge's without the host's token: pending and paired.

A socket on this machine that asks to pair (:mod:`browserhost.contract.bridge`) is held as
*pending* until a person approves it (the viewer's Allow, ``browserhost bridge approve ID``)
or denies it. Approval gives it a secret of its own, which it presents on every later
connection; ``browserhost bridge forget ID`` revokes that::

    Pairing
    ├── pending   in memory, at most PENDING_MAX (a new request drops the oldest); each is
    │             decided once: APPROVED (with its secret), DENIED or DROPPED
    └── paired    paired.json in the data dir: each secret's SHA-256 only, never the secret,
                  mode 0600, written whole or not at all

A secret is 32 random bytes, so a plain SHA-256 is as hard to reverse as a slow hash would be.
A paired id is the id its request had, the one the person saw when they approved it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from pydantic import Field, ValidationError

from browserhost.contract.base import WireModel
from browserhost.contract.bridge import PENDING_MAX
from browserhost.files import replace_atomically

PAIRED_FILE: Final = "paired.json"
PAIRED_FILE_MAX_BYTES: Final = 1_000_000
APPROVED: Final = "approved"
DENIED: Final = "denied"
DROPPED: Final = "dropped"

log = logging.getLogger(__name__)


class PairingError(Exception):
    """A person's pairing request that was refused; nothing was changed."""


class UnknownPairingError(PairingError):
    """No request (or no paired browser) has that id."""


class PairingStoreError(PairingError):
    """``paired.json`` could not be written."""


class PairedRecord(WireModel):
    """One paired browser, as ``paired.json`` keeps it and the API shows it (without the
    digest)."""

    id: str
    name: str
    origin: str | None = None
    paired_at: float
    sha256: str = Field(exclude=True)

    def to_wire(self) -> dict[str, object]:
        return self.model_dump(mode="json", exclude_none=True)


class _Stored(WireModel):
    paired: list[PairedRecord]


def _stored_json(paired: dict[str, PairedRecord]) -> bytes:
    """``paired.json``'s bytes: the records with their digests (the API leaves them out)."""
    rows = [{**record.to_wire(), "sha256": record.sha256} for record in paired.values()]
    return json.dumps({"paired": rows}, indent=2).encode()


@dataclass(eq=False)
class Pending:
    """A connection waiting for a person. ``decided`` resolves once, to APPROVED, DENIED or
    DROPPED; ``secret`` is set when approved."""

    id: str
    name: str
    origin: str | None
    since: float
    decided: asyncio.Future[str] = field(repr=False)
    secret: str | None = field(default=None, repr=False)

    def to_wire(self) -> dict[str, object]:
        row: dict[str, object] = {"id": self.id, "name": self.name, "since": self.since}
        if self.origin is not None:
            row["origin"] = self.origin
        return row


class Pairing:
    """The pending requests and paired browsers of one host (its data dir)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / PAIRED_FILE
        self._pending: dict[str, Pending] = {}
        self._paired = self._read()
        self._saving = asyncio.Lock()

    def pending(self) -> list[Pending]:
        return list(self._pending.values())

    def paired(self) -> list[PairedRecord]:
        return list(self._paired.values())

    def request(self, name: str, origin: str | None) -> Pending:
        """Hold a new request; the oldest is dropped when :data:`PENDING_MAX` wait already."""
        while len(self._pending) >= PENDING_MAX:
            self._decide(next(iter(self._pending.values())), DROPPED)
        pending = Pending(
            self._new_id(), name, origin, time.time(), asyncio.get_running_loop().create_future()
        )
        self._pending[pending.id] = pending
        return pending

    def withdraw(self, pending: Pending) -> None:
        """The request's connection is gone (or was answered): it is no longer listed."""
        if self._pending.get(pending.id) is pending:
            del self._pending[pending.id]

    async def approve(self, pending_id: str) -> PairedRecord:
        """Pair the waiting request ``pending_id``: its secret's digest is stored, then the
        secret goes to its connection. Raises :class:`UnknownPairingError` or
        :class:`PairingStoreError`, and then nothing was paired."""
        pending = self._pending.pop(pending_id, None)
        if pending is None:
            raise UnknownPairingError(
                f"No browser is waiting with id {pending_id!r}; browserhost bridge pending "
                "lists those that are. Nothing was approved."
            )
        secret = secrets.token_urlsafe(32)
        record = PairedRecord(
            id=pending.id,
            name=pending.name,
            origin=pending.origin,
            paired_at=time.time(),
            sha256=_digest(secret),
        )
        try:
            await self._store({**self._paired, record.id: record})
        except PairingStoreError:
            self._pending[pending.id] = pending  # still waiting, as it was
            raise
        pending.secret = secret
        self._decide(pending, APPROVED)
        return record

    def deny(self, pending_id: str) -> Pending:
        """Refuse the waiting request ``pending_id``: its connection is closed."""
        pending = self._pending.get(pending_id)
        if pending is None:
            raise UnknownPairingError(
                f"No browser is waiting with id {pending_id!r}; browserhost bridge pending "
                "lists those that are. Nothing was denied."
            )
        self._decide(pending, DENIED)
        return pending

    async def forget(self, paired_id: str) -> PairedRecord:
        """Revoke a paired browser: its secret no longer lets it in."""
        record = self._paired.get(paired_id)
        if record is None:
            raise UnknownPairingError(
                f"No paired browser has id {paired_id!r}; browserhost bridge paired lists "
                "them. Nothing was forgotten."
            )
        await self._store({key: kept for key, kept in self._paired.items() if key != paired_id})
        return record

    def check(self, paired_id: str, secret: str) -> PairedRecord | None:
        """The paired browser ``paired_id`` if ``secret`` is its own (compared in constant
        time), else ``None``."""
        record = self._paired.get(paired_id)
        if record is None or not hmac.compare_digest(record.sha256, _digest(secret)):
            return None
        return record

    def _decide(self, pending: Pending, outcome: str) -> None:
        self.withdraw(pending)
        if not pending.decided.done():
            pending.decided.set_result(outcome)

    def _new_id(self) -> str:
        while True:
            candidate = secrets.token_hex(3)  # six characters a person reads and types
            if candidate not in self._pending and candidate not in self._paired:
                return candidate

    async def _store(self, paired: dict[str, PairedRecord]) -> None:
        """Write ``paired`` whole, off the event loop, one write at a time; it becomes the
        host's list only once it is on disk."""
        async with self._saving:
            try:
                await asyncio.to_thread(
                    replace_atomically, self.path, _stored_json(paired), f".{PAIRED_FILE}-"
                )
            except OSError as exc:
                raise PairingStoreError(
                    f"Could not write {self.path} ({exc.strerror or exc}); make the data dir "
                    "writable. Nothing was changed."
                ) from exc
            self._paired = paired

    def _read(self) -> dict[str, PairedRecord]:
        """The paired browsers on disk; none when the file is missing. One that cannot be read
        pairs nobody (it is rewritten at the next approval), and the log says so."""
        try:
            found = self.path.stat()
            if not stat.S_ISREG(found.st_mode):
                raise ValueError("not a regular file")  # a FIFO would hold the start
            if found.st_size > PAIRED_FILE_MAX_BYTES:
                raise ValueError(f"over {PAIRED_FILE_MAX_BYTES} bytes")
            stored = _Stored.model_validate_json(self.path.read_bytes())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, ValidationError) as exc:
            log.warning(
                "%s cannot be read (%s): no browser is paired until one is approved again",
                self.path,
                exc,
            )
            return {}
        return {record.id: record for record in stored.paired}


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()
