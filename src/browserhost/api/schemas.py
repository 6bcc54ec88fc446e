"""Request and answer bodies of the HTTP API, for validation and the OpenAPI document."""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from fastapi.exceptions import RequestValidationError
from pydantic import ConfigDict, Field, ValidationError

from browserhost.contract import ACTIONS, ErrorCode, VerbSpec
from browserhost.contract.base import WireModel, absent_when_none
from browserhost.contract.limits import TARGET_ID_PATTERN

from .action_schema import action_request_schema


class ActionRequestBody(WireModel):
    """One agent action. ``parameters`` are checked against the action's own rules.

    Validation here is only the envelope; the action's rules run in the contract. The
    OpenAPI schema spells those rules out per action (:mod:`.action_schema`).
    """

    model_config = ConfigDict(extra="ignore", json_schema_extra=action_request_schema)

    action: str = Field(json_schema_extra={"enum": list(ACTIONS)})
    parameters: dict[str, Any] | None = None
    # Any value: one that is not an object is an unknown context, as reference 000 reads it.
    context: Any = Field(
        None, description="{directory, sessionId}: where the action comes from; null if unknown."
    )
    provider_id: str | None = Field(None, description="Use this provider for this call only.")
    # Any value: the host refuses one out of range (INVALID_ACTION), as every adapter's.
    timeout_ms: Any = Field(None, description="How long to wait for the answer, in ms.")


Body = TypeVar("Body", bound=WireModel)

SELF_READ_BODIES: tuple[type[WireModel], ...] = (ActionRequestBody,)
"""Bodies a route reads itself (:func:`read_body`); ``app.py`` adds their schemas to the
OpenAPI document, which FastAPI only does for body parameters."""


def body_documented_as(model: type[WireModel]) -> dict[str, Any]:
    """The ``openapi_extra`` of a route that reads its body itself: the body is ``model``."""
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


def read_body(model: type[Body], raw: bytes) -> Body:
    """``raw`` read as ``model``; refused as FastAPI refuses a body parameter, so the same
    handler words the 400."""
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        problems = [{**problem, "loc": ("body", *problem["loc"])} for problem in exc.errors()]
        raise RequestValidationError(problems) from None


class SelectionBody(WireModel):
    model_config = ConfigDict(extra="ignore")

    id: str = Field(
        description="A provider id from GET /api/browser-providers.",
        json_schema_extra={"pattern": TARGET_ID_PATTERN},
    )


class PanelRow(WireModel):
    dock: Literal["top", "bottom", "left", "right"]
    size: int = Field(ge=24, le=480, description="CSS pixels across the docked edge.")


class ServiceRow(WireModel):
    state: Literal["stopped", "starting", "running", "failed"]
    reason: str | None = absent_when_none("Why it failed, when it did.")
    uptime_s: float | None = absent_when_none("Seconds since it became ready, while it runs.")


class BridgeRow(WireModel):
    connected: bool = Field(description="Whether a browser is connected to the bridge now.")
    provider: str | None = absent_when_none("The name the connected side gave.")


class CapacityRow(WireModel):
    source: str = Field(description="Where the provider's browsers run: Selenium Grid.")
    free: int | None = absent_when_none("Slots free for a new browser now.")
    busy: int | None = absent_when_none(
        "Slots holding a browser now (this host's or anyone else's)."
    )
    problem: str | None = absent_when_none(
        "Why the slots could not be counted (the Grid does not answer), or why none can be used."
    )


InstanceOperation = Literal["close", "start", "detach", "sync_cookies", "references"]


class LaunchRow(WireModel):
    input_schema: dict[str, Any] = Field(
        description="JSON Schema of the launch options; the host checks them against it."
    )
    help: str = Field(description="What launching this provider does, in its own words.")
    documentation_url: str | None = absent_when_none("Where the provider documents launching.")
    operations: list[InstanceOperation] = Field(
        description="What its instances may offer: close, and those the provider declared."
    )


class ConfigurationRow(WireModel):
    input_schema: dict[str, Any] = Field(
        description="JSON Schema of the provider's configuration, sent with POST .../configure."
    )


class CapabilitiesRow(WireModel):
    actions: list[str] = Field(description="The page actions its control channel handles.")
    screenshot: Literal["page", "none"]


class ControlRow(WireModel):
    kind: Literal["provider", "extension", "none"] = Field(
        description="What handles page actions: the provider itself, an extension over CDP, "
        "or nothing now (a stopped instance)."
    )
    capabilities: CapabilitiesRow | None = absent_when_none("What that channel can do.")


