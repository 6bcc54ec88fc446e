"""The stub run as a provider service whose panel page talks to it, for the panel's tests.

Its page (``panel_page.html``) sends the service requests through the viewer and shows what it
is told; the service answers every request under ``/panel/`` with what it received, and prints
``panel <method> <path>`` to stdout (the host keeps it in the service's log), so a test can
tell that a refused request never reached it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from browserhost.providers.stub import StubProvider
from browserhost.sdk import ActionError, Panel


class PanelStub(StubProvider):
    id = "panelstub"
    name = "Stub with a talking panel"
    panel = Panel(Path(__file__).with_name("panel_page.html"), dock="top", size=120,
                  requests="/panel/")  # fmt: skip

    async def panel_request(self, method: str, path: str, body: object) -> object:
        print(f"panel {method} {path}", flush=True)
        if path.startswith("/panel/refuse"):
            raise ActionError("The service refuses this on purpose.")
        return {"method": method, "path": path, "body": body, "pid": os.getpid()}


def record() -> dict[str, Any]:
    """The record the host runs this service from, in the repository (where ``tests`` is
    importable)."""
    declared = PanelStub().service_registration("tests.api.panel_service:PanelStub")
    declared["service"]["cwd"] = str(Path(__file__).resolve().parents[2])
    return declared
