"""What a provider declares about launching and configuring, checked once at install: the
JSON Schema of its launch options and of its configuration, and the operations its instances
may offer; and the words a refusal uses for options that do not fit.

A refusal lists every violation (up to :data:`VIOLATIONS_LISTED`), each with the JSON pointer
of the value, jsonschema's message and the schema's own title and description for it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from jsonschema.exceptions import ValidationError as SchemaViolation

from browserhost.contract.errors import InvalidActionError
from browserhost.contract.json_schema import resolve
from browserhost.contract.records import ConfigurationRecord, InstallError, LaunchRecord

VIOLATIONS_LISTED: Final = 20


@dataclass(frozen=True)
class LaunchSpec:
    """How a provider launches instances: the options' schema, help text, the operations its
    instances may offer beside close, and, in process, its factory (``None`` for a service,
    which is sent the launch)."""

    schema: Mapping[str, Any]
    help: str
    create: Callable[..., Mapping[str, Any]] | None
    checker: Draft202012Validator
    documentation_url: str | None = None
    operations: tuple[str, ...] = ()

    def public(self) -> dict[str, object]:
        row: dict[str, object] = {"inputSchema": dict(self.schema), "help": self.help}
        if self.documentation_url is not None:
            row["documentationUrl"] = self.documentation_url
        row["operations"] = ["close", *self.operations]
        return row


@dataclass(frozen=True)
class ConfigurationSpec:
    """The provider's own settings: their schema, and in process what applies them."""

    schema: Mapping[str, Any]
    checker: Draft202012Validator
    configure: Callable[..., Awaitable[Any]] | None

    def public(self) -> dict[str, object]:
        return {"inputSchema": dict(self.schema)}


def read_launch(declared: LaunchRecord | None) -> LaunchSpec | None:
    """The launch a record declares, or ``None``."""
    if declared is None:
        return None
    schema = object_schema(declared.options_schema, "launch.schema")
    return LaunchSpec(
        schema,
        declared.help,
        declared.create,
        Draft202012Validator(schema),
        declared.documentation_url,
        declared.operations,
    )


def read_configuration(declared: ConfigurationRecord | None) -> ConfigurationSpec | None:
    if declared is None:
        return None
    schema = object_schema(declared.input_schema, "configuration.inputSchema")
    return ConfigurationSpec(schema, Draft202012Validator(schema), declared.configure)


def object_schema(schema: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        raise InstallError(f"{where} is not valid JSON Schema: {exc.message}") from None
    if schema.get("type") != "object":
        raise InstallError(f'{where} must describe an object ("type": "object")')
    return schema


def check_options(
    spec: LaunchSpec | ConfigurationSpec, options: object, refused: str, nothing: str
) -> dict[str, Any]:
    """``options`` when they fit ``checker``'s schema; else :class:`InvalidActionError` that
    starts with ``refused`` (``Chromium cannot launch with these options``), lists every
    violation, and ends with ``nothing`` (``Nothing was launched.``)."""
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise InvalidActionError(f"options must be an object. {nothing}")
    problems = sorted(spec.checker.iter_errors(options), key=lambda e: list(e.path))
    if problems:
        listed = "; ".join(violation(error, spec.schema) for error in problems[:VIOLATIONS_LISTED])
        raise InvalidActionError(f"{refused}: {listed}. {nothing}")
    return options


def violation(error: SchemaViolation, schema: Mapping[str, Any]) -> str:
    """``/proxy/server: 'x' does not match ... (Proxy server: The proxy's address ...)``: the
    JSON pointer of the value, jsonschema's message, and the schema's own words for it."""
    pointer = "".join(f"/{part}" for part in error.path) or "/"
    words = _words(schema, list(error.path))
    if error.validator == "additionalProperties":
        known = ", ".join(sorted(resolve(schema, schema).get("properties", {})))
        words = f"the options are: {known}"
    return f"{pointer}: {error.message}" + (f" ({words})" if words else "")


def _words(schema: Mapping[str, Any], path: list[Any]) -> str:
    here: Mapping[str, Any] = resolve(schema, schema)
    for part in path:
        properties = here.get("properties", {})
        if not isinstance(part, str) or part not in properties:
            return ""
        here = resolve(schema, properties[part])
    title, description = here.get("title"), here.get("description")
    return ": ".join(str(text) for text in (title, description) if text)
