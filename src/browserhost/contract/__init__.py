"""The browser provider contract: actions, parameters, answers, errors and limits.

Imports nothing but pydantic, so a provider package can depend on it cheaply. The names below
load on first use: a module that needs only the plain ones (:mod:`.errors`, :mod:`.limits`,
:mod:`.outline`) builds no model.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import ACTIONS, ActionCall, ActionSpec, Parameters, normalize
    from .errors import BrowserhostError, ErrorCode
    from .outline import ActionName
    from .verbs import VERB_PREFIX, VerbSpec, verb_name
    from .wire import Context, ProviderRequest, Refusal, Result, Success, parse_result

__all__ = [
    "ACTIONS",
    "VERB_PREFIX",
    "ActionCall",
    "ActionName",
    "ActionSpec",
    "BrowserhostError",
    "Context",
    "ErrorCode",
    "Parameters",
    "ProviderRequest",
    "Refusal",
    "Result",
    "Success",
    "VerbSpec",
    "normalize",
    "parse_result",
    "verb_name",
]

_HOMES = {
    **dict.fromkeys(("ACTIONS", "ActionCall", "ActionSpec", "Parameters", "normalize"), "actions"),
    **dict.fromkeys(("BrowserhostError", "ErrorCode"), "errors"),
    "ActionName": "outline",
    **dict.fromkeys(("VERB_PREFIX", "VerbSpec", "verb_name"), "verbs"),
    **dict.fromkeys(
        ("Context", "ProviderRequest", "Refusal", "Result", "Success", "parse_result"), "wire"
    ),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'browserhost.contract' has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
