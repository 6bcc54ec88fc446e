"""The ``browserhost`` command line.

``serve`` runs the host; ``mcp`` runs the MCP server on stdio. Every other verb is a thin
call over the HTTP API of a running host: one per browser action, generated from
:data:`browserhost.contract.ACTIONS` (their options from the parameter models), plus
``providers`` and ``select``.

Exit status: 0 on success, 2 for a usage error (a bad option, or a data dir ``serve`` cannot
use), :data:`EXIT_REFUSED` when the call was refused and nothing ran,
:data:`EXIT_MAY_HAVE_RUN` when it was sent and may have run, :data:`EXIT_NOT_WRITTEN` when it
ran but its image could not be written to ``-o FILE``.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import errno
import json
import logging
import os
import socket
import threading
import time
import typing
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from inspect import Parameter, Signature
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic.fields import FieldInfo
from rich.console import Console
from rich.text import Text

from browserhost import config
from browserhost.contract import ACTIONS, VERB_PREFIX, ActionSpec
from browserhost.contract.bridge import HOW_TO_CONNECT
from browserhost.contract.data import element_kind, element_notes, snapshot_notes
from browserhost.contract.errors import BrowserhostError

if TYPE_CHECKING:
    import httpx
    from rich.status import Status
    from uvicorn import Server

    from browserhost.client import BridgeInfo, CapacityInfo, Client, InstanceInfo, ServiceInfo
    from browserhost.host.bridge import Bridge

EXIT_REFUSED = 3
"""The call was refused before anything ran (including a provider's own refusal)."""
EXIT_MAY_HAVE_RUN = 4
"""The call was sent and no usable answer came back: the page may have changed."""
EXIT_NOT_WRITTEN = 1
"""The capture ran and answered, but its image could not be written to ``-o FILE``."""
USAGE_ERROR = 2

PROGRESS_AFTER_S = 0.5
"""A call still unanswered after this gets a status line on stderr: a first action may be
starting a browser or a provider service, which takes seconds."""
WAITING = "Waiting for the browser… (a first action starts it)"

POSITIONAL = {"browser.open": "url", "browser.resize": "viewport"}
"""The one field a verb takes as an argument: ``browserhost open URL``."""

app = typer.Typer(
    help="One browser tool for AI agents, any browser behind it.",
    no_args_is_help=True,
    # --install-completion and --show-completion: tab completion in bash, zsh, fish, PowerShell.
    add_completion=True,
)
out = Console(soft_wrap=True, highlight=False)
err = Console(stderr=True, soft_wrap=True, highlight=False)


@app.callback()
def _group() -> None:
    """One browser tool for AI agents, any browser behind it."""


DataDirOption = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        help="Where the selection and token live (default: $BROWSERHOST_DATA_DIR, else the "
        "user data dir).",
        show_default=False,
    ),
]


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = config.DEFAULT_HOST,
    port: Annotated[int, typer.Option(help="Port to listen on.")] = config.DEFAULT_PORT,
    data_dir: DataDirOption = None,
    select: Annotated[
        str | None, typer.Option("--select", help="Select this provider before serving.")
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host", help="Also accept requests addressed to this host name (repeatable)."
        ),
    ] = None,
    no_bridge: Annotated[
        bool,
        typer.Option("--no-bridge", help="No bridge provider: no browser may dial in."),
    ] = False,
    bridge_listen: Annotated[
        str | None,
        typer.Option(
            "--bridge-listen",
            metavar="HOST:PORT",
            help="Also listen here for the bridge's socket alone (e.g. 0.0.0.0:7879), so a "
            "browser on another machine can dial in while the API stays on --host.",
            show_default=False,
        ),
    ] = None,
    extension_id: Annotated[
        str | None,
        typer.Option(
            "--extension-id",
            metavar="ID",
            help="Refuse every other browser extension on the bridge (its id from "
            "chrome://extensions). A filter only: it lets nothing in, since any process can "
            "claim an extension's origin.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Serve the browser API, MCP at /mcp and the bridge at /ext/bridge, until interrupted."""
    import uvicorn

    from browserhost.api.app import create_app
    from browserhost.host import Host
    from browserhost.host.bridge import Bridge
    from browserhost.host.bridge import offered as bridge_offered

    directory = config.data_dir(data_dir)
    _log_to_stderr()
    try:
        config.prepare_data_dir(directory)
        token = config.ensure_token(directory)
    except config.DataDirError as exc:
        err.print(Text(str(exc)))
        raise typer.Exit(USAGE_ERROR) from None
    # Bound before anything is printed: a port that is taken is said in one line, no token.
    api_sockets = _bound(host, port, "--port")
    bridge_address = None if bridge_listen is None else _bridge_address(bridge_listen)
    bridge_sockets = None if bridge_address is None else _bound(*bridge_address, "--bridge-listen")
    # The browser this host drives must never show the host itself (its API, its docs): a
    # page's text could send the agent there. Providers read where it listens from here.
    os.environ[config.OWN_ADDRESS_ENV] = f"{host}:{port}"
    browser_host = Host(directory)
    enabled = config.enabled_providers()
    browser_host.catalog.discover(enabled)
    browser_host.instances.restore()  # persistent instances, listed stopped until used
    on = not no_bridge and bridge_offered(enabled)
    if not on and bridge_listen is not None:
        err.print(
            "--bridge-listen needs the bridge: leave out --no-bridge, and list bridge in "
            "BROWSERHOST_PROVIDERS when you set it."
        )
        raise typer.Exit(USAGE_ERROR)
    bridge = Bridge(browser_host, extension_id=extension_id) if on else None
    if select is not None:
        try:
            browser_host.select(select)
        except BrowserhostError as exc:
            err.print(f"[red]{exc.code}[/red]: {exc}")
            raise typer.Exit(USAGE_ERROR) from None
    api = create_app(browser_host, token, allow_host or (), bridge)
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    err.print(f"browserhost serving at [bold]{url}[/bold]  (MCP: {url}/mcp)")
    # The token rides in the fragment, which a browser never sends to the server.
    err.print(f"  viewer     {url}/viewer/#token={token}")
    err.print(f"  data dir   {directory}")
    err.print(f"  token      {token}  (stored in {config.token_path(directory)})")
    names = ", ".join(provider.id for provider in browser_host.catalog.all()) or "none"
    try:
        selected = browser_host.providers().selected_id or "none"
    except BrowserhostError as exc:
        # An unreadable selection file must not stop the server: choosing a provider
        # (browserhost select, or the viewer) rewrites it.
        selected = "unreadable; choose one with: browserhost select ID"
        _print_error(exc)
    err.print(f"  providers  {names}; selected: {selected}")
    api_server = uvicorn.Server(uvicorn.Config(api, host=host, port=port, log_level="warning"))
    servers = [(api_server, api_sockets)]
    if bridge is not None and bridge_sockets is not None:
        servers.append((_bridge_server(bridge, token, allow_host or ()), bridge_sockets))
        err.print(f"  bridge     also ws://{bridge_listen}/ext/bridge (the bridge only)")
    if bridge is not None:
        err.print(f"  bridge     {url.replace('http', 'ws', 1)}/ext/bridge")
    asyncio.run(_serve_all(servers))


def _bridge_address(listen: str) -> tuple[str, int]:
    address, _, port = listen.rpartition(":")
    if not address or not port.isdigit():
        err.print(f"--bridge-listen takes HOST:PORT, e.g. 0.0.0.0:7879, not {listen!r}")
        raise typer.Exit(USAGE_ERROR)
    return address.strip("[]"), int(port)


def _bound(host: str, port: int, option: str) -> list[socket.socket]:
    """Sockets bound to ``host:port`` as asyncio binds a server's (every address the name
    resolves to, IPv6 ones for IPv6 alone), for uvicorn to listen on; or exit 2 saying why in
    one line."""
    try:
        found = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (OSError, UnicodeError, OverflowError) as exc:
        err.print(Text(f"cannot listen on {host}:{port}: {exc}; check {option}."))
        raise typer.Exit(USAGE_ERROR) from None
    bound: list[socket.socket] = []
    try:
        for family, kind, protocol, _, address in dict.fromkeys(found):
            listener = socket.socket(family, kind, protocol)
            bound.append(listener)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            listener.bind(address)
    except OSError as exc:
        for listener in bound:
            listener.close()
        err.print(
            Text(
                f"port {port} is taken: another program (another browserhost serve?) listens "
                f"on {host}:{port}; stop it, or choose another port with {option}."
                if exc.errno == errno.EADDRINUSE
                else f"cannot listen on {host}:{port}: {exc.strerror}; check {option}."
            )
        )
        raise typer.Exit(USAGE_ERROR) from None
    return bound


def _bridge_server(bridge: Bridge, token: str, allowed: Sequence[str]) -> Server:
    import uvicorn

    from browserhost.api.bridge import bridge_app

    app = bridge_app(bridge, token, tuple(allowed))
    # The address is the bound sockets' (_bound); the config's is not used.
    settings = uvicorn.Config(app, log_level="warning", lifespan="off")
    return uvicorn.Server(settings)


async def _serve_all(servers: list[tuple[Server, list[socket.socket]]]) -> None:
    """Run the servers together, each on its bound sockets; when one stops (a signal reaches
    only the last one that installed its handlers), stop the others."""
    running = [asyncio.ensure_future(server.serve(sockets)) for server, sockets in servers]
    await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
    for server, _ in servers:
        server.should_exit = True
    await asyncio.gather(*running)


@app.command()
def mcp(
    url: Annotated[
        str | None,
        typer.Option(
            "--url",
            help="Forward to the browserhost serve at this URL instead of running a host in "
            "this process ($BROWSERHOST_URL is not read here: embedding is the default).",
            show_default=False,
        ),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            envvar="BROWSERHOST_TOKEN",
            help="API token for --url (default: the token file in the data dir).",
            show_default=False,
        ),
    ] = None,
    data_dir: DataDirOption = None,
    select: Annotated[
        str | None,
        typer.Option("--select", help="Select this provider at start (e.g. chromium)."),
    ] = None,
) -> None:
    """Serve the browser tools over MCP on stdin and stdout, for an MCP client to start.

    A host runs in this process with the data dir of `browserhost serve`: your providers.

    With --url, calls go to that running `browserhost serve` instead.

    Captures are saved into the client's root, else the directory this runs in.
    """
    try:
        from browserhost import mcp_server
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith("mcp"):  # mcp or mcp_types
            raise
        err.print("The MCP server needs the mcp extra: pip install 'browserhost[mcp]'")
        raise typer.Exit(1) from None
    directory = config.data_dir(data_dir)
    _log_to_stderr()

    async def embedded() -> None:
        from browserhost.host import Host

        host = Host(directory)
        try:
            host.catalog.discover(config.enabled_providers())
            host.instances.restore()
            if select is not None:
                host.select(select)
            await mcp_server.serve_stdio(mcp_server.HostBackend(host))
        finally:
            await host.aclose()

    async def forwarding(target: str) -> None:
        from browserhost.client import Client

        async with Client(target, token or config.read_token(directory)) as client:
            if select is not None:
                await client.select(select)
            await mcp_server.serve_stdio(mcp_server.ClientBackend(client))

    _check_url(url)
    try:
        asyncio.run(embedded() if url is None else forwarding(url))
    except BrowserhostError as exc:
        _print_error(exc)
        raise typer.Exit(_exit_status(exc)) from None


@app.command()
def doctor(
    host: Annotated[str, typer.Option(help="The address serve would listen on.")] = (
        config.DEFAULT_HOST
    ),
    port: Annotated[int, typer.Option(help="The port serve would listen on.")] = (
        config.DEFAULT_PORT
    ),
    data_dir: DataDirOption = None,
) -> None:
    """Check what a first run needs and say what to do for each gap, one line each.

    A Chromium that launches (or the remote browser of BROWSERHOST_CHROMIUM_ENDPOINT), the data
    dir and its token file, the port, the selected provider, and each provider service the
    host would start. Exits 0 only when every check passes.
    """
    from browserhost import doctor as checks

    marks = {"ok": ("✓", "green"), "fail": ("✗", "bold red"), "skip": ("-", "dim")}
    with _waiting("Checking… (a browser or a service may take a few seconds to start)"):
        findings = asyncio.run(checks.examine(config.data_dir(data_dir), host, port))
    for finding in findings:
        mark, style = marks[finding.verdict]
        out.print(Text.assemble((mark, style), " ", (finding.check, "bold"), "  ", finding.detail))
    raise typer.Exit(1 if any(finding.verdict == "fail" for finding in findings) else 0)


@app.command()
def extension() -> None:
    """Print the folder of browserhost's Chrome extension, for "Load unpacked" in
    chrome://extensions; it then dials this machine's bridge and serves the tabs you share."""
    out.print(Text(str(Path(__file__).parent / "extension")))


bridge_commands = typer.Typer(
    help="Serve a host elsewhere with a browser on this machine (connect), or decide which "
    "browsers may connect to this host's bridge (pending, approve, deny, paired, forget).",
    no_args_is_help=True,
)
app.add_typer(bridge_commands, name="bridge")


@bridge_commands.command("connect")
def bridge_connect(
    url: Annotated[
        str,
        typer.Argument(help="The host: ws://HOST:PORT, wss://HOST (behind TLS), or http(s)://."),
    ],
    token: Annotated[
        str | None,
        typer.Option(
            envvar="BROWSERHOST_BRIDGE_TOKEN",
            help="The host's token. Better from $BROWSERHOST_BRIDGE_TOKEN, or typed when "
            "asked: a command line is visible to other users of this machine.",
            show_default=False,
        ),
    ] = None,
    provider: Annotated[
        str, typer.Option("--provider", help="The installed provider that answers.")
    ] = "chromium",
) -> None:
    """Dial in to a host's bridge and answer its actions with a provider here, dialling
    again after a drop. The host lists it as the provider "bridge"."""
    import getpass
    import sys

    from browserhost.sdk import bridge

    try:
        target = bridge.bridge_url(url)
        served = bridge.installed(provider)
    except ValueError as exc:
        err.print(Text(str(exc)))
        raise typer.Exit(USAGE_ERROR) from None
    if not token:
        if not sys.stdin.isatty():
            err.print("Give the host's token in $BROWSERHOST_BRIDGE_TOKEN (or --token).")
            raise typer.Exit(USAGE_ERROR)
        token = getpass.getpass("The host's token: ").strip()

    async def run() -> None:
        try:
            await bridge.connect(
                target, token, served, connected=lambda: err.print(f"connected to {target}")
            )
        finally:
            if served.close is not None:
                await served.close()

    try:
        asyncio.run(run())
    except bridge.BridgeRefusedError as exc:
        err.print(Text(str(exc)))
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        pass


# --- verbs over the HTTP API -------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """The common options: where the host is and how to talk to it."""

    url: str | None
    token: str | None
    as_json: bool
    provider: str | None = None
    session: str | None = None

    def client(self, directory: Path | None) -> Client:
        from browserhost.client import Client

        return Client(
            self.url,
            self.token,
            session_id=self.session,
            directory=directory,
            provider_id=self.provider,
            transport=_announcing(WAITING),
        )


def _log_to_stderr() -> None:
    """browserhost's own log records on stderr, timed: a browser or a provider service that
    starts on a first action says so, and so does a provider refused at start."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    logger = logging.getLogger("browserhost")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


@contextlib.contextmanager
def _waiting(message: str) -> Iterator[None]:
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


def _announcing(message: str) -> httpx.AsyncBaseTransport:
    """A transport that says :func:`_waiting` while an answer is slow to come."""
    import httpx

    class Announcing(httpx.AsyncHTTPTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            with _waiting(message):
                return await super().handle_async_request(request)

    return Announcing()


def _option(
    name: str, annotation: object, default: object, *decls: str, **settings: Any
) -> Parameter:
    return Parameter(
        name,
        Parameter.KEYWORD_ONLY,
        default=default,
        annotation=Annotated[annotation, typer.Option(*decls, **settings)],
    )


def _connection_parameters() -> list[Parameter]:
    return [
        _option(
            "api_url",
            str | None,
            None,
            "--url",
            envvar="BROWSERHOST_URL",
            show_default=False,
            show_envvar=False,
            help="The running browserhost (default: $BROWSERHOST_URL, else http://127.0.0.1:7878).",
        ),
        _option(
            "api_token",
            str | None,
            None,
            "--token",
            envvar="BROWSERHOST_TOKEN",
            show_default=False,
            show_envvar=False,
            help="API token (default: $BROWSERHOST_TOKEN, else the data dir's token file).",
        ),
        _option("as_json", bool, False, "--json", help="Print the raw JSON answer."),
    ]


def _action_parameters() -> list[Parameter]:
    return [
        _option(
            "provider",
            str | None,
            None,
            "--provider",
            metavar="ID",
            help="Send to this provider instead of the selected one.",
        ),
        _option(
            "session",
            str | None,
            None,
            "--session",
            metavar="ID",
            help="The agent session: each one has its own browser context.",
        ),
    ]


def _target(values: dict[str, Any]) -> Target:
    return Target(
        url=values.pop("api_url"),
        token=values.pop("api_token"),
        as_json=values.pop("as_json"),
        provider=values.pop("provider", None),
        session=values.pop("session", None),
    )


def _field_parameter(spec: ActionSpec, name: str, info: FieldInfo) -> Parameter:
    """The command-line parameter for one field of the action's parameter model."""
    annotation: object = str
    choices = _literal_choices(info.annotation)
    if choices:
        annotation = _choice_type(f"{spec.verb.capitalize()}{name.capitalize()}", choices)
    elif info.annotation is bool:
        annotation = bool
    help_text = _cli_names(info.description or "")
    if name == POSITIONAL.get(spec.name):
        return Parameter(
            name,
            Parameter.POSITIONAL_OR_KEYWORD,
            annotation=Annotated[
                annotation, typer.Argument(metavar=name.upper(), help=help_text, show_default=False)
            ],
        )
    flag = f"--{name.replace('_', '-')}"
    if annotation is bool:
        return _option(name, bool, False, flag, help=help_text)
    required = info.is_required()
    return _option(
        name,
        annotation if required else annotation | None,  # type: ignore[operator]  # a runtime type
        ... if required else None,
        flag,
        metavar=None if choices else name.upper(),
        show_default=False,
        help=help_text,
    )


def _choice_type(name: str, choices: list[str]) -> type[StrEnum]:
    """An enum of a Literal's values: typer shows and checks enum choices."""
    return StrEnum(name, {choice: choice for choice in choices})  # type: ignore[return-value]  # the functional API builds a class


def _literal_choices(annotation: object) -> list[str]:
    for member in (annotation, *typing.get_args(annotation)):
        if typing.get_origin(member) is typing.Literal:
            return [str(choice) for choice in typing.get_args(member)]
    return []


def _register_action(spec: ActionSpec) -> None:
    """Add the verb of one action to :data:`app`: its options are the model's fields."""
    params = sorted(
        (_field_parameter(spec, name, info) for name, info in spec.parameters.model_fields.items()),
        key=lambda parameter: parameter.kind,  # the argument before the options
    )
    if spec.name == "browser.capture":
        params.append(
            _option(
                "output",
                Path | None,
                None,
                "-o",
                "--output",
                metavar="FILE",
                dir_okay=False,
                help="Write the image to FILE instead of the project's .browserhost/captures/.",
            )
        )
    params += _action_parameters() + _connection_parameters()

    def verb(**values: Any) -> None:
        target = _target(values)
        output: Path | None = values.pop("output", None)
        parameters = {
            key: value.value if isinstance(value, StrEnum) else value
            for key, value in values.items()
            if value is not None
        }
        # The project is where this command runs: it scopes the browser context (with
        # --session), and a capture is saved into it.
        directory = Path.cwd()
        _check_output(output)

        async def act(client: Client) -> None:
            answer = await client.run(spec.name, parameters)
            if output is not None:
                _write_image(answer.data, output)
            if target.as_json:
                _print_json(answer.to_wire())
            else:
                RENDERERS.get(spec.name, _render_fields)(answer.data, output)

        _run(target, directory, act)

    verb.__signature__ = Signature(params)  # type: ignore[attr-defined]  # read by typer
    app.command(
        spec.verb,
        help=_cli_names(spec.description),
        short_help=spec.description.split(". ")[0].removesuffix(".") + ".",
        rich_help_panel="Browser actions",
    )(verb)


def _register_providers() -> None:
    def providers(**values: Any) -> None:
        target = _target(values)

        async def act(client: Client) -> None:
            listing = await client.providers()
            if target.as_json:
                _print_json(listing.model_dump(mode="json", by_alias=True))
                return
            for row in listing.providers:
                chosen = row.id == listing.selected_id
                out.print(
                    Text.assemble(
                        ("* " if chosen else "  ", "green"),
                        (row.id, "bold"),
                        f"  {row.name}",
                        (" (selected)" if chosen else "", "green"),
                    )
                )
                if row.service is not None:
                    out.print(_service_line(row.service))
                if row.bridge is not None:
                    out.print(_bridge_line(row.bridge))
                if row.capacity is not None:
                    out.print(_capacity_line(row.capacity))
                for verb in row.verbs:
                    out.print(
                        Text.assemble("    call ", (verb.name, "cyan"), f"  {verb.description}")
                    )
            if not listing.providers:
                out.print("No browser provider is installed.")
            if listing.selected_id is None:
                out.print("None is selected; choose one with: browserhost select ID")

        _run(target, None, act)

    def select(**values: Any) -> None:
        provider_id: str = values.pop("id")
        target = _target(values)

        async def act(client: Client) -> None:
            selected = await client.select(provider_id)
            if target.as_json:
                _print_json({"selectedId": selected})
            else:
                out.print(Text.assemble("Selected ", (selected, "bold"), "."))

        _run(target, None, act)

    providers.__signature__ = Signature(_connection_parameters())  # type: ignore[attr-defined]  # read by typer
    select.__signature__ = Signature(  # type: ignore[attr-defined]  # read by typer
        [
            Parameter(
                "id",
                Parameter.POSITIONAL_OR_KEYWORD,
                annotation=Annotated[str, typer.Argument(metavar="ID", help="A provider id.")],
            ),
            *_connection_parameters(),
        ]
    )
    app.command(
        "providers",
        help="List the browser providers and which one is selected.",
        rich_help_panel="Providers",
    )(providers)
    app.command(
        "select",
        help="Choose the provider that answers actions (the others stay installed).",
        rich_help_panel="Providers",
    )(select)


def _register_call() -> None:
    def call(**values: Any) -> None:
        verb: str = values.pop("verb")
        pairs: list[str] = values.pop("arg") or []
        raw: str | None = values.pop("arguments")
        values["as_json"] = True  # a verb's answer is the provider's own JSON
        target = _target(values)

        async def act(client: Client) -> None:
            arguments = _call_arguments(raw, pairs)
            if pairs:
                schema = await _verb_schema(client, verb, target.provider)
                arguments.update(_typed_pairs(pairs, schema))
            answer = await client.run(f"{VERB_PREFIX}{verb}", arguments)
            _print_json(answer.to_wire())

        _run(target, Path.cwd(), act)

    call.__signature__ = Signature(  # type: ignore[attr-defined]  # read by typer
        [
            Parameter(
                "verb",
                Parameter.POSITIONAL_OR_KEYWORD,
                annotation=Annotated[
                    str, typer.Argument(metavar="VERB", help="The verb's name, e.g. find.")
                ],
            ),
            _option(
                "arg",
                list[str] | None,
                None,
                "--arg",
                metavar="KEY=VALUE",
                help="One argument; repeat it. Typed by the verb's schema (numbers, true/false).",
            ),
            _option(
                "arguments",
                str | None,
                None,
                "--json",
                metavar="OBJECT",
                help='All arguments as a JSON object, e.g. --json \'{"text": "Pricing"}\'.',
            ),
            *_action_parameters(),
            *[p for p in _connection_parameters() if p.name != "as_json"],
        ]
    )
    app.command(
        "call",
        help="Run a verb of the selected provider (browserhost providers lists them).",
        rich_help_panel="Browser actions",
    )(call)


def _register_instances() -> None:
    def instances(**values: Any) -> None:
        target = _target(values)

        async def act(client: Client) -> None:
            found = await client.instances()
            if target.as_json:
                _print_json([row.model_dump(mode="json", by_alias=True) for row in found])
                return
            for row in found:
                out.print(_instance_line(row))
            if not found:
                out.print("No browser instance is launched; start one with: browserhost launch ID")

        _run(target, None, act)

    def launch(**values: Any) -> None:
        context: typer.Context = values.pop("ctx")
        provider: str | None = values.pop("provider")
        pairs: list[str] = values.pop("set") or []
        name: str | None = values.pop("name")
        wants_help: bool = values.pop("show_help")
        target = _target(values)
        if provider is None:
            out.print(context.get_help())
            raise typer.Exit(0 if wants_help else USAGE_ERROR)

        async def act(client: Client) -> None:
            listing = await client.providers()
            row = next((row for row in listing.providers if row.id == provider), None)
            schema = {} if row is None or row.launch is None else row.launch.input_schema
            if wants_help:
                out.print(context.get_help())
                if row is None or row.launch is None:
                    out.print(Text(f"\n{provider} is not a provider that launches instances."))
                    return
                out.print(Text(f"\n{row.launch.help}\n\nOptions of {provider} (--set KEY=VALUE):"))
                for key, line in _launch_option_lines(schema):
                    out.print(Text.assemble("  ", (key, "bold"), f"  {line}"))
                return
            launched = await client.launch(provider, _launch_options(pairs, schema), name=name)
            if target.as_json:
                _print_json(launched.model_dump(mode="json", by_alias=True))
            else:
                out.print(_instance_line(launched))
                out.print(Text(f"Route actions to it with: browserhost select {launched.id}"))

        _run(target, None, act)

    def close(**values: Any) -> None:
        instance_id: str = values.pop("id")
        target = _target(values)

        async def act(client: Client) -> None:
            closed = await client.close_instance(instance_id)
            if target.as_json:
                _print_json(closed.model_dump(mode="json", by_alias=True))
            else:
                out.print(Text.assemble("Closed ", (closed.id, "bold"), "."))

        _run(target, None, act)

    instances.__signature__ = Signature(_connection_parameters())  # type: ignore[attr-defined]  # read by typer
    launch.__signature__ = Signature(  # type: ignore[attr-defined]  # read by typer
        [
            Parameter("ctx", Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context),
            Parameter(
                "provider",
                Parameter.POSITIONAL_OR_KEYWORD,
                default=None,
                annotation=Annotated[
                    str | None,
                    typer.Argument(
                        metavar="PROVIDER", help="A provider that launches, e.g. chromium."
                    ),
                ],
            ),
            _option(
                "set",
                list[str] | None,
                None,
                "--set",
                metavar="KEY=VALUE",
                help="One launch option; repeat it (proxy.server=... for a nested one). Typed by "
                "the provider's schema: see browserhost launch PROVIDER --help.",
            ),
            _option(
                "name",
                str | None,
                None,
                "--name",
                metavar="NAME",
                help="The instance's name; its id is PROVIDER~NAME (default: a number).",
            ),
            _option(
                "show_help",
                bool,
                False,
                "--help",
                "-h",
                is_eager=False,
                help="Show this message and the provider's launch options.",
            ),
            *_connection_parameters(),
        ]
    )
    close.__signature__ = Signature(  # type: ignore[attr-defined]  # read by typer
        [
            Parameter(
                "id",
                Parameter.POSITIONAL_OR_KEYWORD,
                annotation=Annotated[
                    str, typer.Argument(metavar="ID", help="An instance id, e.g. chromium~work.")
                ],
            ),
            *_connection_parameters(),
        ]
    )
    app.command(
        "instances",
        help="List the launched browser instances.",
        rich_help_panel="Instances",
    )(instances)
    app.command(
        "launch",
        help="Launch a browser instance of a provider with options (--help with a PROVIDER "
        "lists them).",
        rich_help_panel="Instances",
        # --help is the command's own: with a PROVIDER it also lists that provider's options.
        context_settings={"help_option_names": []},
    )(launch)
    app.command(
        "close",
        help="Close a browser instance: its browser stops and it is forgotten (a profile stays).",
        rich_help_panel="Instances",
    )(close)


def _register_pairing() -> None:
    """``browserhost bridge pending``, ``paired``, ``approve ID``, ``deny ID``, ``forget ID``:
    the viewer's Allow and Deny, from a terminal."""

    def pending(**values: Any) -> None:
        target = _target(values)

        async def act(client: Client) -> None:
            waiting = await client.pending()
            if target.as_json:
                _print_json([row.to_wire() for row in waiting])
                return
            for row in waiting:
                ago = _duration(max(0.0, time.time() - row.since))
                out.print(_pairing_line(row.id, row.name, row.origin, f"asked {ago} ago"))
            if not waiting:
                out.print("No browser is waiting for approval.")
            else:
                out.print(
                    "Allow one whose browserhost button shows the same id: browserhost bridge "
                    "approve ID (or deny ID)."
                )

        _run(target, None, act)

    def paired(**values: Any) -> None:
        target = _target(values)

        async def act(client: Client) -> None:
            found = await client.paired()
            if target.as_json:
                _print_json([row.to_wire() for row in found])
                return
            for row in found:
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.paired_at))
                out.print(_pairing_line(row.id, row.name, row.origin, f"paired {when}"))
            if not found:
                out.print("No browser is paired.")

        _run(target, None, act)

    def approve(**values: Any) -> None:
        pairing_id: str = values.pop("id")
        target = _target(values)

        async def act(client: Client) -> None:
            record = await client.approve(pairing_id)
            if target.as_json:
                _print_json(record.to_wire())
            else:
                out.print(
                    Text.assemble(
                        "Approved ",
                        (record.id, "bold"),
                        f" ({record.name}): it is connected, and connects again with its own "
                        "secret. Revoke it with: browserhost bridge forget ",
                        record.id,
                    )
                )

        _run(target, None, act)

    def deny(**values: Any) -> None:
        pairing_id: str = values.pop("id")
        target = _target(values)

        async def act(client: Client) -> None:
            request = await client.deny(pairing_id)
            if target.as_json:
                _print_json(request.to_wire())
            else:
                out.print(
                    Text.assemble(
                        "Denied ", (request.id, "bold"), f" ({request.name}): it was disconnected."
                    )
                )

        _run(target, None, act)

    def forget(**values: Any) -> None:
        pairing_id: str = values.pop("id")
        target = _target(values)

        async def act(client: Client) -> None:
            record = await client.forget(pairing_id)
            if target.as_json:
                _print_json(record.to_wire())
            else:
                out.print(
                    Text.assemble(
                        "Forgot ",
                        (record.id, "bold"),
                        f" ({record.name}): it is disconnected, and must be approved again to "
                        "connect.",
                    )
                )

        _run(target, None, act)

    def with_id(help_text: str) -> Signature:
        return Signature(
            [
                Parameter(
                    "id",
                    Parameter.POSITIONAL_OR_KEYWORD,
                    annotation=Annotated[str, typer.Argument(metavar="ID", help=help_text)],
                ),
                *_connection_parameters(),
            ]
        )

    pending.__signature__ = Signature(_connection_parameters())  # type: ignore[attr-defined]  # read by typer
    paired.__signature__ = Signature(_connection_parameters())  # type: ignore[attr-defined]  # read by typer
    waiting_id = "The id the waiting browser shows (browserhost bridge pending lists them)."
    approve.__signature__ = with_id(waiting_id)  # type: ignore[attr-defined]  # read by typer
    deny.__signature__ = with_id(waiting_id)  # type: ignore[attr-defined]  # read by typer
    forget.__signature__ = with_id(  # type: ignore[attr-defined]  # read by typer
        "A paired browser's id (browserhost bridge paired lists them)."
    )
    bridge_commands.command(
        "pending",
        help="List the browsers waiting for your approval to connect to this host's bridge.",
    )(pending)
    bridge_commands.command(
        "paired", help="List the browsers you approved; each connects with its own secret."
    )(paired)
    bridge_commands.command(
        "approve",
        help="Let a waiting browser connect (the viewer's Allow): it gets a secret of its own.",
    )(approve)
    bridge_commands.command(
        "deny", help="Refuse a waiting browser (the viewer's Deny): it is disconnected."
    )(deny)
    bridge_commands.command(
        "forget",
        help="Revoke a paired browser: it is disconnected and must be approved again.",
    )(forget)


