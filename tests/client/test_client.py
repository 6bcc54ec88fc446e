"""``browserhost.Client``: typed methods over the HTTP API, and the errors a script catches.

Most tests run the real app in process (httpx ``ASGITransport``); the defaults, the
unreachable host and the lost request use a live server and real sockets.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

import browserhost
from browserhost import (
    BrowserhostError,
    Client,
    HostRefusedError,
    HostUnavailableError,
    InvalidActionError,
    MayHaveRunError,
    NoProviderError,
    NothingRanError,
    ProviderNotFoundError,
    ProviderRejectedError,
    RequestFailedError,
    UnknownResultError,
    UnsupportedError,
)
from browserhost.api.app import create_app
from browserhost.contract import ProviderRequest, data
from browserhost.contract.errors import ERRORS_BY_CODE, ErrorCode
from browserhost.host import Host
from browserhost.providers.stub import StubProvider
from tests.conftest import TOKEN, LiveServer, free_port, start_server
from tests.loopback_service import answer, close_without_answer, loopback_service
from tests.recording import Recorder

BASE = "http://127.0.0.1:7878"


def in_process(host: Host, **options: Any) -> Client:
    app = create_app(host, TOKEN)
    return Client(BASE, TOKEN, transport=httpx.ASGITransport(app=app), **options)


@pytest.fixture
def host(tmp_path: Path) -> Host:
    """A host with the stub installed and selected."""
    host = Host(tmp_path / "data")
    host.catalog.install(StubProvider().registration())
    host.select("stub")
    return host


async def test_every_action_answers_its_typed_model(host: Host, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    async with in_process(host, directory=project, session_id="s1") as client:
        opened = await client.open("https://site.test/form", viewport="tablet")
        snapshot = await client.snapshot()
        typed = await client.type("#q", "cats")
        clicked = await client.click(text="Search")
        back = await client.back()
        forward = await client.forward()
        await client.open("https://site.test/long")
        scrolled = await client.scroll("down")
        inspected = await client.inspect("#home")
        captured = await client.capture(label="results")
        resized = await client.resize("mobile")

    assert isinstance(opened, data.OpenData)
    assert opened.viewport == data.Viewport(mode="tablet", width=820, height=1180)
    assert isinstance(snapshot, data.SnapshotData)
    assert [element.selector for element in snapshot.elements][-3:] == ["#q", "#exact", "#go"]
    assert snapshot.elements[-2].bounds.height == 32
    assert typed == data.TypeData(
        selector="#q", url="https://site.test/form", title="Search", value="cats"
    )
    assert clicked.url == "https://site.test/search?q=cats"
    assert isinstance(back, data.NavigationData)
    assert (back.title, forward.title) == ("Search", "Results")
    assert isinstance(scrolled, data.ScrollData)
    assert scrolled.scroll_y == 1180
    assert inspected.tag == "a"
    assert isinstance(captured, data.CaptureData)
    assert captured.path is not None
    assert Path(captured.path).parent == project / ".browserhost" / "captures"
    assert Path(captured.path).name.endswith("-results.png")
    assert resized.viewport.mode == "mobile"


async def test_sessions_are_separate_browser_contexts(host: Host) -> None:
    async with in_process(host, session_id="a") as first, in_process(host, session_id="b") as b:
        await first.open("https://site.test/about")
        await b.open("https://site.test/form")
        assert (await first.snapshot()).title == "About the stub"
        assert (await b.snapshot()).title == "Search"


async def test_providers_and_select(host: Host) -> None:
    async with in_process(host) as client:
        listing = await client.providers()
        assert [row.id for row in listing.providers] == ["stub"]
        assert listing.selected_id == "stub"
        with pytest.raises(ProviderNotFoundError) as refused:
            await client.select("nope")
        assert (await client.providers()).selected_id == "stub"
        assert await client.select("stub") == "stub"
    assert "The selection was not changed" in refused.value.error


async def test_invalid_parameters_raise_before_anything_is_sent(tmp_path: Path) -> None:
    recorder = Recorder()
    host = Host(tmp_path / "data")
    host.catalog.install(recorder.record())
    host.select(recorder.id)
    async with in_process(host) as client:
        with pytest.raises(InvalidActionError) as no_target:
            await client.click()
        with pytest.raises(InvalidActionError) as bad_url:
            await client.open("ftp://site.test/")
        with pytest.raises(InvalidActionError):
            await client.run("browser.teleport")
    assert recorder.requests == []
    assert no_target.value.error == "browser.click requires selector or text. Nothing was sent."
    assert no_target.value.code is ErrorCode.INVALID_ACTION
    assert "http or https" in bad_url.value.error


async def test_an_answer_that_does_not_fit_the_model_is_unknown_result(tmp_path: Path) -> None:
    async def odd(request: ProviderRequest) -> object:
        return {"ok": True, "data": {"title": 3}}

    recorder = Recorder(odd)
    host = Host(tmp_path / "data")
    host.catalog.install(recorder.record())
    host.select(recorder.id)
    async with in_process(host) as client:
        with pytest.raises(UnknownResultError) as raw:  # the host checks it: raw is no way round
            await client.run("browser.snapshot")
        with pytest.raises(UnknownResultError) as unknown:
            await client.snapshot()
    assert "answered browser.snapshot with data that does not fit it" in raw.value.error
    assert unknown.value.may_have_run is True
    assert "take a snapshot" in unknown.value.error


async def test_refusals_raise_their_family(tmp_path: Path) -> None:
    host = Host(tmp_path / "data")
    host.catalog.install(StubProvider().registration())
    async with in_process(host) as client:
        with pytest.raises(NoProviderError) as no_provider:
            await client.snapshot()
        await client.select("stub")
        with pytest.raises(ProviderRejectedError) as rejected:
            await client.click(selector="#missing")
    assert isinstance(no_provider.value, NothingRanError)
    assert (no_provider.value.code, no_provider.value.status) == (ErrorCode.NO_PROVIDER, 409)
    assert no_provider.value.may_have_run is False
    assert rejected.value.error == "No element matches #missing; take a new snapshot."
    assert rejected.value.may_have_run is False


async def test_a_lost_provider_answer_may_have_run(tmp_path: Path) -> None:
    async def crash(request: ProviderRequest) -> object:
        raise RuntimeError("browser gone")

    recorder = Recorder(crash)
    host = Host(tmp_path / "data")
    host.catalog.install(recorder.record())
    host.select(recorder.id)
    async with in_process(host) as client:
        with pytest.raises(MayHaveRunError) as lost:
            await client.click(text="Save")
    assert isinstance(lost.value, RequestFailedError)
    assert (lost.value.code, lost.value.status) == (ErrorCode.REQUEST_FAILED, 504)
    assert lost.value.may_have_run is True
    assert len(recorder.requests) == 1, "sent once, never replayed"


@pytest.mark.parametrize("code", list(ErrorCode))
async def test_each_wire_code_from_a_real_server_raises_its_class(code: ErrorCode) -> None:
    """Over a real socket, the client keeps ``code``, ``status`` and ``error``;
    ``may_have_run`` is true exactly for REQUEST_FAILED and UNKNOWN_RESULT; nothing is
    retried."""
    cls = ERRORS_BY_CODE[code]
    refusal = {"ok": False, "code": code.value, "error": "why"}
    async with (
        loopback_service(answer(refusal, status=cls.status)) as service,
        Client(service.origin, TOKEN) as client,
    ):
        with pytest.raises(BrowserhostError) as raised:
            await client.back()
    error = raised.value
    assert type(error) is cls
    assert (error.code, error.status, error.error) == (code, cls.status, "why")
    assert error.may_have_run is (code in (ErrorCode.REQUEST_FAILED, ErrorCode.UNKNOWN_RESULT))
    assert len(service.received) == 1


@pytest.mark.parametrize(
    ("status", "refusal"),
    [
        (401, "UNAUTHORIZED"),
        (403, "ORIGIN_NOT_ALLOWED"),
        (413, "BODY_TOO_LARGE"),
        (415, "UNSUPPORTED_MEDIA_TYPE"),
        (421, "HOST_NOT_ALLOWED"),
    ],
)
async def test_each_gate_refusal_from_a_real_server_is_host_refused(
    status: int, refusal: str
) -> None:
    """The gate's own codes are not action codes: nothing ran, and the refusal is kept."""
    async with (
        loopback_service(
            answer({"ok": False, "code": refusal, "error": "why"}, status=status)
        ) as service,
        Client(service.origin, TOKEN) as client,
    ):
        with pytest.raises(HostRefusedError) as raised:
            await client.back()
    assert isinstance(raised.value, NothingRanError)
    assert (raised.value.refusal, raised.value.http_status) == (refusal, status)
    assert str(raised.value) == f"{refusal}: why"
    assert raised.value.may_have_run is False
    assert len(service.received) == 1


