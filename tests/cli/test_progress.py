"""A first action that starts a browser or a provider service is never silent: the CLI says
on stderr what it waits for, stdout stays the answer alone (``--json`` included), and
``serve`` logs the start and how long it took."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from browserhost.cli.calls import PROGRESS_AFTER_S
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


def held_chromium(folder: Path) -> tuple[Path, Path]:
    """A Chromium that starts only once the returned file exists: its launch lasts as long
    as the test wants. The wrapper waits for the file, then becomes the real browser."""
    release = folder / "release"
    script = folder / "chromium"
    script.write_text(
        f'#!/bin/sh\nwhile [ ! -e "{release}" ]; do sleep 0.05; done\n'
        f'exec "{shutil.which("chromium") or "/usr/bin/chromium"}" "$@"\n'
    )
    script.chmod(0o755)
    return script, release


def test_a_first_open_that_waits_for_chromium_says_so_and_serve_logs_the_launch(
    tmp_path: Path, held_page: tuple[str, threading.Event]
) -> None:
    origin, page_release = held_page
    page_release.set()
    executable, release = held_chromium(tmp_path)
    server = start_server(
        tmp_path / "data",
        providers="stub,chromium",
        extra_args=("--select", "chromium"),
        env={"BROWSERHOST_CHROMIUM": str(executable)},
    )
    try:
        opening = cli(server, "open", f"{origin}/", "--json")
        assert opening.stderr is not None
        said = opening.stderr.readline()  # the browser is still held: the action waits for it
        release.touch()
        stdout, stderr = opening.communicate(timeout=WAIT_S)
    finally:
        release.touch()
        server.stop()
    assert said.rstrip("\n") == WAITING_LINE
    assert opening.returncode == 0, stderr
    assert json.loads(stdout)["data"]["title"] == "Held page"  # stdout is the JSON alone
    log = server.log_path.read_text()
    assert "Starting Chromium…" in log
    assert "Chromium started in " in log


def test_a_slow_page_in_a_running_browser_is_not_called_a_starting_browser(
    tmp_path: Path, held_page: tuple[str, threading.Event]
) -> None:
    origin, page_release = held_page
    server = start_server(
        tmp_path / "data", providers="stub,chromium", extra_args=("--select", "chromium")
    )
    try:
        warm = cli(server, "open", "about:blank")
        assert warm.communicate(timeout=WAIT_S)[0]  # the browser runs from here on
        opening = cli(server, "open", f"{origin}/", "--json")
        # Released after the CLI has asked the host several times whether anything starts
        # (every PROGRESS_AFTER_S): a slower machine only makes this test pass more easily.
        threading.Timer(PROGRESS_AFTER_S * 6, page_release.set).start()
        stdout, stderr = opening.communicate(timeout=WAIT_S)
    finally:
        page_release.set()
        server.stop()
    assert opening.returncode == 0, stderr
    assert json.loads(stdout)["data"]["title"] == "Held page"
    assert WAITING_LINE not in stderr


def test_a_host_that_never_answers_is_not_called_a_starting_browser(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as silent:  # accepts, never answers
        port = silent.getsockname()[1]
        waiting = subprocess.Popen(
            [sys.executable, "-m", "browserhost", "snapshot", "--url", f"http://127.0.0.1:{port}"],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            env={k: v for k, v in os.environ.items() if not k.startswith("BROWSERHOST_")},
        )
        try:
            with pytest.raises(subprocess.TimeoutExpired):
                waiting.communicate(timeout=PROGRESS_AFTER_S * 6)
        finally:
            waiting.kill()
            _, stderr = waiting.communicate(timeout=WAIT_S)
    assert WAITING_LINE not in stderr


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
