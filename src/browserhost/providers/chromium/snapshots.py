"""``browser.snapshot``: what a page shows an agent, its text and interactive elements, read
from the page and from the iframes it shows."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from browserhost.contract import data
from browserhost.contract.limits import (
    SNAPSHOT_ELEMENTS_MAX,
    SNAPSHOT_FULL_ELEMENTS_MAX,
    SNAPSHOT_FULL_TEXT_MAX,
    SNAPSHOT_TEXT_MAX,
)

from . import driver, pagescript, settle, targets
from .inputs import STILL_LOADING
from .targets import Located

if TYPE_CHECKING:
    from .access import TabAccess
    from .contexts import Tab


@dataclass(frozen=True)
class Caps:
    """How much of its text and how many elements a snapshot shows."""

    text: int
    elements: int


AROUND_VIEWPORT = Caps(SNAPSHOT_TEXT_MAX, SNAPSHOT_ELEMENTS_MAX)
FULL = Caps(SNAPSHOT_FULL_TEXT_MAX, SNAPSHOT_FULL_ELEMENTS_MAX)


async def snapshot(
    access: TabAccess, tab: Tab, scope: str | None, full: bool = False
) -> data.SnapshotData:
    """The tab's page, or the element ``scope`` names, as the snapshot shows it: around the
    viewport, or ``full``, up to the contract's hard limits.

    The first frame an open still owes (:attr:`.Tab.frame_due`) is waited for in the same
    call to the page that reads it, one round trip fewer for the action that most often
    follows an open; a page calm so far is read while that frame is due, and read again only
    if the frame changed it. A page with requests in flight then is waited for as any action
    waits, and read again."""
    caps = FULL if full else AROUND_VIEWPORT
    page = await tab.page()
    due, tab.frame_due = tab.frame_due, False
    if due and scope:
        await access.settle(tab, page, opened="due")  # before the scope is looked for
    located = await targets.locate(page, scope) if scope else Located(page.main_frame, "")

    async def read_page(first_frame: bool) -> Any:
        return await pagescript.run(
            located.frame,
            "snapshot",
            scope=located.selector or None,
            textMax=caps.text,
            elementsMax=caps.elements,
            due=settle.due_frame(access.timeouts) if first_frame else None,
        )

    read: dict[str, Any] = await read_page(due and not scope)
    if read.get("settled") and tab.loading(page):
        await access.settle(tab, page, opened="due")
        read = await read_page(False)
    targets.check_found(read, scope)
    # Bounded as the contract bounds it: the page can replace the script that answers.
    read["text"] = read["text"][: caps.text]
    read["elements"] = read["elements"][: caps.elements]
    await _read_frames(located, read, caps)
    text: str = read["text"]
    total: int = read["textTotalChars"]
    elements = [data.Element.model_validate(item) for item in read["elements"]]
    on_page: int = read["interactiveElementsOnPage"]
    # The page counts in UTF-16 units: an emoji is two of them and one character here.
    shown = len(text.encode("utf-16-le")) // 2
    cut = total > shown
    more = on_page > len(elements)
    return data.SnapshotData(
        url=page.url if located.frame is page.main_frame else read["url"],
        title=read["title"],
        scope=scope or "page",
        scroll_y=read["scrollY"],
        max_scroll_y=read["maxScrollY"],
        text=text,
        elements=elements,
        viewport=tab.viewport(),
        console_problems=tab.drain_problems(),
        text_truncated=True if cut else None,
        text_total_chars=total if cut else None,
        text_above_chars=read["textAboveChars"] if cut else None,
        text_below_chars=max(0, total - read["textAboveChars"] - shown) if cut else None,
        elements_truncated=True if more else None,
        interactive_elements_on_page=on_page if more else None,
        elements_above=read["elementsAbove"] if more else None,
        elements_below=read["elementsBelow"] if more else None,
        notice=tab.take_notice(_notice(read, elements, tab)),
    )


def _notice(read: dict[str, Any], elements: list[data.Element], tab: Tab) -> str | None:
    if read.get("url") == "about:blank":
        # Said already when the session was reset under the agent.
        return None if tab.notices else "Nothing is open: the page is blank; use browser.open."
    drawn, shapes = ", ".join(read.get("drawn") or ()), ", ".join(read.get("shapes") or ())
    seen = f"{SEEN} {SHAPES_SEEN}" if "(svg " in drawn or shapes else SEEN
    if not elements and not read["text"]:
        if drawn:
            return f"This shows no text and no interactive elements, only drawing: {drawn}. {seen}"
        return (
            "The page shows no text and no interactive elements; it may still be loading. Take "
            "another snapshot in a moment, or a capture to see it."
        )
    if read.get("loading"):
        return STILL_LOADING
    if read.get("sealed"):
        return (
            f"{', '.join(read['sealed'])} draw{'s' if len(read['sealed']) == 1 else ''} "
            f"content no script can read (a closed shadow root, most likely): its text and "
            f"controls are not listed. {SEEN}"
        )
    pictures = ", ".join(read.get("pictures") or ())
    said = [f"Drawn, with nothing to read in it: {drawn}." if drawn else ""]
    said.append(f"{UNLISTED_SHAPES}: {shapes}." if shapes else "")
    if drawn or shapes:
        said.append(seen)
    said.append(f"{NAMED_PICTURES}: {pictures}." if pictures else "")
    said.append(scroll_boxes(read.get("scrollBoxes") or ()))
    return " ".join(filter(None, said)) or None


def scroll_boxes(boxes: Iterable[Mapping[str, Any]]) -> str:
    """The sentence naming the boxes in view that scroll by themselves (``snapshot.js``'s
    ``scrollBoxes``), or nothing when there are none."""
    named = targets.scroll_boxes_named(boxes)
    return f"{SCROLL_BOXES}: {named}. {SCROLL_BOXES_MOVED}" if named else ""


SEEN = "browser.capture shows it; verb.mouse clicks it by x and y."
"""How an agent sees and presses what a page draws rather than writes."""
SHAPES_SEEN = (
    "An svg's shapes are elements a selector names (as named here) for "
    "browser.inspect, verb.drag and verb.mouse."
)
"""What a snapshot that names an svg drawing adds: how to reach its shapes."""
UNLISTED_SHAPES = (
    "Drawn beside the shapes listed, with no name or handler of their own (a box or a mark "
    "to drop on)"
)
"""How a snapshot names the shapes of a drawing it lists some shapes of, that it does not list."""
NAMED_PICTURES = "Pictures among the text, named where no text says it"
"""How a snapshot names pictures a page names (alt, title) that its text does not hold."""
SCROLL_BOXES = "Boxes that scroll by themselves hold more than they show"
"""How a snapshot names the boxes in view that scroll apart from the page (a list, a panel)."""
SCROLL_BOXES_MOVED = (
    "browser.scroll with a box's selector and a direction moves it; a long list may add its "
    "rows only as it scrolls."
)


async def _read_frames(located: Located, read: dict[str, Any], caps: Caps, depth: int = 0) -> None:
    """Add the elements and text of the iframes shown in a snapshot's frame to ``read``: their
    selectors step into the frame (``iframe#pay >> #card``), their bounds are in the page."""
    if depth >= targets.FRAME_DEPTH_MAX:
        return
    for inner in await targets.child_frames(located):
        room = caps.elements - len(read["elements"])
        if room <= 0:
            return
        try:
            sub = await pagescript.run(
                inner.frame, "snapshot", scope=None, textMax=caps.text, elementsMax=room
            )
            await _read_frames(inner, sub, caps, depth + 1)
        except driver.PlaywrightError:
            continue  # the frame went away while being read
        # Its own iframes' elements came back named from ``inner`` on: one step more.
        step = inner.prefix.removeprefix(located.prefix)
        for element in sub["elements"]:
            element["selector"] = step + element["selector"]
            element["bounds"]["x"] += round(inner.x - located.x)
            element["bounds"]["y"] += round(inner.y - located.y)
            element["inViewport"] = element["inViewport"] and inner.shown
        read["elements"].extend(sub["elements"])
        read["interactiveElementsOnPage"] += sub["interactiveElementsOnPage"]
        if sub["text"] and len(read["text"]) < caps.text:
            heading = f"[frame {inner.prefix.removesuffix(targets.HOP)}]"
            framed = ("\n\n" if read["text"] else "") + f"{heading}\n{sub['text']}"
            read["text"] = (read["text"] + framed)[: caps.text]
        read["textTotalChars"] += sub["textTotalChars"]
