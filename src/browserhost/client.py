"""The Python client: one async method per browser action, over the HTTP API.

::

    async with Client() as browser:          # BROWSERHOST_URL / BROWSERHOST_TOKEN, or defaults
        page = await browser.open("https://example.com")
        snap = await browser.snapshot()        # typed: SnapshotData
        await browser.click(text="More information...")

Parameters are checked here with the contract's own rules before anything is sent, so an
invalid call raises :class:`~browserhost.contract.errors.InvalidActionError` without a round
trip. Every failure raises the contract's exception for its code (one tree, see
:mod:`browserhost.contract.errors`); two client-side additions name what only a client can
see::

    NothingRanError
    ├── InvalidActionError
    │   └── HostRefusedError        the host's gate refused the call (token, Host, Origin, body)
    └── ProviderUnavailableError
        └── HostUnavailableError    browserhost itself could not be reached

A request that was sent and then lost raises :class:`RequestFailedError` (``may_have_run``);
the client never retries it.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from dataclasses import replace
from functools import cached_property
from typing import Any, TypeVar
from urllib.parse import quote, urlencode

from pydantic import Field, ValidationError

from browserhost.api.paths import (
    INSTANCES_PATH,
    PAIRED_PATH,
    PENDING_PATH,
    PROVIDERS_PATH,
    RECORDING_STEPS_PATH,
    RECORDINGS_PATH,
    SELECTION_PATH,
)
from browserhost.connection import Connection, HostRefusedError, HostUnavailableError, describe
from browserhost.contract import ACTIONS, VERB_PREFIX, Context, VerbSpec, normalize, verb_name
from browserhost.contract import data as answers
from browserhost.contract.actions import ScrollDirection
from browserhost.contract.base import WireModel
from browserhost.contract.data import ViewportMode
from browserhost.contract.errors import BrowserhostError, ErrorCode, UnknownResultError
from browserhost.contract.recording import Recording, RecordingsAnswer
from browserhost.contract.verbs import VERB_TIMEOUT_S
from browserhost.contract.wire import Outcome

D = TypeVar("D", bound=answers.Data)


class PanelInfo(WireModel):
    dock: str
    """The edge of the picture the provider's own page is docked to."""
    size: int
    """Its thickness across that edge, in CSS pixels."""


class ServiceInfo(WireModel):
    state: str
    """``stopped``, ``starting``, ``running`` or ``failed``."""
    reason: str | None = Field(None, exclude_if=lambda reason: reason is None)
    """Why it failed, when it did."""
    uptime_s: float | None = Field(None, exclude_if=lambda uptime: uptime is None)
    """Seconds since it became ready, while it runs."""


class CapacityInfo(WireModel):
    source: str
    """Where the provider's browsers run: ``Selenium Grid``."""
    free: int | None = Field(None, exclude_if=lambda free: free is None)
    """Slots free for a new browser now."""
    busy: int | None = Field(None, exclude_if=lambda busy: busy is None)
    """Slots holding a browser now."""
    problem: str | None = Field(None, exclude_if=lambda problem: problem is None)
    """Why the slots could not be counted, or why none can be used."""


class BridgeInfo(WireModel):
    connected: bool
    """Whether a browser is connected to the bridge now."""
    provider: str | None = Field(None, exclude_if=lambda provider: provider is None)
    """The name the connected side gave (``Chrome extension``)."""


class LaunchInfo(WireModel):
    input_schema: dict[str, Any]
    """JSON Schema of the launch options, with titles, descriptions and defaults."""
    help: str
    documentation_url: str | None = Field(None, exclude_if=lambda url: url is None)
    operations: list[str] = Field(default_factory=lambda: ["close"])
    """What its instances may offer: close, and those the provider declared."""


class ConfigurationInfo(WireModel):
    input_schema: dict[str, Any]
    """JSON Schema of the provider's own settings (:meth:`Client.configure`)."""


