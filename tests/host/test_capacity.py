"""A provider's capacity in the providers listing, in process: what it counted, and what the
listing says instead when the count is slow, fails or is not one; the listing never fails."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from browserhost.api.app import create_app
from browserhost.host import Host, InstallError
from browserhost.host import capacity as capacity_module
from browserhost.providers.stub import register

TOKEN = "capacity-test-token"

Counter = Callable[[], Awaitable[object]]


async def _listed(tmp_path: Path, counter: Counter | None) -> dict[str, Any]:
    """The stub's row of ``GET /api/browser-providers``, with ``counter`` as its capacity."""
    host = Host(tmp_path / "data")
    host.catalog.install(register() | ({} if counter is None else {"capacity": counter}))
    try:
        transport = httpx.ASGITransport(app=create_app(host, TOKEN))
        async with httpx.AsyncClient(
            transport=transport,
            base_url="http://127.0.0.1:7878",
            headers={"Authorization": f"Bearer {TOKEN}"},
        ) as client:
            answer = await client.get("/api/browser-providers")
        assert answer.status_code == 200, answer.text
        [row] = answer.json()["providers"]
        assert isinstance(row, dict)
        return row
    finally:
        await host.aclose()


def answering(value: object) -> Counter:
    async def counter() -> object:
        return value

    return counter


@pytest.fixture
def short_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(capacity_module, "CAPACITY_S", 0.2)


async def test_a_counted_capacity_is_listed_next_to_its_provider(tmp_path: Path) -> None:
    row = await _listed(tmp_path, answering({"source": "Selenium Grid", "free": 3, "busy": 1}))
    assert row["capacity"] == {"source": "Selenium Grid", "free": 3, "busy": 1}


async def test_a_provider_without_a_count_has_no_capacity(tmp_path: Path) -> None:
    assert "capacity" not in await _listed(tmp_path, None)


async def test_a_problem_the_provider_reports_is_listed_in_its_words(tmp_path: Path) -> None:
    said = {"source": "Selenium Grid", "problem": "does not answer within 2 s"}
    assert (await _listed(tmp_path, answering(said)))["capacity"] == said


@pytest.mark.usefixtures("short_wait")
async def test_a_count_that_does_not_come_is_not_waited_for(tmp_path: Path) -> None:
    never = asyncio.Event()

    async def stuck() -> object:
        await never.wait()
        return {}

    async with asyncio.timeout(5):
        row = await _listed(tmp_path, stuck)
    assert row["capacity"] == {
        "source": "Stub (no browser)",
        "problem": "not counted: no answer within 0.2 s",
    }


async def test_a_count_that_fails_is_listed_as_failed_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def failing() -> object:
        raise RuntimeError("secret-endpoint-detail")

    row = await _listed(tmp_path, failing)
    assert row["capacity"] == {
        "source": "Stub (no browser)",
        "problem": "not counted: the provider failed (see the log)",
    }
    assert "failed to count its capacity" in caplog.text


@pytest.mark.parametrize(
    "answer",
    [
        None,
        ["Selenium Grid", 3, 1],
        {"free": 3, "busy": 1},
        {"source": "", "free": 3, "busy": 1},
        {"source": "Selenium Grid"},
        {"source": "Selenium Grid", "free": 3},
        {"source": "Selenium Grid", "free": -1, "busy": 1},
        {"source": "Selenium Grid", "free": True, "busy": 0},
        {"source": "Selenium Grid", "free": 1.5, "busy": 0},
        {"source": "Selenium Grid", "problem": "   "},
    ],
)
async def test_a_count_that_is_not_one_is_said_so(tmp_path: Path, answer: object) -> None:
    row = await _listed(tmp_path, answering(answer))
    assert row["capacity"]["problem"] == "not counted: the provider's count was not understood"


async def test_a_long_problem_is_cut(tmp_path: Path) -> None:
    row = await _listed(tmp_path, answering({"source": "Grid", "problem": "x" * 1000}))
    assert row["capacity"]["problem"] == "x" * capacity_module.PROBLEM_MAX


def test_a_capacity_that_is_not_a_callable_refuses_the_record(tmp_path: Path) -> None:
    host = Host(tmp_path / "data")
    with pytest.raises(InstallError, match="capacity must be an async callable"):
        host.catalog.install(register() | {"capacity": {"free": 1}})


def test_only_an_in_process_provider_declares_a_capacity(tmp_path: Path) -> None:
    record = {
        key: value
        for key, value in register().items()
        if key not in ("answer", "close", "surface", "panel")
    }
    record |= {"endpoint": "http://127.0.0.1:9", "capacity": answering({})}
    host = Host(tmp_path / "data")
    with pytest.raises(InstallError, match="of an in-process provider"):
        host.catalog.install(record)
