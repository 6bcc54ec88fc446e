"""The browser provider contract: actions, parameters, answers, errors and limits.

Imports nothing but pydantic, so a provider package can depend on it cheaply.
"""

from .actions import ACTIONS, ActionCall, ActionName, ActionSpec, Parameters, normalize
from .errors import BrowserhostError, ErrorCode
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
