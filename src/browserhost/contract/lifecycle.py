"""An instance's lifecycle, as a provider service is sent it: launch, close, configure and the
operations an instance may offer.

The host posts one operation to the service's :data:`~.limits.LIFECYCLE_PATH`, each with the
``protocolVersion`` it speaks (left out here)::

    {"operation": "launch",       "browserId": "textbrowser~1", "options": {...}}
    {"operation": "close",        "browserId": ...}
    {"operation": "configure",    "options": {...}}           (the provider's configuration)
    {"operation": "start",        "browserId": ..., "options": {...}}  (a stopped persistent one)
    {"operation": "detach",       "browserId": ...}           (leave it running, forget it)
    {"operation": "sync_cookies", "browserId": ..., "scope": {...}}   (fromFile or toFile)
    {"operation": "references",   "browserId": ...}

and the service answers as it answers an action: ``{ok: true, data: {...}}`` or
``{ok: false, error}``. ``browserId`` is the host's id of the instance; every action for it
carries the same ``browserId`` in its envelope (:class:`~.wire.ProviderRequest`). A service
refuses an operation of another protocol version unrun, as it refuses an action's envelope.

What the host shows of an instance follows the provider runtime's contract (reference 001):
``status`` is one of :data:`STATUSES` and ``control`` names the channel that handles page
actions (:data:`CONTROL_KINDS`), with the actions it handles.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .limits import PROTOCOL_VERSION
from .wire import check_version

STATUSES: Final = ("connected", "pairing", "running_disconnected", "stopped")
Status = Literal["connected", "pairing", "running_disconnected", "stopped"]
CONTROL_KINDS: Final = ("provider", "extension", "none")
OPTIONAL_OPERATIONS: Final = ("start", "detach", "sync_cookies", "references")
"""What a provider may declare that its instances offer, beside ``close`` (always offered)."""
INSTANCE_OPERATIONS: Final = ("close", *OPTIONAL_OPERATIONS)
SERVICE_OPERATIONS: Final = ("launch", "configure", *INSTANCE_OPERATIONS)
Operation = Literal["launch", "configure", "close", "start", "detach", "sync_cookies", "references"]


@dataclass(frozen=True)
class LifecycleRequest:
    """One lifecycle operation as the host posts it and a service reads it."""

    operation: str
    browser_id: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    """A launch's or a start's options, a configuration, or a cookie sync's scope."""

    def to_wire(self) -> dict[str, object]:
        wire: dict[str, object] = {"protocolVersion": PROTOCOL_VERSION, "operation": self.operation}
        if self.browser_id is not None:
            wire["browserId"] = self.browser_id
        if self.operation == "sync_cookies":
            wire["scope"] = self.options
        elif self.operation in ("launch", "start", "configure"):
            wire["options"] = self.options
        return wire

    @classmethod
    def from_wire(cls, body: str | bytes) -> LifecycleRequest | None:
        """The service's read; ``None`` is not a lifecycle operation (answer 400). One without
        ``protocolVersion`` (from a host older than the field) is read as this version; one
        naming another is refused with :class:`~.wire.ProtocolVersionError`."""
        try:
            wire = json.loads(body)
        except ValueError:
            return None
        if not isinstance(wire, dict) or wire.get("operation") not in SERVICE_OPERATIONS:
            return None
        check_version(
            wire.get("protocolVersion", PROTOCOL_VERSION), "the host sent", "this provider"
        )
        browser_id = wire.get("browserId")
        if (browser_id is None) != (wire["operation"] == "configure"):
            return None
        if browser_id is not None and not (isinstance(browser_id, str) and browser_id):
            return None
        options = wire.get("scope" if wire["operation"] == "sync_cookies" else "options", {})
        if not isinstance(options, dict):
            return None
        return cls(wire["operation"], browser_id, options)
