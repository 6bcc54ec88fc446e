"""The stub provider: a browser with no browser, for demos, tests and provider authors.

It answers every action with the same ``data`` shapes as a real browser, from a small fake
site whose pages link to each other, so open, click, type, back and forward change what the
next snapshot shows. Every context key ``(directory, sessionId)`` gets its own page and
history, forgotten after :data:`SESSION_IDLE_S` unused (as a browser provider closes an idle
context, so a long-running host does not keep every session it ever saw). Nothing is random:
the same actions give the same answers.

It also shows what it does: :class:`StubSurface` paints the page the agent acted on last
(its title bar, text, links, buttons and fields) as PNG frames, and a person's clicks and keys
on that picture act on the same page, so the viewer, the hand-off and the input path work with
no browser. Its panel page is a one-line address bar docked above the picture.

Read this file first when writing a provider: it is the whole interface, with no browser in
the way.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import io
import itertools
import struct
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urljoin, urlsplit

from pydantic import Field

from browserhost.contract import Context, ProviderRequest, data
from browserhost.contract import actions as params
from browserhost.contract.data import ViewportMode
from browserhost.providers.pointer_verbs import (
    DragArguments,
    HoverArguments,
    MouseArguments,
    SelectTextArguments,
)
from browserhost.sdk import (
    ActionError,
    Frame,
    KeyEvent,
    Panel,
    PointerEvent,
    Provider,
    Size,
    Surface,
    SurfaceSession,
    TextEvent,
    VerbArguments,
    WheelEvent,
    verb,
)

if TYPE_CHECKING:
    from PIL import ImageFont

    from browserhost.sdk.provider import Answer

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


def _is_text_field(element: StubElement) -> bool:
    return element.tag == "input" and element.type != "checkbox"


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
        self.pointer = self.pressed = None
        self.values.clear()
        self.checked.clear()
        self.revealed.clear()
        self.focus = next((e.selector for e in self.page.elements if _is_text_field(e)), None)

    def activate(self, element: StubElement) -> None:
        """What a click on ``element`` does, from the agent or from a person's pointer."""
        if element.href is not None:
            self.go(urljoin(self.url, element.href))
        elif element.reveals is not None:
            self.revealed.append(element.reveals)
        elif element.type == "submit":
            self.submit(self.values.get("#q", ""))
        elif element.type == "checkbox":
            self.checked ^= {element.selector}

    def click(self, element: StubElement) -> None:
        """A click on ``element`` by a pointer: a text field takes focus, the rest act."""
        if _is_text_field(element):
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


class PressKeyArguments(VerbArguments):
    key: str = Field(min_length=1, max_length=32, description="A key name: Enter, Escape, a.")


