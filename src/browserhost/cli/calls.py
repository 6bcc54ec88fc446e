"""One call of the command line to a running host: the client, its errors, its progress line.

Only what the client side needs is imported here: a verb costs its own round trip, not a
server's imports. A browser verb sends over a bare :class:`~browserhost.connection.Connection`
(:func:`send`), which builds no model; the commands that read typed answers use the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import json
import threading
from collections.abc import Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from rich.text import Text

from browserhost import config
from browserhost.api.paths import INSTANCES_PATH, PROVIDERS_PATH
from browserhost.contract.errors import BrowserhostError

from .options import JsonOption, TokenOption, UrlOption
from .output import USAGE_ERROR, err, exit_status, out, print_error, print_json

if TYPE_CHECKING:
    import httpx
    from rich.status import Status

    from browserhost.client import Client
    from browserhost.connection import Connection
    from browserhost.contract.base import WireModel

Row = TypeVar("Row", bound="WireModel")
Opened = TypeVar("Opened", bound="Connection")
Action = Callable[["Client"], Coroutine[Any, Any, None]]
"""What a command does with its client: one or more calls, and printing their answers."""
Sending = Callable[["Connection"], Coroutine[Any, Any, None]]
"""What a browser verb does with its connection: send the action, and print its answer."""

PROGRESS_AFTER_S = 0.5
"""A call still unanswered after this asks the host, as often, whether it is starting a
browser, a provider service or an instance, and says so on stderr once it is."""
WAITING = "Waiting for the browser… (a first action starts it)"


def default_session() -> str:
    """The session of every command of this user without ``--session``, whatever the
    directory it runs in: a person's commands follow one page."""
    try:
        return f"cli-{getpass.getuser()}"
    except (KeyError, OSError):  # no user name in this environment (a bare container)
        return "cli"


@dataclass(frozen=True)
class Target:
    """The common options: where the host is and how to talk to it."""

    url: str | None
    token: str | None
    as_json: bool = False
    provider: str | None = None
    session: str | None = None
    project: Path | None = None

    def client(self) -> Client:
        from browserhost.client import Client

        return self._open(Client)

    def connection(self) -> Connection:
        from browserhost.connection import Connection

        return self._open(Connection)

    def _open(self, kind: type[Opened]) -> Opened:
        from browserhost.connection import host_url

        url = host_url(self.url)
        return kind(
            url,
            self.token,
            session_id=self.session or default_session(),
            directory=self.project,
            provider_id=self.provider,
            # Loading the machine's certificates costs a verb about 20 ms of CPU: only for https.
            transport=_announcing(WAITING, tls=url.startswith("https:")),
        )


@dataclass
class _Shared:
    """The one client of ``browserhost shell``, on its own event loop, for every line."""

    target: Target
    runner: asyncio.Runner
    client: Client | None = None

    def serves(self, target: Target) -> bool:
        """Whether a line's target is the shell's own (a line's option may send it elsewhere)."""
        mine = self.target
        return (
            target.url in (None, mine.url)
            and target.token in (None, mine.token)
            and target.provider in (None, mine.provider)
            and target.session in (None, mine.session)
            and target.project in (None, mine.project)
        )

    def run(self, act: Action) -> None:
        if self.client is None:
            self.client = self.target.client()
        self.runner.run(act(self.client))


_shared: list[_Shared] = []


@contextlib.contextmanager
def sharing(target: Target) -> Iterator[None]:
    """While open, :func:`run` sends over one client of ``target`` (``browserhost shell``)."""
    with asyncio.Runner() as runner:
        shared = _Shared(target, runner)
        _shared.append(shared)
        try:
            yield
        finally:
            _shared.remove(shared)
            if shared.client is not None:
                runner.run(shared.client.aclose())


def run(target: Target, act: Action) -> None:
    """Run ``act`` with a client of ``target``; a refusal is printed (as JSON with --json)
    and exits with its status."""

    async def main() -> None:
        async with target.client() as client:
            await act(client)

    _call(target, act, main)


def send(target: Target, act: Sending) -> None:
    """:func:`run` for a browser verb: ``act`` gets a bare connection (the shell's client in
    ``browserhost shell``)."""

    async def main() -> None:
        async with target.connection() as connection:
            await act(connection)

    _call(target, act, main)


