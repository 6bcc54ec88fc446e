"""Every action in the contract reaches agents, scripts and people: it has an MCP tool, a
client method and a CLI verb that match its parameter model, and the README shows the verb."""

from __future__ import annotations

import inspect
import re
import typing
from pathlib import Path

import pytest
import typer

from browserhost import mcp_server
from browserhost.cli import app
from browserhost.client import Client
from browserhost.contract import ACTIONS, ActionSpec
from browserhost.contract.deadlines import TIMEOUT_KEY

SPECS = list(ACTIONS.values())
README = Path(__file__).parent.parent / "README.md"
WIRE_NAME = re.compile(r"\bbrowser\.[a-z]")


def _wire_fields(spec: ActionSpec) -> dict[str, bool]:
    """Wire name → required, for the action's parameters."""
    return {
        info.alias or name: info.is_required()
        for name, info in spec.parameters.model_fields.items()
    }


def test_the_tools_are_the_actions_and_browser_providers() -> None:
    names = [tool.name for tool in mcp_server.tools()]
    assert names == [spec.tool_name for spec in SPECS] + [mcp_server.PROVIDERS_TOOL]


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.name)
def test_every_action_has_an_mcp_tool_with_its_parameters(spec: ActionSpec) -> None:
    tool = {tool.name: tool for tool in mcp_server.tools()}[spec.tool_name]
    schema = tool.input_schema
    fields = _wire_fields(spec)
    assert schema["type"] == "object"
    assert set(schema["properties"]) == set(fields) | {TIMEOUT_KEY}  # every tool takes a wait
    assert set(schema.get("required", [])) == {
        name for name, required in fields.items() if required
    }
    for name, prop in schema["properties"].items():
        assert prop.get("description"), f"{spec.tool_name}.{name} has no description"
        assert not WIRE_NAME.search(prop["description"]), "tool text names tools, not actions"
    assert tool.description
    assert not WIRE_NAME.search(tool.description)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.name)
def test_every_action_has_a_client_method_with_its_parameters(spec: ActionSpec) -> None:
    method = getattr(Client, spec.verb)
    assert inspect.iscoroutinefunction(method)
    assert method.__doc__ == spec.description
    hints = typing.get_type_hints(method)
    assert hints.pop("return") is spec.data
    signature = inspect.signature(method)
    parameters = {name: p for name, p in signature.parameters.items() if name != "self"}
    model = spec.parameters.model_fields
    assert set(parameters) == set(model)
    for name, parameter in parameters.items():
        field = model[name]
        assert hints[name] == field.annotation, f"{spec.verb}({name}) type differs from the model"
        if field.is_required():
            assert parameter.default is inspect.Parameter.empty, f"{spec.verb}({name}) required"
        else:
            assert parameter.default == field.default, f"{spec.verb}({name}) default differs"


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.name)
def test_every_action_has_a_cli_verb_with_its_parameters(spec: ActionSpec) -> None:
    group = typer.main.get_command(app)
    command = group.commands[spec.verb]  # type: ignore[attr-defined]  # a TyperGroup
    names = {param.name: param for param in command.params}
    for field, info in spec.parameters.model_fields.items():
        assert field in names, f"browserhost {spec.verb} has no option for {field}"
        assert names[field].required == info.is_required()
    assert {"api_url", "api_token", "as_json", "provider", "session"} <= set(names)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.name)
def test_the_readme_shows_every_verb_and_tool(spec: ActionSpec) -> None:
    readme = README.read_text()
    assert re.search(rf"^browserhost {spec.verb}\b", readme, re.MULTILINE), spec.verb
    assert spec.tool_name in readme