def _pairing_line(pairing_id: str, name: str, origin: str | None, when: str) -> Text:
    return Text.assemble(
        (pairing_id, "bold"), f"  {name}", f"  {origin}" if origin else "", f"  {when}"
    )


def _instance_line(row: InstanceInfo) -> Text:
    details = " ".join(
        key if value is True else f"{key}={value}"
        for key, value in row.details.items()
        if key != "createdAt" and value is not False and not isinstance(value, dict)
    )
    proxy = row.details.get("proxy")
    if isinstance(proxy, dict):
        details += f" proxy={proxy.get('server')}"
    colour = {"running": "green", "failed": "red"}.get(row.status, "")
    return Text.assemble(
        (row.id, "bold"), "  ", (row.status, colour), f"  {row.persistence}  {details}".rstrip()
    )


def _launch_option_lines(
    schema: Mapping[str, Any], root: Mapping[str, Any] | None = None, prefix: str = ""
) -> Iterator[tuple[str, str]]:
    """``KEY=TYPE`` and its words, for every option of a launch schema (nested ones dotted)."""
    from browserhost.host.instances import resolve

    top = schema if root is None else root
    node = resolve(top, schema)
    for key, raw in (node.get("properties") or {}).items():
        prop = resolve(top, raw)
        if prop.get("properties"):
            yield from _launch_option_lines(prop, top, f"{prefix}{key}.")
            continue
        kind = "|".join(prop["enum"]) if "enum" in prop else str(prop.get("type", "value"))
        words = ": ".join(str(t) for t in (prop.get("title"), prop.get("description")) if t)
        if "default" in prop:
            words += f" (default: {json.dumps(prop['default'])})"
        yield f"{prefix}{key}={kind.upper() if 'enum' not in prop else kind}", words


