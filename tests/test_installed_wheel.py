"""The package as a user installs it: the sdist and wheel built, the wheel installed with its
extras into a fresh virtual environment, and that install driven for real.

The rest of the suite runs against the editable install, which reads every file from the
source tree and so cannot see a file the wheel forgets to ship (``snapshot.js``, the viewer's
files, the stub's panel page). Here nothing comes from the source tree: ``serve`` and ``mcp``
run from the fresh environment's ``bin/``, in a folder outside the checkout.

The dependencies are installed from a wheel cache in the user's cache dir, without an index;
only a cache that lacks one (a first run, a new dependency) is filled from the index, once.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import anyio
import platformdirs
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.conftest import TOKEN, free_port, serving_http, start_server
from tests.mcp.conftest import call_ok, text_of

pytestmark = pytest.mark.slow

PROJECT = Path(__file__).resolve().parents[1]
PACKAGE = PROJECT / "src" / "browserhost"
EXTRAS = "[chromium,mcp]"
WHEEL_CACHE = Path(platformdirs.user_cache_dir("browserhost")) / "test-wheels"
STEP_TIMEOUT_S = 300
"""A first run downloads the dependencies (Playwright's wheel alone is about 40 MB)."""

PAGE = (
    b"<!doctype html><title>Installed page</title><h1>Served from a wheel</h1>"
    b"<a href='/next'>Next page</a><button>Press me</button>"
)


@dataclass(frozen=True)
class Install:
    """A fresh virtual environment holding the built wheel and its extras."""

    bin: Path
    wheel: Path
    sdist: Path

    @property
    def browserhost(self) -> str:
        return str(self.bin / "browserhost")


def _run(command: list[str], **settings: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=STEP_TIMEOUT_S, **settings
    )
    if done.returncode != 0:
        pytest.fail(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return done


def _install(python: Path, wheel: Path) -> bool:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--no-index", "--find-links", str(WHEEL_CACHE), f"{wheel}{EXTRAS}"],
        capture_output=True, text=True, timeout=STEP_TIMEOUT_S,
    )  # fmt: skip
    return done.returncode == 0


@pytest.fixture(scope="module")
def install(tmp_path_factory: pytest.TempPathFactory) -> Install:
    root = tmp_path_factory.mktemp("wheel")
    dist = root / "dist"
    # --no-isolation: the backend comes from the dev extra, not a download per run. Without
    # --wheel or --sdist, build makes the sdist and then the wheel from that sdist, so a file
    # the sdist leaves out is missing from the wheel too.
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(PROJECT)])
    [wheel] = dist.glob("browserhost-*.whl")
    [sdist] = dist.glob("browserhost-*.tar.gz")
    venv = root / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    if not _install(python, wheel):
        WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
        _run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(WHEEL_CACHE),
             f"{wheel}{EXTRAS}"]
        )  # fmt: skip
        for stale in WHEEL_CACHE.glob("browserhost-*"):  # only the dependencies are cached
            stale.unlink()
        if not _install(python, wheel):
            pytest.fail(f"the wheel did not install from {WHEEL_CACHE} after filling it")
    return Install(venv / "bin", wheel, sdist)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, format: str, *args: Any) -> None:
            """Silent: the test output is for assertions."""

    with serving_http(Page) as origin:
        yield origin


def _outside_the_checkout(tmp_path: Path) -> dict[str, str]:
    """An environment in which nothing of the checkout can be imported."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["BROWSERHOST_TOKEN"] = TOKEN
    env["HOME"] = str(tmp_path / "home")  # no data dir, no Playwright browsers of the user's
    return env


def test_the_wheel_imports_from_its_own_environment(install: Install, tmp_path: Path) -> None:
    located = _run(
        [str(install.bin / "python"), "-c", "import browserhost; print(browserhost.__file__)"],
        cwd=tmp_path,
        env=_outside_the_checkout(tmp_path),
    )
    assert Path(located.stdout.strip()).is_relative_to(install.bin.parent)


def test_installed_serve_runs_chromium_and_serves_the_viewer_and_the_panel(
    install: Install, tmp_path: Path, site: str
) -> None:
    server = start_server(
        tmp_path / "data",
        providers="stub,chromium",
        extra_args=("--select", "chromium"),
        env=_outside_the_checkout(tmp_path),
        cwd=tmp_path,
        program=(install.browserhost,),
    )
    try:
        with server.client() as client:
            actions = "/api/browser-providers/actions"
            opened = client.post(
                actions, json={"action": "browser.open", "parameters": {"url": site}}
            )
            snapshot = client.post(actions, json={"action": "browser.snapshot"})
            viewer = {
                source.name: client.get(f"/viewer/{source.name}")
                for source in (PACKAGE / "api" / "viewer_files").iterdir()
            }
            index = client.get("/viewer/")
            panel = client.get("/viewer/panel/stub")
    finally:
        server.stop()
    assert opened.status_code == 200, opened.text
    assert opened.json()["data"]["title"] == "Installed page"
    assert snapshot.status_code == 200, snapshot.text
    elements = snapshot.json()["data"]["elements"]
    assert [element["label"] for element in elements] == ["Next page", "Press me"]
    for name, response in viewer.items():
        assert response.status_code == 200, name
        assert response.content == (PACKAGE / "api" / "viewer_files" / name).read_bytes(), name
    assert index.content == (PACKAGE / "api" / "viewer_files" / "index.html").read_bytes()
    assert panel.status_code == 200, panel.text
    assert panel.content == (PACKAGE / "providers" / "stub_panel.html").read_bytes()


async def test_installed_mcp_answers_the_official_client_with_chromium(
    install: Install, tmp_path: Path, site: str
) -> None:
    """The form the README gives for an MCP client's configuration."""
    parameters = StdioServerParameters(
        command=install.browserhost,
        args=["mcp", "--select", "chromium", "--data-dir", str(tmp_path / "data")],
        env=_outside_the_checkout(tmp_path),
        cwd=tmp_path,
    )
    log_path = tmp_path / "mcp.log"
    with log_path.open("w") as errlog, anyio.fail_after(120):
        client = Client(stdio_client(parameters, errlog=errlog), read_timeout_seconds=60)
        try:
            async with client:
                opened = await call_ok(client, "browser_open", {"url": site})
                snapshot = await client.call_tool("browser_snapshot", {})
        except Exception as failure:
            failure.add_note(f"browserhost mcp stderr:\n{log_path.read_text()}")
            raise
    assert opened["title"] == "Installed page"
    assert '"Press me"' in text_of(snapshot)


def test_installed_doctor_passes(install: Install, tmp_path: Path) -> None:
    doctor = subprocess.run(
        [install.browserhost, "doctor", "--data-dir", str(tmp_path / "data"),
         "--port", str(free_port())],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env=_outside_the_checkout(tmp_path),
    )  # fmt: skip
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr


def test_the_installed_extension_command_shows_the_shipped_extension(
    install: Install, tmp_path: Path
) -> None:
    shown = _run(
        [str(install.browserhost), "extension"], cwd=tmp_path, env=_outside_the_checkout(tmp_path)
    )
    folder = Path(shown.stdout.strip())
    assert folder.is_relative_to(install.bin.parent)
    for source in (PACKAGE / "extension").iterdir():
        assert (folder / source.name).read_bytes() == source.read_bytes(), source.name