async def test_a_wrong_token_is_refused_by_the_gate(host: Host) -> None:
    app = create_app(host, TOKEN)
    transport = httpx.ASGITransport(app=app)
    async with Client(BASE, "wrong", transport=transport) as client:
        with pytest.raises(HostRefusedError) as refused:
            await client.providers()
    assert isinstance(refused.value, NothingRanError)
    assert refused.value.refusal == "UNAUTHORIZED"
    assert refused.value.http_status == 401
    assert str(refused.value).startswith(
        "UNAUTHORIZED: The token sent is not this host's: send Authorization: Bearer"
    )


def test_defaults_come_from_the_environment(
    live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BROWSERHOST_URL", live_server.url)
    monkeypatch.setenv("BROWSERHOST_TOKEN", TOKEN)

    async def listed() -> list[str]:
        async with Client() as client:
            return [row.id for row in (await client.providers()).providers]

    assert asyncio.run(listed()) == ["stub"]


def test_the_token_defaults_to_the_data_dir_file(
    live_server: LiveServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data_dir = tmp_path / "client-data"
    data_dir.mkdir()
    (data_dir / "token").write_text(TOKEN + "\n")
    monkeypatch.delenv("BROWSERHOST_TOKEN", raising=False)
    monkeypatch.setenv("BROWSERHOST_DATA_DIR", str(data_dir))

    async def selected() -> str:
        async with Client(live_server.url) as client:
            return await client.select("stub")

    assert asyncio.run(selected()) == "stub"


async def test_no_host_at_the_url_is_host_unavailable() -> None:
    async with Client(f"http://127.0.0.1:{free_port()}", TOKEN) as client:
        with pytest.raises(HostUnavailableError) as unreachable:
            await client.open("https://site.test/")
    assert unreachable.value.may_have_run is False
    assert unreachable.value.code is ErrorCode.PROVIDER_UNAVAILABLE
    assert "browserhost serve" in unreachable.value.error


async def test_a_request_lost_after_sending_may_have_run() -> None:
    async with (
        loopback_service(close_without_answer) as service,
        Client(service.origin, TOKEN) as client,
    ):
        with pytest.raises(RequestFailedError) as lost:
            await client.click(text="Buy")
    assert lost.value.may_have_run is True
    assert "It may have run" in lost.value.error
    assert len(service.received) == 1, "sent once, never replayed"


@pytest.mark.slow
def test_import_browserhost_stays_light() -> None:
    """Names load on first use: a script that only imports the package pays for nothing."""
    probe = (
        "import sys, browserhost; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'httpx', 'fastapi', 'mcp', 'playwright', 'pydantic'}))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert shown.strip() == "[]"
    assert set(browserhost.__all__) >= {"Client", "BrowserhostError", "MayHaveRunError"}
    for name in browserhost.__all__:
        assert getattr(browserhost, name).__name__ == name


@pytest.mark.slow
def test_the_readme_example_runs(tmp_path: Path) -> None:
    """The Python section of the README, run as written against a live server (stub)."""
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    section = readme.split("## Use it from Python", 1)[1]
    example = re.findall(r"```python\n(.*?)```", section, re.DOTALL)[0]
    server = start_server(tmp_path / "data", extra_args=("--select", "stub"))
    project = tmp_path / "project"
    project.mkdir()
    try:
        ran = subprocess.run(
            [sys.executable, "-c", example],
            cwd=project,
            env={**os.environ, "BROWSERHOST_URL": server.url, "BROWSERHOST_TOKEN": TOKEN},
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        server.stop()
    assert ran.returncode == 0, ran.stderr
    first, second = ran.stdout.splitlines()
    assert first == "Stub home ['#home', '#about', '#form', '#long', '#more']"
    assert second.startswith(str(project / ".browserhost" / "captures"))
    assert second.endswith("-after-click.png")


async def test_call_runs_a_verb_and_its_refusals_raise_like_actions(host: Host) -> None:
    async with in_process(host, session_id="verbs") as client:
        listing = await client.providers()
        assert [verb.name for verb in listing.providers[0].verbs] == [
            "cookies", "drag", "hover", "mouse", "press_key", "select_text", "set_cookies",
            "wait_for_close",
        ]  # fmt: skip
        await client.open("https://site.test/form")
        await client.type("#q", "owls")
        pressed = await client.call("press_key", key="Enter")
        assert pressed == {"key": "Enter", "url": "https://site.test/search?q=owls"}
        with pytest.raises(InvalidActionError, match=r"verb\.press_key was refused: key: "):
            await client.call("press_key", key="")
        with pytest.raises(UnsupportedError, match="has no verb 'find'"):
            await client.call("find", text="q")
