"""A provider service on this machine: the request is one HTTP POST on loopback.

At-most-once delivery: httpx does not retry, and every failure is classified by whether the
request could have reached the service. A refused or timed-out connection never sent
anything; a failure after the connection was made may have run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import zlib
from collections.abc import Callable

import httpx

from browserhost.contract import ProviderRequest
from browserhost.contract.lifecycle import LifecycleRequest
from browserhost.contract.limits import (
    ANSWER_MAX_BYTES,
    CANCEL_PATH,
    LIFECYCLE_PATH,
    PROTOCOL_VERSION,
)

from .base import BadAnswerError, LostError, NotSentError, too_large

_CONNECT_TIMEOUT_S = 5.0
_CANCEL_TIMEOUT_S = 2.0

# The answer encodings the host reads, each with zlib's window bits (gzip and zlib headers
# both detected); httpx's own decoders inflate a whole network read at once, which a gzip
# bomb turns into a hundred megabytes before any cap can look at it.
_ENCODINGS = {"gzip": zlib.MAX_WBITS | 32, "deflate": zlib.MAX_WBITS | 32}


def service_client(token: str | None) -> httpx.AsyncClient:
    """A client for one provider service: its token, no proxy, no retry."""
    headers = {"Accept-Encoding": ", ".join(("identity", *_ENCODINGS))}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.AsyncClient(
        headers=headers,
        trust_env=False,  # a proxy must never sit between the host and a loopback service
        transport=httpx.AsyncHTTPTransport(retries=0),
    )


class NoAnswerInTimeError(LostError):
    """The request was sent and its whole answer did not come within the deadline."""


async def exchange(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    timeout_s: float,
    *,
    unreachable: str,
    body: object = None,
    params: dict[str, str] | None = None,
    limit: int = ANSWER_MAX_BYTES,
    over: Callable[[], BadAnswerError] = too_large,
) -> tuple[httpx.Response, bytes]:
    """One request to a provider service and its answer, read whole (see :func:`read_capped`).
    Failures are classed by whether the request could have reached the service: ``unreachable``
    is the :class:`NotSentError`'s message. A 401 is the service refusing the host's token."""
    timeout = httpx.Timeout(timeout_s, connect=min(_CONNECT_TIMEOUT_S, timeout_s))
    try:
        # httpx times each read separately; the deadline is for the whole answer, so a
        # service that trickles bytes cannot hold the agent past it.
        async with (
            asyncio.timeout(timeout_s),
            client.stream(method, url, json=body, params=params, timeout=timeout) as response,
        ):
            read = await read_capped(response, limit, over)
    except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
        raise NotSentError(unreachable) from exc
    except (httpx.TimeoutException, TimeoutError) as exc:
        raise NoAnswerInTimeError(f"No answer within {timeout_s:g} s.") from exc
    except httpx.HTTPError as exc:
        raise LostError("The connection to the provider service was lost.") from exc
    if response.status_code == 401:
        raise token_refused()
    return response, bytes(read)


class LoopbackTransport:
    """Posts each request to ``url``; ``token`` is the service's own bearer token."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self._url = url
        self._client = service_client(token)
        parts = httpx.URL(url)
        self._cancel_url = str(parts.copy_with(path=CANCEL_PATH, query=None))
        self._lifecycle_url = str(parts.copy_with(path=LIFECYCLE_PATH, query=None))

    async def send(self, request: ProviderRequest, timeout_s: float) -> object:
        return await self._post(self._url, request.to_wire(), timeout_s)

    async def operate(self, request: LifecycleRequest, timeout_s: float) -> object:
        """Post one lifecycle operation (a launch, a close...) to the service's lifecycle
        path and return its JSON answer; failures are classed as :meth:`send`'s."""
        return await self._post(self._lifecycle_url, request.to_wire(), timeout_s)

    async def _post(self, url: str, body: object, timeout_s: float) -> object:
        response, answer = await exchange(
            self._client,
            "POST",
            url,
            timeout_s,
            unreachable="The provider service is not reachable.",
            body=body,
        )
        return _answer(response, answer)

    async def abandon(self, request_id: str) -> None:
        """Post ``{protocolVersion, requestId}`` to the service's cancel path; a service
        without one, or one that does not answer in time, is left to finish."""
        with contextlib.suppress(httpx.HTTPError):
            await self._client.post(
                self._cancel_url,
                json={"protocolVersion": PROTOCOL_VERSION, "requestId": request_id},
                timeout=_CANCEL_TIMEOUT_S,
            )

    async def aclose(self) -> None:
        await self._client.aclose()


def _answer(response: httpx.Response, body: bytes) -> object:
    if response.status_code != 200:
        raise BadAnswerError(f"The provider service answered HTTP {response.status_code}.")
    try:
        return json.loads(body, parse_constant=_not_json)
    except (ValueError, RecursionError):
        raise BadAnswerError("The provider service's answer is not JSON.") from None


def token_refused() -> BadAnswerError:
    return BadAnswerError(
        "The provider service refused the host's token (HTTP 401); put the token it "
        'runs with (its BROWSERHOST_SERVICE_TOKEN) in the provider record\'s "token".'
    )


def _not_json(constant: str) -> object:
    """Python's json reads NaN and Infinity; JSON has no such values, nor can the API send them."""
    raise ValueError(f"{constant} is not JSON")


async def read_capped(
    response: httpx.Response,
    limit: int = ANSWER_MAX_BYTES,
    over: Callable[[], BadAnswerError] = too_large,
) -> bytearray:
    """The decoded answer, read until it is complete or one byte over ``limit`` (then
    ``over()`` is raised)."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise over()
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    if encoding not in ("identity", *_ENCODINGS):
        raise BadAnswerError(
            f"The provider service's answer is encoded as {encoding!r}; send it plain or gzip."
        )
    inflater = zlib.decompressobj(_ENCODINGS[encoding]) if encoding in _ENCODINGS else None
    body = bytearray()
    async for raw in response.aiter_raw():
        if inflater is None:
            body += raw
        else:
            pending = raw
            try:
                # max_length bounds each step, so no more than one byte past the cap is inflated
                while pending and len(body) <= limit:
                    body += inflater.decompress(pending, limit + 1 - len(body))
                    pending = inflater.unconsumed_tail
            except zlib.error:
                raise BadAnswerError(
                    f"The provider service's answer is not valid {encoding}."
                ) from None
        if len(body) > limit:
            raise over()
    return body
