"""A schema listed to models is plain (:func:`browserhost.contract.json_schema.plain`):
self-contained, optional not null, untitled, and no wider than the schema as declared."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel, Field

from browserhost import mcp_server
from browserhost.contract import VerbSpec
from browserhost.contract.json_schema import PLAIN_DEPTH_MAX, plain
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider
from browserhost.providers.stub import StubProvider


class Cookie(BaseModel):
    name: str = Field(min_length=1)
    title: str | None = Field(default=None, description="A property named title stays.")


class Node(BaseModel):
    label: str
    children: list[Node] = Field(default_factory=list, description="Nodes under it.")


class Arguments(BaseModel):
    cookies: list[Cookie] = Field(min_length=1)
    first: Cookie | None = None
    tree: Node | None = None
    value: str | bool | None = None


def _keywords(schema: Any) -> set[str]:
    """Every key of every object in ``schema``, property names included."""
    if isinstance(schema, dict):
        return set(schema) | {key for value in schema.values() for key in _keywords(value)}
    if isinstance(schema, list):
        return {key for value in schema for key in _keywords(value)}
    return set()


def test_references_are_inlined_and_optional_is_not_null() -> None:
    declared = Arguments.model_json_schema()
    assert "$defs" in declared  # what pydantic, and so many providers, declare
    schema = plain(declared)
    text = json.dumps(schema)
    assert not {"$ref", "$defs"} & _keywords(schema)
    assert '"null"' not in text
    cookie = schema["properties"]["cookies"]["items"]
    assert cookie["required"] == ["name"]
    assert set(cookie["properties"]) == {"name", "title"}  # a property may be named title
    assert "title" not in cookie["properties"]["title"]  # the keyword goes
    assert schema["properties"]["first"]["properties"]["name"] == {
        "minLength": 1,
        "type": "string",
    }
    assert schema["properties"]["value"]["anyOf"] == [{"type": "string"}, {"type": "boolean"}]
    # A recursive model ends where it would repeat, open and described.
    children = schema["properties"]["tree"]["properties"]["children"]
    assert children["items"] == {}
    assert children["description"] == "Nodes under it."


@pytest.mark.parametrize(
    "arguments",
    [
        {"cookies": [{"name": "a"}]},
        {"cookies": [{"name": "a", "title": "t"}], "first": {"name": "b"}, "value": True},
        {"cookies": [{"name": "a"}], "tree": {"label": "x", "children": [{"label": "y"}]}},
    ],
)
def test_what_the_plain_schema_accepts_the_declared_one_does(arguments: dict[str, Any]) -> None:
    jsonschema.validate(arguments, plain(Arguments.model_json_schema()))
    Arguments.model_validate(arguments)


@pytest.mark.parametrize("arguments", [{"cookies": []}, {"cookies": [{"name": ""}]}])
def test_what_the_declared_schema_refuses_the_plain_one_does(arguments: dict[str, Any]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(arguments, plain(Arguments.model_json_schema()))


@pytest.mark.parametrize(
    "provider", [ChromiumProvider(ChromiumConfig()), StubProvider()], ids=["chromium", "stub"]
)
def test_every_tool_an_agent_is_listed_is_plain(provider: Any) -> None:
    """Gemini's API and several MCP clients fail on a ``$ref``; the ten and every verb of
    the built-in providers are listed without one."""
    listed = [tool.input_schema for tool in mcp_server.tools()] + [
        mcp_server.verb_tool(f"browser_{verb.name}", verb).input_schema
        for verb in (offered.spec for offered in provider.verbs.values())
    ]
    assert len(listed) > 11
    for schema in listed:
        assert not {"$ref", "$defs", "definitions", "title"} & _keywords(schema), schema
        assert '"null"' not in json.dumps(schema)
        jsonschema.Draft202012Validator.check_schema(schema)


def test_a_providers_schema_nested_past_reason_is_listed_with_its_depth_bounded() -> None:
    """A provider's schema is the far side's to write: one nested hundreds deep still lists
    (it failed the whole tools listing), read to a bound and left open below it."""
    node: dict[str, Any] = {"type": "string"}
    for _ in range(900):
        node = {"type": "array", "items": node}
    declared = {"type": "object", "properties": {"rows": node}}
    verb = VerbSpec(name="deep", description="Nested far.", input_schema=declared)
    schema = mcp_server.verb_tool("browser_deep", verb).input_schema
    depth, part = 0, schema["properties"]["rows"]
    while "items" in part:
        depth, part = depth + 1, part["items"]
    assert 0 < depth <= PLAIN_DEPTH_MAX
    assert part == {}  # open: the host still checks a call against the schema as declared
    jsonschema.Draft202012Validator.check_schema(schema)
