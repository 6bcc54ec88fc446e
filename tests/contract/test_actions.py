"""Every parameter rule of the ten actions, each with the message an agent reads."""

from __future__ import annotations

import pytest

from browserhost.contract import ACTIONS, normalize
from browserhost.contract.errors import InvalidActionError

# The rules of the reference normalizeBrowserAction, one row each, with its exact message.
RULES = [
    ("browser.open", [1], "parameters must be an object."),
    ("browser.back", "x", "parameters must be an object."),
    ("browser.resize", {}, "viewport is required for browser.resize."),
    ("browser.resize", {"viewport": "   "}, "viewport is required for browser.resize."),
    ("browser.resize", {"viewport": "huge"}, "viewport must be mobile, tablet, desktop, or fill."),
    (
        "browser.open",
        {"url": "https://example.com", "viewport": "watch"},
        "viewport must be mobile, tablet, desktop, or fill.",
    ),
    ("browser.open", {}, "url is required for browser.open."),
    ("browser.open", {"url": " \t"}, "url is required for browser.open."),
    ("browser.open", {"url": 42}, "url is required for browser.open."),
    ("browser.open", {"url": "example.com/page"}, "url must be an absolute http(s) URL."),
    ("browser.open", {"url": "http://"}, "url must be an absolute http(s) URL."),
    ("browser.open", {"url": "ftp://example.com/file"}, "url must use http or https."),
    ("browser.open", {"url": "file:///etc/passwd"}, "url must use http or https."),
    ("browser.open", {"url": "javascript:alert(1)"}, "url must use http or https."),
    ("browser.click", {}, "browser.click requires selector or text."),
    ("browser.click", {"selector": " ", "text": ""}, "browser.click requires selector or text."),
    ("browser.inspect", {"selector": ""}, "selector is required for browser.inspect."),
    ("browser.type", {"value": "x"}, "selector is required for browser.type."),
    ("browser.type", {"selector": "#q"}, "value is required for browser.type."),
    ("browser.type", {"selector": "#q", "value": 3}, "value is required for browser.type."),
    ("browser.scroll", {}, "browser.scroll requires direction or selector."),
    ("browser.scroll", {"direction": "left"}, "direction must be up, down, top, or bottom."),
]


@pytest.mark.parametrize(("action", "parameters", "message"), RULES)
def test_each_parameter_rule_refuses_with_its_own_message(
    action: str, parameters: object, message: str
) -> None:
    with pytest.raises(InvalidActionError) as refused:
        normalize(action, parameters)
    assert refused.value.message == f"{message} Nothing was sent."
    assert refused.value.status == 400


@pytest.mark.parametrize("action", ["browser.explode", "open", "", None, 7, ["browser.open"]])
def test_unknown_action_is_refused_and_lists_the_ten(action: object) -> None:
    with pytest.raises(InvalidActionError) as refused:
        normalize(action, {})
    message = refused.value.message
    assert message.startswith("Unknown browser action")
    assert message.endswith("Nothing was sent.")
    assert all(name in message for name in ACTIONS)


def test_there_are_exactly_the_ten_reference_actions() -> None:
    assert list(ACTIONS) == [
        "browser.open",
        "browser.snapshot",
        "browser.click",
        "browser.type",
        "browser.scroll",
        "browser.back",
        "browser.forward",
        "browser.inspect",
        "browser.capture",
        "browser.resize",
    ]


def test_open_waits_45_seconds_and_the_others_20() -> None:
    assert {name: spec.timeout_s for name, spec in ACTIONS.items()} == {
        name: 45.0 if name == "browser.open" else 20.0 for name in ACTIONS
    }


