"""A provider service someone else runs (a record's ``endpoint``): the loopback transport, once
the service has said hello in the host's protocol version.

Reference 001: installation records, running processes and callers must speak one protocol
version. A record's declared version is checked at install; the running process is asked here.
Before the first request, and again after one that did not reach the service or got no answer
(its process may have been replaced by another build), the transport asks ``GET`` at the
endpoint for the service's hello (:class:`~browserhost.contract.wire.ServiceHello`). A service
of another version, or one that gives no hello, is sent nothing: :class:`NotSentError`, whose
message names both versions. A process replaced between two answered requests is not asked
again; it refuses an envelope of another version itself, unrun, as the SDK's runner does. A
host greets the services it starts itself the same way (``host/services.py``).
"""

from __future__ import annotations

import asyncio

from browserhost.contract import ProviderRequest
from browserhost.contract.lifecycle import LifecycleRequest
from browserhost.contract.limits import PROVIDER_PATH
from browserhost.contract.wire import ProtocolVersionError, ServiceHello, check_version

from .base import BadAnswerError, LostError, NotSentError
from .loopback import LoopbackTransport, exchange, service_client

HELLO_WAIT_S = 5.0
"""The longest the hello may take (within the request's own deadline)."""
HELLO_MAX_BYTES = 64 * 1024
"""A hello lists the actions a service implements: a few hundred bytes."""


class EndpointTransport:
    """Posts each request to ``url`` as :class:`LoopbackTransport` does, after the hello."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self._url = url
        self._token = token
        self._loopback = LoopbackTransport(url, token)
        self._greeted = False
        self._greeting = asyncio.Lock()

    async def send(self, request: ProviderRequest, timeout_s: float) -> object:
        await self._greet(timeout_s)
        try:
            return await self._loopback.send(request, timeout_s)
        except (NotSentError, LostError):
            self._greeted = False  # whatever answers next may be another process
            raise

    async def operate(self, request: LifecycleRequest, timeout_s: float) -> object:
        """One lifecycle operation (:meth:`LoopbackTransport.operate`), after the hello."""
        await self._greet(timeout_s)
        try:
            return await self._loopback.operate(request, timeout_s)
        except (NotSentError, LostError):
            self._greeted = False
            raise

    async def abandon(self, request_id: str) -> None:
        await self._loopback.abandon(request_id)

    async def aclose(self) -> None:
        await self._loopback.aclose()

    async def _greet(self, timeout_s: float) -> None:
        async with self._greeting:  # concurrent first requests ask once
            if self._greeted:
                return
            hello = await self._hello(min(timeout_s, HELLO_WAIT_S))
            try:
                check_version(hello.protocol_version, "the service speaks", "this host")
            except ProtocolVersionError as exc:
                raise NotSentError(str(exc)) from None
            self._greeted = True

    async def _hello(self, timeout_s: float) -> ServiceHello:
        try:
            async with service_client(self._token) as client:
                response, body = await exchange(
                    client,
                    "GET",
                    self._url,
                    timeout_s,
                    unreachable="The provider service is not reachable.",
                    limit=HELLO_MAX_BYTES,
                )
        except (LostError, BadAnswerError) as exc:  # the hello's failure: the request never left
            raise NotSentError(f"it did not say hello: {str(exc).rstrip('.')}") from None
        hello = ServiceHello.read(body) if response.status_code == 200 else None
        if hello is None:
            raise NotSentError(
                f"its endpoint answered GET with HTTP {response.status_code} and no hello; a "
                f"provider service must answer {{protocolVersion, actions, surface}} at "
                f"GET {PROVIDER_PATH} (browserhost's service runner does)"
            )
        return hello
