"""What a provider answers in ``data`` for each action.

The host hands ``data`` to the agent as the provider produced it; these models document the
shapes every built-in provider answers and give Python callers typed results. Optional fields
are present only where they apply. Unknown fields are kept, so a provider may add its own.
"""

from typing import Any, Literal, Self

from pydantic import ConfigDict, Field, model_serializer

from .base import WireModel
from .limits import DOWNLOADS_LISTED_MAX, SNAPSHOT_TEXT_MAX

ViewportMode = Literal["mobile", "tablet", "desktop", "fill"]


class Data(WireModel):
    model_config = ConfigDict(extra="allow")


class CheckedData(dict[str, Any]):
    """``data`` that fits its action's model already: the provider SDK dumped it, in the host's
    own process, from an instance of that very model, so the host does not read it into the
    model a second time. JSON never decodes to one: an answer that crossed a process boundary
    is always checked."""


class Viewport(Data):
    """The page's viewport. ``fill`` follows the window and has no fixed size."""

    mode: Literal[ViewportMode, "custom"]
    width: int | None = Field(description="CSS pixels; null for fill.")
    height: int | None = Field(description="CSS pixels; null for fill.")

    @classmethod
    def of(cls, mode: ViewportMode) -> Self:
        """The viewport ``mode`` names: its size from :data:`VIEWPORT_SIZES`, none for fill."""
        width, height = VIEWPORT_SIZES.get(mode, (None, None))
        return cls(mode=mode, width=width, height=height)

    @model_serializer(mode="plain")
    def _always_sized(self) -> dict[str, object]:
        # null sizes carry meaning ("fill"), so they survive exclude_none.
        return {"mode": self.mode, "width": self.width, "height": self.height}


VIEWPORT_SIZES: dict[str, tuple[int, int]] = {
    "mobile": (390, 844),
    "tablet": (820, 1180),
    "desktop": (1280, 800),
}


class Bounds(Data):
    x: float
    y: float
    width: float
    height: float


Tristate = bool | Literal["mixed"]


class ElementState(Data):
    """What a person sees of a control's state. Each field is present only where it applies:
    ``checked`` on checkboxes, radios and switches (true or false), ``value`` on fields,
    selects, comboboxes, sliders and spinbuttons, ``selected``/``expanded``/``pressed`` where
    the page declares them; the flags ``required``, ``invalid``, ``readonly``, ``focused`` and
    ``disabled`` only when true. A password field's value is never reported. A snapshot of
    the page cuts a long value (then ``valueTotalChars`` says its length); ``browser.inspect``
    and a snapshot scoped to the element give it whole, up to ``SNAPSHOT_TEXT_MAX`` characters.
    """

    value: str | None = Field(
        None,
        description="The current value: text typed, the chosen option(s), the number. A value "
        "cut short ends in …",
    )
    value_total_chars: int | None = Field(
        None,
        ge=1,
        description="Present only when value was cut short: how many characters it has in "
        "all. browser.inspect, or a snapshot scoped to the element, gives it whole (up to "
        f"{SNAPSHOT_TEXT_MAX:,} characters).",
    )
    options: list[str] | None = Field(
        None, description="A select's option labels (the first 25), for browser.type."
    )
    options_total: int | None = Field(
        None,
        ge=1,
        description="Present only when options lists the first 25 of more: how many the "
        "select has. browser.type chooses any of them by its label or value.",
    )
    checked: Tristate | None = None
    multiple: bool | None = Field(
        None, description="A select, or a list (aria-multiselectable), that takes several options."
    )
    selected: bool | None = None
    highlighted: bool | None = Field(
        None,
        description="The option the keys are on in the list a focused field or list drives "
        "(its aria-activedescendant): Enter would choose it; in a field's list nothing is "
        "chosen yet, in a list that holds the focus itself selected says what is.",
    )
    expanded: bool | None = None
    pressed: Tristate | None = None
    current: str | None = Field(
        None, description='aria-current: "page", "step", "true", ... (the current item).'
    )
    sort: Literal["ascending", "descending"] | None = Field(
        None, description="How a table column is sorted (aria-sort)."
    )
    required: bool | None = None
    invalid: bool | None = None
    readonly: bool | None = None
    focused: bool | None = None
    disabled: bool | None = None
    marked: str | None = Field(
        None,
        description="Where no state above says so: the word of a class the page marks it "
        'with as on or picked ("active", "selected", "clicked": a toggle, a chosen card, the '
        'current tab shown only by its look); listed as "marked active". A day of a date '
        "grid from the month before or after, told apart by a class alone, is "
        '"other month".',
    )


LABEL_GUESSED = (
    "The page names the element nowhere: label is a guess, not its name (the text written "
    "just before a field, a row's header; an icon's class or picture: fa-star is \"star\"; a "
    'swatch\'s colour); listed as "(guessed label)".'
)


class Element(ElementState):
    """An interactive element. ``selector`` matches exactly this element when snapshotted.

    A checkbox or radio that the page hides behind a styled label is listed with the label's
    bounds: clicking its selector clicks the label, which is what a person would do.
    """

    selector: str
    tag: str
    bounds: Bounds
    in_viewport: bool | None = None
    type: str | None = None
    role: str | None = None
    label: str | None = None
    missing_accessible_name: bool | None = None
    label_guessed: bool | None = Field(None, description=LABEL_GUESSED)
    group: str | None = Field(
        None,
        description="The named group a radio, checkbox or switch answers (its fieldset's "
        'legend, its radio group\'s name): "Shipping speed"; listed as in "Shipping speed".',
    )
    covered: bool | None = Field(
        None,
        description="Something else (a dialog, an overlay) is drawn over its centre: a "
        "click would be refused until that is closed.",
    )