class InstanceInfo(WireModel):
    """A launched browser (``GET /api/browser-providers/instances``)."""

    id: str
    """``provider~name``: select it, or pass it as ``provider_id``."""
    provider: str
    name: str
    status: str
    """``connected``, ``pairing``, ``running_disconnected`` (starting), ``stopped``;
    ``closed`` once closed."""
    control: dict[str, Any]
    """What handles its page actions: ``{"kind": "provider", "capabilities": {...}}`` or
    ``{"kind": "none"}``."""
    held_by: str
    """Who holds its surface in the viewer: ``none``, ``agent`` or ``user``."""
    ownership: str
    persistence: str
    """``ephemeral``, or ``persistent``: its data outlives the host."""
    operations: list[str]
    """What can be done to it now (:meth:`Client.operate`)."""
    details: dict[str, Any]


class OperationInfo(WireModel):
    """An operation's answer: the instance after it, and what it gave."""

    instance: InstanceInfo
    result: dict[str, Any]


class PendingInfo(WireModel):
    """A browser waiting for a person's approval to connect to the bridge."""

    id: str
    """The request's id, which the waiting browser shows too."""
    name: str
    """The name it gave itself: its own word, no proof."""
    origin: str | None = Field(None, exclude_if=lambda origin: origin is None)
    """The Origin its socket sent: its own word, no proof."""
    since: float
    """When it asked, in epoch seconds."""


class PairedInfo(WireModel):
    """A browser a person approved: it connects to the bridge with a secret of its own."""

    id: str
    name: str
    origin: str | None = Field(None, exclude_if=lambda origin: origin is None)
    paired_at: float
    """When it was approved, in epoch seconds."""


class ProviderInfo(WireModel):
    id: str
    name: str
    surface: bool = False
    panel: PanelInfo | None = Field(None, exclude_if=lambda panel: panel is None)
    verbs: list[VerbSpec] = Field(default_factory=list)
    """The provider's own verbs, for :meth:`Client.call`."""
    service: ServiceInfo | None = Field(None, exclude_if=lambda service: service is None)
    """The process the host runs for this provider, if it runs one."""
    bridge: BridgeInfo | None = Field(None, exclude_if=lambda bridge: bridge is None)
    """For the bridge provider only: whether a browser is connected to it."""
    capacity: CapacityInfo | None = Field(None, exclude_if=lambda capacity: capacity is None)
    """The free and busy slots where its browsers run (a Selenium Grid), if elsewhere."""
    launch: LaunchInfo | None = Field(None, exclude_if=lambda launch: launch is None)
    """How to launch instances of this provider, when it can."""
    instance: InstanceInfo | None = Field(None, exclude_if=lambda instance: instance is None)
    """The launched instance this row routes to."""
    configuration: ConfigurationInfo | None = Field(None, exclude_if=lambda c: c is None)
    """The provider's own settings, when it has some."""
    state: str | None = Field(None, exclude_if=lambda state: state is None)
    """What the browser it starts on this machine is doing: stopped, starting, running, failed."""


class Providers(WireModel):
    """The reachable providers and the selection (``GET /api/browser-providers``)."""

    providers: list[ProviderInfo]
    selected_id: str | None = None


Answer = Outcome
"""An action's raw answer: who answered and the ``data`` as the provider gave it."""


