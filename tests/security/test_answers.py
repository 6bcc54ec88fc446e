"""Issue 25, item 4: a provider's answer that does not fit its action's data (a url that is a
number, NaN) is UNKNOWN_RESULT (502, may have run) on every path: HTTP, MCP, the command line
and the Python client. Never a success, never a 500, never a Python message."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client as McpClient
from mcp.client.streamable_http import streamable_http_client
from websockets.asyncio.client import ClientConnection

from browserhost.client import Client
from browserhost.contract import ACTIONS
from browserhost.contract.errors import UnknownResultError
from browserhost.host import Host
from tests.conftest import TOKEN

from .conftest import WAIT_S, Hosted, answered_meanwhile, connected, receive

SNAPSHOT: dict[str, Any] = {
    "url": "https://example.com/",
    "title": "Example",
    "scope": "page",
    "scrollY": 0,
    "maxScrollY": 0,
    "text": "Example",
    "elements": [
        {
            "selector": "#more",
            "tag": "a",
            "bounds": {"x": 1.5, "y": 2, "width": 30, "height": 10},
            "label": "More",
        }
    ],
    "viewport": {"mode": "desktop", "width": 1280, "height": 800},
}
"""A snapshot that fits :class:`~browserhost.contract.data.SnapshotData`."""

MISFITS = {
    "url-is-a-number": json.dumps({"ok": True, "data": {"url": 5}}),
    "no-elements": json.dumps(
        {"ok": True, "data": {k: v for k, v in SNAPSHOT.items() if k != "elements"}}
    ),
    "nan": json.dumps({"ok": True, "data": SNAPSHOT}).replace('"x": 1.5', '"x": NaN'),
    "infinity": json.dumps({"ok": True, "data": SNAPSHOT}).replace('"y": 2', '"y": -Infinity'),
}
"""Answers to browser.snapshot as the far side writes them (NaN is not JSON, so by hand)."""


async def answering(socket: ClientConnection, answer: str) -> None:
    """Answer the next tool call with ``answer`` (JSON text of the provider's result)."""
    call = await receive(socket)
    assert call["name"] == "browser.snapshot"
    await socket.send(f'{{"t":"tool.result","id":"{call["id"]}","ok":true,"result":{answer}}}')


async def asked(hosted: Hosted, answer: str, asking: Callable[[], Awaitable[Any]]) -> Any:
    """What ``asking`` comes back with when the bridge answers its snapshot with ``answer``."""
    socket = await connected(hosted)
    try:
        outcome, _ = await asyncio.gather(
            answered_meanwhile(hosted, asking()), answering(socket, answer)
        )
    finally:
        await socket.close()
    return outcome


@pytest.mark.parametrize("misfit", list(MISFITS))
async def test_over_http_an_answer_that_does_not_fit_is_unknown_result(
    hosted: Hosted, misfit: str
) -> None:
    answered = await asked(hosted, MISFITS[misfit], lambda: hosted.act("browser.snapshot", {}))
    assert answered.status_code == 502, answered.text
    body = answered.json()
    assert (body["ok"], body["code"]) == (False, "UNKNOWN_RESULT")
    assert body["error"].endswith("take a snapshot before acting again.")
    assert "Traceback" not in body["error"]


async def test_a_fitting_answer_still_comes_back_whole(hosted: Hosted) -> None:
    answer = json.dumps({"ok": True, "data": {**SNAPSHOT, "extra": {"kept": True}}})
    answered = await asked(hosted, answer, lambda: hosted.act("browser.snapshot", {}))
    assert answered.status_code == 200, answered.text
    assert answered.json()["data"] == {**SNAPSHOT, "extra": {"kept": True}}


async def test_the_message_says_which_field_did_not_fit(hosted: Hosted) -> None:
    answered = await asked(
        hosted, MISFITS["url-is-a-number"], lambda: hosted.act("browser.snapshot", {})
    )
    assert (
        "answered browser.snapshot with data that does not fit it (url: Input should be a valid "
        "string)"
    ) in answered.json()["error"]


@asynccontextmanager
async def mcp_session(hosted: Hosted) -> AsyncIterator[McpClient]:
    async with httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {TOKEN}"}, timeout=WAIT_S * 3, trust_env=False
    ) as http:
        client = McpClient(
            streamable_http_client(f"{hosted.url}/mcp", http_client=http),
            read_timeout_seconds=WAIT_S * 3,
        )
        async with client:
            yield client


@pytest.mark.parametrize("misfit", ["url-is-a-number", "nan"])
async def test_over_mcp_an_answer_that_does_not_fit_is_an_unknown_result_tool_error(
    hosted: Hosted, misfit: str
) -> None:
    async with mcp_session(hosted) as client:
        called = await asked(
            hosted, MISFITS[misfit], lambda: client.call_tool("browser_snapshot", {})
        )
    assert called.is_error
    assert called.content[0].text.startswith("UNKNOWN_RESULT: ")
    assert called.structured_content == {
        "code": "UNKNOWN_RESULT",
        "error": called.structured_content["error"],
        "mayHaveRun": True,
    }


@pytest.mark.slow
async def test_from_the_command_line_it_is_unknown_result_in_one_line(hosted: Hosted) -> None:
    async def snapshot() -> tuple[int, str, str]:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "browserhost", "snapshot", "--url", hosted.url,
            "--token", TOKEN,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await process.communicate()
        assert process.returncode is not None
        return process.returncode, out.decode(), err.decode()

    status, out, err = await asked(hosted, MISFITS["url-is-a-number"], snapshot)
    assert status == 4  # may have run
    assert out == ""
    assert err.startswith("UNKNOWN_RESULT: ")
    assert "Traceback" not in err


async def test_the_python_client_raises_unknown_result_even_for_the_raw_answer(
    hosted: Hosted,
) -> None:
    async def snapshot() -> BaseException | None:
        async with Client(hosted.url, TOKEN) as client:
            try:
                await client.run("browser.snapshot")
            except UnknownResultError as exc:
                return exc
        return None

    raised = await asked(hosted, MISFITS["url-is-a-number"], snapshot)
    assert isinstance(raised, UnknownResultError)
    assert raised.may_have_run
    assert "does not fit it (url: " in raised.message


def in_process(answer: object) -> dict[str, Any]:
    async def handle(_: object) -> object:
        return answer

    return {"id": "inner", "provides": ["browser"], "actions": list(ACTIONS), "answer": handle}


@pytest.mark.parametrize(
    "answer",
    [
        {"ok": True, "data": {"url": "https://example.com/", "title": None}},
        {"ok": True, "data": {"url": "https://example.com/", "title": "t", "dialogs": "none"}},
    ],
    ids=["null-title", "dialogs-not-a-list"],
)
async def test_an_in_process_provider_is_held_to_the_same_data(
    tmp_path: Path, answer: object
) -> None:
    host = Host(tmp_path / "data")
    host.catalog.install(in_process(answer))
    try:
        with pytest.raises(UnknownResultError, match="take a snapshot before acting again"):
            await host.dispatch("browser.back", provider_id="inner")
    finally:
        await host.aclose()
