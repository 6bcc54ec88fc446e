"""What a provider answers in ``data`` for each action.

The host hands ``data`` to the agent as the provider produced it; these models document the
shapes every built-in provider answers and give Python callers typed results. Optional fields
are present only where they apply. Unknown fields are kept, so a provider may add its own.
"""

from collections.abc import Mapping
from typing import Any, Literal, Self

from pydantic import ConfigDict, Field, model_serializer

from .base import WireModel

ViewportMode = Literal["mobile", "tablet", "desktop", "fill"]


class Data(WireModel):
    model_config = ConfigDict(extra="allow")


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


class Element(Data):
    """An interactive element. ``selector`` matches exactly this element when snapshotted."""

    selector: str
    tag: str
    bounds: Bounds
    in_viewport: bool | None = None
    type: str | None = None
    role: str | None = None
    label: str | None = None
    disabled: bool | None = None
    missing_accessible_name: bool | None = None


def element_kind(element: Mapping[str, Any]) -> str:
    """How a one-line listing names a wire ``Element``: its role, else its tag, with its
    type when it has one (``button[submit]``). The CLI and the MCP text both read it so."""
    kind = element.get("role") or element.get("tag")
    return f"{kind}[{element['type']}]" if element.get("type") else str(kind)


def element_notes(element: Mapping[str, Any]) -> list[str]:
    """What a one-line listing adds about a wire ``Element``: off-screen, disabled."""
    notes = []
    if element.get("inViewport") is False:
        notes.append("off-screen")
    if element.get("disabled") is True:
        notes.append("disabled")
    return notes


class ConsoleProblem(Data):
    level: Literal["error", "warning"]
    text: str
    source: str | None = Field(
        None, description="Where it came from: the failing resource, or script URL:line."
    )


class OpenData(Data):
    url: str
    title: str
    opened: Literal[True] = True
    settled: bool = Field(description="False when loading had not finished in time; not an error.")
    viewport: Viewport


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
    text_truncated: bool | None = None
    text_total_chars: int | None = None
    elements_truncated: bool | None = None
    interactive_elements_on_page: int | None = None


class ClickData(Data):
    clicked: str
    label: str
    url: str


class TypeData(Data):
    selector: str
    url: str


class ScrollData(Data):
    scroll_y: int
    max_scroll_y: int
    at_top: bool
    at_bottom: bool
    scrolled_to: str | None = None
    direction: str | None = None


class NavigationData(Data):
    url: str
    title: str


class InspectData(Data):
    selector: str
    tag: str
    label: str
    bounds: Bounds
    in_viewport: bool
    styles: dict[str, str]


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
