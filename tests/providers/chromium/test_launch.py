"""Finding the browser, the configuration, and the provider without Playwright installed."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from browserhost.providers.chromium import ChromiumConfig
from browserhost.providers.chromium.launch import INSTALL_CHROMIUM, find_chromium
from browserhost.sdk import ActionError


def _executable(directory: Path, name: str) -> str:
    path = directory / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def bare_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH holding only an empty directory of the test's own."""
    directory = tmp_path / "bin"
    directory.mkdir()
    monkeypatch.setenv("PATH", str(directory))
    return directory


def test_the_configured_executable_wins(bare_path: Path, tmp_path: Path) -> None:
    _executable(bare_path, "chromium")
    configured = _executable(tmp_path, "my-chrome")
    assert find_chromium(configured) == configured


def test_a_configured_path_that_is_not_an_executable_is_refused(tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere" / "chrome")
    with pytest.raises(ActionError) as refused:
        find_chromium(missing)
    assert str(refused.value) == (
        f"BROWSERHOST_CHROMIUM is set to {missing}, which is not an executable file; point it "
        "at a Chromium or Chrome binary, or unset it."
    )


def test_path_is_searched_in_the_documented_order(bare_path: Path) -> None:
    chrome = _executable(bare_path, "google-chrome")
    assert find_chromium(None) == chrome
    browser = _executable(bare_path, "chromium-browser")
    assert find_chromium(None) == browser
    chromium = _executable(bare_path, "chromium")
    assert find_chromium(None, downloaded=chrome) == chromium


def test_playwrights_own_chromium_is_the_last_resort(bare_path: Path, tmp_path: Path) -> None:
    downloaded = _executable(tmp_path, "chrome")
    assert find_chromium(None, downloaded=downloaded) == downloaded


def test_no_browser_anywhere_says_how_to_install_one(bare_path: Path, tmp_path: Path) -> None:
    with pytest.raises(ActionError) as refused:
        find_chromium(None, downloaded=str(tmp_path / "not-downloaded"))
    assert str(refused.value) == INSTALL_CHROMIUM
    assert "apt-get install chromium" in INSTALL_CHROMIUM
    assert "playwright install chromium" in INSTALL_CHROMIUM


def test_config_reads_the_environment_and_treats_blank_as_unset() -> None:
    config = ChromiumConfig.from_env(
        {"BROWSERHOST_CHROMIUM": " /opt/chrome ", "BROWSERHOST_CHROMIUM_ENDPOINT": ""}
    )
    assert config == ChromiumConfig(executable="/opt/chrome", endpoint=None)
    remote = ChromiumConfig.from_env({"BROWSERHOST_CHROMIUM_ENDPOINT": "ws://fleet:3000/pw"})
    assert remote.endpoint == "ws://fleet:3000/pw"


@pytest.mark.slow
def test_without_playwright_the_package_imports_and_actions_say_what_to_install() -> None:
    """In a fresh interpreter where Playwright cannot be imported."""
    script = textwrap.dedent(
        """
        import asyncio, json, sys
        sys.modules["playwright"] = None  # makes every playwright import fail
        import browserhost.providers.chromium as chromium
        from browserhost.contract import Context, ProviderRequest, normalize
        from browserhost.providers.chromium import register

        record = register()
        call = normalize("browser.snapshot", {})
        request = ProviderRequest("r1", call.name, call.parameters, Context())
        provider = chromium.ChromiumProvider()

        async def main():
            answer = await record["answer"](request)
            await provider.aclose()
            return answer

        print(json.dumps({"id": record["id"], "answer": asyncio.run(main())}))
        """
    )
    finished = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    result = json.loads(finished.stdout)
    assert result == {
        "id": "chromium",
        "answer": {
            "ok": False,
            "error": "Install the chromium extra: pip install 'browserhost[chromium]'",
        },
    }
