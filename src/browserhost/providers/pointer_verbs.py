"""The pointer verbs' arguments: ``hover``, ``drag``, ``select_text`` and ``mouse``.

One declaration for every built-in provider that offers them (chromium, the stub, and the
extension, whose JavaScript declares the same schemas), so an agent's call means the same
thing whichever browser answers. Each verb answers where the pointer was at its ``start`` and
``end``, and what was under it there (:class:`Under`), so the agent can tell that the pointer
went where it meant.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from browserhost.sdk import VerbArguments

SELECT_TEXT_MAX = 1_000
"""The longest text ``select_text`` looks for."""

COORDINATE_MAX = 100_000.0
"""A bound on coordinates and offsets, in CSS pixels: far past any viewport."""

HOVER_HELP = (
    "Move the mouse over an element, named by selector or by its visible text (as a click "
    "by text finds it): menus and tooltips that open on hover. Answers what was under the "
    "pointer before (start) and after (end)."
)
MOUSE_HELP = (
    "Use the mouse at a point of the viewport, or on an element (selector, or its visible "
    "text) where a click on it would land: move, click (clickCount 2 for a double click, "
    "button right for a context menu), down and up (press and release apart, with moves "
    "between, to draw or drag by hand), or wheel (deltaX, deltaY: scroll what is under "
    "the point), holding modifiers (Shift, Control, Alt, Meta) meanwhile. x and y are CSS "
    "pixels from the viewport's top left corner, the pixels of a browser.capture (taken at "
    "scale 1 of the viewport). Answers what was under the pointer before (start) and after "
    "(end), and the element named, if one was."
)


class HoverArguments(VerbArguments):
    selector: str | None = Field(
        None, min_length=1, description="The element, as listed by a snapshot."
    )
    text: str | None = Field(
        None, min_length=1, description="Or its visible text (as a click by text finds it)."
    )

    @model_validator(mode="after")
    def _one_target(self) -> HoverArguments:
        if (self.selector is None) == (self.text is None):
            raise ValueError("give selector or text (one of them)")
        return self


class DragArguments(VerbArguments):
    selector: str | None = Field(
        None, min_length=1, description="The element to drag, as listed by a snapshot."
    )
    text: str | None = Field(None, min_length=1, description="Or its visible text.")
    to_selector: str | None = Field(
        None, min_length=1, description="Drop it on this element, as listed by a snapshot."
    )
    to_text: str | None = Field(
        None,
        min_length=1,
        description="Or on the element with this visible text: the item it labels in a list "
        "or grid (a tile or card whose name is a small label in it, a row), dropped on at its "
        "middle.",
    )
    offset_x: float | None = Field(
        None,
        ge=-COORDINATE_MAX,
        le=COORDINATE_MAX,
        description="Or move it this many CSS pixels right (negative: left) of where it starts.",
    )
    offset_y: float | None = Field(
        None,
        ge=-COORDINATE_MAX,
        le=COORDINATE_MAX,
        description="And/or this many CSS pixels down (negative: up).",
    )
    at: Literal["center", "before", "after"] = Field(
        "center",
        description="Where on the element to drop it: its middle, or a fifth of its height "
        "in from its top (before) or bottom (after), of its width from its left or right where "
        "the drag goes more across than down: where a sortable list puts an item before or "
        "after the one it is dropped on. On a list itself (a board's column): at its start "
        "or end.",
    )

    @model_validator(mode="after")
    def _one_source_one_destination(self) -> DragArguments:
        if (self.selector is None) == (self.text is None):
            raise ValueError("give selector or text (one of them) for what to drag")
        offset = self.offset_x is not None or self.offset_y is not None
        destinations = (self.to_selector is not None) + (self.to_text is not None) + offset
        if destinations != 1:
            raise ValueError(
                "give one destination: toSelector, toText, or an offset (offsetX, offsetY)"
            )
        if offset and self.at != "center":
            raise ValueError("at places the drop on an element: give toSelector or toText")
        return self


class SelectTextArguments(VerbArguments):
    text: str = Field(
        min_length=1,
        max_length=SELECT_TEXT_MAX,
        description="The text to select, as the page shows it (its first occurrence).",
    )
    selector: str | None = Field(
        None, min_length=1, description="Look only inside this element (default: the page)."
    )


MOUSE_DONE = {
    "move": "moved",
    "click": "clicked",
    "down": "pressed",
    "up": "released",
    "wheel": "scrolled",
}
"""What a refusal of ``mouse`` says was not done, by its action: a move refused is no click."""

MODIFIER_KEYS = ("Alt", "Control", "Meta", "Shift")
"""The keys a mouse verb may hold down while it acts (``modifiers``)."""


class MouseArguments(VerbArguments):
    action: Literal["move", "click", "down", "up", "wheel"] = Field(
        description="move the pointer, click, press or release a button, or turn the wheel. "
        "Given no place (x and y, selector or text), all but move act where the pointer is."
    )
    x: float | None = Field(
        None, ge=0, le=COORDINATE_MAX, description="CSS pixels from the viewport's left edge."
    )
    y: float | None = Field(
        None, ge=0, le=COORDINATE_MAX, description="CSS pixels from its top edge."
    )
    selector: str | None = Field(
        None,
        min_length=1,
        description="Or the element, as listed by a snapshot: the mouse goes where a click on "
        "it would (a double or right click, a wheel over a list).",
    )
    text: str | None = Field(
        None, min_length=1, description="Or the element's visible text (as a click by text)."
    )
    button: Literal["left", "right", "middle"] = "left"
    click_count: int = Field(1, ge=1, le=3, description="2 for a double click.")
    modifiers: list[Literal["Alt", "Control", "Meta", "Shift"]] = Field(
        default_factory=list,
        max_length=len(MODIFIER_KEYS),
        description="Keys held down while the mouse acts: Shift to extend a selection, "
        "Control (Meta on macOS) to open a link in a new tab.",
    )
    delta_x: float = Field(
        0, ge=-COORDINATE_MAX, le=COORDINATE_MAX, description="wheel: pixels to scroll right."
    )
    delta_y: float = Field(
        0, ge=-COORDINATE_MAX, le=COORDINATE_MAX, description="wheel: pixels to scroll down."
    )

    @model_validator(mode="after")
    def _one_place(self) -> MouseArguments:
        point = (self.x is not None) + (self.y is not None)
        if point == 1:
            raise ValueError("give both x and y for a point of the viewport")
        places = (point == 2) + (self.selector is not None) + (self.text is not None)
        if places > 1:
            raise ValueError("give one place: x and y, selector, or text")
        if places == 0 and self.action == "move":
            raise ValueError("move needs a place: x and y, selector, or text")
        if len(set(self.modifiers)) != len(self.modifiers):
            raise ValueError("give each of modifiers once")
        return self

    @property
    def point(self) -> tuple[float, float] | None:
        """The viewport point given, if the mouse is not aimed at an element."""
        return None if self.x is None or self.y is None else (self.x, self.y)
