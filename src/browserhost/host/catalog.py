"""The catalog of installed browser providers.

A provider is installed from a record, the same shape for built-ins and third parties::

    {"id": "stub", "name": "Stub", "provides": ["browser"],
     "actions": ["browser.open", ...],
     "answer": <async handler>
       | "service": {"python": "package.module:Factory"}
                  | {"command": ["program", "arg", ...]}, "cwd": "/folder" (optional)
       | "endpoint": "http://127.0.0.1:9000", "token": "...",
     "enabled": True, "verbs": [<VerbSpec fields>, ...],
     "close": <async callable>,
     "capacity": <async callable>,
     "checks": <async callable>,
     "surface": <a Surface>  |  true,
     "panel": {"entry": "/path/to/panel.html"  |  "/surface/panel",
               "dock": "top", "size": 40, "requests": "/panel/" (a service's)}}

Records are strict, and typed by :mod:`browserhost.contract.records`. The first ``provides``
list (``service.provides``, then ``provides``, then ``contributes.service.provides``) contains
``"browser"``, other roles beside it allowed; ``actions`` lists every action the provider
implements, there is no default. A record from another package's entry point, or one
declaring a ``service``, may not take a built-in's id (:data:`BUILTIN_IDS`) or a reserved one
(:data:`RESERVED_IDS`). A record that is disabled, has
a bad id or name, or has no way to answer is not listed either; :meth:`Catalog.discover` logs
each refusal with the record's id and the reason and loads the rest.

An in-process ``answer`` wins over a ``service``, which wins over an ``endpoint``. A
``service`` is a process the host starts on the first action and stops when idle
(:mod:`.services`): a Python target run by the SDK runner with the host's interpreter, or a
command line for a provider in any language. An ``endpoint`` is a service someone else runs:
loopback http(s) without credentials, with ``token`` the bearer token it expects
(``BROWSERHOST_SERVICE_TOKEN``), sent nothing until it has said hello in this host's protocol
version (:mod:`browserhost.transports.endpoint`).

A provider with a surface names it: in process, the :class:`~browserhost.sdk.Surface` object
itself; a service says ``true`` and is reached at its origin with its token (a service the
host runs is started for it). A
``panel`` is a page of the provider's own docked to one edge of the picture: in process, the
path of one self-contained HTML file, read once at install (the host serves those bytes and
never a path a request names); a service, a path on its loopback, fetched when asked.
``panel.dock`` (top, bottom, left, right; default top) and ``panel.size`` (24..480 CSS px,
default 40) place it; declaring either without both a surface and a ``panel.entry`` refuses
the record. A service's ``panel.requests`` is the path prefix the page may send requests to
through the viewer (:mod:`.panel_requests`).

A provider of any kind may launch browser instances (:mod:`.instances`)::

     "launch": {"schema": <JSON Schema of the launch options>, "help": "text",
                "documentationUrl": "https://...", "operations": ["start", ...],
                "create": create(instance_id=..., options=..., home=..., fresh=...)},
     "configuration": {"inputSchema": <JSON Schema>, "configure": <async callable>}

``operations`` are what its instances may offer beside ``close`` (start, detach,
sync_cookies, references). A provider service gives no ``create`` nor ``configure``: the
host sends it the launch, the operations and the configuration
(:mod:`browserhost.contract.lifecycle`). In process, ``create`` gets options the host checked
against ``schema`` and returns the instance's own record, read like any in-process record
(its ``id`` is set by the host), plus ``persistence`` (``ephemeral`` or ``persistent``),
``status`` and ``details`` (callables answering what the instance is doing and what it is,
never a secret), ``start`` (an async callable that starts the browser, called on a launch and
by the ``start`` operation, not when a persistent instance is restored), and ``operations``
(async callables by name, for the optional operations it declares).

An in-process provider whose browsers run elsewhere (a Selenium Grid) may declare how many
more it can start there: ``capacity``, shown next to it in the providers listing
(:mod:`.capacity`); and what ``browserhost doctor`` checks for it: ``checks``
(:mod:`browserhost.contract.checks`).

Providers are discovered at startup through the ``browserhost.providers`` entry-point group;
each entry point names a zero-argument callable that returns a record.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from browserhost.contract import VerbSpec, records
from browserhost.contract.checks import Checks
from browserhost.contract.limits import PROVIDER_PATH
from browserhost.contract.records import SERVICE_ENTRY_RULE, ProviderRecord

# Re-exported: where the host's modules and the tests have always found them.
from browserhost.contract.records import InstallError as InstallError
from browserhost.contract.records import read_actions as read_actions
from browserhost.contract.surface import Surface
from browserhost.transports.base import Transport
from browserhost.transports.bridge import BridgeTransport
from browserhost.transports.endpoint import EndpointTransport
from browserhost.transports.inprocess import InProcessTransport
from browserhost.transports.loopback_surface import PAGE_MAX_BYTES, LoopbackSurface

from .capacity import Counter
from .launch_specs import ConfigurationSpec, LaunchSpec, read_configuration, read_launch
from .panel_requests import PanelRequests, endpoint_call, service_call
from .services import (
    ManagedService,
    ManagedSurface,
    ServiceCommand,
    ServiceRecordError,
    ServiceSettings,
)
from .verb_schemas import ArgumentChecker, SchemaRefusedError, read_schema

ENTRY_POINT_GROUP = "browserhost.providers"
BUILTIN_IDS: Final = frozenset({"stub", "chromium"})
"""The built-in providers' ids, which only browserhost's own entry points may install."""
RESERVED_IDS: Final = frozenset({"browserhost", "builtin", "default", "none"})
"""Ids no record may take: words a person or an agent reads as "no provider" or "the host"."""
_OWN_DISTRIBUTION = "browserhost"
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
_visible_ascii = re.compile(r"[!-~]+")  # what an Authorization header carries unchanged
_page_path = re.compile(r"(/[A-Za-z0-9._~-]+)+")  # no query, no "//", no escapes to decode

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class InstalledPanel:
    """A provider's own page docked beside its picture; ``page()`` gives its HTML."""

    dock: str
    size: int
    page: Callable[[], Awaitable[bytes]]
    requests: PanelRequests | None = None
    """Where the page may send requests to its service, when the record says."""

    def public(self) -> dict[str, object]:
        return {"dock": self.dock, "size": self.size}


