"""Provider services the host starts itself: started on the first action, stopped when idle.

A record's ``"service"`` names what to run (:class:`ServiceCommand`); :class:`ManagedService`
is then that provider's transport and owns the process's life::

    stopped ──first action──▶ starting ──hello answered──▶ running ──idle, host stops──▶ stopped
                                 │                            │
                                 └─exits, not ready in time,  └─exits on its own──▶ failed
                                   wrong protocol──▶ failed      (the next action starts it)

Each start gets a free loopback port and a fresh token, both through the environment
(``BROWSERHOST_SERVICE_PORT``, ``BROWSERHOST_SERVICE_TOKEN``), never the command line. The
host polls ``GET /browser-control`` with that token until the service says hello: the protocol
version it speaks, the actions it implements, whether it has a surface. Nothing is sent before
that; a start that fails is ``PROVIDER_UNAVAILABLE`` with the last line of the service's stderr
(all of its output is in its log, ``<id>.log`` in :attr:`ServiceSettings.log_dir`). After
:attr:`ServiceSettings.failed_starts` failed starts within
:attr:`ServiceSettings.failure_window_s`, the host stops trying until the window has passed.

The service is kept while an action or a surface call is in flight and while a viewer holds it
(:meth:`ManagedService.hold`); otherwise it is stopped after ``idle_s`` without one. A service
that dies mid-action leaves that action "may have run" (the loopback transport's
``LostError``); it is never replayed. A request that provably never reached it (the connection
was refused because the process had just died) is sent once to a new process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
import socket
import sys
import time
from collections import deque
from collections.abc import AsyncIterator, Coroutine, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

import httpx

from browserhost.contract import ACTIONS, ProviderRequest
from browserhost.contract import surface as contract
from browserhost.contract.lifecycle import LifecycleRequest
from browserhost.contract.limits import PROTOCOL_VERSION, PROVIDER_PATH
from browserhost.contract.surface import Controller, Frame, InputEvent, Size, SurfaceSession
from browserhost.contract.wire import ServiceHello
from browserhost.transports.base import LostError, NotSentError
from browserhost.transports.loopback import LoopbackTransport, service_client
from browserhost.transports.loopback_surface import LoopbackSurface

from .spawn import Child, RotatingLog, spawn

IDLE_ENV: Final = "BROWSERHOST_SERVICE_IDLE_S"
TOKEN_ENV: Final = "BROWSERHOST_SERVICE_TOKEN"  # noqa: S105  # the variable's name, not a secret
PORT_ENV: Final = "BROWSERHOST_SERVICE_PORT"
RUNNER: Final = "browserhost.sdk.service"
"""The SDK runner a ``"python"`` service target is run with."""
_READY_POLL_S = 0.05
_DEATH_WAIT_S = 1.0
_CANCEL_TIMEOUT_S = 2.0
_python_target = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")

State = Literal["stopped", "starting", "running", "failed"]
log = logging.getLogger(__name__)


class ServiceRecordError(ValueError):
    """A ``"service"`` declaration the host cannot run; the message says why."""


@dataclass(frozen=True)
class ServiceSettings:
    """How the host runs its services; :meth:`from_env` reads ``BROWSERHOST_SERVICE_IDLE_S``."""

    log_dir: Path | None = None
    """Where each service's output goes (``<id>.log``); ``None`` drops it."""
    idle_s: float = 600.0
    grace_s: float = 5.0
    """Between SIGTERM and SIGKILL when stopping."""
    start_timeout_s: float = 20.0
    failed_starts: int = 3
    failure_window_s: float = 60.0

    @classmethod
    def from_env(cls, log_dir: Path | None) -> ServiceSettings:
        raw = os.environ.get(IDLE_ENV, "").strip()
        if not raw:
            return cls(log_dir)
        try:
            idle_s = float(raw)
            if not 0 < idle_s < float("inf"):
                raise ValueError(raw)
        except ValueError:
            log.warning("%s=%r is not a number of seconds above 0; using 600", IDLE_ENV, raw)
            return cls(log_dir)
        return cls(log_dir, idle_s=idle_s)


