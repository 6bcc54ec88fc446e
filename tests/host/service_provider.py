"""A provider the host runs as a service through the SDK runner, in tests of the lifecycle.

Each request it takes is printed (``received <action> <request id>``) to stdout, which the
host keeps in the service's log: a test counts what reached the process there.
``browser.click`` on ``#hang`` never answers until the host cancels it (``cancelled <id>``).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from browserhost.contract import Context, ProviderRequest, data
from browserhost.contract import actions as params
from browserhost.sdk import Provider
from browserhost.sdk.provider import Answer


class Recording(Provider):
    id = "recording"
    name = "Recording service"

    async def answer(self, request: ProviderRequest) -> Answer:
        print(f"received {request.action} {request.request_id}", flush=True)
        try:
            return await super().answer(request)
        except asyncio.CancelledError:
            print(f"cancelled {request.request_id}", flush=True)
            raise

    async def back(
        self, parameters: params.BackParameters, context: Context
    ) -> data.NavigationData:
        return data.NavigationData(url="http://service.test/", title=f"pid {os.getpid()}")

    async def click(self, parameters: params.ClickParameters, context: Context) -> data.ClickData:
        if parameters.selector == "#hang":
            await asyncio.Event().wait()
        return data.ClickData(
            clicked=str(parameters.selector), label="", url="http://service.test/"
        )


def register() -> dict[str, object]:
    """An entry point's record for this provider, run by the host through the SDK runner from
    the repository (where ``tests`` is importable)."""
    record = Recording().service_registration("tests.host.service_provider:Recording")
    record["service"]["cwd"] = str(Path(__file__).resolve().parents[2])
    return record
