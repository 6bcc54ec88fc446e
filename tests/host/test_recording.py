"""The session recording: what the host keeps of each action, its picture, and its bounds."""

from __future__ import annotations

import asyncio
import io
import time
from pathlib import Path

import pytest
from PIL import Image

from browserhost.contract import Context
from browserhost.contract.errors import InvalidActionError, ProviderRejectedError
from browserhost.contract.recording import PICTURE_BOX
from browserhost.contract.surface import (
    Frame,
    KeyEvent,
    PointerEvent,
    Surface,
    TextEvent,
    WheelEvent,
)
from browserhost.host import Host, recording
from browserhost.host.recorded_values import HIDDEN, kept, kept_parameters
from browserhost.host.recording import RECORDINGS_DIR, Recorder, recording_wanted
from browserhost.host.recording_store import Bounds
from browserhost.host.step_pictures import PictureTaking
from browserhost.providers.stub import StubProvider
from tests.recording import Recorder as ScriptedProvider

SESSION = Context(session_id="agent-1")


def recorder(folder: Path, bounds: Bounds | None = None, wait_s: float = 4.0) -> Recorder:
    # paint_s: the stub paints nothing after its answer, so waiting for a later one is lost.
    pictures = PictureTaking(pause_s=0, wait_s=wait_s, paint_s=0.01)
    return Recorder(folder / RECORDINGS_DIR, enabled=True, bounds=bounds, pictures=pictures)


def recording_host(tmp_path: Path, bounds: Bounds | None = None) -> Host:
    host = Host(tmp_path, recorder=recorder(tmp_path, bounds))
    host.catalog.install(StubProvider().registration())
    host.select("stub")
    return host


async def test_each_action_is_kept_with_its_outcome_time_answer_and_a_small_picture(
    tmp_path: Path,
) -> None:
    host = recording_host(tmp_path)
    await host.dispatch("browser.open", {"url": "https://example.com/"}, SESSION)
    await host.dispatch("browser.snapshot", {}, SESSION)
    with pytest.raises(ProviderRejectedError):
        await host.dispatch("browser.click", {"selector": "#nope"}, SESSION)
    await host.recorder.settled()

    steps = host.recorder.store.steps("agent-1")
    assert [(step.action, step.outcome) for step in steps] == [
        ("browser.open", "ok"),
        ("browser.snapshot", "ok"),
        ("browser.click", "PROVIDER_REJECTED"),
    ]
    opened, _, clicked = steps
    assert opened.parameters == {"url": "https://example.com/"}
    assert opened.answer["url"] == "https://example.com/"
    assert opened.provider_id == "stub"
    assert clicked.failed
    assert clicked.error is not None
    assert "#nope" in clicked.error
    assert all(step.duration_ms >= 0 for step in steps)
    assert steps[0].started_at <= steps[1].started_at <= steps[2].started_at <= time.time()
    for step in steps:
        assert step.picture is not None
        jpeg = host.recorder.store.picture("agent-1", step.seq)
        assert jpeg is not None
        with Image.open(io.BytesIO(jpeg)) as picture:
            assert picture.format == "JPEG"
            assert picture.size == (step.picture.width, step.picture.height)
            assert picture.width <= PICTURE_BOX[0]
            assert picture.height <= PICTURE_BOX[1]
    [summary] = host.recorder.store.sessions()
    assert (summary.session_id, summary.steps, summary.failures) == ("agent-1", 3, 1)


async def test_sessions_are_kept_apart_and_actions_without_one_have_their_own(
    tmp_path: Path,
) -> None:
    host = recording_host(tmp_path)
    await host.dispatch("browser.snapshot", {}, Context(session_id="a"))
    await host.dispatch("browser.snapshot", {}, Context(session_id="b"))
    await host.dispatch("browser.scroll", {"direction": "down"}, Context(session_id="b"))
    await host.dispatch("browser.snapshot")
    await host.recorder.settled()

    store = host.recorder.store
    assert [step.action for step in store.steps("a")] == ["browser.snapshot"]
    assert [step.action for step in store.steps("b")] == ["browser.snapshot", "browser.scroll"]
    assert [step.action for step in store.steps(None)] == ["browser.snapshot"]
    assert store.steps("nobody") == []
    assert sorted((row.session_id or "", row.steps) for row in store.sessions()) == [
        ("", 1),
        ("a", 1),
        ("b", 2),
    ]
    assert [step.seq for step in store.steps("b", after=1)] == [2]


async def test_a_refusal_before_anything_was_sent_is_kept_too(tmp_path: Path) -> None:
    host = recording_host(tmp_path)
    with pytest.raises(InvalidActionError):
        await host.dispatch("browser.open", {"url": "ftp://example.com/"}, SESSION)
    await host.recorder.settled()
    [step] = host.recorder.store.steps("agent-1")
    assert (step.action, step.outcome, step.provider_id, step.picture) == (
        "browser.open", "INVALID_ACTION", None, None,
    )  # fmt: skip


