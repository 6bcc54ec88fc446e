"""A host served in this process (so a test can count what its provider receives), and the
viewer page opened in a real Chromium, for the viewer's tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browserhost.api.app import create_app
from browserhost.contract import ProviderRequest
from browserhost.host import Host
from browserhost.providers.chromium import features
from browserhost.providers.chromium.launch import LAUNCH_FLAGS, sandboxed
from tests.conftest import TOKEN, listening

ACTIONS = "/api/browser-providers/actions"


@dataclass
class Served:
    host: Host
    url: str
    received: list[str]
    """The actions that reached the provider, in order."""

    def client(self) -> httpx.Client:
        return httpx.Client(
            base_url=self.url,
            headers={"Authorization": f"Bearer {TOKEN}"},
            timeout=60,
            trust_env=False,
        )

    @property
    def viewer(self) -> str:
        return f"{self.url}/viewer/#token={TOKEN}"


def counting(record: dict[str, Any], received: list[str]) -> dict[str, Any]:
    """``record`` with its answer handler counting what reaches it (a service's record as it
    is: what reaches a process is in its log)."""
    if "answer" not in record:
        return record
    answer = record["answer"]

    async def counted(request: ProviderRequest) -> Any:
        received.append(request.action)
        return await answer(request)

    return {**record, "answer": counted}


@contextmanager
def serving(data_dir: Path, record: dict[str, Any]) -> Iterator[Served]:
    """``record``'s provider, selected, behind the real app on a loopback port."""
    received: list[str] = []
    host = Host(data_dir)
    host.catalog.install(counting(record, received))
    host.select(record["id"])
    bound = listening()
    port = bound.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(host, TOKEN), log_level="warning"))
    thread = threading.Thread(target=server.run, args=([bound],), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the host did not start")
        time.sleep(0.05)  # polling a starting server: there is no event to wait on
    try:
        yield Served(host, f"http://127.0.0.1:{port}", received)
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def launch_options(chromium_path: str) -> dict[str, Any]:
    """Chromium as the provider starts it: its flags, and no address bar popup per window."""
    started, unshown = features.launch_command(chromium_path)
    return {
        "executable_path": started,
        "args": [*LAUNCH_FLAGS, *unshown],
        "chromium_sandbox": sandboxed(),
        "headless": True,
    }


async def control_text(page: Page) -> str:
    return str(await page.text_content("#control"))


async def wait_for_control(page: Page, text: str, timeout_s: float = 30.0) -> None:
    """Until the viewer's control line reads ``text``; else what the viewer showed instead."""
    try:
        await page.wait_for_function(
            "want => document.getElementById('control').textContent === want",
            arg=text,
            timeout=timeout_s * 1000,
        )
    except PlaywrightTimeoutError:
        shown = await page.evaluate("() => document.body.innerText")
        raise AssertionError(f"the viewer never read {text!r}; it showed:\n{shown}") from None


async def wait_for_picture(page: Page, timeout_s: float = 15.0) -> tuple[int, int]:
    """Until a picture is drawn; its size in frame pixels."""
    await page.wait_for_function(
        "() => document.getElementById('empty').hidden && "
        "document.getElementById('picture').width > 0",
        timeout=timeout_s * 1000,
    )
    size = await page.evaluate(
        "() => [document.getElementById('picture').width, "
        "document.getElementById('picture').height]"
    )
    return int(size[0]), int(size[1])


async def click_picture(page: Page, x: float, y: float) -> None:
    """Click the picture at frame pixel ``x, y``, as a person would with the mouse."""
    box = await page.locator("#picture").bounding_box()
    assert box is not None
    width, height = await page.evaluate(
        "() => [document.getElementById('picture').width, "
        "document.getElementById('picture').height]"
    )
    point = box["x"] + x * box["width"] / width, box["y"] + y * box["height"] / height
    hit = await page.evaluate(
        "([x, y]) => { const el = document.elementFromPoint(x, y); return el && el.outerHTML; }",
        list(point),
    )
    assert str(hit).startswith('<canvas id="picture"'), f"the picture is under {hit}"
    await page.mouse.click(*point)


async def wait_for_picture_size(
    page: Page, size: tuple[int, int] | None = None, timeout_s: float = 30.0
) -> None:
    """Until the picture drawn is ``size`` frame pixels, or by default the size of the stage
    it is shown in (in device pixels): the size the viewer asks for while its person holds
    control."""
    await page.wait_for_function(
        """(size) => {
          const picture = document.getElementById("picture");
          const stage = document.getElementById("stage").getBoundingClientRect();
          const ratio = window.devicePixelRatio || 1;
          const [width, height] = size
            || [Math.round(stage.width * ratio), Math.round(stage.height * ratio)];
          return picture.width === width && picture.height === height;
        }""",
        arg=None if size is None else list(size),
        timeout=timeout_s * 1000,
    )


async def host_caught_up(page: Page, timeout_s: float = 30.0) -> None:
    """Until the host has handled everything the viewer sent so far.

    The host handles a viewer's messages one at a time in the order they came, and answers
    a ``copy`` (which changes nothing) with the clipboard: once that answer is back, all that
    went before it was handled. The viewer sends a pointer move at the next animation frame,
    so the copy goes two frames on, behind any move the page took."""
    await page.evaluate(
        """(timeoutMs) => new Promise((resolve, reject) => {
          setTimeout(() => reject(new Error("the host did not answer the copy")), timeoutMs);
          requestAnimationFrame(() => requestAnimationFrame(() => {
            socket.addEventListener("message", function answered(event) {
              if (typeof event.data === "string" && JSON.parse(event.data).t === "clipboard") {
                socket.removeEventListener("message", answered);
                resolve();
              }
            });
            send({ t: "copy" });
          }));
        })""",
        timeout_s * 1000,
    )
