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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ValidationError

from browserhost.contract import ACTIONS, Context, ProviderRequest, data, verb_name
from browserhost.contract import actions as params
from browserhost.contract.checks import Finding
from browserhost.contract.limits import ERROR_TEXT_MAX
from browserhost.contract.records import ProviderRecord
from browserhost.contract.surface import Surface

from .verbs import DeclaredVerb, declared_verbs

Answer = dict[str, Any]
Handler = Callable[[ProviderRequest], Awaitable[object]]


class ActionError(Exception):
    """The action could not be done; the message goes to the agent as ``ok: false``."""


Dock = Literal["top", "bottom", "left", "right"]


@dataclass(frozen=True)
class Panel:
    """A page of the provider's own, docked to one edge of the surface's picture.

    ``entry`` is one self-contained HTML file (inline script and style: the host serves that
    file alone, in a sandbox, with nothing loaded from elsewhere). ``dock`` is the edge
    (``top`` when unset) and ``size`` the page's thickness across it in CSS pixels, 24 to 480
    (40 when unset); both need a surface too, or the host refuses the record.
    """

    entry: Path
    dock: Dock | None = None
    size: int | None = None

    def to_record(self) -> dict[str, object]:
        declared = {"dock": self.dock, "size": self.size}
        return {"entry": str(self.entry)} | {k: v for k, v in declared.items() if v is not None}


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
        try:
            if name is not None:
                result = await self._run_verb(name, request)
            else:
                method = getattr(self, ACTIONS[request.action].verb)
                result = await method(request.parameters, request.context)
        except ActionError as exc:
            return refusal(str(exc))
        if isinstance(result, BaseModel):
            result = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        return {"ok": True, "data": result}

    async def _run_verb(self, name: str, request: ProviderRequest) -> object:
        declared = self.verbs.get(name)
        if declared is None:
            raise ActionError(f"This provider has no verb {name!r}.")
        try:
            arguments = declared.arguments.model_validate(request.parameters)
        except ValidationError as exc:
            problem = exc.errors(include_url=False)[0]
            where = ".".join(str(part) for part in problem["loc"]) or "arguments"
            raise ActionError(f"{where}: {problem['msg']}.") from None
        method = getattr(self, declared.method)
        return await method(arguments, request.context)

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
        return record | {"service": {"python": target}}

    async def aclose(self) -> None:
        """Release browsers and other resources. Called when the host stops."""

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


def refusal(message: str) -> Answer:
    """An ``ok: false`` answer, with the text cut to the contract's limit."""
    text = message.strip() or "The action failed."
    if len(text) > ERROR_TEXT_MAX:
        text = text[: ERROR_TEXT_MAX - 1] + "…"
    return {"ok": False, "error": text}