@dataclass(frozen=True)
class InstalledProvider:
    id: str
    name: str
    actions: frozenset[str]
    transport: Transport
    verbs: Mapping[str, VerbSpec] = field(default_factory=dict)
    checkers: Mapping[str, ArgumentChecker] = field(default_factory=dict)
    """One argument checker per verb, built once at install."""
    surface: Surface | None = None
    panel: InstalledPanel | None = None
    service: ManagedService | None = None
    """The process the host runs for this provider, when its record declares one."""
    bridge: BridgeTransport | None = None
    """The connection of a browser that dials in (:mod:`.bridge`), for the bridge provider."""
    launch: LaunchSpec | None = None
    """How this provider launches instances, when it does."""
    configuration: ConfigurationSpec | None = None
    """The provider's own settings, changed with ``configure``, when it has some."""
    instance: Any = None
    """The :class:`~.instances.Instance` this row routes to, for an instance's row."""
    capacity: Counter | None = None
    """Counts the free and busy slots where this provider's browsers run (:mod:`.capacity`)."""
    checks: Checks | None = None
    """What ``browserhost doctor`` checks for this provider, when it offers checks."""
    state: Callable[[], str] | None = None
    """What the browser it starts on this machine is doing, when it says."""

    def public(self) -> dict[str, object]:
        """The row callers see. Transport details never leave the host."""
        row: dict[str, object] = {
            "id": self.id,
            "name": self.name,
            "surface": self.surface is not None,
            "verbs": [verb.to_wire() for verb in self.verbs.values()],
        }
        parts = {
            "panel": self.panel,
            "service": self.service,
            "bridge": self.bridge,
            "launch": self.launch,
            "configuration": self.configuration,
            "instance": self.instance,
        }
        row.update({name: part.public() for name, part in parts.items() if part is not None})
        if self.state is not None:
            row["state"] = self.state()
        return row

    def hold(self) -> None:
        """A viewer is attached: a service the host runs is not stopped for being idle."""
        if self.service is not None:
            self.service.hold()

    def release(self) -> None:
        if self.service is not None:
            self.service.release()

    async def aclose(self) -> None:
        await self.transport.aclose()
        if isinstance(self.surface, LoopbackSurface):
            await self.surface.aclose()


