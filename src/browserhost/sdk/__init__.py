"""What a provider author needs: the provider interface, request parsing and limits.

Importing this package imports only the contract (pydantic); :func:`serve` loads its web
server (Starlette, uvicorn) only when called.

A provider with a surface subclasses :class:`Surface` (frames out, a person's input in) and
returns it from :meth:`Provider.surface`; the event and frame types are the contract's own.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from browserhost.contract import Context, ProviderRequest
from browserhost.contract.checks import Finding
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

from .launching import Launcher
from .provider import ActionError, Dock, Panel, Provider, refusal, seconds_left
from .verbs import VerbArguments, verb

if TYPE_CHECKING:
    from .service import PANEL_PATH, serve, service_app

_FROM_SERVICE = frozenset({"PANEL_PATH", "serve", "service_app"})


def __getattr__(name: str) -> Any:
    # The runner is also run as a program (python -m browserhost.sdk.service); importing it
    # with the package would load it twice.
    if name in _FROM_SERVICE:
        return getattr(import_module(".service", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "PANEL_PATH",
    "ActionError",
    "Context",
    "Controller",
    "Dock",
    "Finding",
    "Frame",
    "InputEvent",
    "KeyEvent",
    "Launcher",
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
    "seconds_left",
    "serve",
    "service_app",
    "verb",
]
