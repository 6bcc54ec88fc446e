"""Run a provider as a service process on loopback: ``POST /browser-control``.

The host reaches such a provider through a catalog record with
``"endpoint": "http://127.0.0.1:<port>"`` and ``"token": "<the service's token>"``. From the
shell::

    BROWSERHOST_SERVICE_TOKEN=... python -m browserhost.sdk.service \\
        browserhost.providers.stub:StubProvider --port 9100

Any web page the user visits can post to a loopback port, so the service sits behind the same
gate as the host's API (:mod:`browserhost.gate`): the bearer token, a loopback Host, no
foreign Origin, a JSON body of at most 1 MiB, all checked before the body is read. The token
comes from the environment (never the command line, where other users can read it); without
one, the service makes one and prints it.

The body is read with :meth:`ProviderRequest.from_wire`; a body that is not a browser action
is answered with HTTP 400, everything else with HTTP 200 and the provider's wire answer.
"""

from __future__ import annotations

import argparse
import importlib
import os
import secrets
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from browserhost.contract import ProviderRequest
from browserhost.contract.limits import PROVIDER_PATH
from browserhost.gate import Gate

from .provider import Provider

if TYPE_CHECKING:
    from starlette.applications import Starlette

TOKEN_ENV = "BROWSERHOST_SERVICE_TOKEN"  # noqa: S105  # the variable's name, not a secret


def service_app(provider: Provider, token: str) -> Starlette:
    """An ASGI app that answers the host's posts with ``provider``, to callers sending
    ``Authorization: Bearer <token>`` from this machine."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    if not token:
        raise ValueError(f"a provider service needs a token; set {TOKEN_ENV}")

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

    gate = Middleware(
        Gate,
        token=token,
        unauthorized_hint=(
            f"it is the service's {TOKEN_ENV}, given to the host as the provider record's "
            '"token".'
        ),
        host_hint="A provider service answers only 127.0.0.1, localhost or ::1.",
    )
    return Starlette(
        routes=[Route(PROVIDER_PATH, browser_control, methods=["POST"])],
        middleware=[gate],
        lifespan=lifespan,
    )


def serve(
    provider: Provider, host: str = "127.0.0.1", port: int = 0, token: str | None = None
) -> None:
    """Serve ``provider`` until interrupted. Loopback only: the host calls nothing else.

    ``token`` defaults to ``BROWSERHOST_SERVICE_TOKEN``; when that is unset too, a new one is
    made for this run and printed to stderr.
    """
    import uvicorn

    token = token or os.environ.get(TOKEN_ENV) or _new_token()
    uvicorn.run(service_app(provider, token), host=host, port=port, log_level="warning")


def _new_token() -> str:
    token = secrets.token_urlsafe(32)
    print(
        f"No {TOKEN_ENV} is set, so this run's token is {token}. Give it to the host as the "
        f'provider record\'s "token", or set {TOKEN_ENV} to keep one across restarts.',
        file=sys.stderr,
        flush=True,
    )
    return token


def _load(target: str) -> Provider:
    module_name, _, attribute = target.partition(":")
    factory = getattr(importlib.import_module(module_name), attribute)
    provider = factory()
    if not isinstance(provider, Provider):
        raise SystemExit(f"{target} did not give a browserhost.sdk.Provider")
    return provider


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Serve a browserhost provider on loopback.",
        epilog=f"The token comes from {TOKEN_ENV}; without it, one is made and printed.",
    )
    parser.add_argument("provider", help="module:Class of a browserhost.sdk.Provider")
    parser.add_argument("--host", default="127.0.0.1", choices=["127.0.0.1", "localhost", "::1"])
    parser.add_argument("--port", type=int, default=9100)
    arguments = parser.parse_args(argv)
    serve(_load(arguments.provider), arguments.host, arguments.port)


if __name__ == "__main__":
    main()
