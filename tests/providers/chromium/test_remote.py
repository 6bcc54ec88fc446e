"""A remote browser: a Chromium the test starts with --remote-debugging-port, reached over
DevTools (``connect_over_cdp``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import NamedTuple

import httpx
import pytest
import pytest_asyncio

from browserhost.contract import Context
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider

from .driving import TEST_TIMEOUTS, ok, refused
from .site import Site

pytestmark = pytest.mark.asyncio(loop_scope="module")

CTX = Context(directory="/work/app", session_id="remote")


class Remote(NamedTuple):
    http: str
    """``http://127.0.0.1:port``"""
    socket: str
    """``ws://127.0.0.1:port/devtools/browser/<id>``"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def devtools(
    chromium_path: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Remote]:
    """A headless Chromium of the test's own, listening for DevTools."""
    profile: Path = tmp_path_factory.mktemp("remote-profile")
    flags = [
        "--headless",
        "--disable-gpu",
        "--remote-debugging-port=0",
        f"--user-data-dir={profile}",
    ]
    if os.geteuid() == 0:
        flags.append("--no-sandbox")
    process = await asyncio.create_subprocess_exec(
        chromium_path,
        *flags,
        "about:blank",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    async with asyncio.timeout(20):
        while True:
            line = (await process.stderr.readline()).decode()
            assert line, "Chromium exited before it listened for DevTools"
            if "DevTools listening on ws://" in line:
                break
    socket = "ws://" + line.split("ws://", 1)[1].strip()
    port = socket.split("/")[2].rsplit(":", 1)[1]
    drain = asyncio.create_task(process.stderr.read())  # keep Chromium's log pipe flowing
    yield Remote(f"http://127.0.0.1:{port}", socket)
    process.terminate()
    async with asyncio.timeout(10):
        await process.wait()
    drain.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await drain


async def _targets(endpoint: str) -> list[str]:
    async with httpx.AsyncClient(trust_env=False, timeout=5) as client:
        listed = (await client.get(f"{endpoint}/json/list")).json()
    return [target["url"] for target in listed if target["type"] == "page"]


@pytest.mark.parametrize("route", ["http", "socket"])
async def test_a_devtools_endpoint_is_driven_like_a_local_browser(
    devtools: Remote, site: Site, route: str
) -> None:
    endpoint = devtools.http if route == "http" else devtools.socket
    provider = ChromiumProvider(ChromiumConfig(endpoint=endpoint), timeouts=TEST_TIMEOUTS)
    try:
        await ok(provider, CTX, "browser.open", url=site.url("/button"))
        assert site.url("/button") in await _targets(devtools.http)
        await ok(provider, CTX, "browser.click", selector="#toggle")
        assert (await ok(provider, CTX, "browser.snapshot"))["text"] == "Clicked!"
    finally:
        await provider.aclose()
    # Closing the provider closes its contexts, not someone else's browser.
    assert await _targets(devtools.http) == ["about:blank"]


async def test_an_unreachable_endpoint_is_refused_without_naming_it(
    unused_tcp_port: int,
) -> None:
    endpoint = f"http://127.0.0.1:{unused_tcp_port}"
    provider = ChromiumProvider(ChromiumConfig(endpoint=endpoint), timeouts=TEST_TIMEOUTS)
    try:
        error = await refused(provider, CTX, "browser.snapshot")
    finally:
        await provider.aclose()
    assert error == (
        "Could not connect to the remote browser set by BROWSERHOST_CHROMIUM_ENDPOINT; check "
        "that it is running and reachable from this machine."
    )
    assert str(unused_tcp_port) not in error


async def test_an_endpoint_that_is_not_ws_or_http_is_refused() -> None:
    provider = ChromiumProvider(ChromiumConfig(endpoint="ftp://127.0.0.1:9222"))
    try:
        error = await refused(provider, CTX, "browser.snapshot")
    finally:
        await provider.aclose()
    assert error == (
        "BROWSERHOST_CHROMIUM_ENDPOINT must be a ws:// Playwright browser-server URL or an "
        "http://host:port DevTools URL."
    )
