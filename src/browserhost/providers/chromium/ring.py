"""A bounded, numbered log: what a page's network and console logs keep (:mod:`.request_log`,
:mod:`.console_log`).

Each entry gets the next number as it is added; when the ring is full the oldest goes. A
reader names where its window starts (a number: "after the page loaded", "after my last
read") and learns how many entries of that window were dropped, so a long-lived page costs
a fixed amount of memory and an answer still says what it no longer has.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")


class Shown(Protocol):
    def shown(self) -> dict[str, Any]:
        """The entry as an answer lists it."""
        ...


S = TypeVar("S", bound=Shown)


class Ring(Generic[T]):
    """The latest ``size`` entries added, numbered from 1."""

    def __init__(self, size: int) -> None:
        self._entries: deque[tuple[int, T]] = deque(maxlen=size)
        self.added = 0
        """How many entries were ever added: the number of the latest one."""

    def add(self, entry: T) -> T | None:
        """Keep ``entry``; returns the oldest one when it had to go to make room."""
        dropped = None
        if len(self._entries) == self._entries.maxlen:
            dropped = self._entries[0][1]
        self.added += 1
        self._entries.append((self.added, entry))
        return dropped

    def after(self, mark: int) -> tuple[list[T], int]:
        """The entries numbered after ``mark``, oldest first, and how many of those were
        dropped."""
        kept = [entry for number, entry in self._entries if number > mark]
        first_kept = self.added - len(self._entries)  # the number of the latest one dropped
        return kept, max(0, first_kept - mark)


def latest(name: str, matched: list[S], limit: int, dropped: int) -> dict[str, Any]:
    """An answer's list ``name``: the latest ``limit`` entries of ``matched``; ``total`` counts
    them all, ``omitted`` those past the limit, ``dropped`` those the ring no longer held."""
    shown = matched[-limit:]
    return {
        name: [entry.shown() for entry in shown],
        "total": len(matched),
        "omitted": len(matched) - len(shown),
        "dropped": dropped,
    }
