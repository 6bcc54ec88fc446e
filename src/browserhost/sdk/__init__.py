"""What a provider author needs: the provider interface, request parsing and limits.

Importing this package imports only the contract (pydantic); :func:`serve` loads its web
server (Starlette, uvicorn) only when called.

A provider with a surface subclasses :class:`Surface` (frames out, a person's input in) and
returns it from :meth:`Provider.surface`; the event and frame types are the contract's own.
"""

from browserhost.contract import Context, ProviderRequest
from browserhost.contract.surface import (
    Controller,
    Frame,
    InputEvent,
    KeyEvent,
    PointerEvent,
    Size,
    Surface,
    SurfaceSession,
    TextEvent,
    WheelEvent,
)

from .provider import ActionError, Dock, Panel, Provider, refusal
from .service import PANEL_PATH, serve, service_app
from .verbs import VerbArguments, verb

__all__ = [
    "PANEL_PATH",
    "ActionError",
    "Context",
    "Controller",
    "Dock",
    "Frame",
    "InputEvent",
    "KeyEvent",
    "Panel",
    "PointerEvent",
    "Provider",
    "ProviderRequest",
    "Size",
    "Surface",
    "SurfaceSession",
    "TextEvent",
    "VerbArguments",
    "WheelEvent",
    "refusal",
    "serve",
    "service_app",
    "verb",
]
