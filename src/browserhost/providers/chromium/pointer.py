"""The chromium provider's pointer verbs: hover, drag, select_text and mouse, the mouse used
as a person uses it, each answering what was under the pointer where it started and ended."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from browserhost.contract import Context
from browserhost.providers.pointer_verbs import (
    HOVER_HELP,
    MOUSE_DONE,
    MOUSE_HELP,
    DragArguments,
    HoverArguments,
    MouseArguments,
    SelectTextArguments,
)
from browserhost.sdk import ActionError, Provider, verb

from . import driver, navigation, pagescript, targets
from .errors import playwright_errors
from .inputs import leave_rest, led_to, notices, read_state, with_dialogs
from .targets import Located

if TYPE_CHECKING:
    from playwright.async_api import Frame, Page

    from .access import TabAccess
    from .contexts import Tab
    from .records import Settled

DRAG_STEPS = 10
"""The moves between a drag's press and its release: libraries that start a drag only past a
few pixels of motion (jQuery UI, SortableJS, a slider) see it move, and the page's own drag
and drop sees it pass over what lies between."""
REST_FRAMES = 3
"""Frames a drag rests over where it drops before letting go (about the browser's own
repeat of dragover while the pointer holds still, 50 ms)."""

Point = tuple[float, float]
Passing = tuple[Point, Callable[[], Awaitable[Point]]]
"""Where a drag passes on the element it drops on, and where to release it once there."""


class PointerVerbs(Provider):
    """The pointer verbs, each run on the context key's tab as one action."""

    access: TabAccess
    """The tabs the verbs run on: the provider's."""

    @verb(HOVER_HELP)
    async def hover(self, arguments: HoverArguments, context: Context) -> dict[str, Any]:
        async with self.access.using(context, "verb.hover") as tab:
            page = await tab.page()
            selector, aimed = await _checked_source(page, arguments, ("hover", "hovered"))
            end = aimed.point
            start = _last_pointer(tab, page) or end
            before = await _under(page, [start], watch=True)
            with playwright_errors("verb.hover"):
                await leave_rest(page, aimed)
                await pagescript.answering(page.mouse.move(*end))
            answer = await self._pointed(tab, page, (start, before), end)
            return {"hovered": selector, "label": aimed.info["label"], **answer}

    @verb(
        "Drag an element (selector, or its visible text) and drop it on another (toSelector "
        "or toText), or at an offset from where it is pressed (offsetX, offsetY in CSS "
        "pixels; the drop point must stay in the viewport): press, move in steps, release, as "
        "a person does. For draggable items, sortable lists, sliders and boxes moved by hand; "
        "a range input is pressed on its thumb, where its value puts it. "
        "Answers what was under the pointer where it pressed (start) and, once the page "
        "settled, where it released (end); for a slider, the value it was left at."
    )
    async def drag(self, arguments: DragArguments, context: Context) -> dict[str, Any]:
        async with self.access.using(context, "verb.drag") as tab:
            page = await tab.page()
            selector, aimed = await _checked_source(page, arguments, ("drag", "dragged"))
            start, via = aimed.point, None
            if arguments.to_selector is None and arguments.to_text is None:
                end = (start[0] + (arguments.offset_x or 0), start[1] + (arguments.offset_y or 0))
            else:
                start, end, via = await _drop_point(page, selector, aimed, arguments)
            frame = aimed.located.frame
            await pagescript.run(frame, "watchDrag")
            before = await _under(page, [start], watch=True)
            if not _inside(end, before):
                raise ActionError(
                    f"The drop point ({end[0]:g}, {end[1]:g}), that far from where {selector} is "
                    f"pressed ({start[0]:g}, {start[1]:g}), is outside the viewport, which is "
                    f"{_size(before)} CSS pixels; nothing was dragged. Give a smaller offset, or "
                    "scroll first."
                )
            with playwright_errors("verb.drag"):
                end = await _drag(page, start, end, via)
            answer = await self._pointed(tab, page, (start, before), end)
            ended = await _drag_ended(frame)
            _check_dropped(ended, selector, arguments)
            if ended.get("still"):
                said = changed_nothing(selector, aimed.info["tag"], ended.get("selected"))
                answer["notice"] = notices(answer.get("notice"), said)
            # A slider dragged: the value it was left at (where on its track, for a knob
            # that tells no value).
            info = aimed.info
            if info.get("type") == "range" or info.get("role") == "slider" or info.get("knob"):
                read = await read_state(aimed)
                value = ((read or {}).get("state") or {}).get("value")
                if value is not None:
                    answer["value"] = value
            return {"dragged": selector, "label": aimed.info["label"], **answer}

    @verb(
        "Select text with the mouse, as a person does to highlight, copy or quote it: the "
        "first occurrence of text as the page shows it (whitespace collapsed; exact case "
        "first), inside selector's element when given. Answers the text the page reports as "
        "selected, the selector of the element that holds it, and what was under the pointer "
        "where the selection starts (start) and ends (end)."
    )
    async def select_text(self, arguments: SelectTextArguments, context: Context) -> dict[str, Any]:
        text, within = " ".join(arguments.text.split()), arguments.selector
        if not text:
            raise ActionError("Give the text to select, not only spaces; nothing was selected.")
        async with self.access.using(context, "verb.select_text") as tab:
            page = await tab.page()
            located = await targets.locate(page, within) if within else Located(page.main_frame, "")
            found = await pagescript.run(
                located.frame, "selectText", text=text, selector=located.selector or None
            )
            if found.get("frame") and within:  # an iframe: the text of its document
                located = await targets.locate(page, within + targets.HOP + "body")
                found = await pagescript.run(
                    located.frame, "selectText", text=text, selector=located.selector
                )
            if found.get("missing") and within is None:
                # The iframes shown in the page, as a snapshot reads them: the first that has it.
                for inner in await targets.all_frames(located):
                    with contextlib.suppress(driver.PlaywrightError):  # a frame gone: not there
                        there = await pagescript.run(inner.frame, "selectText", text=text)
                        if not there.get("missing"):
                            located, found = inner, there
                            break
            targets.check_found(found, within)
            _check_selectable(found, text, within)
            if found.get("field"):  # in a field's value: selected there, the field focused
                chosen = await pagescript.run(located.frame, "selected", set=True)
                return {
                    "selected": chosen.get("selected", ""),
                    "selector": located.prefix + found["selector"],
                }
            start = (located.x + found["from"]["x"], located.y + found["from"]["y"])
            end = (located.x + found["to"]["x"], located.y + found["to"]["y"])
            before = await _under(page, [start], watch=True)
            by_mouse: bool = found["mouse"]
            if by_mouse:
                with playwright_errors("verb.select_text"):
                    await _drag(page, start, end)
            shown, settled = await self._settled(tab, page)
            chosen = await pagescript.run(located.frame, "selected", set=not by_mouse)
            if chosen.get("gone"):
                raise ActionError(
                    f'The page rewrote "{text}" as it was selected, so it may be selected in '
                    "part; take a new snapshot to see what it shows."
                )
            answer = {
                "selected": chosen["selected"],
                "selector": located.prefix + found["selector"],
                **await self._ended(tab, page, (start, before), end, shown, settled, by_mouse),
            }
            if not by_mouse:
                answer["notice"] = notices(SET_WITHOUT_MOUSE, answer.get("notice"))
            return answer

    @verb(MOUSE_HELP)
    async def mouse(self, arguments: MouseArguments, context: Context) -> dict[str, Any]:
        action = arguments.action
        if action == "wheel" and not (arguments.delta_x or arguments.delta_y):
            raise ActionError(
                "wheel needs deltaX or deltaY, the pixels to scroll; nothing was done."
            )
        async with self.access.using(context, "verb.mouse") as tab:
            page = await tab.page()
            point, named = arguments.point, {}
            last = _last_pointer(tab, page)
            if point is None and arguments.selector is None and arguments.text is None:
                if last is None:
                    raise ActionError(
                        "The pointer is not on this page yet, so nothing was "
                        f"{MOUSE_DONE[action]}; give x and y, selector, or text."
                    )
                point = last  # where the pointer is: a button released where it was pressed
            elif point is None:
                doing = ("pick", MOUSE_DONE[action])
                selector, aimed = await _checked_source(page, arguments, doing)
                point, named = aimed.point, {"selector": selector, "label": aimed.info["label"]}
            start = last or point
            before = await _under(page, [start], watch=True)
            if not _inside(point, before):
                raise ActionError(
                    f"({point[0]:g}, {point[1]:g}) is outside the viewport, which is "
                    f"{_size(before)} CSS pixels (x and y from 0 up to those); nothing was done."
                )
            mouse, button, count = page.mouse, arguments.button, arguments.click_count
            with playwright_errors("verb.mouse"):
                async with _holding(page, arguments.modifiers):
                    # Each input is answered once the page has handled it: a handler that
                    # never returns leaves it unanswered.
                    await pagescript.answering(mouse.move(*point))
                    if action == "click":
                        await pagescript.answering(
                            mouse.click(*point, button=button, click_count=count)
                        )
                    elif action == "down":
                        await pagescript.answering(mouse.down(button=button, click_count=count))
                    elif action == "up":
                        await pagescript.answering(mouse.up(button=button, click_count=count))
                    elif action == "wheel":
                        await pagescript.answering(
                            mouse.wheel(arguments.delta_x, arguments.delta_y)
                        )
            return {**named, **await self._pointed(tab, page, (start, before), point)}

    async def _pointed(
        self, tab: Tab, page: Page, started: tuple[Point, dict[str, Any]], end: Point
    ) -> dict[str, Any]:
        """A pointer verb's answer once the page settled: see :meth:`_ended`."""
        shown, settled = await self._settled(tab, page)
        return await self._ended(tab, page, started, end, shown, settled, True)

    async def _settled(self, tab: Tab, page: Page) -> tuple[Page, Settled]:
        """The page shown after the input (a window a click opened), once it settled."""
        shown = tab.current() or page
        return shown, await self.access.settle(tab, shown)

    async def _ended(
        self,
        tab: Tab,
        page: Page,
        started: tuple[Point, dict[str, Any]],
        end: Point,
        shown: Page,
        settled: Settled,
        moved: bool,
    ) -> dict[str, Any]:
        """Where the pointer started and ended (``moved``: the mouse went there), what was
        under it at the start and is under it now at the end, the page shown, the dialogs
        the input caused, and a notice of the page it led to (still loading, or failed)."""
        start, before = started
        # A page waiting for its server's next document runs no script: nothing to read.
        unread = page.is_closed() or navigation.awaited_server(page) is not None
        after = None if unread else (await _under(page, [end]))["under"][0]
        if moved:
            tab.pointer = (page, *end)
        answer: dict[str, Any] = {
            "start": _at(start, before["under"][0]),
            "end": _at(end, after),
            "url": shown.url,
            "title": await settled.title(shown),
        }
        with_dialogs(tab, answer)
        notice = led_to(tab, settled, shown)  # a press on a link to a slow server, say
        if notice:
            answer["notice"] = notice
        return answer


