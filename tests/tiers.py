"""The suite's two tiers, as pytest markers (declared in pyproject.toml).

- ``browser``: needs a real Chromium. Every test that uses the ``chromium_path`` fixture,
  directly or through another fixture, is marked so here.
- ``slow``: starts a process of its own (a server, a service, the CLI). Tests that use
  ``live_server`` are marked so here; others carry the mark on the test or the module.

``make check`` runs the tests marked neither, so it starts no process; ``make test`` runs them
all. An unmarked test that starts a process anyway fails in its teardown, naming the command,
so a new test lands in the right tier.
"""

from __future__ import annotations

import shlex
import sys
from typing import Any

import pytest

BROWSER_FIXTURES = frozenset({"chromium_path"})
SLOW_FIXTURES = frozenset({"live_server"})
_PROCESS_EVENTS = frozenset({"subprocess.Popen", "os.posix_spawn", "os.fork", "os.system"})


class _FastTest:
    """What the running unmarked test started, seen through Python's audit hooks (which see
    asyncio's and Playwright's processes too, as they go through ``subprocess``)."""

    def __init__(self) -> None:
        self.watching = False
        self.started: list[str] = []

    def audit(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.watching or event not in _PROCESS_EVENTS:
            return
        if event in ("subprocess.Popen", "os.posix_spawn"):  # (executable, argv, ...)
            argv = args[1]
            self.started.append(argv if isinstance(argv, str) else shlex.join(map(str, argv)))
        else:
            self.started.append(f"{event}{args}")


_fast_test = _FastTest()
sys.addaudithook(_fast_test.audit)


@pytest.hookimpl(tryfirst=True)  # before -m deselects by these marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if fixtures & SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    marked = item.get_closest_marker("browser") or item.get_closest_marker("slow")
    _fast_test.watching = marked is None
    _fast_test.started.clear()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    started, _fast_test.watching = list(_fast_test.started), False
    if started:
        pytest.fail(
            f"{item.name} started a process ({started[0]}), which the fast tier (make check) "
            "must not: mark it @pytest.mark.slow, or give its module "
            "pytestmark = pytest.mark.slow",
            pytrace=False,
        )
