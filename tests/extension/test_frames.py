"""Iframes in the extension's tabs, end to end: a same-origin and a cross-origin (out of
process) iframe read and acted in as the chromium provider does, and a frame Chrome lets no
extension into named in the snapshot and refused, never left out in silence."""

from __future__ import annotations

from tests.conftest import LiveServer
from tests.extension.conftest import Loaded, act, data
from tests.providers.chromium.site import Site


def test_same_and_cross_origin_frames_are_listed_and_acted_in(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        opened = data(act(http, "browser.open", url=f"{site.origin}/w/frames.html"))
        assert opened["settled"] is True
        snapshot = data(act(http, "browser.snapshot"))
        elements = snapshot["elements"]
        selectors = [element["selector"] for element in elements]
        for wanted in ("#same >> #card", "#same >> #pay", "#cross >> #card", "#cross >> #pay"):
            assert wanted in selectors
        assert "[frame #same]\nCard number" in snapshot["text"]
        assert "[frame #cross]\nCard number" in snapshot["text"]
        assert "notice" not in snapshot
        cross_card = elements[selectors.index("#cross >> #card")]
        assert cross_card["bounds"]["y"] > 200  # placed in the page, not in its frame

        typed = data(act(http, "browser.type", selector="#cross >> #card", value="4242"))
        assert typed["value"] == "4242"
        refused = act(http, "browser.click", text="Pay")
        assert refused.json()["code"] == "PROVIDER_REJECTED"
        assert refused.json()["error"].startswith('"Pay" matches 2 elements: #same >> #pay')
        assert "#cross >> #pay (button" in refused.json()["error"]
        data(act(http, "browser.click", selector="#cross >> #pay"))
        inner = data(act(http, "browser.snapshot", selector="#cross"))
        assert "inner: paid 4242" in inner["text"]
        same = data(act(http, "browser.snapshot", selector="#same"))
        assert "inner: none" in same["text"]
        for selector in selectors:  # every listed selector names exactly one element
            data(act(http, "browser.inspect", selector=selector))
    page = extension.page(f"{site.origin}/w/frames.html")
    [cross] = [frame for frame in page.frames if "cross=1" in frame.url]
    assert cross.evaluate("window.log") == ["inner: paid 4242"]
    assert page.evaluate("window.log") == []


def test_a_click_in_a_frame_below_the_fold_brings_the_frame_into_view_first(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", url=f"{site.origin}/w/frame-below.html"))
        data(act(http, "browser.click", selector="#same >> #pay"))
        assert "inner: paid" in data(act(http, "browser.snapshot", selector="#same"))["text"]
        data(act(http, "browser.type", selector="#cross >> #card", value="4242"))
        data(act(http, "browser.click", selector="#cross >> #pay"))
        assert "inner: paid 4242" in data(act(http, "browser.snapshot", selector="#cross"))["text"]
    assert extension.page(f"{site.origin}/w/frame-below.html").evaluate("window.log") == []


def test_a_frame_of_another_extension_bars_the_tab_and_every_action_says_so(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    """Chrome refuses an extension every command in a tab that shows another extension's page
    in a frame (a password manager's, say): each action is refused as not done, and the tab
    answers again once the frame is gone."""
    with server.client() as http:
        data(act(http, "browser.open", url=f"{site.origin}/w/frames.html"))
        page = extension.page(f"{site.origin}/w/frames.html")
        page.evaluate(
            "() => { const frame = document.createElement('iframe'); frame.id = 'vault';"
            " frame.src = 'chrome-extension://' + 'a'.repeat(32) + '/fill.html';"
            " document.body.append(frame); }"
        )
        refused = [
            act(http, "browser.snapshot"),
            act(http, "browser.click", selector="#same >> #pay"),
            act(http, "browser.capture"),
        ]
        page.evaluate("() => document.getElementById('vault').remove()")
        snapshot = data(act(http, "browser.snapshot"))
        clicked = data(act(http, "browser.click", selector="#same >> #pay"))
    for answer in refused:
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"] == (
            "Chrome lets no extension into this tab: it shows a browser page, or another "
            "extension's page in a frame, and then every command in the tab is refused, so "
            "nothing was done. Wait until that frame is gone, or browser.open another page."
        )
    assert "#cross >> #card" in [element["selector"] for element in snapshot["elements"]]
    assert clicked["clicked"] == "#same >> #pay"


def test_a_frame_whose_load_chrome_blocked_reads_as_the_empty_frame_it_is(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", url=f"{site.origin}/w/frames.html"))
        page = extension.page(f"{site.origin}/w/frames.html")
        page.evaluate(
            "() => { const frame = document.createElement('iframe'); frame.id = 'locked';"
            " frame.src = 'chrome://version'; document.body.append(frame); }"
        )
        snapshot = data(act(http, "browser.snapshot"))
        clicked = act(http, "browser.click", selector="#locked >> button")
    assert "notice" not in snapshot
    assert "#same >> #card" in [element["selector"] for element in snapshot["elements"]]
    assert clicked.json()["error"] == "No element matches #locked >> button; take a new snapshot."