def _launch_options(pairs: list[str], schema: Mapping[str, Any]) -> dict[str, object]:
    """``--set key=value`` pairs as an options object: ``proxy.server=...`` nests, and each
    value is read as its schema property's type (a string stays a string; anything else is
    read as JSON, and the host's schema check words what does not fit)."""
    from browserhost.host.instances import resolve

    options: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"--set takes KEY=VALUE, not {pair!r}.")
        *parents, leaf = key.split(".")
        holder, node = options, resolve(schema, schema)
        for part in parents:
            inner = holder.setdefault(part, {})
            if not isinstance(inner, dict):
                raise typer.BadParameter(f"--set {key}: {part} is given a value already.")
            holder = inner
            node = resolve(schema, (node.get("properties") or {}).get(part) or {})
        wanted = resolve(schema, (node.get("properties") or {}).get(leaf) or {}).get("type")
        if wanted == "string":
            holder[leaf] = value
            continue
        try:
            holder[leaf] = json.loads(value)
        except ValueError:
            holder[leaf] = value
    return options


def _service_line(service: ServiceInfo) -> Text:
    if service.state == "running":
        return Text(f"    service running for {_duration(service.uptime_s or 0.0)}")
    if service.state == "failed":
        return Text.assemble("    service ", ("failed", "red"), f": {service.reason or '?'}")
    if service.state == "stopped":
        return Text("    service stopped (it starts on the first action)")
    return Text(f"    service {service.state}")


