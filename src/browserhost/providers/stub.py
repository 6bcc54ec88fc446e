"""The stub provider: a browser with no browser, for demos, tests and provider authors.

It answers every action with the same ``data`` shapes as a real browser, from a small fake
site whose pages link to each other, so open, click, type, back and forward change what the
next snapshot shows. Every context key ``(directory, sessionId)`` gets its own page and
history, forgotten after :data:`SESSION_IDLE_S` unused (as a browser provider closes an idle
context, so a long-running host does not keep every session it ever saw). Nothing is random:
the same actions give the same answers.

Read this file first when writing a provider: it is the whole interface, with no browser in
the way.
"""

from __future__ import annotations

import base64
import struct
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

from pydantic import Field

from browserhost.contract import Context, data
from browserhost.contract import actions as params
from browserhost.contract.data import ViewportMode
from browserhost.sdk import ActionError, Provider, VerbArguments, verb

_LINE_HEIGHT = 24
SESSION_IDLE_S = 15 * 60.0
"""How long a context key's page lives unused; the next action after that starts fresh."""


@dataclass(frozen=True)
class StubElement:
    selector: str
    tag: str
    label: str
    href: str | None = None
    type: str | None = None
    reveals: str | None = None  # text a button adds to the page when clicked

    def bounds(self, index: int) -> data.Bounds:
        return data.Bounds(x=16, y=80 + index * 40, width=200, height=32)


@dataclass(frozen=True)
class StubPage:
    title: str
    text: str
    elements: tuple[StubElement, ...] = ()
    height: int = 800


def _site(url: str) -> StubPage:
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
    if parts.path == "/long":
        lines = "\n".join(f"Line {number}" for number in range(1, 201))
        return StubPage("Long page", lines, nav, height=200 * _LINE_HEIGHT)
    return StubPage(f"Stub page {parts.path}", f"This is {url} as the stub shows it.", nav)


@dataclass
class Tab:
    """One context key's page: history, scroll position, typed values, revealed text."""

    history: list[str] = field(default_factory=lambda: ["about:blank"])
    position: int = 0
    viewport: ViewportMode = "desktop"
    scroll_y: int = 0
    values: dict[str, str] = field(default_factory=dict)
    checked: set[str] = field(default_factory=set)
    revealed: list[str] = field(default_factory=list)
    last_used: float = 0.0

    @property
    def url(self) -> str:
        return self.history[self.position]

    @property
    def page(self) -> StubPage:
        return StubPage("", "") if self.url == "about:blank" else _site(self.url)

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
        self.values.clear()
        self.checked.clear()
        self.revealed.clear()

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


class PressKeyArguments(VerbArguments):
    key: str = Field(min_length=1, max_length=32, description="A key name: Enter, Escape, a.")


