"""A provider service process that is killed, hangs, trickles, or answers garbage, 13 MB or a
gzip bomb, reached by the host over a real loopback socket.

The host is the in-process :class:`Host`, so a fault that only ends at the deadline costs a
second, not the contract's 20: the click's deadline is set to :data:`DEADLINE_S` (the
caller's ``timeoutMs``) for those. The others keep the contract's deadline, so that a busy
machine inflating a gzip bomb is not mistaken for a hang. Its descriptors are this process's
own. (The transport-level versions of these faults, with the
exact messages, are in ``tests/transports/test_loopback.py``.)
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from browserhost.contract import ACTIONS
from browserhost.contract.errors import MayHaveRunError, RequestFailedError, UnknownResultError
from browserhost.host import Host
from tests.processes import Holdings

from .faulty_service import FaultyService

pytestmark = pytest.mark.slow

DEADLINE_S = 1.5
ANSWER_WAIT_S = 10.0

BACK = {"action": "browser.back", "parameters": {}}


@pytest.fixture
async def host(tmp_path: Path, faulty_service: FaultyService) -> AsyncIterator[Host]:
    host = Host(tmp_path / "data")
    host.catalog.install(
        {
            "id": "svc",
            "provides": ["browser"],
            "actions": list(ACTIONS),
            "endpoint": faulty_service.origin,
        }
    )
    host.select("svc")
    yield host
    await host.aclose()


async def back_works(host: Host) -> None:
    async with asyncio.timeout(ANSWER_WAIT_S):
        outcome = await host.dispatch("browser.back")
    assert outcome.data == {"url": "http://fault.test/", "title": "Fault test"}


async def click(host: Host, fault: str) -> None:
    ending_at_the_deadline = fault in ("hang", "trickle")
    async with asyncio.timeout(ANSWER_WAIT_S if ending_at_the_deadline else 60.0):
        await host.dispatch(
            "browser.click",
            {"selector": f"#{fault}"},
            timeout_ms=round(DEADLINE_S * 1000) if ending_at_the_deadline else None,
        )


FAULTS = {
    "hang": (RequestFailedError, "which gave no answer (No answer within 1.5 s"),
    "trickle": (RequestFailedError, "which gave no answer (No answer within 1.5 s"),
    "garbage": (UnknownResultError, "unusable answer to browser.click (The provider service's"),
    "oversized": (UnknownResultError, "larger than 12000000 bytes"),
    "gzip-bomb": (UnknownResultError, "larger than 12000000 bytes"),
}


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_a_service_fault_may_have_run_arrived_once_and_leaves_nothing_behind(
    host: Host, faulty_service: FaultyService, fault: str
) -> None:
    await back_works(host)  # the host's HTTP client is made and has been used
    before = Holdings.of(os.getpid())
    expected, says = FAULTS[fault]
    with pytest.raises(MayHaveRunError) as failed:
        await click(host, fault)
    assert type(failed.value) is expected
    assert says in failed.value.message
    assert failed.value.message.endswith("take a snapshot before acting again.")
    await back_works(host)
    assert faulty_service.wait_for_requests(3) == [
        BACK,
        {"action": "browser.click", "parameters": {"selector": f"#{fault}"}},
        BACK,
    ]
    before.assert_nothing_more_later()


async def test_a_service_killed_mid_action_may_have_run_and_its_restart_serves_the_next(
    host: Host, faulty_service: FaultyService
) -> None:
    await back_works(host)
    before = Holdings.of(os.getpid())
    in_flight = asyncio.create_task(click(host, "hang"))
    arrived = await asyncio.to_thread(faulty_service.wait_for_requests, 2)
    assert arrived[1] == {"action": "browser.click", "parameters": {"selector": "#hang"}}
    killed = faulty_service.pid
    faulty_service.kill()
    with pytest.raises(RequestFailedError) as failed:
        await in_flight
    assert "browser.click was sent to svc, which gave no answer" in failed.value.message
    assert "It may have run" in failed.value.message
    assert faulty_service.received == [BACK, arrived[1]]  # nothing more reached it
    faulty_service.start()  # the same port, a new process
    await back_works(host)
    assert faulty_service.wait_for_requests(1) == [BACK]
    # The test's own service changed pid; the host started none and holds no more fds.
    children = before.children - {killed} | {faulty_service.pid}
    dataclasses.replace(before, children=frozenset(children)).assert_nothing_more_later()
