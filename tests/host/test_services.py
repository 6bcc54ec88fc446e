"""Provider services the host runs itself, with real processes: one through the SDK runner (a
Python target) and one started by command line (a plain script without the SDK).

Idle, grace and start settings are short here so the lifecycle runs in seconds; what reached
a service is read from its log in the data dir, where the host keeps its output.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import httpx
import pytest

from browserhost.contract.errors import (
    ProviderUnavailableError,
    RequestFailedError,
    UnsupportedError,
)
from browserhost.host import Catalog, Host, services
from browserhost.host.services import ManagedService, ServiceSettings
from tests.conftest import serving_http, start_server
from tests.processes import descendants, processes, wait_until
from tests.spawning import READY_WAIT_S

pytestmark = pytest.mark.slow

REPOSITORY = Path(__file__).resolve().parents[2]
PLAIN = Path(__file__).with_name("plain_service.py")
WAIT_S = READY_WAIT_S  # a service is a process: on a loaded machine it starts slowly
IDLE_S = 0.5


def python_record(**extra: Any) -> dict[str, Any]:
    return {
        "id": "recording",
        "name": "Recording service",
        "provides": ["browser"],
        "actions": ["browser.back", "browser.click"],
        "service": {"python": "tests.host.service_provider:Recording", "cwd": str(REPOSITORY)},
        **extra,
    }


def plain_record(mode: str = "", **extra: Any) -> dict[str, Any]:
    return {
        "id": "plain",
        "name": "Plain service",
        "provides": ["browser"],
        "actions": ["browser.back", "browser.click"],
        "service": {"command": [sys.executable, str(PLAIN), *([mode] if mode else [])]},
        **extra,
    }


RECORDS = {"python": python_record, "command": plain_record}


def make_host(tmp_path: Path, **settings: Any) -> Host:
    chosen = {"idle_s": 600.0, "grace_s": 2.0, "start_timeout_s": WAIT_S} | settings
    return Host(tmp_path / "data", Catalog(ServiceSettings(log_dir=tmp_path / "logs", **chosen)))


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    """A host whose services outlive the test: on a loaded machine, any short idle time can
    pass between two steps of a test and stop the service it is talking to."""
    host = make_host(tmp_path)
    yield host
    await host.aclose()


@pytest.fixture
async def idle_host(tmp_path: Path) -> AsyncIterator[Host]:
    """A host that stops a service idle for :data:`IDLE_S`, for the tests of just that."""
    host = make_host(tmp_path, idle_s=IDLE_S)
    yield host
    await host.aclose()


def service_of(host: Host, provider_id: str) -> ManagedService:
    provider = host.catalog.get(provider_id)
    assert provider is not None
    assert provider.service is not None
    return provider.service


def log_lines(host: Host, provider_id: str, prefix: str) -> list[str]:
    log = host.catalog.services.log_dir
    assert log is not None
    path = log / f"{provider_id}.log"
    if not path.exists():
        return []
    return [line for line in path.read_text().splitlines() if line.startswith(prefix)]


async def until(done: Callable[[], bool], what: str, timeout_s: float = WAIT_S) -> None:
    """Poll ``done`` (bounded): another process's exit sends this one no event to await."""
    async with asyncio.timeout(timeout_s):
        while not done():  # noqa: ASYNC110  # no event exists for another process's state
            await asyncio.sleep(0.02)
    assert done(), what


def read_environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_text()
    return dict(entry.split("=", 1) for entry in raw.split("\0") if "=" in entry)


def read_cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_text()


def alive(pid: int) -> bool:
    found = processes().get(pid)
    return found is not None and not found.zombie


def started_here() -> set[int]:
    return {pid for pid, process in descendants(os.getpid()).items() if not process.zombie}


@pytest.mark.parametrize("kind", list(RECORDS))
async def test_installing_starts_nothing_and_the_first_action_starts_the_service(
    host: Host, kind: str
) -> None:
    before = started_here()
    provider = host.catalog.install(RECORDS[kind]())
    assert provider.public()["service"] == {"state": "stopped"}
    assert started_here() == before
    async with asyncio.timeout(WAIT_S):
        outcome = await host.dispatch("browser.back", provider_id=provider.id)
    service = service_of(host, provider.id)
    assert service.pid is not None
    assert str(service.pid) in outcome.data["title"]  # the process the host started answered
    assert started_here() - before == {service.pid}
    row = provider.public()["service"]
    assert isinstance(row, dict)
    assert row["state"] == "running"
    assert 0 <= row["uptimeS"] < WAIT_S


