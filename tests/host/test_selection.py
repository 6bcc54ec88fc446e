"""The selection file: what it holds, how it is read, and that a failed write changes nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from browserhost.contract.errors import (
    CatalogUnavailableError,
    InvalidSelectionError,
    ProviderNotFoundError,
    SelectionUnavailableError,
)
from browserhost.host import Host, selection
from browserhost.host.selection import (
    SELECTION_FILE,
    STALE_TEMPORARY_S,
    SelectionReadError,
    SelectionStore,
)
from tests.recording import Recorder


@pytest.fixture
def host(tmp_path: Path) -> Host:
    host = Host(tmp_path)
    host.catalog.install(Recorder(provider_id="alpha").record())
    host.catalog.install(Recorder(provider_id="beta").record())
    return host


def selection_file(host: Host) -> Path:
    return host.data_dir / SELECTION_FILE


def test_missing_file_is_no_selection(tmp_path: Path) -> None:
    assert SelectionStore(tmp_path).read() is None


def test_the_file_stores_only_the_selected_id(host: Host) -> None:
    host.select("alpha")
    assert json.loads(selection_file(host).read_text()) == {"selectedId": "alpha"}


def test_selection_is_read_back_from_the_file_by_a_new_host(host: Host) -> None:
    host.select("beta")
    again = Host(host.data_dir)
    again.catalog.install(Recorder(provider_id="beta").record())
    assert again.providers().selected_id == "beta"


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"", b'["alpha"]', b'"alpha"', b'{"selectedId": 7}', b"\xff\xfe"],
)
def test_a_corrupt_selection_file_is_an_error_not_no_selection(host: Host, content: bytes) -> None:
    selection_file(host).write_bytes(content)
    with pytest.raises(SelectionReadError):
        host.selection.read()
    with pytest.raises(CatalogUnavailableError) as refused:
        host.providers()
    assert refused.value.status == 503


def test_a_selection_written_by_another_process_is_read_at_the_next_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even once the file's status stands for its content, a new file is read."""
    monkeypatch.setattr(selection, "_SETTLED_NS", -1)  # every file counts as settled
    store = SelectionStore(tmp_path)
    store.write("alpha")
    assert store.read() == "alpha"
    assert store.read() == "alpha"
    SelectionStore(tmp_path).write("beta")  # `browserhost select` in another process
    assert store.read() == "beta"
    store.path.unlink()
    assert store.read() is None


def test_a_same_size_rewrite_in_place_right_after_a_read_is_seen(tmp_path: Path) -> None:
    """Within one tick of the filesystem's clock a rewrite can leave the status unchanged;
    a file changed that recently is read again."""
    store = SelectionStore(tmp_path)
    store.path.write_text('{"selectedId": "alpha"}')
    assert store.read() == "alpha"
    store.path.write_text('{"selectedId": "gamma"}')
    assert store.read() == "gamma"
    store.path.write_text('{"selectedId": 12345}')
    with pytest.raises(SelectionReadError):
        store.read()


def test_a_null_selected_id_is_no_selection(host: Host) -> None:
    selection_file(host).write_text('{"selectedId": null}')
    assert host.providers().selected_id is None


def test_unknown_id_keeps_previous_selection(host: Host) -> None:
    host.select("alpha")
    before = selection_file(host).read_bytes()
    with pytest.raises(ProviderNotFoundError) as refused:
        host.select("gamma")
    assert "alpha, beta" in refused.value.message
    assert selection_file(host).read_bytes() == before
    assert host.providers().selected_id == "alpha"


@pytest.mark.parametrize(
    "bad", ["", None, 5, ["alpha"], "../alpha", "-alpha", "alpha\n", "a" * 129]
)
def test_an_id_that_cannot_name_a_provider_is_invalid_and_keeps_previous_selection(
    host: Host, bad: object
) -> None:
    host.select("alpha")
    before = selection_file(host).read_bytes()
    with pytest.raises(InvalidSelectionError) as refused:
        host.select(bad)
    assert refused.value.status == 400
    assert selection_file(host).read_bytes() == before
    assert host.providers().selected_id == "alpha"


