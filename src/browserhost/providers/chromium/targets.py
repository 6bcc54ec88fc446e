"""The element an agent names, found and checked before anything is done to it.

A selector names one element of the page, of an open shadow root (``host >> inner``) or of an
iframe (``iframe#pay >> #card``, same-origin or not). :func:`locate` follows the iframe steps
in Python, one frame at a time, because a cross-origin frame's document is out of reach of the
page's script; shadow steps are followed by ``snapshot.js`` itself.

:func:`target` then asks the element's frame whether the action can be done as a person would:
the selector names exactly one element, the same one the latest snapshot listed, enabled,
visible and, for a click, not covered by something else at the point that would be clicked.
Every "no" is an :class:`~browserhost.sdk.ActionError` that says what is in the way, raised
before any input reaches the page.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from browserhost.sdk import ActionError

from . import driver, pagescript

if TYPE_CHECKING:
    from playwright.async_api import ElementHandle, Frame, Page

HOP = " >> "
FRAME_DEPTH_MAX = 4
"""How many iframes deep a selector may reach."""
TEXT_CANDIDATES_MAX = 8
"""How many candidates an ambiguous click by text lists."""
NOT_DRAWN_YET = "A box that scrolls by itself may hold it out of view, in rows not drawn yet"
"""What a refusal for a text no element shows adds where boxes in view scroll by themselves."""
BOX_SCROLLED = "browser.scroll with the box's selector and a direction moves it."
PAGE_GOES_ON = (
    "The page goes on below the view: one that adds more as it is scrolled (a feed) may show "
    "it further down; browser.scroll down, then try again."
)
"""What a refusal for a text no element shows adds where the page scrolls on below."""

Purpose = Literal["click", "type", "inspect"]


class NotFound(ActionError):
    """No element is what the agent named: a selector that matches none, a text none shows."""


@dataclass(frozen=True)
class Located:
    """Where the rest of a selector is matched: a frame, and that frame's offset in the page."""

    frame: Frame
    selector: str
    x: float = 0.0
    y: float = 0.0
    prefix: str = ""
    """The iframe steps taken to reach ``frame`` (``iframe#pay >> ``), to name its elements."""
    shown: bool = True
    """Whether the iframe that holds ``frame`` is in the viewport."""


@dataclass(frozen=True)
class Target:
    """One element, checked for an action: its facts (``info``) and, for a click, the point in
    page coordinates where a person would press it."""

    located: Located
    info: dict[str, Any]

    @property
    def point(self) -> tuple[float, float]:
        aim = self.info["aim"]
        return self.located.x + float(aim["x"]), self.located.y + float(aim["y"])

    @property
    def rest(self) -> tuple[float, float] | None:
        """Where the pointer rests, in page coordinates, if something came under it there
        since it last moved (see :func:`.inputs.leave_rest`)."""
        rest = self.info.get("rest")
        if rest is None:
            return None
        return self.located.x + float(rest["x"]), self.located.y + float(rest["y"])

    @property
    def clicked(self) -> tuple[str | None, str]:
        """What a click at :attr:`point` presses: for a click on part of an element's text, the
        element it lands on inside (``None``: the element itself) and that text as the page
        writes it; else ``None`` and the element's label."""
        aim = self.info.get("aim") or {}
        if "text" not in aim:
            return None, str(self.info["label"])
        inner = aim.get("hit")
        return (None if inner is None else self.located.prefix + inner), str(aim["text"])

    async def handle(self) -> ElementHandle:
        """The element itself, for Playwright's own input (fill, select)."""
        handle = await pagescript.stashed(self.located.frame)
        element = handle.as_element()
        if element is None:
            raise ActionError("The element went away; take a new snapshot.")
        return element


async def locate(page: Page, selector: str) -> Located:
    """The frame that holds the element ``selector`` ends on; refuses a step that does not
    name exactly one iframe."""
    located = Located(page.main_frame, selector)
    if HOP not in selector:
        return located
    for _ in range(FRAME_DEPTH_MAX):
        step = await pagescript.run(located.frame, "hop", selector=located.selector)
        if not step.get("enterFrame"):
            return located
        host = (await pagescript.stashed(located.frame)).as_element()
        child = None if host is None else await host.content_frame()
        if child is None:
            raise ActionError(
                f"{step['enterFrame']} has no document to look into; take a new snapshot."
            )
        located = Located(
            child,
            step["rest"],
            located.x + float(step["x"]),
            located.y + float(step["y"]),
            located.prefix + step["enterFrame"] + HOP,
        )
    raise ActionError(f"{selector} goes more than {FRAME_DEPTH_MAX} frames deep.")


