"""One profile, one instance: the provider's own check, apart from Chromium's lock on the
profile folder, which holds only once a browser runs there."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from browserhost.contract.errors import ProviderRejectedError, UnsupportedError
from browserhost.host import Host
from browserhost.host.instances import INSTANCES_FILE
from browserhost.providers.chromium import ChromiumConfig, ChromiumProvider
from browserhost.providers.chromium.instances import launch_record
from browserhost.providers.chromium.provider import register
from browserhost.sdk import ActionError
from tests.processes import CHROMIUM_NAMES, descendants

IN_USE = (
    "The profile 'work' is in use by chromium~{holder}; one profile is used by one browser at "
    "a time. Close it first (browserhost close chromium~{holder})."
)


def chromium_started_here() -> list[int]:
    return [pid for pid, p in descendants(os.getpid()).items() if p.name in CHROMIUM_NAMES]


async def test_a_second_launch_of_a_profile_is_refused_by_the_provider_before_any_browser_runs(
    tmp_path: Path, chromium_path: str
) -> None:
    """Both created, neither started: no Chromium holds the folder yet, so only the provider's
    own check can refuse the second, and it makes no instance for it."""
    made: list[str | None] = []

    def make(config: ChromiumConfig, **settings: Any) -> ChromiumProvider:
        made.append(config.profile_dir)
        return ChromiumProvider(config, **settings)

    base = ChromiumProvider(ChromiumConfig(executable=chromium_path))
    create = cast(Callable[..., dict[str, Any]], launch_record(base, make)["create"])
    options = {"profile": "work"}
    first = create(instance_id="chromium~one", options=options, home=tmp_path, fresh=True)
    with pytest.raises(ActionError) as refused:
        create(instance_id="chromium~two", options=options, home=tmp_path, fresh=True)
    assert str(refused.value) == IN_USE.format(holder="one")
    assert made == [str(tmp_path / "profiles" / "work")]
    assert first["status"]() == "stopped"
    assert chromium_started_here() == []
    await first["close"]()
    again = create(instance_id="chromium~two", options=options, home=tmp_path, fresh=True)
    await again["close"]()
    assert len(made) == 2


async def test_a_profile_a_restored_instance_holds_is_refused_to_a_launch_and_nothing_launches(
    tmp_path: Path, chromium_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restored instance is listed stopped, its browser not started until used: the launch
    that would share its profile is refused all the same."""
    monkeypatch.setenv("BROWSERHOST_CHROMIUM", chromium_path)
    data = tmp_path / "data"
    data.mkdir()
    remembered = {"provider": "chromium", "name": "work", "options": {"profile": "work"},
                  "createdAt": "2025-01-01T00:00:00Z"}  # fmt: skip
    (data / INSTANCES_FILE).write_text(json.dumps({"instances": [remembered]}))
    host = Host(data)
    host.catalog.install(register())
    try:
        assert host.instances.restore() == ["chromium~work"]
        with pytest.raises(ProviderRejectedError) as refused:
            await host.instances.launch("chromium", {"profile": "work"}, "second")
        assert refused.value.message == f"{IN_USE.format(holder='work')} Nothing was launched."
        listed = [(row["id"], row["status"]) for row in host.instances.listing()]
        assert listed == [("chromium~work", "stopped")]
        assert chromium_started_here() == []
        assert json.loads((data / INSTANCES_FILE).read_text()) == {"instances": [remembered]}
    finally:
        await host.aclose()


async def test_a_profile_instance_syncs_cookies_lists_references_and_starts_after_a_restart(
    tmp_path: Path, chromium_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cookies go into the profile from a storage-state file and out to another, through
    the running browser; after a restart the stopped instance is started by ``start``."""
    monkeypatch.setenv("BROWSERHOST_CHROMIUM", chromium_path)
    data = tmp_path / "data"
    data.mkdir()
    cookie = {"name": "flavor", "value": "mint", "domain": "example.com", "path": "/",
              "expires": 2_000_000_000, "httpOnly": False, "secure": False,
              "sameSite": "Lax"}  # fmt: skip
    other = dict(cookie, name="other", domain="other.test")
    given = tmp_path / "given.json"
    given.write_text(json.dumps({"cookies": [cookie, other], "origins": []}))
    host = Host(data)
    host.catalog.install(register())
    try:
        plain = await host.instances.launch("chromium", {}, "plain")
        assert plain["operations"] == ["close", "references"]
        with pytest.raises(UnsupportedError, match=r"cannot sync cookies \(its provider"):
            await host.instances.operate("chromium~plain", "sync_cookies", {"fromFile": "x"})
        with pytest.raises(UnsupportedError, match=r"cannot detach \(its provider"):
            await host.instances.operate("chromium~plain", "detach")

        work = await host.instances.launch("chromium", {"profile": "work"}, "work")
        assert work["operations"] == ["close", "sync_cookies", "references"]
        imported = await host.instances.operate(
            "chromium~work", "sync_cookies", {"fromFile": str(given), "domains": ["example.com"]}
        )
        assert imported["result"] == {"copiedCookies": {"domains": ["example.com"], "count": 1}}
        written = tmp_path / "out.json"
        await host.instances.operate("chromium~work", "sync_cookies", {"toFile": str(written)})
        assert stat.S_IMODE(written.stat().st_mode) == 0o600
        saved = json.loads(written.read_text())["cookies"]
        assert [(c["name"], c["domain"]) for c in saved] == [("flavor", "example.com")]
        with pytest.raises(ProviderRejectedError, match="exactly one of fromFile or toFile"):
            await host.instances.operate("chromium~work", "sync_cookies", {})
        # Read and written on the host's machine: a relative path, or a folder that is not
        # there, is refused and nothing is written (no folder made).
        with pytest.raises(ProviderRejectedError, match=r"out\.json is not an absolute path"):
            await host.instances.operate("chromium~work", "sync_cookies", {"toFile": "out.json"})
        nowhere = tmp_path / "missing" / "out.json"
        with pytest.raises(ProviderRejectedError, match=r"There is no folder .*missing"):
            await host.instances.operate("chromium~work", "sync_cookies", {"toFile": str(nowhere)})
        assert not nowhere.parent.exists()
        found = await host.instances.operate("chromium~work", "references")
        assert found["result"] == {
            "references": [{"kind": "profile", "id": "work", "label": "Profile work"}]
        }
    finally:
        await host.aclose()

    again = Host(data)
    again.catalog.install(register())
    try:
        assert again.instances.restore() == ["chromium~work"]
        [row] = again.instances.listing()
        assert (row["status"], row["control"]) == ("stopped", {"kind": "none"})
        assert row["operations"] == ["close", "start", "sync_cookies", "references"]
        after = (await again.instances.operate("chromium~work", "start"))["instance"]
        assert isinstance(after, dict)
        assert (after["status"], after["control"]["kind"]) == ("connected", "provider")
        assert after["operations"] == ["close", "sync_cookies", "references"]
        written = tmp_path / "kept.json"
        await again.instances.operate("chromium~work", "sync_cookies", {"toFile": str(written)})
        kept = json.loads(written.read_text())["cookies"]
        assert [c["name"] for c in kept] == ["flavor"]  # kept in the profile across the restart
    finally:
        await again.aclose()
