"""Files a page downloads: saved into the project, bounded, told to the action that caused
them, and the download verb (a real Chromium and a real site)."""

from __future__ import annotations

import re
import stat
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from browserhost.contract import Context, ProviderRequest, data
from browserhost.providers.chromium import ChromiumProvider
from browserhost.providers.chromium.downloads import Downloads, safe_filename
from browserhost.providers.chromium.errors import MayHaveRunError

from .driving import assert_shape, ok, refused
from .site import QuietServer

pytestmark = pytest.mark.asyncio(loop_scope="module")

REPORT = b"name,total\nalpha,3\n"


class DownloadSite:
    """``/file?name=&size=`` answers an attachment; ``/links`` a page of links to them."""

    def __init__(self) -> None:
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                site.serve(self)

        self._server = QuietServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{path}"

    def serve(self, request: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(request.path)
        query = parse_qs(parts.query)
        if parts.path == "/file":
            name = query.get("name", ["report.csv"])[0]
            size = int(query.get("size", ["0"])[0])
            body = b"x" * size if size else REPORT
            headers = {
                "Content-Type": "application/octet-stream",
                "Content-Disposition": f'attachment; filename="{name}"',
            }
        else:
            links = (
                '<a id="report" href="/file?name=report.csv">Get the report</a> '
                '<a id="evil" href="/file?name=../../evil%20name.csv">Evil</a> '
                '<a id="big" href="/file?name=big.bin&size=50000">Big</a> '
                '<a id="nothing" href="#">Nothing</a>'
            )
            body = f"<!doctype html><title>Links</title><body>{links}</body>".encode()
            headers = {"Content-Type": "text/html; charset=utf-8"}
            if parts.path == "/later":  # the page starts a download by itself
                body += b"<script>setTimeout(() => location.href = '/file?name=later.txt', 50)"
                body += b"</script>"
        request.send_response(200)
        request.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            request.send_header(name, value)
        request.end_headers()
        request.wfile.write(body)


@pytest.fixture(scope="module")
def downloads_site() -> Iterator[DownloadSite]:
    site = DownloadSite()
    site._thread.start()
    yield site
    site._server.shutdown()
    site._server.server_close()


@pytest.fixture
def project(tmp_path: Path, request: pytest.FixtureRequest) -> Context:
    return Context(directory=str(tmp_path), session_id=request.node.name)


def saved_files(project: Context) -> list[str]:
    folder = Path(str(project.directory)) / ".browserhost" / "downloads"
    return sorted(path.name for path in folder.iterdir()) if folder.is_dir() else []


async def test_a_click_that_downloads_saves_the_file_in_the_project_and_says_where(
    provider: ChromiumProvider, downloads_site: DownloadSite, project: Context
) -> None:
    await ok(provider, project, "browser.open", url=downloads_site.url("/links"))
    clicked = await ok(provider, project, "browser.click", selector="#report")
    path = Path(str(project.directory)) / ".browserhost" / "downloads" / "report.csv"
    assert clicked["downloads"] == [{"filename": "report.csv", "path": str(path)}]
    assert path.read_bytes() == REPORT
    assert_shape(data.ClickData, clicked)


async def test_a_second_download_of_the_same_name_does_not_overwrite_the_first(
    provider: ChromiumProvider, downloads_site: DownloadSite, project: Context
) -> None:
    await ok(provider, project, "browser.open", url=downloads_site.url("/links"))
    await ok(provider, project, "browser.click", selector="#report")
    again = await ok(provider, project, "browser.click", selector="#report")
    assert [saved["filename"] for saved in again["downloads"]] == ["report-2.csv"]
    assert saved_files(project) == ["report-2.csv", "report.csv"]


async def test_a_click_without_a_download_lists_none(
    provider: ChromiumProvider, downloads_site: DownloadSite, project: Context
) -> None:
    await ok(provider, project, "browser.open", url=downloads_site.url("/links"))
    clicked = await ok(provider, project, "browser.click", selector="#nothing")
    assert "downloads" not in clicked


async def test_a_name_that_points_elsewhere_is_saved_under_a_safe_name_in_the_folder(
    provider: ChromiumProvider, downloads_site: DownloadSite, project: Context
) -> None:
    await ok(provider, project, "browser.open", url=downloads_site.url("/links"))
    clicked = await ok(provider, project, "browser.click", selector="#evil")
    assert [saved["filename"] for saved in clicked["downloads"]] == ["evil-name.csv"]
    assert saved_files(project) == ["evil-name.csv"]


async def test_safe_filenames_keep_letters_digits_and_the_extension() -> None:
    assert safe_filename("../../etc/report 2024.CSV") == "etc-report-2024.CSV"
    assert safe_filename("...") == "download"
    assert safe_filename("noextension") == "noextension"


async def test_a_file_over_the_size_limit_is_cancelled_and_reported_not_saved(
    provider: ChromiumProvider,
    downloads_site: DownloadSite,
    project: Context,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Downloads, "max_bytes", 10_000)
    await ok(provider, project, "browser.open", url=downloads_site.url("/links"))
    clicked = await ok(provider, project, "browser.click", selector="#big")
    assert clicked["downloads"] == [
        {"filename": "big.bin", "error": "larger than 0.01 MB; cancelled, not saved"}
    ]
    assert saved_files(project) == []


async def test_a_downloads_folder_that_is_a_link_is_refused(
    provider: ChromiumProvider, downloads_site: DownloadSite, project: Context, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (Path(str(project.directory)) / ".browserhost").symlink_to(elsewhere)
    await ok(provider, project, "browser.open", url=downloads_site.url("/links"))
    clicked = await ok(provider, project, "browser.click", selector="#report")
    [told] = clicked["downloads"]
    assert "path" not in told
    assert "is a link; downloads are never saved through one" in told["error"]
    assert list(elsewhere.iterdir()) == []


async def test_without_a_project_downloads_go_to_the_data_dir(
    provider: ChromiumProvider,
    downloads_site: DownloadSite,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    monkeypatch.setenv("BROWSERHOST_DATA_DIR", str(tmp_path / "data"))
    no_project = Context(session_id=request.node.name)
    await ok(provider, no_project, "browser.open", url=downloads_site.url("/links"))
    clicked = await ok(provider, no_project, "browser.click", selector="#report")
    saved = tmp_path / "data" / "downloads" / "report.csv"
    assert clicked["downloads"] == [{"filename": "report.csv", "path": str(saved)}]
    assert saved.read_bytes() == REPORT
    assert stat.S_IMODE(saved.parent.stat().st_mode) == 0o700  # no other user reads them


async def test_the_download_verb_clicks_and_answers_the_file(
    provider: ChromiumProvider, downloads_site: DownloadSite, project: Context
) -> None:
    await ok(provider, project, "browser.open", url=downloads_site.url("/links"))
    got = await ok(provider, project, "verb.download", text="Get the report")
    path = Path(str(project.directory)) / ".browserhost" / "downloads" / "report.csv"
    assert got["filename"] == "report.csv"
    assert got["path"] == str(path)
    assert path.read_bytes() == REPORT


async def test_the_download_verb_without_a_trigger_waits_for_the_next_download(
    provider: ChromiumProvider, downloads_site: DownloadSite, project: Context
) -> None:
    await ok(provider, project, "browser.open", url=downloads_site.url("/later"))
    got = await ok(provider, project, "verb.download")
    assert got["filename"] == "later.txt"
    assert saved_files(project) == ["later.txt"]


async def test_the_download_verb_says_the_click_was_done_when_nothing_downloads(
    provider: ChromiumProvider, downloads_site: DownloadSite, project: Context
) -> None:
    await ok(provider, project, "browser.open", url=downloads_site.url("/links"))
    error = await refused(provider, project, "verb.download", selector="#nothing", timeoutS=0.5)
    assert error.startswith("The click was done but no download started within 0.5 s")
    assert "nothing was clicked again" in error


async def test_the_download_verb_refuses_a_file_over_the_limit(
    provider: ChromiumProvider,
    downloads_site: DownloadSite,
    project: Context,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Downloads, "max_bytes", 10_000)
    await ok(provider, project, "browser.open", url=downloads_site.url("/links"))
    error = await refused(provider, project, "verb.download", selector="#big")
    assert error == "big.bin was not saved: larger than 0.01 MB; cancelled, not saved."


async def test_an_action_stops_at_the_deadline_the_request_carries(
    provider: ChromiumProvider, downloads_site: DownloadSite, project: Context
) -> None:
    """A caller's short deadline bounds the provider's own wait (here wait_for's 10 s)."""
    await ok(provider, project, "browser.open", url=downloads_site.url("/links"))
    deadline_ms = int(time.time() * 1000) + 2_000
    request = ProviderRequest(
        "deadline-test",
        "verb.wait_for",
        {"selector": "#never", "timeoutS": 10},
        project,
        deadline_ms=deadline_ms,
    )
    with pytest.raises(MayHaveRunError, match=r"verb\.wait_for did not finish within \d"):
        await provider.answer(request)


async def test_a_short_deadline_is_said_in_a_few_digits_of_seconds(
    provider: ChromiumProvider, downloads_site: DownloadSite, project: Context
) -> None:
    """A caller's timeoutMs of 150 leaves the provider about 0.11 s of its own, worked out
    from the deadline: said as that, not as 0.112217 s."""
    await ok(provider, project, "browser.open", url=downloads_site.url("/links"))
    request = ProviderRequest(
        "short-deadline-test",
        "verb.wait_for",
        {"selector": "#never", "timeoutS": 10},
        project,
        deadline_ms=int(time.time() * 1000) + 150,
    )
    with pytest.raises(MayHaveRunError) as stopped:
        await provider.answer(request)
    said = re.fullmatch(
        r"verb\.wait_for did not finish within (0\.\d+) s \(the call's wait, less a moment to "
        r"answer in\), so it may or may not have happened; take a new snapshot to see where "
        r"things stand\.",
        str(stopped.value),
    )
    assert said is not None, str(stopped.value)
    assert said.group(1) == f"{float(said.group(1)):.2g}"  # two significant digits at most
