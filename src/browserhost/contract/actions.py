"""The ten browser actions: their parameters, validation and answers.

This module and its outline (:mod:`.outline`: the names, descriptions and deadlines) are the
single source of truth for what an agent may ask. The HTTP schema and the MCP tool schemas are
derived from :data:`ACTIONS`, the command-line verbs from the outline.

Validation follows one rule set for every caller: strings are trimmed and an empty string
counts as absent, a string over its limit (:mod:`.limits`) is refused, unknown keys are
dropped, and every refusal says what to change and ends with "Nothing was sent.". Only the
normalized parameters ever reach a provider.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, get_args

from pydantic import (
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from . import data
from .base import WireModel
from .data import ViewportMode
from .errors import InvalidActionError
from .limits import TEXT_MAX, URL_MAX, VALUE_MAX
from .outline import OUTLINES, ActionName

if TYPE_CHECKING:
    from pydantic import AnyUrl

BLANK_PAGE = "about:blank"
"""The one address that is not http(s) an agent may open: an empty page."""

ScrollDirection = Literal["up", "down", "top", "bottom"]

VIEWPORT_MODES: tuple[str, ...] = get_args(ViewportMode)
SCROLL_DIRECTIONS: tuple[str, ...] = get_args(ScrollDirection)


def _about(action: ActionName, parameter: str) -> str:
    return OUTLINES[action].about(parameter)


@functools.cache
def _url_adapter() -> TypeAdapter[AnyUrl]:
    # pydantic's URL types take long to load (a sixth of a command line's start); only open
    # needs them.
    from pydantic import AnyUrl

    return TypeAdapter(AnyUrl)


def _refuse(message: str) -> PydanticCustomError:
    return PydanticCustomError("invalid_action", f"{message} Nothing was sent.")


def _text(value: object, name: str, limit: int = TEXT_MAX) -> str | None:
    """A trimmed non-empty string, else ``None``: blanks and non-strings count as absent. One
    over ``limit`` characters is refused, so no caller can send a provider megabytes."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        return None
    if len(text) > limit:
        raise _refuse(f"{name} is {len(text):,} characters; at most {limit:,} are taken.")
    return text


def _viewport(value: object, *, required: bool) -> str | None:
    mode = _text(value, "viewport")
    if mode is None:
        if required:
            raise _refuse("viewport is required for browser.resize.")
        return None
    if mode not in VIEWPORT_MODES:
        raise _refuse("viewport must be mobile, tablet, desktop, or fill.")
    return mode