def _bridge_line(bridge: BridgeInfo) -> Text:
    if not bridge.connected:
        return Text.assemble("    ", ("no browser connected", "yellow"), f": {HOW_TO_CONNECT}")
    return Text(f"    browser connected{f': {bridge.provider}' if bridge.provider else ''}")


def _capacity_line(capacity: CapacityInfo) -> Text:
    line = Text(f"    {capacity.source}: ")
    if capacity.free is not None and capacity.busy is not None:
        line.append(f"{capacity.free} free, {capacity.busy} busy")
        if capacity.problem is not None:
            line.append(" (")
            line.append(capacity.problem, "yellow")
            line.append(")")
    elif capacity.problem is not None:
        line.append(capacity.problem, "red")
    return line


def _duration(seconds: float) -> str:
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


def _call_arguments(raw: str | None, pairs: list[str]) -> dict[str, object]:
    if raw is None:
        return {}
    try:
        parsed = json.loads(raw)
    except ValueError:
        parsed = None
    if not isinstance(parsed, dict):
        raise typer.BadParameter('--json takes a JSON object, e.g. \'{"text": "Pricing"}\'.')
    return parsed


def _typed_pairs(pairs: list[str], schema: Mapping[str, Any]) -> dict[str, object]:
    """``--arg key=value`` pairs, each value read as its schema property's type: a string
    stays a string; anything else is read as JSON (``3``, ``true``, ``["a"]``)."""
    properties = schema.get("properties") or {}
    typed: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"--arg takes KEY=VALUE, not {pair!r}.")
        if _json_type(properties.get(key) or {}) == "string":
            typed[key] = value
            continue
        try:
            typed[key] = json.loads(value)
        except ValueError:
            typed[key] = value  # the host's schema check says what is wrong with it
    return typed


