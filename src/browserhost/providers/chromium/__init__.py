"""The built-in ``chromium`` provider: a real Chromium behind all ten browser actions.

Install with ``pip install 'browserhost[chromium]'`` (Playwright). Importing this package does
not import Playwright; the first action does, and fails with an install hint when it is
missing. See :mod:`.launch` for where the browser comes from, :mod:`.contexts` for isolation
per agent chat, and :mod:`.errors` for what an agent reads when an action fails.
"""

from .errors import BrowserGoneError
from .launch import ChromiumConfig
from .provider import INSPECT_STYLES, ChromiumProvider, Timeouts, register

__all__ = [
    "INSPECT_STYLES",
    "BrowserGoneError",
    "ChromiumConfig",
    "ChromiumProvider",
    "Timeouts",
    "register",
]
