"""Fixtures and hooks shared by the whole suite: a real ``browserhost serve`` process on
loopback, the tiers (:mod:`tests.tiers`), and a run that ends cleanly however it ends: every
process it started stopped (:mod:`tests.spawning`), a summary also after a Ctrl-C."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
import pytest_asyncio

from browserhost.api.paths import PROVIDERS_PATH
from tests.processes import listens_on
from tests.providers.chromium.site import Site, serving
from tests.spawning import NotReadyError, spawn, stop, stop_all, wait_ready

if TYPE_CHECKING:
    from playwright.async_api import Browser

pytest_plugins = ("tests.tiers", "tests.ordering")

TOKEN = "test-token-0123456789"
PORT_ATTEMPTS = 3
"""How many ports a server is started on before its start fails: the one given as free may be
taken meanwhile by another test's server."""


def listening(host: str = "127.0.0.1") -> socket.socket:
    """A socket listening on a port of its own, for a server in this process to serve on: a
    port only said to be free may be another test's by the time its server binds it."""
    bound = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    bound.bind((host, 0))
    bound.listen()
    return bound


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class LiveServer:
    """A ``browserhost serve`` subprocess and what a client needs to reach it."""

    url: str
    token: str
    data_dir: Path
    process: subprocess.Popen[bytes]
    log_path: Path
    env: dict[str, str] = field(default_factory=dict)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers=self.headers, timeout=60, trust_env=False)

    def stop(self) -> None:
        stop(self.process)


def start_server(
    data_dir: Path,
    *,
    providers: str = "stub",
    extra_args: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    wrapper: tuple[str, ...] = (),
    program: tuple[str, ...] = (sys.executable, "-m", "browserhost"),
) -> LiveServer:
    """Start ``browserhost serve`` and wait (bounded) until it answers.

    ``wrapper`` is a command the server runs under, e.g. ``("setpriv", "--bounding-set=-all")``;
    ``program`` is the browserhost it runs (another install's ``bin/browserhost``).
    """
    full_env = {
        **os.environ,
        "BROWSERHOST_TOKEN": TOKEN,
        "BROWSERHOST_PROVIDERS": providers,
        **(env or {}),
    }
    data_dir.mkdir(parents=True, exist_ok=True)
    for attempt in range(1, PORT_ATTEMPTS + 1):
        port = free_port()
        command = [
            *wrapper, *program, "serve",
            "--port", str(port), "--data-dir", str(data_dir), *extra_args,
        ]  # fmt: skip
        log_path = data_dir.parent / f"serve-{port}.log"
        with log_path.open("wb") as log:
            process = spawn(command, env=full_env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=log)
        url = f"http://127.0.0.1:{port}"

        def ready(url: str = url, pid: int = process.pid, port: int = port) -> bool:
            # Its own answer: another test's server may have been given the same port.
            return serve_answers(url) and (bool(wrapper) or listens_on(pid, port))

        try:
            wait_ready(process, ready, "browserhost serve", log_path)
        except NotReadyError:
            if attempt < PORT_ATTEMPTS and f"port {port} is taken" in log_path.read_text():
                continue
            raise
        return LiveServer(url, TOKEN, data_dir, process, log_path, full_env)
    raise AssertionError("unreachable")


def serve_answers(url: str) -> bool:
    """Whether the ``browserhost serve`` at ``url`` answers HTTP yet. Any answer will do: the
    one asked for is a refusal without a token, which costs the server nothing (its OpenAPI
    document, the first time it is asked for, costs a tenth of its start)."""
    try:
        httpx.get(f"{url}{PROVIDERS_PATH}", timeout=1, trust_env=False)
    except httpx.TransportError:
        return False
    return True