def _json_type(schema: Mapping[str, Any]) -> object:
    """A property's JSON type; an optional one's (``anyOf`` a type and null) is that type, so
    that ``--arg text=42`` stays the text "42" where text may be left out."""
    if "type" in schema:
        return schema["type"]
    kinds = {variant.get("type") for variant in schema.get("anyOf") or []} - {"null"}
    return kinds.pop() if len(kinds) == 1 else None


async def _verb_schema(client: Client, verb: str, provider: str | None) -> Mapping[str, Any]:
    listing = await client.providers()
    wanted = provider or listing.selected_id
    for row in listing.providers:
        if row.id == wanted:
            for declared in row.verbs:
                if declared.name == verb:
                    return declared.input_schema
    return {}


def _run(target: Target, directory: Path | None, act: Callable[[Client], Awaitable[None]]) -> None:
    _check_url(target.url)

    async def main() -> None:
        async with target.client(directory) as client:
            await act(client)

    try:
        asyncio.run(main())
    except BrowserhostError as exc:
        if target.as_json:
            _print_json(exc.to_wire())
        else:
            _print_error(exc)
        raise SystemExit(_exit_status(exc)) from None


def _check_url(url: str | None) -> None:
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


def _check_output(output: Path | None) -> None:
    """Refuse ``-o`` into a folder that does not exist before sending: nothing runs."""
    if output is not None and not output.parent.is_dir():
        err.print(
            Text(
                f"Cannot write {output}: there is no folder {output.parent}; create it or "
                "choose another -o FILE. Nothing was sent."
            )
        )
        raise SystemExit(USAGE_ERROR)


