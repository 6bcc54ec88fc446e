"""The command line against a live ``browserhost serve`` (stub): what a person reads, what
``--json`` prints, and the exit status a script branches on."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import websockets

from browserhost.cli import EXIT_MAY_HAVE_RUN, EXIT_NOT_WRITTEN, EXIT_REFUSED
from browserhost.cli.lines import arguments_line
from tests.conftest import STUB_ROW, STUB_VERBS, TOKEN, LiveServer, free_port, start_server

pytestmark = pytest.mark.slow

USAGE_ERROR = 2


@dataclass(frozen=True)
class Shell:
    """Runs ``browserhost`` verbs in a project directory, pointed at a server."""

    server: LiveServer
    project: Path

    def __call__(self, *args: str, env: dict[str, str] | None = None) -> Ran:
        full_env = {
            **os.environ,
            "BROWSERHOST_URL": self.server.url,
            "BROWSERHOST_TOKEN": TOKEN,
            "COLUMNS": "200",
            **(env or {}),
        }
        done = subprocess.run(
            [sys.executable, "-m", "browserhost", *args],
            cwd=self.project,
            env=full_env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return Ran(done.returncode, done.stdout, done.stderr)

    def ok(self, *args: str) -> str:
        ran = self(*args)
        assert ran.status == 0, ran
        return ran.out

    def answer(self, *args: str) -> Any:
        """``--json``: the raw answer, parsed."""
        return json.loads(self.ok(*args, "--json"))


@dataclass(frozen=True)
class Ran:
    status: int
    out: str
    err: str


@pytest.fixture
def shell(live_server: LiveServer, tmp_path: Path) -> Shell:
    project = tmp_path / "project"
    project.mkdir()
    return Shell(live_server, project)


@pytest.fixture(scope="module")
def stub_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server, the stub selected, for the tests that need no server of their own: its
    start is most of such a test's time."""
    server = start_server(tmp_path_factory.mktemp("stub-server") / "data")
    Shell(server, tmp_path_factory.mktemp("selecting")).ok("select", "stub")
    yield server
    server.stop()


@pytest.fixture
def unchanged(stub_server: LiveServer, tmp_path: Path) -> Shell:
    """A project of its own on that server, for commands that change nothing on it (or never
    reach it): they need no server of their own."""
    project = tmp_path / "project"
    project.mkdir()
    return Shell(stub_server, project)


@pytest.fixture
def selected(stub_server: LiveServer, tmp_path: Path) -> Shell:
    """A project of its own on that server; the session every command without ``--session``
    acts in is the server's one, shown at the desktop size again (an earlier test's page and
    history stay behind it: each test opens its own page)."""
    project = tmp_path / "project"
    project.mkdir()
    shell = Shell(stub_server, project)
    shell.ok("resize", "desktop")
    return shell


def test_snapshot_prints_title_url_numbered_elements_and_text(selected: Shell) -> None:
    selected.ok("open", "https://site.test/")
    printed = selected.ok("snapshot")
    assert printed.splitlines() == [
        "Stub home  https://site.test/",
        "scroll 0/0, viewport desktop 1280x800",
        "",
        "Elements (5)",
        '  1. #home  a  "Home"',
        '  2. #about  a  "About"',
        '  3. #form  a  "Search form"',
        '  4. #long  a  "Long page"',
        '  5. #more  button  "Show more"',
        "",
        "Text",
        "Welcome to the stub site.",
    ]
    scoped = selected.ok("snapshot", "--selector", "#more")
    assert "scoped to #more" in scoped
    assert '  1. #more  button  "Show more"' in scoped


def test_each_action_verb_reads_as_what_happened(selected: Shell) -> None:
    run = selected.ok
    assert run("open", "https://site.test/form", "--viewport", "tablet").splitlines() == [
        "Search  https://site.test/form",
        "viewport tablet 820x1180",
    ]
    assert run("type", "--selector", "#q", "--value", "cats", "--submit") == (
        "Typed into #q  now at https://site.test/search?q=cats\n"
    )
    assert run("back") == "Search  https://site.test/form\n"
    assert run("forward") == "Results  https://site.test/search?q=cats\n"
    assert run("click", "--text", "Long page") == (
        'Clicked "Long page" (#long)  now at https://site.test/long\n'
    )
    assert run("scroll", "--direction", "bottom") == "Scrolled to 3620 of 3620 (bottom)\n"
    assert run("scroll", "--selector", "#home") == "Scrolled to 80 of 3620\n"
    assert run("click", "--selector", "#home") == (
        'Clicked "Home" (#home)  now at https://site.test/\n'
    )
    inspected = run("inspect", "--selector", "#about").splitlines()
    assert inspected[:2] == ['#about  a  "About"', "at 16.0,120.0 size 200.0x32.0, in view"]
    assert "  display: inline-block" in inspected
    assert run("resize", "mobile") == "Viewport mobile 390x844\n"