class _StuckSurface(Surface):
    """A surface whose picture never comes."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()

    async def frame(self, after: int, wait_s: float) -> Frame | None:
        self.asked.set()
        await asyncio.Event().wait()
        return None

    async def input(self, events: list[PointerEvent | WheelEvent | KeyEvent | TextEvent]) -> None:
        return None


async def test_the_answer_does_not_wait_for_the_picture_and_a_stuck_surface_costs_only_the_picture(
    tmp_path: Path,
) -> None:
    host = Host(tmp_path, recorder=recorder(tmp_path, wait_s=0.2))
    surface = _StuckSurface()
    host.catalog.install(ScriptedProvider().record(surface=surface))
    host.select("rec")

    async with asyncio.timeout(5):
        await host.dispatch("browser.snapshot", {}, SESSION)
    assert host.recorder.store.steps("agent-1") == []  # answered; the step is on its way
    await asyncio.wait_for(surface.asked.wait(), 5)
    await host.recorder.settled()
    [step] = host.recorder.store.steps("agent-1")
    assert (step.action, step.outcome, step.picture) == ("browser.snapshot", "ok", None)


def _jpeg() -> bytes:
    written = io.BytesIO()
    Image.new("RGB", (64, 48), "navy").save(written, "JPEG")
    return written.getvalue()


class _SlowFirstSurface(_StuckSurface):
    """Its first picture comes only when released; every later one at once."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()
        self.calls = 0
        self.later = asyncio.Event()

    async def frame(self, after: int, wait_s: float) -> Frame | None:
        self.calls += 1
        if self.calls == 1:
            await self.release.wait()
        else:
            self.later.set()
        return Frame(seq=self.calls, data=_jpeg(), mime="image/jpeg", width=64, height=48)


async def test_steps_are_numbered_in_the_order_they_ran_whichever_picture_came_first(
    tmp_path: Path,
) -> None:
    host = Host(tmp_path, recorder=recorder(tmp_path))
    surface = _SlowFirstSurface()
    host.catalog.install(ScriptedProvider().record(surface=surface))
    host.select("rec")
    await host.dispatch("browser.snapshot", {}, SESSION)
    await host.dispatch("browser.back", {}, SESSION)
    await asyncio.wait_for(surface.later.wait(), 5)  # the second picture is in
    surface.release.set()
    await host.recorder.settled()
    steps = host.recorder.store.steps("agent-1")
    assert [(step.seq, step.action) for step in steps] == [
        (1, "browser.snapshot"),
        (2, "browser.back"),
    ]
    assert all(step.picture is not None for step in steps)


async def test_a_step_its_session_follows_at_once_has_no_picture_and_one_after_a_pause_has(
    tmp_path: Path,
) -> None:
    # The next action starts before the first one's pause is over (nothing runs in between),
    # so the first one's picture is not taken: it would be taken on the next one's way.
    pictures = PictureTaking(pause_s=0.05, paint_s=0.01)
    host = Host(
        tmp_path, recorder=Recorder(tmp_path / RECORDINGS_DIR, enabled=True, pictures=pictures)
    )
    host.catalog.install(StubProvider().registration())
    host.select("stub")
    await host.dispatch("browser.open", {"url": "https://example.com/"}, SESSION)
    await host.dispatch("browser.scroll", {"direction": "down"}, SESSION)
    await host.recorder.settled()
    steps = host.recorder.store.steps("agent-1")
    assert [(step.action, step.picture is not None) for step in steps] == [
        ("browser.open", False),
        ("browser.scroll", True),
    ]
    assert host.recorder.store.picture("agent-1", 1) is None


async def test_a_session_keeps_its_last_steps_and_drops_the_older_pictures(
    tmp_path: Path,
) -> None:
    host = recording_host(tmp_path, Bounds(steps_max=3))
    for _ in range(8):
        await host.dispatch("browser.snapshot", {}, SESSION)
        await host.recorder.settled()

    steps = host.recorder.store.steps("agent-1")
    assert [step.seq for step in steps][-3:] == [6, 7, 8]
    assert len(steps) == 3
    [folder] = (tmp_path / RECORDINGS_DIR).iterdir()
    pictures = sorted(int(path.stem) for path in folder.glob("*.jpg"))
    assert pictures[0] >= 5  # the older ones went with their steps (a tenth more is allowed)
    assert host.recorder.store.picture("agent-1", 1) is None