def _fields(raw: object) -> Mapping[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise _refuse("parameters must be an object.")
    return raw


def _present(**values: object) -> dict[str, object]:
    return {key: value for key, value in values.items() if value is not None}


class Parameters(WireModel):
    """Base of every action's parameters. Unknown keys are dropped, never forwarded."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    at_least_one: ClassVar[tuple[str, ...]] = ()
    """Optional fields of which at least one must be given, as a non-blank string."""
    may_be_blank: ClassVar[frozenset[str]] = frozenset()
    """Required string fields that may be empty or whitespace; every other one may not."""

    @classmethod
    def _require_one(cls, action: str, values: dict[str, object]) -> dict[str, object]:
        if all(values.get(name) is None for name in cls.at_least_one):
            raise _refuse(f"{action} requires {' or '.join(cls.at_least_one)}.")
        return values


class OpenParameters(Parameters):
    url: str = Field(description=_about("browser.open", "url"), max_length=URL_MAX)
    viewport: ViewportMode | None = Field(None, description=_about("browser.open", "viewport"))

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: object) -> dict[str, object]:
        source = _fields(raw)
        viewport = _viewport(source.get("viewport"), required=False)
        url = _text(source.get("url"), "url", URL_MAX)
        if url is None:
            raise _refuse("url is required for browser.open.")
        if url == BLANK_PAGE:
            return _present(url=url, viewport=viewport)
        try:
            parsed = _url_adapter().validate_python(url)
        except ValidationError:
            raise _refuse("url must be an absolute http(s) URL.") from None
        if parsed.scheme not in ("http", "https"):
            raise _refuse("url must use http or https.")
        return _present(url=str(parsed), viewport=viewport)


class SnapshotParameters(Parameters):
    selector: str | None = Field(
        None, description=_about("browser.snapshot", "selector"), max_length=TEXT_MAX
    )
    full: bool = Field(False, description=_about("browser.snapshot", "full"))

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: object) -> dict[str, object]:
        source = _fields(raw)
        return _present(
            selector=_text(source.get("selector"), "selector"),
            full=True if source.get("full") is True else None,
        )

    def to_wire(self) -> dict[str, object]:
        # Said only when asked: the everyday snapshot reaches a provider as it always has.
        wire = super().to_wire()
        if not self.full:
            del wire["full"]
        return wire


class ClickParameters(Parameters):
    at_least_one = ("selector", "text")

    selector: str | None = Field(
        None, description=_about("browser.click", "selector"), max_length=TEXT_MAX
    )
    text: str | None = Field(None, description=_about("browser.click", "text"), max_length=TEXT_MAX)

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: object) -> dict[str, object]:
        source = _fields(raw)
        present = _present(
            selector=_text(source.get("selector"), "selector"),
            text=_text(source.get("text"), "text"),
        )
        return cls._require_one("browser.click", present)


class TypeParameters(Parameters):
    may_be_blank = frozenset({"value"})

    selector: str = Field(description=_about("browser.type", "selector"), max_length=TEXT_MAX)
    value: str = Field(description=_about("browser.type", "value"), max_length=VALUE_MAX)
    submit: bool = Field(False, description=_about("browser.type", "submit"))

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: object) -> dict[str, object]:
        source = _fields(raw)
        selector = _text(source.get("selector"), "selector")
        if selector is None:
            raise _refuse("selector is required for browser.type.")
        value = source.get("value")
        if not isinstance(value, str):
            raise _refuse("value is required for browser.type.")
        if len(value) > VALUE_MAX:
            raise _refuse(f"value is {len(value):,} characters; at most {VALUE_MAX:,} are taken.")
        return {"selector": selector, "value": value, "submit": source.get("submit") is True}


class ScrollParameters(Parameters):
    at_least_one = ("direction", "selector")

    direction: ScrollDirection | None = Field(
        None, description=_about("browser.scroll", "direction")
    )
    selector: str | None = Field(
        None, description=_about("browser.scroll", "selector"), max_length=TEXT_MAX
    )

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: object) -> dict[str, object]:
        source = _fields(raw)
        selector = _text(source.get("selector"), "selector")
        direction = _text(source.get("direction"), "direction")
        cls._require_one("browser.scroll", _present(direction=direction, selector=selector))
        if direction is not None and direction not in SCROLL_DIRECTIONS:
            raise _refuse("direction must be up, down, top, or bottom.")
        return _present(selector=selector, direction=direction)


class NoParameters(Parameters):
    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: object) -> dict[str, object]:
        _fields(raw)
        return {}


class BackParameters(NoParameters):
    pass


class ForwardParameters(NoParameters):
    pass


class InspectParameters(Parameters):
    selector: str = Field(description=_about("browser.inspect", "selector"), max_length=TEXT_MAX)

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: object) -> dict[str, object]:
        selector = _text(_fields(raw).get("selector"), "selector")
        if selector is None:
            raise _refuse("selector is required for browser.inspect.")
        return {"selector": selector}


class CaptureParameters(Parameters):
    label: str | None = Field(
        None, description=_about("browser.capture", "label"), max_length=TEXT_MAX
    )

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: object) -> dict[str, object]:
        return _present(label=_text(_fields(raw).get("label"), "label"))


class ResizeParameters(Parameters):
    viewport: ViewportMode = Field(description=_about("browser.resize", "viewport"))

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: object) -> dict[str, object]:
        return {"viewport": _viewport(_fields(raw).get("viewport"), required=True)}


@dataclass(frozen=True)
class ActionSpec:
    """One action: its wire name, parameter and answer models, deadline and description (the
    last two from its :data:`~.outline.OUTLINES` entry)."""

    name: ActionName
    parameters: type[Parameters]
    data: type[data.Data]
    description: str
    timeout_s: float

    @property
    def verb(self) -> str:
        """The short name: ``open`` for ``browser.open``; the CLI verb and client method."""
        return self.name.removeprefix("browser.")

    @property
    def tool_name(self) -> str:
        """The MCP tool name: ``browser_open``."""
        return self.name.replace(".", "_")


def _spec(name: ActionName, parameters: type[Parameters], answer: type[data.Data]) -> ActionSpec:
    outline = OUTLINES[name]
    return ActionSpec(name, parameters, answer, outline.description, outline.timeout_s)


ACTIONS: dict[str, ActionSpec] = {
    spec.name: spec
    for spec in (
        _spec("browser.open", OpenParameters, data.OpenData),
        _spec("browser.snapshot", SnapshotParameters, data.SnapshotData),
        _spec("browser.click", ClickParameters, data.ClickData),
        _spec("browser.type", TypeParameters, data.TypeData),
        _spec("browser.scroll", ScrollParameters, data.ScrollData),
        _spec("browser.back", BackParameters, data.NavigationData),
        _spec("browser.forward", ForwardParameters, data.NavigationData),
        _spec("browser.inspect", InspectParameters, data.InspectData),
        _spec("browser.capture", CaptureParameters, data.CaptureData),
        _spec("browser.resize", ResizeParameters, data.ResizeData),
    )
}


@dataclass(frozen=True)
class ActionCall:
    """A validated action: the only form in which an action reaches a provider."""

    spec: ActionSpec
    parameters: Parameters
    ignored: tuple[str, ...] = ()
    """The keys given that the action has no parameter for: dropped, never sent."""

    @property
    def name(self) -> ActionName:
        return self.spec.name

    def told(self, data: Any) -> Any:
        """The answer's ``data``, with its notice naming the keys that were dropped, where the
        answer has a notice (open, snapshot, click, type): an agent that misspelled one
        (``sumbit``) learns that it did nothing, rather than taking the answer for its doing."""
        if (
            not self.ignored
            or not isinstance(data, dict)
            or "notice" not in self.spec.data.model_fields
        ):
            return data
        said = f"{_unknown_named(self.spec, self.ignored)}, and did nothing."
        notice = data.get("notice")
        return {**data, "notice": f"{notice} {said}" if isinstance(notice, str) else said}


def normalize(action: object, parameters: object = None) -> ActionCall:
    """Validate an agent's action; raise :class:`InvalidActionError` with a message to act on."""
    spec = ACTIONS.get(action) if isinstance(action, str) else None
    if spec is None:
        raise InvalidActionError(
            "Unknown browser action; use one of " + ", ".join(ACTIONS) + ", or verb.<name> for "
            "a verb the provider offers. Nothing was sent."
        )
    unknown = _unknown(spec, parameters)
    try:
        return ActionCall(spec, spec.parameters.model_validate(parameters), unknown)
    except ValidationError as exc:
        message = _first_message(exc)
        if unknown:  # a misspelled required one (``selectr``): which was meant
            said = message.removesuffix(" Nothing was sent.")
            message = f"{said} {_unknown_named(spec, unknown)}. Nothing was sent."
        raise InvalidActionError(message) from None


def _known(spec: ActionSpec) -> list[str]:
    fields = spec.parameters.model_fields
    return [field.alias or name for name, field in fields.items()]


def _unknown(spec: ActionSpec, parameters: object) -> tuple[str, ...]:
    """The keys of ``parameters`` the action has no parameter for (dropped, as every unknown
    key is)."""
    if not isinstance(parameters, Mapping):
        return ()
    names = {*_known(spec), *spec.parameters.model_fields}
    return tuple(str(key) for key in parameters if key not in names)


def _unknown_named(spec: ActionSpec, unknown: tuple[str, ...]) -> str:
    """``'sumbit' is not a parameter of browser.type, which takes selector, value, submit``."""
    known = _known(spec)
    takes = f"takes {', '.join(known)}" if known else "takes no parameters"
    named = ", ".join(repr(key) for key in unknown)
    verb = "is not a parameter" if len(unknown) == 1 else "are not parameters"
    return f"{named} {verb} of {spec.name}, which {takes}"


def _first_message(exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    if error["type"] == "invalid_action":
        return error["msg"]
    where = ".".join(str(part) for part in error["loc"]) or "parameters"
    return f"{where}: {error['msg']}. Nothing was sent."
