"""``sync_cookies`` from another running instance (reference 001, item 3), on real Chromium
instances: a cookie a page set in one is sent by the other's page after the copy; an instance
that keeps no cookies of its own, or is not running, is refused and nothing is copied."""

from __future__ import annotations

from pathlib import Path

import pytest

from browserhost.contract import Context
from browserhost.contract.errors import ProviderNotFoundError, UnsupportedError
from browserhost.host import Host
from browserhost.host.cookie_copy import COPIES
from browserhost.providers.chromium.provider import register

from .site import Site

CTX = Context(session_id="copy")


async def cookie_seen(host: Host, instance: str, site: Site) -> str:
    """What the site's cookie page says the instance's page sent it."""
    await host.dispatch("browser.open", {"url": site.url("/cookie")}, CTX, instance)
    text: str = (await host.dispatch("browser.snapshot", {}, CTX, instance)).data["text"]
    return text


async def test_a_cookie_set_in_one_instance_is_seen_in_another_after_the_copy(
    tmp_path: Path, chromium_path: str, monkeypatch: pytest.MonkeyPatch, site: Site
) -> None:
    monkeypatch.setenv("BROWSERHOST_CHROMIUM", chromium_path)
    data = tmp_path / "data"
    host = Host(data)
    host.catalog.install(register())
    try:
        await host.instances.launch("chromium", {"profile": "a"}, "a")
        await host.instances.launch("chromium", {"profile": "b"}, "b")
        await host.dispatch(
            "browser.open", {"url": site.url("/set-cookie?v=mint&keep=1")}, CTX, "chromium~a"
        )
        before = await cookie_seen(host, "chromium~b", site)
        copied = await host.instances.operate(
            "chromium~b", "sync_cookies", {"fromInstance": "chromium~a"}
        )
        after = await cookie_seen(host, "chromium~b", site)

        plain = await host.instances.launch("chromium", {}, "plain")
        assert plain["operations"] == ["close", "references"]
        with pytest.raises(UnsupportedError) as unreadable:
            await host.instances.operate(
                "chromium~b", "sync_cookies", {"fromInstance": "chromium~plain"}
            )
        with pytest.raises(UnsupportedError, match=r"cannot sync cookies \(its provider"):
            await host.instances.operate(
                "chromium~plain", "sync_cookies", {"fromInstance": "chromium~a"}
            )
        with pytest.raises(ProviderNotFoundError) as missing:
            await host.instances.operate(
                "chromium~b", "sync_cookies", {"fromInstance": "chromium~gone"}
            )
    finally:
        await host.aclose()
    assert "cookie: none" in before
    assert "cookie: flavor=mint" in after
    assert copied["result"] == {"copiedCookies": {"domains": ["127.0.0.1"], "count": 1}}
    assert list((data / COPIES).iterdir()) == [], "the file that carried them is gone"
    assert unreadable.value.message == (
        "chromium~plain does not offer sync_cookies (its provider does not declare it, or it "
        "keeps no cookies of its own), so its cookies cannot be read. No cookies were copied."
    )
    assert missing.value.message == (
        "There is no browser instance 'chromium~gone'; browserhost instances lists them. No "
        "cookies were copied."
    )


async def test_an_instance_that_is_not_running_is_refused_and_not_started(
    tmp_path: Path, chromium_path: str, monkeypatch: pytest.MonkeyPatch, site: Site
) -> None:
    """After a restart, persistent instances are listed stopped until started."""
    monkeypatch.setenv("BROWSERHOST_CHROMIUM", chromium_path)
    data = tmp_path / "data"
    first = Host(data)
    first.catalog.install(register())
    try:
        await first.instances.launch("chromium", {"profile": "a"}, "a")
        await first.instances.launch("chromium", {"profile": "b"}, "b")
        await first.dispatch(
            "browser.open", {"url": site.url("/set-cookie?v=kept&keep=1")}, CTX, "chromium~a"
        )
    finally:
        await first.aclose()

    again = Host(data)
    again.catalog.install(register())
    try:
        assert sorted(again.instances.restore()) == ["chromium~a", "chromium~b"]
        await again.instances.operate("chromium~b", "start")
        with pytest.raises(UnsupportedError) as refused:
            await again.instances.operate(
                "chromium~b", "sync_cookies", {"fromInstance": "chromium~a"}
            )
        statuses = {row["id"]: row["status"] for row in again.instances.listing()}
        seen = await cookie_seen(again, "chromium~b", site)
    finally:
        await again.aclose()
    assert refused.value.message == (
        "chromium~a is not running (stopped); start it first (browserhost instance chromium~a "
        "start), then copy. No cookies were copied."
    )
    assert statuses == {"chromium~a": "stopped", "chromium~b": "connected"}
    assert "cookie: none" in seen