async def test_past_the_total_size_the_sessions_written_longest_ago_go_first(
    tmp_path: Path,
) -> None:
    host = recording_host(tmp_path, Bounds(total_max_bytes=12_000))
    for session in ("first", "second", "third", "fourth"):
        for _ in range(2):
            await host.dispatch("browser.snapshot", {}, Context(session_id=session))
            await host.recorder.settled()

    kept_sessions = {row.session_id for row in host.recorder.store.sessions()}
    assert "fourth" in kept_sessions  # the one being written is never dropped
    assert "first" not in kept_sessions
    on_disk = sum(path.stat().st_size for path in (tmp_path / RECORDINGS_DIR).glob("*/*"))
    assert on_disk <= 12_000


async def test_past_the_number_of_sessions_the_oldest_goes(tmp_path: Path) -> None:
    host = recording_host(tmp_path, Bounds(sessions_max=2))
    for session in ("first", "second", "third"):
        await host.dispatch("browser.snapshot", {}, Context(session_id=session))
        await host.recorder.settled()
    assert {row.session_id for row in host.recorder.store.sessions()} == {"second", "third"}


async def test_a_host_records_nothing_unless_told(tmp_path: Path) -> None:
    host = Host(tmp_path)
    host.catalog.install(StubProvider().registration())
    host.select("stub")
    await host.dispatch("browser.snapshot", {}, SESSION)
    await host.recorder.settled()
    assert not host.recorder.enabled
    assert not (tmp_path / RECORDINGS_DIR).exists()
    assert host.recorder.store.sessions() == []


@pytest.mark.parametrize(
    ("setting", "option_off", "wanted"),
    [(None, False, True), ("off", False, False), ("OFF ", False, False), ("0", False, False),
     ("on", False, True), (None, True, False)],
)  # fmt: skip
def test_the_setting_and_the_option_turn_it_off(
    monkeypatch: pytest.MonkeyPatch, setting: str | None, option_off: bool, wanted: bool
) -> None:
    if setting is None:
        monkeypatch.delenv(recording.RECORDING_ENV, raising=False)
    else:
        monkeypatch.setenv(recording.RECORDING_ENV, setting)
    assert recording_wanted(option_off) is wanted


def test_typed_text_is_kept_only_when_the_page_reported_the_value_back() -> None:
    typed = {"selector": "#q", "value": "kittens"}
    assert kept_parameters("browser.type", typed, {"value": "kittens"})["value"] == "kittens"
    hidden = kept_parameters("browser.type", {"selector": "#pw", "value": "hunter2"}, {})
    assert hidden == {"selector": "#pw", "value": f"{HIDDEN} (7 characters)"}
    failed = kept_parameters("browser.type", {"selector": "#pw", "value": "hunter2"}, None)
    assert "hunter2" not in str(failed)


def test_secrets_images_and_long_values_are_left_out_or_cut() -> None:
    cut = kept(
        {
            "cookies": [{"name": "sid", "value": "abc"}],
            "Authorization": "Bearer xyz",
            "base64": "A" * 10_000,
            "text": "x" * 10_000,
            "elements": list(range(100)),
            "deep": {"a": {"b": {"c": {"d": {"e": {"f": {"g": 1}}}}}}},
        }
    )
    assert cut["cookies"] == HIDDEN
    assert cut["Authorization"] == HIDDEN
    assert "AAAA" not in cut["base64"]
    assert len(cut["text"]) == 300
    assert cut["text"].endswith("…")
    assert cut["elements"][-1] == "… 75 more"
    assert "…" in str(cut["deep"])
    huge = kept([{"k": "v" * 200} for _ in range(10_000)])
    assert len(str(huge)) < 20_000  # bounded work and size, whatever the answer


def test_the_user_name_and_password_of_an_address_are_left_out() -> None:
    opened = kept_parameters("browser.open", {"url": "http://ada:s3cret@127.0.0.1:8765/a"}, {})
    assert opened == {"url": f"http://{HIDDEN}@127.0.0.1:8765/a"}
    answer = kept({"url": "https://TOKEN@git.example/x?to=a@b.c", "text": "write to a@b.c"})
    assert answer == {"url": f"https://{HIDDEN}@git.example/x?to=a@b.c", "text": "write to a@b.c"}


async def test_a_burst_past_the_steps_waiting_is_dropped_and_the_log_says_so_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    kept = recorder(tmp_path)
    for _ in range(2):  # two bursts, the steps of the first written in between
        for _ in range(recording.TASKS_MAX + 100):  # nothing is written before the loop runs
            kept.keep(kept.begin("browser.snapshot", {}, SESSION), {"text": "page"})
        await kept.settled()
    assert len(kept.store.steps("agent-1")) == 2 * recording.TASKS_MAX
    said = [record for record in caplog.records if "recording is behind" in record.message]
    assert len(said) == 1
