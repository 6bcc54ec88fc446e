"""The chromium provider's own verbs on the page, beyond the ten actions (the pointer's are
in :mod:`.pointer`).

Each is a method declared with :func:`~browserhost.sdk.verb` on :class:`PageVerbs`, which
:class:`~.provider.ChromiumProvider` inherits, and runs on the tab its ``access`` gives (a
:class:`~.access.TabAccess`): the host lists them, checks their arguments against the schema
of their pydantic model, and sends them like any action. ``evaluate`` runs page JavaScript,
so it is offered only when the user turned it on in the provider's configuration
(``BROWSERHOST_CHROMIUM_EVALUATE=1``); an agent cannot turn it on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, WithJsonSchema

from browserhost.contract import Context
from browserhost.providers.key_verbs import (
    PRESS_KEY_HELP,
    PressKeyArguments,
    chord_parts,
    is_key,
    not_a_key,
    not_focused,
    to_the_page,
)
from browserhost.sdk import ActionError, Provider, VerbArguments, verb

from . import driver, fields, navigation, pagescript, targets
from .errors import playwright_errors
from .inputs import after_typing, form_refused, led_to, notices, page_says, press, with_dialogs

if TYPE_CHECKING:
    from playwright.async_api import Locator, Page

    from .access import TabAccess
    from .contexts import Tab
    from .launch import ChromiumConfig
    from .records import Settled

FIND_LIMIT_MAX = 100
WAIT_MAX_S = 15.0
"""The longest wait_for: inside the host's 20 s deadline for a verb."""
FILES_MAX = 10
EVALUATE_RESULT_MAX = 10_000


class FindArguments(VerbArguments):
    text: str = Field(min_length=1, description="Text (or a regular expression) to look for.")
    regex: bool = Field(False, description="Read text as a regular expression.")
    limit: int = Field(20, ge=1, le=FIND_LIMIT_MAX, description="Most matches to return.")


class WaitForArguments(VerbArguments):
    text: str | None = Field(None, min_length=1, description="Visible text to wait for.")
    selector: str | None = Field(None, min_length=1, description="A CSS selector to wait for.")
    gone: bool = Field(False, description="Wait for it to disappear instead.")
    timeout_s: float = Field(
        10.0, gt=0, le=WAIT_MAX_S, description="How long to wait for the text or selector."
    )
    seconds: Annotated[
        float | None,
        # A plain number in the schema the host checks: under anyOf with null, its refusal
        # past the bound would say only "not valid under any of the given schemas".
        WithJsonSchema({"type": "number", "exclusiveMinimum": 0, "maximum": WAIT_MAX_S}),
    ] = Field(
        None,
        gt=0,
        le=WAIT_MAX_S,
        description="Or wait just this many seconds (a page that changes after a delay).",
    )


_MATCHED_MAX = 100
"""The most characters of a matched element's text that wait_for's answer shows."""

_DESCRIBE_MATCH = """(el, max) => {
  const text = (el.innerText || el.textContent || "").replace(/\\s+/g, " ").trim();
  return { tag: el.localName, text: text.length > max ? text.slice(0, max - 1) + "\u2026" : text };
}"""


async def _read_again(page: Page, filled: dict[str, Any]) -> None:
    """A text field fill_form filled, read again once the others are: a field that takes
    only a choice from its list (an autocomplete) empties, or a formatted one rewrites, what
    was typed as it loses focus. Its value then, and a notice; a field gone says nothing."""
    selector, was = filled["selector"], filled["value"]
    try:
        now = (await targets.target(page, selector, "inspect")).info.get("value")
    except (ActionError, driver.PlaywrightError):
        return
    if not isinstance(now, str) or now == was:
        return
    held = f"holds {now!r} now" if now else "is empty now"
    told = (
        f"The page changed {selector} after it was filled, as the next field took the focus: "
        f"it {held}, not {was!r} (a field that takes only a choice from its list, or one it "
        "formats); take a snapshot to see why."
    )
    filled["value"] = now
    filled["notice"] = f"{filled['notice']} {told}" if filled.get("notice") else told


