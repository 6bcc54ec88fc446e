"""``browserhost shell`` against a live ``browserhost serve`` (stub): one command a line, each
printing what it prints alone, in one session."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from browserhost.cli import EXIT_REFUSED
from tests.conftest import TOKEN, LiveServer

pytestmark = pytest.mark.slow


def shell(server: LiveServer, lines: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "browserhost", "shell"],
        input=lines,
        cwd=cwd,
        env={**os.environ, "BROWSERHOST_URL": server.url, "BROWSERHOST_TOKEN": TOKEN},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_each_line_runs_as_its_command_in_one_session(
    live_server: LiveServer, tmp_path: Path
) -> None:
    ran = shell(
        live_server,
        "select stub\n# a comment\n\nopen https://site.test/form\n"
        "type --selector #q --value cats --submit\nback\n",
        tmp_path,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == [
        "Selected stub.",
        "Search  https://site.test/form",
        "viewport desktop 1280x800",
        "Typed into #q  now at https://site.test/search?q=cats",
        "Search  https://site.test/form",
    ]


def test_a_failing_line_is_said_and_the_next_runs_the_status_is_the_last_failure(
    live_server: LiveServer, tmp_path: Path
) -> None:
    ran = shell(
        live_server,
        "select stub\nopen https://site.test/\nclick --selector '#nowhere'\nsnapshot --json\n",
        tmp_path,
    )
    assert ran.returncode == EXIT_REFUSED
    assert "PROVIDER_REJECTED: No element matches #nowhere" in ran.stderr
    assert '"title": "Stub home"' in ran.stdout  # the line after the failure ran
