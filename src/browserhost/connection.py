"""A connection to a running host over HTTP: its requests, and every failure as the contract's
error for it.

Plain httpx and the contract's errors, no pydantic model: the command line's browser verbs
send through it as they are, and the host validates them (a refusal raises the same
:class:`~browserhost.contract.errors.InvalidActionError`). :class:`~browserhost.client.Client`
builds on it with the typed calls, and validates an action before sending it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import httpx

from browserhost import config
from browserhost.api.paths import ACTIONS_PATH
from browserhost.contract.errors import (
    ERRORS_BY_CODE,
    BrowserhostError,
    InvalidActionError,
    ProviderUnavailableError,
    RequestFailedError,
    UnknownResultError,
    error_from_wire,
)
from browserhost.contract.outcome import Outcome

DEFAULT_URL = f"http://{config.DEFAULT_HOST}:{config.DEFAULT_PORT}"

GRACE_S = 15.0
"""Waited beyond the host's own deadline, so the host's answer (not ours) reports a timeout."""


class HostRefusedError(InvalidActionError):
    """The host refused the request before reading it: the token, the Host or Origin header,
    or the body. ``refusal`` is the host's own code (``UNAUTHORIZED``); nothing was sent."""

    def __init__(self, message: str, refusal: str, http_status: int) -> None:
        super().__init__(f"{refusal}: {message}")
        self.refusal = refusal
        self.detail = message
        self.http_status = http_status

    def to_wire(self) -> dict[str, object]:
        return {"ok": False, "code": self.refusal, "error": self.detail}


class HostUnavailableError(ProviderUnavailableError):
    """browserhost could not be reached at the client's URL; nothing was sent."""


def describe(error: BrowserhostError) -> str:
    """``CODE: what to do``, as a person or an agent reads it; the gate's own code for a
    :class:`HostRefusedError` (``UNAUTHORIZED: ...``)."""
    if isinstance(error, HostRefusedError):
        return error.message
    return f"{error.code.value}: {error.message}"


def host_url(url: str | None = None) -> str:
    """The host's URL: ``url``, else ``$BROWSERHOST_URL``, else the default address."""
    return (url or os.environ.get("BROWSERHOST_URL") or DEFAULT_URL).rstrip("/")


class Connection:
    """A connection to a running ``browserhost serve``.

    ``url`` defaults to ``BROWSERHOST_URL``, else ``http://127.0.0.1:7878``; ``token`` to
    ``BROWSERHOST_TOKEN``, else the token file in the data dir. ``session_id`` and
    ``directory`` are the context of every action: the agent conversation (its own browser
    context) and the project a capture is saved into. ``provider_id`` sends every action to
    that provider instead of the selected one.
    """

    def __init__(
        self,
        url: str | None = None,
        token: str | None = None,
        *,
        session_id: str | None = None,
        directory: str | os.PathLike[str] | None = None,
        provider_id: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.url = host_url(url)
        resolved = token if token is not None else config.read_token(config.data_dir())
        self.session_id = session_id or None
        self.directory = None if directory is None else str(Path(directory).resolve())
        self.provider_id = provider_id
        headers = {"Authorization": f"Bearer {resolved}"} if resolved else {}
        self._http = httpx.AsyncClient(
            base_url=self.url,
            headers=headers,
            transport=transport,
            trust_env=False,  # the host is on loopback; a proxy from the environment would break it
            timeout=httpx.Timeout(30.0),
        )

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def send(
        self,
        action: str,
        parameters: Mapping[str, object],
        *,
        timeout_s: float,
        context: Mapping[str, object] | None = None,
        provider_id: str | None = None,
        timeout_ms: int | None = None,
    ) -> Outcome:
        """Send one action as it is and return the host's answer; the host validates it.

        ``timeout_s`` is the action's own wait; ``timeout_ms`` asks the host to wait that long
        instead. ``context`` is the wire form of another context than the connection's.
        """
        request: dict[str, object] = {
            "action": action,
            "parameters": dict(parameters),
            "context": dict(context)
            if context is not None
            else {"directory": self.directory, "sessionId": self.session_id},
        }
        chosen = provider_id or self.provider_id
        if chosen is not None:
            request["providerId"] = chosen
        if timeout_ms is not None:
            request["timeoutMs"] = timeout_ms
            timeout_s = timeout_ms / 1000
        body = await self._request("POST", ACTIONS_PATH, json=request, wait_s=timeout_s + GRACE_S)
        provider = body.get("providerId")
        if not isinstance(provider, str) or "data" not in body:
            raise UnknownResultError(
                f"The host's answer to {action} is not an action result. The page state is "
                "unknown; take a snapshot before acting again."
            )
        return Outcome(provider, body["data"])

    async def _request(
        self,
        method: str,
        path: str,
        *,
        json: object = None,
        wait_s: float | None = None,
        may_have_run: bool = True,
    ) -> dict[str, Any]:
        """One HTTP exchange, with every failure translated into the contract's errors.

        ``may_have_run`` says whether a request lost after sending could have changed
        anything (a listing cannot).
        """
        extra: dict[str, Any] = {} if wait_s is None else {"timeout": wait_s}
        try:
            response = await self._http.request(method, path, json=json, **extra)
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.UnsupportedProtocol) as exc:
            raise HostUnavailableError(
                f"browserhost is not reachable at {self.url} ({exc.__class__.__name__}). Start "
                "it with `browserhost serve`, or pass its URL. Nothing was sent."
            ) from exc
        except httpx.TransportError as exc:
            if not may_have_run:
                raise HostUnavailableError(
                    f"browserhost at {self.url} did not answer ({exc.__class__.__name__}). "
                    "Nothing was changed."
                ) from exc
            raise RequestFailedError(
                f"The request was sent to browserhost at {self.url} but no answer came back "
                f"({exc.__class__.__name__}). It may have run; take a snapshot before acting "
                "again."
            ) from exc
        return _read(response)


def _read(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise _unreadable(response)
    if response.is_success and body.get("ok") is not False:
        return body
    code, message = body.get("code"), body.get("error")
    if not isinstance(code, str) or not isinstance(message, str):
        raise _unreadable(response)
    if code in ERRORS_BY_CODE:
        raise error_from_wire(code, message)
    if response.status_code < 500:
        # The gate's own codes (UNAUTHORIZED, HOST_NOT_ALLOWED, ...) are not action codes:
        # the request was stopped before the host read it.
        raise HostRefusedError(message, code, response.status_code)
    raise error_from_wire(code, message)


def _unreadable(response: httpx.Response) -> BrowserhostError:
    where = f"{response.request.method} {response.request.url.path}"
    if response.status_code < 500 and not response.is_success:
        return HostRefusedError(
            f"{where} answered HTTP {response.status_code}, not a browserhost answer; check the "
            "URL. Nothing ran.",
            f"HTTP_{response.status_code}",
            response.status_code,
        )
    return UnknownResultError(
        f"{where} answered HTTP {response.status_code} with something that is not a browserhost "
        "answer. The page state is unknown; take a snapshot before acting again."
    )
