"""The bridge protocol: a browser somewhere else dials in to the host over one WebSocket.

The connecting side (``browserhost bridge connect``) opens ``/ext/bridge`` and the host sends
it the actions of the ``bridge`` provider. Every message is one JSON object whose ``t`` names
its kind::

    connecting side → host
        hello          {token, actions, verbs?, name?, surface?, pageScript?, pairing?, pair?}
                                                            first, within HELLO_TIMEOUT_S
        pong           {}                                  answers a ping
        tool.result    {id, ok: true, result}               result: the provider's own answer
                       {id, ok: false, error: {code, message}} refused (nothing ran) or lost
        rpc            {id, method, payload?}               a host method (RPC_METHODS)
        surface.result {id, ok: true, result} | {id, ok: false, error: {code, message}}
        surface.frame  {id, seq, width, height, mime, title?, agentActive?}
                       then the picture's bytes as the very next message, a binary one
    host → connecting side
        hello.pending  {id, message}                        held for a person's approval
        hello.paired   {id, secret}                         approved: keep these, present them
        hello.ok       {caps: {actions, verbs, surface}, policy: {...}, serverTime,
                        pageScript?}
        ping           {}                                   every PING_INTERVAL_S
        tool.call      {id, name, args, expiresAt, sessionId?, directory?}
        tool.cancel    {id}                                 the host stopped waiting for it
        rpc.result     {id, ok: true, result} | {id, ok: false, error: {code, message}}
                       code: forbidden, unknown-method, bad-request, internal, or the
                       contract's code of the host's refusal (PROVIDER_NOT_FOUND...)
        surface.call   {id, method, args}                   a call on the provider's surface

A side that says ``surface: true`` in its hello has a surface (the viewer's picture and a
person's hands on it, :mod:`browserhost.contract.surface`), and the host calls it over the same
socket. ``method`` and ``args`` mirror the surface's paths; ``result`` is what the path would
answer::

    frame      {after, waitMs}   → surface.frame + picture, or surface.result null (none came)
    input      {events}          → null
    control    {controller}      → null
    resize     {width, height}   → {width, height}, or null to keep its own size
    clipboard  {}                → {text}
    sessions   {}                → {sessions: [...]}
    show       {id}              → null

Surface calls run side by side with tool calls and with each other (a frame waits up to
``waitMs`` for a new picture), so answers come in any order, matched by ``id``. A picture
travels as a binary message rather than base64 in the JSON: at 30 pictures a second of 50-150
KB, base64 adds a third to the bytes and 0.4-1 ms of encoding and parsing to each picture.
A picture over :data:`~browserhost.contract.surface.FRAME_MAX_BYTES` is dropped (that frame
call answers "no picture").

A ``tool.result`` with ``ok: false`` is a refusal when its ``code`` is one of
:data:`REFUSAL_CODES` and its ``message`` says why (1 to ``ERROR_TEXT_MAX`` characters): the
far side did nothing, and the agent gets that code and that message, as from a provider
answering ``{ok: false, error}``. Any other code (the far side's own, such as ``expired``), a
code only the host gives (``USER_IN_CONTROL``: the person at that browser takes control with
``control.take`` instead), or a missing or unreadable one, means the far side lost the call:
``REQUEST_FAILED``, it may have run. Either way it is never sent again.

``expiresAt`` is the host's clock in epoch milliseconds; ``serverTime`` in ``hello.ok`` lets
the connecting side read it on its own clock. A frame of a kind the receiver does not expect,
or a result for an id it does not know (with its picture), is ignored; a message that is not
a JSON object with a string ``t``, a known kind with malformed fields, or a ``surface.frame``
not followed by a binary message, closes the socket (1008).

A side that says ``pageScript: true`` (the browser extension, which drives pages over CDP)
gets the chromium provider's page script in ``hello.ok``: one copy of it, in the chromium
provider, serves both.

Who is let in (no header vouches for a socket: an ``Origin`` proves nothing outside a
browser, and any process on the machine can send one):

- a hello with the host's token, whatever its origin (a ``chrome-extension://`` or a Firefox
  ``moz-extension://`` one, or none); a hello without ``token`` has an empty one;
- a hello with ``pairing: {id, secret}`` that a person approved before
  (:mod:`browserhost.host.pairing`), from anywhere; one the host does not know (forgotten, or
  another host's) is closed :data:`CLOSE_NOT_PAIRED`;
- a hello from this machine with an empty token and ``pair: true`` (the browser extension
  without setup) is *pending*: answered ``hello.pending`` and held, with pings and nothing
  else (no calls, no host methods, what it sends is dropped, no connection is replaced),
  until a person approves it in the viewer or with ``browserhost bridge approve ID``. Then it
  gets ``hello.paired`` with a secret of its own and goes on as connected (``hello.ok``).
  Denied, it is closed :data:`CLOSE_DENIED`; unanswered within :data:`APPROVAL_TIMEOUT_S`, or
  dropped as the oldest of more than :data:`PENDING_MAX`, :data:`CLOSE_NOT_APPROVED`;
- anything else is closed :data:`CLOSE_BAD_TOKEN`.

A host started with an extension id also closes a socket whose ``Origin`` names another
Chrome extension (:data:`CLOSE_FOREIGN_EXTENSION`): a filter, which lets nothing in. A Firefox
origin is not filtered: its host part is a random id per installation, not the extension's.

Close codes: :data:`CLOSE_REPLACED`, :data:`CLOSE_HELLO_TIMEOUT`, :data:`CLOSE_BAD_TOKEN`,
:data:`CLOSE_PING_TIMEOUT`, :data:`CLOSE_FOREIGN_EXTENSION`, :data:`CLOSE_NOT_PAIRED`,
:data:`CLOSE_DENIED`, :data:`CLOSE_NOT_APPROVED`, and 1008 (:data:`CLOSE_POLICY`) for "hello
first" or an unreadable message.
"""

