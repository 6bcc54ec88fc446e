"""The example provider package, installed into a host the way its entry point would: a
service the host starts itself, in a process of its own."""

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
    ProviderNotFoundError,
    ProviderRejectedError,
    UnsupportedError,
)
from browserhost.host import Catalog, Host
from browserhost.host.services import ServiceSettings
from tests.conftest import serving_http

EXAMPLE = Path(__file__).parents[2] / "examples" / "textbrowser"

PAGES = {
    "/": "<title>Home</title><p>Welcome.</p><a href='/about'>About</a> <a href='/a'>Same</a>"
    "<a href='/b'>Same</a>",
    "/about": "<title>About</title><script>var hidden = 1;</script><p>About us.</p>",
}


class _Site(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        agent = f"<title>{self.headers.get('User-Agent')}</title>"
        body = (
            agent if self.path == "/agent" else PAGES.get(self.path, "<title>Missing</title>")
        ).encode()
        self.send_response(200 if self.path in PAGES or self.path == "/agent" else 404)
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


def test_the_record_asks_the_host_to_run_the_provider_as_a_service() -> None:
    record = register()
    assert record["service"] == {"python": "browserhost_textbrowser:TextBrowser"}
    assert "answer" not in record
    assert record["actions"] == [
        "browser.back", "browser.click", "browser.forward", "browser.open", "browser.snapshot",
    ]  # fmt: skip


@pytest.mark.slow
async def test_a_host_starts_the_example_provider_and_drives_it(site: str, tmp_path: Path) -> None:
    settings = ServiceSettings(log_dir=tmp_path / "logs", grace_s=2.0)
    host = Host(tmp_path / "data", Catalog(settings))
    record = register()
    # Installed with pip, the package is importable anywhere; here it is imported from its folder.
    record["service"]["cwd"] = str(EXAMPLE / "src")
    provider = host.catalog.install(record)
    host.select("textbrowser")
    context = Context(session_id="example")
    assert provider.public()["service"] == {"state": "stopped"}
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
        assert provider.service is not None
        assert provider.service.state == "running"
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


@pytest.mark.slow
async def test_the_service_launches_instances_of_its_own_that_actions_reach(
    site: str, tmp_path: Path
) -> None:
    """A provider service declares launch: the host checks the options, sends the launch to
    the service process, routes the instance's actions to it there, and sends the close."""
    settings = ServiceSettings(log_dir=tmp_path / "logs", grace_s=2.0)
    host = Host(tmp_path / "data", Catalog(settings))
    record = register()
    record["service"]["cwd"] = str(EXAMPLE / "src")
    provider = host.catalog.install(record)
    launch = provider.public()["launch"]
    assert isinstance(launch, dict)
    assert launch["operations"] == ["close", "references"]
    context = Context(session_id="example")
    try:
        with pytest.raises(InvalidActionError, match=r"/: Additional properties are not allowed"):
            await host.instances.launch("textbrowser", {"binary": "/bin/sh"})
        assert provider.service is not None
        assert provider.service.state == "stopped"

        row = await host.instances.launch("textbrowser", {"userAgent": "probe/1"}, "probe")
        assert (row["id"], row["status"], row["operations"]) == (
            "textbrowser~probe", "connected", ["close", "references"],
        )  # fmt: skip
        opened = await host.dispatch("browser.open", {"url": site + "/agent"}, context,
                                     "textbrowser~probe")  # fmt: skip
        assert (opened.provider_id, opened.data["title"]) == ("textbrowser~probe", "probe/1")
        assert opened.session is not None
        assert opened.session["status"] == "connected"
        plain = await host.dispatch("browser.open", {"url": site + "/agent"}, context,
                                    "textbrowser")  # fmt: skip
        assert plain.data["title"] == "browserhost-textbrowser"
        found = await host.instances.operate("textbrowser~probe", "references")
        assert found["result"] == {
            "references": [{"kind": "session", "id": "None|example", "label": "Session example"}]
        }
        with pytest.raises(UnsupportedError, match=r"cannot detach \(its provider does not"):
            await host.instances.operate("textbrowser~probe", "detach")

        closed = await host.instances.close("textbrowser~probe")
        assert closed["status"] == "closed"
        with pytest.raises(ProviderNotFoundError):
            await host.dispatch("browser.snapshot", {}, context, "textbrowser~probe")
    finally:
        await host.aclose()
