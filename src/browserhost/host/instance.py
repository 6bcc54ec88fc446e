"""One launched browser instance as the host holds it, and what callers see of it.

What a caller sees follows the provider runtime's contract (reference 001)::

    status     connected | pairing | running_disconnected | stopped
    control    {"kind": "provider", "capabilities": {"actions": [...], "screenshot": ...}}
               | {"kind": "none"}                     (the channel that handles page actions)
    heldBy     none | agent | user                    (who holds its surface in the viewer)
    operations close, and what the provider declared and the state permits now

A provider in process reports its browser's own state (:data:`PROVIDER_STATES`), mapped here:
``running`` is ``connected``; ``starting`` is ``running_disconnected`` (the browser is being
started and the host has no control channel to it yet: an action sent now waits for it);
``stopped`` and ``failed`` are ``stopped`` (nothing runs; a persistent instance can be
started). A provider service reports 001's values itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from browserhost.contract.lifecycle import Status

Persistence = Literal["ephemeral", "persistent"]
_STATUS_OF: Final[Mapping[str, Status]] = {
    "connected": "connected",
    "pairing": "pairing",
    "running_disconnected": "running_disconnected",
    "stopped": "stopped",
    # a provider's own states (in process)
    "running": "connected",
    "starting": "running_disconnected",
    "failed": "stopped",
}
Call = Callable[..., Awaitable[Any]]


@dataclass
class Reported:
    status: str = "stopped"
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class Instance:
    """One launched browser, as the host holds it."""

    id: str
    provider: str
    name: str
    persistence: Persistence
    options: dict[str, Any]
    """As the user gave them, secrets included: kept in memory and in the 0600 file only."""
    created_at: str
    state: Callable[[], str]
    """The provider's own state (running, starting, stopped, failed) or a 001 status."""
    details: Callable[[], Mapping[str, Any]]
    held_by: Callable[[], str] = field(default=lambda: "none")
    actions: frozenset[str] = frozenset()
    offered: tuple[str, ...] = ()
    """The optional operations its provider declared for it (start, detach, ...)."""
    calls: Mapping[str, Call] = field(default_factory=dict)
    """In process, the provider's callable for each operation offered; empty for an instance
    of a provider service, which is sent them."""
    external: bool = False
    """Launched by a provider service, which is sent its lifecycle."""
    reported: Reported = field(default_factory=lambda: Reported())
    """For an instance of a provider service: what the service last said of it."""

    def status(self) -> Status:
        return _STATUS_OF.get(self.state(), "stopped")

    def control(self) -> dict[str, object]:
        if self.status() != "connected":
            return {"kind": "none"}
        screenshot = "page" if "browser.capture" in self.actions else "none"
        capabilities = {"actions": sorted(self.actions), "screenshot": screenshot}
        return {"kind": "provider", "capabilities": capabilities}

    def operations(self) -> list[str]:
        """What can be done to it now: close always; start while a persistent one is
        stopped; detach while it runs; the rest whenever declared."""
        status = self.status()
        permitted = {
            "start": self.persistence == "persistent" and status == "stopped",
            "detach": status != "stopped",
        }
        return ["close"] + [op for op in self.offered if permitted.get(op, True)]

    def public(self) -> dict[str, object]:
        return {
            "id": self.id,
            "provider": self.provider,
            "name": self.name,
            "status": self.status(),
            "control": self.control(),
            "heldBy": self.held_by(),
            "ownership": "owned",
            "persistence": self.persistence,
            "operations": self.operations(),
            "details": {**self.details(), "createdAt": self.created_at},
        }

    def session(self) -> dict[str, object]:
        """What an action's answer carries about the instance it ran on: routing and
        control state, nothing of its data."""
        return {
            "instance": self.id,
            "provider": self.provider,
            "status": self.status(),
            "control": self.control()["kind"],
            "heldBy": self.held_by(),
        }

    def report(self, answer: Mapping[str, Any]) -> None:
        """Take in what a service answered to a launch or a start: ``status`` (a 001 status;
        ``connected`` when it gives none), ``persistence`` and ``details``."""
        status = answer.get("status")
        self.reported.status = (
            status if isinstance(status, str) and status in _STATUS_OF else "connected"
        )
        details = answer.get("details")
        if isinstance(details, dict):
            self.reported.details = details
        if answer.get("persistence") in ("ephemeral", "persistent"):
            self.persistence = answer["persistence"]

    def remembered(self) -> dict[str, object]:
        return {
            "provider": self.provider,
            "name": self.name,
            "options": self.options,
            "createdAt": self.created_at,
        }
