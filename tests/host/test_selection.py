"""The selection file: what it holds, how it is read, and that a failed write changes nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from browserhost.contract.errors import (
    CatalogUnavailableError,
    InvalidSelectionError,
    ProviderNotFoundError,
    SelectionUnavailableError,
)
from browserhost.host import Host
from browserhost.host.selection import (
    SELECTION_FILE,
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
