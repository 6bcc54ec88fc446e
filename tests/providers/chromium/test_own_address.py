"""browserhost's own address, however a page spells it, is never shown nor reached: the agent's
open is refused, and a frame, a fetch, an image, a redirect or a window that goes there is
blocked in the browser's network stack (:mod:`browserhost.providers.chromium.own_address`).

A small server plays the host: one port on ``127.0.0.1``, ``127.0.0.2`` and ``::1``, so that
every spelling would reach it, counting what does. Another serves the pages that try.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import os
import socket
import threading
import urllib.request
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import pytest
import pytest_asyncio

from browserhost.contract import Context
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider

from .driving import TEST_TIMEOUTS, act, in_page, ok, out_line, refused
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")

HOST_TEXT = "The host's own page"
SPELLINGS = {
    "127.0.0.1": "127.0.0.1",
    "localhost": "localhost",
    "localhost.": "localhost.",
    "LocalHost": "localhost",
    "app.localhost.": "app.localhost.",
    "127.0.0.1.": "127.0.0.1",
    "[::ffff:127.0.0.1]": "[::ffff:7f00:1]",
    "2130706433": "127.0.0.1",
    "0x7f000001": "127.0.0.1",
    "0x7f.1": "127.0.0.1",
    "127.1": "127.0.0.1",
    "0177.0.0.1": "127.0.0.1",
    "0.0.0.0": "0.0.0.0",
    "127.0.0.2": "127.0.0.2",
    "[::1]": "[::1]",
}
"""Ways a page may write a loopback host, and how Chromium writes each in the URL it loads."""
OWN = "it is browserhost's own address, which the browser does not show"


class _Quiet(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass

    def _send(self, status: int, body: str, headers: dict[str, str] | None = None) -> None:
        payload = body.encode()
        self.send_response(status)
        for name, value in {"Content-Type": "text/html", **(headers or {})}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


class _Server6(ThreadingHTTPServer):
    address_family = socket.AF_INET6


class Host:
    """The stand-in for browserhost: the same port on three loopback addresses."""

    def __init__(self) -> None:
        self.arrived: Counter[str] = Counter()
        host = self

        class Handler(_Quiet):
            def do_GET(self) -> None:
                host.arrived[self.path] += 1
                self._send(200, f"<title>API</title><p>{HOST_TEXT}</p>")

        self._servers: list[ThreadingHTTPServer] = []
        for _ in range(20):  # another process may hold the port on the other addresses
            first = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
            self.port = first.server_address[1]
            try:
                more = [
                    ThreadingHTTPServer(("127.0.0.2", self.port), Handler),
                    _Server6(("::1", self.port), Handler),
                ]
            except OSError:
                first.server_close()
                continue
            self._servers = [first, *more]
            break
        for server in self._servers:
            server.daemon_threads = True
            threading.Thread(target=server.serve_forever, daemon=True).start()

    def url(self, spelling: str, path: str = "/docs") -> str:
        return f"http://{spelling}:{self.port}{path}"

    def close(self) -> None:
        for server in self._servers:
            server.shutdown()
            server.server_close()


class Elsewhere:
    """Pages on another loopback port that reach for the host."""

    def __init__(self) -> None:
        class Handler(_Quiet):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                asked = parse_qs(parts.query)
                urls = [html.escape(url) for url in asked.get("url", [])]
                if parts.path == "/redirect":
                    self._send(302, "", {"Location": asked["url"][0]})
                elif parts.path == "/frames":
                    frames = "".join(f'<iframe src="{url}"></iframe>' for url in urls)
                    self._send(200, f"<title>Frames</title><p>Frames here</p>{frames}")
                elif parts.path == "/requests":
                    images = "".join(f'<img src="{url}" alt="">' for url in urls)
                    self._send(200, f"<title>Requests</title>{images}{REQUESTS_SCRIPT}")
                elif parts.path == "/links":
                    links = "".join(
                        f'<a href="{url}" target="_blank">Open {url}</a> ' for url in urls
                    )
                    self._send(200, f"<title>Links</title>{links}")
                else:
                    self._send(404, "<p>not found</p>")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def url(self, path: str, *urls: str) -> str:
        query = "&".join(f"url={quote(url, safe='')}" for url in urls)
        return f"http://127.0.0.1:{self._server.server_address[1]}{path}?{query}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


REQUESTS_SCRIPT = """<p id="out">out: waiting</p><script>
const urls = new URLSearchParams(location.search).getAll("url");
Promise.allSettled(urls.map((url) => fetch(url, { mode: "no-cors" }))).then((done) => {
  const reached = done.filter((one) => one.status === "fulfilled").length;
  document.getElementById("out").textContent = `out: ${reached} of ${urls.length} fetched`;
});
</script>"""
"""Each ``fetch`` without CORS resolves when the request got an answer and fails when the
browser blocked it."""


async def _fetched(provider: ChromiumProvider, ctx: Context) -> str:
    """What the requests page says once all its fetches settled."""
    page = provider.page_for(ctx)
    assert page is not None
    await page.wait_for_function("!document.getElementById('out').textContent.endsWith('waiting')")
    return await out_line(provider, ctx)


@pytest.fixture(scope="module")
def host() -> Iterator[Host]:
    running = Host()
    yield running
    running.close()


@pytest.fixture(scope="module")
def elsewhere() -> Iterator[Elsewhere]:
    running = Elsewhere()
    yield running
    running.close()


def _config(chromium_path: str, host: Host, **more: Any) -> ChromiumConfig:
    return ChromiumConfig(
        executable=chromium_path, own_port=host.port, own_host="127.0.0.1", **more
    )


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def guarded(chromium_path: str, host: Host) -> AsyncIterator[ChromiumProvider]:
    shared = ChromiumProvider(_config(chromium_path, host), timeouts=TEST_TIMEOUTS)
    yield shared
    await shared.aclose()


@pytest.fixture(autouse=True)
def nothing_reaches_the_host(host: Host) -> Iterator[None]:
    """Every test here ends with the host having received nothing."""
    host.arrived.clear()
    yield
    assert not host.arrived, f"requests reached the host: {dict(host.arrived)}"


@pytest.mark.parametrize("spelling", SPELLINGS)
async def test_an_open_of_the_hosts_address_is_refused_in_any_spelling(
    guarded: ChromiumProvider, host: Host, ctx: Context, spelling: str
) -> None:
    error = await refused(guarded, ctx, "browser.open", url=host.url(spelling))
    assert error.endswith(f":{host.port}/docs was not opened: {OWN}.")  # host lowercased
    assert (await ok(guarded, ctx, "browser.snapshot"))["url"] == "about:blank"


async def test_an_open_of_another_host_on_its_port_is_refused_as_its_port(
    guarded: ChromiumProvider, host: Host, ctx: Context
) -> None:
    """Any host name may lead to this machine, so the port is refused on every host."""
    url = host.url("localtest.me")
    error = await refused(guarded, ctx, "browser.open", url=url)
    assert error.startswith(f"{url} was not opened: it is on port {host.port}, browserhost's own")
    assert "run browserhost on another port" in error


async def test_iframes_of_the_host_in_any_spelling_show_none_of_it(
    guarded: ChromiumProvider, host: Host, elsewhere: Elsewhere, site: Site, ctx: Context
) -> None:
    """Same-site frames (``127.0.0.1``) load in the page's process, the others in processes
    of their own; one more goes there by a redirect. A frame of another loopback port
    loads."""
    redirected = elsewhere.url("/redirect", host.url("localhost.", "/redirected"))
    frames = [host.url(spelling) for spelling in SPELLINGS] + [redirected, site.url("/page-a")]
    await ok(guarded, ctx, "browser.open", url=elsewhere.url("/frames", *frames))
    snapshot = await ok(guarded, ctx, "browser.snapshot")
    # A blocked frame shows Chromium's error page for it ("the server IP address could not
    # be found"), never the host's.
    assert HOST_TEXT not in snapshot["text"]
    assert "This is page A" in snapshot["text"]


async def test_fetches_and_images_from_a_page_to_the_host_fail(
    guarded: ChromiumProvider, host: Host, elsewhere: Elsewhere, ctx: Context
) -> None:
    urls = [host.url(spelling, "/openapi.json") for spelling in SPELLINGS]
    await ok(guarded, ctx, "browser.open", url=elsewhere.url("/requests", *urls))
    assert await _fetched(guarded, ctx) == f"out: 0 of {len(SPELLINGS)} fetched"


@pytest.mark.parametrize("spelling", SPELLINGS)
async def test_a_redirect_to_the_host_is_blocked_and_said(
    guarded: ChromiumProvider, host: Host, elsewhere: Elsewhere, ctx: Context, spelling: str
) -> None:
    start = elsewhere.url("/redirect", host.url(spelling))
    error = await refused(guarded, ctx, "browser.open", url=start)
    assert error == (
        f"{start} redirected to {host.url(SPELLINGS[spelling])}, which was blocked: {OWN}. "
        "The page is now about:blank."
    )
    # Not left on the error page, which Chromium would load again by itself a second later.
    snapshot = await ok(guarded, ctx, "browser.snapshot")
    assert (snapshot["url"], snapshot["text"]) == ("about:blank", "")


async def test_a_page_that_sends_itself_to_the_host_is_reset_and_told(
    guarded: ChromiumProvider, host: Host, elsewhere: Elsewhere, ctx: Context
) -> None:
    await ok(guarded, ctx, "browser.open", url=elsewhere.url("/frames"))
    page = guarded.page_for(ctx)
    assert page is not None
    async with page.expect_event("requestfailed"):
        await in_page(guarded, ctx, f"location.href = {host.url('0x7f.1')!r}")
    error = await refused(guarded, ctx, "browser.snapshot")
    assert error == (
        f"The page navigated to {host.url('127.0.0.1')}, which was blocked: {OWN}. The page is "
        "now about:blank; browser.snapshot was not run."
    )
    assert (await ok(guarded, ctx, "browser.snapshot"))["url"] == "about:blank"


async def test_a_window_a_click_opens_on_the_host_is_left_and_told(
    guarded: ChromiumProvider, host: Host, elsewhere: Elsewhere, ctx: Context
) -> None:
    url = host.url("[::1]")
    await ok(guarded, ctx, "browser.open", url=elsewhere.url("/links", url))
    # The window's load fails after the click answered, or before: one of the two says so.
    clicked = await act(guarded, ctx, "browser.click", text=f"Open {url}")
    told = clicked.get("error") or await refused(guarded, ctx, "browser.snapshot")
    assert told.startswith(
        f"The page navigated to {url}, which was blocked: {OWN}. The page is now about:blank"
    )
    snapshot = await ok(guarded, ctx, "browser.snapshot")
    assert (snapshot["url"], snapshot["text"]) == ("about:blank", "")


async def test_on_port_80_chromium_blocks_loopback_spellings_and_no_other_port(
    chromium_path: str, elsewhere: Elsewhere, ctx: Context
) -> None:
    """Nothing need listen on port 80 here: a blocked host does not even resolve, where one
    let through is refused by the machine."""
    config = ChromiumConfig(executable=chromium_path, own_port=80, own_host="127.0.0.1")
    provider = ChromiumProvider(config, timeouts=TEST_TIMEOUTS)
    free = socket.socket()
    free.bind(("127.0.0.1", 0))  # bound, not listening: connections to it are refused
    try:
        await ok(provider, ctx, "browser.open", url="about:blank")
        page = provider.page_for(ctx)
        assert page is not None
        failures: dict[str, str | None] = {}
        page.on("requestfailed", lambda request: failures.update({request.url: request.failure}))
        spelled = {
            f"http://{spelling}/": f"http://{chromium}/" for spelling, chromium in SPELLINGS.items()
        }
        elsewhere_port = f"http://127.0.0.1:{free.getsockname()[1]}/"
        await ok(
            provider, ctx, "browser.open", url=elsewhere.url("/frames", *spelled, elsewhere_port)
        )
        assert failures == {
            **{chromium: "net::ERR_NAME_NOT_RESOLVED" for chromium in spelled.values()},
            elsewhere_port: "net::ERR_CONNECTION_REFUSED",
        }
    finally:
        free.close()
        await provider.aclose()


class Proxy:
    """A forwarding HTTP proxy on loopback that counts the URLs it was asked for."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        proxy = self
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))

        class Handler(_Quiet):
            def do_GET(self) -> None:
                proxy.asked.append(self.path)
                try:
                    with direct.open(self.path, timeout=5) as answer:
                        self._send(answer.status, answer.read().decode())
                except OSError as exc:
                    self._send(502, f"<p>{html.escape(str(exc))}</p>")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def server(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


async def test_with_a_proxy_the_hosts_port_is_still_blocked(
    chromium_path: str, host: Host, elsewhere: Elsewhere, ctx: Context
) -> None:
    """Playwright sends loopback through the proxy too; the proxy would reach the host."""
    proxy = Proxy()
    config = _config(chromium_path, host, proxy={"server": proxy.server})
    provider = ChromiumProvider(config, timeouts=TEST_TIMEOUTS)
    try:
        frames = [host.url(spelling) for spelling in SPELLINGS]
        await ok(provider, ctx, "browser.open", url=elsewhere.url("/frames", *frames))
        assert HOST_TEXT not in (await ok(provider, ctx, "browser.snapshot"))["text"]
        assert proxy.asked[0] == elsewhere.url("/frames", *frames)  # the proxy is used
        assert not [url for url in proxy.asked if f":{host.port}/" in url]
    finally:
        await provider.aclose()
        proxy.close()


@pytest_asyncio.fixture(loop_scope="module")
async def devtools_endpoint(chromium_path: str, tmp_path: Path) -> AsyncIterator[str]:
    """A Chromium of the test's own, started without browserhost's flags, listening for
    DevTools: its ``http://127.0.0.1:port`` address."""
    flags = ["--headless", "--remote-debugging-port=0", f"--user-data-dir={tmp_path}"]
    if os.geteuid() == 0:
        flags.append("--no-sandbox")
    process = await asyncio.create_subprocess_exec(
        chromium_path, *flags, "about:blank",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stderr is not None
    try:
        async with asyncio.timeout(20):
            while "DevTools listening on ws://" not in (
                line := (await process.stderr.readline()).decode()
            ):
                assert line, "Chromium exited before it listened for DevTools"
        port = line.split("ws://", 1)[1].split("/")[0].rsplit(":", 1)[1]
        draining = asyncio.create_task(process.stderr.read())  # keep its log pipe flowing
        yield f"http://127.0.0.1:{port}"
        draining.cancel()
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        async with asyncio.timeout(10):
            await process.wait()


async def test_a_browser_connected_to_has_the_hosts_port_blocked_too(
    devtools_endpoint: str, host: Host, elsewhere: Elsewhere, ctx: Context
) -> None:
    """Started by someone else, it lacks the launch flag: the DevTools protocol fails the
    requests instead, in every frame."""
    config = ChromiumConfig(endpoint=devtools_endpoint, own_port=host.port, own_host="127.0.0.1")
    provider = ChromiumProvider(config, timeouts=TEST_TIMEOUTS)
    try:
        redirected = elsewhere.url("/redirect", host.url("localhost.", "/redirected"))
        frames = [host.url(spelling) for spelling in SPELLINGS] + [redirected]
        await ok(provider, ctx, "browser.open", url=elsewhere.url("/frames", *frames))
        assert HOST_TEXT not in (await ok(provider, ctx, "browser.snapshot"))["text"]
        urls = [host.url(spelling, "/openapi.json") for spelling in SPELLINGS]
        await ok(provider, ctx, "browser.open", url=elsewhere.url("/requests", *urls))
        assert await _fetched(provider, ctx) == f"out: 0 of {len(SPELLINGS)} fetched"
        start = elsewhere.url("/redirect", host.url("2130706433"))
        error = await refused(provider, ctx, "browser.open", url=start)
        assert error == (
            f"{start} redirected to {host.url('127.0.0.1')}, which was blocked: {OWN}. "
            "The page is now about:blank."
        )
    finally:
        await provider.aclose()
