"""The fault suite: real processes on loopback, made to fail, and what is left afterwards.

Every test here checks, after its fault, what a user would see: the wire code (a request that
was sent and lost is "may have run", never success and never "did not run"), that the service
or site received the request exactly once, that the next action works, and that the host
holds no more file descriptors or processes than before.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .faulty_service import FaultyService


@pytest.fixture
def faulty_service(tmp_path: Path) -> Iterator[FaultyService]:
    service = FaultyService(tmp_path)
    service.start()
    try:
        yield service
    finally:
        service.kill()
