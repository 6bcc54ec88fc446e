"""Where ``browserhost capture`` writes its image: ``-o FILE``, else the project's
``.browserhost/captures/`` (the same name the host gives a capture it saves itself).

The CLI writes it, not the host: the CLI's session is the same from every directory, so the
directory a command runs in cannot go to the host as the session's project.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn

from rich.text import Text

from .output import EXIT_MAY_HAVE_RUN, EXIT_NOT_WRITTEN, USAGE_ERROR, err

CAPTURES_DIR = Path(".browserhost") / "captures"
_EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}
_unsafe = re.compile(r"[^A-Za-z0-9_-]+")
_LABEL_MAX = 80


def check_output(output: Path | None) -> None:
    """Refuse ``-o`` into a folder that does not exist before sending: nothing runs."""
    if output is not None and not output.parent.is_dir():
        err.print(
            Text(
                f"Cannot write {output}: there is no folder {output.parent}; create it or "
                "choose another -o FILE. Nothing was sent."
            )
        )
        raise SystemExit(USAGE_ERROR)


def write_capture(
    answer: Mapping[str, Any], output: Path | None, label: str | None, project: Path
) -> Path:
    """Write the answer's image to ``output``, else to a new file under ``project``'s
    captures folder; exits saying why when it cannot."""
    image = _image(answer)
    if output is not None:
        _write(output, image, "choose another -o FILE")
        return output
    extension = _EXTENSIONS.get(str(answer.get("mime")), "png")
    folder = project / CAPTURES_DIR
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    cleaned = _unsafe.sub("-", label or "").strip("-_")[:_LABEL_MAX].strip("-_") or "capture"
    target = folder / f"{stamp}-{cleaned}.{extension}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _not_written(folder, exc, "use -o FILE")
    _write(target, image, "use -o FILE")
    return target


def _image(answer: Mapping[str, Any]) -> bytes:
    try:
        image = base64.b64decode(str(answer.get("base64", "")), validate=True)
    except (binascii.Error, ValueError):
        image = b""
    if not image:
        err.print("The capture holds no image; nothing was written.")
        raise SystemExit(EXIT_MAY_HAVE_RUN)
    return image


def _write(target: Path, image: bytes, instead: str) -> None:
    try:
        target.write_bytes(image)
    except OSError as exc:
        _not_written(target, exc, instead)


def _not_written(target: Path, exc: OSError, instead: str) -> NoReturn:
    err.print(
        Text(
            f"Cannot write {target} ({exc.strerror}): the capture was taken but not saved; "
            f"{instead}."
        )
    )
    raise SystemExit(EXIT_NOT_WRITTEN) from None
