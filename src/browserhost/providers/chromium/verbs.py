"""The chromium provider's own verbs, beyond the ten actions.

Each is a method declared with :func:`~browserhost.sdk.verb` on :class:`ChromiumVerbs`, which
:class:`~.provider.ChromiumProvider` inherits: the host lists them, checks their arguments
against the schema of their pydantic model, and sends them like any action. ``evaluate`` runs
page JavaScript, so it is offered only when the user turned it on in the provider's
configuration (``BROWSERHOST_CHROMIUM_EVALUATE=1``); an agent cannot turn it on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from browserhost.contract import Context
from browserhost.providers.pointer_verbs import (
    DragArguments,
    HoverArguments,
    MouseArguments,
    SelectTextArguments,
)
from browserhost.sdk import ActionError, Provider, VerbArguments, verb

from . import fields, pagescript, targets
from .errors import playwright_errors
from .targets import Located

if TYPE_CHECKING:
    from playwright.async_api import Page

    from .contexts import ContextPool, Tab
    from .launch import ChromiumConfig
    from .provider import Opened, Settled, Timeouts

FIND_LIMIT_MAX = 100
WAIT_MAX_S = 15.0
"""The longest wait_for: inside the host's 20 s deadline for a verb."""
FILES_MAX = 10
EVALUATE_RESULT_MAX = 10_000
DRAG_STEPS = 10
"""The moves between a drag's press and its release: libraries that start a drag only past a
few pixels of motion (jQuery UI, SortableJS, a slider) see it move, and the page's own drag
and drop sees it pass over what lies between."""

Point = tuple[float, float]


class FindArguments(VerbArguments):
    text: str = Field(min_length=1, description="Text (or a regular expression) to look for.")
    regex: bool = Field(False, description="Read text as a regular expression.")
    limit: int = Field(20, ge=1, le=FIND_LIMIT_MAX, description="Most matches to return.")


class PressKeyArguments(VerbArguments):
    key: str = Field(
        min_length=1,
        max_length=64,
        description="A key or chord: Enter, Escape, Tab, ArrowDown, Control+a, Shift+Tab.",
    )
    selector: str | None = Field(None, description="Focus this element first.")


class WaitForArguments(VerbArguments):
    text: str | None = Field(None, min_length=1, description="Visible text to wait for.")
    selector: str | None = Field(None, min_length=1, description="A CSS selector to wait for.")
    gone: bool = Field(False, description="Wait for it to disappear instead.")
    timeout_s: float = Field(10.0, gt=0, le=WAIT_MAX_S, description="How long to wait.")


class FormField(VerbArguments):
    selector: str = Field(min_length=1)
    value: str | bool = Field(
        description="Text to fill, an option's label, or true/false for a checkbox or radio."
    )


class FillFormArguments(VerbArguments):
    fields: list[FormField] = Field(min_length=1, max_length=50)


class DialogArguments(VerbArguments):
    accept: bool = Field(description="Accept (OK) or dismiss (Cancel) the dialog.")
    text: str | None = Field(None, max_length=1000, description="What to answer a prompt.")


class UploadArguments(VerbArguments):
    selector: str = Field(min_length=1, description="The file input.")
    files: list[str] = Field(
        min_length=1,
        max_length=FILES_MAX,
        description="Paths inside the project directory, relative to it.",
    )


class TabsArguments(VerbArguments):
    action: Literal["list", "switch", "close"] = "list"
    index: int | None = Field(
        None, ge=0, description="For switch and close: the tab, as list numbers them."
    )


class EvaluateArguments(VerbArguments):
    expression: str = Field(min_length=1, max_length=10_000)


