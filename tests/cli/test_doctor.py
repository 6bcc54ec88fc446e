"""``browserhost doctor`` run as a user runs it, against real gaps: a Chromium that is not an
executable, a port another program holds, a data dir it cannot write, a token file others can
read, a selection of a provider not installed, a service that exits, a remote browser that is
not there. Each gap is one line saying what to do, and only a clean run exits 0."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from browserhost.providers.chromium import ChromiumConfig
from browserhost.providers.chromium.grid import chromium_capabilities
from tests.conftest import LiveServer, free_port, start_server
from tests.host.test_services import install_entry_point
from tests.providers.chromium.grid_server import SLOTS, RunningGrid, running_grid, write_config

pytestmark = pytest.mark.slow

REPOSITORY = Path(__file__).resolve().parents[2]
DOCTOR_WAIT_S = 120


def doctor(
    data_dir: Path,
    *args: str,
    env: dict[str, str] | None = None,
    wrapper: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("BROWSERHOST_")}
    return subprocess.run(
        [*wrapper, sys.executable, "-m", "browserhost", "doctor", "--data-dir", str(data_dir),
         "--port", str(free_port()), *args],
        capture_output=True, text=True, timeout=DOCTOR_WAIT_S, env={**environ, **(env or {})},
    )  # fmt: skip


def line(done: subprocess.CompletedProcess[str], check: str) -> str:
    """The one line of ``check``, its mark first."""
    [found] = [row for row in done.stdout.splitlines() if row[2:].startswith(f"{check}  ")]
    return found


STUB_ONLY = {"BROWSERHOST_PROVIDERS": "stub"}
"""No chromium provider: the checks not about Chromium launch none."""


def test_a_ready_machine_passes_every_check_and_names_its_chromium(
    tmp_path: Path, chromium_path: str
) -> None:
    done = doctor(tmp_path / "data")
    assert done.returncode == 0, done.stdout + done.stderr
    assert line(done, "data dir") == f"✓ data dir  {tmp_path / 'data'} (writable)"
    assert line(done, "token").startswith("✓ token  none yet: serve writes one")
    assert line(done, "port").endswith("is free")
    assert line(done, "selection").startswith("- selection  none yet;")
    chromium = line(done, "chromium")
    assert chromium.startswith(f"✓ chromium  {chromium_path}, Chromium ")
    assert "launched in" in chromium
    assert not (tmp_path / "data" / "token").exists()  # doctor writes no token


def test_a_chromium_that_is_not_an_executable_fails_saying_what_to_set(tmp_path: Path) -> None:
    fake = tmp_path / "chromium"
    fake.write_text("not a browser")
    done = doctor(tmp_path / "data", env={"BROWSERHOST_CHROMIUM": str(fake)})
    assert done.returncode == 1
    assert line(done, "chromium") == (
        f"✗ chromium  BROWSERHOST_CHROMIUM is set to {fake}, which is not an executable file; "
        "point it at a Chromium or Chrome binary, or unset it."
    )
    assert line(done, "data dir").startswith("✓")


def test_a_port_held_by_another_program_fails_naming_it(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = doctor(tmp_path / "data", "--port", str(port), env=STUB_ONLY)
    assert done.returncode == 1
    assert line(done, "port") == (
        f"✗ port  127.0.0.1:{port} is in use by another program; serve with --port (or stop "
        "that program)."
    )


def test_a_port_held_by_a_web_server_that_answers_anything_is_sent_no_token(
    tmp_path: Path,
) -> None:
    """A program that answers every request (200, JSON) is not taken for a serve of this data
    dir, and never sees its token."""
    heard: list[str | None] = []

    class Answering(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            heard.append(self.headers.get("Authorization"))
            body = b'{"error": "no"}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "token").write_text("the-secret-token\n")
    (data_dir / "token").chmod(0o600)
    with ThreadingHTTPServer(("127.0.0.1", 0), Answering) as answering:
        threading.Thread(target=answering.serve_forever, daemon=True).start()
        port = answering.server_address[1]
        done = doctor(data_dir, "--port", str(port), env=STUB_ONLY)
        answering.shutdown()
    assert done.returncode == 1
    assert line(done, "port") == (
        f"✗ port  127.0.0.1:{port} is in use by another program; serve with --port (or stop "
        "that program)."
    )
    assert heard
    assert all(said is None for said in heard), heard


def test_a_port_out_of_range_is_a_usage_error(tmp_path: Path) -> None:
    done = doctor(tmp_path / "data", "--port", "99999", env=STUB_ONLY)
    assert done.returncode == 2
    assert "99999 is not in the range 0<=x<=65535" in done.stderr


def test_a_port_held_by_a_running_serve_says_so(tmp_path: Path, live_server: LiveServer) -> None:
    port = live_server.url.rpartition(":")[2]
    done = doctor(tmp_path / "data", "--port", port, env=STUB_ONLY)
    assert done.returncode == 1
    assert "is taken by a browserhost serve already running" in line(done, "port")


def test_a_port_held_by_a_serve_of_this_data_dir_passes(tmp_path: Path) -> None:
    """That serve answers this data dir's token: it is the one to use, not a gap."""
    data_dir = tmp_path / "data"
    served = start_server(data_dir, env={"BROWSERHOST_TOKEN": ""})  # its token in data_dir
    try:
        port = served.url.rpartition(":")[2]
        done = doctor(data_dir, "--port", port, env=STUB_ONLY)
    finally:
        served.stop()
    assert done.returncode == 0, done.stdout + done.stderr
    assert line(done, "port") == (
        f"✓ port  127.0.0.1:{port} is served by browserhost already running (this data dir)"
    )


