"""Host.dispatch: which provider a request reaches, what it carries, and what failures mean."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from pathlib import Path

import pytest

from browserhost.contract import ACTIONS, Context, ProviderRequest
from browserhost.contract.errors import (
    ActionCancelledError,
    BrowserhostError,
    InvalidActionError,
    MayHaveRunError,
    NoProviderError,
    ProviderNotFoundError,
    ProviderRejectedError,
    RequestFailedError,
    UnknownResultError,
    UnsupportedError,
)
from browserhost.contract.limits import PROTOCOL_VERSION
from browserhost.host import Host
from browserhost.host.selection import SELECTION_FILE
from tests.recording import Recorder, fitting, replying


@pytest.fixture
def host(tmp_path: Path) -> Host:
    return Host(tmp_path)


def installed(host: Host, *recorders: Recorder) -> None:
    for recorder in recorders:
        host.catalog.install(recorder.record())


async def test_no_selection_refuses_and_sends_nothing(host: Host) -> None:
    recorder = Recorder()
    installed(host, recorder)
    with pytest.raises(NoProviderError) as refused:
        await host.dispatch("browser.snapshot")
    assert "rec" in refused.value.message  # tells the agent what could be chosen
    assert recorder.requests == []


async def test_an_invalid_action_is_refused_before_the_provider_is_resolved(host: Host) -> None:
    with pytest.raises(InvalidActionError):
        await host.dispatch("browser.open", {"url": "ftp://x"})


async def test_the_provider_receives_request_id_action_normalized_parameters_and_context(
    host: Host,
) -> None:
    recorder = Recorder()
    installed(host, recorder)
    host.select("rec")
    before_ms = time.time() * 1000
    outcome = await host.dispatch(
        "browser.type",
        {"selector": " #q ", "value": "hi", "submit": True, "delay": 5},
        Context(directory="/repo", session_id="ses_1"),
    )
    after_ms = time.time() * 1000
    # The key it has no parameter for is dropped, and the answer says so.
    dropped = (
        "'delay' is not a parameter of browser.type, which takes selector, value, submit, and "
        "did nothing."
    )
    assert outcome.to_wire() == {
        "ok": True,
        "providerId": "rec",
        "data": {**fitting("browser.type", echo="browser.type"), "notice": dropped},
    }
    [envelope] = recorder.wire
    assert envelope.pop("requestId").startswith("browser-")
    # The action's own wait (20 s), as the absolute time the host stops waiting.
    assert before_ms + 19_999 <= envelope.pop("deadline") <= after_ms + 20_000
    assert envelope == {
        "protocolVersion": PROTOCOL_VERSION,
        "action": "browser.type",
        "parameters": {"selector": "#q", "value": "hi", "submit": True},
        "context": {"directory": "/repo", "sessionId": "ses_1"},
    }


async def test_every_request_has_its_own_id(host: Host) -> None:
    recorder = Recorder()
    installed(host, recorder)
    for _ in range(3):
        await host.dispatch("browser.back", provider_id="rec")
    assert len({request.request_id for request in recorder.requests}) == 3


async def test_provider_id_overrides_the_selection_for_one_call_only(host: Host) -> None:
    selected, other = Recorder(provider_id="selected"), Recorder(provider_id="other")
    installed(host, selected, other)
    host.select("selected")
    before = (host.data_dir / SELECTION_FILE).read_bytes()
    assert (await host.dispatch("browser.back", provider_id="other")).provider_id == "other"
    assert (await host.dispatch("browser.back")).provider_id == "selected"
    assert (len(other.requests), len(selected.requests)) == (1, 1)
    assert (host.data_dir / SELECTION_FILE).read_bytes() == before


async def test_an_unknown_provider_id_is_not_found_and_nothing_is_sent(host: Host) -> None:
    recorder = Recorder()
    installed(host, recorder)
    host.select("rec")
    with pytest.raises(ProviderNotFoundError):
        await host.dispatch("browser.back", provider_id="nope")
    assert recorder.requests == []


async def test_a_stale_selection_fails_and_is_not_retargeted(host: Host) -> None:
    gone, remaining = Recorder(provider_id="gone"), Recorder(provider_id="remaining")
    installed(host, gone, remaining)
    host.select("gone")
    await host.catalog.uninstall("gone")

    with pytest.raises(ProviderNotFoundError) as refused:
        await host.dispatch("browser.snapshot")
    assert "'gone' is not installed now" in refused.value.message
    assert remaining.requests == []
    assert gone.requests == []
    assert host.providers().selected_id is None
    assert json.loads((host.data_dir / SELECTION_FILE).read_text()) == {"selectedId": "gone"}

    host.catalog.install(gone.record())
    assert host.providers().selected_id == "gone"
    assert (await host.dispatch("browser.snapshot")).provider_id == "gone"


async def test_the_provider_is_read_from_the_catalog_on_every_action(host: Host) -> None:
    first, second = Recorder(provider_id="p"), Recorder(provider_id="p")
    installed(host, first)
    host.select("p")
    await host.dispatch("browser.back")
    host.catalog.install(second.record())  # reinstalled under the same id
    await host.dispatch("browser.back")
    assert (len(first.requests), len(second.requests)) == (1, 1)


async def test_an_action_the_provider_did_not_declare_is_unsupported_and_not_sent(
    host: Host,
) -> None:
    recorder = Recorder()
    host.catalog.install(recorder.record(actions=["browser.open", "browser.snapshot"]))
    with pytest.raises(UnsupportedError) as refused:
        await host.dispatch("browser.click", {"text": "Save"}, provider_id="rec")
    assert refused.value.status == 501
    assert refused.value.message.endswith("Nothing was sent.")
    assert recorder.requests == []


async def test_a_cancel_before_sending_is_cancelled_and_nothing_is_sent(host: Host) -> None:
    """CANCELLED has no HTTP trigger: an HTTP client cannot cancel and still read an answer."""
    recorder = Recorder()
    installed(host, recorder)
    cancel = asyncio.Event()
    cancel.set()
    with pytest.raises(ActionCancelledError) as refused:
        await host.dispatch(
            "browser.open", {"url": "https://a.test"}, provider_id="rec", cancel=cancel
        )
    assert (refused.value.code, refused.value.status) == ("CANCELLED", 499)
    assert not refused.value.may_have_run
    assert recorder.requests == []


async def test_a_cancel_after_sending_abandons_the_answer_and_may_have_run(host: Host) -> None:
    reached, cancelled = asyncio.Event(), asyncio.Event()

    async def slow(_: ProviderRequest) -> object:
        reached.set()
        try:
            await asyncio.Event().wait()
        finally:
            cancelled.set()
        return {"ok": True, "data": {}}

    recorder = Recorder(slow)
    installed(host, recorder)
    cancel = asyncio.Event()
    dispatching = asyncio.create_task(
        host.dispatch("browser.back", provider_id="rec", cancel=cancel)
    )
    async with asyncio.timeout(5):
        await reached.wait()
        cancel.set()
        with pytest.raises(RequestFailedError) as refused:
            await dispatching
        await cancelled.wait()
    assert refused.value.may_have_run
    assert "may have run" in refused.value.message
    assert len(recorder.requests) == 1


async def test_a_caller_that_stops_waiting_leaves_no_send_running(host: Host) -> None:
    """Cancelling the dispatch itself cancels the send and the cancel watcher with it."""
    reached, stopped = asyncio.Event(), asyncio.Event()

    async def slow(_: ProviderRequest) -> object:
        reached.set()
        try:
            await asyncio.Event().wait()
        finally:
            stopped.set()
        return {"ok": True, "data": {}}

    installed(host, Recorder(slow))
    dispatching = asyncio.create_task(
        host.dispatch("browser.back", provider_id="rec", cancel=asyncio.Event())
    )
    async with asyncio.timeout(5):
        await reached.wait()
        dispatching.cancel()
        with pytest.raises(asyncio.CancelledError):
            await dispatching
        await stopped.wait()
        leftovers = asyncio.all_tasks() - {asyncio.current_task()}
        await asyncio.gather(*leftovers, return_exceptions=True)


async def test_a_provider_that_raises_is_a_request_failed_and_is_not_retried(host: Host) -> None:
    async def crash(_: ProviderRequest) -> object:
        raise RuntimeError("browser crashed")

    recorder = Recorder(crash)
    installed(host, recorder)
    with pytest.raises(RequestFailedError) as refused:
        await host.dispatch("browser.click", {"selector": "#a"}, provider_id="rec")
    assert refused.value.status == 504
    assert "browser crashed" in refused.value.message
    assert len(recorder.requests) == 1


async def test_no_answer_within_the_deadline_is_a_request_failed(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        ACTIONS, "browser.back", dataclasses.replace(ACTIONS["browser.back"], timeout_s=0.05)
    )
    abandoned = asyncio.Event()

    async def hang(_: ProviderRequest) -> object:
        try:
            await asyncio.Event().wait()
        finally:
            abandoned.set()
        return {"ok": True, "data": {}}

    recorder = Recorder(hang)
    installed(host, recorder)
    async with asyncio.timeout(5):
        with pytest.raises(RequestFailedError, match=r"No answer within 0\.05 s"):
            await host.dispatch("browser.back", provider_id="rec")
    assert abandoned.is_set()
    assert len(recorder.requests) == 1


async def test_a_callers_timeout_is_the_wait_and_the_deadline_the_provider_gets(
    host: Host,
) -> None:
    deadlines: list[int | None] = []

    async def hang(request: ProviderRequest) -> object:
        deadlines.append(request.deadline_ms)
        await asyncio.Event().wait()
        return {"ok": True, "data": {}}

    installed(host, Recorder(hang))
    before_ms = time.time() * 1000
    async with asyncio.timeout(5):
        with pytest.raises(RequestFailedError, match=r"No answer within 0\.15 s"):
            await host.dispatch("browser.back", provider_id="rec", timeout_ms=150)
    [deadline] = deadlines
    assert deadline is not None
    assert before_ms + 149 <= deadline <= time.time() * 1000


@pytest.mark.parametrize("timeout_ms", [0, 99, 120_001, "5000", 1500.5, True, [100]])
async def test_a_callers_timeout_out_of_bounds_is_refused_and_nothing_is_sent(
    host: Host, timeout_ms: object
) -> None:
    recorder = Recorder()
    installed(host, recorder)
    with pytest.raises(InvalidActionError) as refused:
        await host.dispatch("browser.back", provider_id="rec", timeout_ms=timeout_ms)
    assert "timeoutMs must be a whole number of milliseconds from 100 to 120000" in (
        refused.value.message
    )
    assert "Nothing was sent." in refused.value.message
    assert recorder.requests == []


async def test_ok_false_is_provider_rejected_with_the_providers_own_text(host: Host) -> None:
    text = "No element matches #save; take a new snapshot."
    installed(host, Recorder(replying({"ok": False, "error": text})))
    with pytest.raises(ProviderRejectedError) as refused:
        await host.dispatch("browser.click", {"selector": "#save"}, provider_id="rec")
    assert (refused.value.message, refused.value.status) == (text, 400)


@pytest.mark.parametrize(
    "answer",
    [
        None,
        {"ok": True},
        {"ok": True, "data": []},
        {"ok": False, "error": ""},
        {"ok": False, "error": "x" * 2001},
        {"ok": "yes", "data": {}},
        {"ok": True, "data": {"when": object()}},
        {"ok": True, "data": {"image": "x" * 12_000_001}},
    ],
    ids=[
        "none",
        "no-data",
        "list-data",
        "blank-error",
        "long-error",
        "ok-string",
        "not-json",
        "13MB",
    ],
)
async def test_an_answer_that_is_not_a_browser_result_is_unknown_result(
    host: Host, answer: object
) -> None:
    recorder = Recorder(replying(answer))
    installed(host, recorder)
    with pytest.raises(UnknownResultError) as refused:
        await host.dispatch("browser.back", provider_id="rec")
    assert refused.value.status == 502
    assert "state is unknown" in refused.value.message
    assert len(recorder.requests) == 1


@pytest.mark.parametrize(
    "failure",
    [RuntimeError("lost"), None, {"ok": True, "data": []}],
    ids=["raised", "no-answer", "bad-answer"],
)
async def test_failure_after_handing_over_is_never_described_as_nothing_changed(
    host: Host, failure: object
) -> None:
    async def fail(_: ProviderRequest) -> object:
        if isinstance(failure, Exception):
            raise failure
        return failure

    installed(host, Recorder(fail))
    with pytest.raises(BrowserhostError) as refused:
        await host.dispatch("browser.click", {"selector": "#a"}, provider_id="rec")
    assert isinstance(refused.value, MayHaveRunError)
    message = refused.value.message.lower()
    for reassurance in ("nothing was sent", "nothing ran", "not changed", "nothing changed"):
        assert reassurance not in message
    assert "snapshot" in message  # tells the agent how to find out what happened
