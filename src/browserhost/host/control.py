"""Who holds a provider's surface: nobody, the agent, or a person at a viewer.

The agent holds it for :data:`~browserhost.contract.surface.AGENT_HOLD_S` after each action the
host ran for it; that hold is a notice, not a lock: a person takes control by acting (a click,
a wheel, a key, a paste) whether nobody or the agent holds it. While a person holds it the
host refuses the agent's actions (dispatch's control gate), saying where the person took it
(the viewer, or the bridged browser itself), and no other viewer can take it. It goes back to
the agent when that person hands back, or when their last viewer leaves (an agent must never
wait on a closed browser tab).

One :class:`ProviderControl` per provider id holds its :class:`Control`, the lane that puts
the person's input, control notices, resizes, clipboard reads and session choices through to
the provider one at a time in the order they came, the agent's last action, and a change
signal the viewers wait on.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from browserhost.contract.errors import UserInControlError
from browserhost.contract.surface import AGENT_HOLD_S, Controller, Surface

IN_THE_VIEWER: Final = "in the viewer"
"""Where a viewer's person takes control, as the agent's refusal says it."""


class Control:
    """The control state of one provider's surface, on an injectable clock."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.holder: str | None = None
        """The viewer whose person holds control, if one does."""
        self.where = IN_THE_VIEWER
        """Where the holder took control (``in the viewer``), for the agent's refusal."""
        self._agent_until = 0.0

    @property
    def controller(self) -> Controller:
        if self.holder is not None:
            return "user"
        return "agent" if self._clock() < self._agent_until else "none"

    def agent_left_s(self) -> float:
        """Seconds until the agent's hold ends (0 when it holds nothing)."""
        return max(0.0, self._agent_until - self._clock()) if self.holder is None else 0.0

    def gate(self, provider_name: str, action: str) -> None:
        """Refuse an agent action while a person holds control (nothing is sent)."""
        if self.holder is not None:
            raise UserInControlError(
                f"A person has taken over {provider_name} {self.where} (a login or a check, "
                f"say), so {action} was not sent. Wait and try again in a while, or ask the "
                "user to hand back to the agent."
            )

    def agent_acted(self) -> None:
        self._agent_until = self._clock() + AGENT_HOLD_S

    def take(self, viewer: str, where: str = IN_THE_VIEWER) -> bool:
        """Give control to ``viewer``'s person, who acted ``where``, unless another viewer's
        person holds it."""
        if self.holder not in (None, viewer):
            return False
        self.holder = viewer
        self.where = where
        return True

    def hand_back(self, viewer: str) -> bool:
        """Return control to the agent, if ``viewer``'s person held it."""
        if self.holder != viewer:
            return False
        self.holder = None
        self.agent_acted()  # the agent is expected to go on at once
        return True


T = TypeVar("T")

NOTICE_TIMEOUT_S = 5.0
"""How long a control notice (advisory) may take to reach a provider before it is dropped."""


@dataclass(frozen=True)
class AgentAction:
    """What the agent did last on a provider, for the viewer."""

    action: str
    outcome: str
    """``ok``, or the error code it ended with."""
    at: float
    """Wall-clock time, seconds since the epoch."""

    def to_wire(self) -> dict[str, object]:
        return {"action": self.action, "outcome": self.outcome, "at": self.at}


class ProviderControl:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.control = Control(clock)
        self.lane = asyncio.Lock()
        self.last_action: AgentAction | None = None
        self.pinned: tuple[str, str] | None = None
        """(viewer, session id) when a viewer chose the session the picture shows."""
        self.viewers: dict[str, int] = {}
        """Connections open per viewer id."""
        self._changed = asyncio.Event()
        self._expiry: asyncio.TimerHandle | None = None
        self._expiry_loop: asyncio.AbstractEventLoop | None = None
        self.version = 0
        """Counts the changes: a viewer that told one knows whether another came since."""

    def changed(self) -> asyncio.Event:
        """An event set at the next change of control or of the agent's last action."""
        return self._changed

    def announce(self) -> None:
        self.version += 1
        self._changed.set()
        self._changed = asyncio.Event()

    def announce_when_the_hold_ends(self) -> None:
        """Wake the viewers when the agent's hold runs out (control becomes nobody's).

        An agent acts many times within one hold. Rather than cancel a timer and set another
        on every action (each one more entry in the event loop's timer heap), one timer
        waits, and when it fires before the hold ends it waits out what is left."""
        loop = asyncio.get_running_loop()
        if self._expiry is None or self._expiry_loop is not loop:  # none, or a stopped loop's
            self._wake_after(loop, AGENT_HOLD_S)

    def _wake_after(self, loop: asyncio.AbstractEventLoop, delay_s: float) -> None:
        self._expiry_loop = loop
        self._expiry = loop.call_later(delay_s + 0.05, self._hold_timer_fired)

    def _hold_timer_fired(self) -> None:
        left = self.control.agent_left_s()
        if left > 0:
            self._wake_after(asyncio.get_running_loop(), left)
        else:
            self._expiry = None
            self.announce()


