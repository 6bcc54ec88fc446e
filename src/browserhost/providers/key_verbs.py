"""The keyboard verb ``press_key``: its arguments, its description, the key names it knows,
and its refusal of a name that is no key.

One declaration for the browsers that press keys (chromium, and the extension, whose
JavaScript declares the same schema and resolves the same names through ``contract.js``), so
an agent's call means the same thing whichever browser answers. Keys are named as Playwright
names them (``Enter``, ``ArrowDown``, ``Control+a``), and by their usual other names.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from browserhost.sdk import VerbArguments

KEYED_TEXT_MAX = 1_000
"""The longest text press_key types key by key (a round trip a key)."""

PRESS_KEY_HELP = (
    "Press a key or a chord (Escape, Enter, ArrowDown, Control+a), on an element or page; "
    "or type a text key by key where the focus is (a terminal), then the key."
)


class PressKeyArguments(VerbArguments):
    key: str | None = Field(
        None,
        min_length=1,
        max_length=64,
        description="A key or chord: Enter, Escape, Tab, ArrowDown, Control+a, Shift+Tab.",
    )
    text: str | None = Field(
        None,
        min_length=1,
        max_length=KEYED_TEXT_MAX,
        description="Or first type this text key by key where the focus is (a terminal, a "
        "game, an element that is not a field), then press key if given.",
    )
    selector: str | None = Field(None, description="Focus this element first.")

    @model_validator(mode="after")
    def _something_to_press(self) -> PressKeyArguments:
        if self.key is None and self.text is None:
            raise ValueError("give key, text, or both")
        return self


KEY_NAMES = {
    **{
        name.lower(): name
        for name in (
            "Backspace Tab Enter Escape Space PageUp PageDown End Home ArrowLeft ArrowUp "
            "ArrowRight ArrowDown Insert Delete Shift Control Alt Meta ControlOrMeta CapsLock "
            "ContextMenu " + " ".join(f"F{n}" for n in range(1, 13))
        ).split()
    },
    "esc": "Escape", "return": "Enter", "del": "Delete", "ctrl": "Control", "cmd": "Meta",
    "command": "Meta", "win": "Meta", "super": "Meta", "option": "Alt", "opt": "Alt",
    "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
    "pgup": "PageUp", "pgdn": "PageDown", "spacebar": "Space",
}  # fmt: skip
"""Key names Playwright knows, by their lower-case spelling, and the usual other names."""


OTHER_KEYS = frozenset(
    (
        "NumpadEnter Pause PrintScreen NumpadDecimal NumpadMultiply NumpadAdd NumpadSubtract "
        "NumpadDivide NumLock ScrollLock AudioVolumeMute AudioVolumeDown AudioVolumeUp "
        "MediaTrackNext MediaTrackPrevious MediaPlayPause Semicolon Equal Comma Minus Period "
        "Slash Backquote BracketLeft Backslash BracketRight Quote AltGraph ShiftLeft ShiftRight "
        "ControlLeft ControlRight AltLeft AltRight MetaLeft MetaRight"
        + " " + " ".join(f"Key{chr(c)}" for c in range(65, 91))
        + " " + " ".join(f"Digit{n} Numpad{n}" for n in range(10))
    ).split()
)  # fmt: skip
"""The rest of the names Playwright's US keyboard knows: keys by their codes (KeyA, Numpad1,
ShiftRight), and keys few pages read."""


_NAMED = frozenset(KEY_NAMES.values())


def is_key(name: str) -> bool:
    """Whether Playwright presses ``name`` (a part of a chord, in its names): a character of
    the US keyboard, or a key's name."""
    if len(name) == 1:
        return " " <= name <= "~"
    return name in _NAMED or name in OTHER_KEYS


def chord_parts(key: str) -> list[str]:
    """The keys of the chord ``key`` in the names Playwright takes: each by its name whatever
    its case, and by the usual other names (Ctrl, Esc, Return, Cmd); a character as given."""
    if key == "+":
        return [key]
    parts = key.split("+")
    if key.endswith("++"):  # the plus key itself, in a chord
        parts = [*key[:-2].split("+"), "+"]
    return [KEY_NAMES.get(part.lower(), part) if len(part) > 1 else part for part in parts]


NOT_A_KEY = (
    "{key} is not a key: give a name (Enter, Escape, Tab, Backspace, Delete, ArrowDown, "
    "PageDown, Home, F5), one character, or a chord of them (Control+a, Shift+Tab); nothing "
    "was pressed. To type a text, give text."
)
"""The refusal of a key name that names no key, ``{key}`` quoted (the extension's too)."""


def not_a_key(key: str) -> str:
    return NOT_A_KEY.format(key=repr(key))


TO_THE_PAGE = (
    "No element had the focus, so {what} went to the page itself (to its shortcuts, if it has "
    "any); to type into a field or press on an element, give its selector."
)
"""What press_key says of keys pressed or a text typed with no selector while no element had
the focus, ``{what}`` the text quoted or the key (the extension's too)."""


def to_the_page(text: str | None, key: str | None) -> str | None:
    """:data:`TO_THE_PAGE` for a press_key with no selector and nothing focused; none for a
    Tab alone, which moves the focus into the page."""
    if key in ("Tab", "Shift+Tab") and not text:
        return None
    what = " and ".join(filter(None, (repr(text) if text else None, key)))
    return TO_THE_PAGE.format(what=what) if what else None


NOT_FOCUSED = (
    "{selector} does not take the focus, so nothing was pressed: the keys would go to "
    "{holder}. Give the selector of what takes them (a field, a button, or the list, menu or "
    "grid whose keys move among its items), or none to press where the focus is."
)
"""The refusal of a press_key whose element the focus does not stay on (a cell or an option
of a list that holds the focus itself, a box a page's focus trap takes it back from)."""


def not_focused(selector: str, holder: str | None) -> str:
    return NOT_FOCUSED.format(selector=selector, holder=holder or "the page itself")