SET_WITHOUT_MOUSE = (
    "The text starts or ends in a link or a control, where a press would follow or press it: "
    "it was selected without the mouse (start and end say where a drag would have gone), so "
    "the page heard no press or release there (a quote or share button a page shows on the "
    "release does not show)."
)
"""What a select_text answer says where the page script set the selection itself."""


async def _checked_source(
    page: Page, named: HoverArguments | DragArguments | MouseArguments, doing: tuple[str, str]
) -> tuple[str, targets.Target]:
    """The element ``named`` by its selector or by its visible text (as a click by text finds
    it), checked as a click's target: shown, enabled, not covered where it is pressed.
    ``doing``: the verb, and what its refusals say was not done."""
    selector, text = named.selector, named.text
    if selector is None:
        selector = await targets.by_text(page, text or "", doing)
    # A text that is only part of the element's (a file in a list the page listens on as
    # a whole) is aimed at itself, as a click by text aims.
    aimed = await targets.target(
        page, selector, "click", fresh=text is not None, by_text=text, done=doing[1]
    )
    return selector, aimed


async def _drag_ended(frame: Frame) -> dict[str, Any]:
    """What the drag's watch saw (``watchDrag`` in ``snapshot.js``); nothing from a document
    the drop replaced or a frame it removed."""
    try:
        ended: dict[str, Any] = await pagescript.run(frame, "dragEnded")
    except driver.PlaywrightError:
        return {}
    return ended


