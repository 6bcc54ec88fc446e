"""The project's own words name an action (``browser.snapshot``) or a verb (``verb.mouse``) as
HTTP and providers call them; an adapter shows them in the names its users type (MCP's
``browser_mouse``, the command line's ``call mouse``).

Only the project's words are renamed: descriptions, refusals and notices. A page's text,
labels, values and addresses are the page's, and stay as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Renamer = Callable[[str, str], str]
"""An adapter's name for an action (kind ``"browser"``) or a verb (kind ``"verb"``) of a name."""

_own_name = re.compile(
    # Not part of an address or a file name (verb.example.com, /browser.js, mail@browser.dev).
    r"(?<![\w.\-/:@])(browser|verb)\.([a-z][a-z_]*)(?![\w\-/]|\.\w)"
)


def renamed(text: str, rename: Renamer) -> str:
    """``text`` with every action and verb it names in the names of ``rename``."""
    return _own_name.sub(lambda match: rename(match.group(1), match.group(2)), text)


def notices_renamed(answer: Mapping[str, Any], rename: Renamer) -> dict[str, Any]:
    """``answer`` with its notices :func:`renamed`: its own, and those of the objects it
    lists (fill_form's fields). Notices are the provider's words to the agent; nothing else
    is touched, and neither is evaluate's ``value``, whatever keys it holds."""

    def noticed(item: Any) -> Any:
        notice = item.get("notice") if isinstance(item, Mapping) else None
        return {**item, "notice": renamed(notice, rename)} if isinstance(notice, str) else item

    return {
        key: [noticed(item) for item in value]
        if isinstance(value, list) and key != "value"
        else value
        for key, value in noticed(answer).items()
    }
