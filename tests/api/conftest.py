"""The HTTP API in process: a host with the stub installed, and a client that holds the token."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from browserhost.api.app import create_app
from browserhost.host import Host
from browserhost.host.selection import SELECTION_FILE
from browserhost.providers.stub import register

TOKEN = "api-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PROVIDERS = "/api/browser-providers"
SELECTION = "/api/browser-providers/selection"
ACTIONS = "/api/browser-providers/actions"


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    host = Host(tmp_path / "data")
    host.catalog.install(register())
    yield host
    await host.aclose()


@pytest.fixture
async def client(host: Host) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=create_app(host, TOKEN))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://127.0.0.1:7878", headers=AUTH
    ) as client:
        yield client


def selection_bytes(host: Host) -> bytes | None:
    """The selection file as stored, or ``None`` when there is none."""
    path = host.data_dir / SELECTION_FILE
    return path.read_bytes() if path.exists() else None
