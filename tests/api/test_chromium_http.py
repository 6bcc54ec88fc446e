"""The HTTP API with ``chromium`` selected: a real ``browserhost serve`` driving real Chromium.

One server (and one browser) serves the whole module; each test has a ``sessionId`` of its
own, so its cookies and pages are its own. The pages come from the chromium provider's test
site (:mod:`tests.providers.chromium.site`), served on 127.0.0.1. The test that kills the
browser comes last (the fault suite, ``tests/faults/``, kills it mid-action); each test starts
with ``browser.open``, which relaunches a dead browser.
"""

from __future__ import annotations

import base64
import json
import re
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from browserhost.contract import data
from tests.conftest import LiveServer, serving_selected
from tests.processes import chromium_processes, kill_browser
from tests.providers.chromium.site import Site

ACTIONS = "/api/browser-providers/actions"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[LiveServer]:
    yield from serving_selected(
        tmp_path_factory, "chromium", env={"BROWSERHOST_CHROMIUM": chromium_path}
    )


@pytest.fixture(scope="module")
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


@pytest.fixture
def session(request: pytest.FixtureRequest) -> str:
    """A ``sessionId`` of the test's own."""
    name: str = request.node.name
    return name


def post(
    http: httpx.Client,
    session: str,
    action: str,
    parameters: dict[str, object],
    directory: Path | None = None,
) -> httpx.Response:
    context = {"sessionId": session, "directory": None if directory is None else str(directory)}
    body = {"action": action, "parameters": parameters, "context": context}
    return http.post(ACTIONS, json=body)


def ok(
    http: httpx.Client,
    session: str,
    action: str,
    *,
    directory: Path | None = None,
    **parameters: object,
) -> dict[str, Any]:
    """The ``data`` of an action that must succeed, from an answer of exactly the documented
    form."""
    response = post(http, session, action, parameters, directory)
    answer = response.json()
    assert response.status_code == 200, answer
    assert set(answer) == {"ok", "providerId", "data"}, answer
    assert (answer["ok"], answer["providerId"]) == (True, "chromium"), answer
    found: dict[str, Any] = answer["data"]
    return found


def refused(
    http: httpx.Client, session: str, action: str, *, status: int, code: str, **parameters: object
) -> str:
    """The ``error`` of an action that must be refused with ``code`` and ``status``."""
    response = post(http, session, action, parameters)
    answer = response.json()
    assert response.status_code == status, answer
    assert set(answer) == {"ok", "code", "error"}, answer
    assert (answer["ok"], answer["code"]) == (False, code), answer
    error: str = answer["error"]
    return error


def assert_shape(model: type[data.Data], wire: dict[str, Any]) -> None:
    """``wire`` has exactly the documented fields of ``model``, with the documented types."""
    model.model_validate_json(json.dumps(wire), strict=True, extra="forbid")
    viewport = wire.get("viewport")
    if viewport is not None:
        assert set(viewport) == {"mode", "width", "height"}, viewport