class ConsoleProblem(Data):
    level: Literal["error", "warning"]
    text: str
    source: str | None = Field(
        None, description="Where it came from: the failing resource, or script URL:line."
    )


class Dialog(Data):
    """An alert, confirm or prompt the page showed during an action, and how it was answered:
    ``open`` when it was left for the agent to answer (the provider's ``dialog`` verb)."""

    type: Literal["alert", "confirm", "prompt", "beforeunload"]
    message: str
    answer: Literal["dismissed", "accepted", "open"]
    text: str | None = Field(
        None, description="What an accepted prompt was answered with (its default, unless planned)."
    )


class Download(Data):
    """A file the page downloaded during the action: where it was saved, or why it was not."""

    filename: str = Field(description="The file's name: the site's, made safe.")
    path: str | None = Field(None, description="Where it was saved; absent when it was not.")
    error: str | None = Field(
        None, description="Why it was not saved: too large, failed, or still downloading."
    )


def _downloads() -> Any:
    return Field(
        None,
        max_length=DOWNLOADS_LISTED_MAX,
        description="Files the page downloaded during the action (the project's "
        ".browserhost/downloads/ holds them).",
    )


_DIALOGS_HELP = (
    "Dialogs the page showed during the action, and how each was answered; one still open "
    "holds the page until the agent answers it."
)


class OpenData(Data):
    url: str
    title: str
    opened: Literal[True] = True
    settled: bool = Field(
        description="False when the page had not finished loading and changing in time; not an "
        "error, but take a snapshot to see what is there."
    )
    viewport: Viewport
    dialogs: list[Dialog] | None = Field(None, description=_DIALOGS_HELP)
    notice: str | None = Field(
        None,
        description="Something the agent should know beyond the load, e.g. that the session's "
        "earlier pages and cookies are gone because its browser was restarted.",
    )


def _when_truncated(count: str) -> Any:
    """A count a snapshot that did not fit gives; absent when everything fit."""
    return Field(None, description=f"When truncated: {count}")


class SnapshotData(Data):
    url: str
    title: str
    scope: str = Field(description='"page", or the selector the snapshot was scoped to.')
    scroll_y: int
    max_scroll_y: int
    text: str
    elements: list[Element]
    viewport: Viewport
    console_problems: list[ConsoleProblem] = Field(default_factory=list)
    text_truncated: bool | None = Field(
        None, description="The page has more text than fits: text is the part around the viewport."
    )
    text_total_chars: int | None = None
    text_above_chars: int | None = _when_truncated("characters of page text before the part shown.")
    text_below_chars: int | None = _when_truncated("characters of page text after the part shown.")
    elements_truncated: bool | None = Field(
        None, description="More elements than fit: those in and nearest the viewport are listed."
    )
    interactive_elements_on_page: int | None = None
    elements_above: int | None = _when_truncated("elements left out above the viewport.")
    elements_below: int | None = _when_truncated("elements left out below the viewport.")
    notice: str | None = Field(
        None,
        description="Something the agent should know about this reading, e.g. that the "
        "page looks empty because it is still loading.",
    )


class AfterInput(ElementState):
    """An element's state after a person's input to it (absent when it went away), and the
    page then shown: the page after a click or a submit may be a new one."""

    url: str
    title: str | None = Field(None, description="The title of the page now shown.")
    dialogs: list[Dialog] | None = Field(None, description=_DIALOGS_HELP)
    downloads: list[Download] | None = _downloads()
    notice: str | None = Field(
        None,
        description="What the input did not do that it may seem to have done, e.g. that the "
        "form was not sent because the browser's own check refused one of its fields.",
    )


class ClickData(AfterInput):
    """The click, and the page after it. A click by text that named part of an element's text
    (one word of "Reply Forward") pressed that text: ``clicked`` is the element the press
    landed on and ``label`` the text."""

    clicked: str
    label: str
    now_reads: str | None = Field(
        None,
        description="The clicked element's label after the click, where the click changed it "
        "(a toggle: Like, then Liked; AM, then PM).",
    )


class TypeData(AfterInput):
    """The field typed into, its state after typing, and the page (after a submit, the new
    one)."""

    selector: str


class ScrollData(Data):
    scroll_y: int
    max_scroll_y: int
    at_top: bool
    at_bottom: bool
    scrolled_to: str | None = None
    direction: str | None = None
    box: str | None = Field(
        None,
        description="Where the page itself does not scroll: the box that was scrolled (an "
        "app's main panel, a list), by its selector; scrollY is that box's.",
    )


class NavigationData(Data):
    url: str
    title: str
    dialogs: list[Dialog] | None = Field(None, description=_DIALOGS_HELP)


class InspectData(ElementState):
    selector: str
    tag: str
    label: str
    label_guessed: bool | None = Field(None, description=LABEL_GUESSED)
    bounds: Bounds
    in_viewport: bool
    styles: dict[str, str]
    type: str | None = None
    role: str | None = None


class CaptureData(Data):
    base64: str
    mime: str
    width: int
    height: int
    url: str
    title: str
    viewport: Viewport
    path: str | None = Field(None, description="Where the host saved the image, when it did.")


class ResizeData(Data):
    viewport: Viewport