def _print_error(error: BrowserhostError) -> None:
    from browserhost.client import describe

    code, _, message = describe(error).partition(": ")
    err.print(Text.assemble((code, "bold red"), ": ", _cli_names(message)))


def _exit_status(error: BrowserhostError) -> int:
    return EXIT_MAY_HAVE_RUN if error.may_have_run else EXIT_REFUSED


def _print_json(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False), flush=True)


def _write_image(answer: Mapping[str, Any], output: Path) -> None:
    try:
        image = base64.b64decode(str(answer.get("base64", "")), validate=True)
    except (binascii.Error, ValueError):
        image = b""
    if not image:
        err.print("The capture holds no image; nothing was written.")
        raise SystemExit(EXIT_MAY_HAVE_RUN)
    try:
        output.write_bytes(image)
    except OSError as exc:
        err.print(
            Text(
                f"Cannot write {output} ({exc.strerror}): the capture was taken but not saved; "
                "choose another -o FILE."
            )
        )
        raise SystemExit(EXIT_NOT_WRITTEN) from None


# --- readable output, one renderer per action where plain fields would not do -----------


def _render_fields(answer: Mapping[str, Any], output: Path | None = None) -> None:
    for key, value in answer.items():
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        out.print(Text.assemble((f"{key}: ", "dim"), shown))


