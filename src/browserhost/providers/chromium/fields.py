"""A value put into a form field the way a person would, once :mod:`.targets` has checked it.

``snapshot.js`` readies the field in the page: a text field is focused with its text selected
(in the same call that checks it, when there is text to type: ``info["ready"]``), a select, a
date, a time, a colour or a range gets its value set with the events a picker sends (``fill``).
Text is then typed by the keyboard (CDP ``Input.insertText``, which reaches a focused field
in a cross-origin iframe too), so the page sees the input a person's typing makes; where the
page listens for keys (an autocomplete that reads keyup, a field that refuses some keys),
key by key, so that it sees each key too (:func:`keyed`). None of
Playwright's own page script is needed, nor its injection into each new document.

A text longer than its field keeps (``maxlength``) is cut there by the browser, as for a
person. A page that moves the focus to the next field as one fills (a code in one-character
boxes) gets the rest typed into the field it focused, as a person typing on would; the
answer's notice says where the text went, and what no field took. A text the page turned
away or did not take is told in the notice too (:func:`not_taken`).
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from browserhost.sdk import ActionError

from . import devtools, inputs, pagescript, targets
from .futures import retrieve_exception

if TYPE_CHECKING:
    from playwright.async_api import Page

    from .contexts import Tab
    from .targets import Target


KEYED_MAX = 200
"""The longest text typed key by key (a key takes a round trip to the page, about a
millisecond): a longer one is inserted at once."""
TYPED_ON_MAX = 64
"""How many times one text is typed on past what its field kept: into fields the focus moves
through (a code in boxes has 4 to 8), or the same field again as the page takes characters
out; a page that keeps moving it gets no more of the text than that."""


_US_TYPED = re.compile(r"[\x20-\x7e\n\r\t]+")
"""A run of what a US keyboard types: the keys Playwright's keyboard knows."""
_KEY_RUNS = re.compile(rf"{_US_TYPED.pattern}|.", re.DOTALL)
SHIFTED = frozenset('ABCDEFGHIJKLMNOPQRSTUVWXYZ~!@#$%^&*()_+{}|:"<>?')
"""What a US keyboard types with Shift held: a person's capital B or ? comes with Shift down,
and a page that reads the key's ``shiftKey`` (a shortcut on ?, a game) sees it so."""
_SHIFT_RUNS = re.compile(
    rf"[{re.escape(''.join(sorted(SHIFTED)))}]+|[^{re.escape(''.join(sorted(SHIFTED)))}]+"
)


def shifted(key: str) -> str:
    """The chord a person presses for ``key``: one character typed with Shift held
    (:data:`SHIFTED`) is pressed with Shift, as ``Shift+?``."""
    return f"Shift+{key}" if len(key) == 1 and key in SHIFTED and key != "+" else key