class StubProvider(Provider):
    id = "stub"
    name = "Stub (no browser)"

    @verb("Press one key on the page. Enter on the search form submits it.")
    async def press_key(self, arguments: PressKeyArguments, context: Context) -> dict[str, str]:
        """The smallest verb: a model for the arguments, a dict for the answer."""
        tab = self._tab(context)
        if arguments.key == "Enter" and urlsplit(tab.url).path == "/form":
            tab.go(urljoin(tab.url, "/search?q=" + tab.values.get("#q", "")))
        return {"key": arguments.key, "url": tab.url}

    def __init__(
        self, *, idle_s: float = SESSION_IDLE_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        """``idle_s``: how long a session's page is kept unused; ``clock`` measures it."""
        self.idle_s = idle_s
        self._clock = clock
        self._tabs: dict[tuple[str | None, str | None], Tab] = {}

    def _tab(self, context: Context) -> Tab:
        # Idle pages are dropped when an action arrives: no timer task for a provider that
        # holds nothing but a few dicts.
        now = self._clock()
        for key, idle in list(self._tabs.items()):
            if now - idle.last_used >= self.idle_s:
                del self._tabs[key]
        tab = self._tabs.setdefault(context.key, Tab())
        tab.last_used = now
        return tab

    async def open(self, parameters: params.OpenParameters, context: Context) -> data.OpenData:
        tab = self._tab(context)
        if parameters.viewport is not None:
            tab.viewport = parameters.viewport
        tab.go(parameters.url)
        return data.OpenData(
            url=tab.url, title=tab.page.title, settled=True, viewport=tab.viewport_data()
        )

    async def snapshot(
        self, parameters: params.SnapshotParameters, context: Context
    ) -> data.SnapshotData:
        tab = self._tab(context)
        shown = list(enumerate(tab.page.elements))
        scope = "page"
        if parameters.selector is not None:
            shown, scope = [tab.find(parameters.selector)], parameters.selector
        top, bottom = tab.scroll_y, tab.scroll_y + tab.size()[1]
        listed = []
        for index, element in shown:
            bounds = element.bounds(index)
            extra: dict[str, Any] = {"type": element.type} if element.type else {}
            listed.append(
                data.Element(
                    selector=element.selector,
                    tag=element.tag,
                    bounds=bounds,
                    in_viewport=top <= bounds.y < bottom,
                    label=element.label,
                    **extra,
                    **tab.state(element),
                )
            )
        text = (
            "\n".join([tab.page.text, *tab.revealed])
            if scope == "page"
            else "\n".join(element.label for _, element in shown)
        )
        return data.SnapshotData(
            url=tab.url,
            title=tab.page.title,
            scope=scope,
            scroll_y=tab.scroll_y,
            max_scroll_y=tab.max_scroll(),
            text=text,
            elements=listed,
            viewport=tab.viewport_data(),
        )

    async def click(self, parameters: params.ClickParameters, context: Context) -> data.ClickData:
        tab = self._tab(context)
        if parameters.selector is not None:
            _, element = tab.find(parameters.selector)
        else:
            matches = [e for e in tab.page.elements if e.label == parameters.text]
            if not matches:
                raise ActionError(
                    f"No element is labelled {parameters.text!r}; take a new snapshot."
                )
            if len(matches) > 1:
                listed = ", ".join(e.selector for e in matches)
                raise ActionError(
                    f"{len(matches)} elements are labelled {parameters.text!r} ({listed}); "
                    "click one by selector."
                )
            element = matches[0]
        label = element.label
        if element.href is not None:
            tab.go(urljoin(tab.url, element.href))
        elif element.reveals is not None:
            tab.revealed.append(element.reveals)
        elif element.type == "submit":
            tab.go(urljoin(tab.url, "/search?q=" + tab.values.get("#q", "")))
        elif element.type == "checkbox":
            tab.checked ^= {element.selector}
        return data.ClickData(
            clicked=element.selector,
            label=label,
            url=tab.url,
            title=tab.page.title,
            **tab.state(element),
        )

    async def type(self, parameters: params.TypeParameters, context: Context) -> data.TypeData:
        tab = self._tab(context)
        _, element = tab.find(parameters.selector)
        if element.tag != "input" or element.type == "checkbox":
            raise ActionError(f"{parameters.selector} is not a text field; pick an input.")
        tab.values[element.selector] = parameters.value
        state = tab.state(element)
        if parameters.submit:
            tab.go(urljoin(tab.url, "/search?q=" + parameters.value))
            state = {}
        return data.TypeData(
            selector=parameters.selector, url=tab.url, title=tab.page.title, **state
        )

    async def scroll(
        self, parameters: params.ScrollParameters, context: Context
    ) -> data.ScrollData:
        tab = self._tab(context)
        page_height = tab.size()[1]
        extra: dict[str, Any] = {}
        if parameters.selector is not None:
            index, element = tab.find(parameters.selector)
            tab.scroll_y = int(element.bounds(index).y)
            extra["scrolled_to"] = parameters.selector
        else:
            moves = {
                "up": tab.scroll_y - page_height,
                "down": tab.scroll_y + page_height,
                "top": 0,
                "bottom": tab.max_scroll(),
            }
            tab.scroll_y = moves[parameters.direction or "down"]
            extra["direction"] = parameters.direction
        tab.scroll_y = min(max(tab.scroll_y, 0), tab.max_scroll())
        return data.ScrollData(
            scroll_y=tab.scroll_y,
            max_scroll_y=tab.max_scroll(),
            at_top=tab.scroll_y == 0,
            at_bottom=tab.scroll_y == tab.max_scroll(),
            **extra,
        )

    async def back(
        self, parameters: params.BackParameters, context: Context
    ) -> data.NavigationData:
        tab = self._tab(context)
        if tab.position == 0:
            raise ActionError("There is no earlier page to go back to.")
        tab.move(-1)
        return data.NavigationData(url=tab.url, title=tab.page.title)

    async def forward(
        self, parameters: params.ForwardParameters, context: Context
    ) -> data.NavigationData:
        tab = self._tab(context)
        if tab.position == len(tab.history) - 1:
            raise ActionError("There is no later page to go forward to.")
        tab.move(1)
        return data.NavigationData(url=tab.url, title=tab.page.title)

    async def inspect(
        self, parameters: params.InspectParameters, context: Context
    ) -> data.InspectData:
        tab = self._tab(context)
        index, element = tab.find(parameters.selector)
        bounds = element.bounds(index)
        return data.InspectData(
            selector=element.selector,
            tag=element.tag,
            label=element.label,
            bounds=bounds,
            in_viewport=tab.scroll_y <= bounds.y < tab.scroll_y + tab.size()[1],
            styles={"display": "inline-block", "visibility": "visible", "color": "rgb(0, 0, 0)"},
            type=element.type,
            **tab.state(element),
        )

    async def capture(
        self, parameters: params.CaptureParameters, context: Context
    ) -> data.CaptureData:
        tab = self._tab(context)
        width, height = tab.size()
        return data.CaptureData(
            base64=base64.b64encode(_blank_png(width, height)).decode(),
            mime="image/png",
            width=width,
            height=height,
            url=tab.url,
            title=tab.page.title,
            viewport=tab.viewport_data(),
        )

    async def resize(
        self, parameters: params.ResizeParameters, context: Context
    ) -> data.ResizeData:
        tab = self._tab(context)
        tab.viewport = parameters.viewport
        tab.scroll_y = min(tab.scroll_y, tab.max_scroll())
        return data.ResizeData(viewport=tab.viewport_data())


def _blank_png(width: int, height: int) -> bytes:
    """A white PNG of the given size: enough for a capture a test can decode and measure."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    row = b"\x00" + b"\xff" * (width * 3)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height, 6))
        + chunk(b"IEND", b"")
    )


def register() -> dict[str, Any]:
    """Entry point of ``browserhost.providers``: the stub's catalog record."""
    return StubProvider().registration()
