"""Agent sessions in the extension, end to end: each gets a tab of its own in the browserhost
tab group on its first open, never sees another's page, and without one acts only in the tab
the user shared."""

from __future__ import annotations

from tests.conftest import LiveServer
from tests.extension.conftest import NO_TAB, Loaded, act, data
from tests.providers.chromium.site import Site

GROUP_OF = (
    "async (url) => { const [tab] = await chrome.tabs.query({url});"
    " return (await chrome.tabs.get(tab.id)).groupId; }"
)


def test_each_session_opens_a_tab_of_its_own_and_sees_only_its_page(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", "alpha", url=f"{site.origin}/page-a"))
        data(act(http, "browser.open", "beta", url=f"{site.origin}/page-b"))
        alpha = data(act(http, "browser.snapshot", "alpha"))
        beta = data(act(http, "browser.snapshot", "beta"))
        data(act(http, "browser.open", "alpha", url=f"{site.origin}/links"))
        alpha_again = data(act(http, "browser.snapshot", "alpha"))
        beta_again = data(act(http, "browser.snapshot", "beta"))
        back = data(act(http, "browser.back", "alpha"))
        refused = act(http, "browser.back", "beta")
    assert (alpha["url"], alpha["text"]) == (f"{site.origin}/page-a", "This is page A")
    assert (beta["url"], beta["text"]) == (f"{site.origin}/page-b", "This is page B")
    assert alpha_again["url"] == f"{site.origin}/links"
    assert beta_again["url"] == f"{site.origin}/page-b"
    assert back["url"] == f"{site.origin}/page-a"  # alpha's own history, not beta's
    assert refused.json()["error"] == "There is no earlier page to go back to; use browser.open."
    tabs = [extension.tab_id(f"{site.origin}/page-a"), extension.tab_id(f"{site.origin}/page-b")]
    assert tabs[0] != tabs[1]
    groups = {
        extension.worker.evaluate(GROUP_OF, url)
        for url in (f"{site.origin}/page-a", f"{site.origin}/page-b")
    }
    assert len(groups) == 1
    assert (
        extension.worker.evaluate("async (id) => (await chrome.tabGroups.get(id)).title", *groups)
        == "browserhost"
    )


def test_a_session_without_a_tab_acts_in_the_shared_one_or_is_refused(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", "alpha", url=f"{site.origin}/page-a"))
        refused = act(http, "browser.snapshot", "gamma")
        own = extension.context.new_page()
        own.goto(f"{site.origin}/page-b")
        extension.share(f"{site.origin}/page-b")
        gamma = data(act(http, "browser.snapshot", "gamma"))
        alpha = data(act(http, "browser.snapshot", "alpha"))
        opened = data(act(http, "browser.open", "gamma", url=f"{site.origin}/links"))
        gamma_after = data(act(http, "browser.snapshot", "gamma"))
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"] == (
        f"{NO_TAB}, and this agent session has opened none: browser.open opens one in the "
        "browserhost tab group, or the user shares a tab from the browserhost button."
    )
    assert gamma["url"] == f"{site.origin}/page-b"  # the user's shared tab
    assert alpha["url"] == f"{site.origin}/page-a"  # its own tab comes first
    # An open makes gamma a tab of its own: the user's page stays as it was.
    assert opened["url"] == gamma_after["url"] == f"{site.origin}/links"
    assert own.url == f"{site.origin}/page-b"
