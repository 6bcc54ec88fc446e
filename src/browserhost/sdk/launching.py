"""Launching instances from a provider service: what an author writes, and what the service
runner does with the host's lifecycle posts (:mod:`browserhost.contract.lifecycle`).

An author subclasses :class:`Launcher` and returns it from :meth:`Provider.launcher`::

    class Options(BaseModel):
        user_agent: str = Field("textbrowser", title="User agent")

    class Launch(Launcher):
        options = Options
        help = "A text browser of its own, with its own User-Agent."

        async def launch(self, browser_id: str, options: Options) -> Provider:
            return TextBrowser(user_agent=options.user_agent)

The host checks the options against ``options``'s JSON Schema before sending them; the runner
reads them into the model again, keeps the :class:`Provider` ``launch`` returns under the
instance's ``browserId``, sends it every action for that instance, and closes it
(:meth:`Provider.aclose`) on ``close``. ``start``, ``detach``, ``sync_cookies`` and
``references`` are offered when overridden, and only then: the record declares exactly the
ones a subclass implements. ``configuration`` with ``configure`` is the provider's own
settings.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from pydantic import BaseModel

from browserhost.contract import ProviderRequest
from browserhost.contract.lifecycle import OPTIONAL_OPERATIONS, LifecycleRequest

from .refusals import ActionError, Answer, refusal, validated


class Instance(Protocol):
    """A launched instance as the runner holds it: a :class:`~browserhost.sdk.Provider`."""

    async def answer(self, request: ProviderRequest) -> Answer: ...
    async def aclose(self) -> None: ...


class Launcher:
    """How a provider service launches instances; override :meth:`launch` at least."""

    options: ClassVar[type[BaseModel] | None] = None
    """The launch options' model; its JSON Schema is what the host checks and shows."""
    help: ClassVar[str] = ""
    documentation_url: ClassVar[str | None] = None
    configuration: ClassVar[type[BaseModel] | None] = None
    """The provider's own settings' model, changed with :meth:`configure`."""

    async def launch(self, browser_id: str, options: Any) -> Instance:
        """Create and start one instance; the provider returned answers its actions."""
        raise ActionError("This provider does not launch instances.")

    async def close(self, browser_id: str, instance: Instance) -> None:
        await instance.aclose()

    async def configure(self, options: Any) -> None:
        raise ActionError("This provider has no configuration.")

    async def start(self, browser_id: str, options: Any) -> Instance:
        """Start a stopped persistent instance again, with the options it was launched with."""
        raise ActionError("This provider does not start stopped instances.")

    async def detach(self, browser_id: str, instance: Instance) -> None:
        """Let the host go while the browser runs on."""
        raise ActionError("This provider does not detach instances.")

    async def sync_cookies(self, browser_id: str, instance: Instance, scope: Any) -> Any:
        raise ActionError("This provider does not sync cookies.")

    async def references(self, browser_id: str, instance: Instance) -> Any:
        raise ActionError("This provider does not list references.")

    def declared(self) -> list[str]:
        """The optional operations this launcher implements, in the contract's order."""
        return [
            name
            for name in OPTIONAL_OPERATIONS
            if getattr(type(self), name) is not getattr(Launcher, name)
        ]

    def record(self) -> dict[str, Any]:
        """The ``launch`` (and ``configuration``) of the provider's record."""
        schema = {"type": "object"} if self.options is None else _schema(self.options)
        launch: dict[str, Any] = {
            "schema": schema,
            "help": self.help,
            "operations": self.declared(),
        }
        if self.documentation_url is not None:
            launch["documentationUrl"] = self.documentation_url
        record: dict[str, Any] = {"launch": launch}
        if self.configuration is not None:
            record["configuration"] = {"inputSchema": _schema(self.configuration)}
        return record


def _schema(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema(by_alias=True)


class Launched:
    """The instances one service runs, by ``browserId``, and its lifecycle posts."""

    def __init__(self, launcher: Launcher | None) -> None:
        self.launcher = launcher
        self.instances: dict[str, Instance] = {}

    async def operate(self, request: LifecycleRequest) -> Answer:
        """Run one lifecycle operation; every refusal is an ``ok: false`` answer."""
        launcher = self.launcher
        if launcher is None:
            return refusal("This provider does not launch instances.")
        operation, browser_id = request.operation, request.browser_id or ""
        try:
            if operation == "configure":
                await launcher.configure(_read(launcher.configuration, request.options))
                return {"ok": True, "data": {}}
            if operation in ("launch", "start"):
                if browser_id in self.instances:
                    raise ActionError(f"{browser_id} is running already.")
                options = _read(launcher.options, request.options)
                begin = launcher.launch if operation == "launch" else launcher.start
                self.instances[browser_id] = await begin(browser_id, options)
                return {"ok": True, "data": {"status": "connected"}}
            instance = self.instances.get(browser_id)
            if instance is None:
                if operation == "close":  # gone already (the service restarted): closed
                    return {"ok": True, "data": {}}
                raise ActionError(f"This service runs no instance {browser_id}.")
            answer = await self._on(launcher, request, instance)
            return {"ok": True, "data": answer}
        except ActionError as exc:
            return refusal(str(exc))

    async def _on(
        self, launcher: Launcher, request: LifecycleRequest, instance: Instance
    ) -> dict[str, Any]:
        operation, browser_id = request.operation, request.browser_id or ""
        if operation in ("close", "detach"):
            await (launcher.close if operation == "close" else launcher.detach)(
                browser_id, instance
            )
            del self.instances[browser_id]
            return {}
        if operation == "references":
            return {"references": await launcher.references(browser_id, instance)}
        return dict(await launcher.sync_cookies(browser_id, instance, request.options) or {})

    async def aclose(self) -> None:
        for instance in self.instances.values():
            await instance.aclose()
        self.instances.clear()


def _read(model: type[BaseModel] | None, options: dict[str, Any]) -> Any:
    return options if model is None else validated(model, options, "options")
