"""The lifecycle envelope (:mod:`browserhost.contract.lifecycle`) carries the protocol version,
and a service reads one of another version as a refusal naming both."""

from __future__ import annotations

import json

import pytest

from browserhost.contract.lifecycle import LifecycleRequest
from browserhost.contract.limits import PROTOCOL_VERSION
from browserhost.contract.wire import ProtocolVersionError


def test_every_operation_carries_the_protocol_version_and_reads_back() -> None:
    for request in (
        LifecycleRequest("launch", "p~1", {"a": 1}),
        LifecycleRequest("configure", None, {"a": 1}),
        LifecycleRequest("sync_cookies", "p~1", {"toFile": "/tmp/x"}),
        LifecycleRequest("close", "p~1"),
    ):
        wire = request.to_wire()
        assert wire["protocolVersion"] == PROTOCOL_VERSION
        assert LifecycleRequest.from_wire(json.dumps(wire)) == request


def test_an_operation_without_a_version_is_read_as_this_version() -> None:
    """Hosts older than the field sent none."""
    read = LifecycleRequest.from_wire(b'{"operation": "close", "browserId": "p~1"}')
    assert read == LifecycleRequest("close", "p~1")


def test_an_operation_of_another_version_is_refused_naming_both() -> None:
    wire = {"protocolVersion": PROTOCOL_VERSION + 1, "operation": "close", "browserId": "p~1"}
    with pytest.raises(ProtocolVersionError) as refused:
        LifecycleRequest.from_wire(json.dumps(wire))
    assert (
        f"the host sent provider protocol version {PROTOCOL_VERSION + 1} and this provider "
        f"speaks version {PROTOCOL_VERSION}"
    ) in str(refused.value)
