"""The provider interface: what a provider author subclasses.

A provider is one async method per action. Each method gets the validated parameters and the
caller's context, and returns the action's ``data`` model; it raises :class:`ActionError`
with a message the agent can act on ("No element matches #save; take a new snapshot") when
the action cannot be done. :meth:`Provider.answer` turns both into the wire answer, so the
same object serves in-process and behind :func:`browserhost.sdk.serve`.

A provider declares the actions it supports in ``actions``; the host refuses the others
before sending them. It may also offer verbs of its own: methods marked with
:func:`~browserhost.sdk.verbs.verb`, listed in ``verbs``.

A provider that can show what it is doing returns a :class:`~browserhost.sdk.Surface` from
:meth:`Provider.surface`: the host's viewer then draws its frames and sends a person's input
back. ``panel`` docks a page of the provider's own (an address bar, tabs) beside the picture.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Final, Literal

from pydantic import BaseModel

from browserhost.contract import ACTIONS, Context, ProviderRequest, data, verb_name
from browserhost.contract import actions as params
from browserhost.contract.checks import Finding
from browserhost.contract.limits import PROTOCOL_VERSION
from browserhost.contract.records import ProviderRecord
from browserhost.contract.surface import Surface

from .launching import Launcher
from .refusals import ActionError as ActionError
from .refusals import Answer as Answer
from .refusals import refusal as refusal
from .refusals import validated
from .verbs import DeclaredVerb, declared_verbs

Handler = Callable[[ProviderRequest], Awaitable[object]]


_running: ContextVar[ProviderRequest | None] = ContextVar("browserhost_request", default=None)


def seconds_left(default_s: float) -> float:
    """Inside an action or a verb: the time until the host stops waiting for its answer (the
    request's absolute deadline, which a caller's own timeout sets), or ``default_s`` when
    there is none. Bound long waits by it, leaving a moment to answer in."""
    request = _running.get()
    return default_s if request is None else request.seconds_left(default_s)


Dock = Literal["top", "bottom", "left", "right"]
PANEL_PATH: Final = "/surface/panel"
"""Where a service serves its provider's panel page: the ``panel.entry`` of its record."""


@dataclass(frozen=True)
class Panel:
    """A page of the provider's own, docked to one edge of the surface's picture.

    ``entry`` is one self-contained HTML file (inline script and style: the host serves that
    file alone, in a sandbox, with nothing loaded from elsewhere). ``dock`` is the edge
    (``top`` when unset) and ``size`` the page's thickness across it in CSS pixels, 24 to 480
    (40 when unset); both need a surface too, or the host refuses the record.

    ``requests`` is a path prefix (``/panel/``): run as a service, the page may send requests
    under it (its ``serviceRequest``, through the viewer), answered by
    :meth:`Provider.panel_request`. In process there is no service to ask, and it is left out.
    """

    entry: Path
    dock: Dock | None = None
    size: int | None = None
    requests: str | None = None

    def to_record(self) -> dict[str, object]:
        """The in-process record's panel: the file itself."""
        declared = {"dock": self.dock, "size": self.size}
        return {"entry": str(self.entry)} | {k: v for k, v in declared.items() if v is not None}

    def to_service_record(self) -> dict[str, object]:
        """The panel of a service run by the SDK runner: the page at :data:`PANEL_PATH`."""
        record = self.to_record() | {"entry": PANEL_PATH}
        return record if self.requests is None else record | {"requests": self.requests}


