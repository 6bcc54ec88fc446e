"""What a provider author needs: the provider interface, request parsing and limits.

Importing this package imports only the contract (pydantic); :func:`serve` loads its web
server (Starlette, uvicorn) only when called.
"""

from browserhost.contract import Context, ProviderRequest

from .provider import ActionError, Provider, refusal
from .service import serve, service_app
from .verbs import VerbArguments, verb

__all__ = [
    "ActionError",
    "Context",
    "Provider",
    "ProviderRequest",
    "VerbArguments",
    "refusal",
    "serve",
    "service_app",
    "verb",
]