class InstanceRow(WireModel):
    id: str = Field(description="The id actions, the selection and providerId use.")
    provider: str
    name: str
    status: Literal["connected", "pairing", "running_disconnected", "stopped", "closed"] = Field(
        description="connected (actions reach it), pairing, running_disconnected (its browser "
        "runs, no control channel yet: starting), stopped; closed once closed."
    )
    control: ControlRow
    held_by: Literal["none", "agent", "user"] = Field(
        description="Who holds its surface in the viewer."
    )
    ownership: Literal["owned"] = Field(
        description="owned: this host started it at the user's request and closes it."
    )
    persistence: Literal["ephemeral", "persistent"] = Field(
        description="persistent: its browser data outlives the host, and the host lists it "
        "again (stopped) after a restart."
    )
    operations: list[InstanceOperation] = Field(
        description="What can be done to it now: POST .../instances/{id}/operations/{operation}."
    )
    details: dict[str, Any] = Field(
        description="What it is (headless, createdAt, profile...); never an endpoint or a secret."
    )


class OperationBody(WireModel):
    """Checked by the host and the provider, which say what is wrong."""

    model_config = ConfigDict(extra="ignore")

    arguments: Any = Field(
        None, description="The operation's arguments: sync_cookies' scope ({fromFile|toFile})."
    )


class OperationAnswer(WireModel):
    instance: InstanceRow = Field(description="The instance after the operation.")
    result: dict[str, Any] = Field(
        description="What the operation gave: references' {references}, sync_cookies' "
        "{copiedCookies}."
    )


class ConfigureBody(WireModel):
    model_config = ConfigDict(extra="ignore")

    options: Any = Field(None, description="Checked against configuration.inputSchema.")


class SessionRow(WireModel):
    instance: str
    provider: str
    status: str
    control: str
    held_by: str


class InstancesAnswer(WireModel):
    instances: list[InstanceRow]


class LaunchBody(WireModel):
    """Checked by the host (types included), which says what is wrong in the contract's words."""

    model_config = ConfigDict(extra="ignore")

    provider: Any = Field(description="The id of a provider whose row has launch.")
    name: Any = Field(
        None, description="The instance's name (its id is provider~name); a number if unset."
    )
    options: Any = Field(None, description="Launch options, checked against launch.inputSchema.")


class ProviderRow(WireModel):
    id: str
    name: str
    surface: bool
    panel: PanelRow | None = absent_when_none(
        "A page of the provider's own, docked to this edge of the picture."
    )
    verbs: list[VerbSpec] = Field(
        default_factory=list,
        description="The provider's own verbs: POST them as action verb.<name>.",
    )
    service: ServiceRow | None = absent_when_none(
        "The process the host runs for this provider: started on the first "
        "action, stopped when idle. Absent for a provider that runs in the host or elsewhere."
    )
    bridge: BridgeRow | None = absent_when_none(
        "A browser elsewhere that dials in to /ext/bridge: whether one is "
        "connected. Absent for every other provider."
    )
    capacity: CapacityRow | None = absent_when_none(
        "The free and busy slots where this provider's browsers run (a Selenium "
        "Grid), counted as the listing is asked. Absent for browsers on this machine."
    )
    launch: LaunchRow | None = absent_when_none(
        "How to launch instances of this provider, when it can."
    )
    configuration: ConfigurationRow | None = absent_when_none(
        "The provider's own settings, when it has some."
    )
    state: Literal["stopped", "starting", "running", "failed"] | None = absent_when_none(
        "What the browser this provider starts on this machine is doing: stopped (until an "
        "action needs it), starting, running, or failed (its last start did not work). Absent "
        "for a provider whose browsers run elsewhere or in a service."
    )
    instance: InstanceRow | None = absent_when_none(
        "The launched instance this row routes to (id provider~name)."
    )


class ProvidersAnswer(WireModel):
    providers: list[ProviderRow]
    selected_id: str | None


class SelectionAnswer(WireModel):
    selected_id: str


class ActionAnswer(WireModel):
    ok: Literal[True]
    provider_id: str
    data: Any = Field(
        description="The answer: an object for the ten actions, any JSON value for a verb."
    )
    session: SessionRow | None = absent_when_none(
        "For an action run on an instance: its routing and control state after it."
    )


class ActionRefusal(WireModel):
    ok: Literal[False]
    code: ErrorCode
    error: str


class PendingRow(WireModel):
    id: str = Field(description="The request's id, which the waiting browser shows too.")
    name: str = Field(description="The name the browser gave itself: its own word, no proof.")
    origin: str | None = absent_when_none(
        "The Origin its socket sent (chrome-extension://...): its own word, no proof."
    )
    since: float = Field(description="When it asked, in epoch seconds.")


class PendingAnswer(WireModel):
    pending: list[PendingRow]


class PairedRow(WireModel):
    id: str = Field(description="The paired browser's id: the id its request had.")
    name: str
    origin: str | None = absent_when_none("The Origin its socket sent when it asked.")
    paired_at: float = Field(description="When it was approved, in epoch seconds.")


class PairedAnswer(WireModel):
    paired: list[PairedRow]


class Refusal(WireModel):
    code: str
    error: str


def refusals(*statuses: int, model: type[WireModel] = Refusal) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": model} for status in statuses}