class Provider:
    """Base class for a browser provider. Override the actions you support.

    ``actions`` defaults to the actions a subclass overrides, so the host refuses the others
    with ``UNSUPPORTED`` before sending them; set it explicitly to narrow it further.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    actions: ClassVar[frozenset[str]] = frozenset()
    verbs: ClassVar[dict[str, DeclaredVerb]] = {}
    """The verbs the class declares with ``@verb``, by name (worked out per subclass)."""
    panel: ClassVar[Panel | None] = None
    """A page of the provider's own docked beside its surface's picture."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.verbs = declared_verbs(cls)
        if "actions" not in cls.__dict__:
            cls.actions = frozenset(
                spec.name
                for spec in ACTIONS.values()
                if getattr(cls, spec.verb) is not getattr(Provider, spec.verb)
            )

    async def answer(self, request: ProviderRequest) -> Answer:
        """Run one request and return the wire answer. Never raises :class:`ActionError`."""
        name = verb_name(request.action)
        running = _running.set(request)
        try:
            if name is not None:
                result = await self._run_verb(name, request)
            else:
                method = getattr(self, ACTIONS[request.action].verb)
                result = await method(request.parameters, request.context)
        except ActionError as exc:
            return refusal(str(exc))
        finally:
            _running.reset(running)
        if isinstance(result, BaseModel):
            dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
            fits = name is None and isinstance(result, ACTIONS[request.action].data)
            result = data.CheckedData(dumped) if fits else dumped
        return {"ok": True, "data": result}

    async def _run_verb(self, name: str, request: ProviderRequest) -> object:
        declared = self.verbs.get(name)
        if declared is None:
            raise ActionError(f"This provider has no verb {name!r}.")
        arguments = validated(declared.arguments, request.parameters, "arguments")
        method = getattr(self, declared.method)
        return await method(arguments, request.context)

    def launcher(self) -> Launcher | None:
        """How this provider, run as a service, launches instances of its own
        (:class:`~browserhost.sdk.launching.Launcher`), or ``None`` (the default)."""
        return None

    def surface(self) -> Surface | None:
        """The live picture of what this provider shows and a person's hands on it, or
        ``None`` (the default) for a provider nobody can watch. Return the same object on
        every call."""
        return None

    async def checks(self) -> list[Finding]:
        """What ``browserhost doctor`` checks for this provider: by default nothing. Override
        it to check what a first run needs of the machine (a binary, a remote browser)."""
        return []

    def registration(self) -> dict[str, Any]:
        """The record the host's catalog installs for this provider, run inside the host."""
        declared: dict[str, Any] = {}
        surface = self.surface()
        if surface is not None:
            declared["surface"] = surface
        if self.panel is not None:
            declared["panel"] = self.panel.to_record()
        if type(self).checks is not Provider.checks:
            declared["checks"] = self.checks
        record = ProviderRecord(
            id=self.id,
            name=self.name,
            provides=("browser",),
            protocolVersion=PROTOCOL_VERSION,
            actions=self.actions,
            verbs=tuple(offered.spec for offered in self.verbs.values()),
            answer=self.answer,
            close=self.aclose,
            **declared,
        )
        return record.to_record()

    def service_registration(self, target: str) -> dict[str, Any]:
        """The record of this provider run by the host as a process of its own, through the
        SDK runner: started on the first action, stopped when idle. ``target`` is
        ``"package.module:Factory"``, a zero-argument callable giving this provider there."""
        record = self.registration()
        del record["answer"], record["close"]
        if "surface" in record:
            record["surface"] = True  # served by the runner at the surface paths
        if self.panel is not None:
            record["panel"] = self.panel.to_service_record()
        launcher = self.launcher()
        if launcher is not None:
            record |= launcher.record()
        return record | {"service": {"python": target}}

    async def aclose(self) -> None:
        """Release browsers and other resources. Called when the host stops."""

    async def panel_request(self, method: str, path: str, body: object) -> object:
        """Answer a request of this provider's panel page, run as a service: ``path`` is under
        ``panel.requests`` (with its query, as the page sent it) and ``body`` the JSON it
        sent, or ``None``. Return what the page receives (anything JSON can carry); raise
        :class:`ActionError` to answer 400 with its message."""
        raise ActionError("This provider answers no panel requests.")

    async def open(self, parameters: params.OpenParameters, context: Context) -> data.OpenData:
        raise ActionError("This provider does not support browser.open.")

    async def snapshot(
        self, parameters: params.SnapshotParameters, context: Context
    ) -> data.SnapshotData:
        raise ActionError("This provider does not support browser.snapshot.")

    async def click(self, parameters: params.ClickParameters, context: Context) -> data.ClickData:
        raise ActionError("This provider does not support browser.click.")

    async def type(self, parameters: params.TypeParameters, context: Context) -> data.TypeData:
        raise ActionError("This provider does not support browser.type.")

    async def scroll(
        self, parameters: params.ScrollParameters, context: Context
    ) -> data.ScrollData:
        raise ActionError("This provider does not support browser.scroll.")

    async def back(
        self, parameters: params.BackParameters, context: Context
    ) -> data.NavigationData:
        raise ActionError("This provider does not support browser.back.")

    async def forward(
        self, parameters: params.ForwardParameters, context: Context
    ) -> data.NavigationData:
        raise ActionError("This provider does not support browser.forward.")

    async def inspect(
        self, parameters: params.InspectParameters, context: Context
    ) -> data.InspectData:
        raise ActionError("This provider does not support browser.inspect.")

    async def capture(
        self, parameters: params.CaptureParameters, context: Context
    ) -> data.CaptureData:
        raise ActionError("This provider does not support browser.capture.")

    async def resize(
        self, parameters: params.ResizeParameters, context: Context
    ) -> data.ResizeData:
        raise ActionError("This provider does not support browser.resize.")
