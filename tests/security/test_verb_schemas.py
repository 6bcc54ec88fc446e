"""Issue 25, item 2: a verb schema from the far side (a bridge's hello, a provider service's
record) must not stall the host: its patterns run in linear time, its size and its patterns'
are bounded, a check that would take too long is stopped, and so are arguments too large."""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import websockets

from browserhost.contract import ACTIONS
from browserhost.contract.bridge import Hello
from browserhost.contract.errors import InvalidActionError
from browserhost.contract.limits import (
    VERB_ARGUMENTS_MAX_BYTES,
    VERB_PATTERN_MAX_CHARS,
    VERB_SCHEMA_MAX_BYTES,
    VERBS_MAX,
)
from browserhost.host import Host
from browserhost.host.bridge import Bridge
from browserhost.host.catalog import InstallError
from browserhost.host.verb_schemas import CHECK_CPU_MAX_S, read_schema

from .conftest import Hosted, answered_meanwhile, closing, connected, hello, receive, result


def verb(schema: dict[str, Any], name: str = "spell") -> dict[str, Any]:
    return {"name": name, "description": "Spell a word.", "inputSchema": schema}


def word(**rule: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"word": {"type": "string", **rule}}}


CATASTROPHIC = word(pattern="^(a+)+$")
"""A backtracking engine takes seconds for 25 a's and a "!", twice as long for each a more."""

BRANCHING = {
    "type": "object",
    "$defs": {
        **{f"level{n}": {"anyOf": [{"$ref": f"#/$defs/level{n + 1}"}] * 2} for n in range(20)},
        "level20": {"type": "string"},
    },
    "properties": {"word": {"$ref": "#/$defs/level0"}},
}
"""Valid JSON Schema whose check of a number takes 2**20 steps (half a minute): every level
tries both of its branches."""


async def test_a_catastrophic_pattern_is_matched_at_once_and_nothing_is_sent(
    hosted: Hosted,
) -> None:
    socket = await connected(hosted, verbs=[verb(CATASTROPHIC)])
    refused = await answered_meanwhile(hosted, hosted.act("verb.spell", {"word": "a" * 26 + "!"}))
    assert refused.status_code == 400
    assert refused.json()["code"] == "INVALID_ACTION"
    assert "does not match '^(a+)+$'" in refused.json()["error"]
    assert refused.json()["error"].endswith("Nothing was sent.")

    sending = asyncio.ensure_future(hosted.act("verb.spell", {"word": "aaa"}))
    call = await receive(socket)  # the first call the far side gets
    assert (call["name"], call["args"]) == ("verb.spell", {"word": "aaa"})
    await socket.send(result(call, {"ok": True, "data": {"spelled": "aaa"}}))
    assert (await sending).json()["data"] == {"spelled": "aaa"}
    await socket.close()


@pytest.mark.parametrize(
    ("verbs", "says"),
    [
        ([verb(word(pattern="(?=a)a"))], "pattern '(?=a)a' is not one the host can check"),
        ([verb(word(pattern="(a)\\1"))], "is not one the host can check in linear time"),
        (
            [verb(word(pattern="a" * (VERB_PATTERN_MAX_CHARS + 1)))],
            f"has a pattern over {VERB_PATTERN_MAX_CHARS:,} characters",
        ),
        (
            [verb({"type": "object", "patternProperties": {"^(a+)+$": {"type": "string"}}})],
            "uses patternProperties, which the host does not check",
        ),
        (
            [verb(word(description="x" * VERB_SCHEMA_MAX_BYTES))],
            f"input schema is over {VERB_SCHEMA_MAX_BYTES:,} bytes",
        ),
        (
            [verb(word(), f"verb{n}") for n in range(VERBS_MAX + 1)],
            f"{VERBS_MAX + 1} verbs are declared; a provider may declare at most {VERBS_MAX}",
        ),
    ],
    ids=["lookaround", "backreference", "long-pattern", "pattern-properties", "large", "many"],
)
async def test_a_hello_with_schemas_the_host_cannot_bound_is_closed_and_installs_nothing(
    hosted: Hosted, verbs: list[dict[str, Any]], says: str
) -> None:
    async def say_hello() -> tuple[int, str]:
        async with websockets.connect(hosted.socket_url, max_size=None) as socket:
            await socket.send(hello(verbs=verbs))
            return await closing(socket)

    code, reason = await answered_meanwhile(hosted, say_hello())
    assert (code, reason[:11]) == (1008, "bad hello: ")  # the reason is cut at 123 bytes
    assert hosted.bridge.transport.link is None
    row = hosted.host.catalog.get("bridge")
    assert row is not None
    assert row.verbs == {}
    with pytest.raises(InstallError) as refusal:
        Bridge.check(Hello.model_validate(json.loads(hello(verbs=verbs))))
    assert says in str(refusal.value)


