"""A provider served as its own process, reached by the host over loopback HTTP."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from browserhost.contract import Context
from browserhost.host import Host
from tests.conftest import free_port


@pytest.fixture
def stub_service(tmp_path: Path) -> Iterator[str]:
    """The stub served by ``browserhost.sdk.service`` in a process of its own; stopped (and
    killed if it must be) even when it never came up."""
    port = free_port()
    log_path = tmp_path / "service.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "browserhost.sdk.service",
                "browserhost.providers.stub:StubProvider", "--port", str(port),
            ],
            stdout=subprocess.DEVNULL,
            stderr=log,
        )  # fmt: skip
    origin = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        with httpx.Client(trust_env=False) as probe:
            while True:
                try:
                    probe.post(f"{origin}/browser-control", content=b"{}", timeout=1)
                    break
                except httpx.TransportError:
                    assert process.poll() is None, log_path.read_text()
                    assert time.monotonic() < deadline, "the provider service did not start"
                    time.sleep(0.05)  # polling a starting process: there is no event to wait on
        yield origin
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


async def test_host_drives_a_provider_service_in_another_process(
    stub_service: str, tmp_path: Path
) -> None:
    host = Host(tmp_path)
    host.catalog.install({"id": "svc", "name": "Service", "provides": ["browser"],
                          "endpoint": stub_service})  # fmt: skip
    context = Context(directory=None, session_id="s1")
    try:
        opened = await host.dispatch("browser.open", {"url": "http://site.test/"}, context, "svc")
        clicked = await host.dispatch("browser.click", {"text": "About"}, context, "svc")
        back = await host.dispatch("browser.back", {}, context, "svc")
    finally:
        await host.aclose()
    assert opened.data["title"] == "Stub home"
    assert clicked.data == {
        "clicked": "#about",
        "label": "About",
        "url": "http://site.test/about",
        "title": "About the stub",
    }
    assert back.data == {"url": "http://site.test/", "title": "Stub home"}


def test_service_refuses_a_body_that_is_not_an_action(stub_service: str) -> None:
    with httpx.Client(trust_env=False) as client:
        answer = client.post(f"{stub_service}/browser-control", json={"action": "browser.open"})
    assert (answer.status_code, answer.json()) == (400, {"error": "not a browser action"})


async def test_a_verb_reaches_a_provider_service_and_changes_its_page(
    stub_service: str, tmp_path: Path
) -> None:
    """The record declares the service's verbs (here the stub's own declaration, as its
    manifest would); the request crosses loopback HTTP like any action."""
    from browserhost.providers.stub import StubProvider

    host = Host(tmp_path)
    host.catalog.install({"id": "svc", "name": "Service", "provides": ["browser"],
                          "endpoint": stub_service,
                          "verbs": StubProvider().registration()["verbs"]})  # fmt: skip
    context = Context(directory=None, session_id="s2")
    try:
        await host.dispatch("browser.open", {"url": "http://site.test/form"}, context, "svc")
        await host.dispatch("browser.type", {"selector": "#q", "value": "owls"}, context, "svc")
        pressed = await host.dispatch("verb.press_key", {"key": "Enter"}, context, "svc")
        page = await host.dispatch("browser.snapshot", {}, context, "svc")
    finally:
        await host.aclose()
    assert pressed.data == {"key": "Enter", "url": "http://site.test/search?q=owls"}
    assert page.data["text"] == "Results for owls"