CHANGED_NOTHING = (
    "The page showed no change as {selector} was dragged: it stayed where it was, and no "
    "element, text or style of the page changed{instead}. It may be nothing the page moves by "
    "a drag; take a snapshot to check.{resize}"
)
"""What a drag answers when the page showed no change at all (``still``, see ``watchDrag``
in ``snapshot.js``), with :data:`SELECTED_INSTEAD` and :data:`RESIZED_BY_CORNER` where they
apply."""
SELECTED_INSTEAD = '; the drag selected text instead ("{selected}")'
RESIZED_BY_CORNER = " A text area is resized by its bottom-right corner, pressed with verb.mouse."


def changed_nothing(selector: str, tag: str, selected: str | None) -> str:
    """:data:`CHANGED_NOTHING` for a drag of ``selector`` (a ``tag``) that left the page as it
    was, and selected ``selected`` instead, if anything."""
    return CHANGED_NOTHING.format(
        selector=selector,
        instead=SELECTED_INSTEAD.format(selected=selected) if selected else "",
        resize=RESIZED_BY_CORNER if tag == "textarea" else "",
    )


def _check_dropped(ended: dict[str, Any], selector: str, arguments: DragArguments) -> None:
    """Refuses a drag the browser carried whose drop nothing took: the page began it, and
    where it was released no element accepted it, so nothing moved."""
    if ended.get("started") and not ended.get("dropped") and ended.get("effect") == "none":
        onto = arguments.to_selector or (
            f'"{arguments.to_text}"' if arguments.to_text else "the drop point"
        )
        raise ActionError(
            f"{selector} was dragged, but the page did not take it where it was dropped, on "
            f"{onto}: the drag ended with nothing dropped, so nothing moved. Drop it on an "
            "element that takes it (take a new snapshot to see where it is now)."
        )


