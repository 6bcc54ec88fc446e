"""The host: one place where an agent's action becomes a provider request.

:meth:`Host.dispatch` takes the eight steps of docs/architecture.md, one block each:

1. validate the action and its parameters          → INVALID_ACTION
2. resolve the provider from a fresh catalog read  → NO_PROVIDER, PROVIDER_NOT_FOUND,
                                                     CATALOG_UNAVAILABLE
3. control gate: a person holds the surface        → USER_IN_CONTROL
4. capability gate                                 → UNSUPPORTED
   (a provider's own verb, ``verb.<name>``, is looked up and its arguments checked against
   the schema the provider declared here, once the provider is known → UNSUPPORTED,
   INVALID_ACTION)
5. send with a deadline and cancellation           → PROVIDER_UNAVAILABLE, CANCELLED,
   (the action's own, or the caller's timeoutMs;      REQUEST_FAILED
   the provider gets it as an absolute deadline)
6. parse the answer, and check its data against    → PROVIDER_REJECTED, UNKNOWN_RESULT
   the action's data model (unless an in-process
   provider's SDK built it from that model)
7. post-processing (a capture is saved into the project)
8. the agent holds the provider's surface for a while (:mod:`.control`)

Whatever the outcome, the action is then recorded for its session (:mod:`.recording`), off
the way of the answer.

Nothing before step 5 sends anything; nothing after it retries.
"""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from browserhost.captures import save_capture
from browserhost.contract import (
    VERB_PREFIX,
    Context,
    Parameters,
    ProviderRequest,
    deadlines,
    errors,
    normalize,
    parse_result,
    verb_name,
)
from browserhost.contract.actions import ActionSpec, CaptureParameters
from browserhost.contract.data import CheckedData
from browserhost.contract.limits import TARGET_ID_PATTERN
from browserhost.contract.verbs import VERB_TIMEOUT_S, read_arguments
from browserhost.contract.wire import Outcome, Refusal
from browserhost.transports.base import BadAnswerError, LostError, NotSentError

from .catalog import Catalog, InstalledProvider
from .control import Controls
from .instances import Instances
from .recording import CANCELLED, RECORDINGS_DIR, Attempt, Recorder
from .selection import SelectionReadError, SelectionStore, SelectionWriteError
from .services import ServiceSettings
from .verb_schemas import UncheckableArgumentsError

SERVICE_LOGS = "services"
"""The folder of the data dir where each provider service's output is logged (``<id>.log``)."""

_provider_id = re.compile(TARGET_ID_PATTERN)  # a provider or one of its instances


@dataclass(frozen=True)
class Listing:
    providers: list[dict[str, object]]
    selected_id: str | None

    def to_wire(self) -> dict[str, object]:
        return {"providers": self.providers, "selectedId": self.selected_id}


