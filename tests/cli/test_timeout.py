"""``--timeout-ms`` on the action verbs and ``call`` (reference 001, item 6): the provider
service gets the caller's wait as an absolute deadline, an action that outlasts it exits as may
have run, and a wait out of the host's range is refused unsent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from browserhost.cli import EXIT_MAY_HAVE_RUN, EXIT_REFUSED
from tests import slow_service
from tests.api.viewing import Served, serving

from .running import browserhost

pytestmark = pytest.mark.slow

USAGE_ERROR = 2


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path / "data", slow_service.register()) as running:
        yield running


def test_the_provider_gets_the_wait_as_a_deadline(served: Served) -> None:
    own = browserhost(served.url, "back", "--json").answer()
    given = browserhost(served.url, "back", "--timeout-ms", "3000", "--json").answer()
    assert 3 < slow_service.seconds_left_in(own["data"]["title"]) <= 20
    assert 0 < slow_service.seconds_left_in(given["data"]["title"]) <= 3


def test_a_verb_call_takes_the_wait_too(served: Served) -> None:
    # The first call starts the service, which on a busy machine may use up a short wait.
    own = browserhost(served.url, "call", "linger").answer()
    given = browserhost(served.url, "call", "linger", "--timeout-ms", "3000").answer()
    assert own["data"]["secondsLeft"] > 3
    assert 0 < given["data"]["secondsLeft"] <= 3


def test_an_action_past_the_wait_exits_as_may_have_run(served: Served) -> None:
    late = browserhost(served.url, "click", "--selector", "#slow", "--timeout-ms", "1000")
    assert late.status == EXIT_MAY_HAVE_RUN, late
    said = late.err.splitlines()[-1]  # after the waiting line, while the service starts
    assert said.startswith("REQUEST_FAILED: click was sent to Slow service")
    assert "may have run" in said
    assert slow_service.received(served.host.data_dir) == ["browser.click"]


def test_a_wait_out_of_range_is_refused_and_nothing_is_sent(served: Served) -> None:
    refused = browserhost(served.url, "back", "--timeout-ms", "50", "--json")
    not_a_number = browserhost(served.url, "back", "--timeout-ms", "soon")
    assert refused.status == EXIT_REFUSED, refused
    answer = json.loads(refused.out)
    assert answer["code"] == "INVALID_ACTION"
    assert answer["error"].startswith("timeoutMs must be a whole number of milliseconds from 100")
    assert not_a_number.status == USAGE_ERROR
    assert "--timeout-ms" in not_a_number.err
    assert slow_service.received(served.host.data_dir) == []
