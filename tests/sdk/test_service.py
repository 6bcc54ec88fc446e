"""A provider served as its own process, reached by the host over loopback HTTP.

The service runs behind the same gate as the host's API: a page the user visits must not be
able to drive the browser, so every test that is refused checks that nothing ran.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from browserhost.contract import ACTIONS, Context
from browserhost.contract.errors import ProviderUnavailableError
from browserhost.contract.limits import PROTOCOL_VERSION, REQUEST_BODY_MAX_BYTES
from browserhost.contract.surface import INPUT_BATCH_MAX
from browserhost.host import Host
from tests import spawning
from tests.conftest import free_port
from tests.spawning import READY_WAIT_S, spawn, wait_ready

pytestmark = pytest.mark.slow

SERVICE_TOKEN = "service-token-0123456789"
TWO_HUNDRED_MIB = 200 * 1024 * 1024


@dataclass(frozen=True)
class Service:
    origin: str
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def url(self) -> str:
        return f"{self.origin}/browser-control"

    def rss_bytes(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        [kib] = re.findall(r"^VmRSS:\s+(\d+) kB$", status, re.MULTILINE)
        return int(kib) * 1024


def start_service(tmp_path: Path, token: str | None) -> Service:
    """The stub served by ``browserhost.sdk.service`` in a process of its own, started with
    ``token`` in its environment (none at all when ``None``)."""
    port = free_port()
    log_path = tmp_path / f"service-{port}.log"
    env = {k: v for k, v in os.environ.items() if k != "BROWSERHOST_SERVICE_TOKEN"}
    if token is not None:
        env["BROWSERHOST_SERVICE_TOKEN"] = token
    with log_path.open("wb") as log:
        process = spawn(
            [
                sys.executable, "-m", "browserhost.sdk.service",
                "browserhost.providers.stub:StubProvider", "--port", str(port),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )  # fmt: skip
    service = Service(f"http://127.0.0.1:{port}", process, log_path)
    with httpx.Client(trust_env=False) as probe:

        def answers() -> bool:
            try:
                probe.get(service.origin, timeout=1)
            except httpx.TransportError:
                return False
            return True

        wait_ready(process, answers, "the service", log_path)
    return service


def stop(service: Service) -> None:
    spawning.stop(service.process)


@pytest.fixture
def stub_service(tmp_path: Path) -> Iterator[Service]:
    service = start_service(tmp_path, SERVICE_TOKEN)
    try:
        yield service
    finally:
        stop(service)


def authorized(**headers: str) -> dict[str, str]:
    return {
        "Authorization": f"Bearer {SERVICE_TOKEN}",
        "Content-Type": "application/json",
        **headers,
    }


def envelope(action: str, parameters: object, session: str) -> dict[str, object]:
    return {
        "requestId": f"r-{action}",
        "action": action,
        "parameters": parameters,
        "context": {"directory": None, "sessionId": session},
    }


def service_record(service: Service, **extra: object) -> dict[str, object]:
    return {"id": "svc", "name": "Service", "provides": ["browser"], "actions": list(ACTIONS),
            "endpoint": service.origin, "token": SERVICE_TOKEN, **extra}  # fmt: skip


async def test_host_drives_a_provider_service_in_another_process(
    stub_service: Service, tmp_path: Path
) -> None:
    host = Host(tmp_path)
    host.catalog.install(service_record(stub_service))
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


def test_service_refuses_a_body_that_is_not_an_action(stub_service: Service) -> None:
    with httpx.Client(trust_env=False) as client:
        answer = client.post(
            stub_service.url, json={"action": "browser.open"}, headers=authorized()
        )
    assert (answer.status_code, answer.json()) == (400, {"error": "not a browser action"})


def test_an_envelope_of_another_protocol_version_is_refused_naming_both_and_nothing_runs(
    stub_service: Service,
) -> None:
    sent = envelope("browser.open", {"url": "http://site.test/"}, "v2") | {"protocolVersion": 2}
    with httpx.Client(trust_env=False) as client:
        answer = client.post(stub_service.url, json=sent, headers=authorized())
    assert answer.status_code == 200
    assert answer.json() == {
        "ok": False,
        "error": "This provider service ran nothing: the host sent provider protocol version 2 "
        f"and this provider speaks version {PROTOCOL_VERSION}; install versions of browserhost "
        "and the provider made for the same protocol, and restart them.",
    }


def over_the_limit() -> Iterator[bytes]:
    yield b'{"requestId": "r1", "action": "browser.open", "pad": "'
    yield b"x" * (REQUEST_BODY_MAX_BYTES + 1)
    yield b'"}'


REFUSED = {
    "no-token": (401, "UNAUTHORIZED", {"Authorization": ""}),
    "wrong-token": (401, "UNAUTHORIZED", {"Authorization": f"Bearer {SERVICE_TOKEN}x"}),
    "the-host-apis-token-scheme": (401, "UNAUTHORIZED", {"Authorization": "Basic x"}),
    "foreign-host": (421, "HOST_NOT_ALLOWED", {"Host": "evil.example"}),
    "rebinding-host": (421, "HOST_NOT_ALLOWED", {"Host": "127.0.0.1.evil.example"}),
    "cross-site-page": (403, "ORIGIN_NOT_ALLOWED", {"Origin": "http://evil.example"}),
    "sandboxed-page": (403, "ORIGIN_NOT_ALLOWED", {"Origin": "null"}),
    "text-plain": (415, "UNSUPPORTED_MEDIA_TYPE", {"Content-Type": "text/plain"}),
    "form": (415, "UNSUPPORTED_MEDIA_TYPE", {"Content-Type": "application/x-www-form-urlencoded"}),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_the_service_refuses_what_the_hosts_api_refuses_and_nothing_runs(
    stub_service: Service, case: str
) -> None:
    """A page the user visits can post to any loopback port; the service must not act on it."""
    status, code, headers = REFUSED[case]
    with httpx.Client(trust_env=False, timeout=30) as client:
        opened = client.post(
            stub_service.url,
            json=envelope("browser.open", {"url": "http://site.test/"}, "victim"),
            headers=authorized(),
        )
        refused = client.post(
            stub_service.url,
            json=envelope("browser.open", {"url": "http://site.test/about"}, "victim"),
            headers=authorized(**headers),
        )
        after = client.post(
            stub_service.url, json=envelope("browser.snapshot", {}, "victim"), headers=authorized()
        )
    assert opened.json()["ok"] is True
    assert refused.status_code == status
    assert refused.json()["code"] == code
    assert refused.json()["ok"] is False
    assert "\n" not in refused.text
    assert after.json()["data"]["url"] == "http://site.test/", "the refused open ran"


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_a_body_over_the_limit_is_refused(stub_service: Service, framing: str) -> None:
    body: bytes | Iterator[bytes] = over_the_limit()
    if framing == "content-length":
        body = b"".join(over_the_limit())
    with httpx.Client(trust_env=False, timeout=30) as client:
        refused = client.post(stub_service.url, content=body, headers=authorized())
    assert (refused.status_code, refused.json()["code"]) == (413, "BODY_TOO_LARGE")


def two_hundred_mib() -> Iterator[bytes]:
    piece = b"x" * (1024 * 1024)
    for _ in range(TWO_HUNDRED_MIB // len(piece)):
        yield piece


@pytest.mark.parametrize("framing", ["declared", "chunked"])
def test_a_200_mib_body_is_refused_without_the_service_growing(
    stub_service: Service, framing: str
) -> None:
    headers = authorized()
    if framing == "declared":
        headers["Content-Length"] = str(TWO_HUNDRED_MIB)
    before = stub_service.rss_bytes()
    with httpx.Client(trust_env=False, timeout=60) as client:
        refused = client.post(stub_service.url, content=two_hundred_mib(), headers=headers)
    assert (refused.status_code, refused.json()["code"]) == (413, "BODY_TOO_LARGE")
    assert stub_service.rss_bytes() - before < 16 * 1024 * 1024


def test_a_service_started_without_a_token_makes_one_and_prints_it(tmp_path: Path) -> None:
    service = start_service(tmp_path, token=None)
    try:
        deadline = time.monotonic() + READY_WAIT_S
        while not (printed := re.findall(r"token is (\S+)\.", service.log_path.read_text())):
            assert time.monotonic() < deadline, service.log_path.read_text()
            time.sleep(0.05)  # the line is written by another process: nothing to wait on
        [token] = printed
        with httpx.Client(trust_env=False) as client:
            body = envelope("browser.open", {"url": "http://site.test/"}, "s")
            without = client.post(service.url, json=body)
            wrong = client.post(service.url, json=body, headers=authorized())
            right = client.post(
                service.url, json=body, headers={"Authorization": f"Bearer {token}"}
            )
    finally:
        stop(service)
    assert (without.status_code, wrong.status_code, right.status_code) == (401, 401, 200)
    assert len(token) >= 32


async def test_a_record_without_the_services_token_is_told_what_to_fix(
    stub_service: Service, tmp_path: Path
) -> None:
    host = Host(tmp_path)
    host.catalog.install(service_record(stub_service, token="not-the-services-token"))
    try:
        # Refused at the hello, before the action: nothing was sent.
        with pytest.raises(ProviderUnavailableError) as refused:
            await host.dispatch("browser.back", {}, Context(), "svc")
    finally:
        await host.aclose()
    assert "refused the host's token" in refused.value.message
    assert "BROWSERHOST_SERVICE_TOKEN" in refused.value.message


async def test_a_verb_reaches_a_provider_service_and_changes_its_page(
    stub_service: Service, tmp_path: Path
) -> None:
    """The record declares the service's verbs (here the stub's own declaration, as its
    manifest would); the request crosses loopback HTTP like any action."""
    from browserhost.providers.stub import StubProvider

    host = Host(tmp_path)
    host.catalog.install(service_record(stub_service, verbs=StubProvider().registration()["verbs"]))
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


# --- the surface paths -----------------------------------------------------------------------


def surface_client(service: Service) -> httpx.Client:
    return httpx.Client(base_url=service.origin, trust_env=False, timeout=30)


def open_page(client: httpx.Client, url: str) -> None:
    opened = client.post(
        "/browser-control",
        json=envelope("browser.open", {"url": url}, "watched"),
        headers=authorized(),
    )
    assert opened.json()["ok"] is True


def test_the_surface_paths_need_the_services_token(stub_service: Service) -> None:
    """A page the user visits must neither watch the surface nor type into it."""
    with surface_client(stub_service) as client:
        open_page(client, "http://site.test/form")
        peeked = client.get("/surface/frame", params={"after": 0})
        typed = client.post(
            "/surface/input",
            json={"events": [{"type": "text", "text": "pwned"}]},
            headers={"Content-Type": "application/json"},
        )
        foreign = client.post(
            "/surface/input",
            json={"events": [{"type": "text", "text": "pwned"}]},
            headers=authorized(Origin="http://evil.example"),
        )
        field = client.post(
            "/browser-control",
            json=envelope("browser.inspect", {"selector": "#q"}, "watched"),
            headers=authorized(),
        )
    assert (peeked.status_code, typed.status_code, foreign.status_code) == (401, 401, 403)
    assert field.json()["data"]["value"] == "", "the refused text was typed"


MALFORMED = {
    "input-empty": ("/surface/input", {"events": []}),
    "input-unknown-event": ("/surface/input", {"events": [{"type": "touch", "x": 1, "y": 1}]}),
    "input-not-json": ("/surface/input", b"{events"),
    "control-unknown": ("/surface/control", {"controller": "boss"}),
    "resize-too-small": ("/surface/resize", {"width": 10, "height": 10}),
    "show-without-id": ("/surface/show", {}),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_surface_body_is_refused_400_and_reaches_nothing(
    stub_service: Service, case: str
) -> None:
    path, body = MALFORMED[case]
    with surface_client(stub_service) as client:
        open_page(client, "http://site.test/")
        before = client.get("/surface/frame", params={"after": 0}, headers=authorized())
        if isinstance(body, bytes):
            refused = client.post(path, content=body, headers=authorized())
        else:
            refused = client.post(path, json=body, headers=authorized())
        after = client.get(
            "/surface/frame", params={"after": before.headers["x-surface-seq"]},
            headers=authorized(),
        )  # fmt: skip
    assert refused.status_code == 400
    assert refused.json()["error"].startswith("not ")
    assert after.status_code == 204, "the picture changed"


@pytest.mark.parametrize("query", [{"after": "-1"}, {"after": "x"}, {"wait": "1.5"}])
def test_a_malformed_frame_request_is_refused_400(
    stub_service: Service, query: dict[str, str]
) -> None:
    with surface_client(stub_service) as client:
        refused = client.get("/surface/frame", params=query, headers=authorized())
    assert refused.status_code == 400


def test_a_frame_is_a_png_with_its_headers_and_204_when_nothing_newer_came(
    stub_service: Service,
) -> None:
    with surface_client(stub_service) as client:
        open_page(client, "http://site.test/about")
        current = client.get("/surface/frame", params={"after": 0}, headers=authorized())
        seq = current.headers["x-surface-seq"]
        nothing = client.get(
            "/surface/frame", params={"after": seq, "wait": 50}, headers=authorized()
        )
        open_page(client, "http://site.test/")
        newer = client.get("/surface/frame", params={"after": seq, "wait": 0}, headers=authorized())
    assert current.status_code == 200
    assert current.headers["content-type"] == "image/png"
    assert current.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert (current.headers["x-surface-width"], current.headers["x-surface-height"]) == (
        "1280",
        "800",
    )
    assert current.headers["x-surface-title"] == "About the stub"
    assert (nothing.status_code, nothing.content) == (204, b"")
    assert newer.status_code == 200
    assert int(newer.headers["x-surface-seq"]) == int(seq) + 1


def test_input_calls_reach_the_provider_in_the_order_they_were_sent(
    stub_service: Service,
) -> None:
    """A click on the field, then one key per call, then a paste: the field reads in order."""
    with surface_client(stub_service) as client:
        open_page(client, "http://site.test/form")
        field = client.post(
            "/browser-control",
            json=envelope("browser.inspect", {"selector": "#q"}, "watched"),
            headers=authorized(),
        ).json()["data"]["bounds"]
        x, y = field["x"] + 5, field["y"] + 5
        batches: list[list[dict[str, object]]] = [
            [
                {"type": "pointer", "action": "down", "x": x, "y": y, "buttons": 1},
                {"type": "pointer", "action": "up", "x": x, "y": y},
            ],
            [{"type": "key", "action": "down", "key": "o"}],
            [{"type": "key", "action": "down", "key": "w"}],
            [{"type": "text", "text": "ls"}],
        ]
        answers = [
            client.post("/surface/input", json={"events": events}, headers=authorized())
            for events in batches
        ]
        copied = client.post(
            "/surface/input",
            json={"events": [{"type": "key", "action": "down", "key": "c",
                              "modifiers": ["Control"]}]},
            headers=authorized(),
        )  # fmt: skip
        clipboard = client.get("/surface/clipboard", headers=authorized())
        value = client.post(
            "/browser-control",
            json=envelope("browser.inspect", {"selector": "#q"}, "watched"),
            headers=authorized(),
        ).json()["data"]["value"]
    assert [answer.status_code for answer in answers] == [204] * 4
    assert copied.status_code == 204
    assert value == "owls"
    assert clipboard.json() == {"text": "owls"}


@pytest.mark.slow
def test_an_input_batch_over_input_batch_max_is_refused_400_and_types_nothing(
    stub_service: Service,
) -> None:
    """A click on the field and keys to fill the batch: one event over, and nothing of it is
    typed; exactly at the limit, all of it is."""
    with surface_client(stub_service) as client:
        open_page(client, "http://site.test/form")
        field = client.post(
            "/browser-control",
            json=envelope("browser.inspect", {"selector": "#q"}, "watched"),
            headers=authorized(),
        ).json()["data"]["bounds"]
        x, y = field["x"] + 5, field["y"] + 5
        click = [
            {"type": "pointer", "action": "down", "x": x, "y": y, "buttons": 1},
            {"type": "pointer", "action": "up", "x": x, "y": y},
        ]

        def typed(keys: int) -> tuple[int, str]:
            events = click + [{"type": "text", "text": "k"}] * keys
            answer = client.post("/surface/input", json={"events": events}, headers=authorized())
            value = client.post(
                "/browser-control",
                json=envelope("browser.inspect", {"selector": "#q"}, "watched"),
                headers=authorized(),
            ).json()["data"]["value"]
            return answer.status_code, value

        over = typed(INPUT_BATCH_MAX + 1 - len(click))
        at_the_limit = typed(INPUT_BATCH_MAX - len(click))
    assert over == (400, "")
    assert at_the_limit == (204, "k" * (INPUT_BATCH_MAX - len(click)))


def test_resize_sessions_show_and_control_answer_as_the_contract_says(
    stub_service: Service,
) -> None:
    with surface_client(stub_service) as client:
        open_page(client, "http://site.test/")
        resized = client.post("/surface/resize", json={"width": 640, "height": 480},
                              headers=authorized())  # fmt: skip
        frame = client.get("/surface/frame", params={"after": 0}, headers=authorized())
        sessions = client.get("/surface/sessions", headers=authorized())
        [listed] = sessions.json()["sessions"]
        shown = client.post("/surface/show", json={"id": listed["id"]}, headers=authorized())
        followed = client.post("/surface/show", json={"id": None}, headers=authorized())
        control = client.post("/surface/control", json={"controller": "user"},
                              headers=authorized())  # fmt: skip
    assert resized.json() == {"width": 640, "height": 480}
    assert (frame.headers["x-surface-width"], frame.headers["x-surface-height"]) == ("640", "480")
    assert listed == {"id": listed["id"], "url": "http://site.test/", "title": "Stub home",
                      "shown": True, "context": {"sessionId": "watched"}}  # fmt: skip
    assert (shown.status_code, followed.status_code, control.status_code) == (204, 204, 204)


def test_the_panel_page_is_served_behind_the_token(stub_service: Service) -> None:
    with surface_client(stub_service) as client:
        without = client.get("/surface/panel")
        page = client.get("/surface/panel", headers=authorized())
    assert without.status_code == 401
    assert page.headers["content-type"].startswith("text/html")
    assert '<input id="address"' in page.text