async def test_concurrent_first_actions_start_the_service_once(host: Host) -> None:
    host.catalog.install(python_record())
    async with asyncio.timeout(WAIT_S):
        outcomes = await asyncio.gather(
            *(host.dispatch("browser.back", provider_id="recording") for _ in range(4))
        )
    assert len({outcome.data["title"] for outcome in outcomes}) == 1
    assert len(log_lines(host, "recording", "--- ")) == 1  # one start in the log
    assert len(log_lines(host, "recording", "received browser.back")) == 4


@pytest.mark.parametrize("kind", list(RECORDS))
async def test_an_idle_service_is_stopped_and_the_next_action_starts_a_new_one(
    idle_host: Host, kind: str
) -> None:
    host = idle_host
    provider = host.catalog.install(RECORDS[kind]())
    service = service_of(host, provider.id)
    async with asyncio.timeout(WAIT_S):
        first = await host.dispatch("browser.back", provider_id=provider.id)
    pid = service.pid
    assert pid is not None
    await until(lambda: service.state == "stopped", "the idle service was not stopped")
    await until(lambda: not alive(pid), f"the idle service {pid} is still running")
    async with asyncio.timeout(WAIT_S):
        second = await host.dispatch("browser.back", provider_id=provider.id)
    assert service.pid not in (None, pid)
    assert first.data["title"] != second.data["title"]


async def test_a_viewer_keeps_the_service_running_past_its_idle_time(idle_host: Host) -> None:
    host = idle_host
    provider = host.catalog.install(python_record())
    service = service_of(host, provider.id)
    provider.hold()  # a viewer attached first: no idle time can pass before it holds
    async with asyncio.timeout(WAIT_S):
        await host.dispatch("browser.back", provider_id=provider.id)
    stopped = asyncio.ensure_future(until(lambda: service.state == "stopped", "not stopped"))
    done, _ = await asyncio.wait({stopped}, timeout=IDLE_S * 4)
    assert not done, "a held service was stopped"
    assert service.state == "running"
    provider.release()
    async with asyncio.timeout(WAIT_S):
        await stopped


@pytest.mark.parametrize("kind", list(RECORDS))
async def test_a_service_killed_mid_action_is_request_failed_received_once_and_replaced(
    tmp_path: Path, kind: str
) -> None:
    host = make_host(tmp_path)
    record = python_record() if kind == "python" else plain_record("hang")
    provider = host.catalog.install(record)
    service = service_of(host, provider.id)
    try:
        clicking = asyncio.ensure_future(
            host.dispatch("browser.click", {"selector": "#hang"}, provider_id=provider.id)
        )
        await until(
            lambda: bool(log_lines(host, provider.id, "received browser.click")),
            "the click did not reach the service",
        )
        pid = service.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(RequestFailedError, match="may have run"):
            async with asyncio.timeout(WAIT_S):
                await clicking
        assert len(log_lines(host, provider.id, "received browser.click")) == 1
        async with asyncio.timeout(WAIT_S):
            after = await host.dispatch("browser.back", provider_id=provider.id)
        assert service.pid not in (None, pid)
        assert str(service.pid) in after.data["title"]
        assert len(log_lines(host, provider.id, "received browser.click")) == 1  # no replay
    finally:
        await host.aclose()


async def test_a_service_that_exits_at_start_is_unavailable_with_its_stderr_tail(
    host: Host,
) -> None:
    provider = host.catalog.install(plain_record("exit"))
    with pytest.raises(ProviderUnavailableError) as refused:
        async with asyncio.timeout(WAIT_S):
            await host.dispatch("browser.back", provider_id=provider.id)
    assert "exited with code 3 before it was ready" in refused.value.message
    assert "cannot open /dev/frobnicator (no such device)" in refused.value.message
    assert "Nothing was sent" in refused.value.message
    assert provider.public()["service"] == {
        "state": "failed",
        "reason": service_of(host, provider.id).reason,
    }


class Stranger(BaseHTTPRequestHandler):
    """Another program's server: it knows nothing of browserhost's paths."""

    def do_GET(self) -> None:
        self.send_error(404)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.mark.parametrize("kind", list(RECORDS))
