"""Issue 25, item 7: ``serve`` on a port that is taken says so in one line and exits 2, before
it prints anything else, and so never the token."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import TOKEN, free_port

pytestmark = pytest.mark.slow


def serve(data_dir: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "browserhost", "serve", "--data-dir", str(data_dir), *arguments],
        env={**os.environ, "BROWSERHOST_TOKEN": TOKEN, "BROWSERHOST_PROVIDERS": "stub"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("option", ["--port", "--bridge-listen"])
def test_a_taken_port_is_one_line_and_exit_2_without_the_token(tmp_path: Path, option: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        if option == "--port":
            ran = serve(tmp_path / "data", "--port", str(port))
        else:
            ran = serve(tmp_path / "data", "--port", str(free_port()), option, f"127.0.0.1:{port}")
    assert ran.returncode == 2
    assert ran.stdout == ""
    assert ran.stderr == (
        f"port {port} is taken: another program (another browserhost serve?) listens on "
        f"127.0.0.1:{port}; stop it, or choose another port with {option}.\n"
    )
    assert TOKEN not in ran.stderr