def png_size(image: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header (its IHDR chunk comes first)."""
    assert image[:8] == PNG_SIGNATURE
    assert image[12:16] == b"IHDR"
    width, height = struct.unpack(">II", image[16:24])
    return int(width), int(height)


def test_every_action_answers_exactly_the_documented_fields(
    http: httpx.Client, site: Site, session: str
) -> None:
    opened = ok(http, session, "browser.open", url=site.url("/form"))
    assert_shape(data.OpenData, opened)
    snapshot = ok(http, session, "browser.snapshot")
    assert_shape(data.SnapshotData, snapshot)
    assert snapshot["elements"], snapshot
    typed = ok(http, session, "browser.type", selector="#q", value="x")
    assert_shape(data.TypeData, typed)
    assert_shape(data.ScrollData, ok(http, session, "browser.scroll", direction="down"))
    assert_shape(data.InspectData, ok(http, session, "browser.inspect", selector="#q"))
    captured = ok(http, session, "browser.capture")
    assert_shape(data.CaptureData, captured)
    assert "path" not in captured  # no project directory, so nothing was saved
    resized = ok(http, session, "browser.resize", viewport="mobile")
    assert_shape(data.ResizeData, resized)
    assert resized["viewport"] == {"mode": "mobile", "width": 390, "height": 844}
    ok(http, session, "browser.open", url=site.url("/links"))
    assert_shape(data.ClickData, ok(http, session, "browser.click", text="Page A"))
    back = ok(http, session, "browser.back")
    assert_shape(data.NavigationData, back)
    forward = ok(http, session, "browser.forward")
    assert_shape(data.NavigationData, forward)
    assert (back["title"], forward["title"]) == ("Links", "Page A")


def test_typing_then_submitting_shows_the_result_in_the_next_snapshot(
    http: httpx.Client, site: Site, session: str
) -> None:
    ok(http, session, "browser.open", url=site.url("/form"))
    typed = ok(http, session, "browser.type", selector="#q", value="hello world", submit=True)
    assert typed == {
        "selector": "#q",
        "url": site.url("/result?q=hello+world&color=r"),
        "title": "Result",
    }
    snapshot = ok(http, session, "browser.snapshot")
    assert snapshot["title"] == "Result"
    assert "You searched for: hello world" in snapshot["text"]


def test_clicking_every_selector_of_a_snapshot_hits_that_element(
    http: httpx.Client, site: Site, session: str
) -> None:
    """The page records the ``data-k`` of each element clicked and shows the list in its
    text; inspecting ``:is(selector)[data-k=…]`` then proves the hit is the selector's one
    element (a click or an inspect acts only on a selector that matches exactly one)."""
    ok(http, session, "browser.open", url=site.url("/many"))
    snapshot = ok(http, session, "browser.snapshot")
    assert "elementsTruncated" not in snapshot
    selectors = [element["selector"] for element in snapshot["elements"]]
    assert len(selectors) >= 100
    for selector in selectors:
        assert ok(http, session, "browser.click", selector=selector)["clicked"] == selector
    text = ok(http, session, "browser.snapshot")["text"]
    recorded = re.search(r"hits: (\S+)", text)
    assert recorded is not None, text
    hits = recorded.group(1).split(",")
    assert len(hits) == len(selectors)  # one click event per click, none on something else
    assert len(set(hits)) == len(hits)
    for selector, hit in zip(selectors, hits, strict=True):
        assert re.fullmatch(r"k\d+", hit), (selector, hit)
        ok(http, session, "browser.inspect", selector=f':is({selector})[data-k="{hit}"]')


def test_an_ambiguous_text_click_is_refused_with_the_candidates_and_clicks_nothing(
    http: httpx.Client, site: Site, session: str
) -> None:
    ok(http, session, "browser.open", url=site.url("/twins"))
    error = refused(
        http, session, "browser.click", status=400, code="PROVIDER_REJECTED", text="Save"
    )
    first, second = "body > button:nth-of-type(1)", "body > button:nth-of-type(2)"
    assert f'{first} (button "Save")' in error
    assert f'{second} (button "Save")' in error
    assert "Nothing was clicked" in error
    assert "saves: none" in ok(http, session, "browser.snapshot")["text"]
    ok(http, session, "browser.click", selector=second)  # the listed selectors are usable
    assert "saves: two" in ok(http, session, "browser.snapshot")["text"]


def test_two_session_ids_do_not_share_a_cookie(
    http: httpx.Client, site: Site, session: str
) -> None:
    mine, theirs = f"{session}-mine", f"{session}-theirs"
    ok(http, mine, "browser.open", url=site.url("/set-cookie?v=mint"))
    ok(http, theirs, "browser.open", url=site.url("/cookie"))
    assert "cookie: none" in ok(http, theirs, "browser.snapshot")["text"]
    ok(http, mine, "browser.open", url=site.url("/cookie"))
    assert "cookie: flavor=mint" in ok(http, mine, "browser.snapshot")["text"]
    ok(http, theirs, "browser.open", url=site.url("/cookie"))
    assert "cookie: none" in ok(http, theirs, "browser.snapshot")["text"]


def test_a_redirect_to_a_file_url_is_blocked_and_not_shown(
    http: httpx.Client, site: Site, session: str
) -> None:
    error = refused(
        http,
        session,
        "browser.open",
        status=400,
        code="PROVIDER_REJECTED",
        url=site.url("/to-file"),
    )
    assert "blocked: only http and https pages may be loaded" in error
    snapshot = ok(http, session, "browser.snapshot")
    assert not snapshot["url"].startswith("file:")
    assert "root:" not in snapshot["text"]
    captured = ok(http, session, "browser.capture")
    assert not captured["url"].startswith("file:")


def test_the_browser_never_shows_the_hosts_own_pages(
    http: httpx.Client, server: LiveServer, site: Site, session: str
) -> None:
    # A page's text could send the agent to the host's API or docs; the browser refuses.
    own = server.url.replace("127.0.0.1", "localhost") + "/docs"
    error = refused(http, session, "browser.open", status=400, code="PROVIDER_REJECTED", url=own)
    assert error == (
        f"{own} was not opened: it is browserhost's own address, which the browser does not show."
    )
    assert ok(http, session, "browser.open", url="about:blank")["url"] == "about:blank"
    # Loopback development servers on other ports load (the default).
    assert ok(http, session, "browser.open", url=site.url("/page-a"))["title"] == "Page A"


def test_capture_saves_a_png_of_the_viewport_inside_the_project_whatever_the_label(
    http: httpx.Client, site: Site, session: str, tmp_path: Path
) -> None:
    project = tmp_path / "outer" / "inner" / "project"
    project.mkdir(parents=True)
    ok(http, session, "browser.open", url=site.url("/page-b"), directory=project)
    ok(http, session, "browser.resize", viewport="mobile", directory=project)
    captured = ok(http, session, "browser.capture", label="../../x", directory=project)
    assert_shape(data.CaptureData, captured)
    saved = Path(captured["path"])
    assert saved.parent == project / ".browserhost" / "captures"
    assert saved.name.endswith("-x.png")
    image = saved.read_bytes()
    assert image == base64.b64decode(captured["base64"])
    assert png_size(image) == (captured["width"], captured["height"]) == (390, 844)
    assert captured["viewport"] == {"mode": "mobile", "width": 390, "height": 844}
    assert [path for path in tmp_path.rglob("*") if not path.is_dir()] == [saved]


def test_network_console_and_pdf_verbs_answer_over_http(
    http: httpx.Client, site: Site, session: str, tmp_path: Path
) -> None:
    listed = http.get("/api/browser-providers").json()
    [chromium] = [p for p in listed["providers"] if p["id"] == "chromium"]
    assert {"network", "console", "pdf"} <= {v["name"] for v in chromium["verbs"]}
    ok(http, session, "browser.open", url=site.url("/requests"), directory=tmp_path)
    failed = ok(http, session, "verb.network", directory=tmp_path, failed=True, types=["image"])
    assert [(r["url"], r["status"]) for r in failed["requests"]] == [
        (site.url("/missing.png"), 404)
    ]
    ok(http, session, "browser.open", url=site.url("/console"), directory=tmp_path)
    console = ok(http, session, "verb.console", directory=tmp_path, since="last")
    assert [m["level"] for m in console["messages"]] == ["error", "warning", "log", "error"]
    saved = ok(http, session, "verb.pdf", label="requests", directory=tmp_path)
    path = Path(saved["path"])
    assert path.parent == tmp_path / ".browserhost" / "captures"
    assert path.read_bytes().startswith(b"%PDF-")
    response = post(http, session, "verb.console", {"since": "yesterday"})
    assert (response.status_code, response.json()["code"]) == (400, "INVALID_ACTION")


def test_killing_the_browser_between_actions_is_survived(
    http: httpx.Client, server: LiveServer, site: Site, session: str
) -> None:
    ok(http, session, "browser.open", url=site.url("/page-a"))
    killed = kill_browser(server.process.pid)
    opened = ok(http, session, "browser.open", url=site.url("/page-b"))
    assert opened["title"] == "Page B"
    assert ok(http, session, "browser.snapshot")["text"] == "This is page B"
    relaunched = set(chromium_processes(server.process.pid))
    assert relaunched
    assert not relaunched & killed