async def _drop_point(
    page: Page, selector: str, dragged: targets.Target, arguments: DragArguments
) -> tuple[Point, Point, Passing | None]:
    """Where to press what is dragged, where to release it on the element the agent names,
    and, for ``at`` before or after, where on that element to pass first and where to
    release once there; refuses a drop a person could not make."""
    to = arguments.to_selector
    if to is None:
        to = await targets.by_text(page, arguments.to_text or "", ("drag", "dragged"), drop=True)
    located = await targets.locate(page, to)
    if located.frame is not dragged.located.frame:
        raise ActionError(
            f"{to} is in another frame than {selector}, so nothing was dragged; drag within "
            "one frame."
        )
    found = await pagescript.run(
        located.frame,
        "dropTarget",
        selector=located.selector,
        fresh=arguments.to_text is not None,
        at=arguments.at,
    )
    targets.check_found(found, to)
    # Not shown together, or the drop not shown before a drag of a draggable begins (a bin
    # or upload zone a page shows only while something is dragged; a press and release of
    # anything else would be a click): the drag is begun, and the drop looked for then.
    if found.get("apart") or found.get("draggable"):
        return await _carried(page, selector, located, to, arguments)
    check_droppable(selector, to, found)
    start = dragged.point
    if found.get("from") is not None:  # the page scrolled to the drop point
        start = (located.x + found["from"]["x"], located.y + found["from"]["y"])
    end = (located.x + found["to"]["x"], located.y + found["to"]["y"])
    via = found.get("via")
    if via is None:
        return start, end, None

    async def placed() -> Point:
        # As the element is drawn once the drag passed `via` (a sortable list moved it).
        now = await pagescript.run(located.frame, "redrop", at=arguments.at, across=found["across"])
        return end if now.get("gone") else (located.x + now["to"]["x"], located.y + now["to"]["y"])

    return start, end, ((located.x + via["x"], located.y + via["y"]), placed)


HIDDEN_WHILE_DRAGGED = (
    "{to} is not visible, not even once the drag began, so nothing was dragged ({selector} was "
    "let go where it was picked up); open what contains it, or take a new snapshot."
)
"""A drag's refusal of a drop that no press and move showed (a bin shown only while
something is dragged would have shown by then)."""

CARRY_PX = 8
"""How far a drag carried across the page first moves where it is pressed: past the
browser's threshold for starting a drag."""


async def _carried(
    page: Page, selector: str, located: Located, to: str, arguments: DragArguments
) -> tuple[Point, Point, Passing]:
    """A drag whose element and drop point no viewport shows together (a drop zone a page
    away), or whose drop point shows only once a drag begins: pressed where the element is,
    then, the button held, the drop point looked for (the page scrolled to it, as a person
    scrolls with the wheel while dragging), and released there."""
    again = await targets.target(page, selector, "click", fresh=True, done="dragged")
    start = again.point
    lift = (start[0], start[1] + CARRY_PX)

    async def placed() -> Point:
        found = await pagescript.run(
            located.frame, "dropTarget", selector=located.selector, fresh=True, at=arguments.at,
            carried=True,
        )  # fmt: skip
        targets.check_found(found, to)
        if found.get("hidden"):
            raise ActionError(HIDDEN_WHILE_DRAGGED.format(to=to, selector=selector))
        check_droppable(selector, to, found)
        return located.x + found["to"]["x"], located.y + found["to"]["y"]

    return start, lift, (lift, placed)


