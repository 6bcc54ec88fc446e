"""The stub's picture: the page the agent acted on last, painted as PNG frames.

:class:`StubSurface` paints a tab's title bar, text, links, buttons and fields, and a person's
clicks and keys on that picture act on the same tab, so the viewer, the hand-off and the input
path work with no browser.
"""

from __future__ import annotations

import asyncio
import functools
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from browserhost import sdk
from browserhost.contract import data

from .stub_site import LINE_HEIGHT, StubElement, Tab, is_text_field

if TYPE_CHECKING:
    from PIL import ImageFont

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


class StubSurface(sdk.Surface):
    """The stub's page as a picture, and a person's pointer and keys on it.

    The picture shows the page of the session the agent acted on last, or the one the viewer
    pinned with :meth:`show`. A click (pointer down and up on the same link or button) does
    what ``browser.click`` does; a click on the text field focuses it, and keys and pasted
    text then type into it (Enter submits). The copy chord copies the focused field's value,
    or the page's text when no field has focus.
    """

    def __init__(self, tabs: Callable[[], list[Tab]]) -> None:
        """``tabs`` gives the provider's sessions' tabs, in the order they were opened."""
        self._tabs = tabs
        self._followed: Tab | None = None
        self._pinned: str | None = None
        self._size: tuple[int, int] | None = None
        self._pressed: StubElement | None = None
        self._copied = ""
        self._seq = 1
        self._look = self._looks()
        self._changed = asyncio.Event()
        self._painting = asyncio.Lock()
        self._painted: sdk.Frame | None = None

    def acted_on(self, tab: Tab | None) -> None:
        """The agent acted on ``tab``'s session: show it (unless one is pinned) and repaint
        if anything it shows changed."""
        if tab is not None:
            self._followed = tab
        self._refresh()

    async def frame(self, after: int, wait_s: float) -> sdk.Frame | None:
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

    async def input(
        self, events: list[sdk.PointerEvent | sdk.WheelEvent | sdk.KeyEvent | sdk.TextEvent]
    ) -> None:
        tab = self._shown()
        if tab is not None:
            for event in events:
                if isinstance(event, sdk.PointerEvent):
                    self._point(tab, event)
                elif isinstance(event, sdk.WheelEvent):
                    tab.scroll_y = min(max(tab.scroll_y + int(event.delta_y), 0), tab.max_scroll())
                elif isinstance(event, sdk.KeyEvent):
                    self._key(tab, event)
                elif tab.focus is not None:
                    tab.values[tab.focus] = tab.values.get(tab.focus, "") + event.text
        self._refresh()

    async def resize(self, size: sdk.Size) -> sdk.Size | None:
        self._size = (size.width, size.height)
        self._refresh()
        return size

    async def clipboard(self) -> str:
        return self._copied

    async def sessions(self) -> list[sdk.SurfaceSession]:
        shown = self._shown()
        return [
            sdk.SurfaceSession(
                id=tab.id,
                url=tab.url,
                title=tab.page.title,
                shown=tab is shown,
                context=tab.context,
            )
            for tab in self._tabs()
        ]

    async def show(self, session_id: str | None) -> None:
        if session_id is None or any(tab.id == session_id for tab in self._tabs()):
            self._pinned = session_id
            self._refresh()

    def _shown(self) -> Tab | None:
        tabs = self._tabs()
        for tab in tabs:
            if tab.id == self._pinned:
                return tab
        return next((tab for tab in tabs if tab is self._followed), None)

    def _point(self, tab: Tab, event: sdk.PointerEvent) -> None:
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

    def _key(self, tab: Tab, event: sdk.KeyEvent) -> None:
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

    async def _paint(self) -> sdk.Frame:
        async with self._painting:
            if self._painted is None or self._painted.seq != self._seq:
                look, seq = self._look, self._seq
                # Painting takes milliseconds: off the event loop, so actions keep flowing.
                png = await asyncio.to_thread(paint_png, look)
                self._painted = sdk.Frame(
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
        y = 48 + number * LINE_HEIGHT - look.scroll_y
        if -LINE_HEIGHT < y < look.height:
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
        elif is_text_field(element):
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
