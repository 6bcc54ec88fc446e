"""browserhost: one browser tool for AI agents, any browser behind it.

What a script imports: the :class:`Client` and the errors it raises. Names load on first
use, so ``import browserhost`` stays light (no httpx, FastAPI, Playwright or MCP SDK)::

    from browserhost import Client, NothingRanError
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from browserhost.client import Client, HostRefusedError, HostUnavailableError
    from browserhost.contract.errors import (
        ActionCancelledError,
        BrowserhostError,
        CatalogUnavailableError,
        ErrorCode,
        InvalidActionError,
        InvalidSelectionError,
        MayHaveRunError,
        NoProviderError,
        NothingRanError,
        ProviderNotFoundError,
        ProviderRejectedError,
        ProviderUnavailableError,
        RequestFailedError,
        SelectionUnavailableError,
        UnknownResultError,
        UnsupportedError,
    )

__all__ = [
    "ActionCancelledError",
    "BrowserhostError",
    "CatalogUnavailableError",
    "Client",
    "ErrorCode",
    "HostRefusedError",
    "HostUnavailableError",
    "InvalidActionError",
    "InvalidSelectionError",
    "MayHaveRunError",
    "NoProviderError",
    "NothingRanError",
    "ProviderNotFoundError",
    "ProviderRejectedError",
    "ProviderUnavailableError",
    "RequestFailedError",
    "SelectionUnavailableError",
    "UnknownResultError",
    "UnsupportedError",
]


_CLIENT_NAMES = frozenset({"Client", "HostRefusedError", "HostUnavailableError"})


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'browserhost' has no attribute {name!r}")
    home = "browserhost.client" if name in _CLIENT_NAMES else "browserhost.contract.errors"
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
