"""Saving ``browser.capture`` images (and the chromium ``pdf`` verb's PDFs) into the project
the agent works in.

Images go to ``<directory>/.browserhost/captures/<timestamp>-<label>.<ext>``. The label is
reduced to safe characters and bounded, and the final path must resolve inside that folder,
so no label can write anywhere else.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
from datetime import UTC, datetime
from pathlib import Path

from browserhost.contract.errors import UnknownResultError
from browserhost.contract.limits import CAPTURE_LABEL_MAX

CAPTURES_DIR = Path(".browserhost") / "captures"
_EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}
_unsafe = re.compile(r"[^A-Za-z0-9_-]+")

log = logging.getLogger(__name__)


def safe_label(label: str | None, empty: str = "capture") -> str:
    """``../../etc passwd`` → ``etc-passwd``: letters, digits, ``-`` and ``_`` only; ``empty``
    when nothing is left."""
    cleaned = _unsafe.sub("-", label or "").strip("-_")[:CAPTURE_LABEL_MAX].strip("-_")
    return cleaned or empty


def save_capture(data: dict[str, object], directory: str | None, label: str | None) -> Path | None:
    """Write the image in ``data`` under ``directory``; ``None`` when there is no project or
    the image could not be written there."""
    if directory is None:
        return None
    project = Path(directory)
    if not project.is_absolute() or not project.is_dir():
        return None
    encoded, mime = data.get("base64"), data.get("mime", "image/png")
    extension = _EXTENSIONS.get(mime) if isinstance(mime, str) else None
    if not isinstance(encoded, str) or extension is None:
        raise UnknownResultError("The provider's capture has no base64 PNG or JPEG image.")
    try:
        image = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise UnknownResultError("The provider's capture is not valid base64.") from None
    return save_in_captures(project, image, label, extension)


def save_in_captures(
    project: Path, content: bytes, label: str | None, extension: str
) -> Path | None:
    """Write ``content`` as a new file in the project's captures folder, named by the time
    and ``label``; ``None`` when it could not be written there (logged)."""
    folder = (project.resolve() / CAPTURES_DIR).resolve()
    if not folder.is_relative_to(project.resolve()):
        # A .browserhost symlink must not carry captures out of the project.
        log.warning("not saving the capture: %s is outside %s", folder, project)
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    stem = f"{stamp}-{safe_label(label)}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for attempt in range(1, 100):
            name = f"{stem}.{extension}" if attempt == 1 else f"{stem}-{attempt}.{extension}"
            target = folder / name
            if target.resolve().parent != folder:  # a safe label cannot do this; a link can
                continue
            try:
                with target.open("xb") as handle:
                    handle.write(content)
            except FileExistsError:
                continue
            return target
    except OSError as exc:
        # The capture itself succeeded: the agent still gets the image in `data`, without a
        # path, rather than a server error for a folder it cannot write.
        log.warning("could not save the capture under %s: %s", folder, exc)
        return None
    log.warning("could not save the capture: too many named %s in %s", stem, folder)
    return None