# What reaches the provider: only the normalized parameters.
NORMALIZED = [
    ("browser.open", {"url": "  https://Example.COM  "}, {"url": "https://example.com/"}),
    (
        "browser.open",
        {"url": "http://a.test/x?y=1", "viewport": " mobile "},
        {"url": "http://a.test/x?y=1", "viewport": "mobile"},
    ),
    ("browser.open", {"url": "https://a.test/", "viewport": "  "}, {"url": "https://a.test/"}),
    ("browser.open", {"url": "https://a.test/", "viewport": 3}, {"url": "https://a.test/"}),
    ("browser.snapshot", None, {}),
    ("browser.snapshot", {"selector": "  main  "}, {"selector": "main"}),
    ("browser.snapshot", {"selector": 5}, {}),
    ("browser.click", {"text": " Save "}, {"text": "Save"}),
    ("browser.click", {"selector": "#a", "text": "A"}, {"selector": "#a", "text": "A"}),
    (
        "browser.type",
        {"selector": " #q ", "value": "  spaced  "},
        {"selector": "#q", "value": "  spaced  ", "submit": False},
    ),
    (
        "browser.type",
        {"selector": "#q", "value": ""},
        {"selector": "#q", "value": "", "submit": False},
    ),
    (
        "browser.type",
        {"selector": "#q", "value": "x", "submit": "true"},
        {"selector": "#q", "value": "x", "submit": False},
    ),
    (
        "browser.type",
        {"selector": "#q", "value": "x", "submit": True},
        {"selector": "#q", "value": "x", "submit": True},
    ),
    ("browser.scroll", {"direction": " up "}, {"direction": "up"}),
    ("browser.scroll", {"selector": "#f"}, {"selector": "#f"}),
    (
        "browser.scroll",
        {"selector": "#f", "direction": "top"},
        {"selector": "#f", "direction": "top"},
    ),
    ("browser.back", {"steps": 3}, {}),
    ("browser.forward", None, {}),
    ("browser.inspect", {"selector": "#a", "styles": ["color"]}, {"selector": "#a"}),
    ("browser.capture", {}, {}),
    ("browser.capture", {"label": " login form "}, {"label": "login form"}),
    ("browser.resize", {"viewport": "fill", "width": 10}, {"viewport": "fill"}),
]


@pytest.mark.parametrize(("action", "parameters", "sent"), NORMALIZED)
def test_only_normalized_parameters_are_kept(
    action: str, parameters: object, sent: dict[str, object]
) -> None:
    assert normalize(action, parameters).parameters.to_wire() == sent


def test_unknown_keys_are_dropped_not_forwarded() -> None:
    call = normalize("browser.click", {"selector": "#a", "script": "alert(1)", "Selector": "x"})
    assert call.parameters.to_wire() == {"selector": "#a"}


def test_the_answer_says_which_keys_were_dropped_where_it_has_a_notice() -> None:
    typed = normalize("browser.type", {"selector": "#q", "value": "x", "sumbit": True})
    assert typed.ignored == ("sumbit",)
    assert typed.told({"value": "x", "notice": 'The page now shows: "Saved"'}) == {
        "value": "x",
        "notice": "The page now shows: \"Saved\" 'sumbit' is not a parameter of browser.type, "
        "which takes selector, value, submit, and did nothing.",
    }
    scrolled = normalize("browser.scroll", {"direction": "down", "by": 3})
    assert scrolled.told({"scrollY": 9}) == {"scrollY": 9}  # no notice in a scroll's answer
    assert normalize("browser.type", {"selector": "#q", "value": "x"}).told({"v": 1}) == {"v": 1}


@pytest.mark.parametrize(
    ("action", "parameters", "message"),
    [
        (
            "browser.click",
            {"selectr": "#f"},
            "browser.click requires selector or text. 'selectr' is not a parameter of "
            "browser.click, which takes selector, text.",
        ),
        (
            "browser.type",
            {"selector": "#q", "vlaue": "x", "sumbit": True},
            "value is required for browser.type. 'vlaue', 'sumbit' are not parameters of "
            "browser.type, which takes selector, value, submit.",
        ),
    ],
)
def test_a_refusal_names_the_keys_the_action_has_no_parameter_for(
    action: str, parameters: dict[str, object], message: str
) -> None:
    """A misspelled required parameter is refused as missing, and the refusal names the key
    that was given instead, with the ones the action takes."""
    with pytest.raises(InvalidActionError) as refused:
        normalize(action, parameters)
    assert refused.value.message == f"{message} Nothing was sent."
