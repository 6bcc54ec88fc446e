"""The SDK's service runner and the lifecycle posts, in a real process of its own (the example
text browser, run from its folder): a lifecycle operation of another protocol version is
refused unrun, naming both versions; the host reaches the same process through an endpoint
record, greets it, and launches an instance there."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from browserhost_textbrowser import register

from browserhost.contract import Context
from browserhost.contract.errors import ProviderRejectedError
from browserhost.contract.limits import LIFECYCLE_PATH, PROTOCOL_VERSION
from browserhost.host import Host
from tests import spawning
from tests.conftest import free_port
from tests.spawning import spawn, wait_ready

pytestmark = pytest.mark.slow

TOKEN = "lifecycle-token-0123456789"
EXAMPLE_SOURCE = Path(__file__).parents[2] / "examples" / "textbrowser" / "src"


@pytest.fixture
def origin(tmp_path: Path) -> Iterator[str]:
    """The example text browser served by ``browserhost.sdk.service`` on a free port."""
    port = free_port()
    log_path = tmp_path / "service.log"
    env = {**os.environ, "BROWSERHOST_SERVICE_TOKEN": TOKEN, "PYTHONPATH": str(EXAMPLE_SOURCE)}
    with log_path.open("wb") as log:
        process = spawn(
            [
                sys.executable, "-m", "browserhost.sdk.service",
                "browserhost_textbrowser:TextBrowser", "--port", str(port),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )  # fmt: skip
    served = f"http://127.0.0.1:{port}"
    with httpx.Client(trust_env=False) as probe:

        def answers() -> bool:
            try:
                probe.get(served, timeout=1)
            except httpx.TransportError:
                return False
            return True

        wait_ready(process, answers, "the text browser service", log_path)
    try:
        yield served
    finally:
        spawning.stop(process)


def post(origin: str, path: str, body: object) -> httpx.Response:
    return httpx.post(
        origin + path,
        json=body,
        headers={"Authorization": f"Bearer {TOKEN}"},
        timeout=30,
        trust_env=False,
    )


def test_an_operation_of_another_version_is_refused_unrun_naming_both(origin: str) -> None:
    other = PROTOCOL_VERSION + 1
    launch = {"operation": "launch", "browserId": "textbrowser~x", "options": {}}
    refused = post(origin, LIFECYCLE_PATH, {**launch, "protocolVersion": other})
    action = {
        "protocolVersion": PROTOCOL_VERSION,
        "requestId": "r1",
        "action": "browser.back",
        "parameters": {},
        "browserId": "textbrowser~x",
    }
    after = post(origin, "/browser-control", action)
    launched = post(origin, LIFECYCLE_PATH, {**launch, "protocolVersion": PROTOCOL_VERSION})
    assert refused.status_code == 200
    assert refused.json() == {
        "ok": False,
        "error": (
            "This provider service did nothing: the host sent provider protocol version "
            f"{other} and this provider speaks version {PROTOCOL_VERSION}; install versions of "
            "browserhost and the provider made for the same protocol, and restart them."
        ),
    }
    assert after.json() == {
        "ok": False,
        "error": "This service runs no instance textbrowser~x; close it.",
    }, "the refused launch launched nothing"
    assert launched.json() == {"ok": True, "data": {"status": "connected"}}


async def test_the_host_greets_the_endpoint_and_launches_an_instance_there(
    origin: str, tmp_path: Path
) -> None:
    record = {key: value for key, value in register().items() if key != "service"}
    host = Host(tmp_path / "data")
    host.catalog.install({**record, "endpoint": origin, "token": TOKEN})
    try:
        row = await host.instances.launch("textbrowser", {"userAgent": "probe/1"}, "probe")
        found = await host.instances.operate("textbrowser~probe", "references")
        with pytest.raises(ProviderRejectedError, match="There is no earlier page"):
            await host.dispatch("browser.back", {}, Context(), "textbrowser~probe")
    finally:
        await host.aclose()
    assert (row["id"], row["status"]) == ("textbrowser~probe", "connected")
    assert found["result"] == {"references": []}
