"""The bridge protocol: a browser somewhere else dials in to the host over one WebSocket.

The connecting side (``browserhost bridge connect``) opens ``/ext/bridge`` and the host sends
it the actions of the ``bridge`` provider. Every message is one JSON object whose ``t`` names
its kind::

    connecting side → host
        hello        {token, actions, verbs?, name?}      first, within HELLO_TIMEOUT_S
        pong         {}                                    answers a ping
        tool.result  {id, ok: true, result}                 result: the provider's own answer
                     {id, ok: false, error: {code, message}} no answer could be had: may have run
        rpc          {id, method, payload?}                 a host method (RPC_METHODS)
    host → connecting side
        hello.ok     {caps: {actions, verbs}, policy: {...}, serverTime}
        ping         {}                                     every PING_INTERVAL_S
        tool.call    {id, name, args, expiresAt, sessionId?, directory?}
        tool.cancel  {id}                                   the host stopped waiting for it
        rpc.result   {id, ok: true, result} | {id, ok: false, error: {code, message}}

``expiresAt`` is the host's clock in epoch milliseconds; ``serverTime`` in ``hello.ok`` lets
the connecting side read it on its own clock. A frame of a kind the receiver does not expect,
or a result for an id it does not know, is ignored; a message that is not a JSON object with a
string ``t``, or a known kind with malformed fields, closes the socket (1008).

Close codes: :data:`CLOSE_REPLACED`, :data:`CLOSE_HELLO_TIMEOUT`, :data:`CLOSE_BAD_TOKEN`,
:data:`CLOSE_PING_TIMEOUT`, and 1008 (:data:`CLOSE_POLICY`) for "hello first" or an
unreadable message.
"""

from __future__ import annotations

import json
from typing import Any, Final

from pydantic import ConfigDict, Field, ValidationError

from .base import WireModel

BRIDGE_PATH: Final = "/ext/bridge"

HELLO_TIMEOUT_S: Final = 5.0
"""How long a new socket may take to say ``hello``."""
PING_INTERVAL_S: Final = 15.0
"""How often the host pings a connected side."""
PONG_TIMEOUT_S: Final = 10.0
"""How long a ping may wait for its pong before the connection is dropped."""

CLOSE_POLICY: Final = 1008
CLOSE_GOING_AWAY: Final = 1001
"""The host is stopping."""
CLOSE_REPLACED: Final = 4000
"""A newer connection took this one's place."""
CLOSE_HELLO_TIMEOUT: Final = 4001
CLOSE_BAD_TOKEN: Final = 4002
CLOSE_PING_TIMEOUT: Final = 4003

RPC_METHODS: Final = frozenset({"providers.list", "selection.get", "selection.set"})
PRIVILEGED_METHODS: Final = frozenset({"selection.set"})
"""Methods that change the host's settings: refused (``forbidden``) unless the socket comes
from this machine, whatever the token, because the bridge may listen on a public address."""


class Frame(WireModel):
    model_config = ConfigDict(extra="ignore")


class Hello(Frame):
    token: str
    actions: list[str]
    verbs: list[dict[str, Any]] = Field(default_factory=list)
    name: str | None = Field(None, max_length=200)


class ToolResult(Frame):
    id: str
    ok: bool
    result: Any = None
    error: dict[str, Any] | None = None


class ToolCall(Frame):
    id: str
    name: str
    args: dict[str, Any]
    expires_at: int = Field(description="The host's deadline, epoch milliseconds.")
    session_id: str | None = None
    directory: str | None = None


class ToolCancel(Frame):
    id: str


class Rpc(Frame):
    id: str
    method: str
    payload: Any = None


class RpcResult(Frame):
    id: str
    ok: bool
    result: Any = None
    error: dict[str, Any] | None = None


class Policy(WireModel):
    """What the host allows, sent in ``hello.ok``."""

    answer_max_bytes: int
    open_timeout_ms: int
    action_timeout_ms: int
    ping_interval_ms: int
    pong_timeout_ms: int


FRAMES: Final[dict[str, type[Frame]]] = {
    "hello": Hello,
    "tool.result": ToolResult,
    "tool.call": ToolCall,
    "tool.cancel": ToolCancel,
    "rpc": Rpc,
    "rpc.result": RpcResult,
    "ping": Frame,
    "pong": Frame,
    "hello.ok": Frame,
}


class UnreadableFrameError(ValueError):
    """Not a bridge message: the socket is closed with 1008."""


def read_frame(raw: str | bytes) -> tuple[str, Frame | None]:
    """The kind of one message and its fields; ``None`` for a kind this protocol does not
    define (the receiver ignores it)."""
    try:
        message = json.loads(raw)
    except ValueError:
        raise UnreadableFrameError("not JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        raise UnreadableFrameError('not an object with a string "t"')
    kind: str = message["t"]
    model = FRAMES.get(kind)
    if model is None:
        return kind, None
    try:
        return kind, model.model_validate(message)
    except ValidationError as exc:
        problem = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in problem["loc"])
        raise UnreadableFrameError(f"{kind}: {where} {problem['msg']}") from None


def frame(kind: str, body: Frame | None = None, **fields: Any) -> str:
    """One message as text: ``t`` plus the model's wire fields and ``fields``."""
    wire: dict[str, Any] = {"t": kind}
    if body is not None:
        wire |= body.to_wire()
    wire |= fields
    return json.dumps(wire, separators=(",", ":"), allow_nan=False)
