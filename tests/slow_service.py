"""A provider the host runs as a service through the SDK runner, for the tests of a caller's own
``timeoutMs`` through each adapter: what deadline reached the process, and an action that
outlasts it.

``browser.back`` answers, as its title, the seconds left until the deadline its envelope
carried, and the verb ``linger`` as ``secondsLeft``; ``browser.click`` on ``#slow`` never
answers until the host gives up on it and cancels it. Each request is printed (``received
<action>``) to stdout, which the host keeps in the service's log: a test counts what reached
the process there.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from browserhost.contract import Context, ProviderRequest, data
from browserhost.contract import actions as params
from browserhost.host.dispatch import SERVICE_LOGS
from browserhost.sdk import Provider, VerbArguments, seconds_left, verb
from browserhost.sdk.provider import Answer

ID = "slow"
_LEFT = re.compile(r"^(\d+\.\d) s left$")


class Slow(Provider):
    id = ID
    name = "Slow service"

    async def answer(self, request: ProviderRequest) -> Answer:
        print(f"received {request.action}", flush=True)
        return await super().answer(request)

    async def back(
        self, parameters: params.BackParameters, context: Context
    ) -> data.NavigationData:
        return data.NavigationData(
            url="http://slow.test/", title=f"{seconds_left(-1.0):.1f} s left"
        )

    @verb("Say how long the host waits for this answer.", changes_page=False)
    async def linger(self, arguments: VerbArguments, context: Context) -> dict[str, float]:
        return {"secondsLeft": round(seconds_left(-1.0), 1)}

    async def click(self, parameters: params.ClickParameters, context: Context) -> data.ClickData:
        if parameters.selector == "#slow":
            await asyncio.Event().wait()  # until the host cancels it, past the caller's deadline
        return data.ClickData(clicked=str(parameters.selector), label="", url="http://slow.test/")


def register() -> dict[str, object]:
    """The record of this provider, run by the host through the SDK runner from the repository
    (where ``tests`` is importable)."""
    record = Slow().service_registration("tests.slow_service:Slow")
    record["service"]["cwd"] = str(Path(__file__).resolve().parents[1])
    return record


def seconds_left_in(title: str) -> float:
    """The seconds left that a ``back`` answer's title tells."""
    found = _LEFT.match(title)
    assert found is not None, title
    return float(found.group(1))


def received(data_dir: Path) -> list[str]:
    """The actions that reached the service process, from its log in ``data_dir``."""
    log = data_dir / SERVICE_LOGS / f"{ID}.log"
    lines = log.read_text().splitlines() if log.exists() else []
    return [line.removeprefix("received ") for line in lines if line.startswith("received ")]
