"""Run a provider as a service process on loopback: ``POST /browser-control``.

The host reaches such a provider through a catalog record with
``"endpoint": "http://127.0.0.1:<port>"``. From the shell::

    python -m browserhost.sdk.service browserhost.providers.stub:StubProvider --port 9100

The body is read with :meth:`ProviderRequest.from_wire`; a body that is not a browser action
is answered with HTTP 400, everything else with HTTP 200 and the provider's wire answer.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from browserhost.contract import ProviderRequest
from browserhost.contract.limits import PROVIDER_PATH

from .provider import Provider

if TYPE_CHECKING:
    from starlette.applications import Starlette


def service_app(provider: Provider) -> Starlette:
    """An ASGI app that answers the host's posts with ``provider``."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def browser_control(request: Request) -> JSONResponse:
        parsed = ProviderRequest.from_wire(await request.body())
        if parsed is None:
            return JSONResponse({"error": "not a browser action"}, status_code=400)
        return JSONResponse(await provider.answer(parsed))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await provider.aclose()

    return Starlette(
        routes=[Route(PROVIDER_PATH, browser_control, methods=["POST"])], lifespan=lifespan
    )


def serve(provider: Provider, host: str = "127.0.0.1", port: int = 0) -> None:
    """Serve ``provider`` until interrupted. Loopback only: the host calls nothing else."""
    import uvicorn

    uvicorn.run(service_app(provider), host=host, port=port, log_level="warning")


def _load(target: str) -> Provider:
    module_name, _, attribute = target.partition(":")
    factory = getattr(importlib.import_module(module_name), attribute)
    provider = factory()
    if not isinstance(provider, Provider):
        raise SystemExit(f"{target} did not give a browserhost.sdk.Provider")
    return provider


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve a browserhost provider on loopback.")
    parser.add_argument("provider", help="module:Class of a browserhost.sdk.Provider")
    parser.add_argument("--host", default="127.0.0.1", choices=["127.0.0.1", "localhost", "::1"])
    parser.add_argument("--port", type=int, default=9100)
    arguments = parser.parse_args(argv)
    serve(_load(arguments.provider), arguments.host, arguments.port)


if __name__ == "__main__":
    main()