_NO_DROP: targets.Refusals = (
    ("gone", "{selector} went away, so nothing was dragged; take a new snapshot."),
    (
        "changed",
        "{to} no longer names the element your latest snapshot listed (the page changed), so "
        "nothing was dragged; take a new snapshot.",
    ),
    (
        "inside",
        "{to} is {selector} itself or inside it, so nothing was dragged; drop it on another "
        "element, or give an offset.",
    ),
    (
        "hidden",
        "{to} is not visible, so nothing was dragged; open what contains it, or take a new "
        "snapshot.",
    ),
    (
        "apartIn",
        "{selector} and {to} do not show together in {box}, the box that scrolls them, so "
        "nothing was dragged. Drag by hand with verb.mouse: down on {selector}, move to the "
        "edge of {box} nearest {to} and wait (verb.wait_for seconds) while it scrolls, then "
        "move onto {to} and up.",
    ),
    (
        "outside",
        "{to} is outside the visible part of its container, so nothing was dragged; scroll to "
        "it with browser.scroll, or take a new snapshot.",
    ),
    (
        "clipped",
        "{to} is cut off where the drop would go by a box that shows only part of what it "
        "holds and that a person cannot scroll (a clipped card or list), so nothing was "
        "dragged; open or expand what holds it first, or drag by an offset to a part of it "
        "that shows.",
    ),
    (
        "through",
        "A drop inside {to} reaches {through} under it: {to} lets the pointer through there "
        "(pointer-events: none, say), so nothing was dragged; drop it on {through} instead, or "
        "by an offset (offsetX, offsetY).",
    ),
    (
        "coveredBy",
        "{to} is covered by {cover}, so nothing was dragged. Close or dismiss what covers it "
        "first, then try again.",
    ),
)


def check_droppable(selector: str, to: str, found: dict[str, Any]) -> None:
    """Refuses, saying why, a drop of ``selector`` on ``to`` that the page script found a
    person could not make (its ``dropTarget`` answer)."""
    why = targets.first_refusal(
        _NO_DROP,
        found,
        selector=selector,
        to=to,
        through=targets.named(found.get("through")),
        cover=targets.named(found.get("coveredBy")),
        box=found.get("apartIn"),
    )
    if why is not None:
        raise ActionError(why)


_UNSELECTABLE: targets.Refusals = (
    (
        "missing",
        'No visible text "{text}" {where}, so nothing was selected; take a new snapshot and '
        "copy the text as it shows it.",
    ),
    (
        "unselectable",
        '"{text}" cannot be selected: the page turned selection off there (user-select: none). '
        "Nothing was selected.",
    ),
    (
        "hidden",
        '"{text}" could not be brought into view, so nothing was selected; scroll to it with '
        "browser.scroll.",
    ),
    (
        "long",
        '"{text}" does not fit in the viewport, so nothing was selected; select a shorter text, '
        "or use a larger viewport.",
    ),
    (
        "coveredBy",
        '"{text}" is covered by {cover}, so nothing was selected. Close or dismiss what covers '
        "it first, then try again.",
    ),
)


def _check_selectable(found: dict[str, Any], text: str, within: str | None) -> None:
    why = targets.first_refusal(
        _UNSELECTABLE,
        found,
        text=text,
        where=f"in {within}" if within else "on the page",
        cover=targets.named(found.get("coveredBy")),
    )
    if why is not None:
        raise ActionError(why)


