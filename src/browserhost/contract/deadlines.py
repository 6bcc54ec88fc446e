"""A caller's own wait for one action: ``timeoutMs``, beside the action's parameters.

Reference 001: callers may bring their own deadline, bounded by the host's maximum; the host
waits that long instead of the action's own wait (``OPEN_TIMEOUT_S``, ``ACTION_TIMEOUT_S``)
and sends the provider the moment it stops waiting as an absolute ``deadline``. An action
still unanswered then is ``REQUEST_FAILED``: it may have run.

Every adapter takes it under the one name :data:`TIMEOUT_KEY`: the HTTP body's field, an MCP
tool's argument (:func:`with_timeout`, :func:`take_timeout`), the CLI's ``--timeout-ms``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .errors import InvalidActionError
from .limits import CALLER_TIMEOUT_MAX_MS, CALLER_TIMEOUT_MIN_MS

TIMEOUT_KEY: Final = "timeoutMs"

TIMEOUT_HELP: Final = (
    f"How long to wait for the answer, in milliseconds ({CALLER_TIMEOUT_MIN_MS} to "
    f"{CALLER_TIMEOUT_MAX_MS}), instead of the action's own wait; still unanswered then, it "
    "fails as may have run."
)


def timeout_property() -> dict[str, Any]:
    """The JSON Schema of :data:`TIMEOUT_KEY` as a tool's argument."""
    return {
        "type": "integer",
        "minimum": CALLER_TIMEOUT_MIN_MS,
        "maximum": CALLER_TIMEOUT_MAX_MS,
        "description": TIMEOUT_HELP,
    }


def with_timeout(schema: Mapping[str, Any]) -> dict[str, Any]:
    """An object schema of a tool's arguments with :data:`TIMEOUT_KEY` added, unless it
    declares a property of that name itself (a verb's own argument is left to the verb)."""
    properties = dict(schema.get("properties") or {})
    if TIMEOUT_KEY in properties:
        return dict(schema)
    return {**schema, "properties": {**properties, TIMEOUT_KEY: timeout_property()}}


def take_timeout(
    arguments: Mapping[str, Any], schema: Mapping[str, Any] | None = None
) -> tuple[dict[str, Any], object]:
    """A tool call's arguments without :data:`TIMEOUT_KEY`, and its value (``None`` when not
    given). Left in place when ``schema`` declares a property of that name itself."""
    rest = dict(arguments)
    if schema is not None and TIMEOUT_KEY in (schema.get("properties") or {}):
        return rest, None
    return rest, rest.pop(TIMEOUT_KEY, None)


def caller_timeout_s(timeout_ms: object) -> float | None:
    """A caller's ``timeoutMs`` in seconds; ``None`` (the action's own) when not given.
    Anything else than a whole number in range is :class:`InvalidActionError`: nothing is
    sent."""
    if timeout_ms is None:
        return None
    if type(timeout_ms) is float and timeout_ms.is_integer():
        timeout_ms = int(timeout_ms)  # JSON Schema's integer: JSON does not tell 1500.0 apart
    if (
        type(timeout_ms) is not int
        or not CALLER_TIMEOUT_MIN_MS <= timeout_ms <= CALLER_TIMEOUT_MAX_MS
    ):
        raise InvalidActionError(
            f"timeoutMs must be a whole number of milliseconds from {CALLER_TIMEOUT_MIN_MS} to "
            f"{CALLER_TIMEOUT_MAX_MS} (the host's maximum), or left out for the action's own "
            "wait. Nothing was sent."
        )
    return timeout_ms / 1000


def seconds_said(duration_s: float) -> str:
    """A wait worked out from a deadline, as a message says it: ``0.11 s``, ``3.8 s``,
    ``15 s``. Two significant digits under a second, tenths above, no trailing zeros (as
    ``:g`` writes a set limit); ``:g`` alone would say ``0.112217 s``."""
    if duration_s < 1:
        return f"{duration_s:.2g} s"
    return f"{round(duration_s, 1):g} s"