async def target(
    page: Page,
    selector: str,
    purpose: Purpose,
    *,
    styles: list[str] | None = None,
    fresh: bool = False,
    watch: bool = False,
    text: str | None = None,
    value_max: int | None = None,
    by_text: str | None = None,
    guard: bool = False,
    done: str | None = None,
    keyboard: bool = False,
) -> Target:
    """The one element ``selector`` names, checked for ``purpose``; refuses with what to do.

    ``fresh`` is for a selector just found on the page (a click by text), not one from a
    snapshot: it is not compared with what the latest snapshot listed. ``watch`` starts
    watching the timers the page sets, for the wait after the action (see ``snapshot.js``).
    ``text``, to type: a text field that passes every check is readied for it in the same
    call (focused, its text selected; ``info["ready"]``, see :mod:`.fields`), a round trip
    less; a field that does not take text is refused. The page script readies one only on
    the conditions refused here (:func:`check_usable`, :func:`check_takes_text`), so a
    field it readied is never refused after; in the page's top document, one that then tells
    its state once the text is in (:meth:`.Tab.hear_typed`). ``value_max``: the longest
    value reported whole (by default a snapshot's cut, ``VALUE_MAX`` in ``snapshot.js``).
    ``by_text``, to click: the text the element was found by; when it is only part of the
    element's text (one file of a folder whose files have no element of their own), the click
    is aimed at that text's own box (:attr:`Target.clicked`), and refused when a press there
    would not reach it. ``guard``, to click: until the click, a press that would reach
    anything else is kept from the page and said (:func:`.inputs.missed_press`). ``done``:
    what a refusal says was not done, where the input is not the purpose's own (a hover or a
    mouse move aimed as a click is: ``hovered``, ``moved``); by default clicked or typed.
    ``keyboard``: only keys reach it, which need no pointer: what covers it, or lets the
    pointer through it, does not keep them from it.
    """
    for revealed in (False, True):
        located = await locate(page, selector)
        top = located.frame is page.main_frame
        info = await pagescript.run(
            located.frame,
            "target",
            selector=located.selector,
            purpose=purpose,
            styles=styles,
            fresh=fresh,
            watch=watch,
            text=text,
            valueMax=value_max,
            byText=by_text,
            guard=guard,
            told=pagescript.TYPED_BINDING if text is not None and top else None,
        )
        if top or revealed or "aim" not in info or await _in_window(page, Target(located, info)):
            break
        # Its frame shows it, but the page has that frame scrolled out of the window.
        await pagescript.run(located.frame, "reveal")
    check_found(info, selector)
    check_count(int(info["count"]), selector)
    if changed := info.get("changed"):
        raise ActionError(
            f"{selector} no longer names the element your latest snapshot listed (the page "
            f"changed{_renamed(changed)}), so nothing was "
            f"{done or ('clicked' if purpose == 'click' else 'typed')}; take a new snapshot."
        )
    if keyboard and info.get("aim"):
        info["aim"] = {k: v for k, v in info["aim"].items() if k not in _POINTER_ONLY}
    if purpose == "type" and info.get("editor"):
        return Target(located, info)  # typed into through its editor (fields.into_editor)
    if purpose != "inspect":
        check_usable(selector, info, done or ("clicked" if purpose == "click" else "typed"))
    if text is not None:
        check_takes_text(selector, info)
    return Target(located, info)


async def _in_window(page: Page, aimed: Target) -> bool:
    """Whether the point where ``aimed`` is pressed is in the page's window."""
    x, y = aimed.point
    width, height = await _window(page)
    return 0 <= x < width and 0 <= y < height


async def _window(page: Page) -> tuple[float, float]:
    window = await pagescript.run(page, "pointer", points=[])
    return float(window["width"]), float(window["height"])


