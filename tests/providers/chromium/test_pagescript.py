"""The page script as the provider gives it to every document."""

from __future__ import annotations

from browserhost.providers.chromium import pagescript


def test_the_page_script_is_ascii_so_each_document_keeps_it_at_one_byte_a_character() -> None:
    # One character outside ASCII makes V8 keep the whole 95 KB script, which every document
    # holds, at two bytes a character: write such characters as escapes (\u2026).
    assert pagescript.source().isascii()