async def _focused(page: Page) -> str | None:
    """The element the keys now go to (a Tab moved it), as ``#name (input "Name")``; None
    where it is the page itself. Unread where the page is gone or between documents."""
    if page.is_closed() or navigation.awaited_server(page) is not None:
        return None  # a page waiting for its server's next document runs no script
    try:
        focused: dict[str, Any] = await pagescript.run(page, "focused")
    except driver.PlaywrightError:
        return None
    # An iframe holds the focus: the element inside it that has it (and inside its own).
    for _ in range(targets.FRAME_DEPTH_MAX):
        if focused.get("tag") not in ("iframe", "frame"):
            break
        try:
            located = await targets.locate(page, focused["selector"] + targets.HOP + "body")
            inner = await pagescript.run(located.frame, "focused")
        except (ActionError, driver.PlaywrightError):
            break  # a frame gone or out of reach: the iframe is what is known
        if not inner.get("selector"):
            break
        focused = {**inner, "selector": located.prefix + inner["selector"]}
    return targets.named(focused) if focused.get("selector") else None


def _shown_before(text: str, matched: dict[str, str]) -> str | None:
    """What a wait for ``text`` that ended at once says, when all that matched is a longer
    text the page showed before the wait (its own instructions that name a button yet to
    come): nothing new appeared."""
    if " ".join(matched["text"].split()).casefold() == " ".join(text.split()).casefold():
        return None
    return (
        f"{text!r} was on the page before the wait began, in {matched['tag']} "
        f'"{matched["text"]}", so the wait ended at once. To wait for it to appear elsewhere '
        "(a button, a message), give more of its words or a selector."
    )


_CUT_AWAY = """(el) => {
  const rect = el.getBoundingClientRect();
  for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
    const { overflowX, overflowY } = getComputedStyle(up);
    const box = up.getBoundingClientRect();
    const across = rect.right <= box.left || rect.left >= box.right;
    const along = rect.bottom <= box.top || rect.top >= box.bottom;
    if ((/hidden|clip/.test(overflowX) && across) || (/hidden|clip/.test(overflowY) && along)) {
      return true;
    }
  }
  return false;
}"""
"""Whether a box that hides what overflows it (a collapsed panel, max-height 0) cuts the
element away, which Playwright still calls visible."""
DRAWN_POLL_S = 0.1


