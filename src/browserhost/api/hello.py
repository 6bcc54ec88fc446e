"""The first message of the host's sockets: ``hello`` with the token, or the socket closes.

A browser cannot put a token in a WebSocket's headers, so the viewer's socket and the bridge
both authenticate in their first message, the same way:

- nothing within the hello timeout       → close 4001 "hello timeout"
- not a JSON object with ``t: "hello"``  → close 1008 "hello first"
- a token that does not match            → close 4002 "bad token" (compared in constant time),
                                            unless the caller judges the hello itself (the
                                            bridge: a paired browser, or one asking to pair)
"""

from __future__ import annotations

import asyncio
import hmac
import json
from typing import Any

from starlette.websockets import WebSocket

from browserhost.contract.bridge import CLOSE_BAD_TOKEN, CLOSE_HELLO_TIMEOUT, CLOSE_POLICY


async def read_hello(
    socket: WebSocket, token: str, timeout_s: float, *, token_required: bool = True
) -> dict[str, Any] | None:
    """The accepted socket's hello, or ``None`` once the socket is closed (or gone)."""
    try:
        async with asyncio.timeout(timeout_s):
            received = await socket.receive()
    except TimeoutError:
        await socket.close(CLOSE_HELLO_TIMEOUT, "hello timeout")
        return None
    if received["type"] == "websocket.disconnect":
        return None
    message = _object(received.get("text"))
    if message is None or message.get("t") != "hello":
        await socket.close(CLOSE_POLICY, "hello first")
        return None
    if token_required and not token_matches(message.get("token"), token):
        await socket.close(CLOSE_BAD_TOKEN, "bad token")
        return None
    return message


def token_matches(supplied: object, token: str) -> bool:
    """Whether a hello's ``token`` is the host's, compared in constant time."""
    # surrogatepass: JSON may carry a lone surrogate, which plain UTF-8 cannot encode.
    return isinstance(supplied, str) and hmac.compare_digest(
        supplied.encode("utf-8", "surrogatepass"), token.encode()
    )


def _object(text: object) -> dict[str, Any] | None:
    if not isinstance(text, str):  # a binary message
        return None
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than Python reads
        return None
    return message if isinstance(message, dict) else None