def loopback_url(endpoint: object) -> str | None:
    """The absolute URL to post actions to, or ``None`` when the record names no endpoint.

    Raises :class:`InstallError` for an endpoint that must not be called. Python's URL parser
    drops tabs and newlines and strips leading spaces and NULs, so such an endpoint is refused
    before parsing: it would be called at an address other than the one written.
    """
    if not isinstance(endpoint, str) or not endpoint:
        return None
    if any(character.isspace() or not character.isprintable() for character in endpoint):
        raise InstallError(
            f"endpoint {endpoint!r} has a space or control character; write the URL without them"
        )
    not_loopback = InstallError(
        f"endpoint {endpoint!r} is not a loopback endpoint: use http or https on 127.0.0.1, "
        "localhost or ::1, without credentials"
    )
    try:
        parts = urlsplit(endpoint)
        hostname = parts.hostname
    except ValueError:
        raise not_loopback from None
    if parts.scheme not in ("http", "https") or parts.username or parts.password:
        raise not_loopback
    if hostname not in _LOOPBACK_HOSTS:
        raise not_loopback
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0:
        raise InstallError(f"endpoint {endpoint!r} needs a port from 1 to 65535, or none")
    path = parts.path if parts.path not in ("", "/") else PROVIDER_PATH
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def read_token(token: object) -> str | None:
    """The bearer token a provider service expects, or ``None`` when the record gives none."""
    if token is None:
        return None
    if not isinstance(token, str) or not _visible_ascii.fullmatch(token):
        raise InstallError(
            "token must be the provider service's token as a string of visible ASCII "
            "characters without spaces (its BROWSERHOST_SERVICE_TOKEN)"
        )
    return token


def read_record(
    record: Mapping[str, Any] | ProviderRecord,
    *,
    builtin: bool = True,
    settings: ServiceSettings | None = None,
) -> InstalledProvider:
    """Check a record and build the provider it describes, or raise :class:`InstallError`.

    ``builtin``: the record comes from browserhost itself or from the program that embeds the
    host, so it may take a built-in's id (not a reserved one). ``settings`` run its service.
    """
    declared = records.read(record)
    provider_id = declared.id
    if provider_id in RESERVED_IDS or (
        provider_id in BUILTIN_IDS and (declared.declares_service or not builtin)
    ):
        taken = "a built-in provider's" if provider_id in BUILTIN_IDS else "a reserved"
        raise InstallError(f"id {provider_id!r} is {taken} id; choose another")
    verbs = read_verbs(declared.verbs)
    has_surface = declared.surface not in (None, False)
    panel = (
        declared.panel if declared.panel is not None and declared.panel.entry is not None else None
    )
    transport: Transport
    surface: Surface | None
    page: Callable[[], Awaitable[bytes]] | None = None
    requests: PanelRequests | None = None
    service: ManagedService | None = None
    if declared.answer is not None:
        surface = declared.surface if isinstance(declared.surface, Surface) else None
        if panel is not None:
            page = _file_page(panel.entry)
        transport = InProcessTransport(declared.answer, declared.close)
    elif declared.service is not None:
        try:
            command = ServiceCommand.read(declared.service)
        except ServiceRecordError as exc:
            raise InstallError(str(exc)) from None
        # Nothing starts here: the first action (or a viewer's first picture) starts it.
        service = ManagedService(provider_id, command, settings or ServiceSettings())
        managed = ManagedSurface(service)
        if panel is not None:
            page = _service_page(panel.entry, managed.page)
            if panel.requests is not None:
                requests = PanelRequests(panel.requests, service_call(service))
        surface = managed if has_surface else None
        transport = service
    else:
        url = loopback_url(declared.endpoint)
        if url is None:
            raise InstallError(
                "the record needs an async answer handler or a loopback endpoint "
                "(http or https on 127.0.0.1, localhost or ::1, without credentials)"
            )
        token = read_token(declared.token)
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        # Checked before the surface's client is opened: a refused record leaves none behind.
        if panel is not None:
            page = _service_page(panel.entry, _fetch_page(origin, token))
            if panel.requests is not None:
                requests = PanelRequests(panel.requests, endpoint_call(origin, token))
        surface = LoopbackSurface(origin, token) if has_surface else None
        transport = EndpointTransport(url, token)
    return InstalledProvider(
        provider_id,
        declared.shown_name,
        declared.actions,
        transport,
        verbs=verbs,
        checkers=verb_checkers(verbs),
        surface=surface,
        panel=None
        if panel is None or page is None
        else InstalledPanel(panel.dock, panel.size, page, requests),
        service=service,
        launch=read_launch(declared.launch),
        configuration=read_configuration(declared.configuration),
        capacity=declared.capacity,
        checks=declared.checks,
        state=declared.state,
    )


def _file_page(entry: object) -> Callable[[], Awaitable[bytes]]:
    path = Path(str(entry))
    if path.suffix != ".html":
        raise InstallError(f"panel.entry {str(path)!r} is not an .html file")
    try:
        with path.open("rb") as file:
            page = file.read(PAGE_MAX_BYTES + 1)
    except OSError as exc:
        raise InstallError(f"panel.entry {str(path)!r} cannot be read: {exc.strerror}") from None
    if len(page) > PAGE_MAX_BYTES:
        raise InstallError(f"panel.entry {str(path)!r} is over {PAGE_MAX_BYTES} bytes")

    async def read() -> bytes:
        return page

    return read


