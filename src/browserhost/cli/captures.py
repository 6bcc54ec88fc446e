"""Where ``browserhost capture`` writes its image: ``-o FILE``, else the project's
``.browserhost/captures/``, named as the host names a capture it saves itself.

Without ``--project`` the CLI writes it: its session is the same from every directory, so
the directory a command runs in is not the session's project, and the host saves nothing.
With ``--project`` the host saves it there, and ``-o`` moves that file.
"""

from __future__ import annotations

import base64
import binascii
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

from rich.text import Text

from browserhost.captures import save_capture

from .output import EXIT_MAY_HAVE_RUN, EXIT_NOT_WRITTEN, USAGE_ERROR, err


def check_output(output: Path | None) -> None:
    """Refuse ``-o`` into a folder that does not exist before sending: nothing runs."""
    if output is not None and not output.parent.is_dir():
        what = "is a file, not a folder" if output.parent.exists() else "is no folder"
        err.print(
            Text(
                f"Cannot write {output}: {output.parent} {what}; create the folder or "
                "choose another -o FILE. Nothing was sent."
            )
        )
        raise SystemExit(USAGE_ERROR)


def write_capture(
    answer: Mapping[str, Any], output: Path | None, label: str | None, project: Path
) -> Path:
    """Put the answer's image at ``output``, else in a new file under ``project``'s captures
    folder; a copy the host saved (``path``) is moved, not left beside it. Exits saying why
    when it cannot."""
    saved = answer.get("path")
    if isinstance(saved, str) and Path(saved).is_file():
        if output is None:
            return Path(saved)
        try:
            shutil.move(saved, output)
        except OSError as exc:
            _not_written(output, exc, "choose another -o FILE")
        return output
    image = _image(answer)
    if output is not None:
        try:
            output.write_bytes(image)
        except OSError as exc:
            _not_written(output, exc, "choose another -o FILE")
        return output
    written = save_capture(dict(answer), str(project.resolve()), label)
    if written is None:
        err.print(
            Text(f"Cannot write under {project}: the capture was taken but not saved; use -o FILE.")
        )
        raise SystemExit(EXIT_NOT_WRITTEN)
    return written


def _image(answer: Mapping[str, Any]) -> bytes:
    try:
        image = base64.b64decode(str(answer.get("base64", "")), validate=True)
    except (binascii.Error, ValueError):
        image = b""
    if not image:
        err.print("The capture holds no image; nothing was written.")
        raise SystemExit(EXIT_MAY_HAVE_RUN)
    return image


def _not_written(target: Path, exc: OSError, instead: str) -> NoReturn:
    err.print(
        Text(
            f"Cannot write {target} ({exc.strerror}): the capture was taken but not saved; "
            f"{instead}."
        )
    )
    raise SystemExit(EXIT_NOT_WRITTEN) from None