async def _drag(page: Page, start: Point, end: Point, via: Passing | None = None) -> Point:
    """Press at ``start``, move to ``end`` in steps, release there; or move to the point
    ``via`` gives first, and release where it says once there. Each input is answered once
    the page has handled it. With the button down, Playwright carries Chromium's own drag
    and drop (``draggable`` elements) too. Where it released."""
    mouse = page.mouse
    await pagescript.answering(mouse.move(*start))
    await pagescript.answering(mouse.down())
    if via is not None:
        await _moved(page, start, via[0])
        try:
            start, end = via[0], await via[1]()
        except (ActionError, driver.PlaywrightError):
            # No drop to make there after all: let go where it was picked up.
            await _moved(page, via[0], start)
            await pagescript.answering(mouse.up())
            raise
    await _moved(page, start, end)
    # Held over the drop a moment, as a person's hand is: the browser tells the page of the
    # pointer there again and again (dragover), and a list that let the last move go while
    # it held still (SortableJS, on a busy machine) hears it.
    for _ in range(REST_FRAMES):
        await pagescript.answering(page.evaluate(_NEXT_FRAME))
        await pagescript.answering(mouse.move(*end))
    await pagescript.answering(mouse.up())
    return end


async def _moved(page: Page, start: Point, end: Point) -> None:
    """The pointer moved from ``start`` to ``end`` in :data:`DRAG_STEPS` steps, a frame drawn
    after each: the page's own drag and drop hands a list its dragover once a frame, and a
    list sorted by it (SortableJS) moved the item one place for a whole drag's moves sent at
    once."""
    for step in range(1, DRAG_STEPS + 1):
        share = step / DRAG_STEPS
        point = (start[0] + (end[0] - start[0]) * share, start[1] + (end[1] - start[1]) * share)
        await pagescript.answering(page.mouse.move(*point))
        await pagescript.answering(page.evaluate(_NEXT_FRAME))


_NEXT_FRAME = "() => new Promise((drawn) => requestAnimationFrame(() => drawn()))"


async def _under(page: Page, points: list[Point], *, watch: bool = False) -> dict[str, Any]:
    """What is under each viewport point (``under``) and the viewport's size. ``watch``
    starts watching the page's timers for the wait after the input: it must then be the last
    question before it."""
    spots = [{"x": x, "y": y} for x, y in points]
    read: dict[str, Any] = await pagescript.run(page, "pointer", points=spots, watch=watch)
    if any(found and found.get("tag") in _FRAMES for found in read["under"]):
        read["under"] = [
            await _in_frames(page, point, found)
            for point, found in zip(points, read["under"], strict=True)
        ]
        if watch:  # the questions to find the frames ended the watch: started again, last
            await pagescript.run(page, "watch")
    return read


_FRAMES = ("iframe", "frame")


async def _in_frames(page: Page, point: Point, found: dict[str, Any] | None) -> Any:
    """What is under ``point`` inside the iframe ``found`` there (and inside any iframe in
    that one): the element the pointer is over, as ``#frame >> #button``, not the iframe."""
    for _ in range(targets.FRAME_DEPTH_MAX):
        if not found or found.get("tag") not in _FRAMES:
            break
        try:
            located = await targets.locate(page, found["selector"] + targets.HOP + "body")
            inside = {"x": point[0] - located.x, "y": point[1] - located.y}
            read = await pagescript.run(located.frame, "pointer", points=[inside])
        except (ActionError, driver.PlaywrightError):
            break  # a frame gone or out of reach: the iframe is what is known
        if not read["under"][0]:
            break
        found = {**read["under"][0], "selector": located.prefix + read["under"][0]["selector"]}
    return found


@contextlib.asynccontextmanager
async def _holding(page: Page, keys: Sequence[str]) -> AsyncIterator[None]:
    """``keys`` held down meanwhile (the mouse's events carry them), released after, even
    when the input failed: a key left down would change every later input."""
    keyboard, held = page.keyboard, []
    try:
        for key in keys:
            await pagescript.answering(keyboard.down(key))
            held.append(key)
        yield
    finally:
        for key in reversed(held):
            with contextlib.suppress(driver.PlaywrightError):  # the page went: nothing held
                await pagescript.answering(keyboard.up(key))


def _inside(point: Point, read: dict[str, Any]) -> bool:
    width, height = float(read["width"]), float(read["height"])
    return 0 <= point[0] < width and 0 <= point[1] < height


def _size(read: dict[str, Any]) -> str:
    return f"{read['width']}x{read['height']}"


def _at(point: Point, under: dict[str, Any] | None) -> dict[str, Any]:
    return {"x": round(point[0], 1), "y": round(point[1], 1), "under": under}


def _last_pointer(tab: Tab, page: Page) -> Point | None:
    """Where the agent's actions left the mouse on ``page``, if they did."""
    if tab.pointer is None or tab.pointer[0] is not page:
        return None
    return tab.pointer[1], tab.pointer[2]