def _page_line(answer: Mapping[str, Any]) -> Text:
    return Text.assemble(
        (str(answer.get("title") or "(untitled)"), "bold"), "  ", (str(answer.get("url")), "cyan")
    )


def _viewport(answer: Mapping[str, Any]) -> str:
    viewport = answer.get("viewport") or {}
    size = f" {viewport['width']}x{viewport['height']}" if viewport.get("width") else ""
    return f"{viewport.get('mode')}{size}"


def _render_open(answer: Mapping[str, Any], output: Path | None = None) -> None:
    out.print(_page_line(answer))
    settled = "" if answer.get("settled", True) else "; still loading when the wait ended"
    out.print(Text(f"viewport {_viewport(answer)}{settled}", "dim"))
    for dialog in answer.get("dialogs") or []:
        out.print(Text(f"{dialog.get('type')} {dialog.get('answer')}: {dialog.get('message')}"))
    if answer.get("notice"):
        out.print(Text(f"({answer['notice']})", "yellow"))


def _render_snapshot(answer: Mapping[str, Any], output: Path | None = None) -> None:
    out.print(_page_line(answer))
    scope = answer.get("scope")
    where = f"; scoped to {scope}" if scope not in (None, "page") else ""
    out.print(
        Text(
            f"scroll {answer.get('scrollY')}/{answer.get('maxScrollY')}, viewport "
            f"{_viewport(answer)}{where}",
            "dim",
        )
    )
    elements = answer.get("elements") or []
    out.print(Text(f"\nElements ({len(elements)})", "bold"))
    for number, element in enumerate(elements, 1):
        notes = element_notes(element)
        out.print(
            Text.assemble(
                f"{number:>3}. ",
                (str(element.get("selector")), "cyan"),
                f"  {element_kind(element)}  ",
                json.dumps(element.get("label") or "", ensure_ascii=False),
                (f"  ({', '.join(notes)})" if notes else "", "dim"),
            )
        )
    out.print(Text("\nText", "bold"))
    out.print(Text(str(answer.get("text") or "")))
    for note in snapshot_notes(answer):
        out.print(Text(f"({note})", "dim"))
    for problem in answer.get("consoleProblems") or []:
        out.print(Text(f"console {problem.get('level')}: {problem.get('text')}", "yellow"))


