"""A verb's declared schema, read so that checking arguments against it never holds the host.

A verb's JSON Schema may come from the far side of the bridge or from a provider service's
record, and the host checks every call's arguments against it on its one event loop: a
schema is not trusted. :func:`read_schema` reads one at install and refuses it, saying why,
unless it is

- at most :data:`~browserhost.contract.limits.VERB_SCHEMA_MAX_BYTES` as JSON, and valid JSON
  Schema (2020-12);
- written with ``pattern`` of at most :data:`~browserhost.contract.limits.VERB_PATTERN_MAX_CHARS`
  that RE2 can run (no lookaround, no backreference): RE2 matches in time linear in the text,
  where a backtracking engine took 7 s for ``^(a+)+$`` against 25 characters;
- free of ``patternProperties``, which jsonschema matches with Python's ``re`` in code that no
  keyword of ours replaces.

:meth:`ArgumentChecker.problems` then refuses arguments over
:data:`~browserhost.contract.limits.VERB_ARGUMENTS_MAX_BYTES`, and stops a check that has
used :data:`CHECK_CPU_MAX_S` of processor time (``$ref`` chains that branch at every level can
ask for exponentially many steps), raising :class:`UncheckableArgumentsError` for either.
"""

from __future__ import annotations

import functools
import gc
import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final

import re2
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import SchemaError, ValidationError
from jsonschema.protocols import Validator

from browserhost.contract.limits import (
    VERB_ARGUMENTS_MAX_BYTES,
    VERB_PATTERN_MAX_CHARS,
    VERB_SCHEMA_MAX_BYTES,
)

CHECK_CPU_MAX_S: Final = 0.1
"""The processor time one check of arguments may use; a usual verb's uses under a millisecond,
and one of fifty form fields a few. Processor time, not time passed, so a busy machine does not
refuse a check it would have finished; and the check's own, not that of a garbage collection
that happens to run during it (in a large process, a full one can take longer than this)."""
_DATA_KEYWORDS: Final = frozenset({"const", "default", "enum", "examples"})
"""Keywords whose values are data, not schemas: a ``pattern`` key inside them is not one."""
_NAMED_SCHEMAS: Final = frozenset({"properties", "$defs", "definitions", "dependentSchemas"})
"""Keywords whose values map names to schemas: a property called ``pattern`` is a name."""

_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False  # a refused pattern is said in the refusal, not on stderr
_RE2_OPTIONS.max_mem = 1 << 20  # per pattern; RE2 refuses one that would need more


class SchemaRefusedError(ValueError):
    """A declared schema the host will not check arguments against; the message says why."""


class UncheckableArgumentsError(ValueError):
    """Arguments the host will not check: too large, or too costly for the declared schema."""


class _Collections(threading.local):
    """The processor time each thread has spent in garbage collections (``gc.callbacks``)."""

    spent = 0.0
    began: float | None = None

    def __call__(self, phase: str, info: Mapping[str, Any]) -> None:
        if phase == "start":
            self.began = time.thread_time()
        elif self.began is not None:
            self.spent += time.thread_time() - self.began
            self.began = None


_collections = _Collections()
gc.callbacks.append(_collections)


def _own_time() -> float:
    """This thread's processor time, less what it spent collecting garbage."""
    return time.thread_time() - _collections.spent


@dataclass(frozen=True)
class _Check:
    patterns: Mapping[str, Any]
    deadline: float
    """:func:`_own_time` when the check must stop."""


_running: ContextVar[_Check] = ContextVar("verb_check")


def _spend() -> _Check:
    """The check under way, unless its time is up: called at every keyword."""
    check = _running.get()
    if _own_time() > check.deadline:
        raise UncheckableArgumentsError(
            f"checking them against the declared schema took over {CHECK_CPU_MAX_S:g} s"
        )
    return check


def _counted(keyword: Any) -> Any:
    def counted(
        validator: Validator, value: Any, instance: Any, schema: Mapping[str, Any]
    ) -> Iterator[ValidationError]:
        _spend()
        yield from keyword(validator, value, instance, schema) or ()

    return counted


