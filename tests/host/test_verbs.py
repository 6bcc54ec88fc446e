"""Verbs beyond the ten: declared by a provider, checked by the host, sent like any action."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import Field

from browserhost.contract import Context, ProviderRequest
from browserhost.contract.errors import InvalidActionError, UnsupportedError
from browserhost.host import Host
from browserhost.host.catalog import InstallError, read_record
from browserhost.sdk import ActionError, Provider, VerbArguments, verb
from tests.recording import Recorder

FIND = {
    "name": "find",
    "description": "Find elements by text.",
    "inputSchema": {
        "type": "object",
        "properties": {"text": {"type": "string", "minLength": 1}, "limit": {"type": "integer"}},
        "required": ["text"],
        "additionalProperties": False,
    },
    "changesPage": False,
}


@pytest.fixture
def host(tmp_path: Path) -> Host:
    return Host(tmp_path)


def with_verbs(host: Host, *verbs: dict[str, Any]) -> Recorder:
    recorder = Recorder()
    host.catalog.install(recorder.record(verbs=list(verbs)))
    host.select(recorder.id)
    return recorder


async def test_a_declared_verb_is_sent_with_its_arguments_and_context(host: Host) -> None:
    recorder = with_verbs(host, FIND)
    context = Context(directory="/p", session_id="s")
    outcome = await host.dispatch("verb.find", {"text": "Pricing", "limit": 3}, context)
    assert outcome.data == {"echo": "verb.find"}
    [sent] = recorder.wire
    assert sent["action"] == "verb.find"
    assert sent["parameters"] == {"text": "Pricing", "limit": 3}
    assert sent["context"] == {"directory": "/p", "sessionId": "s"}


async def test_an_undeclared_verb_is_unsupported_and_names_the_ones_offered(host: Host) -> None:
    recorder = with_verbs(host, FIND)
    with pytest.raises(UnsupportedError) as refused:
        await host.dispatch("verb.hover", {"selector": "#a"})
    assert refused.value.message == (
        "Recorder rec has no verb 'hover'; this provider offers: find. Nothing was sent."
    )
    assert recorder.requests == []


async def test_arguments_that_break_the_schema_are_refused_listing_each_problem(
    host: Host,
) -> None:
    recorder = with_verbs(host, FIND)
    with pytest.raises(InvalidActionError) as refused:
        await host.dispatch("verb.find", {"limit": "three", "colour": "red"})
    message = refused.value.message
    assert message.startswith("verb.find was refused: ")
    assert "'text' is a required property" in message
    assert "limit: 'three' is not of type 'integer'" in message
    assert "'colour' was unexpected" in message
    assert message.endswith("Nothing was sent.")
    with pytest.raises(InvalidActionError):
        await host.dispatch("verb.find", ["not", "an", "object"])
    assert recorder.requests == []


async def test_the_listing_shows_each_providers_verbs(host: Host) -> None:
    with_verbs(host, FIND)
    [provider] = host.providers().providers
    assert provider["verbs"] == [FIND]


@pytest.mark.parametrize(
    ("verbs", "why"),
    [
        ([{**FIND, "name": "Find"}], "must match"),
        ([{**FIND, "name": "open"}], "one of the ten actions"),
        ([{**FIND, "inputSchema": {"type": "string"}}], "an object schema"),
        ([{**FIND, "inputSchema": {"type": "object", "properties": 3}}], "not valid JSON Schema"),
        ([{**FIND, "description": " "}], "1..1000 characters"),
        ([FIND, FIND], "declared twice"),
        ("find", "must be a list"),
    ],
)
def test_a_malformed_verb_declaration_refuses_the_record(verbs: object, why: str) -> None:
    with pytest.raises(InstallError, match=why):
        read_record({**Recorder().record(), "verbs": verbs})


class Arguments(VerbArguments):
    text: str = Field(min_length=1, description="What to look for.")
    max_results: int = Field(5, ge=1)


class Finder(Provider):
    id = "finder"
    name = "Finder"

    @verb("Find things by text.", changes_page=False)
    async def find(self, arguments: Arguments, context: Context) -> dict[str, object]:
        if arguments.text == "nothing":
            raise ActionError("Nothing has that text.")
        return {"found": arguments.text, "max": arguments.max_results}


def test_an_sdk_verb_is_declared_from_its_method_and_model() -> None:
    [declared] = Finder().registration()["verbs"]
    assert declared["name"] == "find"
    assert declared["changesPage"] is False
    schema = declared["inputSchema"]
    assert schema["required"] == ["text"]
    assert set(schema["properties"]) == {"text", "maxResults"}  # camelCase on the wire
    assert schema["additionalProperties"] is False


async def test_an_sdk_verb_runs_through_the_host_and_refuses_like_an_action(host: Host) -> None:
    host.catalog.install(Finder().registration())
    host.select("finder")
    outcome = await host.dispatch("verb.find", {"text": "Pricing", "maxResults": 2})
    assert outcome.data == {"found": "Pricing", "max": 2}
    with pytest.raises(InvalidActionError, match="maxResults: 0 is less than the minimum of 1"):
        await host.dispatch("verb.find", {"text": "a", "maxResults": 0})
    answer = await Finder().answer(
        ProviderRequest("r1", "verb.find", {"text": "nothing"}, Context())
    )
    assert answer == {"ok": False, "error": "Nothing has that text."}
    answer = await Finder().answer(ProviderRequest("r2", "verb.nope", {}, Context()))
    assert answer == {"ok": False, "error": "This provider has no verb 'nope'."}


async def test_the_stub_offers_one_verb_that_submits_its_form(host: Host) -> None:
    from browserhost.providers.stub import StubProvider

    host.catalog.install(StubProvider().registration())
    host.select("stub")
    await host.dispatch("browser.open", {"url": "https://stub.test/form"})
    await host.dispatch("browser.type", {"selector": "#q", "value": "cats"})
    pressed = await host.dispatch("verb.press_key", {"key": "Enter"})
    assert pressed.data == {"key": "Enter", "url": "https://stub.test/search?q=cats"}
