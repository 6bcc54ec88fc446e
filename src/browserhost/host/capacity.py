"""How many more browsers a provider can start where its browsers run, for the providers
listing (``GET /api/browser-providers``, ``browserhost providers``).

An in-process record may declare ``"capacity": <async callable>``, answering one row::

    {"source": "Selenium Grid", "free": 3, "busy": 1}
    {"source": "Selenium Grid", "problem": "does not answer within 2 s; ..."}

``source`` names where the browsers run; ``free`` and ``busy`` count its slots; ``problem``
says why they could not be counted, or why none can be used. The listing asks every provider
at once and waits :data:`CAPACITY_S` at most: a provider that does not answer in time, fails,
or answers something else is listed with a ``problem`` of the host's words, and the listing
itself never fails for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Final

CAPACITY_S: Final = 3.0
"""How long the listing waits for a provider's count."""
SOURCE_MAX: Final = 60
PROBLEM_MAX: Final = 300

Counter = Callable[[], Awaitable[object]]

log = logging.getLogger(__name__)


async def count_all(
    rows: list[dict[str, object]], counters: Mapping[str, Counter]
) -> list[dict[str, object]]:
    """``rows`` (the listing's, by ``id``), each with its provider's ``capacity`` where it
    declares one; all asked at once."""
    asked = [row for row in rows if row.get("id") in counters]
    counted = await asyncio.gather(
        *(count(counters[str(row["id"])], str(row["name"])) for row in asked)
    )
    found = {id(row): capacity for row, capacity in zip(asked, counted, strict=True)}
    return [row | {"capacity": found[id(row)]} if id(row) in found else row for row in rows]


async def count(counter: Counter, name: str) -> dict[str, object]:
    """One provider's row, or one that says why it could not be had."""
    try:
        async with asyncio.timeout(CAPACITY_S):
            answer = await counter()
    except TimeoutError:
        return {"source": name, "problem": f"not counted: no answer within {CAPACITY_S:g} s"}
    except Exception:  # a provider's own failure must not fail the listing
        log.exception("browser provider %r failed to count its capacity", name)
        return {"source": name, "problem": "not counted: the provider failed (see the log)"}
    return read_row(answer, name)


def read_row(answer: object, name: str) -> dict[str, object]:
    """``answer`` as a listed row, checked: what is not one becomes a ``problem``."""
    if not isinstance(answer, Mapping):
        return _not_understood(name)
    source, problem = answer.get("source"), answer.get("problem")
    free, busy = answer.get("free"), answer.get("busy")
    if not isinstance(source, str) or not 0 < len(source.strip()) <= SOURCE_MAX:
        return _not_understood(name)
    row: dict[str, object] = {"source": source.strip()}
    if free is not None or busy is not None:
        if not (_slots(free) and _slots(busy)):
            return _not_understood(source)
        row |= {"free": free, "busy": busy}
    if problem is not None:
        if not isinstance(problem, str) or not problem.strip():
            return _not_understood(source)
        row["problem"] = problem.strip()[:PROBLEM_MAX]
    if len(row) == 1:
        return _not_understood(source)
    return row


def _slots(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _not_understood(source: str) -> dict[str, object]:
    return {"source": source, "problem": "not counted: the provider's count was not understood"}