def _pattern(
    validator: Validator, pattern: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    compiled = _spend().patterns.get(pattern)
    if compiled is None:  # read_schema compiled every pattern the schema holds
        raise UncheckableArgumentsError(f"the pattern {pattern[:80]!r} was not read")
    if validator.is_type(instance, "string") and not compiled.search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


# types-jsonschema leaves extend unannotated; like create, it answers a validator class.
_extend: Callable[..., type[Validator]] = validators.extend
_Checking = _extend(
    Draft202012Validator,
    {
        **{name: _counted(keyword) for name, keyword in Draft202012Validator.VALIDATORS.items()},
        "pattern": _pattern,
    },
)


@dataclass(frozen=True)
class ArgumentChecker:
    """Checks a verb's arguments against its declared schema, within bounds."""

    validator: Validator
    patterns: Mapping[str, Any]
    """Each pattern of the schema, compiled by RE2."""

    def problems(self, arguments: Mapping[str, Any]) -> list[ValidationError]:
        """Every way ``arguments`` break the schema, or :class:`UncheckableArgumentsError`."""
        try:
            size = len(json.dumps(arguments, separators=(",", ":"), allow_nan=False).encode())
        except (TypeError, ValueError, RecursionError):
            raise UncheckableArgumentsError("they are not JSON") from None
        if size > VERB_ARGUMENTS_MAX_BYTES:
            raise UncheckableArgumentsError(
                f"they are over {VERB_ARGUMENTS_MAX_BYTES:,} bytes as JSON"
            )
        token = _running.set(_Check(self.patterns, _own_time() + CHECK_CPU_MAX_S))
        try:
            return list(self.validator.iter_errors(arguments))
        except RecursionError:  # a $ref that refers to itself without end
            raise UncheckableArgumentsError(
                "the declared schema refers to itself without end"
            ) from None
        finally:
            _running.reset(token)


def read_schema(schema: Mapping[str, Any]) -> ArgumentChecker:
    """The checker of a declared schema, or :class:`SchemaRefusedError`."""
    try:
        text = json.dumps(schema, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise SchemaRefusedError("its input schema is not JSON") from None
    if len(text.encode()) > VERB_SCHEMA_MAX_BYTES:
        raise SchemaRefusedError(f"its input schema is over {VERB_SCHEMA_MAX_BYTES:,} bytes")
    try:
        return _read(text)
    except RecursionError:
        raise SchemaRefusedError("its input schema is nested too deeply") from None


# Every provider's verbs fit (VERBS_MAX each): a browser that reconnects declares the same
# schemas, and the bridge reads a hello's twice (checked in a worker thread, then installed).
@functools.lru_cache(maxsize=256)
def _read(text: str) -> ArgumentChecker:
    schema = json.loads(text)
    patterns = {}
    for pattern in _patterns(schema):
        if len(pattern) > VERB_PATTERN_MAX_CHARS:
            raise SchemaRefusedError(
                f"its input schema has a pattern over {VERB_PATTERN_MAX_CHARS:,} characters"
            )
        try:
            patterns[pattern] = re2.compile(pattern, _RE2_OPTIONS)
        except re2.error:
            raise SchemaRefusedError(
                f"its input schema's pattern {pattern[:80]!r} is not one the host can check in "
                "linear time (lookarounds and backreferences are not supported)"
            ) from None
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        raise SchemaRefusedError(
            f"its input schema is not valid JSON Schema: {exc.message}"
        ) from None
    return ArgumentChecker(_Checking(schema), patterns)


def _patterns(node: object) -> Iterator[str]:
    """Every ``pattern`` in a schema; ``patternProperties`` anywhere refuses it."""
    if isinstance(node, list):
        for item in node:
            yield from _patterns(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key in _DATA_KEYWORDS:
                continue
            if key in _NAMED_SCHEMAS and isinstance(value, dict):
                yield from _patterns(list(value.values()))
            elif key == "patternProperties" and isinstance(value, dict):
                raise SchemaRefusedError(
                    "its input schema uses patternProperties, which the host does not check; "
                    "list the properties, or use additionalProperties"
                )
            elif key == "pattern" and isinstance(value, str):
                yield value
            else:
                yield from _patterns(value)