async def test_a_check_that_would_take_too_long_is_stopped_and_the_call_refused(
    hosted: Hosted,
) -> None:
    socket = await connected(hosted, verbs=[verb(BRANCHING)])
    refused = await answered_meanwhile(hosted, hosted.act("verb.spell", {"word": 5}))
    assert refused.status_code == 400
    assert refused.json()["code"] == "INVALID_ACTION"
    assert "checking them against the declared schema took over 0.1 s" in refused.json()["error"]
    assert refused.json()["error"].endswith("Nothing was sent.")
    await socket.close()


async def test_arguments_over_the_limit_are_refused_unchecked(hosted: Hosted) -> None:
    socket = await connected(hosted, verbs=[verb(CATASTROPHIC)])
    word_over = "a" * VERB_ARGUMENTS_MAX_BYTES + "!"
    refused = await answered_meanwhile(hosted, hosted.act("verb.spell", {"word": word_over}))
    assert refused.status_code == 400
    assert refused.json()["code"] == "INVALID_ACTION"
    assert f"over {VERB_ARGUMENTS_MAX_BYTES:,} bytes as JSON" in refused.json()["error"]
    await socket.close()


async def test_a_service_record_declaring_a_catastrophic_pattern_starts_nothing_to_refuse(
    tmp_path: Path,
) -> None:
    host = Host(tmp_path / "data")
    provider = host.catalog.install(
        {
            "id": "speller",
            "provides": ["browser"],
            "actions": list(ACTIONS),
            "service": {"command": [sys.executable, "-c", "raise SystemExit(3)"]},
            "verbs": [verb(CATASTROPHIC)],
        }
    )
    try:
        with pytest.raises(InvalidActionError, match=r"does not match '\^\(a\+\)\+\$'"):
            async with asyncio.timeout(5):
                await host.dispatch("verb.spell", {"word": "a" * 26 + "!"}, provider_id="speller")
        assert provider.service is not None
        assert provider.service.public() == {"state": "stopped"}
        with pytest.raises(InstallError, match="lookarounds and backreferences"):
            host.catalog.install(
                {
                    "id": "looker",
                    "provides": ["browser"],
                    "actions": list(ACTIONS),
                    "service": {"command": [sys.executable, "-c", "raise SystemExit(3)"]},
                    "verbs": [verb(word(pattern="(?<=a)b"))],
                }
            )
    finally:
        await host.aclose()


def test_a_garbage_collection_during_a_check_is_not_the_checks_time() -> None:
    """In a large process a full collection can take longer than a check may; one that runs
    during a check must not get a usual verb's arguments refused."""
    checker = read_schema({"type": "object", "properties": {"text": {"type": "string"}}})

    def slow_collection(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            spin_until = time.thread_time() + CHECK_CPU_MAX_S * 2
            while time.thread_time() < spin_until:
                pass

    threshold = gc.get_threshold()
    gc.callbacks.append(slow_collection)  # after the host's, as the collection's own work
    gc.set_threshold(1)  # a collection at the check's first allocations
    try:
        assert checker.problems({"text": "Nowhere"}) == []
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(slow_collection)
