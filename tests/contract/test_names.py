"""The project's words in the names each adapter's users type: MCP's tools, the command
line's verbs; a page's addresses and files that look alike are left as written."""

from __future__ import annotations

from browserhost.cli.output import cli_names
from browserhost.contract.names import notices_renamed


def test_the_command_line_names_its_verbs_and_leaves_addresses_alone() -> None:
    """A notice over MCP names browser_mouse (tests/mcp); on the command line, what a person
    types: ``capture``, ``call mouse``."""
    assert (
        cli_names(
            "browser.capture shows it; verb.mouse clicks it. See verb.example.com/browser.js."
        )
        == "capture shows it; call mouse clicks it. See verb.example.com/browser.js."
    )


def test_only_notices_are_renamed_the_page_keeps_its_words() -> None:
    answer = {
        "text": "Press verb.mouse",
        "notice": "verb.drag drops it",
        "fields": [{"label": "browser.open", "notice": "use browser.type"}],
        "value": [{"notice": "verb.x"}],
    }
    assert notices_renamed(answer, lambda kind, name: name.upper()) == {
        "text": "Press verb.mouse",
        "notice": "DRAG drops it",
        "fields": [{"label": "browser.open", "notice": "use TYPE"}],
        "value": [{"notice": "verb.x"}],
    }
