"""What only a real ``browserhost serve`` process shows: restarts, the token file, a data dir
it cannot write, and which providers it loads."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from browserhost.config import TOKEN_FILE
from browserhost.host.selection import SELECTION_FILE
from tests.api.conftest import ACTIONS, PROVIDERS, SELECTION
from tests.conftest import STUB_ROW, TOKEN, LiveServer, free_port, start_server

pytestmark = pytest.mark.slow

USAGE_ERROR = 2


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


def _serve_refuses(data_dir: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``browserhost serve`` expecting it to refuse to start, bounded in time."""
    return subprocess.run(
        [sys.executable, "-m", "browserhost", "serve", "--port", str(free_port()),
         "--data-dir", str(data_dir)],
        env={**os.environ, "BROWSERHOST_PROVIDERS": "stub", **env},
        capture_output=True,
        text=True,
        timeout=30,
    )  # fmt: skip


def _one_line(ran: subprocess.CompletedProcess[str]) -> str:
    assert ran.returncode == USAGE_ERROR, ran
    assert ran.stdout == ""
    assert "Traceback" not in ran.stderr
    assert len(ran.stderr.strip().splitlines()) == 1, ran.stderr
    return ran.stderr.strip()


def test_an_empty_token_file_left_by_a_crash_is_replaced_by_a_new_token(tmp_path: Path) -> None:
    """A start that crashed mid-write left the file empty; no client can hold an empty token."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / TOKEN_FILE).write_bytes(b"")
    server = start_server(data_dir, env={"BROWSERHOST_TOKEN": ""})
    try:
        token = (data_dir / TOKEN_FILE).read_text().strip()
        with httpx.Client(base_url=server.url, trust_env=False) as client:
            answer = client.get(PROVIDERS, headers=_bearer(token))
    finally:
        server.stop()
    assert len(token) >= 32
    assert answer.status_code == 200
    assert stat.S_IMODE((data_dir / TOKEN_FILE).stat().st_mode) == 0o600
    assert f"token      {token}" in server.log_path.read_text()
    assert sorted(p.name for p in data_dir.iterdir()) == [TOKEN_FILE]  # no temporary left


def test_a_token_file_that_is_a_directory_is_refused_in_one_line(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    (data_dir / TOKEN_FILE).mkdir(parents=True)
    line = _one_line(_serve_refuses(data_dir, {"BROWSERHOST_TOKEN": ""}))
    assert line == (
        f"{data_dir / TOKEN_FILE} is a directory, not a token file; remove it (a new token "
        "is written) or set BROWSERHOST_TOKEN."
    )


@pytest.mark.parametrize("token", ["", TOKEN])
def test_a_data_dir_that_is_a_file_is_refused_in_one_line(tmp_path: Path, token: str) -> None:
    data_file = tmp_path / "data"
    data_file.write_text("not a directory")
    line = _one_line(_serve_refuses(data_file, {"BROWSERHOST_TOKEN": token}))
    assert line == (
        f"The data dir {data_file} is a file; pass --data-dir a directory (it is created if "
        "missing)."
    )
    assert data_file.read_text() == "not a directory"


def test_a_data_dir_under_a_file_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    line = _one_line(_serve_refuses(tmp_path / "file" / "data", {}))
    assert line == (
        f"Cannot create the data dir {tmp_path / 'file' / 'data'} (Not a directory); pass "
        "--data-dir a directory you can write."
    )


def test_allow_host_lets_requests_for_those_names_through_and_no_others(tmp_path: Path) -> None:
    """A DNS name pointing at this machine (a container, a tunnel) is refused unless allowed."""
    server = start_server(
        tmp_path / "data",
        extra_args=("--allow-host", "browserhost.test", "--allow-host", "Box.Internal"),
    )
    port = server.url.rsplit(":", 1)[1]
    try:
        with server.client() as client:
            answers = {
                name: client.get(PROVIDERS, headers={"Host": f"{name}:{port}"})
                for name in ("browserhost.test", "box.internal", "other.test", "127.0.0.1")
            }
    finally:
        server.stop()
    assert answers["browserhost.test"].status_code == 200
    assert answers["box.internal"].status_code == 200
    assert answers["127.0.0.1"].status_code == 200
    refused = answers["other.test"]
    assert (refused.status_code, refused.json()["code"]) == (421, "HOST_NOT_ALLOWED")
    assert "--allow-host NAME" in refused.json()["error"]
