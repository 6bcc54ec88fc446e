"""The recordings routes in process: the sessions recorded, a session's steps, a step's
picture, behind the token."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from browserhost.api.app import create_app
from browserhost.host import Host
from browserhost.host.recording import RECORDINGS_DIR, Recorder
from browserhost.host.step_pictures import PictureTaking
from browserhost.providers.stub import register

from .conftest import ACTIONS, AUTH, TOKEN

RECORDINGS = "/api/recordings"
STEPS = "/api/recordings/steps"


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    data = tmp_path / "data"
    quick = PictureTaking(pause_s=0, paint_s=0.01)  # the stub paints nothing after its answer
    host = Host(data, recorder=Recorder(data / RECORDINGS_DIR, enabled=True, pictures=quick))
    host.catalog.install(register())
    host.select("stub")
    yield host
    await host.aclose()


async def act(
    client: httpx.AsyncClient, action: str, session: str | None, **parameters: object
) -> httpx.Response:
    context = {"sessionId": session} if session is not None else None
    return await client.post(
        ACTIONS, json={"action": action, "parameters": parameters, "context": context}
    )


async def test_the_steps_of_a_session_come_back_in_order_with_their_pictures(
    client: httpx.AsyncClient, host: Host
) -> None:
    assert (await act(client, "browser.open", "s1", url="https://example.com/")).status_code == 200
    clicked = await act(client, "browser.click", "s1", selector="#nope")
    assert clicked.json()["code"] == "PROVIDER_REJECTED"
    assert (await act(client, "browser.snapshot", None)).status_code == 200
    await host.recorder.settled()

    listed = (await client.get(RECORDINGS)).json()
    assert listed["recording"] is True
    assert [(row["sessionId"], row["steps"], row["failures"]) for row in listed["sessions"]] in (
        [("s1", 2, 1), (None, 1, 0)],
        [(None, 1, 0), ("s1", 2, 1)],
    )

    answer = (await client.get(STEPS, params={"session": "s1"})).json()
    assert answer["sessionId"] == "s1"
    steps = answer["steps"]
    assert [(step["seq"], step["action"], step["outcome"]) for step in steps] == [
        (1, "browser.open", "ok"),
        (2, "browser.click", "PROVIDER_REJECTED"),
    ]
    assert steps[0]["picture"]["width"] > 0
    assert "base64" not in steps[0]["picture"]  # only when asked for
    assert "#nope" in steps[1]["error"]

    later = (await client.get(STEPS, params={"session": "s1", "after": "1"})).json()["steps"]
    assert [step["seq"] for step in later] == [2]
    unnamed = (await client.get(STEPS)).json()
    assert (unnamed["sessionId"], [step["action"] for step in unnamed["steps"]]) == (
        None,
        ["browser.snapshot"],
    )

    picture = await client.get("/api/recordings/pictures/1", params={"session": "s1"})
    assert picture.status_code == 200
    assert picture.headers["content-type"] == "image/jpeg"
    assert picture.content.startswith(b"\xff\xd8")
    inlined = (await client.get(STEPS, params={"session": "s1", "pictures": "true"})).json()
    assert base64.b64decode(inlined["steps"][0]["picture"]["base64"]) == picture.content


async def test_a_read_right_after_an_action_shows_it_though_its_picture_is_taken_later(
    tmp_path: Path,
) -> None:
    # As a host records by default: each picture is taken a pause after its action, so that
    # an agent's next action can come first. `trace export` right after the last action
    # must still show it.
    data = tmp_path / "data"
    pictures = PictureTaking(pause_s=0.5, paint_s=0.01)
    host = Host(data, recorder=Recorder(data / RECORDINGS_DIR, enabled=True, pictures=pictures))
    host.catalog.install(register())
    host.select("stub")
    transport = httpx.ASGITransport(app=create_app(host, TOKEN))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://127.0.0.1:7878", headers=AUTH
    ) as client:
        assert (await act(client, "browser.open", "s1", url="https://example.com/")).is_success
        clicked = await act(client, "browser.click", "s1", selector="#nope")
        assert clicked.json()["code"] == "PROVIDER_REJECTED"
        steps = (await client.get(STEPS, params={"session": "s1"})).json()["steps"]
    await host.aclose()
    assert [(step["action"], step["outcome"]) for step in steps] == [
        ("browser.open", "ok"),
        ("browser.click", "PROVIDER_REJECTED"),
    ]
    assert steps[1]["picture"]["width"] > 0


async def test_a_session_with_no_recording_has_no_steps_and_a_missing_picture_is_404(
    client: httpx.AsyncClient,
) -> None:
    assert (await client.get(STEPS, params={"session": "never"})).json() == {
        "sessionId": "never",
        "steps": [],
    }
    missing = await client.get("/api/recordings/pictures/7", params={"session": "never"})
    assert missing.status_code == 404
    assert missing.json()["code"] == "NOT_RECORDED"
    assert (await client.get("/api/recordings/pictures/x")).status_code == 404


async def test_a_session_id_that_spells_a_path_reads_nothing_outside_the_recordings(
    client: httpx.AsyncClient, host: Host, tmp_path: Path
) -> None:
    (tmp_path / "secret.jpg").write_bytes(b"not for the caller")
    for session in ("../../secret", "/etc/passwd", "x" * 5_000):
        steps = await client.get(STEPS, params={"session": session})
        assert steps.json()["steps"] == []
        picture = await client.get("/api/recordings/pictures/1", params={"session": session})
        assert picture.status_code == 404
    assert (await client.get(RECORDINGS)).status_code == 200  # the host still answers


@pytest.mark.parametrize(
    "query", [{"after": "-1"}, {"after": "one"}, {"after": ""}, {"pictures": "maybe"}]
)
async def test_a_query_it_cannot_read_is_refused_saying_what_it_takes(
    client: httpx.AsyncClient, query: dict[str, str]
) -> None:
    refused = await client.get(STEPS, params=query)
    assert refused.status_code == 400
    assert refused.json()["code"] == "INVALID_QUERY"
    assert "after takes a step number" in refused.json()["error"]


async def test_the_recordings_need_the_token(client: httpx.AsyncClient) -> None:
    for path in (RECORDINGS, STEPS, "/api/recordings/pictures/1"):
        answer = await client.get(path, headers={"Authorization": "Bearer wrong"})
        assert answer.status_code == 401


async def test_a_host_that_does_not_record_says_so(tmp_path: Path) -> None:
    host = Host(tmp_path / "data")
    transport = httpx.ASGITransport(app=create_app(host, TOKEN))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://127.0.0.1:7878", headers=AUTH
    ) as client:
        assert (await client.get(RECORDINGS)).json() == {"recording": False, "sessions": []}
    await host.aclose()
