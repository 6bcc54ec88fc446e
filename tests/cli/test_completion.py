"""Shell completion, as bash and zsh ask the installed command for it (typer's protocol)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.spawning import READY_WAIT_S

pytestmark = pytest.mark.slow


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "browserhost", *args],
        capture_output=True,
        text=True,
        timeout=READY_WAIT_S,
        env={**os.environ, **env},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done


def complete(shell: str, **env: str) -> list[str]:
    return run(_BROWSERHOST_COMPLETE=f"complete_{shell}", **env).stdout.split()


def test_bash_completes_a_verb_and_its_choices() -> None:
    assert complete("bash", COMP_WORDS="browserhost sna", COMP_CWORD="1") == ["snapshot"]
    assert complete("bash", COMP_WORDS="browserhost doc", COMP_CWORD="1") == ["doctor"]
    assert complete("bash", COMP_WORDS="browserhost resize ", COMP_CWORD="2") == [
        "mobile",
        "tablet",
        "desktop",
        "fill",
    ]


def test_zsh_completes_an_option_with_its_help() -> None:
    said = " ".join(complete("zsh", _TYPER_COMPLETE_ARGS="browserhost open --vi"))
    assert '"--viewport":"Viewport to use' in said


def test_the_script_to_install_is_shown_for_bash() -> None:
    # Typer detects the shell it runs under (here, whatever runs the tests) unless told not to;
    # then --show-completion takes the shell's name.
    shown = run("--show-completion", "bash", _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1")
    assert "complete -o default -F _browserhost_completion browserhost" in shown.stdout
