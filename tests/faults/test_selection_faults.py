"""The selection file under real ``browserhost serve`` processes: corrupted while a host runs,
and written by a host that is killed mid-stream while another host reads it.

(The store's own tests, one process writing 1,000 times while a thread reads, are in
``tests/host/test_selection.py``.)
"""

from __future__ import annotations

import random
import signal
import threading
from pathlib import Path

import httpx
import pytest

from browserhost.host.selection import SELECTION_FILE
from tests.conftest import LiveServer, start_server
from tests.processes import Holdings

pytestmark = pytest.mark.slow

PROVIDERS = "/api/browser-providers"
SELECTION = "/api/browser-providers/selection"
ACTIONS = "/api/browser-providers/actions"
CHOICES = ("stub", "chromium")
"""Two installed providers to alternate between; chromium's browser starts only on an action,
and no action is sent to it here."""
WRITES_BEFORE_KILL = 40
KILLS = 3


def act(http: httpx.Client, action: str, **parameters: object) -> httpx.Response:
    context = {"sessionId": "faults", "directory": None}
    return http.post(ACTIONS, json={"action": action, "parameters": parameters, "context": context})


def test_a_corrupt_selection_refuses_every_action_until_the_user_chooses_again(
    tmp_path: Path,
) -> None:
    server = start_server(tmp_path / "data")
    try:
        with server.client() as http:
            assert http.put(SELECTION, json={"id": "stub"}).status_code == 200
            assert act(http, "browser.open", url="http://site.test/").status_code == 200
            before = Holdings.of(server.process.pid)
            (server.data_dir / SELECTION_FILE).write_bytes(b'{"selectedId": "st')
            listing = http.get(PROVIDERS)
            refused = act(http, "browser.open", url="http://site.test/about")
            repaired = http.put(SELECTION, json={"id": "stub"})
            page = act(http, "browser.snapshot")
            before.assert_nothing_more_later()
    finally:
        server.stop()
    assert (listing.status_code, listing.json()["code"]) == (503, "CATALOG_UNAVAILABLE")
    assert (refused.status_code, refused.json()["code"]) == (503, "CATALOG_UNAVAILABLE")
    assert refused.json()["error"].endswith("Nothing ran.")
    assert repaired.json() == {"selectedId": "stub"}
    assert page.json()["data"]["url"] == "http://site.test/", "the refused open ran"


def test_a_host_killed_while_writing_the_selection_leaves_the_last_choice_whole(
    tmp_path: Path,
) -> None:
    """Another host on the same data dir reads throughout (as ``browserhost mcp`` and
    ``browserhost serve`` share one); it never sees a partial file, and every restart of the
    killed host finds the choice it acknowledged last, or the one it was writing."""
    data_dir = tmp_path / "data"
    providers = ",".join(CHOICES)
    reader = start_server(data_dir, providers=providers)
    seen: list[tuple[int, object]] = []
    stop_reading = threading.Event()

    def read() -> None:
        with reader.client() as http:
            while not stop_reading.is_set():
                answer = http.get(PROVIDERS)
                seen.append((answer.status_code, answer.json().get("selectedId")))

    before = Holdings.of(reader.process.pid)
    reading = threading.Thread(target=read)
    reading.start()
    try:
        for _ in range(KILLS):
            writer = start_server(data_dir, providers=providers)
            with writer.client() as http:
                if (answer := http.get(PROVIDERS)).status_code == 200:
                    stored = answer.json()["selectedId"]
                    assert stored in {None, *CHOICES}
                acknowledged, sending = written_until_killed(writer, http)
            writer.process.wait(timeout=10)
            after = start_server(data_dir, providers=providers)
            with after.client() as http:
                answer = http.get(PROVIDERS)
            after.stop()
            assert answer.status_code == 200, answer.text
            assert answer.json()["selectedId"] in {acknowledged, sending}
            assert len(list(data_dir.glob(".selection-*.tmp"))) <= KILLS
    finally:
        stop_reading.set()
        reading.join(timeout=30)
        # The reader's connection is closed on its side; the server closes its end in its own time.
        try:
            before.assert_nothing_more_later()
        finally:
            reader.stop()
    assert len(seen) > KILLS * WRITES_BEFORE_KILL // 10, "the reader hardly read"
    assert {status for status, _ in seen} == {200}
    assert {selected for _, selected in seen} <= {None, *CHOICES}


def written_until_killed(writer: LiveServer, http: httpx.Client) -> tuple[str | None, str]:
    """Alternate the selection through ``writer`` and SIGKILL it at a random write after
    :data:`WRITES_BEFORE_KILL`, from another thread while a write is under way; return the
    last choice it acknowledged and the one it was sent when it died."""
    kill_at = WRITES_BEFORE_KILL + random.randrange(WRITES_BEFORE_KILL)
    acknowledged: str | None = None
    for number in range(10 * WRITES_BEFORE_KILL):
        choice = CHOICES[number % 2]
        if number == kill_at:
            threading.Timer(
                random.uniform(0, 0.01), writer.process.send_signal, [signal.SIGKILL]
            ).start()
        try:
            answer = http.put(SELECTION, json={"id": choice})
        except httpx.TransportError:
            return acknowledged, choice
        assert answer.json() == {"selectedId": choice}
        acknowledged = choice
    raise AssertionError("the writer was never killed")