def _render_click(answer: Mapping[str, Any], output: Path | None = None) -> None:
    out.print(
        Text.assemble(
            "Clicked ",
            (json.dumps(answer.get("label") or "", ensure_ascii=False), "bold"),
            " (",
            (str(answer.get("clicked")), "cyan"),
            ")  now at ",
            (str(answer.get("url")), "cyan"),
        )
    )
    _render_aftermath(answer)


def _render_type(answer: Mapping[str, Any], output: Path | None = None) -> None:
    out.print(
        Text.assemble(
            "Typed into ",
            (str(answer.get("selector")), "cyan"),
            "  now at ",
            (str(answer.get("url")), "cyan"),
        )
    )
    _render_aftermath(answer)


def _render_aftermath(answer: Mapping[str, Any]) -> None:
    """The acted-on element's state and the dialogs the action caused."""
    notes = element_notes(answer)
    if notes:
        out.print(Text(", ".join(notes), "dim"))
    for dialog in answer.get("dialogs") or []:
        out.print(Text(f"{dialog.get('type')} {dialog.get('answer')}: {dialog.get('message')}"))


def _render_scroll(answer: Mapping[str, Any], output: Path | None = None) -> None:
    edge = " (top)" if answer.get("atTop") else " (bottom)" if answer.get("atBottom") else ""
    out.print(f"Scrolled to {answer.get('scrollY')} of {answer.get('maxScrollY')}{edge}")


def _render_page(answer: Mapping[str, Any], output: Path | None = None) -> None:
    out.print(_page_line(answer))


def _render_inspect(answer: Mapping[str, Any], output: Path | None = None) -> None:
    bounds = answer.get("bounds") or {}
    out.print(
        Text.assemble(
            (str(answer.get("selector")), "cyan"),
            f"  {answer.get('tag')}  ",
            json.dumps(answer.get("label") or "", ensure_ascii=False),
        )
    )
    out.print(
        f"at {bounds.get('x')},{bounds.get('y')} size {bounds.get('width')}x"
        f"{bounds.get('height')}, {'in view' if answer.get('inViewport') else 'out of view'}"
    )
    notes = element_notes({**answer, "inViewport": None})
    if notes:
        out.print(", ".join(notes))
    for name, value in (answer.get("styles") or {}).items():
        out.print(Text.assemble((f"  {name}: ", "dim"), str(value)))


def _render_capture(answer: Mapping[str, Any], output: Path | None = None) -> None:
    size = f"{answer.get('width')}x{answer.get('height')}"
    saved = answer.get("path")
    if output is not None:
        out.print(Text.assemble("Wrote ", (str(output), "bold"), f"  {size}"))
    if saved is not None:
        out.print(Text.assemble("Saved ", (str(saved), "bold"), f"  {size}"))
    elif output is None:
        out.print(f"Captured {size}; the host could not save it here. Use -o FILE.")
    out.print(_page_line(answer))


def _render_resize(answer: Mapping[str, Any], output: Path | None = None) -> None:
    out.print(f"Viewport {_viewport(answer)}")


RENDERERS: dict[str, Callable[[Mapping[str, Any], Path | None], None]] = {
    "browser.open": _render_open,
    "browser.snapshot": _render_snapshot,
    "browser.click": _render_click,
    "browser.type": _render_type,
    "browser.scroll": _render_scroll,
    "browser.back": _render_page,
    "browser.forward": _render_page,
    "browser.inspect": _render_inspect,
    "browser.capture": _render_capture,
    "browser.resize": _render_resize,
}
"""Readable output by action; an action missing here prints its fields one per line."""


def _cli_names(text: str) -> str:
    """``browser.snapshot`` → ``snapshot``: the verb a person types."""
    for spec in ACTIONS.values():
        text = text.replace(spec.name, spec.verb)
    return text


for _spec in ACTIONS.values():
    _register_action(_spec)
del _spec
_register_providers()
_register_call()
_register_instances()
_register_pairing()


def main() -> None:
    app(prog_name="browserhost")


__all__ = ["EXIT_MAY_HAVE_RUN", "EXIT_NOT_WRITTEN", "EXIT_REFUSED", "app", "main"]