def _service_page(
    entry: object, fetch: Callable[[str], Awaitable[bytes]]
) -> Callable[[], Awaitable[bytes]]:
    path = str(entry)
    if not _page_path.fullmatch(path) or ".." in path:
        raise InstallError(SERVICE_ENTRY_RULE)

    async def read() -> bytes:
        return await fetch(path)

    return read


def _fetch_page(origin: str, token: str | None) -> Callable[[str], Awaitable[bytes]]:
    async def fetch(path: str) -> bytes:
        # A page is asked for when a viewer opens, rarely: a client of its own, closed
        # after, keeps it apart from the surface's frames.
        service = LoopbackSurface(origin, token)
        try:
            return await service.page(path)
        finally:
            await service.aclose()

    return fetch


def read_verbs(declared: object) -> dict[str, VerbSpec]:
    """The verbs a record declares, by name, each with a JSON Schema this host accepts; a
    malformed one refuses the whole record, so a provider never runs with half of what it
    meant to offer."""
    verbs = {verb.name: verb for verb in records.read_verb_specs(declared)}
    for name, verb in verbs.items():
        try:
            read_schema(verb.input_schema)
        except SchemaRefusedError as exc:
            raise InstallError(f"verb {name!r} is refused: {exc}") from None
    return verbs


def verb_checkers(verbs: Mapping[str, VerbSpec]) -> dict[str, ArgumentChecker]:
    """One argument checker per verb of :func:`read_verbs` (which accepted each schema)."""
    return {name: read_schema(verb.input_schema) for name, verb in verbs.items()}


class Catalog:
    """Installed providers by id, in installation order; ``services`` says how the services
    the host runs are run (their logs go nowhere without a ``log_dir``)."""

    def __init__(self, services: ServiceSettings | None = None) -> None:
        self._providers: dict[str, InstalledProvider] = {}
        self.services = services if services is not None else ServiceSettings()

    def install(self, record: Mapping[str, Any], *, builtin: bool = True) -> InstalledProvider:
        """Install ``record`` (see :func:`read_record` for ``builtin``); starts nothing."""
        provider = read_record(record, builtin=builtin, settings=self.services)
        self._providers[provider.id] = provider
        return provider

    def put(self, provider: InstalledProvider) -> None:
        """List ``provider`` as it is, in place of one with its id (the bridge's row, which
        follows what the connected browser declared)."""
        self._providers[provider.id] = provider

    async def uninstall(self, provider_id: str) -> None:
        provider = self._providers.pop(provider_id, None)
        if provider is not None:
            await provider.aclose()

    def remove(self, provider_id: str) -> InstalledProvider | None:
        """Stop listing a provider and leave it running (an instance the host detaches)."""
        return self._providers.pop(provider_id, None)

    def get(self, provider_id: str) -> InstalledProvider | None:
        return self._providers.get(provider_id)

    def all(self) -> list[InstalledProvider]:
        return list(self._providers.values())

    def counters(self) -> dict[str, Counter]:
        """The providers that count their capacity, by id."""
        return {
            provider.id: provider.capacity
            for provider in self._providers.values()
            if provider.capacity is not None
        }

    def discover(self, only: Iterable[str] | None = None) -> list[str]:
        """Install the providers registered as entry points; return the ids installed.

        ``only`` narrows which entry points load (``BROWSERHOST_PROVIDERS=stub,chromium``).
        A provider that fails to load is logged and skipped.
        """
        wanted = None if only is None else set(only)
        installed = []
        for point in entry_points(group=ENTRY_POINT_GROUP):
            if wanted is not None and point.name not in wanted:
                continue
            try:
                record = point.load()()
            except Exception:  # a broken plugin must not stop the host
                log.exception("browser provider %r failed to load; skipped", point.name)
                continue
            distribution = getattr(point.dist, "name", None)
            try:
                provider = self.install(record, builtin=distribution == _OWN_DISTRIBUTION)
            except InstallError as exc:
                record_id = record.get("id") if isinstance(record, Mapping) else None
                log.warning(
                    "browser provider record %r (entry point %r) refused: %s",
                    record_id,
                    point.name,
                    exc,
                )
                continue
            except Exception:  # a record whose reading fails in a way not foreseen
                log.exception("browser provider %r failed to load; skipped", point.name)
                continue
            installed.append(provider.id)
        return installed

    async def aclose(self) -> None:
        for provider_id in list(self._providers):
            await self.uninstall(provider_id)