class Controls:
    """Every provider's control state, by provider id; ``clock`` times the agent's hold."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._by_id: dict[str, ProviderControl] = {}
        self._notices: set[asyncio.Task[None]] = set()

    def of(self, provider_id: str) -> ProviderControl:
        found = self._by_id.get(provider_id)
        if found is None:
            found = self._by_id[provider_id] = ProviderControl(self._clock)
        return found

    def controller(self, provider_id: str) -> Controller:
        return self.of(provider_id).control.controller

    def gate(self, provider_id: str, provider_name: str, action: str) -> None:
        """Dispatch step 3: refuse while a person holds the provider's surface; the viewer
        shows the refused attempt as the agent's last action."""
        found = self._by_id.get(provider_id)
        if found is None:
            return
        try:
            found.control.gate(provider_name, action)
        except UserInControlError as refused:
            found.last_action = AgentAction(action, refused.code.value, time.time())
            found.announce()
            raise

    def agent_acted(
        self, provider_id: str, surface: Surface | None, action: str, outcome: str
    ) -> None:
        """Dispatch step 8: the agent holds the surface for a while after an action was sent."""
        state = self.of(provider_id)
        before = state.control.controller
        state.control.agent_acted()
        state.last_action = AgentAction(action, outcome, time.time())
        if state.control.controller != before:
            self._notify(surface, state)
        state.announce_when_the_hold_ends()
        state.announce()

    def take(
        self, provider_id: str, surface: Surface | None, viewer: str, where: str = IN_THE_VIEWER
    ) -> bool:
        """The viewer's person acted (``where``, when not in the viewer): they hold control
        unless another person does."""
        state = self.of(provider_id)
        before = state.control.controller
        if not state.control.take(viewer, where):
            return False
        if before != "user":
            self._notify(surface, state)
            state.announce()
        return True

    def hand_back(self, provider_id: str, surface: Surface | None, viewer: str) -> bool:
        state = self.of(provider_id)
        if not state.control.hand_back(viewer):
            return False
        self._notify(surface, state)
        state.announce_when_the_hold_ends()
        state.announce()
        return True

    def attach(self, provider_id: str, viewer: str) -> None:
        viewers = self.of(provider_id).viewers
        viewers[viewer] = viewers.get(viewer, 0) + 1

    def detach(self, provider_id: str, surface: Surface | None, viewer: str) -> None:
        """A viewer's connection closed; its person's control ends with its last one."""
        state = self.of(provider_id)
        left = state.viewers.get(viewer, 0) - 1
        if left > 0:
            state.viewers[viewer] = left
            return
        state.viewers.pop(viewer, None)
        self.hand_back(provider_id, surface, viewer)

    async def in_order(self, provider_id: str, call: Callable[[], Awaitable[T]]) -> T:
        """Run ``call`` on the provider's lane: after everything the viewers sent before it."""
        async with self.of(provider_id).lane:
            return await call()

    def _notify(self, surface: Surface | None, state: ProviderControl) -> None:
        """Tell the provider who holds control now, in order with the person's input."""
        if surface is None:
            return
        controller = state.control.controller

        async def post() -> None:
            with contextlib.suppress(Exception):  # advisory: a provider that fails it is fine
                async with state.lane, asyncio.timeout(NOTICE_TIMEOUT_S):
                    await surface.control(controller)

        task = asyncio.get_running_loop().create_task(post())
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)

    def state(self, provider_id: str, viewer: str | None = None) -> dict[str, Any]:
        """What a viewer shows about control: who holds it (``you`` when it is this viewer's
        person), how long the agent still holds it, and the agent's last action."""
        state = self.of(provider_id)
        control = state.control
        return {
            "controller": control.controller,
            "you": viewer is not None and control.holder == viewer,
            "agentHoldS": round(control.agent_left_s(), 1),
            "lastAction": None if state.last_action is None else state.last_action.to_wire(),
            "pinned": None if state.pinned is None else state.pinned[1],
        }
