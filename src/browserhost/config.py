"""Where browserhost keeps its state, and the API token.

The data dir is ``--data-dir``, else ``BROWSERHOST_DATA_DIR``, else the platform's user data
dir. The token is ``BROWSERHOST_TOKEN`` when set; otherwise it is generated once, stored as
``token`` (mode 0600) in the data dir and reused on every start.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import platformdirs

TOKEN_FILE = "token"  # noqa: S105  # a file name, not a secret
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 7878


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


def ensure_token(directory: Path) -> str:
    """The server's token: from the environment, the token file, or newly generated."""
    existing = read_token(directory)
    if existing is not None:
        return existing
    directory.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    path = token_path(directory)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(token + "\n")
    return token


def enabled_providers() -> list[str] | None:
    """``BROWSERHOST_PROVIDERS=stub,chromium`` narrows which providers load; unset loads all."""
    raw = os.environ.get("BROWSERHOST_PROVIDERS")
    if raw is None or not raw.strip():
        return None
    return [name.strip() for name in raw.split(",") if name.strip()]
