"""``browserhost configure`` (reference 001: ``configuration.inputSchema``, changed with a
``configure`` operation) against a served host whose example text browser runs as a provider
service process: a value the schema refuses is named and changes nothing, a good one is
applied, and what the page sees shows which."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from browserhost_textbrowser import register

from browserhost.cli import EXIT_REFUSED
from tests.api.viewing import Served, serving
from tests.conftest import UserAgentPage, serving_http

from .running import browserhost

pytestmark = pytest.mark.slow

EXAMPLE_SOURCE = Path(__file__).parents[2] / "examples" / "textbrowser" / "src"
USAGE_ERROR = 2


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    record = register()
    # Installed with pip, the package is importable anywhere; here it is run from its folder.
    record["service"]["cwd"] = str(EXAMPLE_SOURCE)
    with serving(tmp_path / "data", record) as running:
        yield running


@pytest.fixture
def agent_page() -> Iterator[str]:
    with serving_http(UserAgentPage) as origin:
        yield origin + "/agent"


def seen_agent(served: Served, page: str) -> str:
    """The User-Agent the provider's own requests send now."""
    opened = browserhost(served.url, "open", page, "--json").answer()
    title: str = opened["data"]["title"]
    return title


def test_without_options_it_lists_what_the_provider_takes(served: Served) -> None:
    listed = browserhost(served.url, "configure", "textbrowser")
    assert listed.status == USAGE_ERROR, listed
    assert "Give textbrowser's options with --set KEY=VALUE:" in listed.err
    assert "userAgent=STRING  User agent: The User-Agent its requests send." in listed.err


def test_a_bad_value_is_refused_naming_the_field_and_nothing_changes(
    served: Served, agent_page: str
) -> None:
    assert seen_agent(served, agent_page) == "browserhost-textbrowser"
    too_long = browserhost(
        served.url, "configure", "textbrowser", "--set", "userAgent=" + "x" * 201, "--json"
    )
    unknown = browserhost(served.url, "configure", "textbrowser", "--set", "binary=/bin/sh")
    assert too_long.status == EXIT_REFUSED, too_long
    refusal = json.loads(too_long.out)
    assert refusal["code"] == "INVALID_ACTION"
    assert refusal["error"].startswith(
        "Text browser (no JavaScript) cannot be configured with these options: /userAgent: "
    )
    assert refusal["error"].endswith("Nothing was configured.")
    assert unknown.status == EXIT_REFUSED, unknown
    assert "Additional properties are not allowed ('binary' was unexpected)" in unknown.err
    assert seen_agent(served, agent_page) == "browserhost-textbrowser"


def test_a_good_value_is_applied_by_the_service(served: Served, agent_page: str) -> None:
    done = browserhost(served.url, "configure", "textbrowser", "--set", "userAgent=probe/2")
    assert (done.status, done.out) == (0, "Configured textbrowser: userAgent.\n"), done
    assert seen_agent(served, agent_page) == "probe/2"

    row = browserhost(
        served.url, "configure", "textbrowser", "--options", '{"userAgent": "probe/3"}', "--json"
    ).answer()
    assert row["id"] == "textbrowser"
    assert "userAgent" in row["configuration"]["inputSchema"]["properties"]
    assert seen_agent(served, agent_page) == "probe/3"


def test_a_provider_not_installed_is_refused(served: Served) -> None:
    missing = browserhost(served.url, "configure", "nope", "--set", "a=1")
    assert missing.status == EXIT_REFUSED, missing
    assert missing.err.startswith("PROVIDER_NOT_FOUND: No installed provider is called 'nope'")
