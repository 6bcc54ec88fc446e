"""A page's console messages and uncaught errors, for the ``console`` verb (:mod:`.diagnostics`).

Every message is kept (``log`` and ``debug`` too, where a snapshot's ``consoleProblems`` has
only errors and warnings), in a bounded ring, with two marks: where the current document's
load began and where the last ``console`` call read up to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from .ring import Ring, latest

CONSOLE_KEPT = 200
"""Console entries a page's log keeps; the oldest go first."""

Since = Literal["load", "last"]

_stack_place = re.compile(r"\(?(\S+?:\d+):\d+\)?$")


@dataclass(frozen=True)
class ConsoleEntry:
    level: str
    text: str
    source: str | None

    def shown(self) -> dict[str, Any]:
        return {"level": self.level, "text": self.text, "source": self.source}


class ConsoleLog:
    """One page's console, oldest first."""

    def __init__(self, size: int = CONSOLE_KEPT) -> None:
        self._ring: Ring[ConsoleEntry] = Ring(size)
        self._loaded_mark = 0
        self._read_mark: int | None = None

    def add(self, entry: ConsoleEntry) -> None:
        self._ring.add(entry)

    def loaded(self) -> None:
        """The page committed a new document: what came before is another page's."""
        self._loaded_mark = self._ring.added

    def read(self, since: Since, limit: int) -> dict[str, Any]:
        """The entries since the document loaded, or since the last read (since the load when
        there was none), the latest ``limit`` of them; marks them read either way."""
        mark = self._loaded_mark
        if since == "last" and self._read_mark is not None:
            mark = self._read_mark
        self._read_mark = self._ring.added
        kept, dropped = self._ring.after(mark)
        return {"since": since, **latest("messages", kept, limit, dropped)}


def stack_source(stack: str | None) -> str | None:
    """``https://a.test/app.js:12`` from the first frame of an error's stack, if it names one."""
    for line in (stack or "").splitlines()[1:]:
        place = _stack_place.search(line.strip())
        if line.strip().startswith("at ") and place is not None:
            return place.group(1)
    return None
