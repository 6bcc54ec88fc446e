"""The extension's ``contract.js``: the numbers, names and schemas it shares with the Python
side, written from the Python values themselves.

The extension is plain JavaScript with no build step, so the file is committed; a test
(:mod:`tests.extension.test_contract_js`) holds it equal to what this writes. After changing
one of these values, write it again::

    .venv/bin/python -m tests.extension.contract_js
"""

from __future__ import annotations

import json
from pathlib import Path

from browserhost.config import DEFAULT_PORT
from browserhost.contract import bridge, data, limits
from browserhost.contract.actions import ACTIONS
from browserhost.contract.errors import ErrorCode
from browserhost.providers import key_verbs, pointer_verbs, session_verbs
from browserhost.providers.chromium import (
    INSPECT_STYLES,
    addresses,
    errors,
    fields,
    inputs,
    page_watch,
    pagescript,
    pointer,
    snapshots,
    targets,
)
from browserhost.providers.pointer_verbs import (
    DragArguments,
    HoverArguments,
    MouseArguments,
    SelectTextArguments,
)
from browserhost.providers.session_verbs import CookiesArguments, SetCookiesArguments

CONTRACT_JS = Path(__file__).parents[2] / "src" / "browserhost" / "extension" / "contract.js"

REFUSAL_SOURCE = "contract/bridge.py REFUSAL_CODES"

HEADER = """\
// Written by tests/extension/contract_js.py from the Python values; do not edit. A test holds
// it equal: after changing one of them, run `.venv/bin/python -m tests.extension.contract_js`.
"""


