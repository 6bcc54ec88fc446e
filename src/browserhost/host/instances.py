"""Browser instances: a provider's browser launched with options the user chose.

A provider that declares ``launch`` (see :mod:`.catalog`), in process or as a service, offers
a JSON Schema of its launch options. :meth:`Instances.launch` checks the options against it
(every violation listed, nothing created), has the provider create and start the instance (in
process, its ``create``; a service is sent ``launch``, :mod:`.lifecycle`), and installs it in
the catalog under ``<provider>~<name>``: from then on it is routed like any provider, so the
selection, ``providerId``, the control gate and every code apply unchanged. An instance of a
service is reached through the service, each action carrying its ``browserId``; the service is
kept running while it has instances.

An instance is ``ephemeral`` (gone with the host) or ``persistent`` (its browser's data
outlives the host). Persistent instances are remembered in :data:`INSTANCES_FILE` (mode 0600:
the options may hold a proxy's password) and listed as stopped after a restart; ``start`` (or,
in process, their first action) starts them. Closing an instance stops its browser and forgets
it; a persistent one's data stays on disk for the next launch. The other operations an
instance may offer (:meth:`Instances.operate`) are the ones its provider declared, refused
with ``UNSUPPORTED`` otherwise; ``sync_cookies`` from another running instance is the host's
(:mod:`.cookie_copy`). What callers see of an instance is :mod:`.instance`'s.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from browserhost.contract.errors import (
    BrowserhostError,
    InvalidActionError,
    ProviderNotFoundError,
    ProviderRejectedError,
    ProviderUnavailableError,
    UnsupportedError,
)
from browserhost.contract.json_schema import resolve as resolve
from browserhost.contract.lifecycle import INSTANCE_OPERATIONS, LifecycleRequest
from browserhost.contract.limits import INSTANCE_NAME_PATTERN, INSTANCE_SEPARATOR
from browserhost.files import replace_atomically

from . import cookie_copy
from .catalog import Catalog, InstalledProvider, InstallError, read_record
from .control import Controls
from .cookie_copy import FROM_INSTANCE, asks_copy, copy_cookies
from .instance import Call, Instance, Reported
from .launch_specs import check_options
from .lifecycle import InstanceTransport, operate

INSTANCES_FILE: Final = "browser-instances.json"
PROVIDER_HOMES: Final = "providers"
"""The folder of the data dir where each provider keeps what its instances store
(``<provider id>/``: the chromium provider's profiles, say)."""

_name = re.compile(INSTANCE_NAME_PATTERN)
log = logging.getLogger(__name__)


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
        checked = check_options(
            base.launch,
            options,
            f"{base.name} cannot launch with these options",
            "Nothing was launched.",
        )
        chosen = self._name(base.id, name)
        instance_id = f"{base.id}{INSTANCE_SEPARATOR}{chosen}"
        created_at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        # In a worker thread: the provider may read files the options name (a storage-state
        # file), and a slow one must not hold the host.
        row, start = await asyncio.to_thread(
            self._create, base, chosen, checked, created_at, fresh=True
        )
        try:
            await start()
        except BrowserhostError:  # a service's answer to the launch, with its own code
            await row.aclose()
            raise
        except Exception as exc:  # the provider's own failure to start, reported as its no
            await row.aclose()
            raise ProviderRejectedError(
                f"{base.name} could not start {instance_id}: {exc}. Nothing was launched."
            ) from exc
        self._catalog.put(row)
        if row.instance.external:
            base.hold()  # a service that stopped when idle would take the instance with it
        if row.instance.persistence == "persistent":
            try:
                self._save()
            except OSError as exc:
                await self._forget(row, close=True)
                raise ProviderUnavailableError(
                    f"{instance_id} could not be remembered ({exc.strerror}), so it was closed."
                ) from exc
        log.info("Launched %s", instance_id)
        public: dict[str, object] = row.instance.public()
        return public

    async def close(self, instance_id: object) -> dict[str, object]:
        """Stop the instance's browser and forget it. An action it is running fails as may
        have run (``REQUEST_FAILED``); nothing is replayed."""
        row = self._row(instance_id, "Nothing was closed.")
        instance: Instance = row.instance
        if instance.external:
            await operate(self._base(row).transport, LifecycleRequest("close", row.id), row.name)
        public = instance.public()
        await self._forget(row, close=True)
        return {**public, "status": "closed"}

    async def operate(
        self, instance_id: object, operation: object, arguments: object = None
    ) -> dict[str, object]:
        """Run one of the instance's operations: ``{"instance": <row after>, "result": ...}``.
        One the provider did not declare, or that its state does not permit now, is refused
        with ``UNSUPPORTED`` and nothing is done."""
        row = self._row(instance_id, "Nothing was done.")
        instance: Instance = row.instance
        if operation == "close":
            return {"instance": await self.close(row.id), "result": {}}
        offered = instance.operations()
        if operation not in INSTANCE_OPERATIONS or operation not in offered:
            why = (
                "its provider does not offer it"
                if operation not in instance.offered
                else "not in its present state"
            )
            raise UnsupportedError(
                f"{row.id} cannot {str(operation).replace('_', ' ')} ({why}); it offers: "
                f"{', '.join(offered)}. Nothing was done."
            )
        if arguments is not None and not isinstance(arguments, dict):
            raise InvalidActionError(
                f"{operation}'s arguments must be an object. Nothing was done."
            )
        if operation == "sync_cookies" and asks_copy(arguments):
            assert isinstance(arguments, dict)  # asks_copy holds for a mapping only
            source = self._row(arguments[FROM_INSTANCE], cookie_copy.NOTHING)
            copied = await copy_cookies(source, row, arguments, self._run, self.data_dir)
            return {"instance": instance.public(), "result": copied}
        result = await self._run(row, str(operation), dict(arguments or {}))
        if operation == "detach":
            public = instance.public()
            await self._forget(row, close=False)
            return {"instance": public, "result": result}
        return {"instance": instance.public(), "result": result}

    async def _run(
        self, row: InstalledProvider, operation: str, arguments: dict[str, Any]
    ) -> dict[str, Any]:
        instance: Instance = row.instance
        if instance.external:
            options = instance.options if operation == "start" else arguments
            request = LifecycleRequest(operation, row.id, options)
            result = await operate(self._base(row).transport, request, row.name)
            if operation == "start":
                instance.report(result)
                self._base(row).hold()
            return result
        call = instance.calls[operation]
        try:
            answer = await call() if operation == "start" else await call(arguments)
        except Exception as exc:  # the provider's refusal, in its own words
            raise ProviderRejectedError(
                f"{row.name} could not {operation.replace('_', ' ')}: {exc}"
            ) from exc
        return dict(answer) if isinstance(answer, dict) else {}

    async def configure(self, provider_id: object, options: object) -> dict[str, object]:
        """Check ``options`` against the provider's configuration schema and apply them (in
        process) or send them (a service); the provider's row after."""
        base = self._catalog.get(provider_id) if isinstance(provider_id, str) else None
        if base is None or base.instance is not None:
            raise ProviderNotFoundError(
                f"No installed provider is called {provider_id!r}. Nothing was configured."
            )
        spec = base.configuration
        if spec is None:
            raise UnsupportedError(f"{base.name} has no configuration. Nothing was configured.")
        checked = check_options(
            spec,
            options,
            f"{base.name} cannot be configured with these options",
            "Nothing was configured.",
        )
        if spec.configure is not None:
            await spec.configure(checked)
        else:
            await operate(base.transport, LifecycleRequest("configure", None, checked), base.name)
        return base.public()

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

    def _row(self, instance_id: object, nothing: str) -> InstalledProvider:
        row = self._catalog.get(instance_id) if isinstance(instance_id, str) else None
        if row is None or not isinstance(row.instance, Instance):
            raise ProviderNotFoundError(
                f"There is no browser instance {instance_id!r}; browserhost instances lists "
                f"them. {nothing}"
            )
        return row

    def _base(self, row: InstalledProvider) -> InstalledProvider:
        base = self._catalog.get(row.instance.provider)
        if base is None:
            raise ProviderNotFoundError(
                f"The provider of {row.id} is no longer installed. Nothing was done."
            )
        return base

    async def _forget(self, row: InstalledProvider, *, close: bool) -> None:
        """Take the instance out of the catalog (closing its browser when ``close``: an
        in-process instance closes with its row) and out of the remembered file."""
        instance: Instance = row.instance
        if close:
            await self._catalog.uninstall(row.id)
        else:
            self._catalog.remove(row.id)
        if instance.external and instance.state() != "stopped":
            base = self._catalog.get(instance.provider)
            if base is not None:
                base.release()
        if instance.persistence == "persistent":
            self._save()

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
    ) -> tuple[InstalledProvider, Call]:
        assert base.launch is not None
        instance_id = f"{base.id}{INSTANCE_SEPARATOR}{name}"
        if base.launch.create is None:
            given = {"options": options, "created_at": created_at}
            given["persistence"] = "ephemeral" if fresh else "persistent"
            return self._create_in_service(base, name, given)
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
        calls = {
            operation: call
            for operation, call in dict(record.get("operations") or {}).items()
            if callable(call)
        }
        if callable(start):
            calls["start"] = start
        # Read as the provider's own record (its id is the provider's), then given its own id.
        fields = {key: value for key, value in record.items() if key != "operations"}
        row = read_record({**fields, "id": base.id, "launch": None}, builtin=True)
        instance = self._instance(
            base,
            name,
            options=options,
            created_at=created_at,
            persistence=persistence,
            state=status if callable(status) else lambda: "running",
            details=details if callable(details) else lambda: {},
            actions=row.actions,
            offered=tuple(op for op in base.launch.operations if op in calls),
            calls=calls,
        )

        async def no_start() -> None:
            return None

        return replace(row, id=instance_id, instance=instance), (
            start if callable(start) else no_start
        )

    def _create_in_service(
        self, base: InstalledProvider, name: str, given: dict[str, Any]
    ) -> tuple[InstalledProvider, Call]:
        """An instance of a provider service: routed through the service's transport, its
        state what the service last said (a restored one is stopped until started)."""
        assert base.launch is not None
        instance_id = f"{base.id}{INSTANCE_SEPARATOR}{name}"
        reported = Reported()
        instance = self._instance(
            base,
            name,
            **given,
            state=lambda: reported.status,
            details=lambda: reported.details,
            reported=reported,
            actions=base.actions,
            offered=base.launch.operations,
            external=True,
        )
        row = InstalledProvider(
            instance_id,
            f"{base.name} ({name})",
            base.actions,
            InstanceTransport(base.transport, instance_id),
            verbs=base.verbs,
            checkers=base.checkers,
            instance=instance,
        )

        async def launch() -> None:
            request = LifecycleRequest("launch", instance_id, instance.options)
            instance.report(await operate(base.transport, request, base.name))

        return row, launch

    def _instance(self, base: InstalledProvider, name: str, **fields: Any) -> Instance:
        instance_id = f"{base.id}{INSTANCE_SEPARATOR}{name}"
        return Instance(
            id=instance_id,
            provider=base.id,
            name=name,
            held_by=lambda: self._controls.controller(instance_id),
            **fields,
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
