"""A first action that starts a browser or a provider service is never silent: the CLI says
on stderr what it waits for, stdout stays the answer alone (``--json`` included), and
``serve`` logs the start and how long it took."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LiveServer, serving_http, start_server
from tests.host.test_services import install_entry_point
from tests.spawning import READY_WAIT_S

pytestmark = pytest.mark.slow

REPOSITORY = Path(__file__).resolve().parents[2]
WAIT_S = READY_WAIT_S
WAITING_LINE = "Waiting for the browser… (a first action starts it)"


def cli(server: LiveServer, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "browserhost", *args, "--url", server.url, "--token", server.token],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("BROWSERHOST_")},
    )


@pytest.fixture
def held_page() -> Iterator[tuple[str, threading.Event]]:
    """A page that answers only once the event is set: an action on it is slow for as long as
    the test wants, with no timing guessed."""
    release = threading.Event()

    class Held(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            release.wait(WAIT_S)
            body = b"<!doctype html><title>Held page</title><p>Here at last.</p>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            """Silent: the test output is for assertions."""

    with serving_http(Held) as origin:
        try:
            yield origin, release
        finally:
            release.set()


def test_a_slow_first_open_says_what_it_waits_for_and_serve_logs_the_launch(
    tmp_path: Path, held_page: tuple[str, threading.Event]
) -> None:
    origin, release = held_page
    server = start_server(
        tmp_path / "data", providers="stub,chromium", extra_args=("--select", "chromium")
    )
    try:
        opening = cli(server, "open", f"{origin}/", "--json")
        assert opening.stderr is not None
        said = opening.stderr.readline()  # before the page answers: the action is still running
        release.set()
        stdout, stderr = opening.communicate(timeout=WAIT_S)
    finally:
        server.stop()
    assert said.rstrip("\n") == WAITING_LINE
    assert opening.returncode == 0, stderr
    assert json.loads(stdout)["data"]["title"] == "Held page"  # stdout is the JSON alone
    log = server.log_path.read_text()
    assert "Starting Chromium…" in log
    assert "Chromium started in " in log


def test_a_quick_answer_prints_no_status(live_server: LiveServer) -> None:
    listing = cli(live_server, "providers")
    stdout, stderr = listing.communicate(timeout=WAIT_S)
    assert listing.returncode == 0, stderr
    assert stderr == ""
    assert stdout.startswith("  stub  ")


def test_serve_logs_a_provider_service_it_starts(tmp_path: Path) -> None:
    install_entry_point(tmp_path / "site")
    server = start_server(
        tmp_path / "data",
        providers="recording",
        extra_args=("--select", "recording"),
        env={"PYTHONPATH": f"{tmp_path / 'site'}{os.pathsep}{REPOSITORY}"},
    )
    try:
        back = cli(server, "back")
        _, stderr = back.communicate(timeout=WAIT_S)
    finally:
        server.stop()
    assert back.returncode == 0, stderr
    log = server.log_path.read_text()
    assert "Starting provider service recording…" in log
    assert "Provider service recording ready in " in log