def test_capture_saves_into_the_project_or_to_a_file(selected: Shell) -> None:
    selected.ok("open", "https://site.test/about")
    printed = selected.ok("capture", "--label", "about page").splitlines()
    saved = list((selected.project / ".browserhost" / "captures").iterdir())
    assert len(saved) == 1
    assert saved[0].name.endswith("-about-page.png")
    assert printed == [f"Saved {saved[0]}  1280x800", "About the stub  https://site.test/about"]

    target = selected.project / "shot.png"
    printed = selected.ok("capture", "-o", str(target)).splitlines()
    assert printed[0] == f"Wrote {target}  1280x800"
    assert target.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_providers_and_select(shell: Shell) -> None:
    verb_lines = [
        line
        for verb in STUB_VERBS
        for line in (
            f"    call {verb['name']}  {verb['description']}",
            str(arguments_line(verb["inputSchema"])),  # type: ignore[arg-type]
        )
    ]
    assert verb_lines[8:10] == [
        "    call press_key  Press one key on the page. Enter on the search form submits it.",
        "      --set key*",
    ]
    assert "      --set action* (move|click|down|up|wheel), x, y, selector, text" in verb_lines[7]
    assert shell.ok("providers").splitlines() == [
        "  stub  Stub (no browser)",
        *verb_lines,
        "None is selected; choose one with: browserhost select ID",
    ]
    assert shell.ok("select", "stub") == "Selected stub.\n"
    assert shell.ok("providers").splitlines() == [
        "* stub  Stub (no browser) (selected)",
        *verb_lines,
    ]
    assert shell.answer("providers") == {
        "providers": [STUB_ROW],
        "selectedId": "stub",
    }
    assert shell.answer("select", "stub") == {"selectedId": "stub"}


@pytest.mark.parametrize(
    ("args", "keys"),
    [
        (("open", "https://site.test/"), {"url", "title", "opened", "settled", "viewport"}),
        (("snapshot",), {"url", "title", "scope", "scrollY", "maxScrollY", "text", "elements"}),
        (("click", "--text", "About"), {"clicked", "label", "url"}),
        (("scroll", "--direction", "down"), {"scrollY", "maxScrollY", "atTop", "atBottom"}),
        (("inspect", "--selector", "#home"), {"selector", "tag", "label", "bounds", "styles"}),
        (("capture",), {"base64", "mime", "width", "height", "url", "title", "path"}),
        (("resize", "fill"), {"viewport"}),
    ],
)
def test_json_prints_the_raw_answer(selected: Shell, args: tuple[str, ...], keys: set[str]) -> None:
    selected.ok("open", "https://site.test/")
    answer = selected.answer(*args)
    assert answer["ok"] is True
    assert answer["providerId"] == "stub"
    assert keys <= set(answer["data"])


def test_json_navigation_and_typing(selected: Shell) -> None:
    selected.ok("open", "https://site.test/form")
    typed = selected.answer("type", "--selector", "#q", "--value", "x")
    assert typed["data"] == {
        "selector": "#q",
        "url": "https://site.test/form",
        "title": "Search",
        "value": "x",
    }
    selected.ok("open", "https://site.test/about")
    assert selected.answer("back")["data"]["title"] == "Search"
    assert selected.answer("forward")["data"] == {
        "url": "https://site.test/about",
        "title": "About the stub",
    }


def test_sessions_keep_separate_pages(selected: Shell) -> None:
    selected.ok("open", "https://site.test/about", "--session", "a")
    selected.ok("open", "https://site.test/form", "--session", "b")
    assert selected.ok("back", "--session", "a") == "(untitled)  about:blank\n"
    assert selected.answer("snapshot", "--session", "b")["data"]["title"] == "Search"


def test_refused_calls_exit_3_and_say_what_to_do(shell: Shell) -> None:
    no_provider = shell("snapshot")
    assert no_provider.status == EXIT_REFUSED
    assert no_provider.out == ""
    assert no_provider.err.startswith("NO_PROVIDER: No browser provider is selected")

    as_json = shell("snapshot", "--json")
    assert as_json.status == EXIT_REFUSED
    assert json.loads(as_json.out) == {
        "ok": False,
        "code": "NO_PROVIDER",
        "error": no_provider.err.strip().removeprefix("NO_PROVIDER: "),
    }

    shell.ok("select", "stub")
    rejected = shell("click", "--selector", "#nowhere")
    assert rejected.status == EXIT_REFUSED
    assert rejected.err.strip() == (
        "PROVIDER_REJECTED: No element matches #nowhere; take a new snapshot."
    )
    invalid = shell("click")
    assert invalid.status == EXIT_REFUSED
    assert invalid.err.strip() == (
        "INVALID_ACTION: click requires selector or text. Nothing was sent."
    )
    unknown = shell("open", "https://site.test/", "--provider", "nope")
    assert unknown.status == EXIT_REFUSED
    assert unknown.err.startswith("PROVIDER_NOT_FOUND: ")
    unselectable = shell("select", "nope")
    assert unselectable.status == EXIT_REFUSED
    assert shell.answer("providers")["selectedId"] == "stub"


