"""Where browserhost keeps its state, and the API token.

The data dir is ``--data-dir``, else ``BROWSERHOST_DATA_DIR``, else the platform's user data
dir. The token is ``BROWSERHOST_TOKEN`` when set; otherwise it is generated once, stored as
``token`` (mode 0600) in the data dir and reused on every start. The file is written whole or
not at all (temporary file, fsync, link into place); an empty one, which an older version left
when it crashed mid-write, holds no token any client could use, so a new token replaces it.
A token file that other users may read is made 0600, with a warning in the log. A data dir or
token file that cannot be used raises :class:`DataDirError`, whose message is the one line a
user needs.
"""

from __future__ import annotations

import logging
import os
import secrets
import stat
import tempfile
from pathlib import Path

import platformdirs

TOKEN_FILE = "token"  # noqa: S105  # a file name, not a secret
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 7878
OWN_ADDRESS_ENV = "BROWSERHOST_OWN_ADDRESS"
"""Where ``browserhost serve`` listens (``host:port``), for the providers it runs: a browser
must not show the host's own pages."""

log = logging.getLogger(__name__)


class DataDirError(Exception):
    """The data dir or its token file cannot be used; the message says what to do."""


def data_dir(option: Path | None = None) -> Path:
    if option is not None:
        return option.expanduser().resolve()
    from_env = os.environ.get("BROWSERHOST_DATA_DIR")
    if from_env:
        return Path(from_env).expanduser().resolve()
    return Path(platformdirs.user_data_dir("browserhost", appauthor=False))


def token_path(directory: Path) -> Path:
    return directory / TOKEN_FILE


def read_token(directory: Path) -> str | None:
    """The token a client should send: the environment's, else the data dir's, else none."""
    from_env = os.environ.get("BROWSERHOST_TOKEN")
    if from_env:
        return from_env
    try:
        return token_path(directory).read_text().strip() or None
    except OSError:
        return None


def prepare_data_dir(directory: Path) -> None:
    """Create the data dir if missing, or raise :class:`DataDirError` saying why it cannot be.
    Made for this user alone (0700): it holds the token, logins and what pages downloaded."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    except FileExistsError:
        raise DataDirError(
            f"The data dir {directory} is a file; pass --data-dir a directory (it is created "
            "if missing)."
        ) from None
    except OSError as exc:
        raise DataDirError(
            f"Cannot create the data dir {directory} ({exc.strerror}); pass --data-dir a "
            "directory you can write."
        ) from None


def ensure_token(directory: Path) -> str:
    """The server's token: from the environment, the token file, or newly generated."""
    from_env = os.environ.get("BROWSERHOST_TOKEN")
    if from_env:
        return from_env
    path = token_path(directory)
    stored = _stored_token(path)
    if stored:
        _keep_private(path)
        return stored
    prepare_data_dir(directory)
    token = secrets.token_urlsafe(32)
    try:
        if not _publish(path, token + "\n", replace=stored is not None):
            return ensure_token(directory)  # another start wrote it first: use that one
    except OSError as exc:
        raise DataDirError(
            f"Cannot write the token file {path} ({exc.strerror}); make {directory} writable "
            "or set BROWSERHOST_TOKEN."
        ) from None
    return token


def _keep_private(path: Path) -> None:
    """Make a token file that other users may read 0600, saying so: the token is the API's
    only key."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:  # gone since it was read: the token in hand is still the one served
        return
    if not mode & 0o077:
        return
    try:
        os.chmod(path, 0o600)
    except OSError as exc:
        raise DataDirError(
            f"{path} can be read by other users (mode {mode:04o}) and could not be made 0600 "
            f"({exc.strerror}); run: chmod 600 {path}, or set BROWSERHOST_TOKEN."
        ) from None
    log.warning(
        "%s could be read by other users (mode %04o); it is now 0600. If someone else may "
        "have read it, delete it and restart: a new token is written.",
        path,
        mode,
    )


def stored_token(path: Path) -> str | None:
    """What the token file holds, as :func:`ensure_token` reads it (``browserhost doctor``)."""
    return _stored_token(path)


def _stored_token(path: Path) -> str | None:
    """The token file's token, ``""`` for an empty file, ``None`` when there is no file."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise DataDirError(
            f"{path} is a directory, not a token file; remove it (a new token is written) or "
            "set BROWSERHOST_TOKEN."
        ) from None
    except OSError as exc:
        raise DataDirError(
            f"Cannot read the token file {path} ({exc.strerror}); fix it or set BROWSERHOST_TOKEN."
        ) from None
    except UnicodeDecodeError:
        raise DataDirError(
            f"{path} does not hold a token; remove it (a new token is written) or set "
            "BROWSERHOST_TOKEN."
        ) from None


def _publish(path: Path, content: str, *, replace: bool) -> bool:
    """Put ``content`` at ``path`` whole or not at all, mode 0600; ``False`` if ``path``
    appeared meanwhile (only when not replacing)."""
    # mkstemp creates the file 0600 whatever the umask, so the token is never readable by others.
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".token-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        if replace:
            os.replace(temp, path)
        else:
            # A link, unlike a rename, refuses to overwrite: of two first starts at once, the
            # second keeps the first one's token instead of invalidating it.
            try:
                os.link(temp, path)
            except FileExistsError:
                return False
    finally:
        Path(temp).unlink(missing_ok=True)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
    return True


def enabled_providers() -> list[str] | None:
    """``BROWSERHOST_PROVIDERS=stub,chromium`` narrows which providers load; unset loads all."""
    raw = os.environ.get("BROWSERHOST_PROVIDERS")
    if raw is None or not raw.strip():
        return None
    return [name.strip() for name in raw.split(",") if name.strip()]
