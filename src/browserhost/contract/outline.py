"""The ten actions in outline: their names, what they do, what they take and how long they run.

Plain data, no pydantic: the command line builds its verbs from it and sends an action without
building a model (the host validates it). The parameter models in :mod:`.actions` take their
descriptions from here and hold the rules; a test holds both to the same parameters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .limits import (
    ACTION_TIMEOUT_S,
    OPEN_TIMEOUT_S,
    SNAPSHOT_ELEMENTS_MAX,
    SNAPSHOT_FULL_ELEMENTS_MAX,
    SNAPSHOT_FULL_TEXT_MAX,
    SNAPSHOT_TEXT_MAX,
)

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

VIEWPORT_CHOICES = ("mobile", "tablet", "desktop", "fill")
SCROLL_CHOICES = ("up", "down", "top", "bottom")

_SELECTOR_HELP = (
    "CSS selector of one element, as listed by the latest browser.snapshot. ' >> ' steps into "
    "an iframe or an open shadow root: the part before names the iframe or the shadow host, the "
    "part after is matched inside it (iframe#pay >> #card, todo-app >> button.add)."
)


@dataclass(frozen=True)
class ParameterOutline:
    """One parameter, named as in Python and on the wire."""

    name: str
    description: str
    required: bool = False
    flag: bool = False
    """True or false; absent is false."""
    choices: tuple[str, ...] = ()
    """The only values it takes; none means any text."""


@dataclass(frozen=True)
class ActionOutline:
    name: ActionName
    description: str
    parameters: tuple[ParameterOutline, ...] = ()
    timeout_s: float = ACTION_TIMEOUT_S
    """How long the host waits for the answer, unless the caller says otherwise."""

    @property
    def verb(self) -> str:
        """The short name: ``open`` for ``browser.open``; the CLI verb and client method."""
        return self.name.removeprefix("browser.")

    def about(self, parameter: str) -> str:
        """The description of one of its parameters."""
        return next(each.description for each in self.parameters if each.name == parameter)


OUTLINES: dict[str, ActionOutline] = {
    outline.name: outline
    for outline in (
        ActionOutline(
            "browser.open",
            "Load a URL in the browser and wait (bounded) until it has loaded and stopped "
            "changing. Returns url, title, settled (false if it was still loading or changing "
            "when the wait ended) and viewport.",
            (
                ParameterOutline(
                    "url",
                    "Absolute http(s) URL to load, e.g. https://example.com/, or about:blank "
                    "for an empty page.",
                    required=True,
                ),
                ParameterOutline(
                    "viewport",
                    "Viewport to use: mobile, tablet, desktop, or fill. Omit to keep it.",
                    choices=VIEWPORT_CHOICES,
                ),
            ),
            timeout_s=OPEN_TIMEOUT_S,
        ),
        ActionOutline(
            "browser.snapshot",
            "Read the page: its text and its interactive elements, each with a CSS selector "
            "that matches exactly that element and its state (value, checked, selected, "
            "expanded, disabled, covered, ...), including those in iframes and shadow roots. On "
            "a big page both follow the viewport: scroll, or pass a selector, to read more. "
            "Take one before clicking or typing, and again after the page changes.",
            (
                ParameterOutline(
                    "selector",
                    "Selector (as for browser.click) to read one part of the page only: a "
                    "section, a list, an iframe, a dialog.",
                ),
                ParameterOutline(
                    "full",
                    f"Everything at once: the text and elements of the whole page (or of the "
                    f"selector's part), up to {SNAPSHOT_FULL_TEXT_MAX:,} characters and "
                    f"{SNAPSHOT_FULL_ELEMENTS_MAX:,} elements instead of the "
                    f"{SNAPSHOT_TEXT_MAX:,} and {SNAPSHOT_ELEMENTS_MAX} around the viewport. A "
                    "far bigger answer: ask only when you need it all.",
                    flag=True,
                ),
            ),
        ),
        ActionOutline(
            "browser.click",
            "Click one element where a person would, by selector from the latest snapshot or "
            "by its visible text (the element whose own text matches, exactly before partly), "
            "then wait for the page to settle. Refuses, clicking nothing, when the selector or "
            "text matches more than one element, when the element is disabled, hidden or "
            "covered (naming what covers it), or when the page changed so that the selector "
            "names another element than the snapshot listed. Returns the url and title, the "
            "element's state after the click and any dialog it caused.",
            (
                ParameterOutline("selector", _SELECTOR_HELP),
                ParameterOutline(
                    "text",
                    "Visible label or accessible name of the element to click. Given with a "
                    "selector, the element the selector names must show it, or nothing is "
                    "clicked.",
                ),
            ),
        ),
        ActionOutline(
            "browser.type",
            "Fill a text field, an editable box or a range (by selector from the latest "
            "snapshot) with value, replacing its content, or choose a select's option by its "
            "label (several, comma-separated, for a multiple select); submit presses Enter "
            "afterwards and waits for the page to settle. Returns the field's value.",
            (
                ParameterOutline("selector", _SELECTOR_HELP, required=True),
                ParameterOutline(
                    "value", "Text to put in the field; it replaces what is there.", required=True
                ),
                ParameterOutline("submit", "Press Enter after typing.", flag=True),
            ),
        ),
        ActionOutline(
            "browser.scroll",
            "Scroll the page up or down by one screen, to the top or bottom, or bring an "
            "element into view, or scroll a box of its own (a list, a text area) that way, then "
            "wait for what the page loads as it scrolls. Returns the new scroll position.",
            (
                ParameterOutline(
                    "direction",
                    "up or down by one screen, or to the top or bottom of the page (of the "
                    "element selector names, given both).",
                    choices=SCROLL_CHOICES,
                ),
                ParameterOutline(
                    "selector", "Scroll this element into view; given direction too, scroll it."
                ),
            ),
        ),
        ActionOutline(
            "browser.back",
            "Go back one page in history. Returns the url and title now shown.",
        ),
        ActionOutline(
            "browser.forward",
            "Go forward one page in history. Returns the url and title now shown.",
        ),
        ActionOutline(
            "browser.inspect",
            "Describe one element: tag, role, label, state, position and size, whether it is "
            "in view, and its computed styles.",
            (ParameterOutline("selector", _SELECTOR_HELP, required=True),),
        ),
        ActionOutline(
            "browser.capture",
            "Take a PNG screenshot of the viewport. When the project directory is known the "
            "image is saved under .browserhost/captures/ and its path returned.",
            (ParameterOutline("label", "Short name for the image file, e.g. login-form."),),
        ),
        ActionOutline(
            "browser.resize",
            "Change the viewport to mobile, tablet, desktop or fill.",
            (
                ParameterOutline(
                    "viewport",
                    "mobile (390x844), tablet (820x1180), desktop (1280x800), or fill (the "
                    "window).",
                    required=True,
                    choices=VIEWPORT_CHOICES,
                ),
            ),
        ),
    )
}