class ChromiumVerbs(Provider):
    """The verbs; :class:`~.provider.ChromiumProvider` supplies the browser they run on."""

    if TYPE_CHECKING:
        config: ChromiumConfig
        timeouts: Timeouts
        _pool: ContextPool

        def _using(self, context: Context, action: str) -> AbstractAsyncContextManager[Tab]: ...
        async def _settle(
            self, tab: Tab, page: Page, budget_s: float, *, opened: Opened = None
        ) -> Settled: ...

    def registration(self) -> dict[str, Any]:
        record = super().registration()
        if not self.config.allow_evaluate:
            record["verbs"] = [v for v in record["verbs"] if v["name"] != "evaluate"]
        return record

    @verb(
        "Find text anywhere on the page, without scrolling or reading it all. Returns the "
        "matches in reading order: an interactive element whose label or text matches with "
        "its selector, state and the text around it; any other text (a heading, a list item, "
        "a table cell) with its tag, selector and near: the interactive elements nearest it "
        "(its own links, then those after it in its list item, row or section), to act on.",
        changes_page=False,
    )
    async def find(self, arguments: FindArguments, context: Context) -> dict[str, Any]:
        async with self._using(context, "verb.find") as tab:
            found = await pagescript.run(
                await tab.page(), "find", text=arguments.text, regex=arguments.regex,
                limit=arguments.limit,
            )  # fmt: skip
            if found.get("error") == "regex":
                raise ActionError(f"{arguments.text!r} is not a valid regular expression.")
            return {"total": found["total"], "elements": found["elements"]}

    @verb("Press a key or a chord (Escape, Enter, ArrowDown, Control+a), on an element or page.")
    async def press_key(self, arguments: PressKeyArguments, context: Context) -> dict[str, Any]:
        async with self._using(context, "verb.press_key") as tab:
            page = await tab.page()
            with playwright_errors("verb.press_key", selector=arguments.selector):
                if arguments.selector is not None:
                    aimed = await targets.target(page, arguments.selector, "type", watch=True)
                    await (await aimed.handle()).press(arguments.key)
                else:
                    await page.keyboard.press(arguments.key)
            shown = tab.current() or page
            settled = await self._settle(tab, shown, self.timeouts.input_settle_s)
            return {"key": arguments.key, "url": shown.url, "title": await settled.title(shown)}

    @verb(
        "Move the mouse over an element, named by selector or by its visible text (as a click "
        "by text finds it): menus and tooltips that open on hover. Answers what was under the "
        "pointer before (start) and after (end)."
    )
    async def hover(self, arguments: HoverArguments, context: Context) -> dict[str, Any]:
        async with self._using(context, "verb.hover") as tab:
            page = await tab.page()
            selector, aimed = await _checked_source(
                page, arguments.selector, arguments.text, ("hover", "hovered")
            )
            end = aimed.point
            start = _last_pointer(tab, page) or end
            before = await _under(page, [start], watch=True)
            with playwright_errors("verb.hover"):
                await pagescript.answering(page.mouse.move(*end))
            return {
                "hovered": selector,
                "label": aimed.info["label"],
                **await self._pointed(tab, page, (start, before), end),
            }

    @verb(
        "Drag an element (selector, or its visible text) and drop it on another (toSelector "
        "or toText), or at an offset from where it is pressed (offsetX, offsetY in CSS "
        "pixels; the drop point must stay in the viewport): press, move in steps, release, as "
        "a person does. For draggable items, sortable lists, sliders and boxes moved by hand. "
        "Answers what was under the pointer where it pressed (start) and, once the page "
        "settled, where it released (end)."
    )
    async def drag(self, arguments: DragArguments, context: Context) -> dict[str, Any]:
        async with self._using(context, "verb.drag") as tab:
            page = await tab.page()
            selector, aimed = await _checked_source(
                page, arguments.selector, arguments.text, ("drag", "dragged")
            )
            start = aimed.point
            if arguments.to_selector is None and arguments.to_text is None:
                end = (start[0] + (arguments.offset_x or 0), start[1] + (arguments.offset_y or 0))
            else:
                start, end = await _drop_point(page, selector, aimed, arguments)
            before = await _under(page, [start], watch=True)
            if not _inside(end, before):
                raise ActionError(
                    f"The drop point ({end[0]:g}, {end[1]:g}), that far from where {selector} is "
                    f"pressed ({start[0]:g}, {start[1]:g}), is outside the viewport, which is "
                    f"{_size(before)} CSS pixels; nothing was dragged. Give a smaller offset, or "
                    "scroll first."
                )
            with playwright_errors("verb.drag"):
                await _drag(page, start, end)
            return {
                "dragged": selector,
                "label": aimed.info["label"],
                **await self._pointed(tab, page, (start, before), end),
            }

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
        async with self._using(context, "verb.select_text") as tab:
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
            targets.check_found(found, within)
            _check_selectable(found, text, within)
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
            return {
                "selected": chosen["selected"],
                "selector": located.prefix + found["selector"],
                **await self._ended(tab, page, (start, before), end, shown, settled, by_mouse),
            }

    @verb(
        "Use the mouse at a point of the viewport, where no element is named: move, click "
        "(clickCount 2 for a double click), down and up (press and release apart, with moves "
        "between, to draw or drag by hand), or wheel (deltaX, deltaY: scroll what is under "
        "the point). x and y are CSS pixels from the viewport's top left corner, the pixels of "
        "a browser.capture (taken at scale 1 of the viewport). Answers what was under the "
        "pointer before (start) and after (end)."
    )
    async def mouse(self, arguments: MouseArguments, context: Context) -> dict[str, Any]:
        action, point = arguments.action, (arguments.x, arguments.y)
        if action == "wheel" and not (arguments.delta_x or arguments.delta_y):
            raise ActionError(
                "wheel needs deltaX or deltaY, the pixels to scroll; nothing was done."
            )
        async with self._using(context, "verb.mouse") as tab:
            page = await tab.page()
            start = _last_pointer(tab, page) or point
            before = await _under(page, [start], watch=True)
            if not _inside(point, before):
                raise ActionError(
                    f"({point[0]:g}, {point[1]:g}) is outside the viewport, which is "
                    f"{_size(before)} CSS pixels (x and y from 0 up to those); nothing was done."
                )
            mouse, button, count = page.mouse, arguments.button, arguments.click_count
            with playwright_errors("verb.mouse"):
                # Each input is answered once the page has handled it: a handler that never
                # returns leaves it unanswered.
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
                    await pagescript.answering(mouse.wheel(arguments.delta_x, arguments.delta_y))
            return await self._pointed(tab, page, (start, before), point)

    async def _pointed(
        self, tab: Tab, page: Page, started: tuple[Point, dict[str, Any]], end: Point
    ) -> dict[str, Any]:
        """A pointer verb's answer once the page settled: see :meth:`_ended`."""
        shown, settled = await self._settled(tab, page)
        return await self._ended(tab, page, started, end, shown, settled, True)

    async def _settled(self, tab: Tab, page: Page) -> tuple[Page, Settled]:
        """The page shown after the input (a window a click opened), once it settled."""
        shown = tab.current() or page
        return shown, await self._settle(tab, shown, self.timeouts.input_settle_s)

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
        under it at the start and is under it now at the end, the page shown, and the dialogs
        the input caused."""
        start, before = started
        after = None if page.is_closed() else (await _under(page, [end]))["under"][0]
        if moved:
            tab.pointer = (page, *end)
        answer: dict[str, Any] = {
            "start": _at(start, before["under"][0]),
            "end": _at(end, after),
            "url": shown.url,
            "title": await settled.title(shown),
        }
        dialogs = tab.take_dialogs()
        if dialogs:
            answer["dialogs"] = [dialog.model_dump(mode="json") for dialog in dialogs]
        return answer

    @verb(
        "Wait until a text or selector appears (or, with gone, disappears), up to timeoutS.",
        changes_page=False,
    )
    async def wait_for(self, arguments: WaitForArguments, context: Context) -> dict[str, Any]:
        if (arguments.text is None) == (arguments.selector is None):
            raise ActionError("wait_for takes text or selector (one of them).")
        async with self._using(context, "verb.wait_for") as tab:
            page = await tab.page()
            what = arguments.text if arguments.text is not None else arguments.selector
            locator = (
                page.get_by_text(arguments.text)
                if arguments.text is not None
                else page.locator(f"css={arguments.selector}")
            ).first
            state: Literal["hidden", "visible"] = "hidden" if arguments.gone else "visible"
            with playwright_errors(
                "verb.wait_for",
                on_timeout=f"{what!r} did not {'go' if arguments.gone else 'appear'} within "
                f"{arguments.timeout_s:g} s; take a snapshot to see the page.",
            ):
                await locator.wait_for(state=state, timeout=arguments.timeout_s * 1000)
            return {"waitedFor": what, "state": state, "url": page.url}

    @verb("Fill several fields at once: text fields, selects, checkboxes and radios.")
    async def fill_form(self, arguments: FillFormArguments, context: Context) -> dict[str, Any]:
        async with self._using(context, "verb.fill_form") as tab:
            page = await tab.page()
            filled = []
            for field in arguments.fields:
                aimed = await targets.target(page, field.selector, "inspect")
                info = aimed.info
                with playwright_errors("verb.fill_form", selector=field.selector):
                    if info.get("type") in ("checkbox", "radio"):
                        wanted = _checked(field, info["type"])
                        if info["checked"] != wanted:  # a click where a person would toggle it
                            pressed = await targets.target(page, field.selector, "click")
                            await page.mouse.click(*pressed.point)
                    elif not isinstance(field.value, str):
                        raise ActionError(
                            f"{field.selector} takes text, not {field.value}; nothing more set."
                        )
                    elif info.get("readonly"):
                        raise ActionError(f"{field.selector} is read-only; nothing more set.")
                    elif info["typable"]:
                        # Checked as browser.type checks it: shown, enabled, not covered.
                        aimed = await targets.target(page, field.selector, "type", text=field.value)
                        await fields.fill(page, aimed, field.selector, field.value)
                    else:
                        raise ActionError(f"{field.selector} is not a field; nothing more set.")
                state = await pagescript.run(aimed.located.frame, "state")
                filled.append({"selector": field.selector, **(state.get("state") or {})})
            return {"filled": filled}

    @verb(
        "Answer an alert, confirm or prompt: accept (with text for a prompt) or dismiss. "
        "Answers the dialog that is open, if one is; otherwise plans the answer to the next "
        "one, so call it before the action that shows it. Dialogs nobody planned for are "
        "answered as the user configured (by default dismissed) or left open for this verb."
    )
    async def dialog(self, arguments: DialogArguments, context: Context) -> dict[str, Any]:
        tab = self._pool.peek(context.key)
        if tab is not None and tab.held is not None:
            return await self._answer_open_dialog(tab, arguments)
        async with self._using(context, "verb.dialog") as tab:
            tab.dialog_plan = (arguments.accept, arguments.text)
            return {"next": "accept" if arguments.accept else "dismiss"}

    async def _answer_open_dialog(self, tab: Tab, arguments: DialogArguments) -> dict[str, Any]:
        """Answer the dialog left open, without the tab's lock (the action it stopped holds
        that), then let that action finish (bounded) and tell what the page shows now."""
        from playwright.async_api import Error as PlaywrightError

        held, behind = tab.take_held()
        with contextlib.suppress(PlaywrightError):  # its page closed meanwhile
            if arguments.accept:
                text = arguments.text if arguments.text is not None else held.default_value
                await held.accept(text)
            else:
                await held.dismiss()
        if behind is not None:
            await asyncio.wait((behind,), timeout=self.timeouts.input_settle_s + 1)
        answer = "accepted" if arguments.accept else "dismissed"
        page = tab.current()
        return {
            "answered": {"type": held.type, "message": held.message, "answer": answer},
            "url": page.url if page is not None else "about:blank",
        }

    @verb("Put files from the project directory into a file input.")
    async def upload(self, arguments: UploadArguments, context: Context) -> dict[str, Any]:
        paths = project_files(context.directory, arguments.files)
        async with self._using(context, "verb.upload") as tab:
            aimed = await targets.target(await tab.page(), arguments.selector, "inspect")
            if aimed.info.get("type") != "file":
                raise ActionError(f"{arguments.selector} is not a file input.")
            with playwright_errors("verb.upload", selector=arguments.selector):
                await (await aimed.handle()).set_input_files(paths)
            return {"selector": arguments.selector, "files": [p.name for p in paths]}

    @verb(
        "List the tabs (the page and the windows it opened), in the order they opened; switch "
        "to one or close one by its number."
    )
    async def tabs(self, arguments: TabsArguments, context: Context) -> dict[str, Any]:
        async with self._using(context, "verb.tabs") as tab:
            await tab.page()
            pages = tab.pages()
            if arguments.action != "list":
                if arguments.index is None or arguments.index >= len(pages):
                    raise ActionError(
                        f"{arguments.action} needs the index of a tab, one of "
                        f"0..{len(pages) - 1}, as tabs list numbers them."
                    )
                chosen = pages[arguments.index]
                if arguments.action == "switch":
                    await tab.show(chosen)
                else:
                    await chosen.close()
                pages = tab.pages()
            current = tab.current()
            listed = [
                {
                    "index": i,
                    "url": p.url,
                    "title": await pagescript.title(p),
                    "current": p is current,
                }
                for i, p in enumerate(pages)
            ]
            return {"tabs": listed}

    @verb("Run a JavaScript expression in the page and return its JSON value.")
    async def evaluate(self, arguments: EvaluateArguments, context: Context) -> dict[str, Any]:
        if not self.config.allow_evaluate:
            raise ActionError("evaluate is turned off; only the user can turn it on.")
        async with self._using(context, "verb.evaluate") as tab:
            with playwright_errors("verb.evaluate"):
                page = await tab.page()
                value = await pagescript.answering(page.evaluate(arguments.expression))
            text = json.dumps(value, default=str)
            if len(text) > EVALUATE_RESULT_MAX:
                raise ActionError(f"The result is over {EVALUATE_RESULT_MAX} characters of JSON.")
            return {"value": value}


def project_files(directory: str | None, names: list[str]) -> list[Path]:
    """The files ``names`` inside the project ``directory``; refuses any outside it (a
    ``..`` or a link that leads out) or missing."""
    if directory is None:
        raise ActionError("There is no project directory to upload from.")
    root = Path(directory).resolve()
    paths = []
    for name in names:
        path = (root / name).resolve()
        if not path.is_relative_to(root):
            raise ActionError(f"{name} is outside the project directory; nothing was set.")
        if not path.is_file():
            raise ActionError(f"{name} is not a file in the project; nothing was set.")
        paths.append(path)
    return paths


_YES = frozenset({"true", "yes", "on", "checked"})
_NO = frozenset({"false", "no", "off", "unchecked"})


def _checked(field: FormField, kind: str) -> bool:
    """Whether ``field`` asks for its checkbox or radio to be checked; refuses anything that
    is not a clear yes or no, and unchecking a radio (a person picks another one instead)."""
    said = str(field.value).strip().lower()
    if said not in _YES | _NO:
        raise ActionError(
            f"{field.selector} is a {kind}: give true or false, not {field.value!r}; "
            "nothing more set."
        )
    if kind == "radio" and said in _NO:
        raise ActionError(
            f"{field.selector} is a radio: choose another one of its group instead of "
            "unchecking it; nothing more set."
        )
    return said in _YES


async def _checked_source(
    page: Page, selector: str | None, text: str | None, doing: tuple[str, str]
) -> tuple[str, targets.Target]:
    """The element named by ``selector`` or by its visible ``text`` (as a click by text finds
    it), checked as a click's target: shown, enabled, not covered where it is pressed."""
    from .provider import _by_text  # the provider module imports this one

    if selector is None:
        selector = await _by_text(page, text or "", doing)
    return selector, await targets.target(page, selector, "click", fresh=text is not None)


