"""What only a real ``browserhost serve`` process shows: restarts, the token file, a data dir
it cannot write, and which providers it loads."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import httpx
import pytest

from browserhost.config import TOKEN_FILE
from browserhost.host.selection import SELECTION_FILE
from tests.api.conftest import ACTIONS, PROVIDERS, SELECTION
from tests.conftest import STUB_ROW, LiveServer, start_server


def test_a_new_server_lists_the_stub_it_loaded_and_no_selection(live_server: LiveServer) -> None:
    with live_server.client() as client:
        answer = client.get(PROVIDERS)
    assert answer.status_code == 200
    assert answer.json() == {
        "providers": [STUB_ROW],
        "selectedId": None,
    }


def test_selection_survives_a_restart(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    first = start_server(data_dir)
    try:
        with first.client() as client:
            assert client.put(SELECTION, json={"id": "stub"}).json() == {"selectedId": "stub"}
    finally:
        first.stop()
    second = start_server(data_dir)
    try:
        with second.client() as client:
            assert client.get(PROVIDERS).json()["selectedId"] == "stub"
            opened = client.post(
                ACTIONS, json={"action": "browser.open", "parameters": {"url": "https://a.test/"}}
            )
    finally:
        second.stop()
    assert (opened.status_code, opened.json()["providerId"]) == (200, "stub")


def _unwritable(data_dir: Path) -> tuple[str, ...]:
    """Make ``data_dir`` unwritable for the server and return the wrapper to run it under.

    As root (CI runs as root) permission bits do not bind: CAP_DAC_OVERRIDE writes anywhere.
    So the directory is handed to another owner (nobody) with mode 0755, and the server runs
    as root with an empty capability bounding set (setpriv, from util-linux, needs no extra
    privilege to drop capabilities). It can still read the selection as "other", and can no
    longer create the temporary file a selection write needs: an honest EACCES, not a mock.
    """
    if os.geteuid() != 0:
        data_dir.chmod(0o555)
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot make a directory unwritable")
    os.chown(data_dir, 65534, 65534)
    os.chown(data_dir / SELECTION_FILE, 65534, 65534)
    data_dir.chmod(0o755)
    return (setpriv, "--bounding-set=-all", "--inh-caps=-all", "--")


def test_a_read_only_data_dir_gives_503_and_changes_nothing(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    selection = data_dir / SELECTION_FILE
    selection.write_bytes(b'{"selectedId": "chromium"}')  # a choice not installed here
    server = start_server(data_dir, wrapper=_unwritable(data_dir))
    try:
        with server.client() as client:
            refused = client.put(SELECTION, json={"id": "stub"})
            listing = client.get(PROVIDERS)
            action = client.post(ACTIONS, json={"action": "browser.snapshot"})
    finally:
        server.stop()
        data_dir.chmod(0o755)
    assert refused.status_code == 503
    assert refused.json()["code"] == "SELECTION_UNAVAILABLE"
    assert "Permission denied" in refused.json()["error"]
    assert "previous choice stays" in refused.json()["error"]
    assert selection.read_bytes() == b'{"selectedId": "chromium"}'
    assert sorted(p.name for p in data_dir.iterdir()) == [SELECTION_FILE]
    assert listing.json()["selectedId"] is None
    # The previous choice still decides where actions go; the stub did not take over.
    assert (action.status_code, action.json()["code"]) == (404, "PROVIDER_NOT_FOUND")
    assert "'chromium'" in action.json()["error"]


def test_the_token_file_is_created_0600_and_reused_on_restart(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    no_env_token = {"BROWSERHOST_TOKEN": ""}
    first = start_server(data_dir, env=no_env_token)
    try:
        token = (data_dir / TOKEN_FILE).read_text().strip()
        mode = stat.S_IMODE((data_dir / TOKEN_FILE).stat().st_mode)
        with httpx.Client(base_url=first.url, trust_env=False) as client:
            assert client.get(PROVIDERS, headers=_bearer(token)).status_code == 200
            assert client.get(PROVIDERS, headers=_bearer(first.token)).status_code == 401
    finally:
        first.stop()
    assert mode == 0o600
    assert len(token) >= 32

    second = start_server(data_dir, env=no_env_token)
    try:
        with httpx.Client(base_url=second.url, trust_env=False) as client:
            assert client.get(PROVIDERS, headers=_bearer(token)).status_code == 200
    finally:
        second.stop()
    assert (data_dir / TOKEN_FILE).read_text().strip() == token


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_browserhost_providers_narrows_what_the_server_loads(tmp_path: Path) -> None:
    server = start_server(tmp_path / "data", providers="no-such-provider")
    try:
        with server.client() as client:
            listing = client.get(PROVIDERS)
            action = client.post(ACTIONS, json={"action": "browser.back"})
    finally:
        server.stop()
    assert listing.json() == {"providers": [], "selectedId": None}
    assert (action.status_code, action.json()["code"]) == (409, "NO_PROVIDER")