from __future__ import annotations

import json
from typing import Any, Final, Literal

from pydantic import ConfigDict, Field, ValidationError

from .base import WireModel
from .errors import ErrorCode
from .surface import DIMENSION_MAX

BRIDGE_PATH: Final = "/ext/bridge"
HOW_TO_CONNECT: Final = "connect the browserhost extension, or start `browserhost bridge connect`"
"""What a person does so that a browser answers on the bridge, as the host's answers say it."""

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
CLOSE_FOREIGN_EXTENSION: Final = 4004
"""The socket's origin is an extension other than the one the host accepts."""
CLOSE_NOT_PAIRED: Final = 4005
"""The pairing presented is not one the host keeps (forgotten, or another host's); a live
connection of a pairing that is forgotten is closed with it too."""
CLOSE_DENIED: Final = 4006
"""A person denied the pending connection."""
CLOSE_NOT_APPROVED: Final = 4007
"""Nobody approved the pending connection in time, or newer ones pushed it out."""
APPROVAL_TIMEOUT_S: Final = 300.0
"""How long a pending connection waits for a person."""
PENDING_MAX: Final = 8
"""Pending connections held at once; a new one drops the oldest."""
EXTENSION_SCHEME: Final = "chrome-extension://"

REFUSAL_CODES: Final = frozenset(
    {ErrorCode.PROVIDER_REJECTED, ErrorCode.UNSUPPORTED, ErrorCode.INVALID_ACTION}
)
"""The contract codes a ``tool.result`` with ``ok: false`` may carry to say the far side
refused and nothing ran; the others are the host's own (who selected what, who holds control,
whether it was sent)."""

SURFACE_METHODS: Final = frozenset(
    {"frame", "input", "control", "resize", "clipboard", "sessions", "show"}
)
SURFACE_CALL_TIMEOUT_S: Final = 10.0
"""The longest a surface call other than a frame may take on the far side."""
FRAME_MARGIN_S: Final = 5.0
"""Time past a frame's wait for the picture to be made and to travel."""

RPC_METHODS: Final = frozenset(
    {"providers.list", "selection.get", "selection.set", "control.take", "control.handBack"}
)
"""``control.take`` and ``control.handBack`` are the person at the connected browser (the
extension's user typing in a tab the agent works in) taking control from the agent and giving
it back, as at a viewer: while they hold it the host refuses the agent (``USER_IN_CONTROL``,
saying they took it in that browser, not in the viewer); the connection's end gives it back."""
PRIVILEGED_METHODS: Final = frozenset({"selection.set"})
"""Methods that change the host's settings: refused (``forbidden``) unless the socket comes
from this machine, whatever the token, because the bridge may listen on a public address."""


class Frame(WireModel):
    model_config = ConfigDict(extra="ignore")


class Pairing(Frame):
    """What a paired side presents: its id and the secret ``hello.paired`` gave it."""

    id: str = Field(max_length=64)
    secret: str = Field(max_length=256)


class Hello(Frame):
    token: str = ""
    actions: list[str]
    verbs: list[dict[str, Any]] = Field(default_factory=list)
    name: str | None = Field(None, max_length=200)
    surface: bool = False
    """The provider has a surface, served over this socket."""
    page_script: bool = False
    """Send the chromium provider's page script in ``hello.ok``."""
    pairing: Pairing | None = None
    """A pairing a person approved earlier, instead of the token."""
    pair: bool = False
    """With an empty token and no pairing: ask a person to approve this side."""


class CallResult(Frame):
    """The answer to a call sent with ``id``: ``result`` when ``ok``, else ``error``
    (``{code, message}``)."""

    id: str
    ok: bool
    result: Any = None
    error: dict[str, Any] | None = None


class ToolResult(CallResult):
    """A tool call's answer; ``result`` is the provider's own answer."""


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


class RpcResult(CallResult):
    """A host method's answer."""


class SurfaceCall(Frame):
    id: str
    method: str
    args: dict[str, Any] = Field(default_factory=dict)


class SurfaceResult(CallResult):
    """A surface call's answer (a frame's picture comes as a ``surface.frame`` instead)."""


class SurfaceFrame(Frame):
    """A picture's description; its bytes are the next message, a binary one."""

    id: str
    seq: int = Field(ge=1)
    width: int = Field(ge=1, le=DIMENSION_MAX)
    height: int = Field(ge=1, le=DIMENSION_MAX)
    mime: Literal["image/jpeg", "image/png"]
    title: str | None = None
    agent_active: bool = False


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
    "hello.pending": Frame,
    "hello.paired": Frame,
    "surface.call": SurfaceCall,
    "surface.result": SurfaceResult,
    "surface.frame": SurfaceFrame,
}


class UnreadableFrameError(ValueError):
    """Not a bridge message: the socket is closed with 1008."""


def read_frame(raw: str | bytes) -> tuple[str, Frame | None]:
    """The kind of one message and its fields; ``None`` for a kind this protocol does not
    define (the receiver ignores it)."""
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        raise UnreadableFrameError("not JSON, or nested too deeply") from None
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