def _meets_window(x: float, y: float, box: dict[str, Any], window: tuple[float, float]) -> bool:
    """Whether a box of ``box``'s size at ``x``, ``y`` in the page shows in its window."""
    return x < window[0] and y < window[1] and x + box["width"] > 0 and y + box["height"] > 0


async def in_page(page: Page, aimed: Target) -> dict[str, Any]:
    """``aimed``'s facts with its box placed in the page, and in view only where the page's
    window shows it: an iframe's document reads both in its own frame."""
    info, located = aimed.info, aimed.located
    bounds = info.get("bounds")
    if located.frame is page.main_frame or not isinstance(bounds, dict):
        return info
    x, y = bounds["x"] + located.x, bounds["y"] + located.y
    shown = _meets_window(x, y, bounds, await _window(page))
    return {
        **info,
        "bounds": {**bounds, "x": x, "y": y},
        "inViewport": bool(info.get("inViewport")) and shown,
    }


async def child_frames(located: Located) -> list[Located]:
    """The iframes shown in ``located``'s frame (inside its selector, when it has one), each
    as the place its own elements are read: their selectors step into it, their offset is in
    the page. A frame that goes away meanwhile is left out."""
    children = [child for child in located.frame.child_frames if not child.is_detached()]
    if not children:
        return []
    try:
        hosts = [await child.frame_element() for child in children]
        boxes = await pagescript.run(
            located.frame, "frames", elements=hosts, within=located.selector or None
        )
    except driver.PlaywrightError:
        return []
    # In view in its own frame, and that frame in the page's window (a frame in a frame
    # reads its own frame's view only).
    nested = located.frame.parent_frame is not None
    window = await _window(located.frame.page) if nested else (0.0, 0.0)

    def shown(box: dict[str, Any]) -> bool:
        in_window = _meets_window(located.x + box["x"], located.y + box["y"], box, window)
        return bool(box["inViewport"]) and located.shown and (not nested or in_window)

    return [
        Located(
            child,
            "",
            located.x + box["x"],
            located.y + box["y"],
            located.prefix + box["selector"] + HOP,
            shown=shown(box),
        )
        for child, box in zip(children, boxes, strict=True)
        if box is not None
    ]


async def all_frames(located: Located) -> list[Located]:
    """The iframes shown in ``located``'s frame and, in turn, in theirs (to
    :data:`FRAME_DEPTH_MAX`), nearest first: where text the page itself does not show is
    looked for."""
    found: list[Located] = []
    level = [located]
    for _ in range(FRAME_DEPTH_MAX):
        level = [inner for outer in level for inner in await child_frames(outer)]
        if not level:
            break
        found += level
    return found


async def by_text(
    page: Page, text: str, doing: tuple[str, str] = ("click", "clicked"), *, drop: bool = False
) -> str:
    """The selector of the one element an agent means by ``text``, looking into iframes when
    the page itself has none. ``doing``: the action, and what it did, for the refusals.
    ``drop``: the text names where to drop what is dragged, so the element is the item the
    text labels in a list or grid (a tile, not the small label at its top: ``dropItem`` in
    ``snapshot.js``)."""
    selector, _ = await by_text_how(page, text, doing, drop=drop)
    return selector