def _values() -> dict[str, tuple[object, str]]:
    """Each constant: its value, and where it comes from."""
    inspect_fields = [
        field.alias or name
        for name, field in data.InspectData.model_fields.items()
        if name != "selector"
    ]
    return {
        "DEFAULT_URL": (
            f"ws://127.0.0.1:{DEFAULT_PORT}{bridge.BRIDGE_PATH}",
            "config.DEFAULT_PORT, contract/bridge.py BRIDGE_PATH",
        ),
        "ACTIONS": (list(ACTIONS), "contract/actions.py ACTIONS"),
        "CLOSE_REPLACED": (bridge.CLOSE_REPLACED, "contract/bridge.py"),
        "CLOSE_BAD_TOKEN": (bridge.CLOSE_BAD_TOKEN, "contract/bridge.py"),
        "CLOSE_FOREIGN_EXTENSION": (bridge.CLOSE_FOREIGN_EXTENSION, "contract/bridge.py"),
        "CLOSE_NOT_PAIRED": (bridge.CLOSE_NOT_PAIRED, "contract/bridge.py"),
        "CLOSE_DENIED": (bridge.CLOSE_DENIED, "contract/bridge.py"),
        "CLOSE_NOT_APPROVED": (bridge.CLOSE_NOT_APPROVED, "contract/bridge.py"),
        "PROVIDER_REJECTED": (ErrorCode.PROVIDER_REJECTED.value, REFUSAL_SOURCE),
        "UNSUPPORTED": (ErrorCode.UNSUPPORTED.value, REFUSAL_SOURCE),
        "TEXT_MAX": (limits.SNAPSHOT_TEXT_MAX, "contract/limits.py SNAPSHOT_TEXT_MAX"),
        "ELEMENTS_MAX": (limits.SNAPSHOT_ELEMENTS_MAX, "contract/limits.py SNAPSHOT_ELEMENTS_MAX"),
        "FULL_TEXT_MAX": (
            limits.SNAPSHOT_FULL_TEXT_MAX,
            "contract/limits.py SNAPSHOT_FULL_TEXT_MAX",
        ),
        "FULL_ELEMENTS_MAX": (
            limits.SNAPSHOT_FULL_ELEMENTS_MAX,
            "contract/limits.py SNAPSHOT_FULL_ELEMENTS_MAX",
        ),
        "VIEWPORT_SIZES": (
            {mode: list(size) for mode, size in data.VIEWPORT_SIZES.items()},
            "contract/data.py",
        ),
        "INSPECT_FIELDS": (inspect_fields, "contract/data.py InspectData, but selector"),
        "INSPECT_STYLES": (list(INSPECT_STYLES), "the chromium provider's"),
        "PAGE_ANSWER_MS": (round(errors.PAGE_ANSWER_S * 1000), "chromium/errors.py PAGE_ANSWER_S"),
        "WAITING_ANSWER_MS": (
            round(pagescript.WAITING_ANSWER_S * 1000),
            "chromium/pagescript.py WAITING_ANSWER_S",
        ),
        "STILL_LOADING": (inputs.STILL_LOADING, "chromium/inputs.py"),
        "DRAWN_SEEN": (snapshots.SEEN, "chromium/snapshots.py SEEN"),
        "SHAPES_SEEN": (snapshots.SHAPES_SEEN, "chromium/snapshots.py"),
        "UNLISTED_SHAPES": (snapshots.UNLISTED_SHAPES, "chromium/snapshots.py"),
        "NAMED_PICTURES": (snapshots.NAMED_PICTURES, "chromium/snapshots.py"),
        "SCROLL_BOXES": (snapshots.SCROLL_BOXES, "chromium/snapshots.py"),
        "SCROLL_BOXES_MOVED": (snapshots.SCROLL_BOXES_MOVED, "chromium/snapshots.py"),
        "PRESS_ATTEMPTS": (inputs.PRESS_ATTEMPTS, "chromium/inputs.py"),
        "HOP": (targets.HOP, "chromium/targets.py"),
        "FRAME_DEPTH_MAX": (targets.FRAME_DEPTH_MAX, "chromium/targets.py"),
        "TEXT_CANDIDATES_MAX": (targets.TEXT_CANDIDATES_MAX, "chromium/targets.py"),
        "PROBLEMS_MAX": (page_watch.CONSOLE_PROBLEMS_MAX, "chromium/page_watch.py"),
        "PROBLEM_TEXT_MAX": (
            page_watch.CONSOLE_TEXT_MAX,
            "chromium/page_watch.py CONSOLE_TEXT_MAX",
        ),
        "OWN_REFUSED": (addresses.OWN_REFUSED, "chromium/addresses.py"),
        "BLOCKED_SCHEMES_HELP": (errors.BLOCKED_SCHEMES_HELP, "chromium/errors.py"),
        "DRAG_SCHEMA": (DragArguments.model_json_schema(), "providers/pointer_verbs.py"),
        "HOVER_SCHEMA": (HoverArguments.model_json_schema(), "providers/pointer_verbs.py"),
        "HOVER_HELP": (pointer_verbs.HOVER_HELP, "providers/pointer_verbs.py"),
        "MOUSE_SCHEMA": (MouseArguments.model_json_schema(), "providers/pointer_verbs.py"),
        "MOUSE_HELP": (pointer_verbs.MOUSE_HELP, "providers/pointer_verbs.py"),
        "MOUSE_DONE": (pointer_verbs.MOUSE_DONE, "providers/pointer_verbs.py"),
        "SELECT_TEXT_SCHEMA": (
            SelectTextArguments.model_json_schema(),
            "providers/pointer_verbs.py",
        ),
        "PRESS_KEY_SCHEMA": (
            key_verbs.PressKeyArguments.model_json_schema(),
            "providers/key_verbs.py",
        ),
        "PRESS_KEY_HELP": (key_verbs.PRESS_KEY_HELP, "providers/key_verbs.py"),
        "KEY_NAMES": (key_verbs.KEY_NAMES, "providers/key_verbs.py"),
        "NOT_A_KEY": (key_verbs.NOT_A_KEY, "providers/key_verbs.py"),
        "TO_THE_PAGE": (key_verbs.TO_THE_PAGE, "providers/key_verbs.py"),
        "NOT_FOCUSED": (key_verbs.NOT_FOCUSED, "providers/key_verbs.py"),
        "EDITOR_UNFOCUSED": (fields.EDITOR_UNFOCUSED, "chromium/fields.py"),
        "EDITOR_TYPED": (fields.EDITOR_TYPED, "chromium/fields.py"),
        "WIDGET_ADVICE": (targets.WIDGET_ADVICE, "chromium/targets.py"),
        "NOT_DRAWN_YET": (targets.NOT_DRAWN_YET, "chromium/targets.py"),
        "AMONG_WORDS": (targets.AMONG_WORDS, "chromium/targets.py"),
        "HIDDEN_ALIKE": (targets.HIDDEN_ALIKE, "chromium/targets.py"),
        "CHANGED_NOTHING": (pointer.CHANGED_NOTHING, "chromium/pointer.py"),
        "SELECTED_INSTEAD": (pointer.SELECTED_INSTEAD, "chromium/pointer.py"),
        "RESIZED_BY_CORNER": (pointer.RESIZED_BY_CORNER, "chromium/pointer.py"),
        "SHIFTED": ("".join(sorted(fields.SHIFTED)), "chromium/fields.py"),
        "SCROLLS_SIDEWAYS": (targets.SCROLLS_SIDEWAYS, "chromium/targets.py"),
        "BOX_SCROLLED": (targets.BOX_SCROLLED, "chromium/targets.py"),
        "PAGE_GOES_ON": (targets.PAGE_GOES_ON, "chromium/targets.py"),
        "COOKIES_SCHEMA": (CookiesArguments.model_json_schema(), "providers/session_verbs.py"),
        "COOKIES_HELP": (session_verbs.COOKIES_HELP, "providers/session_verbs.py"),
        "SET_COOKIES_HELP": (session_verbs.SET_COOKIES_HELP, "providers/session_verbs.py"),
        "SET_COOKIES_SCHEMA": (
            SetCookiesArguments.model_json_schema(),
            "providers/session_verbs.py",
        ),
    }


def generated() -> str:
    """What ``contract.js`` holds."""
    lines = [HEADER]
    said = ""
    for name, (value, source) in _values().items():
        if source != said:
            lines.append(f"// {source}\n")
            said = source
        lines.append(f"export const {name} = {json.dumps(value)};\n")
    return "".join(lines)


if __name__ == "__main__":
    CONTRACT_JS.write_text(generated())
