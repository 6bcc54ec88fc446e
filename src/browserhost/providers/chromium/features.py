"""The Chromium features the provider switches off, and how the switch reaches Chromium.

A full Chromium in headless mode (Debian's ``chromium``, say, rather than Playwright's headless
shell) builds, for every window it opens, the address bar's suggestion popup: a page of its own
in a renderer of its own, which nothing ever shows. Every session's browser context opens a
window, so every session paid for it: about 1.1 s of CPU and a renderer's memory each, more
than the session's own page.

Chromium reads one ``--disable-features`` switch, the last, and Playwright passes its own
list; a second switch would silently drop Playwright's. So the browser is started through a
small shell script (:func:`launch_command`) that merges every ``--disable-features`` it is
given into one and starts Chromium with it. Where that script cannot be written, Chromium
starts as before, with the popup.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shlex
import tempfile
from pathlib import Path

import platformdirs

logger = logging.getLogger(__name__)

UNSHOWN = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
"""The address bar's popups, built as pages: a headless window never shows them."""

_MERGING = """#!/bin/sh
# Written by browserhost: starts Chromium with every --disable-features switch it is given
# merged into one (Chromium reads only the last).
disabled=
for arg do
  shift
  case $arg in
    --disable-features=*) disabled=${{disabled:+$disabled,}}${{arg#--disable-features=}} ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec {executable} ${{disabled:+"--disable-features=$disabled"}} "$@"
"""


def launch_command(executable: str, *, headless: bool = True) -> tuple[str, list[str]]:
    """What to start for ``executable`` and the switches to add: the merging script and
    :data:`UNSHOWN` switched off, or ``executable`` alone where no script can be written. A
    window a person sees keeps the popups Chromium would show there."""
    if os.name != "posix" or not headless:
        return executable, []
    script = _MERGING.format(executable=shlex.quote(executable))
    try:
        path = _written(script)
    except OSError as exc:
        logger.debug("Chromium starts with its address bar popups: %s", exc)
        return executable, []
    return str(path), [switched_off(UNSHOWN)]


def switched_off(names: tuple[str, ...]) -> str:
    return "--disable-features=" + ",".join(names)


def _written(script: str) -> Path:
    """``script``, executable, in the user's cache: written once for each Chromium, under a
    name its content decides, so a host that starts many browsers writes it once, and two
    hosts writing it at once each rename a whole file into place."""
    directory = platformdirs.user_cache_path("browserhost") / "chromium"
    path = directory / f"merging-{hashlib.sha256(script.encode()).hexdigest()[:16]}"
    if path.is_file() and os.access(path, os.X_OK):
        return path
    directory.mkdir(parents=True, exist_ok=True)
    descriptor, partial = tempfile.mkstemp(dir=directory, prefix=".merging-")
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(script)
        os.chmod(partial, 0o755)  # noqa: S103  # a program, run by this user's own Playwright
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    return path
