from tests.conftest import LiveServer


def test_live_server_lists_the_stub(live_server: LiveServer) -> None:
    with live_server.client() as client:
        answer = client.get("/api/browser-providers")
    assert answer.status_code == 200
    assert answer.json() == {
        "providers": [{"id": "stub", "name": "Stub (no browser)", "surface": False}],
        "selectedId": None,
    }