async def by_text_how(
    page: Page, text: str, doing: tuple[str, str] = ("click", "clicked"), *, drop: bool = False
) -> tuple[str, str]:
    """:func:`by_text`, and how the text named it (``findText``'s rule): ``"text"`` for no
    control at all, the innermost element that shows the text (an instruction that names a
    button yet to appear, an item of a list the page listens on as a whole); ``"partial"``
    for a control whose name only holds the text ("Delete all messages" for "Delete")."""
    found = await pagescript.run(page, "findText", text=text, limit=TEXT_CANDIDATES_MAX, drop=drop)
    matches: list[dict[str, Any]] = found["matches"]
    total: int = found["total"]
    if total == 0:
        for inner in await all_frames(Located(page.main_frame, "")):
            try:
                more = await pagescript.run(
                    inner.frame, "findText", text=text, limit=TEXT_CANDIDATES_MAX, drop=drop
                )
            except driver.PlaywrightError:
                continue  # a frame that went away has nothing to click
            for match in more["matches"]:
                match["selector"] = inner.prefix + match["selector"]
            matches += more["matches"]
            if more["total"]:
                found["how"] = more["how"]
            total += more["total"]
    if total == 0 and (option := found.get("option")) is not None and option.get("standIn"):
        raise ActionError(
            f'"{text}" is an option of the select {option["select"]}, which the page hides and '
            f"shows its own control for, {named(option['standIn'])}: nothing was {doing[1]}. "
            f'Click that control, then the option "{option["label"]}" it shows.'
        )
    if total == 0 and (option := found.get("option")) is not None:
        raise ActionError(
            f'"{text}" is an option of the select {option["select"]}, whose list the browser '
            f"draws itself: nothing was {doing[1]}. Choose it with browser.type on "
            f'{option["select"]} with the value "{option["label"]}".'
        )
    if total == 0 and (hidden := found.get("hidden")) is not None:
        raise ActionError(hidden_refusal(text, hidden, doing))
    if total == 0 and (among := found.get("among")) is not None:
        raise ActionError(among_refusal(text, among, doing))
    if total == 0:
        where = elsewhere(found)
        raise NotFound(
            f'No visible element has the text "{text}"; take a new snapshot and {doing[0]} by '
            "selector." + (f" {where}" if where else "")
        )
    if total > 1:
        listed = "; ".join(candidate(m) for m in matches)
        more = f"; and {total - len(matches)} more" if total > len(matches) else ""
        raise ActionError(
            f'"{text}" matches {total} elements: {listed}{more}. Nothing was {doing[1]}; '
            f"{doing[0]} one by its selector."
        )
    return str(matches[0]["selector"]), str(found.get("how", ""))


AMONG_WORDS = (
    '"{text}" shows only among other words, in {element}, which is no control: nothing was '
    "{done}. To {act} there anyway, {act} {selector} by selector; to select those words, use "
    "verb.select_text."
)
"""What a by-text action answers when the text shows only inside the words of an element
that is no control (a word of a paragraph), which a click on that text would not press."""


def among_refusal(text: str, among: dict[str, Any], doing: tuple[str, str]) -> str:
    """:data:`AMONG_WORDS` for ``among``, the element whose words hold ``text`` (``findText``
    in ``snapshot.js``)."""
    return AMONG_WORDS.format(
        text=text, element=named(among), done=doing[1], act=doing[0], selector=among["selector"]
    )


def elsewhere(found: Mapping[str, Any]) -> str:
    """Where a text no element shows may yet be, as the page script's search found none
    (``boxes``, ``pageBelow``): in rows a box that scrolls by itself has not drawn, or further
    down a page that goes on below; "" where neither."""
    boxes = found.get("boxes")
    said = [not_drawn_yet(boxes)] if boxes else []
    return " ".join([*said, PAGE_GOES_ON] if found.get("pageBelow") else said)


def not_drawn_yet(boxes: Iterable[Mapping[str, Any]]) -> str:
    """Where a text no element shows may be: in rows the boxes that scroll by themselves have
    not drawn yet, and how to scroll them."""
    return f"{NOT_DRAWN_YET}: {scroll_boxes_named(boxes)}; {BOX_SCROLLED}"


def candidate(match: Mapping[str, Any]) -> str:
    """One of the elements a text matches, as a refusal lists it: its selector, tag and label,
    and the group it is in and its mark where it has them (alike, they tell it apart)."""
    group = f' in "{match["group"]}"' if match.get("group") else ""
    marked = f", marked {match['marked']}" if match.get("marked") else ""
    return f'{match["selector"]} ({match["tag"]} "{match["label"]}"{group}{marked})'


HIDDEN_ALIKE = (
    '"{text}" names {total} controls hidden now (in closed menus, tabs or sections, or shown '
    "only while the pointer is over what holds them): {listed}. Nothing was {done}; show the "
    "one you mean first (hover or open what holds it), then {act} it by its selector."
)
"""What a by-text action answers when several hidden controls read the text alike."""