def test_a_failed_write_keeps_the_previous_choice_and_leaves_no_temporary_file(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    host.select("alpha")
    before = sorted(host.data_dir.iterdir())

    def refuse(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(SelectionUnavailableError) as refused:
        host.select("beta")
    assert refused.value.status == 503
    assert "previous choice stays" in refused.value.message
    assert sorted(host.data_dir.iterdir()) == before
    assert host.providers().selected_id == "alpha"


def test_the_file_is_replaced_never_rewritten_in_place(host: Host) -> None:
    host.select("alpha")
    with selection_file(host).open("rb") as old:
        host.select("beta")
        assert json.loads(old.read()) == {"selectedId": "alpha"}
    assert json.loads(selection_file(host).read_text()) == {"selectedId": "beta"}


def test_the_data_dir_is_created_on_first_selection(tmp_path: Path) -> None:
    host = Host(tmp_path / "new" / "dir")
    host.catalog.install(Recorder(provider_id="alpha").record())
    host.select("alpha")
    stored = tmp_path / "new" / "dir" / SELECTION_FILE
    assert json.loads(stored.read_text()) == {"selectedId": "alpha"}
    assert host.providers().selected_id == "alpha"


def test_choosing_a_provider_repairs_a_corrupt_selection_file(host: Host) -> None:
    selection_file(host).write_text("{oops")
    assert host.select("beta") == "beta"
    assert host.providers().selected_id == "beta"


def _aged(path: Path, seconds: float) -> Path:
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


def test_a_new_host_removes_temporary_files_a_killed_writer_left(tmp_path: Path) -> None:
    """Only old ones: a young one may belong to a write under way in another process."""
    (tmp_path / ".selection-abc123.tmp").write_bytes(b'{"selectedId": "al')
    (tmp_path / ".selection-def456.tmp").write_bytes(b"")
    (tmp_path / "notes.tmp").write_bytes(b"the user's")
    _aged(tmp_path / ".selection-abc123.tmp", STALE_TEMPORARY_S + 5)
    _aged(tmp_path / "notes.tmp", STALE_TEMPORARY_S + 5)
    Host(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".selection-def456.tmp", "notes.tmp"]


def test_a_new_host_in_a_missing_data_dir_starts(tmp_path: Path) -> None:
    assert Host(tmp_path / "not-yet").providers().selected_id is None


_WRITER = """
import sys
from pathlib import Path
from browserhost.host.selection import SelectionStore

store = SelectionStore(Path(sys.argv[1]))
for number in range(1000):
    store.write("beta" if number % 2 else "alpha")
    if number == 100:
        print("writing", flush=True)
"""


@pytest.mark.slow
def test_a_reader_never_sees_a_partial_selection_while_a_writer_is_killed(
    tmp_path: Path,
) -> None:
    """The fault run: kill a process mid-way through 1,000 writes while another reads."""
    store = SelectionStore(tmp_path)
    store.write("alpha")
    seen: list[str | None] = []
    failures: list[str] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            try:
                seen.append(store.read())
            except SelectionReadError as exc:
                failures.append(str(exc))

    reader = threading.Thread(target=read)
    reader.start()
    command = [sys.executable, "-c", _WRITER, str(tmp_path)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as writer:
        try:
            assert writer.stdout is not None
            assert writer.stdout.readline() == "writing\n"
        finally:
            writer.kill()
            writer.wait(timeout=10)
            stop.set()
            reader.join(timeout=10)
    assert writer.returncode == -signal.SIGKILL  # killed mid-loop, not finished
    assert failures == []
    assert seen
    assert set(seen) <= {"alpha", "beta"}
    assert store.read() in {"alpha", "beta"}
