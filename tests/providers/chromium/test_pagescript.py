"""The page script as the provider gives it to every document."""

from __future__ import annotations

from importlib import resources

from browserhost.providers.chromium import pagescript


def test_the_page_script_is_ascii_so_each_document_keeps_it_at_one_byte_a_character() -> None:
    # One character outside ASCII makes V8 keep the whole script, which every document holds,
    # at two bytes a character: write such characters as escapes (\u2026).
    assert pagescript.source().isascii()


def test_the_page_script_is_sent_without_its_comments() -> None:
    # Chromium carries the script to every document as it starts, and parses it there.
    written = resources.files(pagescript.__package__).joinpath("snapshot.js").read_text()
    sent = pagescript.source()
    assert "// The page side of browserhost" in written
    assert "The page side of browserhost" not in sent
    assert len(sent) < 0.7 * len(written)
    assert sent.startswith("async(request)=>{")
