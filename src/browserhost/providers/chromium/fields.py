"""A value put into a form field the way a person would, once :mod:`.targets` has checked it.

``snapshot.js`` readies the field in the page: a text field is focused with its text selected
(in the same call that checks it, when there is text to type: ``info["ready"]``), a select, a
date, a time, a colour or a range gets its value set with the events a picker sends (``fill``).
Text is then typed by the keyboard (CDP ``Input.insertText``, which reaches a focused field
in a cross-origin iframe too), so the page sees the input a person's typing makes. None of
Playwright's own page script is needed, nor its injection into each new document.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from browserhost.sdk import ActionError

from . import pagescript

if TYPE_CHECKING:
    from playwright.async_api import Page

    from .targets import Target


async def fill(page: Page, aimed: Target, selector: str, value: str) -> None:
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
    if ready.get("typeIt"):
        # An empty value deletes the selected text, as a person clearing a field would.
        typing = page.keyboard.insert_text(value) if value else page.keyboard.press("Delete")
        await pagescript.answering(typing)


def _check_ready(ready: dict[str, Any], selector: str, value: str) -> None:
    error = ready.get("error")
    if error is None:
        return
    if error == "gone":
        raise ActionError(f"{selector} went away before it was filled; take a new snapshot.")
    if error == "number":
        raise ActionError(f"{selector} takes a number, not {value!r}; nothing was typed.")
    if error == "malformed":
        raise ActionError(
            f"{selector} is a {ready['type']} field and does not take {value!r}; give the value "
            "in the form the field takes (a date as 2024-05-31, a time as 13:45, a month as "
            "2024-05, a colour as #ff8800, a range as a number). Nothing was changed."
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
