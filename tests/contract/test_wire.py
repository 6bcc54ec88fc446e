"""The envelope a provider receives and the rule for reading its answer."""

from __future__ import annotations

import json

import pytest

from browserhost.contract import Context, ProviderRequest, Refusal, Success, normalize, parse_result
from browserhost.contract.limits import PROTOCOL_VERSION
from browserhost.contract.wire import ProtocolVersionError


@pytest.mark.parametrize(
    "data", [{}, {"url": "https://a.test/", "nested": {"x": [1]}}, None, [], [1, "a"], 3, "done"]
)
def test_ok_true_with_any_json_data_is_a_success(data: object) -> None:
    """A verb answers any JSON value; the host checks the ten's data against their models."""
    assert parse_result({"ok": True, "data": data, "extra": "ignored"}) == Success(data)


@pytest.mark.parametrize(
    "error", ["x", "No element matches #save; take a new snapshot.", "e" * 2000]
)
def test_ok_false_with_1_to_2000_characters_is_a_refusal(error: str) -> None:
    assert parse_result({"ok": False, "error": error}) == Refusal(error)


@pytest.mark.parametrize(
    "answer",
    [
        None,
        "ok",
        [{"ok": True, "data": {}}],
        {},
        {"data": {}},
        {"ok": True},
        {"ok": 1, "data": {}},
        {"ok": "true", "data": {}},
        {"ok": False},
        {"ok": False, "error": ""},
        {"ok": False, "error": "e" * 2001},
        {"ok": False, "error": 500},
        {"ok": None, "error": "x"},
    ],
)
def test_anything_else_is_not_a_browser_result(answer: object) -> None:
    assert parse_result(answer) is None


def test_the_envelope_has_request_id_action_normalized_parameters_and_context() -> None:
    call = normalize("browser.click", {"selector": " #save ", "force": True})
    request = ProviderRequest(
        "browser-1", call.name, call.parameters, Context(directory="/repo", session_id="ses_1")
    )
    assert request.to_wire() == {
        "protocolVersion": PROTOCOL_VERSION,
        "requestId": "browser-1",
        "action": "browser.click",
        "parameters": {"selector": "#save"},
        "context": {"directory": "/repo", "sessionId": "ses_1"},
    }


def test_the_envelope_carries_the_deadline_and_the_provider_reads_it_back() -> None:
    request = ProviderRequest("browser-1", "verb.find", {"text": "a"}, Context(), deadline_ms=5)
    wire = request.to_wire()
    assert wire["deadline"] == 5
    read = ProviderRequest.from_wire(json.dumps(wire))
    assert read is not None
    assert read.deadline_ms == 5
    assert read.seconds_left(20.0) == 0.0  # long past


def test_an_envelope_without_a_version_is_read_as_this_version() -> None:
    """Hosts older than the field sent none: it is the version this side speaks."""
    wire = {"requestId": "r", "action": "browser.back", "parameters": {}}
    read = ProviderRequest.from_wire(json.dumps(wire))
    assert read is not None
    assert read.seconds_left(20.0) == 20.0  # no deadline: the action's own wait


def test_an_envelope_of_another_version_is_refused_naming_both() -> None:
    wire = {"protocolVersion": 2, "requestId": "r", "action": "browser.back", "parameters": {}}
    with pytest.raises(ProtocolVersionError) as refused:
        ProviderRequest.from_wire(json.dumps(wire))
    assert "the host sent provider protocol version 2 and this provider speaks version 1" in str(
        refused.value
    )


def test_unknown_context_fields_are_null_on_the_wire() -> None:
    assert Context().to_wire() == {"directory": None, "sessionId": None}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (None, (None, None)),
        ("repo", (None, None)),
        ({"directory": "", "sessionId": ""}, (None, None)),
        ({"directory": 5, "sessionId": ["s"]}, (None, None)),
        ({"directory": "/repo", "sessionId": "s1", "other": 1}, ("/repo", "s1")),
    ],
)
def test_context_fields_that_are_not_non_empty_strings_count_as_unknown(
    raw: object, expected: tuple[str | None, str | None]
) -> None:
    assert Context.read(raw).key == expected


def test_a_provider_reads_back_exactly_what_the_host_sent() -> None:
    call = normalize("browser.type", {"selector": "#q", "value": "hi", "submit": True})
    sent = ProviderRequest("browser-2", call.name, call.parameters, Context(session_id="s"))
    received = ProviderRequest.from_wire(json.dumps(sent.to_wire()))
    assert received == sent


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[]",
        b'{"action": "browser.back", "parameters": {}}',
        b'{"requestId": "", "action": "browser.back", "parameters": {}}',
        b'{"requestId": "r", "action": "browser.fly", "parameters": {}}',
        b'{"requestId": "r", "action": "browser.back", "parameters": []}',
        b'{"requestId": "r", "action": "browser.inspect", "parameters": {}}',
    ],
)
def test_a_provider_reads_anything_else_as_not_a_browser_action(body: bytes) -> None:
    assert ProviderRequest.from_wire(body) is None
