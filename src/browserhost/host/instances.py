"""Browser instances: a provider's browser launched with options the user chose.

A provider that declares ``launch`` (see :mod:`.catalog`) offers a JSON Schema of its launch
options. :meth:`Instances.launch` checks the options against it (every violation listed,
nothing created), asks the provider for the instance's record, starts it, and installs it in
the catalog under ``<provider>~<name>``: from then on it is routed like any provider, so the
selection, ``providerId``, the control gate and every code apply unchanged.

An instance is ``ephemeral`` (gone with the host) or ``persistent`` (its browser's data
outlives the host). Persistent instances are remembered in :data:`INSTANCES_FILE` (mode 0600:
the options may hold a proxy's password) and listed as stopped after a restart; their first
action starts them. Closing an instance stops its browser and forgets it; a persistent one's
data stays on disk for the next launch.

What callers see of an instance (:meth:`Instance.public`) is its id, provider, status,
control, ownership, persistence, operations and details, never an endpoint or a credential.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal

from jsonschema.exceptions import ValidationError as SchemaViolation

from browserhost.contract.errors import (
    InvalidActionError,
    ProviderNotFoundError,
    ProviderRejectedError,
    ProviderUnavailableError,
    UnsupportedError,
)
from browserhost.contract.limits import INSTANCE_NAME_PATTERN, INSTANCE_SEPARATOR
from browserhost.files import replace_atomically

from .catalog import Catalog, InstalledProvider, InstallError, read_record
from .control import Controls

INSTANCES_FILE: Final = "browser-instances.json"
PROVIDER_HOMES: Final = "providers"
"""The folder of the data dir where each provider keeps what its instances store
(``<provider id>/``: the chromium provider's profiles, say)."""
VIOLATIONS_LISTED: Final = 20
OPERATIONS: Final = ("close",)

Persistence = Literal["ephemeral", "persistent"]
_name = re.compile(INSTANCE_NAME_PATTERN)
log = logging.getLogger(__name__)


@dataclass
class Instance:
    """One launched browser, as the host holds it."""

    id: str
    provider: str
    name: str
    persistence: Persistence
    options: dict[str, Any]
    """As the user gave them, secrets included: kept in memory and in the 0600 file only."""
    created_at: str
    status: Callable[[], str]
    details: Callable[[], Mapping[str, Any]]
    control: Callable[[], str] = field(default=lambda: "none")

    def public(self) -> dict[str, object]:
        return {
            "id": self.id,
            "provider": self.provider,
            "name": self.name,
            "status": self.status(),
            "control": self.control(),
            "ownership": "owned",
            "persistence": self.persistence,
            "operations": list(OPERATIONS),
            "details": {**self.details(), "createdAt": self.created_at},
        }

    def remembered(self) -> dict[str, object]:
        return {
            "provider": self.provider,
            "name": self.name,
            "options": self.options,
            "createdAt": self.created_at,
        }


class Instances:
    """The instances of one host, installed in its catalog as rows of their own."""

    def __init__(self, data_dir: Path, catalog: Catalog, controls: Controls) -> None:
        self.data_dir = data_dir
        self.path = data_dir / INSTANCES_FILE
        self._catalog = catalog
        self._controls = controls
        # One launch at a time: a name is checked free and taken in one step, and a second
        # launch of a profile finds the first one holding it.
        self._launching = asyncio.Lock()

    def all(self) -> list[Instance]:
        return [row.instance for row in self._catalog.all() if isinstance(row.instance, Instance)]

    def listing(self) -> list[dict[str, object]]:
        return [instance.public() for instance in self.all()]

    async def launch(
        self, provider_id: object, options: object = None, name: object = None
    ) -> dict[str, object]:
        """Check ``options``, create and start the instance, and list it; on any refusal
        nothing is launched and nothing remembered."""
        async with self._launching:
            return await self._launch(provider_id, options, name)

    async def _launch(
        self, provider_id: object, options: object, name: object
    ) -> dict[str, object]:
        base = self._launcher(provider_id)
        assert base.launch is not None  # _launcher refuses a provider without one
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise InvalidActionError("options must be an object. Nothing was launched.")
        problems = sorted(base.launch.checker.iter_errors(options), key=lambda e: list(e.path))
        if problems:
            listed = "; ".join(
                _violation(error, base.launch.schema) for error in problems[:VIOLATIONS_LISTED]
            )
            raise InvalidActionError(
                f"{base.name} cannot launch with these options: {listed}. Nothing was launched."
            )
        chosen = self._name(base.id, name)
        instance_id = f"{base.id}{INSTANCE_SEPARATOR}{chosen}"
        created_at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        # In a worker thread: the provider may read files the options name (a storage-state
        # file), and a slow one must not hold the host.
        row, start = await asyncio.to_thread(
            self._create, base, chosen, options, created_at, fresh=True
        )
        try:
            await start()
        except Exception as exc:  # the provider's own failure to start, reported as its no
            await row.aclose()
            raise ProviderRejectedError(
                f"{base.name} could not start {instance_id}: {exc}. Nothing was launched."
            ) from exc
        self._catalog.put(row)
        if row.instance.persistence == "persistent":
            try:
                self._save()
            except OSError as exc:
                await self._catalog.uninstall(instance_id)
                raise ProviderUnavailableError(
                    f"{instance_id} could not be remembered ({exc.strerror}), so it was closed."
                ) from exc
        log.info("Launched %s", instance_id)
        public: dict[str, object] = row.instance.public()
        return public

    async def close(self, instance_id: object) -> dict[str, object]:
        """Stop the instance's browser and forget it. An action it is running fails as may
        have run (``REQUEST_FAILED``); nothing is replayed."""
        row = self._catalog.get(instance_id) if isinstance(instance_id, str) else None
        if row is None or not isinstance(row.instance, Instance):
            raise ProviderNotFoundError(
                f"There is no browser instance {instance_id!r}; browserhost instances lists "
                "them. Nothing was closed."
            )
        instance = row.instance
        await self._catalog.uninstall(row.id)
        if instance.persistence == "persistent":
            self._save()
        public = instance.public()
        return {**public, "status": "closed"}

    def restore(self) -> list[str]:
        """List the persistent instances remembered in the data dir, stopped; return their
        ids. One whose provider is not installed now is kept in the file and not listed."""
        restored = []
        for remembered in self._remembered():
            provider_id, name = remembered.get("provider"), remembered.get("name")
            base = self._catalog.get(provider_id) if isinstance(provider_id, str) else None
            instance_id = f"{provider_id}{INSTANCE_SEPARATOR}{name}"
            if base is None or base.launch is None or not isinstance(name, str):
                log.warning("browser instance %s not restored: its provider is not here", name)
                continue
            try:
                row, _ = self._create(
                    base,
                    name,
                    dict(remembered.get("options") or {}),
                    str(remembered.get("createdAt", "")),
                    fresh=False,
                )
            except (InstallError, ProviderRejectedError) as exc:
                log.warning("browser instance %s not restored: %s", instance_id, exc)
                continue
            self._catalog.put(row)
            restored.append(row.id)
        return restored

    def _launcher(self, provider_id: object) -> InstalledProvider:
        base = self._catalog.get(provider_id) if isinstance(provider_id, str) else None
        if base is None or base.instance is not None:
            launching = ", ".join(p.id for p in self._catalog.all() if p.launch) or "none"
            raise ProviderNotFoundError(
                f"No installed provider is called {provider_id!r}; these launch instances: "
                f"{launching}. Nothing was launched."
            )
        if base.launch is None:
            raise UnsupportedError(f"{base.name} does not launch instances. Nothing was launched.")
        return base

    def _name(self, provider_id: str, wanted: object) -> str:
        taken = {instance.name for instance in self.all() if instance.provider == provider_id}
        taken |= {
            str(remembered.get("name"))
            for remembered in self._remembered()
            if remembered.get("provider") == provider_id
        }
        if wanted is None:
            number = 1
            while str(number) in taken:
                number += 1
            return str(number)
        if not isinstance(wanted, str) or not _name.fullmatch(wanted):
            raise InvalidActionError(
                "name must be 1..64 letters, digits, _ or -, starting with a letter or a digit. "
                "Nothing was launched."
            )
        if wanted in taken:
            raise InvalidActionError(
                f"There is an instance {provider_id}{INSTANCE_SEPARATOR}{wanted} already; close "
                "it or choose another name. Nothing was launched."
            )
        return wanted

    def _create(
        self,
        base: InstalledProvider,
        name: str,
        options: dict[str, Any],
        created_at: str,
        *,
        fresh: bool,
    ) -> tuple[InstalledProvider, Callable[[], Awaitable[None]]]:
        assert base.launch is not None
        instance_id = f"{base.id}{INSTANCE_SEPARATOR}{name}"
        home = self.data_dir / PROVIDER_HOMES / base.id
        try:
            record = dict(
                base.launch.create(instance_id=instance_id, options=options, home=home, fresh=fresh)
            )
        except Exception as exc:  # a provider's refusal (a profile in use, a missing file)
            raise ProviderRejectedError(f"{exc} Nothing was launched.") from exc
        persistence = record.get("persistence", "ephemeral")
        if persistence not in ("ephemeral", "persistent"):
            raise ProviderRejectedError(
                f"{base.name} gave the instance no persistence; nothing was launched."
            )
        status, details = record.get("status"), record.get("details")
        start = record.get("start")
        # Read as the provider's own record (its id is the provider's), then given its own id.
        row = read_record({**record, "id": base.id, "launch": None}, builtin=True)
        instance = Instance(
            id=instance_id,
            provider=base.id,
            name=name,
            persistence=persistence,
            options=options,
            created_at=created_at,
            status=status if callable(status) else lambda: "running",
            details=details if callable(details) else lambda: {},
            control=lambda: self._controls.controller(instance_id),
        )

        async def no_start() -> None:
            return None

        return replace(row, id=instance_id, instance=instance), (
            start if callable(start) else no_start
        )

    def _remembered(self) -> list[dict[str, Any]]:
        try:
            stored = json.loads(self.path.read_bytes())
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            log.warning("%s cannot be read (%s); no instance is restored from it", self.path, exc)
            return []
        found = stored.get("instances") if isinstance(stored, dict) else None
        return [entry for entry in found or [] if isinstance(entry, dict)]

    def _save(self) -> None:
        """Write the persistent instances, atomically, readable by this user alone; those
        remembered for a provider not installed now are kept."""
        here = {instance.id for instance in self.all()}
        kept = [
            entry
            for entry in self._remembered()
            if self._catalog.get(str(entry.get("provider"))) is None
            and f"{entry.get('provider')}{INSTANCE_SEPARATOR}{entry.get('name')}" not in here
        ]
        persistent = [i.remembered() for i in self.all() if i.persistence == "persistent"]
        payload = json.dumps({"instances": kept + persistent}, indent=2).encode()
        replace_atomically(self.path, payload, ".instances-")


def _violation(error: SchemaViolation, schema: Mapping[str, Any]) -> str:
    """``/proxy/server: 'x' does not match ... (Proxy server: The proxy's address ...)``: the
    JSON pointer of the value, jsonschema's message, and the schema's own words for it."""
    pointer = "".join(f"/{part}" for part in error.path) or "/"
    words = _words(schema, list(error.path))
    if error.validator == "additionalProperties":
        known = ", ".join(sorted(resolve(schema, schema).get("properties", {})))
        words = f"the options are: {known}"
    return f"{pointer}: {error.message}" + (f" ({words})" if words else "")


def _words(schema: Mapping[str, Any], path: list[Any]) -> str:
    here: Mapping[str, Any] = resolve(schema, schema)
    for part in path:
        properties = here.get("properties", {})
        if not isinstance(part, str) or part not in properties:
            return ""
        here = resolve(schema, properties[part])
    title, description = here.get("title"), here.get("description")
    return ": ".join(str(text) for text in (title, description) if text)


def resolve(root: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    """``node`` with a local ``$ref`` (``#/$defs/Proxy``) followed, and a nullable ``anyOf``
    reduced to its one other branch."""
    for _ in range(8):
        reference = node.get("$ref")
        if isinstance(reference, str) and reference.startswith("#/"):
            target: Any = root
            for part in reference[2:].split("/"):
                target = target.get(part, {}) if isinstance(target, Mapping) else {}
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            continue
        branches = [b for b in node.get("anyOf", []) if b.get("type") != "null"]
        if len(branches) == 1 and "properties" not in node:
            node = {**branches[0], **{k: v for k, v in node.items() if k != "anyOf"}}
            continue
        return node
    return node
