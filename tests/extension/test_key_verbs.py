"""The extension's press_key, end to end through the host's HTTP API in a real Chromium:
declared with the chromium provider's schema, its keys checked by what the page itself
heard (each key's name, code and modifiers, and that the browser sent it)."""

from __future__ import annotations

from browserhost.providers.key_verbs import PressKeyArguments, not_a_key, not_focused, to_the_page
from tests.conftest import LiveServer
from tests.extension.conftest import Loaded, act, data, declared_verbs
from tests.providers.chromium.site import Site


def test_the_extension_declares_press_key_with_the_key_verbs_schema(
    extension: Loaded, server: LiveServer
) -> None:
    verbs = declared_verbs(server)
    assert verbs["press_key"]["inputSchema"] == PressKeyArguments.model_json_schema()
    assert verbs["press_key"]["changesPage"] is True


def test_press_key_holds_shift_for_what_a_keyboard_types_with_shift(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As through the chromium provider: a capital or a ? comes with Shift held."""
    url = site.url("/keyboard")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        data(act(http, "verb.press_key", selector="#term", text="aB!c"))
        data(act(http, "verb.press_key", selector="#term", key="?"))
        log = extension.page(url).evaluate("log")
    assert log == [
        "a/KeyA",
        "S-Shift/ShiftLeft",
        "S-B/KeyB",
        "S-Shift/ShiftLeft",
        "S-!/Digit1",
        "c/KeyC",
        "S-Shift/ShiftLeft",
        "S-?/Slash",
    ]


def test_press_key_types_a_command_key_by_key_and_presses_chords(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """A terminal (an element that reads keys, not a field) runs a typed command on Enter; a
    chord selects a field's text for Backspace to delete; a name that is no key is refused
    before anything is typed."""
    url = site.url("/keyboard")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        ran = data(act(http, "verb.press_key", selector="#term", text="echo Hi!", key="Return"))
        page = extension.page(url)
        assert page.evaluate("out.textContent") == "ran: echo Hi!"
        assert (ran["typed"], ran["key"], ran["title"]) == ("echo Hi!", "Enter", "Keyboard")
        page.evaluate("log.length = 0")
        chord = data(act(http, "verb.press_key", selector="#field", key="ctrl+A"))
        assert chord["key"] == "Control+A"
        data(act(http, "verb.press_key", key="backspace"))
        data(act(http, "verb.press_key", key="Shift+Tab"))
        plus = data(act(http, "verb.press_key", selector="#field", key="+"))
        assert page.evaluate("field.value") == plus["value"] == "+"  # the value keys left
        assert page.evaluate("log") == [
            "C-Control/ControlLeft",
            "C-A/KeyA",
            "Backspace/Backspace",
            "S-Shift/ShiftLeft",
            "S-Tab/Tab",
            "+/Equal",
        ]
        refused = act(http, "verb.press_key", selector="#term", text="rm", key="NoSuchKey")
    assert refused.json()["code"] == "PROVIDER_REJECTED", refused.text
    assert refused.json()["error"] == not_a_key("NoSuchKey")
    assert page.evaluate("term.textContent") == "$ ", "the text was typed before the refusal"


def test_press_key_says_where_the_keys_now_go(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As the chromium provider says it: the field a Tab moved the keys to, and a text typed
    with nothing focused that went to the page itself."""
    url = site.url("/choice-only")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        first = data(act(http, "verb.press_key", key="Tab"))
        second = data(act(http, "verb.press_key", key="Tab"))
        extension.page(url).evaluate("document.activeElement.blur()")
        lost = data(act(http, "verb.press_key", text="x"))
    assert (first["focus"], second["focus"]) == (
        '#country (input "Country")',
        '#city (input "City")',
    )
    assert "focus" not in lost
    assert lost["notice"] == to_the_page("x", None)


def test_press_key_on_an_element_the_keys_do_not_reach_is_refused(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """As the chromium provider refuses it, saying where the keys would go; the option the
    field's keys are on takes them through its field."""
    url = site.url("/keys-owner")
    with server.client() as http:
        data(act(http, "browser.open", url=url))
        refused = act(http, "verb.press_key", selector="#cherry", key="Enter").json()["error"]
        page = extension.page(url)
        assert page.evaluate("out.textContent") == "none"
        data(act(http, "verb.press_key", selector="#apple", key="Enter"))
        assert page.evaluate("out.textContent") == "chose Apple"
        page.evaluate("fruit.blur()")
        pressed = data(act(http, "verb.press_key", key="Escape"))
        assert page.evaluate("out.textContent") == "page Escape"
    assert refused == not_focused("#cherry", '#fruit (input "Fruit")')
    assert pressed["notice"] == to_the_page(None, "Escape")
