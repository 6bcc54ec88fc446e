"""The stub's fake site, and one session's tab on it.

The site's pages link to each other, so open, click, type, back and forward change what the
next snapshot shows; a :class:`Tab` is one context key's page and history on it, which both the
agent's actions and a person's pointer on the picture act on. Nothing is random: the same
actions give the same answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

from browserhost.contract import Context, data
from browserhost.contract.data import ViewportMode
from browserhost.sdk import ActionError

LINE_HEIGHT = 24
"""A line of page text, in pixels: the long page's height and the picture's text rows."""


@dataclass(frozen=True)
class StubElement:
    """One link, button or field of a stub page, found by its ``selector``."""

    selector: str
    tag: str
    label: str
    href: str | None = None
    type: str | None = None
    reveals: str | None = None  # text a button adds to the page when clicked
    closes: bool = False  # a button whose page closes itself when clicked (window.close())

    def bounds(self, index: int) -> data.Bounds:
        return data.Bounds(x=16, y=80 + index * 40, width=200, height=32)


def is_text_field(element: StubElement) -> bool:
    return element.tag == "input" and element.type != "checkbox"


@dataclass(frozen=True)
class StubPage:
    title: str
    text: str
    elements: tuple[StubElement, ...] = ()
    height: int = 800


def site(url: str) -> StubPage:
    parts = urlsplit(url)
    nav = (
        StubElement("#home", "a", "Home", href="/"),
        StubElement("#about", "a", "About", href="/about"),
        StubElement("#form", "a", "Search form", href="/form"),
        StubElement("#long", "a", "Long page", href="/long"),
    )
    if parts.path in ("", "/"):
        more = StubElement("#more", "button", "Show more", reveals="Here is more.")
        return StubPage("Stub home", "Welcome to the stub site.", (*nav, more))
    if parts.path == "/about":
        return StubPage("About the stub", "The stub provider answers without a browser.", nav)
    if parts.path == "/form":
        query = StubElement("#q", "input", "Query", type="text")
        exact = StubElement("#exact", "input", "Exact words only", type="checkbox")
        go = StubElement("#go", "button", "Search", type="submit")
        return StubPage("Search", "Type a query and submit.", (*nav, query, exact, go))
    if parts.path == "/search":
        searched = parse_qs(parts.query).get("q", [""])[0]
        return StubPage("Results", f"Results for {searched}", nav)
    if parts.path == "/closing":
        close = StubElement("#close", "button", "Close this page", closes=True)
        return StubPage("Closing page", "This page closes itself when asked.", (*nav, close))
    if parts.path == "/long":
        lines = "\n".join(f"Line {number}" for number in range(1, 201))
        return StubPage("Long page", lines, nav, height=200 * LINE_HEIGHT)
    return StubPage(f"Stub page {parts.path}", f"This is {url} as the stub shows it.", nav)


@dataclass
class Tab:
    """One context key's page: history, scroll position, typed values, revealed text, and
    the field keys go to (a page's first text field has focus when it opens)."""

    id: str = "tab"
    context: Context | None = None
    history: list[str] = field(default_factory=lambda: ["about:blank"])
    position: int = 0
    viewport: ViewportMode = "desktop"
    scroll_y: int = 0
    values: dict[str, str] = field(default_factory=dict)
    checked: set[str] = field(default_factory=set)
    revealed: list[str] = field(default_factory=list)
    focus: str | None = None
    pointer: tuple[float, float] | None = None
    """Where the agent's pointer verbs left the mouse, in viewport pixels."""
    pressed: StubElement | None = None
    """What the agent's ``mouse down`` pressed, until its ``mouse up``."""
    cookies: list[dict[str, Any]] = field(default_factory=list)
    """The session's cookies (:mod:`.stub_cookies`)."""
    last_used: float = 0.0
    closed_by: str | None = None
    """Who closed the page, once it is closed: ``page`` (its own button) or ``provider``."""
    on_close: list[Callable[[str], None]] = field(default_factory=list)
    """Told who closed the page, once."""

    @property
    def url(self) -> str:
        return self.history[self.position]

    @property
    def page(self) -> StubPage:
        return StubPage("", "") if self.url == "about:blank" else site(self.url)

    def go(self, url: str) -> None:
        del self.history[self.position + 1 :]
        self.history.append(url)
        self.position += 1
        self._reset()

    def move(self, step: int) -> None:
        self.position += step
        self._reset()

    def _reset(self) -> None:
        self.scroll_y = 0
        self.pointer = self.pressed = None
        self.values.clear()
        self.checked.clear()
        self.revealed.clear()
        self.focus = next((e.selector for e in self.page.elements if is_text_field(e)), None)

    def activate(self, element: StubElement) -> None:
        """What a click on ``element`` does, from the agent or from a person's pointer."""
        if element.href is not None:
            self.go(urljoin(self.url, element.href))
        elif element.reveals is not None:
            self.revealed.append(element.reveals)
        elif element.closes:
            self.close("page")
        elif element.type == "submit":
            self.submit(self.values.get("#q", ""))
        elif element.type == "checkbox":
            self.checked ^= {element.selector}

    def close(self, by: str) -> None:
        """Close the page (``by`` the page or the provider) and tell whoever waits for it."""
        if self.closed_by is not None:
            return
        self.closed_by = by
        told, self.on_close = self.on_close, []
        for tell in told:
            tell(by)

    def click(self, element: StubElement) -> None:
        """A click on ``element`` by a pointer: a text field takes focus, the rest act."""
        if is_text_field(element):
            self.focus = element.selector
        else:
            self.activate(element)

    def submit(self, query: str) -> None:
        self.go(urljoin(self.url, "/search?q=" + query))

    def state(self, element: StubElement) -> dict[str, Any]:
        """What the page shows of ``element``'s state: a field's value, a box's checked."""
        if element.type == "checkbox":
            return {"checked": element.selector in self.checked}
        if element.tag == "input":
            return {"value": self.values.get(element.selector, "")}
        return {}

    def size(self) -> tuple[int, int]:
        return data.VIEWPORT_SIZES.get(self.viewport, data.VIEWPORT_SIZES["desktop"])

    def viewport_data(self) -> data.Viewport:
        return data.Viewport.of(self.viewport)

    def max_scroll(self) -> int:
        return max(0, self.page.height - self.size()[1])

    def find(self, selector: str) -> tuple[int, StubElement]:
        for index, element in enumerate(self.page.elements):
            if element.selector == selector:
                return index, element
        raise ActionError(f"No element matches {selector}; take a new snapshot.")

    def labelled(self, text: str, doing: str = "click") -> StubElement:
        """The one element labelled ``text``, for an agent ``doing`` something to it."""
        matches = [e for e in self.page.elements if e.label == text]
        if not matches:
            raise ActionError(f"No element is labelled {text!r}; take a new snapshot.")
        if len(matches) > 1:
            listed = ", ".join(e.selector for e in matches)
            raise ActionError(
                f"{len(matches)} elements are labelled {text!r} ({listed}); {doing} one by "
                "selector."
            )
        return matches[0]

    def element_at(self, x: float, y: float) -> StubElement | None:
        """The element drawn at viewport point (``x``, ``y``)."""
        page_y = y + self.scroll_y
        for index, element in enumerate(self.page.elements):
            bounds = element.bounds(index)
            if bounds.x <= x < bounds.x + bounds.width and bounds.y <= page_y < bounds.y + (
                bounds.height
            ):
                return element
        return None

    def under(self, x: float, y: float) -> dict[str, Any] | None:
        """What the pointer verbs say is under a viewport point: the element, else the page;
        nothing outside the viewport."""
        width, height = self.size()
        if not (0 <= x < width and 0 <= y < height):
            return None
        element = self.element_at(x, y)
        if element is None:
            return {"selector": "body", "tag": "body"}
        return {"selector": element.selector, "tag": element.tag, "label": element.label}

    def centre(self, element: StubElement) -> tuple[float, float]:
        """Where a pointer goes over ``element``, in viewport pixels: its centre, scrolled
        into view first when it is not in view."""
        index = self.page.elements.index(element)
        bounds = element.bounds(index)
        x, y = bounds.x + bounds.width / 2, bounds.y + bounds.height / 2
        if not self.scroll_y <= y < self.scroll_y + self.size()[1]:
            self.scroll_y = min(max(int(bounds.y), 0), self.max_scroll())
        return x, y - self.scroll_y

    def pointed(
        self, start: tuple[float, float], before: dict[str, Any] | None, end: tuple[float, float]
    ) -> dict[str, Any]:
        """A pointer verb's answer once the pointer is at ``end``: where it started (and what
        was ``before`` it there) and ended, what is under it now, the page."""
        self.pointer = end
        return {
            "start": {"x": start[0], "y": start[1], "under": before},
            "end": {"x": end[0], "y": end[1], "under": self.under(*end)},
            "url": self.url,
            "title": self.page.title,
        }
