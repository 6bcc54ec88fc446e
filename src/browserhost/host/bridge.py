"""The bridge provider: a browser elsewhere that dials in (:mod:`browserhost.transports.bridge`).

Its catalog row is listed from the start, so a user can select it before any browser
connects; while none is, it offers every action and each one is refused by the transport
with ``PROVIDER_UNAVAILABLE`` ("no browser connected"), nothing sent. A connection's ``hello``
says which actions and verbs the far side implements, and the row then offers exactly those,
until it goes; when it says it has a surface, the row has one too (:class:`BridgeSurface`,
the viewer's picture over the same socket), and has none otherwise.

Who may connect: the token's holder, or a browser a person paired (:attr:`Bridge.pairing`,
:mod:`.pairing`). ``extension_id``, when set, is a filter only: a socket whose origin names
another browser extension is closed (:mod:`browserhost.api.bridge`); it lets nobody in.

The far side may also call host methods over the socket (:data:`RPC_METHODS`); those that
change settings are answered ``forbidden`` unless the socket comes from this machine. Other
refusals: ``unknown-method``, ``bad-request`` (a payload without what the method takes), the
contract's code when the host refuses (``PROVIDER_NOT_FOUND``...), and ``internal`` when the
method itself failed.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from browserhost.contract import ACTIONS
from browserhost.contract.bridge import (
    CLOSE_NOT_PAIRED,
    PRIVILEGED_METHODS,
    RPC_METHODS,
    Hello,
    Rpc,
)
from browserhost.contract.errors import BrowserhostError
from browserhost.transports.bridge import BridgeTransport, Link
from browserhost.transports.bridge_surface import BridgeSurface

from .catalog import InstalledProvider, InstallError, read_actions, read_verbs, verb_checkers
from .dispatch import Host
from .pairing import PairedRecord, Pairing

BRIDGE_ID: Final = "bridge"
HOLDER: Final = "bridge-browser"
"""Who holds control when the person at the connected browser takes it (a viewer's id
elsewhere)."""
IN_THE_BROWSER: Final = "in that browser itself, in a tab the agent works in"
"""Where that person took control, as the agent's refusal says it: not in the viewer."""
BRIDGE_NAME: Final = "Bridge (a browser that connects in)"


def offered(enabled: list[str] | None) -> bool:
    """Whether ``serve`` installs the bridge under ``BROWSERHOST_PROVIDERS`` (``enabled``),
    which narrows it like any provider; ``serve --no-bridge`` leaves it out as well."""
    return enabled is None or BRIDGE_ID in enabled


class RpcError(Exception):
    """A host method refused; ``code`` goes on the wire beside the message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Bridge:
    """Installs the bridge provider in ``host``'s catalog and keeps its row current."""

    def __init__(
        self, host: Host, provider_id: str = BRIDGE_ID, *, extension_id: str | None = None
    ) -> None:
        self.host = host
        self.extension_id = extension_id
        self.transport = BridgeTransport(self._follow)
        self.surface = BridgeSurface(self.transport)
        self.pairing = Pairing(host.data_dir)
        self._idle = InstalledProvider(
            provider_id, BRIDGE_NAME, frozenset(ACTIONS), self.transport, bridge=self.transport
        )
        host.catalog.put(self._idle)

    @staticmethod
    def check(hello: Hello) -> None:
        """Refuse a hello whose declarations the catalog would not install."""
        read_actions(hello.actions)
        read_verbs(hello.verbs)

    async def forget(self, paired_id: str) -> PairedRecord:
        """Revoke a paired browser; its connection, if it is the live one, ends now."""
        record = await self.pairing.forget(paired_id)
        link = self.transport.link
        if link is not None and link.paired == paired_id:
            await link.close(CLOSE_NOT_PAIRED, "forgotten")
        return record

    def _follow(self, link: Link | None) -> None:
        if link is None:
            self.host.catalog.put(self._idle)
            # An agent must never wait on a person whose browser went away.
            self.host.controls.hand_back(self._idle.id, None, HOLDER)
            return
        try:
            actions = read_actions(link.hello.actions)
            verbs = read_verbs(link.hello.verbs)
        except InstallError:  # checked before the link was attached
            return
        checkers = verb_checkers(verbs)
        surface = self.surface if link.hello.surface else None
        self.host.catalog.put(
            dataclasses.replace(
                self._idle, actions=actions, verbs=verbs, checkers=checkers, surface=surface
            )
        )

    def call(self, rpc: Rpc, loopback: bool) -> Any:
        """Run one host method for the far side, or raise :class:`RpcError`."""
        if rpc.method in PRIVILEGED_METHODS and not loopback:
            raise RpcError("forbidden", f"{rpc.method} is only allowed from this machine")
        if rpc.method not in RPC_METHODS:
            raise RpcError(
                "unknown-method", f"no method {rpc.method!r}; try {', '.join(sorted(RPC_METHODS))}"
            )
        try:
            if rpc.method == "providers.list":
                return self.host.providers().to_wire()
            if rpc.method == "selection.get":
                return {"selectedId": self.host.providers().selected_id}
            if rpc.method == "control.take":
                taken = self.host.controls.take(self._idle.id, None, HOLDER, IN_THE_BROWSER)
                return {"taken": taken}
            if rpc.method == "control.handBack":
                return {"handedBack": self.host.controls.hand_back(self._idle.id, None, HOLDER)}
            wanted = rpc.payload.get("id") if isinstance(rpc.payload, dict) else None
            if not isinstance(wanted, str):
                raise RpcError(
                    "bad-request",
                    'selection.set takes {"id": "<provider id>"}; the selection was not changed',
                )
            return {"selectedId": self.host.select(wanted)}
        except BrowserhostError as exc:
            raise RpcError(exc.code.value, exc.message) from exc
