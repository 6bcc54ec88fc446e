"""Fixtures for the chromium provider's tests: the test site and a real Chromium.

The provider (and its browser) is shared by the tests of one module, on that module's event
loop; each test gets its own context key, so its cookies and pages are its own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from browserhost.contract import Context
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider

from .driving import TEST_TIMEOUTS
from .site import Site, serving


@pytest.fixture(scope="session")
def site() -> Iterator[Site]:
    with serving() as running:
        yield running


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def provider(chromium_path: str) -> AsyncIterator[ChromiumProvider]:
    shared = ChromiumProvider(ChromiumConfig(executable=chromium_path), timeouts=TEST_TIMEOUTS)
    yield shared
    await shared.aclose()


@pytest.fixture
def ctx(request: pytest.FixtureRequest) -> Context:
    """A context key of the test's own: a project directory and a chat named after the test."""
    return Context(directory="/work/project", session_id=request.node.name)