@dataclass(frozen=True)
class ServiceCommand:
    """What a record's ``"service"`` runs: ``{"python": "pkg.mod:Factory"}`` (the SDK runner,
    with the host's own interpreter) or ``{"command": ["prog", "arg", ...]}``; ``"cwd"`` is
    the folder it runs in."""

    argv: tuple[str, ...]
    cwd: Path | None = None
    python: bool = False

    @classmethod
    def read(cls, declared: object) -> ServiceCommand:
        if not isinstance(declared, Mapping):
            raise ServiceRecordError(
                'service must be an object: {"python": "package.module:Factory"} or '
                '{"command": ["program", "argument", ...]}, with an optional "cwd"'
            )
        cwd = declared.get("cwd")
        if cwd is not None and not (isinstance(cwd, str) and cwd):
            raise ServiceRecordError("service.cwd must be the path of a folder")
        folder = None if cwd is None else Path(cwd)
        python, command = declared.get("python"), declared.get("command")
        if (python is None) == (command is None):
            raise ServiceRecordError('service needs exactly one of "python" and "command"')
        if python is not None:
            if not isinstance(python, str) or not _python_target.fullmatch(python):
                raise ServiceRecordError(
                    'service.python must name a provider factory as "package.module:Factory"'
                )
            return cls((sys.executable, "-m", RUNNER, python), folder, python=True)
        if (
            not isinstance(command, list | tuple)
            or not command
            or not all(isinstance(part, str) and part and "\0" not in part for part in command)
        ):
            raise ServiceRecordError(
                "service.command must be a non-empty list of strings: the program and its "
                "arguments (the token comes through the environment, never here)"
            )
        return cls(tuple(command), folder)


class _StartError(Exception):
    pass


@dataclass
class _Run:
    """One started process and the clients that reach it."""

    child: Child
    origin: str
    transport: LoopbackTransport
    surface: LoopbackSurface
    hello: ServiceHello
    in_flight: int = 0
    retired: bool = False
    closed: asyncio.Event = field(default_factory=asyncio.Event)

    async def close_clients(self) -> None:
        await self.transport.aclose()
        await self.surface.aclose()
        self.closed.set()


