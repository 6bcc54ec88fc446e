"""The example provider package, installed into a host the way its entry point would."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from browserhost_textbrowser import register

from browserhost.contract import Context
from browserhost.contract.errors import (
    InvalidActionError,
    ProviderRejectedError,
    UnsupportedError,
)
from browserhost.host import Host
from tests.conftest import serving_http

EXAMPLE = Path(__file__).parents[2] / "examples" / "textbrowser"

PAGES = {
    "/": "<title>Home</title><p>Welcome.</p><a href='/about'>About</a> <a href='/a'>Same</a>"
    "<a href='/b'>Same</a>",
    "/about": "<title>About</title><script>var hidden = 1;</script><p>About us.</p>",
}


class _Site(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = PAGES.get(self.path, "<title>Missing</title>").encode()
        self.send_response(200 if self.path in PAGES else 404)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the test output is for assertions."""


@pytest.fixture
def site() -> Iterator[str]:
    with serving_http(_Site) as origin:
        yield origin


def test_the_package_declares_its_entry_point() -> None:
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())
    points = project["project"]["entry-points"]["browserhost.providers"]
    assert points == {"textbrowser": "browserhost_textbrowser:register"}


async def test_a_host_drives_the_example_provider(site: str, tmp_path: Path) -> None:
    host = Host(tmp_path)
    host.catalog.install(register())
    host.select("textbrowser")
    context = Context(session_id="example")
    try:
        opened = await host.dispatch("browser.open", {"url": site + "/"}, context)
        page = await host.dispatch("browser.snapshot", {}, context)
        clicked = await host.dispatch("browser.click", {"text": "About"}, context)
        about = await host.dispatch("browser.snapshot", {}, context)
        back = await host.dispatch("browser.back", {}, context)
        found = await host.dispatch("verb.find", {"text": "same"}, context)
        with pytest.raises(InvalidActionError, match=r"verb\.find was refused: text: "):
            await host.dispatch("verb.find", {"text": ""}, context)
        with pytest.raises(ProviderRejectedError, match="2 links read 'Same'"):
            await host.dispatch("browser.click", {"text": "Same"}, context)
        with pytest.raises(UnsupportedError, match=r"does not support browser\.capture"):
            await host.dispatch("browser.capture", {}, context)
    finally:
        await host.aclose()
    assert opened.data["title"] == "Home"
    assert [e["label"] for e in page.data["elements"]] == ["About", "Same", "Same"]
    assert clicked.data == {"clicked": "link-1", "label": "About", "url": site + "/about"}
    assert about.data["text"] == "About us."
    assert back.data == {"url": site + "/", "title": "Home"}
    assert found.data == {
        "elements": [
            {"selector": "link-2", "label": "Same", "href": site + "/a"},
            {"selector": "link-3", "label": "Same", "href": site + "/b"},
        ]
    }
