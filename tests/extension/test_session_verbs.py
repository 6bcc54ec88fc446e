"""The extension's cookies and set_cookies, end to end through the host's HTTP API in a real
Chromium, declared with the chromium provider's schemas; a set cookie is checked by what the
site's server received. And a full snapshot, read past the everyday caps."""

from __future__ import annotations

from browserhost.providers.session_verbs import CookiesArguments, SetCookiesArguments
from tests.conftest import LiveServer
from tests.extension.conftest import Loaded, act, data, declared_verbs
from tests.providers.chromium.site import Site


def test_the_extension_declares_the_cookie_verbs_with_the_session_verbs_schemas(
    extension: Loaded, server: LiveServer
) -> None:
    verbs = declared_verbs(server)
    assert verbs["cookies"]["inputSchema"] == CookiesArguments.model_json_schema()
    assert verbs["set_cookies"]["inputSchema"] == SetCookiesArguments.model_json_schema()
    assert (verbs["cookies"]["changesPage"], verbs["set_cookies"]["changesPage"]) == (False, True)


def test_cookies_are_read_for_the_page_and_a_set_one_reaches_the_site(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", url=site.url("/set-cookie?v=mint")))
        read = data(act(http, "verb.cookies"))
        assert read["cookies"] == [
            {
                "name": "flavor",
                "value": "mint",
                "domain": "127.0.0.1",
                "path": "/",
                "expires": -1,
                "httpOnly": False,
                "secure": False,
                "sameSite": "Lax",
            }
        ]
        cookie = {"name": "token", "value": "s3cret", "url": site.url("/")}
        assert data(act(http, "verb.set_cookies", cookies=[cookie])) == {"set": ["token"]}
        data(act(http, "browser.open", url=site.url("/cookie")))
        shown = data(act(http, "browser.snapshot"))["text"]
        refused = act(http, "verb.set_cookies", cookies=[{"name": "x", "value": "1"}])
    assert "token=s3cret" in shown
    assert "flavor=mint" in shown
    assert (
        refused.json()["error"] == "cookie 0 (x) needs url, or domain and path. No cookie was set."
    )


def test_a_full_snapshot_reads_past_the_everyday_caps(
    extension: Loaded, server: LiveServer, site: Site
) -> None:
    with server.client() as http:
        data(act(http, "browser.open", url=site.url("/huge")))
        capped = data(act(http, "browser.snapshot"))
        full = data(act(http, "browser.snapshot", full=True))
    assert (len(capped["elements"]), capped["elementsTruncated"]) == (250, True)
    assert len(full["elements"]) == 300
    assert "elementsTruncated" not in full
    assert "word4999" in full["text"]
    assert "textTruncated" not in full
