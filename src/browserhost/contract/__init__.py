"""The browser provider contract: actions, parameters, answers, errors and limits.

Imports nothing but pydantic, so a provider package can depend on it cheaply.
"""

from .actions import ACTIONS, ActionCall, ActionName, ActionSpec, Parameters, normalize
from .errors import BrowserhostError, ErrorCode
from .wire import Context, ProviderRequest, Refusal, Result, Success, parse_result

__all__ = [
    "ACTIONS",
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
    "normalize",
    "parse_result",
]
