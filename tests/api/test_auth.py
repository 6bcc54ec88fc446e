"""The gate in front of /api: token, Host, Origin, media type and size.

Every refusal is checked against the selection: a refused request never changes it. The same
cases run in process and once against a real ``browserhost serve``, where headers and
chunked bodies cross a real socket.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field

import httpx
import pytest

from browserhost.api.app import create_app
from browserhost.host import Host
from browserhost.host.selection import SELECTION_FILE
from tests.api.conftest import ACTIONS, PROVIDERS, SELECTION, TOKEN, selection_bytes
from tests.conftest import LiveServer, start_server
from tests.recording import Recorder

TWO_MIB = 2 * 1024 * 1024


def two_mib_of_json() -> bytes:
    return json.dumps({"id": "stub", "pad": "x" * TWO_MIB}).encode()


async def chunks_of_two_mib() -> AsyncIterator[bytes]:
    body = two_mib_of_json()
    for start in range(0, len(body), 64 * 1024):
        yield body[start : start + 64 * 1024]


@dataclass(frozen=True)
class Refused:
    """One request the gate must refuse, as ``PUT /selection`` asking for the stub.

    ``{token}`` in a header value stands for the server's token, ``{prefix}`` for all of it
    but its last character, ``{upper}`` for it in capitals.
    """

    status: int
    code: str
    headers: dict[str, str] = field(default_factory=dict)
    with_token: bool = True
    body: str = "small"  # small | large | chunked

    def request(self, token: str) -> tuple[bytes | AsyncIterator[bytes], dict[str, str]]:
        headers = {"Content-Type": "application/json"}
        if self.with_token:
            headers["Authorization"] = f"Bearer {token}"
        headers |= {
            name: value.format(token=token, prefix=token[:-1], upper=token.upper())
            for name, value in self.headers.items()
        }
        if self.body == "large":
            return two_mib_of_json(), headers
        if self.body == "chunked":
            return chunks_of_two_mib(), headers
        return b'{"id": "stub"}', headers


REFUSALS = {
    "missing-token": Refused(401, "UNAUTHORIZED", with_token=False),
    "wrong-token": Refused(401, "UNAUTHORIZED", {"Authorization": "Bearer {token}x"}),
    "token-prefix": Refused(401, "UNAUTHORIZED", {"Authorization": "Bearer {prefix}"}),
    "empty-token": Refused(401, "UNAUTHORIZED", {"Authorization": "Bearer"}),
    "token-other-case": Refused(401, "UNAUTHORIZED", {"Authorization": "Bearer {upper}"}),
    "basic-scheme": Refused(401, "UNAUTHORIZED", {"Authorization": "Basic {token}"}),
    "evil-host": Refused(421, "HOST_NOT_ALLOWED", {"Host": "evil.example"}),
    "rebinding-host": Refused(421, "HOST_NOT_ALLOWED", {"Host": "127.0.0.1.evil.example:7878"}),
    "cross-origin": Refused(403, "ORIGIN_NOT_ALLOWED", {"Origin": "http://evil.example"}),
    "null-origin": Refused(403, "ORIGIN_NOT_ALLOWED", {"Origin": "null"}),
    "text-plain": Refused(415, "UNSUPPORTED_MEDIA_TYPE", {"Content-Type": "text/plain"}),
    "form": Refused(
        415, "UNSUPPORTED_MEDIA_TYPE", {"Content-Type": "application/x-www-form-urlencoded"}
    ),
    "two-mib": Refused(413, "BODY_TOO_LARGE", body="large"),
    "two-mib-chunked": Refused(413, "BODY_TOO_LARGE", body="chunked"),
}


@pytest.fixture
async def gated(host: Host) -> AsyncIterator[tuple[httpx.AsyncClient, Recorder]]:
    """A client whose token is added per request, and a selection that names a recorder."""
    recorder = Recorder()
    host.catalog.install(recorder.record())
    host.select("rec")
    transport = httpx.ASGITransport(app=create_app(host, TOKEN))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:7878") as client:
        yield client, recorder


@pytest.mark.parametrize("name", list(REFUSALS))
async def test_the_gate_refuses_and_the_selection_is_unchanged(
    gated: tuple[httpx.AsyncClient, Recorder], host: Host, name: str
) -> None:
    client, _ = gated
    case = REFUSALS[name]
    before = selection_bytes(host)
    content, headers = case.request(TOKEN)
    response = await client.put(SELECTION, content=content, headers=headers)
    assert (response.status_code, response.json()["code"]) == (case.status, case.code)
    assert response.json()["ok"] is False
    assert response.json()["error"]
    assert selection_bytes(host) == before == b'{"selectedId": "rec"}'


async def test_a_wrong_token_is_told_apart_from_none(
    gated: tuple[httpx.AsyncClient, Recorder],
) -> None:
    client, _ = gated
    said = {}
    for name in ("missing-token", "wrong-token", "empty-token"):
        _, headers = REFUSALS[name].request(TOKEN)
        said[name] = (await client.get(SELECTION, headers=headers)).json()["error"]
    basic = {"Authorization": f"Basic {TOKEN}"}
    said["basic"] = (await client.get(SELECTION, headers=basic)).json()["error"]
    hint = "Authorization: Bearer <token>; browserhost serve prints where it is."
    assert said == {
        "missing-token": f"Send {hint}",
        "wrong-token": f"The token sent is not this host's: send {hint}",
        "empty-token": f"Send {hint}",
        "basic": f"Authorization uses Basic, not Bearer: send {hint}",
    }


@pytest.mark.parametrize("name", ["missing-token", "evil-host", "cross-origin", "text-plain"])
async def test_a_refused_action_never_reaches_the_provider(
    gated: tuple[httpx.AsyncClient, Recorder], name: str
) -> None:
    client, recorder = gated
    case = REFUSALS[name]
    _, headers = case.request(TOKEN)
    response = await client.post(ACTIONS, content=b'{"action": "browser.back"}', headers=headers)
    assert response.status_code == case.status
    assert recorder.requests == []


@pytest.mark.parametrize(
    "headers",
    [
        {"Host": "localhost:7878"},
        {"Host": "[::1]:7878"},
        {"Origin": "http://127.0.0.1:7878"},
        {"Content-Type": "application/json; charset=utf-8"},
    ],
)
async def test_same_machine_and_same_origin_requests_pass(
    gated: tuple[httpx.AsyncClient, Recorder], headers: dict[str, str]
) -> None:
    client, _ = gated
    response = await client.put(
        SELECTION,
        content=b'{"id": "stub"}',
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"} | headers,
    )
    assert (response.status_code, response.json()) == (200, {"selectedId": "stub"})


async def test_a_host_allowed_by_the_user_passes(host: Host) -> None:
    app = create_app(host, TOKEN, allowed_hosts=["Browser.Lan"])
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://browser.lan:7878"
    ) as client:
        response = await client.get(PROVIDERS, headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200


async def test_a_body_of_exactly_one_mib_is_accepted(client: httpx.AsyncClient) -> None:
    prefix, suffix = b'{"id": "stub", "pad": "', b'"}'
    body = prefix + b"x" * (1024 * 1024 - len(prefix) - len(suffix)) + suffix
    assert len(body) == 1024 * 1024
    response = await client.put(
        SELECTION, content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 200


async def test_a_request_without_a_body_is_not_asked_for_a_media_type(
    client: httpx.AsyncClient,
) -> None:
    """No body, no media type to refuse: the route answers for what is missing."""
    missing = await client.post(ACTIONS)
    assert (missing.status_code, missing.json()["code"]) == (400, "INVALID_ACTION")
    wrong_method = await client.put(PROVIDERS)
    assert wrong_method.status_code == 405


async def test_the_openapi_document_needs_no_token(client: httpx.AsyncClient) -> None:
    response = await client.get("/openapi.json", headers={"Authorization": ""})
    assert response.status_code == 200
    assert ACTIONS in response.json()["paths"]


# The same refusals across a real socket, against a real server process.


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data_dir = tmp_path_factory.mktemp("gate") / "data"
    data_dir.mkdir()
    (data_dir / SELECTION_FILE).write_text('{"selectedId": "stub"}')
    server = start_server(data_dir)
    yield server
    server.stop()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(REFUSALS))
async def test_the_live_server_refuses_and_the_selection_file_is_unchanged(
    live: LiveServer, name: str
) -> None:
    case = REFUSALS[name]
    path = live.data_dir / SELECTION_FILE
    before = path.read_bytes()
    content, headers = case.request(live.token)
    async with httpx.AsyncClient(base_url=live.url, trust_env=False, timeout=30) as client:
        response = await client.put(SELECTION, content=content, headers=headers)
    assert (response.status_code, response.json()["code"]) == (case.status, case.code)
    assert path.read_bytes() == before
    assert sorted(p.name for p in live.data_dir.iterdir()) == [SELECTION_FILE]


@pytest.mark.slow
@pytest.mark.parametrize("with_token", [True, False], ids=["too-large", "no-token"])
async def test_a_client_still_sending_a_refused_body_reads_the_refusal(
    live: LiveServer, with_token: bool
) -> None:
    """A body over the limit is refused before it is read; closed with it unread, the
    connection would be reset under a client still sending it, which would then see a
    broken connection and not the refusal. The gate reads the rest and drops it first."""
    body = json.dumps({"id": "stub", "pad": "x" * (TWO_MIB * 19 // 10)}).encode()
    headers = {"Content-Type": "application/json"}
    if with_token:
        headers["Authorization"] = f"Bearer {live.token}"
    async with httpx.AsyncClient(base_url=live.url, trust_env=False, timeout=30) as client:
        for _ in range(30):
            response = await client.put(SELECTION, content=body, headers=headers)
            assert response.status_code == (413 if with_token else 401)