def test_a_data_dir_it_cannot_write_fails_once(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    wrapper: tuple[str, ...] = ()
    if os.geteuid() == 0:  # root writes anywhere; without its capabilities it does not
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: cannot make a directory unwritable")
        os.chown(data_dir, 65534, 65534)
        wrapper = (setpriv, "--bounding-set=-all", "--inh-caps=-all", "--")
    data_dir.chmod(0o555)
    done = doctor(data_dir, env=STUB_ONLY, wrapper=wrapper)
    assert done.returncode == 1
    assert line(done, "data dir") == (
        f"✗ data dir  Cannot write in {data_dir} (Permission denied); make it writable, or "
        "pass --data-dir (or set BROWSERHOST_DATA_DIR to) a directory you can write."
    )
    assert line(done, "token").startswith("- token  not read")


def test_a_token_file_others_can_read_fails_with_the_command_that_fixes_it(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    token = data_dir / "token"
    token.write_text("a-token-of-old\n")
    token.chmod(0o644)
    done = doctor(data_dir, env=STUB_ONLY)
    assert done.returncode == 1
    assert line(done, "token") == (
        f"✗ token  {token} can be read by other users (mode 0644); run: chmod 600 {token}"
    )
    token.chmod(0o600)
    assert doctor(data_dir, env=STUB_ONLY).returncode == 0


def test_a_selected_provider_not_installed_fails_naming_what_is(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "browser-provider-selection.json").write_text(
        json.dumps({"selectedId": "chromium"})
    )
    done = doctor(data_dir, env=STUB_ONLY)
    assert done.returncode == 1
    assert line(done, "selection") == (
        "✗ selection  chromium is selected but not installed (installed: stub); install its "
        "package or widen BROWSERHOST_PROVIDERS, or choose another: browserhost select ID."
    )


def test_the_bridge_selected_by_serve_passes_saying_a_browser_must_connect(
    tmp_path: Path,
) -> None:
    """The bridge is installed by serve itself, not by a package."""
    data_dir = tmp_path / "data"
    start_server(data_dir, providers="stub,bridge", extra_args=("--select", "bridge")).stop()
    done = doctor(data_dir, env={"BROWSERHOST_PROVIDERS": "chromium,stub,bridge"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert line(done, "selection") == (
        "✓ selection  bridge (serve offers it unless --no-bridge; it answers once a browser "
        "connects: connect the browserhost extension, or start `browserhost bridge connect`; "
        "installed: chromium, stub)"
    )
    assert line(done, "chromium") == "- chromium  not needed: bridge is selected"

    narrowed = doctor(data_dir, env=STUB_ONLY)
    assert narrowed.returncode == 1
    assert line(narrowed, "selection") == (
        "✗ selection  bridge is selected but BROWSERHOST_PROVIDERS leaves it out (installed: "
        "stub); add bridge to it, or choose another: browserhost select ID."
    )


BROKEN = """
import sys


def register():
    return {
        "id": "broken",
        "name": "Broken service",
        "provides": ["browser"],
        "actions": ["browser.open"],
        "service": {"command": [sys.executable, "-c", "raise SystemExit('no licence key')"]},
    }
"""


@pytest.fixture
def services(tmp_path: Path) -> dict[str, str]:
    """Two provider packages with a service: ``recording`` starts, ``broken`` exits."""
    site = tmp_path / "site"
    install_entry_point(site)
    (site / "broken_provider.py").write_text(BROKEN)
    metadata = site / "broken_provider-0.1.dist-info"
    metadata.mkdir()
    (metadata / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: broken-provider\nVersion: 0.1\n"
    )
    (metadata / "entry_points.txt").write_text(
        "[browserhost.providers]\nbroken = broken_provider:register\n"
    )
    return {
        "PYTHONPATH": f"{site}{os.pathsep}{REPOSITORY}",
        "BROWSERHOST_PROVIDERS": "recording,broken",
    }


def test_each_provider_service_is_started_and_one_that_exits_fails(
    tmp_path: Path, services: dict[str, str]
) -> None:
    done = doctor(tmp_path / "data", env=services)
    assert done.returncode == 1
    assert line(done, "recording service").startswith(
        "✓ recording service  started and said hello in "
    )
    broken = line(done, "broken service")
    assert broken.startswith("✗ broken service  It did not start: the service exited with code 1")
    assert "no licence key" in broken
    assert broken.endswith("Its log is services/broken.log in the data dir.")
    assert line(done, "chromium").startswith("- chromium  the chromium provider is not installed")


def test_an_unreachable_remote_browser_fails_without_showing_its_address(tmp_path: Path) -> None:
    endpoint = f"http://127.0.0.1:{free_port()}/?token=secret-of-the-fleet"
    done = doctor(tmp_path / "data", env={"BROWSERHOST_CHROMIUM_ENDPOINT": endpoint})
    assert done.returncode == 1
    assert line(done, "remote browser") == (
        "✗ remote browser  Could not connect to the remote browser set by "
        "BROWSERHOST_CHROMIUM_ENDPOINT; check that it is running and reachable from this machine."
    )
    assert "secret-of-the-fleet" not in done.stdout + done.stderr


GRID = "BROWSERHOST_CHROMIUM_GRID"


@pytest.fixture(scope="module")
def grid(chromium_path: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningGrid]:
    """One Grid for this module's tests of it: its start is most of their time."""
    with running_grid(write_config(tmp_path_factory.mktemp("grid"), chromium_path)) as running:
        yield running


def test_with_a_grid_set_it_checks_the_grid_and_launches_no_chromium_here(
    tmp_path: Path, grid: RunningGrid
) -> None:
    """The provider launches nothing with a Grid set, so neither does doctor: it counts the
    Grid's free Chrome slots (not its Firefox ones), showing where it is but not who logs in."""
    signed_in = grid.address.replace("http://", "http://someone:secret-of-the-grid@")
    done = doctor(tmp_path / "data", env={GRID: signed_in})
    assert done.returncode == 0, done.stdout + done.stderr
    checked = line(done, "Selenium Grid")
    assert checked.startswith(f"✓ Selenium Grid  {grid.address} answered in ")
    assert checked.endswith(
        f" s: {SLOTS} free, 0 busy Chrome slots; each agent session's browser starts there, "
        "none here"
    )
    assert not [row for row in done.stdout.splitlines() if row[2:].startswith("chromium  ")]
    assert "secret-of-the-grid" not in done.stdout + done.stderr


def test_a_grid_whose_slots_are_all_taken_is_up_and_says_so(
    tmp_path: Path, chromium_path: str, grid: RunningGrid
) -> None:
    """A full Grid calls itself not ready, as one with no node is; doctor tells them apart."""
    wanted = chromium_capabilities(ChromiumConfig(executable=chromium_path))
    with httpx.Client(base_url=grid.address, timeout=60, trust_env=False) as client:
        sessions = [new_session(client, wanted) for _ in range(SLOTS)]
        try:
            done = doctor(tmp_path / "data", env={GRID: grid.address})
        finally:
            for session in sessions:
                client.delete(f"/session/{session['sessionId']}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert line(done, "Selenium Grid").endswith(
        f" s: 0 free, {SLOTS} busy Chrome slots; all taken now: a new agent session waits for "
        "one; each agent session's browser starts there, none here"
    )


def new_session(client: httpx.Client, wanted: dict[str, object]) -> dict[str, object]:
    """A session taken on the Grid directly, as another of its clients would."""
    answer = client.post(
        "/session",
        content=json.dumps(wanted),
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    value: dict[str, object] = answer.json()["value"]
    assert "sessionId" in value, value
    return value


def test_a_grid_that_does_not_answer_fails_saying_what_to_do(tmp_path: Path) -> None:
    address = f"http://127.0.0.1:{free_port()}"
    done = doctor(tmp_path / "data", env={GRID: address})
    assert done.returncode == 1
    assert line(done, "Selenium Grid") == (
        f"✗ Selenium Grid  {address} (BROWSERHOST_CHROMIUM_GRID) does not answer within 2 s; "
        "start the Grid or check that it is reachable from this machine, or unset "
        "BROWSERHOST_CHROMIUM_GRID to launch Chromium here."
    )
    assert not [row for row in done.stdout.splitlines() if row[2:].startswith("chromium  ")]