def hidden_refusal(text: str, hidden: dict[str, Any], doing: tuple[str, str]) -> str:
    """What a by-text action answers when the control that reads exactly ``text`` is hidden
    now (``hiddenNamed`` in ``snapshot.js``): where it is, and what opens it; or, for several
    alike (each row's Delete, shown on hover), each with its row."""
    if alike := hidden.get("alike"):
        total = hidden["alikeTotal"]
        more = f"; and {total - len(alike)} more" if total > len(alike) else ""
        return HIDDEN_ALIKE.format(
            text=text,
            total=total,
            listed="; ".join(candidate(one) for one in alike) + more,
            done=doing[1],
            act=doing[0],
        )
    where = f'"{text}" is {named(hidden)}, hidden now (in a closed menu, tab or section)'
    opener = hidden.get("opener")
    if opener and opener.get("leaves"):  # a link to another page: a click would follow it
        how = f"open it with {named(opener)} first (hover it with verb.hover: it is a link)"
    elif opener:
        how = f"open it with {named(opener)} first (click it, or hover it)"
    elif hidden.get("within"):
        how = f"open {named(hidden['within'])}, which holds it, first (hover it, or click it)"
    else:
        how = "open what holds it first"
    return f"{where}, so nothing was {doing[1]}; {how}, then {doing[0]} it."


WIDGET_ADVICE = {
    "slider": "set it with verb.press_key (ArrowRight, ArrowLeft, Home, End) once a click has "
    "focused it, or verb.drag its handle by offsetX",
    "spinbutton": "step it with verb.press_key (ArrowUp, ArrowDown) once a click has focused "
    "it, or click its arrows",
    "combobox": "click it, then click the option it shows",
    "listbox": "click the option you want in it (where it takes several, verb.mouse with "
    'modifiers ["Control"] adds one to those chosen)',
}
"""What to do instead of typing into a control a page draws with an ARIA role (the extension
says the same, through ``contract.js``)."""


SCROLLS_SIDEWAYS = (
    "{selector} scrolls only sideways, and browser.scroll moves up and down, so nothing was "
    "scrolled; give selector alone with an element in it to bring that into view, or use "
    "verb.mouse with action wheel and deltaX on it."
)
"""The refusal of a direction for a box that scrolls across only (the extension's too)."""


def check_takes_text(selector: str, info: dict[str, Any]) -> None:
    if not info["typable"]:
        advice = WIDGET_ADVICE.get(info.get("role") or "")
        if advice is not None:
            raise ActionError(
                f"{selector} is a {info['role']} the page draws, not a text field, so nothing "
                f"was typed; {advice}."
            )
        if info.get("knob"):
            raise ActionError(
                f"{selector} is the knob of a slider the page draws, not a text field, so "
                "nothing was typed; verb.drag it by offsetX (its value reads where it sits on "
                "its track)."
            )
        if info.get("readsKeys"):
            raise ActionError(
                f"{selector} is not a text field but reads the keys pressed on it, so nothing "
                f"was typed; verb.press_key with selector {selector} and text types them "
                "into it key by key, as a person does."
            )
        if info["tag"] != "input":
            raise ActionError(
                f"{selector} is not a text field; take a new snapshot and pick an input, a "
                "select, a textarea or an editable element (a cell or a label the page edits "
                "in place shows its field once clicked, or double-clicked)."
            )
        raise ActionError(
            f"{selector} is a {info['type']} input, not a text field; use browser.click for it."
        )
    if info.get("readonly"):
        raise ActionError(read_only(selector, info, "nothing was typed"))


def read_only(selector: str, info: dict[str, Any], nothing: str) -> str:
    """The refusal of text for a read-only field; a combobox's list is the page's own, which
    a click opens (Element Plus's and Ant Design's selects)."""
    if info.get("role") == "combobox":
        return (
            f"{selector} is a read-only combobox, so {nothing}; click it, then click the "
            "option you want (a snapshot lists them)."
        )
    return (
        f"{selector} is read-only; {nothing}. Where the page sets it with a picker (a "
        "calendar, a list), click it and choose there."
    )


def check_found(answer: dict[str, Any], selector: str | None) -> None:
    """Refuse the page script's ``error`` answers: a broken selector, a wrong count."""
    error = answer.get("error")
    if error == "invalid":
        raise ActionError(
            f"{selector} is not a valid CSS selector; copy a selector from the latest snapshot."
        )
    if error == "nohost":
        raise ActionError(
            f"{answer['partial']} is neither an iframe nor an element with an open shadow root, "
            f"so {selector} cannot step into it; copy a selector from the latest snapshot."
        )
    if error == "count":
        check_count(int(answer["count"]), answer.get("selector") or selector or "")