async def _until_drawn(
    locator: Locator, state: Literal["hidden", "visible"], timeout_s: float
) -> None:
    """Wait as Playwright's ``wait_for`` does, and for what a person sees: an element inside a
    panel still collapsed has not appeared, and has gone once its panel collapses."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while True:
        if state == "visible":
            left_s = max(deadline - loop.time(), 0.001)
            await locator.wait_for(state="visible", timeout=left_s * 1000)
            if not await _cut_away(locator):
                return
        elif not await locator.is_visible() or await _cut_away(locator):
            return
        if loop.time() >= deadline:
            raise driver.PlaywrightTimeoutError(f"not {state} within {timeout_s:g} s")
        await asyncio.sleep(DRAWN_POLL_S)


async def _cut_away(locator: Locator) -> bool:
    try:
        return bool(await locator.evaluate(_CUT_AWAY, timeout=DRAWN_POLL_S * 10_000))
    except driver.PlaywrightError:
        return True  # gone meanwhile: not shown


async def _matched(locator: Locator) -> dict[str, str] | None:
    try:
        described: dict[str, str] = await locator.evaluate(
            _DESCRIBE_MATCH, _MATCHED_MAX, timeout=1000
        )
    except driver.PlaywrightError:
        return None
    return described


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


class PageVerbs(Provider):
    """The page verbs, each run on the context key's tab as one action."""

    access: TabAccess
    """The tabs the verbs run on: the provider's."""
    config: ChromiumConfig

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
        async with self.access.using(context, "verb.find") as tab:
            page = await tab.page()
            found = await pagescript.run(
                page, "find", text=arguments.text, regex=arguments.regex, limit=arguments.limit
            )
            if found.get("error") == "regex":
                raise ActionError(f"{arguments.text!r} is not a valid regular expression.")
            total, elements = found["total"], found["elements"]
            # The iframes shown in the page, as a snapshot reads them: their text is the page's.
            for inner in await targets.all_frames(targets.Located(page.main_frame, "")):
                if len(elements) >= arguments.limit:
                    break
                try:
                    more = await pagescript.run(
                        inner.frame, "find", text=arguments.text, regex=arguments.regex,
                        limit=arguments.limit - len(elements),
                    )  # fmt: skip
                except driver.PlaywrightError:
                    continue  # a frame that went away holds nothing
                total += more["total"]
                elements += [_in_frame(element, inner) for element in more["elements"]]
            where = targets.elsewhere(found) if not total else ""
            if where:  # an agent must not take "none" for "not there"
                return {"total": 0, "elements": [], "notice": where}
            return {"total": total, "elements": elements}

    @verb(PRESS_KEY_HELP)
    async def press_key(self, arguments: PressKeyArguments, context: Context) -> dict[str, Any]:
        chord = None if arguments.key is None else chord_parts(arguments.key)
        if chord is not None and not all(map(is_key, chord)):
            # Refused before anything is focused or typed, not half-way.
            raise ActionError(not_a_key(arguments.key or ""))
        key = None if chord is None else "+".join(chord)
        async with self.access.using(context, "verb.press_key") as tab:
            page = await tab.page()
            before = None
            with playwright_errors("verb.press_key", selector=arguments.selector):
                if arguments.selector is not None:
                    aimed = await targets.target(
                        page, arguments.selector, "type", watch=True, keyboard=True, done="pressed"
                    )
                    if aimed.info.get("editor"):  # its keys go to a field it hides
                        await fields.press_editor(page, aimed, arguments.selector)
                    else:
                        await (await aimed.handle()).focus()
                        if not await pagescript.run(aimed.located.frame, "keysReach"):
                            raise ActionError(not_focused(arguments.selector, await _focused(page)))
                else:
                    before = await _focused(page)
                if arguments.text is not None:
                    await fields.type_keys(page, arguments.text)
                if key is not None:
                    await pagescript.answering(page.keyboard.press(fields.shifted(key)))
            shown = tab.current() or page
            settled = await self.access.settle(tab, shown)
            said = {"typed": arguments.text} if arguments.text is not None else {}
            pressed = {"key": key} if key is not None else {}
            # Enter that sent a form the browser's own check stopped, or to a slow server.
            notice = form_refused(settled) or led_to(tab, settled, shown)
            if arguments.selector is not None and arguments.text and key is None:
                notice = notice or _keys_not_taken(aimed, settled, shown, arguments)
            notice = notices(notice, page_says(settled))
            # The value the keys left on what they were pressed on (a slider's, a spinner's).
            now = (settled.read or {}).get("state") or {}
            held = {"value": now["value"]} if arguments.selector and "value" in now else {}
            focus = await _focused(shown)
            if before is None and arguments.selector is None:
                notice = notices(notice, to_the_page(arguments.text, key))
            return {
                **pressed,
                **said,
                **held,
                **({"focus": focus} if focus else {}),
                "url": shown.url,
                "title": await settled.title(shown),
                **({"notice": notice} if notice else {}),
            }

    @verb(
        "Wait until a text or selector appears (or, with gone, disappears), up to timeoutS; "
        f"or just wait the given seconds (at most {WAIT_MAX_S:g}), for a page that changes "
        "after a delay. Answers the page's url, and the dialogs the page showed meanwhile.",
        changes_page=False,
    )
    async def wait_for(self, arguments: WaitForArguments, context: Context) -> dict[str, Any]:
        given = [arguments.text, arguments.selector, arguments.seconds]
        if sum(mode is not None for mode in given) != 1:
            raise ActionError("wait_for takes text, selector or seconds (one of them).")
        if arguments.seconds is not None and arguments.gone:
            raise ActionError(
                "gone waits for a text or selector to disappear, not for seconds; give text or "
                "selector with it. Nothing was waited for."
            )
        async with self.access.using(context, "verb.wait_for") as tab:
            page = await tab.page()
            if arguments.seconds is not None:
                await asyncio.sleep(arguments.seconds)
                # The page shown now: the delay may have been a navigation's.
                waited = {"waitedS": arguments.seconds, "url": (tab.current() or page).url}
                return with_dialogs(tab, waited)
            what = arguments.text if arguments.text is not None else arguments.selector
            # The first match a person sees: a hidden one first in the page (a toast's
            # template, a closed menu) would be waited on instead of the one that appears.
            if arguments.text is not None:
                # A select's options show only in the list it opens: the select that holds
                # the option is what appears (a state's list filled once a country is chosen).
                holding = page.locator("select").filter(
                    has=page.locator("option", has_text=arguments.text)
                )
                found = page.get_by_text(arguments.text).or_(holding)
            else:
                found = page.locator(f"css={arguments.selector}")
            locator = found.filter(visible=True).first
            state: Literal["hidden", "visible"] = "hidden" if arguments.gone else "visible"
            with playwright_errors(
                "verb.wait_for",
                on_timeout=f"{what!r} did not {'go' if arguments.gone else 'appear'} within "
                f"{arguments.timeout_s:g} s; take a snapshot to see the page.",
            ):
                shown_before = (
                    arguments.text is not None and not arguments.gone and await locator.is_visible()
                )
                await _until_drawn(locator, state, arguments.timeout_s)
                # What matched, for the agent to see whether it is what it waited for (a
                # text also matches a sentence that names it: "Click Confirm when it
                # appears"). Gone by the time it is read: said without it.
                matched = None if arguments.gone else await _matched(locator)
            said: dict[str, Any] = {"matched": matched} if matched else {}
            notice = shown_before and matched and _shown_before(arguments.text or "", matched)
            if notice:
                said["notice"] = notice
            return with_dialogs(tab, {"waitedFor": what, "state": state, "url": page.url, **said})

    @verb("Fill several fields at once: text fields, selects, checkboxes and radios.")
    async def fill_form(self, arguments: FillFormArguments, context: Context) -> dict[str, Any]:
        async with self.access.using(context, "verb.fill_form") as tab:
            page = await tab.page()
            filled: list[dict[str, Any]] = []
            try:
                for field in arguments.fields:
                    filled.append(await self._filled(tab, page, field))
            except ActionError as why:
                if not filled:
                    raise
                # Fields before it were set: an agent must not set them again by hand.
                done = ", ".join(one["selector"] for one in filled)
                raise ActionError(f"{why} Set before it: {done}.") from None
            for one, field in zip(filled, arguments.fields, strict=True):
                if isinstance(field.value, str) and isinstance(one.get("value"), str):
                    await _read_again(page, one)
            return {"filled": filled}

    async def _filled(self, tab: Tab, page: Page, field: FormField) -> dict[str, Any]:
        """One field of fill_form set as a person would, and what it holds after."""
        notice = None  # what the field did not keep of a text (fields.type_on)
        state = None  # the field's state, where it was read as its text went in
        text = False  # whether text was typed, to be found in the field after
        aimed = await targets.target(page, field.selector, "inspect")
        info = aimed.info
        toggle = _toggle_kind(info)
        key = "pressed" if toggle == "toggle button" else "checked"
        wanted = None
        with playwright_errors("verb.fill_form", selector=field.selector):
            if toggle is not None:
                wanted = _checked(field, toggle)
                if info[key] != wanted:  # a click where a person would toggle it
                    pressed = await targets.target(page, field.selector, "click", watch=True)
                    await press(tab, page, pressed, "verb.fill_form")
                    # What the click set off (a switch saved to the server and put back
                    # when that fails) is waited for, as a click's is.
                    await self.access.settle(tab, page)
            elif not isinstance(field.value, str) and info["typable"]:
                raise ActionError(
                    f"{field.selector} takes text, not {field.value}; nothing more set."
                )
            elif info.get("readonly") and not (info["typable"] and isinstance(field.value, str)):
                # A text field is asked again as it is typed into: one read-only until it has
                # the focus lets the keys in then.
                raise ActionError(targets.read_only(field.selector, info, "nothing more set"))
            elif info["typable"] and isinstance(field.value, str):
                # Checked as browser.type checks it: shown, enabled, not covered.
                aimed = await targets.target(
                    page, field.selector, "type", text=field.value, watch=True
                )
                in_flight = tab.in_flight(page)
                typed = await fields.fill(tab, page, aimed, field.selector, field.value)
                # What the text set off (a search for suggestions), as type waits.
                settled = await after_typing(self.access, tab, page, aimed, in_flight, typed.read)
                notice, state, text = typed.notice, settled.read, typed.typed
            else:  # as browser.type says it, with what to use instead
                try:
                    targets.check_takes_text(field.selector, info)
                except ActionError as why:
                    raise ActionError(f"{why} Nothing more set.") from None
        if state is None:
            state = await pagescript.run(aimed.located.frame, "state")
        held = state.get("state") or {}
        if text and not notice:
            notice = fields.not_taken(field.selector, str(field.value), held)
        if text and not notice and info.get("role") == "combobox" and held.get("expanded"):
            notice = fields.list_left_open(field.selector, str(field.value), submitted=False)
        if wanted is not None and held.get(key) not in (wanted, None):
            now = key if held[key] else ("unchecked" if key == "checked" else "not pressed")
            notice = (
                f"{field.selector} is still {now}: the page did not take the click; take a new "
                "snapshot."
            )
        said = {"notice": notice} if notice else {}
        # Each field is focused as it is filled: the last one filled keeps the focus.
        read = {k: v for k, v in held.items() if k != "focused"}
        return {"selector": field.selector, **read, **said}

    @verb(
        "Answer an alert, confirm or prompt: accept (with text for a prompt) or dismiss. "
        "Answers the dialog that is open, if one is; otherwise plans the answer to one the "
        "next action shows, so call it right before that action (a plan no dialog took is "
        "dropped after it, and its answer says so). Dialogs nobody planned for are answered "
        "as the user configured (by default dismissed) or left open for this verb."
    )
    async def dialog(self, arguments: DialogArguments, context: Context) -> dict[str, Any]:
        tab = self.access.pool.peek(context.key)
        if tab is not None and tab.held is not None:
            return await self._answer_open_dialog(tab, arguments)
        async with self.access.using(context, "verb.dialog") as tab:
            tab.dialog_plan = (arguments.accept, arguments.text)
            return {"next": "accept" if arguments.accept else "dismiss"}

    async def _answer_open_dialog(self, tab: Tab, arguments: DialogArguments) -> dict[str, Any]:
        """Answer the dialog left open, without the tab's lock (the action it stopped holds
        that), then let that action finish (bounded) and tell what the page shows now."""
        held, behind = tab.take_held()
        with contextlib.suppress(driver.PlaywrightError):  # its page closed meanwhile
            if arguments.accept:
                text = arguments.text if arguments.text is not None else held.default_value
                await held.accept(text)
            else:
                await held.dismiss()
        if behind is not None:
            await asyncio.wait((behind,), timeout=self.access.timeouts.input_settle_s + 1)
        answer = "accepted" if arguments.accept else "dismissed"
        page = tab.current()
        return {
            "answered": {"type": held.type, "message": held.message, "answer": answer},
            "url": page.url if page is not None else "about:blank",
        }

    @verb(
        "Put files from the project directory into a file input, or into the file chooser "
        "that an element opens when clicked (an upload button or drop zone)."
    )
    async def upload(self, arguments: UploadArguments, context: Context) -> dict[str, Any]:
        paths = project_files(context.directory, arguments.files)
        selector = arguments.selector
        async with self.access.using(context, "verb.upload") as tab:
            page = await tab.page()
            aimed = await targets.target(page, selector, "inspect")
            names = [p.name for p in paths]
            with playwright_errors("verb.upload", selector=selector):
                # A file input, or a label for one (Playwright sets the input it labels).
                if aimed.info.get("type") == "file" or aimed.info.get("opensFiles"):
                    await (await aimed.handle()).set_input_files(paths)
                    return {"selector": selector, "files": names}
                if aimed.info.get("tag") in ("input", "select", "textarea", "option"):
                    raise ActionError(f"{selector} is not a file input.")
                # A button or a drop zone whose click opens a hidden input's chooser
                # (Dropzone's): clicked as a person does, the chooser given the files.
                pressed = await targets.target(page, selector, "click")
                try:
                    async with page.expect_file_chooser(timeout=CHOOSER_WAIT_S * 1000) as shown:
                        await pagescript.answering(page.mouse.click(*pressed.point))
                    await (await shown.value).set_files(paths)
                except driver.PlaywrightTimeoutError:
                    raise ActionError(
                        f"{selector} is not a file input, and the click on it opened no file "
                        f"chooser within {CHOOSER_WAIT_S:g} s, so no file was chosen (it was "
                        "clicked). Name the file input, or the button that opens the chooser."
                    ) from None
            return {"selector": selector, "files": names, "clicked": True}

    @verb(
        "List the tabs (the page and the windows it opened), in the order they opened; switch "
        "to one or close one by its number."
    )
    async def tabs(self, arguments: TabsArguments, context: Context) -> dict[str, Any]:
        async with self.access.using(context, "verb.tabs") as tab:
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
        async with self.access.using(context, "verb.evaluate") as tab:
            with playwright_errors("verb.evaluate"):
                page = await tab.page()
                value = await pagescript.answering(page.evaluate(arguments.expression))
            text = json.dumps(value, default=str)
            if len(text) > EVALUATE_RESULT_MAX:
                raise ActionError(f"The result is over {EVALUATE_RESULT_MAX} characters of JSON.")
            return {"value": value}