def serving_selected(
    tmp_path_factory: pytest.TempPathFactory,
    provider: str,
    *,
    select: bool = True,
    env: dict[str, str] | None = None,
) -> Iterator[LiveServer]:
    """A module's ``serve`` of ``provider`` alone (selected unless told), stopped after; a
    fixture yields from it."""
    running = start_server(
        tmp_path_factory.mktemp(provider) / "data",
        providers=provider,
        extra_args=("--select", provider) if select else (),
        env=env,
    )
    yield running
    running.stop()


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    """Pages of the test site (:mod:`tests.providers.chromium.site`), one server a module."""
    with serving() as running:
        yield running


class UserAgentPage(BaseHTTPRequestHandler):
    """A page whose title is the User-Agent that asked for it (serve it with
    :func:`serving_http`)."""

    def do_GET(self) -> None:
        body = f"<title>{self.headers.get('User-Agent')}</title>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test output is for assertions."""


@contextmanager
def serving_http(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve ``handler`` on a loopback port in a thread; yield the origin."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def pytest_unconfigure() -> None:
    stop_all()


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> Generator[None, None, None]:
    """After a Ctrl-C, a fixture whose process took the signal too fails to tear down
    (Playwright's driver runs in pytest's process group): say so in a line each, instead of
    crashing before the summary."""
    try:
        return (yield)
    except Exception as exc:
        if exitstatus != pytest.ExitCode.INTERRUPTED:
            raise
        errors = exc.exceptions if isinstance(exc, BaseExceptionGroup) else (exc,)
        writer = session.config.get_terminal_writer()
        for error in errors:
            said = str(error).partition("\n")[0]
            named = f"{type(error).__name__}: {said}" if said else type(error).__name__
            writer.line(f"teardown after the interrupt: {named}")
        return None


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A real server with only the stub provider installed and nothing selected."""
    server = start_server(tmp_path / "data")
    yield server
    server.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser(chromium_path: str) -> AsyncIterator[Browser]:
    """One headless Chromium a module, to open the host's own pages in (the viewer, a trace)."""
    from playwright.async_api import async_playwright

    from tests.api.viewing import launch_options

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(**launch_options(chromium_path))
        yield launched
        await launched.close()


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """The Chromium the provider would find. Browser tests are not optional: with none
    installed they fail and say how to get one (``make test`` installs Debian's)."""
    from browserhost.providers.chromium import ChromiumConfig
    from browserhost.providers.chromium.launch import find_chromium
    from browserhost.sdk import ActionError

    try:
        return find_chromium(ChromiumConfig.from_env().executable)
    except ActionError as exc:
        pytest.fail(f"browser tests need Chromium: {exc}")


def _stub_verb(name: str) -> dict[str, object]:
    """One of the stub's pointer or session verbs as it declares it (their schemas are
    chromium's too, from ``browserhost.providers.pointer_verbs`` and ``session_verbs``);
    press_key shows a verb spelled out."""
    from browserhost.providers.stub import StubProvider

    return StubProvider.verbs[name].spec.to_wire()


STUB_VERBS: list[dict[str, object]] = [
    _stub_verb("cookies"),
    _stub_verb("drag"),
    _stub_verb("hover"),
    _stub_verb("mouse"),
    {
        "name": "press_key",
        "description": "Press one key on the page. Enter on the search form submits it.",
        "inputSchema": {
            "type": "object",
            "title": "PressKeyArguments",
            "properties": {
                "key": {
                    "type": "string",
                    "title": "Key",
                    "description": "A key name: Enter, Escape, a.",
                    "minLength": 1,
                    "maxLength": 32,
                }
            },
            "required": ["key"],
            "additionalProperties": False,
        },
        "changesPage": True,
    },
    _stub_verb("select_text"),
    _stub_verb("set_cookies"),
    _stub_verb("wait_for_close"),
]
"""The stub's verbs in its row of a providers listing."""

STUB_ROW = {
    "id": "stub",
    "name": "Stub (no browser)",
    "surface": True,
    "panel": {"dock": "top", "size": 40},
    "verbs": STUB_VERBS,
}
"""The stub's row in a providers listing, as a caller sees it."""