def _call(target: Target, act: Action, alone: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``act`` over the shell's client when it serves ``target``, else ``alone``."""
    check_url(target.url)
    try:
        if _shared and _shared[-1].serves(target):
            _shared[-1].run(act)
        else:
            asyncio.run(alone())
    except BrowserhostError as exc:
        fail(target, exc)


def listing(
    summary: str,
    fetch: Callable[[Client], Coroutine[Any, Any, Sequence[Row]]],
    line: Callable[[Row], Text],
    empty: str,
    after: str | None = None,
    wire: Callable[[Row], object] = lambda row: row.to_wire(),
) -> Callable[..., None]:
    """A command listing what the host answers: JSON with --json, else a line a row, ``empty``
    when there are none and ``after`` (a hint of what to do next) when there are some."""

    def command(
        api_url: UrlOption = None, api_token: TokenOption = None, as_json: JsonOption = False
    ) -> None:
        async def act(client: Client) -> None:
            rows = await fetch(client)
            if as_json:
                print_json([wire(row) for row in rows])
                return
            for row in rows:
                out.print(line(row))
            if not rows:
                out.print(empty)
            elif after is not None:
                out.print(after)

        run(Target(api_url, api_token, as_json), act)

    command.__doc__ = summary
    return command


def fail(target: Target, error: BrowserhostError) -> None:
    if target.as_json:
        print_json(error.to_wire())
    else:
        print_error(error)
    raise SystemExit(exit_status(error)) from None


def check_url(url: str | None) -> None:
    """Refuse, in one line, a URL the client could not send to (httpx would raise)."""
    import httpx

    if url is None:
        return
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        parsed = None
    if parsed is None or parsed.scheme not in ("http", "https") or not parsed.host:
        err.print(
            Text(
                f"{url!r} is not a browserhost URL (--url or $BROWSERHOST_URL); pass one like "
                f"http://{config.DEFAULT_HOST}:{config.DEFAULT_PORT}."
            )
        )
        raise SystemExit(USAGE_ERROR)


@contextlib.contextmanager
def waiting(message: str) -> Iterator[None]:
    """Say ``message`` on stderr once the block has run :data:`PROGRESS_AFTER_S`: a spinner on
    a terminal (gone when the block ends), else one line. stdout stays the answer alone."""
    shown: list[Status] = []

    def show() -> None:
        if err.is_terminal:
            status = err.status(message)
            status.start()
            shown.append(status)
        else:
            err.print(Text(message))

    timer = threading.Timer(PROGRESS_AFTER_S, show)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        timer.join()  # a spinner being started now is stopped below, before any output
        for status in shown:
            status.stop()


def _announcing(message: str, *, tls: bool) -> httpx.AsyncBaseTransport:
    """A transport that says :func:`waiting`'s ``message`` while an answer is slow to come
    because the host says a browser, a provider service or an instance is starting."""
    import httpx

    class Announcing(httpx.AsyncHTTPTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            if request.method == "GET":  # listings answer at once: nothing to announce
                return await super().handle_async_request(request)
            said: list[Status] = []
            watch = asyncio.ensure_future(self._say_when_starting(request, said))
            try:
                return await super().handle_async_request(request)
            finally:
                watch.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watch
                for status in said:
                    status.stop()

        async def _say_when_starting(self, request: httpx.Request, said: list[Status]) -> None:
            while True:
                await asyncio.sleep(PROGRESS_AFTER_S)
                if await self._starting(request):
                    break
            if err.is_terminal:
                said.append(err.status(message))
                said[0].start()
            else:
                err.print(Text(message))

        async def _starting(self, request: httpx.Request) -> bool:
            """Whether the host lists something starting (asked beside the slow call)."""
            rows: list[Any] = []
            for path, key in ((PROVIDERS_PATH, "providers"), (INSTANCES_PATH, "instances")):
                asked = httpx.Request(
                    "GET",
                    request.url.copy_with(path=path, query=None),
                    headers={"Authorization": request.headers.get("Authorization", "")},
                )
                try:
                    answer = await super().handle_async_request(asked)
                    listed = json.loads(await answer.aread())
                except (httpx.HTTPError, ValueError):
                    return False
                if isinstance(listed, dict) and isinstance(listed.get(key), list):
                    rows += listed[key]
            return any(_starting(row) for row in rows if isinstance(row, dict))

    return Announcing(verify=tls)  # no TLS on http: nothing to verify


def _starting(row: dict[str, Any]) -> bool:
    service = row.get("service")
    # An instance whose browser is being started is running_disconnected (001's status).
    return row.get("status") == "running_disconnected" or "starting" in (
        row.get("state"),
        service.get("state") if isinstance(service, dict) else None,
    )
