"""The control gate: who holds a provider's surface, and what the agent may do meanwhile."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from browserhost.contract.errors import UserInControlError
from browserhost.contract.surface import AGENT_HOLD_S
from browserhost.host import Host, control
from browserhost.host.control import Controls
from tests.recording import Recorder

pytestmark = pytest.mark.asyncio


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def host(tmp_path: Path, clock: Clock, recorder: Recorder) -> Host:
    made = Host(tmp_path, controls=Controls(clock))
    made.catalog.install(recorder.record())
    made.select(recorder.id)
    return made


async def test_the_agent_holds_the_surface_for_30_s_after_each_action(
    host: Host, clock: Clock
) -> None:
    assert host.controls.controller("rec") == "none"
    await host.dispatch("browser.snapshot")
    assert host.controls.controller("rec") == "agent"
    assert host.controls.state("rec")["lastAction"]["action"] == "browser.snapshot"
    clock.now += AGENT_HOLD_S - 0.1
    assert host.controls.controller("rec") == "agent"
    clock.now += 0.2
    assert host.controls.controller("rec") == "none"


async def test_while_a_person_holds_it_agent_actions_are_refused_and_never_sent(
    host: Host, recorder: Recorder
) -> None:
    await host.dispatch("browser.snapshot")
    assert host.controls.take("rec", None, "viewer-1")  # taking from the agent is allowed
    with pytest.raises(UserInControlError) as refused:
        await host.dispatch("browser.click", {"selector": "#buy"})
    assert refused.value.message == (
        "A person has taken over Recorder rec in the viewer (a login or a check, say), so "
        "browser.click was not sent. Wait and try again in a while, or ask the user to hand "
        "back to the agent."
    )
    assert refused.value.status == 423
    assert [request.action for request in recorder.requests] == ["browser.snapshot"]
    assert host.controls.state("rec", "viewer-1")["you"] is True

    assert host.controls.hand_back("rec", None, "viewer-1")
    assert host.controls.controller("rec") == "agent"
    await host.dispatch("browser.click", {"selector": "#buy"})
    assert [request.action for request in recorder.requests][-1] == "browser.click"


async def test_a_second_viewer_cannot_take_or_hand_back_what_another_person_holds(
    host: Host,
) -> None:
    assert host.controls.take("rec", None, "first")
    assert not host.controls.take("rec", None, "second")
    assert not host.controls.hand_back("rec", None, "second")
    assert host.controls.state("rec", "second") | {"lastAction": None} == {
        "controller": "user",
        "you": False,
        "agentHoldS": 0.0,
        "lastAction": None,
        "pinned": None,
    }


async def test_control_ends_when_the_holding_viewers_last_connection_closes(
    host: Host,
) -> None:
    host.controls.attach("rec", "first")
    host.controls.attach("rec", "first")  # two tabs of the same viewer
    assert host.controls.take("rec", None, "first")
    host.controls.detach("rec", None, "first")
    assert host.controls.controller("rec") == "user"
    host.controls.detach("rec", None, "first")
    assert host.controls.controller("rec") == "agent"


async def test_a_request_that_was_never_sent_gives_the_agent_no_hold(
    host: Host, recorder: Recorder
) -> None:
    with pytest.raises(Exception, match="requires selector or text"):
        await host.dispatch("browser.click", {})
    assert host.controls.controller("rec") == "none"


async def test_viewers_are_woken_when_the_hold_after_the_last_action_ends(
    tmp_path: Path, recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not when the first action's hold would have ended: the agent still holds it then."""
    monkeypatch.setattr(control, "AGENT_HOLD_S", 0.2)
    host = Host(tmp_path)  # the real clock: the wake-up is an event loop timer
    host.catalog.install(recorder.record())
    host.select(recorder.id)
    await host.dispatch("browser.snapshot")
    loop = asyncio.get_running_loop()
    halfway = loop.create_future()
    loop.call_later(0.1, halfway.set_result, None)
    async with asyncio.timeout(5):
        await halfway
        await host.dispatch("browser.snapshot")
        assert host.controls.controller("rec") == "agent"
        await host.controls.of("rec").changed().wait()
    assert host.controls.controller("rec") == "none"