async def test_a_service_whose_port_another_program_took_is_started_again_on_another(
    host: Host, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host chooses a free port and the service binds it a moment later; another program
    that took it in between answers the host's first look there (not found), and the
    service, unable to listen, exits. The host starts it again on another port."""
    with serving_http(Stranger) as taken:
        ports = iter([int(taken.rsplit(":", 1)[1])])
        chosen = services._free_port
        monkeypatch.setattr(services, "_free_port", lambda: next(ports, None) or chosen())
        provider = host.catalog.install(RECORDS[kind]())
        async with asyncio.timeout(2 * WAIT_S):
            outcome = await host.dispatch("browser.back", provider_id=provider.id)
    assert str(service_of(host, provider.id).pid) in outcome.data["title"]
    assert len(log_lines(host, provider.id, "--- ")) == 2  # started twice, once answered


async def test_a_service_speaking_another_protocol_version_is_refused_naming_both(
    host: Host,
) -> None:
    provider = host.catalog.install(plain_record("future"))
    with pytest.raises(ProviderUnavailableError, match=r"speaks protocol version 99; this host "
                       r"speaks version 1\."):  # fmt: skip
        async with asyncio.timeout(WAIT_S):
            await host.dispatch("browser.back", provider_id=provider.id)
    assert log_lines(host, provider.id, "received") == []
    await until(lambda: service_of(host, provider.id).pid is None, "no process")


async def test_failed_starts_are_bounded_until_the_window_passes(tmp_path: Path) -> None:
    host = make_host(tmp_path, failed_starts=2, failure_window_s=60.0)
    provider = host.catalog.install(plain_record("exit"))
    try:
        for _ in range(2):
            with pytest.raises(ProviderUnavailableError, match="exited with code 3"):
                await host.dispatch("browser.back", provider_id=provider.id)
        with pytest.raises(
            ProviderUnavailableError, match=r"failed to start 2 times within 60 s, so the host "
        ):
            await host.dispatch("browser.back", provider_id=provider.id)
        assert len(log_lines(host, provider.id, "--- ")) == 2  # the third start never ran
    finally:
        await host.aclose()


async def test_the_runner_refuses_a_request_without_the_token_or_with_another(
    host: Host,
) -> None:
    provider = host.catalog.install(python_record())
    async with asyncio.timeout(WAIT_S):
        await host.dispatch("browser.back", provider_id=provider.id)
    pid = service_of(host, provider.id).pid
    assert pid is not None
    # The host shows no port and no token; the process's own environment has both.
    environ = read_environ(pid)
    url = f"http://127.0.0.1:{environ['BROWSERHOST_SERVICE_PORT']}/browser-control"
    envelope = {"requestId": "r1", "action": "browser.back", "parameters": {}, "context": {}}
    async with httpx.AsyncClient(trust_env=False) as client:
        without = await client.post(url, json=envelope)
        wrong = await client.post(url, json=envelope, headers={"Authorization": "Bearer nope"})
        hello = await client.get(url)
    assert (without.status_code, wrong.status_code, hello.status_code) == (401, 401, 401)
    assert len(log_lines(host, provider.id, "received")) == 1  # the host's own action only
    assert environ["BROWSERHOST_SERVICE_TOKEN"] not in read_cmdline(pid)


@pytest.mark.slow
@pytest.mark.parametrize("ended", ["idle", "killed"])
async def test_a_service_started_again_gets_a_new_token_and_the_old_one_is_refused(
    tmp_path: Path, ended: str
) -> None:
    host = make_host(tmp_path, idle_s=IDLE_S if ended == "idle" else 600.0)
    provider = host.catalog.install(python_record())
    service = service_of(host, provider.id)
    try:
        async with asyncio.timeout(WAIT_S):
            await host.dispatch("browser.back", provider_id=provider.id)
        first = service.pid
        assert first is not None
        old = read_environ(first)["BROWSERHOST_SERVICE_TOKEN"]
        if ended == "killed":
            os.kill(first, signal.SIGKILL)
        await until(lambda: service.state != "running", f"the service was not {ended}")
        await until(lambda: not alive(first), f"the first service {first} is still running")
        async with asyncio.timeout(WAIT_S):
            await host.dispatch("browser.back", provider_id=provider.id)
        provider.hold()  # not stopped for idleness while this test knocks
        second = service.pid
        assert second not in (None, first)
        environ = read_environ(second)
        url = f"http://127.0.0.1:{environ['BROWSERHOST_SERVICE_PORT']}/browser-control"
        async with httpx.AsyncClient(trust_env=False) as client:
            with_old = await client.get(url, headers={"Authorization": f"Bearer {old}"})
            with_new = await client.get(
                url, headers={"Authorization": f"Bearer {environ['BROWSERHOST_SERVICE_TOKEN']}"}
            )
        assert (with_old.status_code, with_new.status_code) == (401, 200)
    finally:
        await host.aclose()


async def test_a_cancel_after_sending_abandons_the_action_in_the_service(host: Host) -> None:
    provider = host.catalog.install(python_record())
    cancel = asyncio.Event()
    clicking = asyncio.ensure_future(
        host.dispatch(
            "browser.click", {"selector": "#hang"}, provider_id=provider.id, cancel=cancel
        )
    )
    await until(
        lambda: bool(log_lines(host, provider.id, "received browser.click")), "not received"
    )
    cancel.set()
    with pytest.raises(RequestFailedError, match="may have run"):
        async with asyncio.timeout(WAIT_S):
            await clicking
    [received] = log_lines(host, provider.id, "received browser.click")
    request_id = received.split()[-1]
    await until(
        lambda: log_lines(host, provider.id, "cancelled") == [f"cancelled {request_id}"],
        "the service did not abandon the action",
    )


async def test_an_action_the_service_does_not_say_it_implements_is_not_sent(
    host: Host,
) -> None:
    provider = host.catalog.install(plain_record(actions=["browser.back", "browser.open"]))
    with pytest.raises(ProviderUnavailableError, match=r"does not implement browser\.open"):
        async with asyncio.timeout(WAIT_S):
            await host.dispatch("browser.open", {"url": "http://a.test/"}, provider_id=provider.id)
    with pytest.raises(UnsupportedError):
        await host.dispatch("browser.click", {"selector": "#a"}, provider_id=provider.id)
    assert log_lines(host, provider.id, "received") == []


async def test_a_surface_call_starts_the_service_and_goes_through_it(host: Host) -> None:
    provider = host.catalog.install(
        {
            "id": "stubsvc",
            "provides": ["browser"],
            "actions": ["browser.open"],
            "service": {"python": "browserhost.providers.stub:StubProvider"},
            "surface": True,
            "panel": {"entry": "/surface/panel"},
        }
    )
    assert provider.surface is not None
    assert provider.panel is not None
    assert provider.public()["service"] == {"state": "stopped"}
    async with asyncio.timeout(WAIT_S):
        frame = await provider.surface.frame(0, 0.0)
        page = await provider.panel.page()
    assert frame is not None
    assert frame.width > 0
    assert b"<" in page
    assert service_of(host, provider.id).state == "running"


async def test_closing_the_host_stops_every_service(tmp_path: Path) -> None:
    host = make_host(tmp_path)
    before = started_here()
    host.catalog.install(python_record())
    host.catalog.install(plain_record())
    async with asyncio.timeout(WAIT_S):
        await host.dispatch("browser.back", provider_id="recording")
        await host.dispatch("browser.back", provider_id="plain")
    assert len(started_here() - before) == 2
    await host.aclose()
    assert started_here() - before == set()


# --- a real `browserhost serve` -----------------------------------------------------------------


def install_entry_point(site: Path) -> None:
    """A package registering the recording service under ``browserhost.providers``, as
    ``pip install`` would leave it (its metadata on ``sys.path``)."""
    metadata = site / "recording_service-0.1.dist-info"
    metadata.mkdir(parents=True)
    (metadata / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: recording-service\nVersion: 0.1\n"
    )
    (metadata / "entry_points.txt").write_text(
        "[browserhost.providers]\nrecording = tests.host.service_provider:register\n"
    )


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_no_service_outlives_browserhost_serve_and_the_listing_shows_its_state(
    tmp_path: Path, signum: signal.Signals
) -> None:
    install_entry_point(tmp_path / "site")
    server = start_server(
        tmp_path / "data",
        providers="recording",
        extra_args=("--select", "recording"),
        env={"PYTHONPATH": f"{tmp_path / 'site'}{os.pathsep}{REPOSITORY}"},
    )
    try:
        with server.client() as client:
            [before] = client.get("/api/browser-providers").json()["providers"]
            acted = client.post("/api/browser-providers/actions", json={"action": "browser.back"})
            listing = client.get("/api/browser-providers")
        assert before["service"] == {"state": "stopped"}
        assert acted.status_code == 200, acted.text
        pid = int(acted.json()["data"]["title"].removeprefix("pid "))
        [row] = listing.json()["providers"]
        assert row["service"]["state"] == "running"
        environ = read_environ(pid)
        for secret in (environ["BROWSERHOST_SERVICE_TOKEN"], environ["BROWSERHOST_SERVICE_PORT"]):
            assert secret not in listing.text
        shown = subprocess.run(
            [sys.executable, "-m", "browserhost", "providers", "--url", server.url,
             "--token", server.token],
            capture_output=True, text=True, timeout=60, check=True,
        )  # fmt: skip
        assert shown.stdout.splitlines()[1].startswith("    service running for ")
        assert (server.data_dir / "services" / "recording.log").read_text().count(
            "received browser.back"
        ) == 1
        server.process.send_signal(signum)
        server.process.wait(timeout=WAIT_S)
        wait_until(lambda: not alive(pid), f"the service {pid} outlived the host ({signum.name})")
    finally:
        server.stop()
