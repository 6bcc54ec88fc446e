"""The features the provider switches off in Chromium, and the script that merges its switch
with Playwright's."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from browserhost.contract import Context
from browserhost.providers.chromium import ChromiumProvider, features

from .driving import ok
from .site import Site

SHOWN_ARGS = '#!/bin/sh\nprintf "%s\\n" "$@"\n'
"""A stand-in for Chromium that prints the arguments it was started with, one a line."""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's cache, a folder of the test's own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


def _stand_in(directory: Path) -> str:
    path = directory / "chromium"
    path.write_text(SHOWN_ARGS)
    path.chmod(0o755)
    return str(path)


@pytest.mark.slow
def test_the_script_starts_chromium_with_every_disable_features_switch_merged_into_one(
    cache: Path, tmp_path: Path
) -> None:
    started, added = features.launch_command(_stand_in(tmp_path))
    assert added == [
        "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"
    ]
    assert Path(started).parent == cache / "browserhost" / "chromium"
    shown = subprocess.run(
        [started, "--headless", "--disable-features=One,Two", "two words", "", *added],
        capture_output=True, text=True, check=True, timeout=30,
    )  # fmt: skip
    assert shown.stdout.splitlines() == [
        "--disable-features=One,Two,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
        "--headless",
        "two words",
        "",
    ]
    # The same Chromium again: the script written for it is started again, not written anew.
    assert features.launch_command(_stand_in(tmp_path))[0] == started
    assert [path.name for path in Path(started).parent.iterdir()] == [Path(started).name]


@pytest.mark.slow
def test_without_a_disable_features_switch_the_script_adds_none(
    cache: Path, tmp_path: Path
) -> None:
    started, _ = features.launch_command(_stand_in(tmp_path))
    shown = subprocess.run(
        [started, "--headless", "it's"], capture_output=True, text=True, check=True, timeout=30
    )
    assert shown.stdout.splitlines() == ["--headless", "it's"]


def test_where_no_script_can_be_written_chromium_starts_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    not_a_folder = tmp_path / "cache"
    not_a_folder.write_text("a file where the cache would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(not_a_folder))
    # No switch of its own either: alone, it would take the place of Playwright's.
    assert features.launch_command("/usr/bin/chromium") == ("/usr/bin/chromium", [])


def _descendants(root: int) -> list[str]:
    """The command lines of every process below ``root``, each as one string (Chromium's
    own processes rewrite theirs so)."""
    children: dict[int, list[int]] = {}
    lines: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue  # ended meanwhile
        children.setdefault(parent, []).append(int(entry.name))
        lines[int(entry.name)] = line.decode(errors="replace")
    found, waiting = [], list(children.get(root, []))
    while waiting:
        pid = waiting.pop()
        found.append(lines[pid])
        waiting.extend(children.get(pid, []))
    return found


@pytest.mark.asyncio(loop_scope="module")
async def test_a_session_adds_no_address_bar_popup_and_playwrights_switches_stay(
    provider: ChromiumProvider, site: Site
) -> None:
    for name in ("first", "second"):
        await ok(provider, Context(session_id=f"popup-{name}"), "browser.open", url=site.url("/"))
    processes = _descendants(os.getpid())
    browser = next(line for line in processes if "--remote-debugging-pipe" in line)
    switched_off = [arg for arg in browser.split() if arg.startswith("--disable-features=")]
    assert len(switched_off) == 1  # Chromium reads the last one only
    off = switched_off[0].removeprefix("--disable-features=").split(",")
    assert set(features.UNSHOWN) <= set(off)
    assert len(off) > len(features.UNSHOWN)  # Playwright's own are kept
    renderers = [line for line in processes if "--type=renderer" in line]
    assert renderers  # the pages' own
    assert not [line for line in renderers if "--top-chrome-webui" in line]


def test_a_window_a_person_sees_keeps_its_popups() -> None:
    assert features.launch_command("/usr/bin/chromium", headless=False) == (
        "/usr/bin/chromium",
        [],
    )