class Host:
    """The catalog, the selection and the dispatcher of one browserhost instance."""

    def __init__(
        self,
        data_dir: Path,
        catalog: Catalog | None = None,
        controls: Controls | None = None,
        recorder: Recorder | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.catalog = (
            catalog
            if catalog is not None
            else Catalog(ServiceSettings.from_env(data_dir / SERVICE_LOGS))
        )
        self.controls = controls if controls is not None else Controls()
        self.selection = SelectionStore(data_dir)
        self.selection.remove_stale_temporaries()
        self.instances = Instances(data_dir, self.catalog, self.controls)
        """Browsers launched with options; each is routed to like a provider."""
        self.recorder = recorder if recorder is not None else Recorder(data_dir / RECORDINGS_DIR)
        """The session recordings: written only when enabled (``serve`` enables it)."""

    def providers(self) -> Listing:
        """The reachable providers and the selection, or :class:`CatalogUnavailableError`."""
        installed = self.catalog.all()
        selected = self._selected("Nothing was changed.")
        ids = {provider.id for provider in installed}
        return Listing(
            [provider.public() for provider in installed],
            selected if selected in ids else None,
        )

    def select(self, provider_id: object) -> str:
        """Store a new selection. On any refusal the previous choice stays."""
        if not isinstance(provider_id, str) or not _provider_id.fullmatch(provider_id):
            raise errors.InvalidSelectionError(
                'Send {"id": "<provider id>"}; GET /api/browser-providers lists the ids. '
                "The selection was not changed."
            )
        if self.catalog.get(provider_id) is None:
            raise errors.ProviderNotFoundError(
                f"No reachable browser provider is called {provider_id!r}; "
                f"choose one of: {self._ids()}. The selection was not changed."
            )
        try:
            self.selection.write(provider_id)
        except SelectionWriteError as exc:
            raise errors.SelectionUnavailableError(
                f"The selection could not be saved ({exc}). The previous choice stays."
            ) from exc
        return provider_id

    async def dispatch(
        self,
        action: object,
        parameters: object = None,
        context: Context | None = None,
        provider_id: str | None = None,
        cancel: asyncio.Event | None = None,
        *,
        by_person: bool = False,
        timeout_ms: object = None,
    ) -> Outcome:
        """Run one action. ``by_person``: a person at the viewer asked for it (the provider's
        panel), so the control gate and the agent's hold do not apply, and it is not recorded.
        ``timeout_ms``: the caller's own wait for the answer, instead of the action's."""
        attempt = self.recorder.begin(action, parameters, context)
        try:
            outcome = await self._dispatch(
                attempt, action, parameters, context, provider_id, cancel, by_person, timeout_ms
            )
        except errors.BrowserhostError as error:
            if not by_person:
                self.recorder.keep(attempt, error=error)
            raise
        except asyncio.CancelledError:
            if not by_person:
                self.recorder.keep(attempt, outcome=CANCELLED)
            raise
        if not by_person:
            self.recorder.keep(attempt, outcome.data)
        return outcome

    async def _dispatch(
        self,
        attempt: Attempt,
        action: object,
        parameters: object,
        context: Context | None,
        provider_id: str | None,
        cancel: asyncio.Event | None,
        by_person: bool,
        timeout_ms: object,
    ) -> Outcome:
        verb = verb_name(action)
        call = None if verb is not None else normalize(action, parameters)
        caller_timeout_s = deadlines.caller_timeout_s(timeout_ms)
        context = context if context is not None else Context()
        provider = attempt.provider = self._resolve(provider_id)
        if not by_person:
            self.controls.gate(provider.id, provider.name, str(action))

        name: str
        sent: Parameters | Mapping[str, Any]
        if call is not None:
            if call.name not in provider.actions:
                raise errors.UnsupportedError(
                    f"{provider.name} does not support {call.name}. Nothing was sent."
                )
            name, sent, timeout_s = call.name, call.parameters, call.spec.timeout_s
        else:  # not one of the ten: a verb
            name, timeout_s = f"{VERB_PREFIX}{verb}", VERB_TIMEOUT_S
            sent = _verb_arguments(provider, str(verb), parameters)
        if caller_timeout_s is not None:
            timeout_s = caller_timeout_s
        attempt.name, attempt.parameters = name, sent

        if cancel is not None and cancel.is_set():
            raise errors.ActionCancelledError(f"{name} was cancelled before sending; nothing ran.")
        request_id = f"browser-{uuid.uuid4().hex}"
        deadline_ms = int((time.time() + timeout_s) * 1000)
        request = ProviderRequest(request_id, name, sent, context, deadline_ms=deadline_ms)
        outcome = "ok"
        try:
            answer = await self._send(provider, request, timeout_s, cancel)
            result = parse_result(answer)
            if result is None:
                raise errors.UnknownResultError(
                    f"{provider.name} answered {name} with something that is not a browser "
                    "result. The page state is unknown; take a snapshot before acting again."
                )
            if isinstance(result, Refusal):
                raise errors.ProviderRejectedError(result.error)
            if call is not None and not isinstance(result.data, CheckedData):
                _check_data(provider, call.spec, result.data)
        except errors.BrowserhostError as error:
            outcome = error.code.value
            raise
        finally:
            if not by_person and outcome != errors.ErrorCode.PROVIDER_UNAVAILABLE:  # sent: it acted
                self.controls.agent_acted(provider.id, provider.surface, name, outcome)

        data = result.data
        if call is not None and isinstance(call.parameters, CaptureParameters):
            saved = save_capture(data, context.directory, call.parameters.label)
            if saved is not None:
                data = {**data, "path": str(saved)}
        if call is not None:
            data = call.told(data)
        # An instance's routing and control state rides along (001's session), not its data.
        session = provider.instance.session() if provider.instance is not None else None
        return Outcome(provider.id, data, session)

    def _resolve(self, provider_id: str | None) -> InstalledProvider:
        if provider_id is None:
            provider_id = self._selected("Nothing ran.")
            if provider_id is None:
                raise errors.NoProviderError(
                    "No browser provider is selected, so nothing ran. Ask the user to choose "
                    f"one (available: {self._ids()})."
                )
        provider = self.catalog.get(provider_id)
        if provider is None:
            raise errors.ProviderNotFoundError(
                f"The browser provider {provider_id!r} is not installed now, so nothing ran. "
                f"Ask the user to choose one of: {self._ids()}."
            )
        return provider

    def _selected(self, outcome: str) -> str | None:
        """The stored selection; an unreadable one is refused, never taken as none."""
        try:
            return self.selection.read()
        except SelectionReadError as exc:
            raise errors.CatalogUnavailableError(
                f"The provider selection could not be read ({exc}). {outcome}"
            ) from exc

    async def _send(
        self,
        provider: InstalledProvider,
        request: ProviderRequest,
        timeout_s: float,
        cancel: asyncio.Event | None,
    ) -> object:
        try:
            return await _deliver(provider, request, timeout_s, cancel)
        except NotSentError as exc:
            raise errors.ProviderUnavailableError(
                f"{provider.name} is not reachable ({exc}). Nothing was sent."
            ) from exc
        except LostError as exc:
            raise errors.RequestFailedError(
                f"{request.action} was sent to {provider.name}, which gave no answer "
                f"({str(exc).rstrip('.')}). It may have run; take a snapshot before acting again."
            ) from exc
        except BadAnswerError as exc:
            raise errors.UnknownResultError(
                f"{provider.name} gave an unusable answer to {request.action} ({exc}). The page "
                "state is unknown; take a snapshot before acting again."
            ) from exc

    def _ids(self) -> str:
        return ", ".join(provider.id for provider in self.catalog.all()) or "none installed"

    async def aclose(self) -> None:
        await self.recorder.aclose()
        await self.catalog.aclose()


VIOLATIONS_LISTED = 8
"""How many schema violations a refused verb call lists."""


def _verb_arguments(provider: InstalledProvider, verb: str, raw: object) -> Mapping[str, Any]:
    """A verb call's arguments, checked against the schema its provider declared."""
    checker = provider.checkers.get(verb)
    if checker is None:
        # Bare names: the CLI takes them as they are, MCP as browser_<name>, HTTP as verb.<name>.
        offered = ", ".join(provider.verbs) or "no verbs"
        raise errors.UnsupportedError(
            f"{provider.name} has no verb {verb!r}; this provider offers: {offered}. "
            "Nothing was sent."
        )
    arguments = read_arguments(raw)
    if arguments is None:
        raise errors.InvalidActionError("parameters must be an object. Nothing was sent.")
    try:
        problems = sorted(checker.problems(arguments), key=lambda error: list(error.path))
    except UncheckableArgumentsError as exc:
        raise errors.InvalidActionError(
            f"{VERB_PREFIX}{verb} was refused: its arguments were not checked, as {exc}; send "
            "smaller, simpler ones. Nothing was sent."
        ) from None
    if problems:
        listed = "; ".join(
            f"{'.'.join(str(part) for part in error.path) or 'parameters'}: {error.message}"
            for error in problems[:VIOLATIONS_LISTED]
        )
        raise errors.InvalidActionError(
            f"{VERB_PREFIX}{verb} was refused: {listed}. Nothing was sent."
        )
    return arguments


def _check_data(provider: InstalledProvider, spec: ActionSpec, data: dict[str, Any]) -> None:
    """An answer's data must be what the action answers (:mod:`browserhost.contract.data`):
    anything else is not a result, whatever transport brought it."""
    try:
        spec.data.model_validate(data)
    except ValidationError as exc:
        problem = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in problem["loc"]) or "data"
        raise errors.UnknownResultError(
            f"{provider.name} answered {spec.name} with data that does not fit it ({where}: "
            f"{problem['msg']}). The page state is unknown; take a snapshot before acting again."
        ) from None


async def _deliver(
    provider: InstalledProvider,
    request: ProviderRequest,
    timeout_s: float,
    cancel: asyncio.Event | None,
) -> object:
    """Send once; a cancel that arrives after sending abandons the answer, not the action."""
    if cancel is None:
        return await provider.transport.send(request, timeout_s)
    sending = asyncio.ensure_future(provider.transport.send(request, timeout_s))
    cancelled = asyncio.ensure_future(cancel.wait())
    try:
        await asyncio.wait({sending, cancelled}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        cancelled.cancel()
        abandoned = not sending.done()
        if abandoned:
            sending.cancel()
    if abandoned:
        await provider.transport.abandon(request.request_id)
        raise LostError("the caller cancelled while waiting for the answer")
    return sending.result()