async def _drop_point(
    page: Page, selector: str, dragged: targets.Target, arguments: DragArguments
) -> tuple[Point, Point]:
    """Where to press what is dragged and where to release it on the element the agent
    names; refuses a drop a person could not make."""
    from .provider import _by_text

    to = arguments.to_selector
    if to is None:
        to = await _by_text(page, arguments.to_text or "", ("drag", "dragged"))
    located = await targets.locate(page, to)
    if located.frame is not dragged.located.frame:
        raise ActionError(
            f"{to} is in another frame than {selector}, so nothing was dragged; drag within "
            "one frame."
        )
    found = await pagescript.run(
        located.frame, "dropTarget", selector=located.selector, fresh=arguments.to_text is not None
    )
    targets.check_found(found, to)
    why = _no_drop(found, selector, to)
    if why is not None:
        raise ActionError(why)
    start = dragged.point
    if found.get("from") is not None:  # the page scrolled to the drop point
        start = (located.x + found["from"]["x"], located.y + found["from"]["y"])
    return start, (located.x + found["to"]["x"], located.y + found["to"]["y"])


def _no_drop(found: dict[str, Any], selector: str, to: str) -> str | None:
    if found.get("gone"):
        return f"{selector} went away, so nothing was dragged; take a new snapshot."
    if found.get("changed"):
        return (
            f"{to} no longer names the element your latest snapshot listed (the page changed), "
            "so nothing was dragged; take a new snapshot."
        )
    if found.get("inside"):
        return (
            f"{to} is {selector} itself or inside it, so nothing was dragged; drop it on "
            "another element, or give an offset."
        )
    if found.get("hidden"):
        return (
            f"{to} is not visible, so nothing was dragged; open what contains it, or take a "
            "new snapshot."
        )
    if found.get("apart"):
        return (
            f"{selector} and {to} do not fit in the viewport together, so nothing was "
            "dragged; drag it nearer in steps (by offset), or use a larger viewport."
        )
    if found.get("outside"):
        return (
            f"{to} is outside the visible part of its container, so nothing was dragged; "
            "scroll to it with browser.scroll, or take a new snapshot."
        )
    if found.get("coveredBy") is not None:
        return f"{to} is covered by {_cover(found['coveredBy'])}, so nothing was dragged. {_CLEAR}"
    return None


