"""The data dir and the API token."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from browserhost import config


@pytest.fixture(autouse=True)
def no_env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BROWSERHOST_TOKEN", raising=False)
    monkeypatch.delenv("BROWSERHOST_DATA_DIR", raising=False)


def test_a_new_token_is_written_0600_even_under_a_permissive_umask(tmp_path: Path) -> None:
    previous = os.umask(0)
    try:
        token = config.ensure_token(tmp_path / "data")
    finally:
        os.umask(previous)
    path = tmp_path / "data" / config.TOKEN_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text() == token + "\n"
    # The folder it makes is for this user alone too: logins and downloads go there.
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_the_stored_token_is_reused_and_not_rewritten(tmp_path: Path) -> None:
    first = config.ensure_token(tmp_path)
    written = (tmp_path / config.TOKEN_FILE).stat().st_mtime_ns
    assert config.ensure_token(tmp_path) == first
    assert config.read_token(tmp_path) == first
    assert (tmp_path / config.TOKEN_FILE).stat().st_mtime_ns == written


def test_two_data_dirs_get_different_tokens(tmp_path: Path) -> None:
    assert config.ensure_token(tmp_path / "a") != config.ensure_token(tmp_path / "b")


def test_the_environment_token_wins_and_no_file_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BROWSERHOST_TOKEN", "from-env")
    assert config.ensure_token(tmp_path) == "from-env"
    assert not (tmp_path / config.TOKEN_FILE).exists()


def test_a_client_without_a_token_anywhere_gets_none(tmp_path: Path) -> None:
    assert config.read_token(tmp_path) is None


def test_the_data_dir_option_wins_over_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BROWSERHOST_DATA_DIR", str(tmp_path / "env"))
    assert config.data_dir(tmp_path / "option") == tmp_path / "option"
    assert config.data_dir() == tmp_path / "env"