class Client(Connection):
    """An async client of a running ``browserhost serve``: a :class:`Connection` (its
    arguments, the same) that reads every answer into the contract's models."""

    @cached_property
    def context(self) -> Context:
        """The context of every action sent without one of its own."""
        return Context(directory=self.directory, session_id=self.session_id)

    async def providers(self) -> Providers:
        """The reachable browser providers and which one is selected."""
        body = await self._request("GET", PROVIDERS_PATH, may_have_run=False)
        return Providers.model_validate(body)

    async def select(self, provider_id: str) -> str:
        """Choose the provider that answers actions sent without a ``provider_id``."""
        body = await self._request("PUT", SELECTION_PATH, json={"id": provider_id})
        selected = body.get("selectedId")
        if not isinstance(selected, str):
            raise UnknownResultError("The host's answer to the selection has no selectedId.")
        return selected

    async def instances(self) -> list[InstanceInfo]:
        """The launched browser instances."""
        body = await self._request("GET", INSTANCES_PATH, may_have_run=False)
        return [InstanceInfo.model_validate(row) for row in body.get("instances", [])]

    async def launch(
        self, provider: str, options: Mapping[str, object] | None = None, *, name: str | None = None
    ) -> InstanceInfo:
        """Launch an instance of ``provider``; the host checks ``options`` against the
        provider's launch schema and refuses them all at once, launching nothing."""
        request: dict[str, object] = {"provider": provider, "options": dict(options or {})}
        if name is not None:
            request["name"] = name
        body = await self._request("POST", INSTANCES_PATH, json=request, wait_s=60.0)
        return InstanceInfo.model_validate(body)

    async def close_instance(self, instance_id: str) -> InstanceInfo:
        """Close an instance: its browser stops and it is forgotten (a profile stays)."""
        path = f"{INSTANCES_PATH}/{quote(instance_id, safe='')}"
        body = await self._request("DELETE", path, wait_s=60.0)
        return InstanceInfo.model_validate(body)

    async def operate(
        self, instance_id: str, operation: str, arguments: Mapping[str, object] | None = None
    ) -> OperationInfo:
        """Run one of the operations an instance's ``operations`` lists: ``start``,
        ``detach``, ``sync_cookies`` (``{"fromFile"|"toFile": path}``), ``references``,
        ``close``; one it does not list is refused (``UNSUPPORTED``), nothing done."""
        path = f"{INSTANCES_PATH}/{quote(instance_id, safe='')}/operations/{quote(operation)}"
        body = await self._request(
            "POST", path, json={"arguments": dict(arguments or {})}, wait_s=60.0
        )
        return OperationInfo.model_validate(body)

    async def configure(self, provider: str, options: Mapping[str, object]) -> ProviderInfo:
        """Change a provider's own settings, checked against its configuration schema."""
        path = f"{PROVIDERS_PATH}/{quote(provider, safe='')}/configure"
        body = await self._request("POST", path, json={"options": dict(options)}, wait_s=60.0)
        return ProviderInfo.model_validate(body)

    async def pending(self) -> list[PendingInfo]:
        """The browsers waiting for a person's approval to connect to the bridge."""
        body = await self._request("GET", PENDING_PATH, may_have_run=False)
        return [PendingInfo.model_validate(row) for row in body.get("pending", [])]

    async def paired(self) -> list[PairedInfo]:
        """The browsers a person approved."""
        body = await self._request("GET", PAIRED_PATH, may_have_run=False)
        return [PairedInfo.model_validate(row) for row in body.get("paired", [])]

    async def approve(self, pairing_id: str) -> PairedInfo:
        """Approve a waiting browser: it gets a secret of its own and connects."""
        path = f"{PENDING_PATH}/{quote(pairing_id, safe='')}/approve"
        return PairedInfo.model_validate(await self._request("POST", path))

    async def deny(self, pairing_id: str) -> PendingInfo:
        """Deny a waiting browser: its connection is closed."""
        path = f"{PENDING_PATH}/{quote(pairing_id, safe='')}/deny"
        return PendingInfo.model_validate(await self._request("POST", path))

    async def forget(self, pairing_id: str) -> PairedInfo:
        """Forget a paired browser: it must be approved again to connect."""
        path = f"{PAIRED_PATH}/{quote(pairing_id, safe='')}"
        return PairedInfo.model_validate(await self._request("DELETE", path))

    async def recordings(self) -> RecordingsAnswer:
        """Whether the host records actions, and the sessions it has recorded."""
        body = await self._request("GET", RECORDINGS_PATH, may_have_run=False)
        return RecordingsAnswer.model_validate(body)

    async def recording(self, session_id: str | None, *, pictures: bool = False) -> Recording:
        """A session's recorded steps, oldest first (``None``: the actions sent without a
        session); with ``pictures``, each step's picture inlined as base64."""
        query = {"pictures": "true" if pictures else "false"}
        if session_id is not None:
            query["session"] = session_id
        body = await self._request(
            "GET", f"{RECORDING_STEPS_PATH}?{urlencode(query)}", wait_s=120.0, may_have_run=False
        )
        return Recording.model_validate(body)

    async def run(
        self,
        action: str,
        parameters: Mapping[str, object] | None = None,
        *,
        context: Context | None = None,
        provider_id: str | None = None,
        timeout_ms: int | None = None,
    ) -> Answer:
        """Run one action by its wire name and return the raw answer.

        The parameters of the ten actions are validated first; an invalid call raises
        :class:`InvalidActionError` and sends nothing. A provider's verb (``verb.<name>``) is
        checked by the host against the schema the provider declared. ``timeout_ms`` waits
        that long for the answer instead of the action's own wait (up to the host's maximum).
        """
        name, sent, timeout_s = str(action), dict(parameters or {}), VERB_TIMEOUT_S
        call = None if verb_name(action) is not None else normalize(action, parameters)
        if call is not None:
            name, sent, timeout_s = call.name, call.parameters.to_wire(), call.spec.timeout_s
        answer = await self.send(
            name,
            sent,
            timeout_s=timeout_s,
            context=(context or self.context).to_wire(),
            provider_id=provider_id,
            timeout_ms=timeout_ms,
        )
        return answer if call is None else replace(answer, data=call.told(answer.data))

    async def call(self, verb: str, **arguments: object) -> Any:
        """Run a verb of the selected provider (see ``providers()`` for their names and
        schemas) and return its ``data``, whatever JSON value the verb answers (an object, a
        list, a number): ``await browser.call("find", text="Pricing")``."""
        return (await self.run(f"{VERB_PREFIX}{verb}", arguments)).data

    # One method per action. The signatures mirror the contract's parameter models
    # (tests/test_completeness.py holds them to it); docstrings come from ACTIONS below.

    async def open(self, url: str, *, viewport: ViewportMode | None = None) -> answers.OpenData:
        return await self._act("open", answers.OpenData, url=url, viewport=viewport)

    async def snapshot(
        self, *, selector: str | None = None, full: bool = False
    ) -> answers.SnapshotData:
        return await self._act("snapshot", answers.SnapshotData, selector=selector, full=full)

    async def click(
        self, *, selector: str | None = None, text: str | None = None
    ) -> answers.ClickData:
        return await self._act("click", answers.ClickData, selector=selector, text=text)

    async def type(self, selector: str, value: str, *, submit: bool = False) -> answers.TypeData:
        return await self._act(
            "type", answers.TypeData, selector=selector, value=value, submit=submit
        )

    async def scroll(
        self, direction: ScrollDirection | None = None, *, selector: str | None = None
    ) -> answers.ScrollData:
        return await self._act("scroll", answers.ScrollData, direction=direction, selector=selector)

    async def back(self) -> answers.NavigationData:
        return await self._act("back", answers.NavigationData)

    async def forward(self) -> answers.NavigationData:
        return await self._act("forward", answers.NavigationData)

    async def inspect(self, selector: str) -> answers.InspectData:
        return await self._act("inspect", answers.InspectData, selector=selector)

    async def capture(self, *, label: str | None = None) -> answers.CaptureData:
        return await self._act("capture", answers.CaptureData, label=label)

    async def resize(self, viewport: ViewportMode) -> answers.ResizeData:
        return await self._act("resize", answers.ResizeData, viewport=viewport)

    async def _act(self, verb: str, model: builtins.type[D], **parameters: object) -> D:
        # builtins.type: the method ``type`` above shadows the name in this class body
        action = f"browser.{verb}"
        answer = await self.run(action, parameters)
        try:
            return model.model_validate(answer.data)
        except ValidationError as exc:
            problem = exc.errors(include_url=False)[0]
            where = ".".join(str(part) for part in problem["loc"]) or "data"
            raise UnknownResultError(
                f"{answer.provider_id} answered {action} with data that does not fit its model "
                f"({where}: {problem['msg']}). It ran; take a snapshot before acting again."
            ) from None


for _spec in ACTIONS.values():
    getattr(Client, _spec.verb).__doc__ = _spec.description
del _spec

__all__ = [
    "Answer",
    "BrowserhostError",
    "Client",
    "ErrorCode",
    "HostRefusedError",
    "HostUnavailableError",
    "InstanceInfo",
    "OperationInfo",
    "PairedInfo",
    "PendingInfo",
    "ProviderInfo",
    "Providers",
    "describe",
]