class ManagedService:
    """The transport of a provider whose service the host runs, and that service's life."""

    def __init__(
        self, provider_id: str, command: ServiceCommand, settings: ServiceSettings
    ) -> None:
        self.provider_id = provider_id
        self.command = command
        self.settings = settings
        self.state: State = "stopped"
        self.reason: str | None = None
        """Why it failed, when it did."""
        self._run: _Run | None = None
        self._lock = asyncio.Lock()
        self._in_flight = 0
        self._holds = 0
        self._idle: asyncio.TimerHandle | None = None
        self._failures: deque[float] = deque()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._log: RotatingLog | None = None

    @property
    def pid(self) -> int | None:
        """The running process's id (for tests and logs; never shown to callers)."""
        return None if self._run is None else self._run.child.pid

    def public(self) -> dict[str, object]:
        """What a listing shows: the state, its reason, how long it has run. Never a port,
        an endpoint or a token."""
        row: dict[str, object] = {"state": self.state}
        if self.state == "failed" and self.reason is not None:
            row["reason"] = self.reason
        run = self._run
        if self.state == "running" and run is not None:
            row["uptimeS"] = round(time.monotonic() - run.child.started_at, 1)
        return row

    async def send(self, request: ProviderRequest, timeout_s: float) -> object:
        async with self._using() as run:
            if request.action in ACTIONS and request.action not in run.hello.actions:
                raise NotSentError(
                    f"the service does not implement {request.action}, though its record lists it"
                )
            try:
                return await run.transport.send(request, timeout_s)
            except LostError:
                # A connection lost with the process is its death, seen before its exit is:
                # wait for that (briefly), so the next action starts a new one.
                await self._died(run)
                raise
            except NotSentError:
                # Refused before anything was sent: if the process had just died, a new one
                # may take it, once (at most once is about sent requests; this one was not).
                if not await self._died(run):
                    raise
        async with self._using() as run:
            return await run.transport.send(request, timeout_s)

    async def operate(self, request: LifecycleRequest, timeout_s: float) -> object:
        """Send one lifecycle operation to the service, started if needed; never retried."""
        async with self._using() as run:
            return await run.transport.operate(request, timeout_s)

    async def abandon(self, request_id: str) -> None:
        """Ask the running service to stop working on ``request_id`` (it may have run)."""
        run = self._run
        if run is not None and not run.retired:
            await run.transport.abandon(request_id)

    def hold(self) -> None:
        """Keep the service running (a viewer is attached) until :meth:`release`."""
        self._holds += 1
        self._cancel_idle()

    def release(self) -> None:
        self._holds = max(0, self._holds - 1)
        self._arm_idle()

    @contextlib.asynccontextmanager
    async def using(self) -> AsyncIterator[_Run]:
        """The running service (started if needed), kept while the block runs."""
        async with self._using() as run:
            yield run

    @contextlib.asynccontextmanager
    async def _using(self) -> AsyncIterator[_Run]:
        # Counted before the start, so an idle stop never takes a service an action waits on.
        self._in_flight += 1
        self._cancel_idle()
        run: _Run | None = None
        try:
            run = await self._ensure()
            run.in_flight += 1
            yield run
        finally:
            self._in_flight -= 1
            if run is not None:
                run.in_flight -= 1
                if run.retired and run.in_flight == 0 and not run.closed.is_set():
                    await run.close_clients()
            self._arm_idle()

    async def _ensure(self) -> _Run:
        run = self._run
        if run is not None and run.child.running:
            return run
        async with self._lock:
            run = self._run
            if run is not None and run.child.running:
                return run
            if self._closed:
                raise NotSentError("the host is stopping")
            self._refuse_in_a_crash_loop()
            self.state, self.reason = "starting", None
            log.info("Starting provider service %s…", self.provider_id)
            started = time.monotonic()
            try:
                run = await self._start()
            except _StartError as exc:
                self._failures.append(time.monotonic())
                self.state, self.reason = "failed", str(exc)
                where = self._log.path if self._log is not None else None
                log.warning(
                    "provider service %s did not start: %s%s",
                    self.provider_id,
                    exc,
                    "" if where is None else f" (all of its output is in {where})",
                )
                raise NotSentError(str(exc)) from None
            self._run = run
            self.state = "running"
            log.info(
                "Provider service %s ready in %.1f s", self.provider_id, time.monotonic() - started
            )
            self._watch(run)
            return run

    def _refuse_in_a_crash_loop(self) -> None:
        now, window = time.monotonic(), self.settings.failure_window_s
        while self._failures and now - self._failures[0] >= window:
            self._failures.popleft()
        if len(self._failures) >= self.settings.failed_starts:
            wait_s = window - (now - self._failures[0])
            raise NotSentError(
                f"{self.reason or 'it failed to start'}; it failed to start "
                f"{len(self._failures)} times within {window:g} s, so the host tries again in "
                f"{wait_s:.0f} s"
            )

    async def _start(self) -> _Run:
        # The port is free when the host looks, and the service binds it a moment later:
        # another program may take it between the two. The service then cannot listen and
        # exits, and the host starts it again on another port.
        attempt = 1
        while True:
            try:
                return await self._start_on(_free_port())
            except _PortTaken as taken:
                if attempt == PORT_ATTEMPTS:
                    raise _StartError(str(taken)) from None
                log.info("provider service %s: %s; starting it again", self.provider_id, taken)
            attempt += 1

    async def _start_on(self, port: int) -> _Run:
        token = secrets.token_urlsafe(32)
        env = {k: v for k, v in os.environ.items() if k != "BROWSERHOST_TOKEN"}  # the host's own
        env |= {TOKEN_ENV: token, PORT_ENV: str(port)}
        if self.command.python:
            env["PYTHONUNBUFFERED"] = "1"  # its output reaches the log as it is written
        if self._log is None:
            folder = self.settings.log_dir
            self._log = RotatingLog(None if folder is None else folder / f"{self.provider_id}.log")
        try:
            child = await spawn(self.command.argv, env, self.command.cwd, self._log)
        except OSError as exc:
            raise _StartError(
                f"the service could not be started ({self.command.argv[0]}: {exc.strerror})"
            ) from None
        origin = f"http://127.0.0.1:{port}"
        try:
            hello = await self._wait_ready(child, origin, token)
        except BaseException:
            await child.stop(self.settings.grace_s)
            raise
        return _Run(
            child,
            origin,
            LoopbackTransport(origin + PROVIDER_PATH, token),
            LoopbackSurface(origin, token),
            hello,
        )

    async def _wait_ready(self, child: Child, origin: str, token: str) -> ServiceHello:
        timeout_s = self.settings.start_timeout_s
        async with service_client(token) as client:
            try:
                async with asyncio.timeout(timeout_s):
                    while True:
                        hello = await self._hello(client, child, origin)
                        if hello is not None:
                            break
                        await asyncio.sleep(_READY_POLL_S)  # nothing to await: poll the port
            except TimeoutError:
                raise _StartError(
                    f"the service was not ready within {timeout_s:g} s{_quoted(child)}"
                ) from None
        if hello.protocol_version != PROTOCOL_VERSION:
            raise _StartError(
                f"the service speaks protocol version {hello.protocol_version}; this host "
                f"speaks version {PROTOCOL_VERSION}. Install a version of the provider made "
                "for this browserhost"
            )
        return hello

    async def _hello(
        self, client: httpx.AsyncClient, child: Child, origin: str
    ) -> ServiceHello | None:
        if not child.running:
            code = await child.wait()
            raise _StartError(
                f"the service exited with code {code} before it was ready{_quoted(child)}"
            )
        try:
            response = await client.get(origin + PROVIDER_PATH, timeout=2.0)
        except httpx.TransportError:
            return None  # not listening yet
        if response.status_code == 401:
            raise _StartError(
                f"the service refused the token the host gave it in {TOKEN_ENV}; it must "
                "answer with that token"
            )
        hello = ServiceHello.read(response.content) if response.status_code == 200 else None
        if hello is None:
            said = (
                f"the service answered GET {PROVIDER_PATH} with HTTP {response.status_code} "
                "and no hello; it must answer {protocolVersion, actions, surface} when ready"
            )
            # Another program's server on the port, which the service could not bind then:
            # it exits soon after.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(_PORT_TAKEN_WAIT_S):
                    code = await child.wait()
                    raise _PortTaken(
                        f"another program answered on the port chosen for it, and it exited "
                        f"with code {code}{_quoted(child)}"
                    )
            raise _StartError(said)
        return hello

    def _watch(self, run: _Run) -> None:
        async def watch() -> None:
            code = await run.child.wait()
            if self._run is not run:
                return  # the host stopped it
            self._run = None
            self.state = "failed"
            self.reason = f"the service exited with code {code}{_quoted(run.child)}"
            log.warning("provider service %s: %s", self.provider_id, self.reason)
            await self._retire(run)

        self._spawn_task(watch())

    async def _died(self, run: _Run) -> bool:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(_DEATH_WAIT_S):
                await run.child.process.wait()
        return not run.child.running

    def _arm_idle(self) -> None:
        self._cancel_idle()
        if self._in_flight or self._holds or self._run is None or self._closed:
            return
        loop = asyncio.get_running_loop()
        self._idle = loop.call_later(self.settings.idle_s, self._stop_when_idle)

    def _cancel_idle(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def _stop_when_idle(self) -> None:
        self._idle = None
        if self._in_flight or self._holds:
            return
        run = self._detach()
        if run is not None:
            log.info("provider service %s stopped: idle", self.provider_id)
            self._spawn_task(self._retire(run))

    def _detach(self) -> _Run | None:
        """Take the running process out of use; synchronous, so no action can pick it up
        between the decision and the stop."""
        run, self._run = self._run, None
        if run is not None:
            self.state, self.reason = "stopped", None
        return run

    async def _retire(self, run: _Run) -> None:
        run.retired = True
        await run.child.stop(self.settings.grace_s)
        if run.in_flight == 0 and not run.closed.is_set():
            await run.close_clients()

    def _spawn_task(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def aclose(self) -> None:
        """Stop the service (host shutdown); no process is left."""
        self._closed = True
        self._cancel_idle()
        async with self._lock:  # a start under way finishes first, then is stopped
            run = self._detach()
        if run is not None:
            await self._retire(run)
            if not run.closed.is_set():
                await run.close_clients()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._log is not None:
            self._log.close()


class ManagedSurface(contract.Surface):
    """The surface of a service the host runs: every call goes to the running process,
    started if needed."""

    def __init__(self, service: ManagedService) -> None:
        self._service = service

    @contextlib.asynccontextmanager
    async def _surface(self) -> AsyncIterator[LoopbackSurface]:
        async with self._service.using() as run:
            if not run.hello.surface:
                raise NotSentError("the service says it has no surface")
            yield run.surface

    async def frame(self, after: int, wait_s: float) -> Frame | None:
        async with self._surface() as surface:
            return await surface.frame(after, wait_s)

    async def input(self, events: list[InputEvent]) -> None:
        async with self._surface() as surface:
            await surface.input(events)

    async def control(self, controller: Controller) -> None:
        async with self._surface() as surface:
            await surface.control(controller)

    async def resize(self, size: Size) -> Size | None:
        async with self._surface() as surface:
            return await surface.resize(size)

    async def clipboard(self) -> str:
        async with self._surface() as surface:
            return await surface.clipboard()

    async def sessions(self) -> list[SurfaceSession]:
        async with self._surface() as surface:
            return await surface.sessions()

    async def show(self, session_id: str | None) -> None:
        async with self._surface() as surface:
            await surface.show(session_id)

    async def page(self, path: str) -> bytes:
        async with self._surface() as surface:
            return await surface.page(path)


PORT_ATTEMPTS = 3
"""How many ports a service is started on before the host gives up: another program may take
the one chosen before the service binds it."""
_PORT_TAKEN_WAIT_S = 5.0
"""How long a service whose port another program answered on has to exit, for the host to
take it that it could not bind the port."""


class _PortTaken(Exception):
    """The service could not listen on the port chosen for it: another program took it."""


def _free_port() -> int:
    """A loopback port free now; the service binds it a moment later."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _quoted(child: Child) -> str:
    line = child.stderr_line()
    return f". Its error output ended with: {line}" if line else " (it wrote nothing on stderr)"
