"""The order in which the whole suite's files are handed to the workers: the longest first.

``make test`` gives each of its workers whole files (``--dist loadfile``, so that a module's
browser starts once), in the order collected. A long file that starts last keeps one worker
busy while the other has nothing left: the run lasts as long as that tail. Handing out the
longest files first (the rule a scheduler of unequal jobs on a few machines follows) leaves only
short files for the end.

How long each file took is kept in ``tests/durations.json`` (seconds, rounded), written by
``make durations`` (``pytest --durations-file tests/durations.json``). A file not listed there
(a new one) counts as long: it is handed out early, never left for the tail. The order within a
file is kept.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

DURATIONS = Path(__file__).with_name("durations.json")
NEW_FILE_S = 60.0
"""What a file not in :data:`DURATIONS` is taken to last: long enough to go early."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--durations-file",
        metavar="PATH",
        help="write how long each test file took (seconds, JSON) to PATH after the run",
    )


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    try:
        known: dict[str, float] = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return  # no durations: the collected order
    first_seen: dict[str, int] = {}
    for index, item in enumerate(items):
        first_seen.setdefault(_file_of(item.nodeid), index)

    def weight(item: pytest.Item) -> tuple[float, int]:
        path = _file_of(item.nodeid)
        return (-known.get(path, NEW_FILE_S), first_seen[path])

    items.sort(key=weight)  # stable: a file's tests stay together, in their order


class _Timer:
    """Sums each file's setup, call and teardown times, as the reports come in (from every
    worker, with xdist), and writes them at the end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seconds: defaultdict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[_file_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self) -> None:
        if self.seconds:
            rounded = {path: round(s, 1) for path, s in sorted(self.seconds.items())}
            self.path.write_text(json.dumps(rounded, indent=1) + "\n")


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("--durations-file")
    if path and not hasattr(config, "workerinput"):  # the controller hears every report
        config.pluginmanager.register(_Timer(Path(path)), "browserhost-durations")
