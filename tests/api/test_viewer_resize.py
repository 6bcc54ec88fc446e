"""The viewer's size while a person holds control: sent in device pixels with their ratio, laid
out by the provider in CSS pixels."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, WebSocket

from browserhost.api.viewer import css_size
from browserhost.contract.surface import Size
from browserhost.providers.stub import StubProvider

from .viewing import Served, click_picture, serving, wait_for_picture


@pytest.mark.parametrize(
    ("message", "size"),
    [
        ({"width": 1600, "height": 1200, "devicePixelRatio": 2}, Size(width=800, height=600)),
        ({"width": 1000, "height": 750, "devicePixelRatio": 1.25}, Size(width=800, height=600)),
        ({"width": 800, "height": 600}, Size(width=800, height=600)),  # no ratio: CSS pixels
        ({"width": 1600, "height": 1200, "devicePixelRatio": 0}, None),
        ({"width": 1600, "height": 1200, "devicePixelRatio": "2"}, None),
        ({"width": 1600, "height": 1200, "devicePixelRatio": True}, None),
        ({"width": float("inf"), "height": 1200, "devicePixelRatio": 2}, None),
        ({"width": 100, "height": 100, "devicePixelRatio": 2}, None),  # 50 CSS px: too small
    ],
)
def test_a_viewer_size_in_device_pixels_is_laid_out_in_css_pixels(
    message: dict[str, Any], size: Size | None
) -> None:
    assert css_size(message) == size


@pytest.fixture
def stub_host(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path / "data", StubProvider().registration()) as served:
        yield served


@pytest.mark.asyncio(loop_scope="module")
async def test_a_viewer_at_twice_the_pixels_sends_device_pixels_and_sees_its_css_size(
    browser: Browser, stub_host: Served
) -> None:
    page = await browser.new_page(device_scale_factor=2, viewport={"width": 900, "height": 700})
    resized: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def watch(socket: WebSocket) -> None:
        def sent(payload: str | bytes) -> None:
            message = json.loads(payload) if isinstance(payload, str) else {}
            if message.get("t") == "resize":
                resized.put_nowait(message)

        socket.on("framesent", sent)

    page.on("websocket", watch)
    await page.goto(stub_host.viewer)
    await wait_for_picture(page)
    await click_picture(page, 10, 10)  # taking control lays the page out at the viewer's size
    async with asyncio.timeout(10):
        message = await resized.get()
    stage = await page.eval_on_selector(
        "#stage",
        "s => { const b = s.getBoundingClientRect(); "
        "return [b.width, b.height, Math.round(b.width * 2), Math.round(b.height * 2)]; }",
    )
    assert message == {
        "t": "resize",
        "width": stage[2],
        "height": stage[3],
        "devicePixelRatio": 2,
    }
    laid_out = css_size(message)
    assert laid_out is not None
    css = (laid_out.width, laid_out.height)
    assert abs(css[0] - stage[0]) <= 1  # the size the person sees, in CSS pixels
    assert abs(css[1] - stage[1]) <= 1
    await page.wait_for_function(
        "([w, h]) => { const p = document.getElementById('picture'); "
        "return p.width === w && p.height === h; }",
        arg=list(css),
        timeout=10_000,
    )
    await page.close()
