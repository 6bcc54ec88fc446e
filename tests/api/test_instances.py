"""Browser instances over a real ``browserhost serve`` driving real Chromium.

One server serves the module; each test launches the instances it needs and closes them. The
pages come from the chromium provider's test site on 127.0.0.1. The profile that outlives a
restart, and the headed browser on Xvfb, run servers of their own.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest

from tests.conftest import LiveServer, serving_http, serving_selected, start_server
from tests.processes import chromium_processes, wait_until
from tests.providers.chromium.site import Site
from tests.spawning import spawn, stop, wait_ready

ACTIONS = "/api/browser-providers/actions"
INSTANCES = "/api/browser-providers/instances"
PROVIDERS = "/api/browser-providers"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[LiveServer]:
    yield from serving_selected(
        tmp_path_factory, "chromium", select=False, env={"BROWSERHOST_CHROMIUM": chromium_path}
    )


@pytest.fixture(scope="module")
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


def launch(http: httpx.Client, name: str, **options: object) -> dict[str, Any]:
    answer = http.post(INSTANCES, json={"provider": "chromium", "name": name, "options": options})
    assert answer.status_code == 201, answer.text
    launched: dict[str, Any] = answer.json()
    return launched


def act(
    http: httpx.Client, action: str, parameters: dict[str, object], provider_id: str | None
) -> httpx.Response:
    body: dict[str, object] = {
        "action": action,
        "parameters": parameters,
        "context": {"sessionId": "instances"},
    }
    if provider_id is not None:
        body["providerId"] = provider_id
    return http.post(ACTIONS, json=body)


def page_text(http: httpx.Client, url: str, provider_id: str | None) -> str:
    opened = act(http, "browser.open", {"url": url}, provider_id)
    assert opened.status_code == 200, opened.text
    snapshot = act(http, "browser.snapshot", {}, provider_id)
    assert snapshot.status_code == 200, snapshot.text
    assert snapshot.json()["providerId"] == (provider_id or snapshot.json()["providerId"])
    text: str = snapshot.json()["data"]["text"]
    return text


def test_options_that_break_the_schema_are_each_listed_and_nothing_launches(
    http: httpx.Client, server: LiveServer
) -> None:
    options = {
        "headless": "yes",
        "profile": "../etc",
        "proxy": {"server": "ftp://x"},
        "executablePath": "/bin/sh",
    }
    answer = http.post(INSTANCES, json={"provider": "chromium", "options": options})
    assert answer.status_code == 400
    refusal = answer.json()
    assert refusal["code"] == "INVALID_ACTION"
    error = refusal["error"]
    assert error.startswith("Chromium cannot launch with these options: ")
    assert error.endswith("Nothing was launched.")
    assert "/: Additional properties are not allowed ('executablePath' was unexpected)" in error
    assert "/headless: 'yes' is not of type 'boolean' (Headless: Run without a window" in error
    assert "/profile: '../etc' does not match" in error
    assert "(Profile: Keep cookies, local storage and logins" in error
    assert "/proxy/server: 'ftp://x' does not match" in error
    assert "(Proxy server: The proxy's address" in error
    assert http.get(INSTANCES).json() == {"instances": []}
    assert chromium_processes(server.process.pid) == {}
    assert not (server.data_dir / "providers").exists()


def test_launch_list_route_by_selection_and_provider_id_then_close(http: httpx.Client) -> None:
    launched = launch(http, "routed", viewport="mobile")
    assert launched == {
        "id": "chromium~routed",
        "provider": "chromium",
        "name": "routed",
        "status": "connected",
        "control": {
            "kind": "provider",
            "capabilities": {
                "actions": launched["control"]["capabilities"]["actions"],
                "screenshot": "page",
            },
        },
        "heldBy": "none",
        "ownership": "owned",
        "persistence": "ephemeral",
        "operations": ["close", "references"],
        "details": {
            "headless": True,
            "viewport": "mobile",
            "createdAt": launched["details"]["createdAt"],
        },
    }
    assert http.get(INSTANCES).json() == {"instances": [launched]}
    rows = {row["id"]: row for row in http.get(PROVIDERS).json()["providers"]}
    assert rows["chromium~routed"]["instance"] == launched
    assert rows["chromium~routed"]["name"] == "Chromium (routed)"
    assert "launch" in rows["chromium"]
    assert "launch" not in rows["chromium~routed"]

    opened = act(http, "browser.open", {"url": "about:blank"}, "chromium~routed")
    assert opened.json()["providerId"] == "chromium~routed"
    assert opened.json()["data"]["viewport"]["mode"] == "mobile"
    selected = http.put(f"{PROVIDERS}/selection", json={"id": "chromium~routed"})
    assert selected.json() == {"selectedId": "chromium~routed"}
    snapshot = act(http, "browser.snapshot", {}, None)
    assert snapshot.json()["providerId"] == "chromium~routed"

    closed = http.delete(f"{INSTANCES}/chromium~routed")
    assert closed.status_code == 200
    assert closed.json()["status"] == "closed"
    assert http.get(INSTANCES).json() == {"instances": []}
    gone = act(http, "browser.snapshot", {}, "chromium~routed")
    assert (gone.status_code, gone.json()["code"]) == (404, "PROVIDER_NOT_FOUND")
    assert act(http, "browser.snapshot", {}, None).json()["code"] == "PROVIDER_NOT_FOUND"
    again = http.delete(f"{INSTANCES}/chromium~routed")
    assert (again.status_code, again.json()["code"]) == (404, "PROVIDER_NOT_FOUND")


def test_two_instances_keep_their_cookies_apart(http: httpx.Client, site: Site) -> None:
    launch(http, "left")
    launch(http, "right")
    try:
        page_text(http, site.url("/set-cookie?v=left"), "chromium~left")
        assert "cookie: flavor=left" in page_text(http, site.url("/cookie"), "chromium~left")
        assert "cookie: none" in page_text(http, site.url("/cookie"), "chromium~right")
    finally:
        http.delete(f"{INSTANCES}/chromium~left")
        http.delete(f"{INSTANCES}/chromium~right")


def test_a_locale_time_zone_and_user_agent_are_what_the_page_sees(
    http: httpx.Client, site: Site
) -> None:
    launched = launch(
        http, "berlin", locale="de-DE", timezone="Asia/Tokyo", userAgent="TestAgent/1.0"
    )
    try:
        assert launched["details"]["locale"] == "de-DE"
        text = page_text(http, site.url("/intl"), "chromium~berlin")
        assert "language: de-DE zone: Asia/Tokyo agent: TestAgent/1.0" in text
    finally:
        http.delete(f"{INSTANCES}/chromium~berlin")


def test_a_storage_state_file_starts_each_session_with_its_cookies(
    http: httpx.Client, site: Site, tmp_path: Path
) -> None:
    state = tmp_path / "state.json"
    cookie = {"name": "flavor", "value": "imported", "domain": "127.0.0.1", "path": "/",
              "expires": -1, "httpOnly": False, "secure": False, "sameSite": "Lax"}  # fmt: skip
    state.write_text(json.dumps({"cookies": [cookie], "origins": []}))
    launched = launch(http, "imported", storageState=str(state))
    try:
        assert launched["details"]["storageStateImported"] is True
        assert "cookie: flavor=imported" in page_text(
            http, site.url("/cookie"), "chromium~imported"
        )
    finally:
        http.delete(f"{INSTANCES}/chromium~imported")
    state.write_text("{not json")
    refused = http.post(
        INSTANCES, json={"provider": "chromium", "options": {"storageState": str(state)}}
    )
    assert refused.json()["code"] == "PROVIDER_REJECTED"
    assert "is not a Playwright storage-state file" in refused.json()["error"]
    assert "not json" not in refused.json()["error"]


def test_a_time_zone_chromium_does_not_know_is_the_providers_refusal(http: httpx.Client) -> None:
    answer = http.post(
        INSTANCES, json={"provider": "chromium", "options": {"timezone": "Mars/Olympus"}}
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "PROVIDER_REJECTED"
    assert "'Mars/Olympus' is not a time zone" in answer.json()["error"]
    assert http.get(INSTANCES).json() == {"instances": []}


class _Proxy(BaseHTTPRequestHandler):
    """A proxy that asks for credentials, then answers every request itself."""

    seen: ClassVar[list[tuple[str, str]]] = []

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        credentials = self.headers.get("Proxy-Authorization")
        if credentials is None:
            self.send_response(407)
            self.send_header("Proxy-Authenticate", 'Basic realm="test"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        _Proxy.seen.append((self.path, credentials))
        body = b"<title>Proxied</title><p>through the proxy</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_a_proxy_with_credentials_carries_the_pages_and_its_password_is_never_shown(
    http: httpx.Client, site: Site, server: LiveServer
) -> None:
    with serving_http(_Proxy) as proxy:
        launched = launch(
            http,
            "proxied",
            proxy={
                "server": proxy,
                "bypass": "<-loopback>",
                "username": "agent",
                "password": "pw-0123456789",
            },
        )
        try:
            text = page_text(http, site.url("/cookie"), "chromium~proxied")
        finally:
            http.delete(f"{INSTANCES}/chromium~proxied")
    assert "through the proxy" in text
    expected = "Basic " + base64.b64encode(b"agent:pw-0123456789").decode()
    assert (site.url("/cookie"), expected) in _Proxy.seen
    assert launched["details"]["proxy"] == {
        "server": proxy,
        "bypass": "<-loopback>",
        "credentials": True,
    }
    assert "pw-0123456789" not in json.dumps(launched)
    assert "pw-0123456789" not in server.log_path.read_text()


def test_closing_an_instance_while_it_acts_is_request_failed(
    http: httpx.Client, site: Site
) -> None:
    launch(http, "closing")
    with site.holding() as arrived, ThreadPoolExecutor(1) as pool:
        opening = pool.submit(
            act, http, "browser.open", {"url": site.url("/held")}, "chromium~closing"
        )
        assert arrived.wait(15)
        closed = http.delete(f"{INSTANCES}/chromium~closing")
        answer = opening.result(timeout=30)
    assert closed.status_code == 200
    assert answer.status_code == 504, answer.text
    assert answer.json()["code"] == "REQUEST_FAILED"
    assert "It may have run" in answer.json()["error"]


def test_the_cli_launches_lists_and_closes_and_explains_the_options(server: LiveServer) -> None:
    def cli(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "browserhost", *arguments, "--url", server.url],
            env={**os.environ, "BROWSERHOST_TOKEN": server.token},
            capture_output=True,
            text=True,
            timeout=60,
        )

    helped = cli("launch", "chromium", "--help")
    assert helped.returncode == 0, helped.stderr
    assert "headless=BOOLEAN  Headless: Run without a window" in helped.stdout
    assert "(default: true)" in helped.stdout
    assert "proxy.server=STRING  Proxy server" in helped.stdout
    assert "viewport=mobile|tablet|desktop|fill" in helped.stdout

    refused = cli("launch", "chromium", "--set", "headless=maybe")
    assert refused.returncode == 3
    assert "/headless: 'maybe' is not of type 'boolean'" in refused.stderr

    launched = cli("launch", "chromium", "--name", "cli", "--set", "headless=true",
                   "--set", "locale=fr-FR", "--set", "proxy.server=http://127.0.0.1:9")  # fmt: skip
    assert launched.returncode == 0, launched.stderr
    assert launched.stdout.startswith("chromium~cli  connected  ephemeral  headless")
    assert "locale=fr-FR proxy=http://127.0.0.1:9" in launched.stdout
    listed = cli("instances", "--json")
    [row] = json.loads(listed.stdout)
    assert row["id"] == "chromium~cli"
    assert row["details"]["proxy"] == {"server": "http://127.0.0.1:9", "credentials": False}
    closed = cli("close", "chromium~cli")
    assert (closed.returncode, closed.stdout) == (0, "Closed chromium~cli.\n")
    assert "No browser instance is launched" in cli("instances").stdout


def test_a_profile_keeps_its_cookie_across_a_restart_and_is_one_browsers_at_a_time(
    tmp_path: Path, chromium_path: str, site: Site
) -> None:
    data = tmp_path / "data"
    env = {"BROWSERHOST_CHROMIUM": chromium_path}
    first = start_server(data, providers="chromium", env=env)
    try:
        with first.client() as http:
            launched = launch(http, "work", profile="work")
            assert launched["persistence"] == "persistent"
            assert launched["details"]["profile"] == "work"
            page_text(http, site.url("/set-cookie?v=mint&keep=1"), "chromium~work")
            taken = http.post(
                INSTANCES, json={"provider": "chromium", "options": {"profile": "work"}}
            )
            assert taken.status_code == 400
            assert "The profile 'work' is in use by chromium~work" in taken.json()["error"]
    finally:
        first.stop()
    remembered = data / "browser-instances.json"
    assert stat.S_IMODE(remembered.stat().st_mode) == 0o600
    assert (data / "providers" / "chromium" / "profiles" / "work").is_dir()

    second = start_server(data, providers="chromium", env=env)
    try:
        with second.client() as http:
            [row] = http.get(INSTANCES).json()["instances"]
            assert (row["id"], row["status"], row["persistence"]) == (
                "chromium~work", "stopped", "persistent",
            )  # fmt: skip
            assert "cookie: flavor=mint" in page_text(http, site.url("/cookie"), "chromium~work")
            assert http.get(INSTANCES).json()["instances"][0]["status"] == "connected"
            assert http.delete(f"{INSTANCES}/chromium~work").status_code == 200
            assert json.loads(remembered.read_text()) == {"instances": []}
    finally:
        second.stop()


def test_a_headed_instance_shows_a_window_on_a_display(
    tmp_path: Path, chromium_path: str, site: Site
) -> None:
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.fail("the headed test needs Xvfb: apt-get install xvfb (make test installs it)")
    ready_r, ready_w = os.pipe()
    printed = tmp_path / "xvfb.log"
    # -displayfd: Xvfb picks a free display and writes its number when it accepts clients.
    with printed.open("wb") as log:
        display = spawn(
            [xvfb, "-displayfd", str(ready_w), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
            pass_fds=(ready_w,),
            stderr=log,
        )
    os.close(ready_w)
    try:
        with os.fdopen(ready_r) as ready:
            wait_ready(
                display, lambda: bool(select.select([ready], [], [], 0.5)[0]), "Xvfb", printed
            )
            number = ready.readline().strip()
        assert number, f"Xvfb did not start: {printed.read_text()}"
        env = {"BROWSERHOST_CHROMIUM": chromium_path, "DISPLAY": f":{number}"}
        server = start_server(tmp_path / "data", providers="chromium", env=env)
        try:
            with server.client() as http:
                launched = launch(http, "window", headless=False)
                assert launched["details"]["headless"] is False
                assert (
                    "Intl"
                    in act(
                        http, "browser.open", {"url": site.url("/intl")}, "chromium~window"
                    ).json()["data"]["title"]
                )
                browsers = chromium_processes(server.process.pid)
                commands = [Path(f"/proc/{pid}/cmdline").read_bytes().decode() for pid in browsers]
                assert commands
                assert not any("--headless" in command for command in commands)
        finally:
            server.stop()
    finally:
        stop(display)


def test_closed_instances_leave_no_browser_running(server: LiveServer) -> None:
    """Every instance this module launched was closed: none of their browsers is left."""
    wait_until(lambda: chromium_processes(server.process.pid) == {}, "a browser was left running")