def chased(asked: str, selector: str, done: str) -> str:
    """What the agent hears when the element ``asked`` for showed another item once scrolled
    into view (a virtual list draws its rows again as it scrolls), and the element that shows
    the item listed, ``selector``, was the one acted on instead."""
    return (
        f"{asked} showed another item once scrolled into view (the list draws its rows again "
        f"as it scrolls): the item your snapshot listed there is {selector} now, which was "
        f"{done}."
    )


def check_count(count: int, selector: str) -> None:
    if count == 0:
        raise NotFound(f"No element matches {selector}; take a new snapshot.")
    if count > 1:
        raise ActionError(
            f"{selector} matches {count} elements; take a new snapshot and use a selector that "
            "matches exactly one."
        )


_POINTER_ONLY = frozenset({"coveredBy", "through", "inert", "pressedBy", "outside", "offText"})
"""What keeps a pointer from an element and not the keys (``target``'s ``keyboard``)."""

Refusals = tuple[tuple[str, str], ...]
"""Why something cannot be done, in the order checked: the flag the page script sets and the
message the agent reads, filled with the facts of the case."""

_UNUSABLE: Refusals = (
    (
        "disabled",
        "{selector} is disabled, so nothing was {verb}; do what enables it first (fill the "
        "required fields, pick an option) or wait for the page to (verb.wait_for), then take a "
        "new snapshot.",
    ),
    (
        "closedIn",
        "{selector} is in a closed section, so nothing was {verb}; open it first (click "
        "{closed_in}), then take a new snapshot.",
    ),
    (
        "standIn",
        "{selector} is hidden, so nothing was {verb}: the page shows its own control in its "
        "place, {stand_in}; use that instead (click it, then the option it shows).",
    ),
    (
        "blocked",
        "{selector} is out of reach while something else is open: the page shuts it off "
        "({blocked}), so nothing was {verb}. Close what is open first (press Escape, or choose "
        "in it), then try again.",
    ),
    (
        "focusShows",
        "{selector} is see-through until it has the focus (a field drawn only then), so "
        "nothing was {verb}; click what holds it, {focus_shows}, first, then take a new "
        "snapshot.",
    ),
    (
        "hoverShows",
        "{selector} is see-through until the pointer is over what holds it, {hover_shows}, so "
        "nothing was {verb}; hover that first (verb.hover), then take a new snapshot.",
    ),
    (
        "hidden",
        "{selector} is not visible (hidden, or inside a closed menu, tab or dialog), so nothing "
        "was {verb}; open what contains it, or take a new snapshot.",
    ),
    (
        "clipped",
        "{selector} is hidden inside a box that shows only part of what it holds and that a "
        "person cannot scroll (a collapsed section, a clipped card or list), so nothing was "
        '{verb}; open or expand what holds it first (its header, a "more" button, an arrow), '
        "or take a new snapshot.",
    ),
    (
        "pressedBy",
        "{selector} lets clicks through to the control around it, {pressed_by}, so nothing was "
        "{verb}; click that instead (then the option it shows, for a list).",
    ),
    (
        "inert",
        "{selector} does not take clicks (its style lets them through to what is under it), so "
        "nothing was {verb}; the page does not offer it now.",
    ),
    (
        "moving",
        "{selector} kept moving (the page animates it), so nothing was {verb} at a point it may "
        "have left; try again once it stops, or, for one that never does, use verb.mouse at x "
        "and y where it is going (browser.inspect gives its bounds).",
    ),
    (
        "repeated",
        '"{part}" appears {repeated} times in the text of {selector}, so nothing was {verb}; '
        "take a new snapshot and use its selector.",
    ),
    (
        "noText",
        '"{part}" is not drawn as text inside {selector}, so nothing was {verb}; take a new '
        "snapshot and use its selector.",
    ),
    (
        "offText",
        'A press in the middle of "{part}" in {selector} would reach {off} and not that text, '
        "so nothing was {verb}; take a new snapshot and use its selector.",
    ),
    (
        "larger",
        "{selector} is larger than the box that scrolls it (an editor's whole text), and no "
        "point of it a press would take is in that box's view, so nothing was {verb}. Click a "
        "part of it you see (a line, by its text), then type with verb.press_key (text; "
        "Control+a first selects all of it).",
    ),
    (
        "outside",
        "{selector} is outside the visible part of its container, so nothing was {verb}; "
        "scroll to it with browser.scroll, or take a new snapshot.",
    ),
    (
        "through",
        "A press inside {selector} reaches {through} under it: {selector} lets the pointer "
        "through there (drawn as an outline, say), so nothing was {verb}; press a point on its "
        "drawn part with verb.mouse (x and y as a capture shows them).",
    ),
    (
        "coveredBy",
        "{selector} is covered by {cover}, so nothing was {verb}. Close or dismiss what covers "
        "it first (a dialog's close button or Escape (verb.press_key), a banner's accept or "
        "reject button; a tooltip or a menu that "
        "showed on hover goes once the pointer moves off: verb.mouse with action move), then "
        "try again.",
    ),
)