def test_a_wrong_token_or_no_server_exits_3(unchanged: Shell) -> None:
    wrong = unchanged("providers", env={"BROWSERHOST_TOKEN": "wrong"})
    assert wrong.status == EXIT_REFUSED
    assert wrong.err.startswith(
        "UNAUTHORIZED: The token sent is not this host's: send Authorization: Bearer <token>"
    )
    nowhere = unchanged("providers", "--url", f"http://127.0.0.1:{free_port()}")
    assert nowhere.status == EXIT_REFUSED
    assert nowhere.err.startswith("PROVIDER_UNAVAILABLE: browserhost is not reachable")


@pytest.fixture
def hang_up() -> Iterator[str]:
    """A server that reads each request and closes the connection without answering."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            with connection:
                received = b""
                while b"\r\n\r\n" not in received:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    received += chunk

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
    listener.close()
    thread.join(timeout=10)
    assert not thread.is_alive()


def test_a_call_lost_after_sending_exits_4(unchanged: Shell, hang_up: str) -> None:
    lost = unchanged("click", "--text", "Buy", "--url", hang_up)
    assert lost.status == EXIT_MAY_HAVE_RUN
    assert lost.err.startswith("REQUEST_FAILED: ")
    assert "It may have run" in lost.err
    as_json = unchanged("click", "--text", "Buy", "--url", hang_up, "--json")
    assert as_json.status == EXIT_MAY_HAVE_RUN
    assert json.loads(as_json.out)["code"] == "REQUEST_FAILED"


def test_usage_errors_exit_2(unchanged: Shell) -> None:
    assert unchanged("inspect").status == USAGE_ERROR
    assert unchanged("resize", "huge").status == USAGE_ERROR
    assert unchanged("type", "--selector", "#q").status == USAGE_ERROR


def test_mcp_refuses_to_start_with_an_unknown_provider(unchanged: Shell, tmp_path: Path) -> None:
    ran = unchanged("mcp", "--data-dir", str(tmp_path / "data"), "--select", "nope")
    assert ran.status == EXIT_REFUSED
    assert ran.out == ""
    assert ran.err.startswith("PROVIDER_NOT_FOUND: No reachable browser provider is called 'nope'")


def test_call_runs_a_verb_with_typed_arguments(selected: Shell) -> None:
    selected.ok("open", "https://site.test/form")
    selected.ok("type", "--selector", "#q", "--value", "42")
    pressed = json.loads(selected.ok("call", "press_key", "--arg", "key=Enter"))
    assert pressed["data"] == {"key": "Enter", "url": "https://site.test/search?q=42"}
    by_json = json.loads(selected.ok("call", "press_key", "--json", '{"key": "Escape"}'))
    assert by_json["data"]["key"] == "Escape"
    refused = selected("call", "press_key", "--arg", "key=")
    assert refused.status == 3
    assert "verb.press_key was refused" in refused.err + refused.out
    unknown = selected("call", "find", "--arg", "text=q")
    assert unknown.status == 3
    offered = "cookies, drag, hover, mouse, press_key, select_text, set_cookies, wait_for_close"
    assert f"has no verb 'find'; this provider offers: {offered}." in unknown.err + unknown.out


def test_call_keeps_an_optional_text_argument_a_string_even_when_it_looks_like_a_number(
    selected: Shell,
) -> None:
    selected.ok("open", "https://site.test/")
    hovered = selected("call", "hover", "--arg", "text=42")
    assert hovered.status == 3
    assert "No element is labelled '42'" in hovered.err + hovered.out  # the stub looked for it
    dragged = selected("call", "drag", "--json", '{"text": "Home", "offsetX": 30}')
    assert "The stub's pages have nothing to drag" in dragged.err + dragged.out


def _one_line(ran: Ran, status: int) -> str:
    assert ran.status == status, ran
    assert ran.out == ""
    assert "Traceback" not in ran.err
    assert len(ran.err.strip().splitlines()) == 1, ran.err
    return ran.err.strip()


def test_capture_into_a_missing_folder_is_a_usage_error_in_one_line(selected: Shell) -> None:
    line = _one_line(selected("capture", "-o", "/nonexistent/x.png"), USAGE_ERROR)
    assert line == (
        "Cannot write /nonexistent/x.png: /nonexistent is no folder; create the folder or "
        "choose another -o FILE. Nothing was sent."
    )
    afile = Path(__file__)
    line = _one_line(selected("capture", "-o", f"{afile}/x.png"), USAGE_ERROR)
    assert line == (
        f"Cannot write {afile}/x.png: {afile} is a file, not a folder; create the folder or "
        "choose another -o FILE. Nothing was sent."
    )


def test_capture_onto_a_full_device_says_the_image_was_not_saved(selected: Shell) -> None:
    line = _one_line(selected("capture", "-o", "/dev/full"), EXIT_NOT_WRITTEN)
    assert line == (
        "Cannot write /dev/full (No space left on device): the capture was taken but not "
        "saved; choose another -o FILE."
    )


@pytest.mark.parametrize("url", ["::::", "127.0.0.1:7878", "ftp://127.0.0.1/", "http://"])
def test_a_url_that_is_not_http_is_a_usage_error_in_one_line(unchanged: Shell, url: str) -> None:
    line = _one_line(unchanged("snapshot", "--url", url), USAGE_ERROR)
    assert line == (
        f"{url!r} is not a browserhost URL (--url or $BROWSERHOST_URL); pass one like "
        "http://127.0.0.1:7878."
    )
    assert _one_line(unchanged("providers", env={"BROWSERHOST_URL": url}), USAGE_ERROR) == line


def test_while_a_person_holds_the_viewer_the_cli_is_refused_with_exit_3(selected: Shell) -> None:
    async def take_over_then_run() -> Ran:
        socket_url = selected.server.url.replace("http", "ws") + "/api/surface"
        async with websockets.connect(socket_url) as viewer:
            await viewer.send(json.dumps({"t": "hello", "token": TOKEN, "viewer": "person"}))
            click = {"type": "pointer", "action": "down", "x": 5, "y": 5}
            await viewer.send(json.dumps({"t": "input", "events": [click]}))
            while True:  # until the host says this viewer's person holds control
                message = await viewer.recv()
                if isinstance(message, str) and json.loads(message).get("you") is True:
                    break
            return await asyncio.to_thread(selected, "snapshot")

    ran = asyncio.run(take_over_then_run())
    assert ran.status == EXIT_REFUSED
    assert "USER_IN_CONTROL" in ran.err
    assert "ask the user to hand back to the agent" in ran.err
    assert selected.ok("snapshot")  # the viewer left: control went back with it


def test_capture_to_a_file_writes_that_file_alone(selected: Shell) -> None:
    selected.ok("open", "https://site.test/about")
    target = selected.project / "shot.png"
    selected.ok("capture", "-o", str(target))
    assert target.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert not (selected.project / ".browserhost").exists()
    assert sorted(path.name for path in selected.project.iterdir()) == ["shot.png"]


def test_verbs_from_two_directories_act_on_one_page(selected: Shell, tmp_path: Path) -> None:
    elsewhere = Shell(selected.server, tmp_path / "elsewhere")
    elsewhere.project.mkdir()
    selected.ok("open", "https://site.test/")
    assert elsewhere.ok("click", "--text", "About").startswith('Clicked "About" (#about)')
    assert selected.answer("snapshot")["data"]["title"] == "About the stub"
    assert elsewhere.answer("snapshot", "--session", "other")["data"]["url"] == "about:blank"


def test_extension_says_where_it_dials_and_how_to_change_it(unchanged: Shell) -> None:
    ran = unchanged("extension")
    assert ran.status == 0
    assert Path(ran.out.strip()).is_dir()  # stdout is the folder alone
    assert "It dials ws://127.0.0.1:7878/ext/bridge" in ran.err
    assert "options page" in ran.err


def test_a_session_in_a_project_saves_its_captures_there_and_o_moves_the_one_file(
    selected: Shell, tmp_path: Path
) -> None:
    project = tmp_path / "app"
    project.mkdir()
    selected.ok("open", "https://site.test/about", "--project", str(project))
    printed = selected.ok("capture", "--project", str(project))
    saved = list((project / ".browserhost" / "captures").iterdir())
    assert len(saved) == 1
    assert str(saved[0]) in printed
    target = tmp_path / "shot.png"
    selected.ok("capture", "--project", str(project), "-o", str(target))
    assert target.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert list((project / ".browserhost" / "captures").iterdir()) == saved  # moved, no copy
    assert not (selected.project / ".browserhost").exists()


def test_a_project_is_a_session_of_its_own(selected: Shell, tmp_path: Path) -> None:
    selected.ok("open", "https://site.test/about")
    project = tmp_path / "app"
    project.mkdir()
    answer = selected.answer("snapshot", "--project", str(project))
    assert answer["data"]["url"] == "about:blank"
    assert selected.answer("snapshot")["data"]["title"] == "About the stub"
