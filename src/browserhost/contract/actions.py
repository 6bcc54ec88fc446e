"""The ten browser actions: their parameters, validation and answers.

This module is the single source of truth for what an agent may ask. The HTTP schema, the MCP
tool schemas and the command-line verbs are all derived from :data:`ACTIONS`.

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
from .limits import (
    ACTION_TIMEOUT_S,
    OPEN_TIMEOUT_S,
    SNAPSHOT_ELEMENTS_MAX,
    SNAPSHOT_FULL_ELEMENTS_MAX,
    SNAPSHOT_FULL_TEXT_MAX,
    SNAPSHOT_TEXT_MAX,
    TEXT_MAX,
    URL_MAX,
    VALUE_MAX,
)

if TYPE_CHECKING:
    from pydantic import AnyUrl

BLANK_PAGE = "about:blank"
"""The one address that is not http(s) an agent may open: an empty page."""

ActionName = Literal[
    "browser.open",
    "browser.snapshot",
    "browser.click",
    "browser.type",
    "browser.scroll",
    "browser.back",
    "browser.forward",
    "browser.inspect",
    "browser.capture",
    "browser.resize",
]
ScrollDirection = Literal["up", "down", "top", "bottom"]

VIEWPORT_MODES: tuple[str, ...] = get_args(ViewportMode)
SCROLL_DIRECTIONS: tuple[str, ...] = get_args(ScrollDirection)

_SELECTOR_HELP = (
    "CSS selector of one element, as listed by the latest browser.snapshot. ' >> ' steps into "
    "an iframe or an open shadow root: the part before names the iframe or the shadow host, the "
    "part after is matched inside it (iframe#pay >> #card, todo-app >> button.add)."
)


@functools.cache
def _url_adapter() -> TypeAdapter[AnyUrl]:
    # pydantic's URL types cost a command-line verb a sixth of its start; only open needs them.
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
    url: str = Field(
        description="Absolute http(s) URL to load, e.g. https://example.com/, or about:blank "
        "for an empty page.",
        max_length=URL_MAX,
    )
    viewport: ViewportMode | None = Field(
        None, description="Viewport to use: mobile, tablet, desktop, or fill. Omit to keep it."
    )

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
        None,
        description="Selector (as for browser.click) to read one part of the page only: a "
        "section, a list, an iframe, a dialog.",
        max_length=TEXT_MAX,
    )
    full: bool = Field(
        False,
        description=f"Everything at once: the text and elements of the whole page (or of the "
        f"selector's part), up to {SNAPSHOT_FULL_TEXT_MAX:,} characters and "
        f"{SNAPSHOT_FULL_ELEMENTS_MAX:,} elements instead of the {SNAPSHOT_TEXT_MAX:,} and "
        f"{SNAPSHOT_ELEMENTS_MAX} around the viewport. A far bigger answer: ask only when you "
        "need it all.",
    )

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

    selector: str | None = Field(None, description=_SELECTOR_HELP, max_length=TEXT_MAX)
    text: str | None = Field(
        None,
        description="Visible label or accessible name of the element to click.",
        max_length=TEXT_MAX,
    )

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

    selector: str = Field(description=_SELECTOR_HELP, max_length=TEXT_MAX)
    value: str = Field(
        description="Text to put in the field; it replaces what is there.", max_length=VALUE_MAX
    )
    submit: bool = Field(False, description="Press Enter after typing.")

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
        None, description="up or down by one screen, or to the top or bottom of the page."
    )
    selector: str | None = Field(
        None, description="Scroll this element into view instead.", max_length=TEXT_MAX
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
    selector: str = Field(description=_SELECTOR_HELP, max_length=TEXT_MAX)

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: object) -> dict[str, object]:
        selector = _text(_fields(raw).get("selector"), "selector")
        if selector is None:
            raise _refuse("selector is required for browser.inspect.")
        return {"selector": selector}


class CaptureParameters(Parameters):
    label: str | None = Field(
        None, description="Short name for the image file, e.g. login-form.", max_length=TEXT_MAX
    )

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: object) -> dict[str, object]:
        return _present(label=_text(_fields(raw).get("label"), "label"))


class ResizeParameters(Parameters):
    viewport: ViewportMode = Field(
        description="mobile (390x844), tablet (820x1180), desktop (1280x800), or fill (the window)."
    )

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: object) -> dict[str, object]:
        return {"viewport": _viewport(_fields(raw).get("viewport"), required=True)}


@dataclass(frozen=True)
class ActionSpec:
    """One action: its wire name, parameter and answer models, deadline and description."""

    name: ActionName
    parameters: type[Parameters]
    data: type[data.Data]
    description: str
    timeout_s: float = ACTION_TIMEOUT_S

    @property
    def verb(self) -> str:
        """The short name: ``open`` for ``browser.open``; the CLI verb and client method."""
        return self.name.removeprefix("browser.")

    @property
    def tool_name(self) -> str:
        """The MCP tool name: ``browser_open``."""
        return self.name.replace(".", "_")


ACTIONS: dict[str, ActionSpec] = {
    spec.name: spec
    for spec in (
        ActionSpec(
            "browser.open",
            OpenParameters,
            data.OpenData,
            "Load a URL in the browser and wait (bounded) until it has loaded and stopped "
            "changing. Returns url, title, settled (false if it was still loading or changing "
            "when the wait ended) and viewport.",
            timeout_s=OPEN_TIMEOUT_S,
        ),
        ActionSpec(
            "browser.snapshot",
            SnapshotParameters,
            data.SnapshotData,
            "Read the page: its text and its interactive elements, each with a CSS selector "
            "that matches exactly that element and its state (value, checked, selected, "
            "expanded, disabled, covered, ...), including those in iframes and shadow roots. On "
            "a big page both follow the viewport: scroll, or pass a selector, to read more. "
            "Take one before clicking or typing, and again after the page changes.",
        ),
        ActionSpec(
            "browser.click",
            ClickParameters,
            data.ClickData,
            "Click one element where a person would, by selector from the latest snapshot or "
            "by its visible text (the element whose own text matches, exactly before partly), "
            "then wait for the page to settle. Refuses, clicking nothing, when the selector or "
            "text matches more than one element, when the element is disabled, hidden or "
            "covered (naming what covers it), or when the page changed so that the selector "
            "names another element than the snapshot listed. Returns the url and title, the "
            "element's state after the click and any dialog it caused.",
        ),
        ActionSpec(
            "browser.type",
            TypeParameters,
            data.TypeData,
            "Fill a text field, an editable box or a range (by selector from the latest "
            "snapshot) with value, replacing its content, or choose a select's option by its "
            "label (several, comma-separated, for a multiple select); submit presses Enter "
            "afterwards and waits for the page to settle. Returns the field's value.",
        ),
        ActionSpec(
            "browser.scroll",
            ScrollParameters,
            data.ScrollData,
            "Scroll the page up or down by one screen, to the top or bottom, or bring an "
            "element into view, then wait for what the page loads as it scrolls. Returns the "
            "new scroll position.",
        ),
        ActionSpec(
            "browser.back",
            BackParameters,
            data.NavigationData,
            "Go back one page in history. Returns the url and title now shown.",
        ),
        ActionSpec(
            "browser.forward",
            ForwardParameters,
            data.NavigationData,
            "Go forward one page in history. Returns the url and title now shown.",
        ),
        ActionSpec(
            "browser.inspect",
            InspectParameters,
            data.InspectData,
            "Describe one element: tag, role, label, state, position and size, whether it is "
            "in view, and its computed styles.",
        ),
        ActionSpec(
            "browser.capture",
            CaptureParameters,
            data.CaptureData,
            "Take a PNG screenshot of the viewport. When the project directory is known the "
            "image is saved under .browserhost/captures/ and its path returned.",
        ),
        ActionSpec(
            "browser.resize",
            ResizeParameters,
            data.ResizeData,
            "Change the viewport to mobile, tablet, desktop or fill.",
        ),
    )
}


@dataclass(frozen=True)
class ActionCall:
    """A validated action: the only form in which an action reaches a provider."""

    spec: ActionSpec
    parameters: Parameters

    @property
    def name(self) -> ActionName:
        return self.spec.name


def normalize(action: object, parameters: object = None) -> ActionCall:
    """Validate an agent's action; raise :class:`InvalidActionError` with a message to act on."""
    spec = ACTIONS.get(action) if isinstance(action, str) else None
    if spec is None:
        raise InvalidActionError(
            "Unknown browser action; use one of " + ", ".join(ACTIONS) + ", or verb.<name> for "
            "a verb the provider offers. Nothing was sent."
        )
    try:
        return ActionCall(spec, spec.parameters.model_validate(parameters))
    except ValidationError as exc:
        raise InvalidActionError(_first_message(exc)) from None


def _first_message(exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    if error["type"] == "invalid_action":
        return error["msg"]
    where = ".".join(str(part) for part in error["loc"]) or "parameters"
    return f"{where}: {error['msg']}. Nothing was sent."
