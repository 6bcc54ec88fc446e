"""Playwright, the chromium provider's one optional dependency, imported here and nowhere else.

Importing the provider package does not import Playwright. :class:`Driver` imports it and
starts its driver (a Node process) when a browser is first needed; ``driver.PlaywrightError``
and ``driver.PlaywrightTimeoutError`` are Playwright's error classes, imported when first
named (an ``except`` clause names them only when an exception reaches it). Without the
``chromium`` extra, either raises :class:`~browserhost.sdk.ActionError` saying what to
install.
"""

from __future__ import annotations

import asyncio
from types import ModuleType
from typing import TYPE_CHECKING, Any

from browserhost.sdk import ActionError

if TYPE_CHECKING:
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import Playwright
    from playwright.async_api import TimeoutError as PlaywrightTimeoutError

__all__ = ["INSTALL_PLAYWRIGHT", "Driver", "PlaywrightError", "PlaywrightTimeoutError"]

INSTALL_PLAYWRIGHT = "Install the chromium extra: pip install 'browserhost[chromium]'"

_ERRORS = {"PlaywrightError": "Error", "PlaywrightTimeoutError": "TimeoutError"}
"""The names this module gives Playwright's error classes, and theirs."""


def __getattr__(name: str) -> Any:
    """Playwright's error classes, imported the first time one is named (PEP 562)."""
    if name not in _ERRORS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(api(), _ERRORS[name])
    globals()[name] = value
    return value


def api() -> ModuleType:
    """``playwright.async_api``, imported on first use."""
    try:
        import playwright.async_api
    except ImportError:
        raise ActionError(INSTALL_PLAYWRIGHT) from None
    return playwright.async_api


class Driver:
    """Playwright's driver, started on first use and shared by what launches or connects a
    provider's browsers (its :class:`~.launch.Launcher` and :class:`~.grid.Grid`)."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._playwright: Playwright | None = None

    async def start(self) -> Playwright:
        """The running driver, started when there is none."""
        async with self._lock:
            if self._playwright is None:
                self._playwright = await api().async_playwright().start()
            return self._playwright

    def forget(self) -> None:
        """The driver died (its connection closed): the next :meth:`start` starts another."""
        self._playwright = None

    async def stop(self) -> None:
        playwright, self._playwright = self._playwright, None
        if playwright is not None:
            await playwright.stop()
