"""What a recording keeps of an action's parameters and answer: the contract's view, small,
and nothing secret.

- Every string is cut to :data:`~browserhost.contract.recording.VALUE_CHARS_MAX` characters,
  every list to :data:`ITEMS_MAX` items and every object to :data:`KEYS_MAX` keys, nested
  :data:`DEPTH_MAX` deep, and at most :data:`NODES_MAX` values in all: a snapshot of a huge
  page costs the same as a small one, on the way to the agent's answer.
- A capture's image is left out (``base64``): the step has its own picture.
- Any value under a key that names a secret (:data:`SECRET_KEY`) is left out, in parameters
  and answers alike (a verb's cookies, a header's token).
- An address's user name and password (``https://user:pw@host/``) are left out wherever
  they are (:data:`USERINFO`): the address opened, the page's own.
- Text typed with ``browser.type`` is kept only when the page reported the field's value back
  after typing: a password field's value never is (:class:`browserhost.contract.data.
  ElementState`), nor is any when the action failed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final

from browserhost.contract.recording import VALUE_CHARS_MAX

ITEMS_MAX: Final = 25
KEYS_MAX: Final = 40
DEPTH_MAX: Final = 6
NODES_MAX: Final = 600
SECRET_KEY: Final = re.compile(
    r"pass(word|wd|phrase)?|secret|token|cookie|auth|credential|session_?key|api_?key", re.I
)
HIDDEN: Final = "[hidden]"
USERINFO: Final = re.compile(r"(?<=://)[^/?#@\s]+@")
"""The part of an address that carries a user name and password: ``user:pw@``."""
LEFT_OUT: Final = "[left out]"


def kept(value: object) -> Any:
    """``value`` (JSON-like) as a recording keeps it."""
    return _Cutter().cut(value, 0)


def kept_parameters(action: str, parameters: object, answer: object) -> Any:
    """An action's parameters as a recording keeps them (see the module docstring)."""
    cut = kept(parameters)
    if action == "browser.type" and isinstance(cut, dict) and "value" in cut:
        reported = answer.get("value") if isinstance(answer, Mapping) else None
        if not reported:
            typed = parameters.get("value") if isinstance(parameters, Mapping) else None
            length = len(typed) if isinstance(typed, str) else 0
            cut["value"] = f"{HIDDEN} ({length} characters)"
    return cut


_PLAIN: Final = (bool, int, float)
_SEQUENCES: Final = (list, tuple)


class _Cutter:
    # The checks go from the commonest JSON value to the rarest, and name the concrete types
    # before the abstract Mapping: a snapshot's answer is hundreds of values, cut as each
    # action's step is recorded.
    def __init__(self) -> None:
        self.nodes = 0

    def cut(self, value: object, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > NODES_MAX:
            return "…"
        if isinstance(value, str):
            if "@" in value:
                value = USERINFO.sub(f"{HIDDEN}@", value)
            return value if len(value) <= VALUE_CHARS_MAX else value[: VALUE_CHARS_MAX - 1] + "…"
        if value is None or isinstance(value, _PLAIN):
            return value
        if depth >= DEPTH_MAX:
            return "…"
        if isinstance(value, (dict, Mapping)):
            return self._object(value, depth)
        if isinstance(value, _SEQUENCES):
            items = [self.cut(item, depth + 1) for item in value[:ITEMS_MAX]]
            if len(value) > ITEMS_MAX:
                items.append(f"… {len(value) - ITEMS_MAX} more")
            return items
        return self.cut(str(value), depth)

    def _object(self, value: Mapping[Any, Any], depth: int) -> dict[str, Any]:
        cut: dict[str, Any] = {}
        for count, (key, item) in enumerate(value.items()):
            if count == KEYS_MAX:
                cut["…"] = f"{len(value) - KEYS_MAX} more"
                break
            name = str(key)[:VALUE_CHARS_MAX]
            if _secret(name):
                cut[name] = HIDDEN
            elif name == "base64" and isinstance(item, str):
                cut[name] = f"{LEFT_OUT} ({len(item)} characters)"
            else:
                cut[name] = self.cut(item, depth + 1)
        return cut


@lru_cache(maxsize=1024)
def _secret(name: str) -> bool:
    """Whether a key names a secret; the same few keys come back in every answer."""
    return SECRET_KEY.search(name) is not None
