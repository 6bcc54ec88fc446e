"""A person's input on the surface, as the DevTools protocol's ``Input`` calls that do it.

Pointer, wheel and key events come in as the viewer's browser reported them (DOM names and
numbers); Chromium takes them as ``Input.dispatchMouseEvent``, ``dispatchKeyEvent`` and
``insertText``, with the virtual key codes its editing commands go by and the click counts an
operating system would give.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from browserhost.contract.surface import KeyEvent, PointerEvent, TextEvent, WheelEvent

DeviceEvent = PointerEvent | WheelEvent | KeyEvent | TextEvent

DOUBLE_CLICK_S: Final = 0.5
DOUBLE_CLICK_PX: Final = 4.0

# DOM MouseEvent.button numbers, and the DOM/CDP "buttons" bit of each.
_BUTTONS: Final = ("left", "middle", "right", "back", "forward")
_BUTTON_BITS: Final = ((1, "left"), (2, "right"), (4, "middle"), (8, "back"), (16, "forward"))
_ALT, _CONTROL, _META, _SHIFT = 1, 2, 4, 8  # CDP's modifier bits
_MODIFIER_BITS: Final = {"Alt": _ALT, "Control": _CONTROL, "Meta": _META, "Shift": _SHIFT}
_ALTGR: Final = _ALT | _CONTROL

# Windows virtual key codes, which Chromium's editing commands go by (Enter submits, Backspace
# deletes, arrows move the caret): by DOM ``code``, then by ``key`` for a viewer that sent none.
_KEY_CODES: Final = {
    "Backspace": 8,
    "Tab": 9,
    "Enter": 13,
    "NumpadEnter": 13,
    "Shift": 16,
    "ShiftLeft": 16,
    "ShiftRight": 16,
    "Control": 17,
    "ControlLeft": 17,
    "ControlRight": 17,
    "Alt": 18,
    "AltLeft": 18,
    "AltRight": 18,
    "Pause": 19,
    "CapsLock": 20,
    "Escape": 27,
    "Space": 32,
    " ": 32,
    "PageUp": 33,
    "PageDown": 34,
    "End": 35,
    "Home": 36,
    "ArrowLeft": 37,
    "ArrowUp": 38,
    "ArrowRight": 39,
    "ArrowDown": 40,
    "Insert": 45,
    "Delete": 46,
    "Meta": 91,
    "MetaLeft": 91,
    "MetaRight": 92,
    "ContextMenu": 93,
    "Semicolon": 186,
    "Equal": 187,
    "Comma": 188,
    "Minus": 189,
    "Period": 190,
    "Slash": 191,
    "Backquote": 192,
    "BracketLeft": 219,
    "Backslash": 220,
    "BracketRight": 221,
    "Quote": 222,
    **{f"F{n}": 111 + n for n in range(1, 13)},
    **{f"Numpad{n}": 96 + n for n in range(10)},
}
_KEY_TEXT: Final = {"Enter": "\r"}  # as a keyboard types it: Enter in a textarea is a newline
_NAMED_CODES: Final = frozenset(
    {"Backspace", "Tab", "Enter", "Escape", "Delete", "Insert", "Home", "End", "PageUp"}
    | {"PageDown", "ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "CapsLock", "ContextMenu"}
)


def modifier_bits(modifiers: list[str]) -> int:
    return sum(_MODIFIER_BITS[name] for name in set(modifiers))


def key_params(event: KeyEvent) -> dict[str, Any]:
    """``Input.dispatchKeyEvent`` parameters for a DOM key event, as Playwright's keyboard
    sends them: a printable key goes down with its ``text`` (so it types), any other key or
    a chord (Control+A) goes down raw and acts through its virtual key code."""
    key = event.key
    code = event.code or _code_for(key)
    modifiers = modifier_bits(list(event.modifiers))
    key_code = _KEY_CODES.get(code) or _KEY_CODES.get(key) or _printable_code(key)
    text = _KEY_TEXT.get(key, key if len(key) == 1 else "")
    if text and modifiers & _ALTGR == _ALTGR:
        # AltGr, which the viewer's browser reports as Control+Alt: its key is the character
        # the person's layout typed, and Chromium types nothing with Control held.
        modifiers &= ~_ALTGR
    elif _is_command(modifiers):
        text = ""
    params: dict[str, Any] = {
        "key": key,
        "code": code,
        "modifiers": modifiers,
        "windowsVirtualKeyCode": key_code,
        "nativeVirtualKeyCode": key_code,
    }
    if code.startswith("Numpad"):
        params["location"] = 3
    elif code.endswith("Left") and key in _MODIFIER_BITS:
        params["location"] = 1
    elif code.endswith("Right") and key in _MODIFIER_BITS:
        params["location"] = 2
    if event.action == "up":
        params["type"] = "keyUp"
    elif text:
        params.update(type="keyDown", text=text, unmodifiedText=text)
    else:
        params["type"] = "rawKeyDown"
    return params


def _is_command(modifiers: int) -> bool:
    """Whether a key with these modifiers held is a command (Control+A, Meta+C, Alt+F) rather
    than typing."""
    return bool(modifiers & (_ALT | _CONTROL | _META))


def _code_for(key: str) -> str:
    if len(key) == 1 and key.isascii() and key.isalpha():
        return f"Key{key.upper()}"
    if len(key) == 1 and key.isdigit():
        return f"Digit{key}"
    if key == " ":
        return "Space"
    return key if key in _NAMED_CODES or key in _KEY_CODES else ""


def _printable_code(key: str) -> int:
    if len(key) == 1 and key.isascii() and key.isalnum():
        return ord(key.upper())
    return 0


class InputTranslator:
    """Turns a person's events into DevTools calls, remembering the last press to count
    double and triple clicks."""

    def __init__(self) -> None:
        self._last_down: tuple[float, float, float, int, int] | None = None  # t, x, y, button, n

    def params(self, event: DeviceEvent, scale_x: float, scale_y: float) -> dict[str, Any]:
        """The DevTools method and parameters for one event (``method`` among them)."""
        if isinstance(event, TextEvent):
            return {"method": "Input.insertText", "text": event.text}
        if isinstance(event, KeyEvent):
            return {"method": "Input.dispatchKeyEvent", **key_params(event)}
        modifiers = modifier_bits(list(event.modifiers))
        x, y = event.x * scale_x, event.y * scale_y
        if isinstance(event, WheelEvent):
            return {
                "method": "Input.dispatchMouseEvent",
                "type": "mouseWheel",
                "x": x,
                "y": y,
                "deltaX": event.delta_x,
                "deltaY": event.delta_y,
                "modifiers": modifiers,
            }
        if event.action == "move":
            held = next((name for bit, name in _BUTTON_BITS if event.buttons & bit), "none")
            return {
                "method": "Input.dispatchMouseEvent",
                "type": "mouseMoved",
                "x": x,
                "y": y,
                "button": held,
                "buttons": event.buttons,
                "modifiers": modifiers,
            }
        return {
            "method": "Input.dispatchMouseEvent",
            "type": "mousePressed" if event.action == "down" else "mouseReleased",
            "x": x,
            "y": y,
            "button": _BUTTONS[event.button],
            "buttons": event.buttons,
            "clickCount": self._click_count(event),
            "modifiers": modifiers,
        }

    def _click_count(self, event: PointerEvent) -> int:
        """1, or 2 and 3 for presses in quick succession at one spot (a double click selects
        a word), as the operating system would count them; a release repeats its press's."""
        now = asyncio.get_running_loop().time()
        last = self._last_down
        if event.action == "up":
            return last[4] if last is not None and last[3] == event.button else 1
        count = 1
        if (
            last is not None
            and last[3] == event.button
            and now - last[0] <= DOUBLE_CLICK_S
            and abs(event.x - last[1]) <= DOUBLE_CLICK_PX
            and abs(event.y - last[2]) <= DOUBLE_CLICK_PX
        ):
            count = min(last[4] + 1, 3)
        self._last_down = (now, event.x, event.y, event.button, count)
        return count