def first_refusal(refusals: Refusals, flags: dict[str, Any], **facts: object) -> str | None:
    """The message of the first of ``refusals`` whose flag is set in ``flags``, if any."""
    for flag, message in refusals:
        if flags.get(flag):
            return message.format(**facts)
    return None


def _renamed(changed: object) -> str:
    """How an item drawn again in the same element reads now (snapshot.js's ``changed``)."""
    if not isinstance(changed, dict):
        return ""
    if changed.get("around"):  # a row drawn again for another item
        return f': it is in "{changed["now"]}" now, listed in "{changed["was"]}"'
    return f': it reads "{changed["now"]}" now, listed as "{changed["was"]}"'


def check_usable(selector: str, info: dict[str, Any], done: str) -> None:
    """Refuses, saying why, what the page script found ``selector`` unfit for (``done``:
    what would have been done): disabled, hidden, clipped, covered..."""
    aim: dict[str, Any] = info.get("aim") or {}
    why = first_refusal(
        _UNUSABLE,
        {"disabled": info.get("disabled"), **aim},
        selector=selector,
        verb=done,
        part=aim.get("text"),
        repeated=aim.get("repeated"),
        off=named(aim.get("offText")),
        closed_in=named(aim.get("closedIn")),
        stand_in=named(aim.get("standIn")),
        hover_shows=named(aim.get("hoverShows")),
        focus_shows=named(aim.get("focusShows")),
        pressed_by=named(aim.get("pressedBy")),
        blocked=named(aim.get("blocked")),
        through=named(aim.get("through")),
        cover=named(aim.get("coveredBy")),
    )
    if why is not None:
        raise ActionError(why)


def scroll_boxes_named(boxes: Iterable[Mapping[str, Any]]) -> str:
    """The boxes that scroll by themselves (``snapshot.js``'s ``scrollBoxes``) as the agent
    finds them: ``#people list "People" (scroll 0/14880)``, in backticks, one after another."""
    return ", ".join(
        " ".join(
            filter(
                None,
                (
                    f"`{box['selector']}`",
                    box.get("role"),
                    f'"{box["name"]}"' if box.get("name") else None,
                    f"(scroll {box['scrollY']}/{box['maxScrollY']})",
                ),
            )
        )
        for box in boxes
    )


def named(element: dict[str, Any] | None) -> str:
    """An element the page script named (a cover, what a press would reach), as the agent
    finds it: ``#banner (div "We use cookies")``."""
    return f"{element['selector']} ({_described(element)})" if element else ""


def _described(element: dict[str, Any]) -> str:
    """An element the page script named (a cover, what a press would reach): its tag and
    label, as ``div "We use cookies"``."""
    label = element.get("label")
    return f'{element["tag"]} "{label}"' if label else str(element["tag"])


def not_showing(selector: str, text: str, label: str) -> str:
    """What a click given a selector and a text says when the element does not show the text:
    the two name different elements, and which one is meant is the agent's to say."""
    reads = f'reads "{label}", not "{text}"' if label else f'does not show "{text}"'
    return (
        f"{selector} {reads}, so nothing was clicked: give the selector or the text alone, or "
        "take a new snapshot."
    )
