"""Hypothesis strategies for action parameters: mostly the keys an action reads, with values
that sit on the edges of its rules (blank, padded, off-enum, non-string, near-URL)."""

from __future__ import annotations

from hypothesis import strategies as st

from browserhost.contract import ACTIONS

interesting_strings = st.sampled_from(
    [
        "",
        " ",
        "\t\n",
        "#save",
        "  #q ",
        "Save",
        "mobile",
        " tablet ",
        "fill",
        "FILL",
        "huge",
        "up",
        " bottom",
        "sideways",
        "https://example.com",
        " http://a.test/x?y=1#z ",
        "HTTPS://Example.COM",
        "http://",
        "http:///path",
        "ftp://example.com",
        "file:///x",
        "javascript:alert(1)",
        "example.com",
        "//example.com",
        "http://[::1]:8080/",
        "http://exa mple.com",
    ]
)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | interesting_strings
    | st.text(max_size=12)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
strings = st.one_of(interesting_strings, interesting_strings, st.text(max_size=12))
field_values = st.one_of(strings, strings, strings, scalars, json_values)
KEY_VALUES: dict[str, st.SearchStrategy[object]] = {
    "submit": st.sampled_from([True, False, 1, 0, "true", "yes", None, [], {}]),
    "value": st.one_of(st.text(max_size=12), interesting_strings, scalars),
}
# The keys each action reads; the others are noise that must be dropped.
READS = {
    "browser.open": ("url", "viewport"),
    "browser.snapshot": ("selector",),
    "browser.click": ("selector", "text"),
    "browser.type": ("selector", "value", "submit"),
    "browser.scroll": ("selector", "direction"),
    "browser.inspect": ("selector",),
    "browser.capture": ("label",),
    "browser.resize": ("viewport",),
}
ALL_KEYS = ("url", "viewport", "selector", "text", "value", "submit", "direction", "label")


def parameters_for(action: str) -> st.SearchStrategy[dict[str, object]]:
    """Objects that mostly carry the keys ``action`` reads, so every rule gets exercised."""
    reads = READS.get(action, ())
    return st.fixed_dictionaries(
        {key: KEY_VALUES.get(key, field_values) for key in reads},
        optional={key: field_values for key in ALL_KEYS if key not in reads}
        | {"extra": json_values},
    )


anything = st.tuples(
    st.sampled_from(list(ACTIONS)) | st.just("browser.fly") | scalars,
    st.none() | json_values | st.dictionaries(st.text(max_size=6), json_values, max_size=3),
)