class StubProvider(Provider):
    id = "stub"
    name = "Stub (no browser)"
    panel = Panel(Path(__file__).with_name("stub_panel.html"), dock="top", size=40)

    @verb("Press one key on the page. Enter on the search form submits it.")
    async def press_key(self, arguments: PressKeyArguments, context: Context) -> dict[str, str]:
        """The smallest verb: a model for the arguments, a dict for the answer."""
        tab = self._tab(context)
        if arguments.key == "Enter" and urlsplit(tab.url).path == "/form":
            tab.submit(tab.values.get("#q", ""))
        return {"key": arguments.key, "url": tab.url}

    @verb(
        "Move the mouse over an element, by selector or by its label. Answers what was under "
        "the pointer before (start) and after (end)."
    )
    async def hover(self, arguments: HoverArguments, context: Context) -> dict[str, Any]:
        tab = self._tab(context)
        if arguments.selector is not None:
            _, element = tab.find(arguments.selector)
        else:
            element = tab.labelled(arguments.text or "", "hover")
        known = tab.pointer
        before = None if known is None else tab.under(*known)
        end = tab.centre(element)
        if known is None:
            before = tab.under(*end)
        return {
            "hovered": element.selector,
            "label": element.label,
            **tab.pointed(known or end, before, end),
        }

    @verb(
        "Use the mouse at a point of the viewport (CSS pixels from its top left corner): "
        "move, click (clickCount 2 for a double click), down, up, or wheel (deltaY scrolls "
        "the page). Answers what was under the pointer before (start) and after (end)."
    )
    async def mouse(self, arguments: MouseArguments, context: Context) -> dict[str, Any]:
        tab = self._tab(context)
        action, point = arguments.action, (arguments.x, arguments.y)
        width, height = tab.size()
        if not (arguments.x < width and arguments.y < height):
            raise ActionError(
                f"({point[0]:g}, {point[1]:g}) is outside the viewport, which is "
                f"{width}x{height} CSS pixels (x and y from 0 up to those); nothing was done."
            )
        if action == "wheel" and not (arguments.delta_x or arguments.delta_y):
            raise ActionError(
                "wheel needs deltaX or deltaY, the pixels to scroll; nothing was done."
            )
        start = tab.pointer or point
        before = tab.under(*start)
        left = arguments.button == "left"
        if action == "click" and left:
            for _ in range(arguments.click_count):  # a double click is two clicks
                hit = tab.element_at(*point)
                if hit is None:
                    tab.focus = None  # a click on nothing blurs the field, as on a page
                else:
                    tab.click(hit)
        elif action == "down" and left:
            tab.pressed = tab.element_at(*point)
        elif action == "up" and left:
            hit, pressed = tab.element_at(*point), tab.pressed
            tab.pressed = None
            if hit is not None and hit == pressed:
                tab.click(hit)
        elif action == "wheel":
            tab.scroll_y = min(max(tab.scroll_y + int(arguments.delta_y), 0), tab.max_scroll())
        return tab.pointed(start, before, point)

    @verb("Drag an element onto another, or by an offset. The stub has nothing to drag.")
    async def drag(self, arguments: DragArguments, context: Context) -> dict[str, Any]:
        raise ActionError(
            "The stub's pages have nothing to drag (links, buttons and fields only); nothing "
            "was done. A browser provider (chromium) drags."
        )

    @verb("Select text with the mouse. The stub's text cannot be selected.")
    async def select_text(self, arguments: SelectTextArguments, context: Context) -> dict[str, Any]:
        raise ActionError(
            "The stub's text cannot be selected; nothing was done. A browser provider "
            "(chromium) selects text."
        )

    def __init__(
        self, *, idle_s: float = SESSION_IDLE_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        """``idle_s``: how long a session's page is kept unused; ``clock`` measures it."""
        self.idle_s = idle_s
        self._clock = clock
        self._tabs: dict[tuple[str | None, str | None], Tab] = {}
        self._tab_ids = itertools.count(1)
        self._surface = StubSurface(self)

    def surface(self) -> StubSurface:
        return self._surface

    async def answer(self, request: ProviderRequest) -> Answer:
        answer = await super().answer(request)
        # The picture follows the session the agent acted on last, as a browser's would.
        self._surface.acted_on(self._tabs.get(request.context.key))
        return answer

    def _tab(self, context: Context) -> Tab:
        # Idle pages are dropped when an action arrives: no timer task for a provider that
        # holds nothing but a few dicts.
        now = self._clock()
        for key, idle in list(self._tabs.items()):
            if now - idle.last_used >= self.idle_s:
                del self._tabs[key]
        tab = self._tabs.get(context.key)
        if tab is None:
            tab = self._tabs[context.key] = Tab(id=f"tab-{next(self._tab_ids)}", context=context)
        tab.last_used = now
        return tab

    def tabs(self) -> list[Tab]:
        return list(self._tabs.values())

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
            element = tab.labelled(parameters.text or "")
        label = element.label
        tab.activate(element)
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
            tab.submit(parameters.value)
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


TITLE_BAR_HEIGHT = 40
"""The picture's title bar, drawn over the top of the page as a browser's tab strip is."""
_TEXT_X = 240


@dataclass(frozen=True)
class _Painted:
    """One element as the picture shows it, in page pixels."""

    bounds: tuple[int, int, int, int]
    element: StubElement
    value: str | None
    checked: bool
    focused: bool


@dataclass(frozen=True)
class Look:
    """Everything the picture shows: a new frame is made exactly when this changes."""

    width: int
    height: int
    title: str
    url: str
    lines: tuple[str, ...] = ()
    elements: tuple[_Painted, ...] = ()
    scroll_y: int = 0


class StubSurface(Surface):
    """The stub's page as a picture, and a person's pointer and keys on it.

    The picture shows the page of the session the agent acted on last, or the one the viewer
    pinned with :meth:`show`. A click (pointer down and up on the same link or button) does
    what ``browser.click`` does; a click on the text field focuses it, and keys and pasted
    text then type into it (Enter submits). The copy chord copies the focused field's value,
    or the page's text when no field has focus.
    """

    def __init__(self, provider: StubProvider) -> None:
        self._provider = provider
        self._followed: Tab | None = None
        self._pinned: str | None = None
        self._size: tuple[int, int] | None = None
        self._pressed: StubElement | None = None
        self._copied = ""
        self._seq = 1
        self._look = self._looks()
        self._changed = asyncio.Event()
        self._painting = asyncio.Lock()
        self._painted: Frame | None = None

    def acted_on(self, tab: Tab | None) -> None:
        """The agent acted on ``tab``'s session: show it (unless one is pinned) and repaint
        if anything it shows changed."""
        if tab is not None:
            self._followed = tab
        self._refresh()

    async def frame(self, after: int, wait_s: float) -> Frame | None:
        self._refresh()
        # An ``after`` above the current number was seen from an earlier run of this
        # provider: the asker gets the current picture rather than waiting for ever.
        if after == self._seq:
            changed = self._changed
            try:
                async with asyncio.timeout(wait_s):
                    await changed.wait()
            except TimeoutError:
                return None
        return await self._paint()

    async def input(self, events: list[PointerEvent | WheelEvent | KeyEvent | TextEvent]) -> None:
        tab = self._shown()
        if tab is not None:
            for event in events:
                if isinstance(event, PointerEvent):
                    self._point(tab, event)
                elif isinstance(event, WheelEvent):
                    tab.scroll_y = min(max(tab.scroll_y + int(event.delta_y), 0), tab.max_scroll())
                elif isinstance(event, KeyEvent):
                    self._key(tab, event)
                elif tab.focus is not None:
                    tab.values[tab.focus] = tab.values.get(tab.focus, "") + event.text
        self._refresh()

    async def resize(self, size: Size) -> Size | None:
        self._size = (size.width, size.height)
        self._refresh()
        return size

    async def clipboard(self) -> str:
        return self._copied

    async def sessions(self) -> list[SurfaceSession]:
        shown = self._shown()
        return [
            SurfaceSession(
                id=tab.id,
                url=tab.url,
                title=tab.page.title,
                shown=tab is shown,
                context=tab.context,
            )
            for tab in self._provider.tabs()
        ]

    async def show(self, session_id: str | None) -> None:
        if session_id is None or any(tab.id == session_id for tab in self._provider.tabs()):
            self._pinned = session_id
            self._refresh()

    def _shown(self) -> Tab | None:
        tabs = self._provider.tabs()
        for tab in tabs:
            if tab.id == self._pinned:
                return tab
        return next((tab for tab in tabs if tab is self._followed), None)

    def _point(self, tab: Tab, event: PointerEvent) -> None:
        if event.button != 0 or event.action == "move":
            return
        hit = self._hit(tab, event.x, event.y)
        if event.action == "down":
            self._pressed = hit
            return
        pressed, self._pressed = self._pressed, None
        if hit is None and pressed is None:
            tab.focus = None  # a click on nothing blurs the field, as on a page
        elif hit is not None and hit == pressed:
            tab.click(hit)

    def _hit(self, tab: Tab, x: float, y: float) -> StubElement | None:
        return None if y < TITLE_BAR_HEIGHT else tab.element_at(x, y)

    def _key(self, tab: Tab, event: KeyEvent) -> None:
        if event.action != "down":
            return
        chord = {"Control", "Meta"} & set(event.modifiers)
        field = tab.focus
        if chord:
            if event.key.lower() == "c":
                self._copied = (
                    tab.values.get(field, "")
                    if field
                    else "\n".join([tab.page.text, *tab.revealed])
                )
        elif field is None or "Alt" in event.modifiers:
            return
        elif event.key == "Enter":
            tab.submit(tab.values.get(field, ""))
        elif event.key == "Backspace":
            tab.values[field] = tab.values.get(field, "")[:-1]
        elif len(event.key) == 1:
            tab.values[field] = tab.values.get(field, "") + event.key

    def _looks(self) -> Look:
        tab = self._shown()
        if tab is None:
            width, height = self._size or data.VIEWPORT_SIZES["desktop"]
            return Look(width, height, "", "about:blank")
        width, height = self._size or tab.size()
        page = tab.page
        painted = []
        for index, element in enumerate(page.elements):
            bounds = element.bounds(index)
            state = tab.state(element)
            painted.append(
                _Painted(
                    (int(bounds.x), int(bounds.y), int(bounds.width), int(bounds.height)),
                    element,
                    state.get("value"),
                    bool(state.get("checked")),
                    element.selector == tab.focus,
                )
            )
        text = "\n".join([page.text, *tab.revealed])
        lines = tuple(text.splitlines())
        return Look(width, height, page.title, tab.url, lines, tuple(painted), tab.scroll_y)

    def _refresh(self) -> None:
        look = self._looks()
        if look != self._look:
            self._look = look
            self._seq += 1
            self._changed.set()
            self._changed = asyncio.Event()

    async def _paint(self) -> Frame:
        async with self._painting:
            if self._painted is None or self._painted.seq != self._seq:
                look, seq = self._look, self._seq
                # Painting takes milliseconds: off the event loop, so actions keep flowing.
                png = await asyncio.to_thread(paint_png, look)
                self._painted = Frame(
                    seq, png, "image/png", look.width, look.height, title=look.title or None
                )
            return self._painted


def paint_png(look: Look) -> bytes:
    """The page as a PNG: a title bar, the text, links, buttons and fields as boxes."""
    from PIL import Image, ImageDraw  # Pillow loads only when a picture is asked for

    image = Image.new("RGB", (look.width, look.height), "white")
    draw = ImageDraw.Draw(image)
    font, small = _font(15), _font(12)
    for number, line in enumerate(look.lines):
        y = 48 + number * _LINE_HEIGHT - look.scroll_y
        if -_LINE_HEIGHT < y < look.height:
            draw.text((_TEXT_X, y), line, fill="#202124", font=font)
    for shown in look.elements:
        x, top, width, height = shown.bounds
        y = top - look.scroll_y
        if y + height < TITLE_BAR_HEIGHT or y > look.height:
            continue
        box = (x, y, x + width - 1, y + height - 1)
        element = shown.element
        if element.tag == "a":
            draw.rectangle(box, fill="#eef3fe")
            draw.text((x + 8, y + 8), element.label, fill="#1a0dab", font=font)
            end = x + 8 + draw.textlength(element.label, font=font)
            draw.line((x + 8, y + 25, end, y + 25), fill="#1a0dab")
        elif element.type == "checkbox":
            draw.rectangle((x + 6, y + 6, x + 25, y + 25), outline="#5f6368", width=2)
            if shown.checked:
                draw.line((x + 10, y + 16, x + 15, y + 21, x + 22, y + 10), fill="#1a73e8", width=3)
            draw.text((x + 34, y + 8), element.label, fill="#202124", font=font)
        elif _is_text_field(element):
            outline = "#1a73e8" if shown.focused else "#9aa0a6"
            draw.rectangle(box, fill="white", outline=outline, width=2)
            value = shown.value or ""
            draw.text(
                (x + 8, y + 8),
                value or element.label,
                fill="#202124" if value else "#9aa0a6",
                font=font,
            )
            if shown.focused:
                caret = x + 9 + draw.textlength(value, font=font)
                draw.line((caret, y + 6, caret, y + height - 7), fill="#202124", width=1)
        else:
            draw.rounded_rectangle(box, radius=6, fill="#e8eaed", outline="#9aa0a6")
            draw.text((x + 12, y + 8), element.label, fill="#202124", font=font)
    draw.rectangle((0, 0, look.width, TITLE_BAR_HEIGHT - 1), fill="#dee1e6")
    draw.text((12, 4), look.title or look.url, fill="#202124", font=font)
    draw.text((12, 23), look.url, fill="#5f6368", font=small)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=3)
    return buffer.getvalue()


@functools.cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


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