CHOOSER_WAIT_S = 3.0
"""How long an upload waits for the file chooser a click on a button or drop zone opens."""


def project_files(directory: str | None, names: list[str]) -> list[Path]:
    """The files ``names`` inside the project ``directory``; refuses any outside it (a
    ``..`` or a link that leads out) or missing."""
    if directory is None:
        raise ActionError(
            "The session has no project directory to upload files from, so nothing was set. "
            "A project is a session of its own, with its own pages: work in one from the open "
            "on (on the command line: --project DIR on each command)."
        )
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


def _toggle_kind(info: dict[str, Any]) -> str | None:
    """``checkbox`` or ``radio`` for a field a click checks (a native one, or one the page
    draws with its role: a switch, a star of a rating), read as checked or not; ``toggle
    button`` for one a click presses (aria-pressed); else ``None``."""
    kind = info.get("type") if info.get("type") in ("checkbox", "radio") else info.get("role")
    if kind in ("checkbox", "switch", "menuitemcheckbox") and "checked" in info:
        return "checkbox"
    if kind in ("radio", "menuitemradio") and "checked" in info:
        return "radio"
    if "pressed" in info:  # a button that stays down (aria-pressed): Bold, a toggle group's
        return "toggle button"
    return None


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


def _keys_not_taken(
    aimed: targets.Target, settled: Settled, shown: Page, arguments: PressKeyArguments
) -> str | None:
    """What press_key's notice says when the field its text was typed into holds what it held
    before (the page turned every key away: a spinner set by its arrows); ``None`` where it
    changed, or is no field with a value (a terminal that reads keys)."""
    if aimed.located.frame is not shown.main_frame or settled.read is None:
        return None
    before = aimed.info.get("value")
    after = (settled.read.get("state") or {}).get("value")
    if not isinstance(before, str) or after != before:
        return None
    return (
        f"The page did not take the keys typed into {arguments.selector}: it still holds "
        f"{before!r}. {fields.OWN_CONTROLS}"
    )


def _in_frame(element: dict[str, Any], inner: targets.Located) -> dict[str, Any]:
    """What find found in an iframe, named and placed in the page: selectors that step into
    the frame, bounds offset by where it is drawn (its near elements too)."""
    placed = {**element, "selector": inner.prefix + element["selector"]}
    if isinstance(bounds := element.get("bounds"), dict):
        placed["bounds"] = {**bounds, "x": bounds["x"] + inner.x, "y": bounds["y"] + inner.y}
    if "inViewport" in element:
        placed["inViewport"] = bool(element["inViewport"]) and inner.shown
    if isinstance(near := element.get("near"), list):
        placed["near"] = [_in_frame(item, inner) for item in near]
    return placed