def _check_selectable(found: dict[str, Any], text: str, within: str | None) -> None:
    where = f"in {within}" if within else "on the page"
    if found.get("missing"):
        raise ActionError(
            f'No visible text "{text}" {where}, so nothing was selected; take a new snapshot '
            "and copy the text as it shows it."
        )
    if found.get("unselectable"):
        raise ActionError(
            f'"{text}" cannot be selected: the page turned selection off there (user-select: '
            "none). Nothing was selected."
        )
    if found.get("hidden"):
        raise ActionError(
            f'"{text}" could not be brought into view, so nothing was selected; scroll to it '
            "with browser.scroll."
        )
    if found.get("long"):
        raise ActionError(
            f'"{text}" does not fit in the viewport, so nothing was selected; select a shorter '
            "text, or use a larger viewport."
        )
    if found.get("coveredBy") is not None:
        raise ActionError(
            f'"{text}" is covered by {_cover(found["coveredBy"])}, so nothing was selected. '
            f"{_CLEAR}"
        )


_CLEAR = "Close or dismiss what covers it first, then try again."


def _cover(cover: dict[str, Any]) -> str:
    label = f' "{cover["label"]}"' if cover.get("label") else ""
    return f"{cover['selector']} ({cover['tag']}{label})"


async def _drag(page: Page, start: Point, end: Point) -> None:
    """Press at ``start``, move to ``end`` in steps, release there; each input answered once
    the page has handled it. With the button down, Playwright carries Chromium's own drag and
    drop (``draggable`` elements) too."""
    mouse = page.mouse
    await pagescript.answering(mouse.move(*start))
    await pagescript.answering(mouse.down())
    await pagescript.answering(mouse.move(*end, steps=DRAG_STEPS))
    await pagescript.answering(mouse.up())


async def _under(page: Page, points: list[Point], *, watch: bool = False) -> dict[str, Any]:
    """What is under each viewport point (``under``) and the viewport's size. ``watch``
    starts watching the page's timers for the wait after the input: it must then be the last
    question before it."""
    spots = [{"x": x, "y": y} for x, y in points]
    read: dict[str, Any] = await pagescript.run(page, "pointer", points=spots, watch=watch)
    return read


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
