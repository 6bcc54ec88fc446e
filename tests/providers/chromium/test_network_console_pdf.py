"""The chromium provider's ``network``, ``console`` and ``pdf`` verbs on a real page: the
requests the site really received, the page's own console, and a PDF with the page's text."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PageObject, PdfReader

from browserhost.contract import Context
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider
from browserhost.providers.chromium.console_log import CONSOLE_KEPT

from .driving import ok, refused
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")


def first_page(path: Path) -> tuple[int, PageObject]:
    """A PDF file's size in bytes and its first page."""
    document = path.read_bytes()
    return len(document), PdfReader(io.BytesIO(document)).pages[0]


def paper(page: PageObject) -> tuple[int, int]:
    """A PDF page's width and height in whole millimetres (72 points to the inch)."""
    width, height = page.mediabox.upper_right
    return round(float(width) / 72 * 25.4), round(float(height) / 72 * 25.4)


def by_path(requests: list[dict[str, object]], site: Site) -> dict[str, dict[str, object]]:
    return {str(r["url"]).removeprefix(site.origin): r for r in requests}


async def test_network_lists_the_requests_the_page_made_with_their_outcome(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/requests"))
    listed = await ok(provider, ctx, "verb.network")
    seen = by_path(listed["requests"], site)
    assert set(seen) == {
        "/requests", "/missing.png", "/answer-later?ms=10", "http://127.0.0.1:9/refused",
    }  # fmt: skip
    for path in ("/requests", "/missing.png", "/answer-later?ms=10"):
        assert site.arrived[path] >= 1  # each one the site really received
    page = seen["/requests"]
    assert (page["method"], page["type"], page["status"]) == ("GET", "document", 200)
    assert isinstance(page["size"], int)
    assert page["size"] > len("Requests page")
    assert isinstance(page["ms"], int)
    assert (seen["/missing.png"]["type"], seen["/missing.png"]["status"]) == ("image", 404)
    assert seen["/answer-later?ms=10"]["type"] == "fetch"
    refused_one = seen["http://127.0.0.1:9/refused"]
    assert str(refused_one["failed"]).startswith("net::ERR_")
    assert refused_one["status"] is None
    assert "failed" not in page
    assert (listed["total"], listed["omitted"], listed["dropped"]) == (4, 0, 0)
    assert listed["url"] == site.url("/requests")


async def test_network_filters_by_url_type_and_failure_and_keeps_the_latest(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/requests"))
    fetched = await ok(provider, ctx, "verb.network", url="answer-later")
    assert [r["url"] for r in fetched["requests"]] == [site.url("/answer-later?ms=10")]
    images = await ok(provider, ctx, "verb.network", types=["image", "xhr"])
    assert [r["url"] for r in images["requests"]] == [site.url("/missing.png")]
    failed = await ok(provider, ctx, "verb.network", failed=True)
    assert set(by_path(failed["requests"], site)) == {
        "/missing.png", "http://127.0.0.1:9/refused"
    }  # fmt: skip
    latest = await ok(provider, ctx, "verb.network", limit=1)
    assert (len(latest["requests"]), latest["total"], latest["omitted"]) == (1, 4, 3)
    assert latest["requests"][0]["url"] != site.url("/requests")  # the document came first


async def test_network_starts_again_with_each_document_the_page_loads(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/requests"))
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    listed = await ok(provider, ctx, "verb.network")
    assert [r["url"] for r in listed["requests"]] == [site.url("/page-a")]


async def test_console_lists_messages_and_errors_since_load_or_since_the_last_call(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/console"))
    read = await ok(provider, ctx, "verb.console")
    said = [(m["level"], m["text"]) for m in read["messages"]]
    assert said == [
        ("error", "boom error"),
        ("warning", "careful warning"),
        ("log", "plain log"),
        ("error", "Uncaught Error: uncaught kaboom"),
    ]
    assert all(str(m["source"]).startswith(site.url("/console")) for m in read["messages"])
    assert read["messages"][-1]["source"] == site.url("/console:1")  # from the error's stack
    assert (read["since"], read["total"], read["dropped"]) == ("load", 4, 0)

    assert (await ok(provider, ctx, "verb.console", since="last"))["messages"] == []
    page = provider.page_for(ctx)
    assert page is not None
    async with page.expect_console_message(lambda m: m.text == "later"):
        await page.evaluate("console.info('later')")
    later = await ok(provider, ctx, "verb.console", since="last")
    assert [(m["level"], m["text"]) for m in later["messages"]] == [("info", "later")]
    again = await ok(provider, ctx, "verb.console", since="load")
    assert len(again["messages"]) == 5

    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    assert (await ok(provider, ctx, "verb.console"))["messages"] == []


async def test_console_keeps_the_latest_messages_and_says_how_many_were_dropped(
    provider: ChromiumProvider, site: Site, ctx: Context
) -> None:
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    page = provider.page_for(ctx)
    assert page is not None
    logged = CONSOLE_KEPT + 50
    async with page.expect_console_message(lambda m: m.text == f"m{logged - 1}"):
        await page.evaluate(f"for (let i = 0; i < {logged}; i++) console.log('m' + i)")
    read = await ok(provider, ctx, "verb.console", limit=3)
    assert [m["text"] for m in read["messages"]] == [f"m{logged - 3}", f"m{logged - 2}", "m249"]
    assert (read["total"], read["omitted"], read["dropped"]) == (CONSOLE_KEPT, 197, 50)


async def test_pdf_saves_the_page_with_its_text_next_to_the_captures(
    provider: ChromiumProvider, site: Site, tmp_path: Path
) -> None:
    ctx = Context(directory=str(tmp_path), session_id="pdf")
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    saved = await ok(provider, ctx, "verb.pdf", label="../../page a")
    path = Path(saved["path"])
    assert path.parent == tmp_path / ".browserhost" / "captures"
    assert path.name.endswith("-page-a.pdf")
    size, page = first_page(path)
    assert (saved["bytes"], saved["title"]) == (size, "Page A")
    assert "This is page A" in page.extract_text()
    assert paper(page) == (210, 297)  # A4, in millimetres

    wide = await ok(provider, ctx, "verb.pdf", paper="Letter", landscape=True, background=True)
    _, page = first_page(Path(wide["path"]))
    assert paper(page) == (279, 216)  # Letter, across
    assert "This is page A" in page.extract_text()


async def test_pdf_without_a_project_directory_is_refused(
    provider: ChromiumProvider, site: Site
) -> None:
    ctx = Context(directory=None, session_id="pdf-nowhere")
    await ok(provider, ctx, "browser.open", url=site.url("/page-a"))
    error = await refused(provider, ctx, "verb.pdf")
    assert error.startswith("The session has no project directory to save the PDF in")
    assert error.endswith(
        "work in one from the open on (on the command line: --project DIR on each command)."
    )
    assert "nothing was saved" in error


async def test_pdf_in_a_headed_browser_is_refused_before_it_starts(tmp_path: Path) -> None:
    headed = ChromiumProvider(ChromiumConfig(headless=False))
    try:
        ctx = Context(directory=str(tmp_path), session_id="headed")
        error = await refused(headed, ctx, "verb.pdf")
        assert error.startswith("Chromium prints a page to PDF only when it runs headless")
        assert headed.status() == "stopped"
        assert not (tmp_path / ".browserhost").exists()
    finally:
        await headed.aclose()