async def type_keys(page: Page, text: str) -> None:
    """Type ``text`` key by key, as a person does. A character no US key types (é, ñ, €) is
    sent as the key a keyboard of its own language sends, its keydown, keypress, input and
    keyup carrying it: Playwright inserts such a character with no key event at all, and a
    page that reads keys (a terminal, a field that counts on keyup) never sees it."""
    for run in _KEY_RUNS.findall(text):
        if _US_TYPED.fullmatch(run):
            for part in _SHIFT_RUNS.findall(run):
                await _typed_keys(page, part, shift=part[0] in SHIFTED)
            continue
        cdp = await devtools.session(page)
        key = {"key": run, "text": run, "unmodifiedText": run}
        await pagescript.answering(cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", **key}))
        await pagescript.answering(
            cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": run})
        )


async def _typed_keys(page: Page, text: str, *, shift: bool) -> None:
    """``text`` typed key by key, with Shift held throughout where ``shift``."""
    if not shift:
        await pagescript.answering(page.keyboard.type(text))
        return
    await pagescript.answering(page.keyboard.down("Shift"))
    try:
        await pagescript.answering(page.keyboard.type(text))
    finally:
        await pagescript.answering(page.keyboard.up("Shift"))


@dataclass(frozen=True)
class Filled:
    """What filling a field found out that the action's answer tells."""

    notice: str | None = None
    """What the answer's notice says of a text longer than the field keeps (:func:`type_on`)."""
    read: dict[str, Any] | None = None
    """The page script's ``state`` after the text went in (``afterInput``), where the page
    told it (:func:`_inserted`); ``None`` where it is still to be read."""
    typed: bool = False
    """Whether text was typed (not a choice set, as a select's); what the field holds after
    it is then checked against the text (:func:`not_taken`)."""


async def fill(tab: Tab, page: Page, aimed: Target, selector: str, value: str) -> Filled:
    """Replace what the field ``aimed`` holds with ``value``: a select's options by label
    (several, comma-separated, for a multiple select), otherwise the text itself. A value
    the field cannot take is refused, and the field is left as it was."""
    info = aimed.info
    ready = info.get("ready")  # readied when it was checked, with the text (targets.target)
    if ready is None:
        if info["tag"] == "select":
            wanted = value.split(",") if info.get("multiple") else [value]
            values = [option_value(selector, info["choices"], one.strip()) for one in wanted]
            ready = await pagescript.run(aimed.located.frame, "fill", values=values)
        else:
            ready = await pagescript.run(aimed.located.frame, "fill", value=value)
    _check_ready(ready, selector, value)
    if not ready.get("typeIt"):
        return Filled()
    # An empty value deletes the selected text, as a person clearing a field would.
    if not value:
        await pagescript.answering(page.keyboard.press("Delete"))
    elif keyed(ready, value):
        await type_keys(page, value)
        return Filled(read=await inputs.read_state(aimed, after_input=True), typed=True)
    elif ready.get("keeps") is not None:
        await pagescript.answering(page.keyboard.insert_text(value))
        notice = await type_on(page, aimed, selector, value, ready["keeps"])
        return Filled(notice=notice, typed=True)
    elif ready.get("typing") is not None:
        read = await _inserted(tab, page, aimed, value, ready["typing"])
        return Filled(read=read, typed=True)
    else:
        await pagescript.answering(page.keyboard.insert_text(value))
    return Filled(typed=True)


EDITOR_UNFOCUSED = (
    "{selector} is in a code editor ({surface}) whose own field takes the keys, and a press on "
    "{press} gave it none ({where}), so nothing was typed; click into the editor's text, then "
    "verb.press_key with text."
)
"""The refusal where a press on a code editor's text left none of its fields focused."""
EDITOR_TYPED = (
    "{selector} is in a code editor ({surface}) that takes keys in a field of its own "
    "({field}): it was pressed, all its text selected and replaced by the text as a paste "
    "puts it in, kept as given (no indents or closing brackets added). Take a snapshot to "
    "read it."
)
"""What typing into a code editor answers (:func:`into_editor`)."""


async def press_editor(page: Page, aimed: Target, selector: str) -> None:
    """Press the code editor ``aimed`` is in (``info["editor"]``, see ``snapshot.js``'s
    ``editorOf``) on its text, as a person does to give it the keys; refuses where no field of
    the editor took the focus."""
    editor, located = aimed.info["editor"], aimed.located
    pressed = await targets.target(page, located.prefix + editor["press"], "click", fresh=True)
    await pagescript.answering(page.mouse.click(*pressed.point))
    put = await pagescript.run(located.frame, "pasteInto", surface=editor["surface"], text="")
    if "unfocused" in put:
        instead = put["unfocused"]
        where = f"the focus went to {instead['selector']}" if instead else "nothing took the focus"
        raise ActionError(
            EDITOR_UNFOCUSED.format(
                selector=selector, surface=editor["surface"], press=editor["press"], where=where
            )
        )


async def into_editor(page: Page, aimed: Target, selector: str, value: str) -> str:
    """Type ``value`` into the code editor ``aimed`` is in as a person does: press its text
    (:func:`press_editor`), select all of it (Control+A, which editors take as their own),
    and paste the text, which an editor keeps as given (typed keys would have it indent each
    line and close each bracket again). A field the page does not paste into takes the text
    as typed. Answers the notice saying so."""
    editor, located = aimed.info["editor"], aimed.located
    await press_editor(page, aimed, selector)
    await pagescript.answering(page.keyboard.press("ControlOrMeta+a"))
    if not value:
        await pagescript.answering(page.keyboard.press("Delete"))
    else:
        put = await pagescript.run(
            located.frame, "pasteInto", surface=editor["surface"], text=value
        )
        if not put.get("taken"):
            await pagescript.answering(page.keyboard.insert_text(value))
    return EDITOR_TYPED.format(selector=selector, surface=editor["surface"], field=editor["field"])


TOLD_TYPED_GRACE_S = 0.005
"""How long after the insert's answer the page's word of the text (sent as the text went in,
before that answer) is waited for before the page is asked as well: it comes on another
session, most often a millisecond after. Asked at once, the page would read the field a
second time for nothing on nearly every type, which costs the page, the driver and the
host a round trip's work each; a page that sent no word is asked this much later."""


async def _inserted(
    tab: Tab, page: Page, aimed: Target, value: str, typing: int
) -> dict[str, Any] | None:
    """Insert ``value`` into the field readied for it as ``typing``; the state after it, as
    the page tells it once the text is in (``snapshot.js``'s ``tellTyped``): a round trip
    fewer than asking. The word and the insert's answer come by different ways and either
    may come first; where the word has not come :data:`TOLD_TYPED_GRACE_S` after the
    insert's answer, the page is asked too, and the first of the two answers is taken (a
    page that cancelled the input makes no event to tell it by). ``None`` where the frame
    went away meanwhile."""
    heard = tab.hear_typed(page, typing)
    await pagescript.answering(page.keyboard.insert_text(value))
    if not heard.done():
        await asyncio.wait({heard}, timeout=TOLD_TYPED_GRACE_S)
    if heard.done():
        return heard.result()
    reading = asyncio.ensure_future(inputs.read_state(aimed, after_input=True))
    try:
        await asyncio.wait((heard, reading), return_when=asyncio.FIRST_COMPLETED)
    finally:
        reading.cancel()
        reading.add_done_callback(retrieve_exception)
    return heard.result() if heard.done() else reading.result()


def list_left_open(selector: str, value: str, *, submitted: bool) -> str:
    """What a type answer says when a combobox shows its list open after the text: the text
    is only its search (Ant Design's, Material UI's, Element Plus's), and nothing is chosen
    until an option is; its value would read as if something were."""
    if submitted:
        return (
            f"{selector} still shows its list open after Enter: Enter may have chosen nothing, "
            "or changed what was chosen. Take a snapshot to see what it holds, then click the "
            "option you want."
        )
    return (
        f"{selector} shows its list open after the text: nothing is chosen by typing. Click "
        "the option you want, if the list shows it (a snapshot lists them)."
    )


def sent_on(selector: str, value: str, state: dict[str, Any], read: dict[str, Any]) -> str | None:
    """What the answer's notice says when the page moved the focus to another field as the
    text was typed, and the rest of the keys went in there (``focusMoved``, from the page
    script's read after the typing): where they went, which a notice of keys turned away
    would hide."""
    moved, held = read.get("focusMoved"), state.get("value")
    if not isinstance(moved, dict) or not isinstance(held, str):
        return None
    other, there = moved.get("selector"), moved.get("value")
    if not isinstance(other, str) or not isinstance(there, str) or not there:
        return None
    typed = _bare(value)
    if _in_order(typed, _bare(held)) or not _in_order(typed, _bare(held + there)):
        return None  # it holds all of it; or the other field holds none of the rest
    return (
        f"The page moved the focus from {selector} to {other} as the text was typed: "
        f"{selector} holds {held!r}, and the rest went into {other}, which holds {there!r}. "
        "Take a snapshot to see both; type into each field what it should hold."
    )


def made_items(selector: str, read: dict[str, Any]) -> str | None:
    """What the answer's notice says when a tag field (Tagify, a chip input) made the items
    typed apart by commas into tags beside itself and emptied itself (``madeItems``, from the
    page script's read after the typing): what it made, where a notice of keys turned away
    would say the text was lost."""
    made = read.get("madeItems")
    if not isinstance(made, list) or not made or not all(isinstance(m, str) for m in made):
        return None
    items = ", ".join(f'"{item}"' for item in made)
    return (
        f"The page made the text typed into {selector} into items beside it ({items}), as a "
        "tag field does, and took it out of the field."
    )


def not_taken(selector: str, value: str, state: dict[str, Any]) -> str | None:
    """What the answer's notice says when the field does not hold the text typed into it:
    the page turned keys away (a field that takes only letters, a form that takes none until
    a box is ticked) or cancelled the typing (a spinner that is set by its arrows). Said
    when the typed text, read without spaces and case, is not in order in what the field
    holds, nor its letters and digits (a page that formats what it takes, with a phone
    number's brackets, capitals or a thousands separator, holds them all). ``state`` is the
    page script's state of the field; one too long to read whole took more than was turned
    away, and is not checked. A field the page disabled as it was focused (a popup asking
    for something first) is said to be so, a password too, whose value is never read."""
    if state.get("disabled") and value:
        return (
            f"The page disabled {selector} as the text was typed into it, so the field may not "
            "hold it; take a snapshot to see why (a popup, a message)."
        )
    held = state.get("value")
    if not isinstance(held, str) or "valueTotalChars" in state or not value.strip():
        return None
    typed, kept = _bare(value), _bare(held)
    if _in_order(typed, kept) or (_letters(typed) and _in_order(_letters(typed), _letters(kept))):
        return None
    if not kept:
        return (
            f"The page turned away every key typed into {selector}: it holds nothing. Take a "
            "snapshot to see why (a message, a control to set first)."
        )
    if _in_order(kept, typed):
        return (
            f"The page turned away some keys typed into {selector}: it holds {held!r} of "
            f"{value!r}. Type only what it takes."
        )
    return (
        f"The page did not take what was typed into {selector}: it holds {held!r}, not "
        f"{value!r}. {OWN_CONTROLS}"
    )


OWN_CONTROLS = (
    "It may turn keys away there, or be set by its own controls (arrows, buttons, a picker); "
    "take a snapshot to see them."
)
"""What a notice of text a field did not take says to do instead."""


def _bare(text: str) -> str:
    return "".join(text.split()).casefold()


def _letters(text: str) -> str:
    return "".join(filter(str.isalnum, text))


def _in_order(part: str, whole: str) -> bool:
    """Whether every character of ``part`` is in ``whole``, in order (not always together)."""
    rest = iter(whole)
    return all(character in rest for character in part)


def keyed(ready: dict[str, Any], value: str) -> bool:
    """Whether ``value`` is typed key by key: where the page listens for keys (``keys``,
    see ``snapshot.js``'s ``listenedFor``), for a text of at most :data:`KEYED_MAX`
    characters that the field keeps whole, with no key that would act instead of typing (a
    new line that submits, a tab that moves on). Otherwise it is inserted at once."""
    return (
        bool(ready.get("keys"))
        and ready.get("keeps") is None
        and len(value) <= KEYED_MAX
        and not any(key in value for key in "\n\r\t")
    )


async def type_on(page: Page, aimed: Target, selector: str, value: str, kept: int) -> str | None:
    """The rest of a text its field kept only ``kept`` characters of (its maxlength, in the
    UTF-16 units the page counts), typed on as a person typing on would: into the same field
    where the page took characters out as they went in (a phone number's brackets, a card
    number's spaces) and it has room again, and into each field the page moves the focus to
    (a code in one-character boxes); until none is left, the field is full and the focus
    stays, or :data:`TYPED_ON_MAX` inserts. What the answer's notice says of where it went;
    none where the field took it all."""
    fields, rest = 1, after_units(value, kept)
    for _ in range(TYPED_ON_MAX):
        if not rest:
            break
        ready = await pagescript.run(aimed.located.frame, "typeOn", value=rest)
        if not ready.get("typeIt"):
            break
        await pagescript.answering(page.keyboard.insert_text(rest))
        fields += not ready.get("same")
        keeps = ready.get("keeps")
        rest = after_units(rest, keeps) if keeps is not None else ""
    if fields == 1 and not rest:
        return None
    typed = len(value) - len(rest)
    if fields == 1:
        return (
            f"{selector} keeps at most {kept} character{'' if kept == 1 else 's'} (its "
            f"maxlength): only the first {'one was' if typed == 1 else f'{typed} were'} typed, "
            f"and the other {len(rest)} left out. Type a value that fits the field."
        )
    characters = "1 character" if kept == 1 else f"{kept} characters"
    spread = (
        f"{selector} keeps {characters}: the page moved the focus "
        f"on as it filled, and the text went on into the next {fields - 1} field"
        f"{'s' if fields > 2 else ''}, as a person typing on would"
    )
    if not rest:
        return f"{spread}. Take a snapshot to see each field."
    return f"{spread}; its last {len(rest)} characters were left out: no field took them."


def after_units(text: str, units: int) -> str:
    """What is left of ``text`` after its first ``units`` UTF-16 code units (as a page counts
    a field's maxlength), a character cut in two (an emoji) left whole with the rest, as the
    browser leaves it out whole."""
    taken = 0
    for at, character in enumerate(text):
        taken += 2 if ord(character) > 0xFFFF else 1
        if taken > units:
            return text[at:]
    return ""


_FORMS = {
    "date": (re.compile(r"\d{4,}-\d\d-\d\d"), "day"),
    "month": (re.compile(r"\d{4,}-\d\d"), "month"),
    "week": (re.compile(r"\d{4,}-W\d\d"), "week"),
    "time": (re.compile(r"\d\d:\d\d(:\d\d(\.\d{1,3})?)?"), "time of day"),
    "datetime-local": (
        re.compile(r"\d{4,}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?"),
        "day and time",
    ),
}
"""How a value of each date and time field is written (HTML's own forms), and what it names:
one written so that the field still refuses names one that does not exist."""


def _nonexistent(field_type: str, value: str) -> str | None:
    """What a value written in its field's own form, which the field refused, names."""
    form = _FORMS.get(field_type)
    return form[1] if form is not None and form[0].fullmatch(value) else None


def _check_ready(ready: dict[str, Any], selector: str, value: str) -> None:
    error = ready.get("error")
    if error is None:
        return
    if error == "gone":
        raise ActionError(f"{selector} went away before it was filled; take a new snapshot.")
    if error == "number":
        raise ActionError(f"{selector} takes a number, not {value!r}; nothing was typed.")
    if error == "range":
        steps = "" if ready["step"] == "any" else f" in steps of {ready['step']}"
        raise ActionError(
            f"{selector} is a range from {ready['min']} to {ready['max']}{steps}, which "
            f"{value!r} is not on; give one of its values. Nothing was changed."
        )
    if error == "malformed" and (named := _nonexistent(ready["type"], value)):
        raise ActionError(
            f"{selector} is a {ready['type']} field, and {value!r} is written as it takes "
            f"one but names no {named} there is (a 30th of February, a 13th month, 25 "
            "o'clock); give one that exists. Nothing was changed."
        )
    if error == "malformed":
        raise ActionError(
            f"{selector} is a {ready['type']} field and does not take {value!r}; give the value "
            "in the form the field takes (a date as 2024-05-31, a time as 13:45, a day and time "
            "as 2024-05-31T13:45, a month as 2024-05, a colour as #ff8800, a range as a "
            "number). Nothing was changed."
        )
    if error == "option":
        raise ActionError(
            f"{selector} no longer has the option it had (the page changed it); take a new "
            "snapshot."
        )
    if error == "disabledOption":
        raise ActionError(
            f'{selector}\'s option "{ready["option"]}" is disabled; nothing was chosen.'
        )
    raise ActionError(
        f"{selector} is not a text field; take a new snapshot and pick an input, a textarea or "
        "an editable element (use browser.click for buttons and checkboxes)."
    )


def option_value(selector: str, options: list[dict[str, str]], wanted: str) -> str:
    """The value of the select option whose label (else value) is ``wanted``."""
    for key in ("label", "value"):
        for option in options:
            if option[key] == wanted:
                return option["value"]
    for option in options:
        if option["label"].casefold() == wanted.casefold():
            return option["value"]
    listed = ", ".join(f'"{option["label"]}"' for option in options[:20])
    raise ActionError(f'{selector} has no option "{wanted}"; its options are {listed}.')
