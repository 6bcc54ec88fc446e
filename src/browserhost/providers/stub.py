"""The stub provider: a browser with no browser, for demos, tests and provider authors.

It answers every action with the same ``data`` shapes as a real browser, from a small fake
site (:mod:`.stub_site`) whose pages link to each other, so open, click, type, back and
forward change what the next snapshot shows. Every context key ``(directory, sessionId)`` gets
its own page and history, forgotten after :data:`SESSION_IDLE_S` unused (as a browser provider
closes an idle context, so a long-running host does not keep every session it ever saw).
Nothing is random: the same actions give the same answers.

It also shows what it does: :class:`~.stub_surface.StubSurface` paints the page the agent
acted on last as PNG frames, and a person's clicks and keys on that picture act on the same
page, so the viewer, the hand-off and the input path work with no browser. Its panel page is a
one-line address bar docked above the picture.

Read this file first when writing a provider: it is the whole interface, with no browser in
the way.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import struct
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pydantic import Field

from browserhost.contract import Context, ProviderRequest, data
from browserhost.contract import actions as params
from browserhost.providers.pointer_verbs import (
    MOUSE_DONE,
    DragArguments,
    HoverArguments,
    MouseArguments,
    SelectTextArguments,
)
from browserhost.providers.session_verbs import (
    COOKIES_HELP,
    NOTHING_OPEN,
    SET_COOKIES_HELP,
    WAIT_FOR_CLOSE_HELP,
    CookiesArguments,
    SetCookiesArguments,
    WaitForCloseArguments,
    cookie_urls,
    refuse_unsettable,
    still_open,
)
from browserhost.sdk import ActionError, Panel, Provider, VerbArguments, verb

from . import stub_cookies
from .stub_site import Tab
from .stub_surface import StubSurface

if TYPE_CHECKING:
    from browserhost.sdk.provider import Answer

__all__ = ["SESSION_IDLE_S", "StubProvider", "StubSurface", "Tab", "register"]

SESSION_IDLE_S = 15 * 60.0
"""How long a context key's page lives unused; the next action after that starts fresh."""


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
        "Use the mouse at a point of the viewport (CSS pixels from its top left corner), or "
        "on an element by selector or by its label: move, click (clickCount 2 for a double "
        "click), down, up, or wheel (deltaY scrolls the page). Answers what was under the "
        "pointer before (start) and after (end)."
    )
    async def mouse(self, arguments: MouseArguments, context: Context) -> dict[str, Any]:
        tab = self._tab(context)
        action, point, named = arguments.action, arguments.point, {}
        if point is None and arguments.selector is None and arguments.text is None:
            if tab.pointer is None:
                raise ActionError(
                    "The pointer is not on this page yet, so nothing was "
                    f"{MOUSE_DONE[action]}; give x and y, selector, or text."
                )
            point = tab.pointer  # where the pointer is
        elif point is None:
            if arguments.selector is not None:
                _, element = tab.find(arguments.selector)
            else:
                element = tab.labelled(arguments.text or "", "pick")
            point = tab.centre(element)
            named = {"selector": element.selector, "label": element.label}
        width, height = tab.size()
        if not (point[0] < width and point[1] < height):
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
        return {**named, **tab.pointed(start, before, point)}

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

    @verb(COOKIES_HELP, changes_page=False)
    async def cookies(self, arguments: CookiesArguments, context: Context) -> dict[str, Any]:
        tab = self._tab(context)
        urls = cookie_urls(arguments.urls, tab.url)
        return {"cookies": stub_cookies.sent_to(tab.cookies, urls)}

    @verb(SET_COOKIES_HELP)
    async def set_cookies(self, arguments: SetCookiesArguments, context: Context) -> dict[str, Any]:
        refusal = refuse_unsettable(arguments.cookies)
        if refusal is not None:
            raise ActionError(refusal)
        tab = self._tab(context)
        for cookie in arguments.cookies:
            stub_cookies.put(tab.cookies, stub_cookies.stored(cookie))
        return {"set": [cookie.name for cookie in arguments.cookies]}

    @verb(WAIT_FOR_CLOSE_HELP, changes_page=False)
    async def wait_for_close(
        self, arguments: WaitForCloseArguments, context: Context
    ) -> dict[str, Any]:
        """The stub's pages close themselves with their own button (``/closing``'s), or are
        closed by the provider when their session has gone unused for :data:`SESSION_IDLE_S`."""
        tab = self._tab(context)
        if tab.url == "about:blank":
            raise ActionError(NOTHING_OPEN)
        closed: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def tell(by: str) -> None:
            if not closed.done():
                closed.set_result(by)

        tab.on_close.append(tell)
        try:
            async with asyncio.timeout(arguments.timeout_s):
                return {"closed": True, "by": await closed}
        except TimeoutError:
            raise ActionError(still_open(tab.url, arguments.timeout_s)) from None

    def __init__(
        self, *, idle_s: float = SESSION_IDLE_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        """``idle_s``: how long a session's page is kept unused; ``clock`` measures it."""
        self.idle_s = idle_s
        self._clock = clock
        self._tabs: dict[tuple[str | None, str | None], Tab] = {}
        self._tab_ids = itertools.count(1)
        self._surface = StubSurface(self.tabs)

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
        for idle in list(self._tabs.values()):
            if now - idle.last_used >= self.idle_s:
                idle.close("provider")
        tab = self._tabs.get(context.key)
        if tab is None:
            tab = self._tabs[context.key] = Tab(id=f"tab-{next(self._tab_ids)}", context=context)
            tab.on_close.append(lambda _: self._forget(tab))
        tab.last_used = now
        return tab

    def _forget(self, tab: Tab) -> None:
        """A closed page leaves its session: the session's next action opens a fresh one."""
        for key, held in list(self._tabs.items()):
            if held is tab:
                del self._tabs[key]

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
