"""The commands that run something here: ``serve`` (the host), ``mcp`` (MCP on stdio),
``doctor``, ``extension`` and ``bridge connect``.

Server-side modules (uvicorn, the host, the MCP SDK) are imported inside each command, so a
browser verb never loads them.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from browserhost import config
from browserhost.contract.errors import BrowserhostError

from .arenas import few_malloc_arenas
from .calls import check_url, waiting
from .options import DataDirOption
from .output import USAGE_ERROR, err, exit_status, out, print_error

if TYPE_CHECKING:
    from uvicorn import Server

    from browserhost.host.bridge import Bridge

EXTENSION_DIR = Path(__file__).parent.parent / "extension"
EXTENSION_DIALS = f"ws://{config.DEFAULT_HOST}:{config.DEFAULT_PORT}/ext/bridge"
"""Where the extension dials unless its options page says otherwise (background.js's
DEFAULT_URL)."""


def serve(
    host: Annotated[
        str, typer.Option(metavar="HOST", help="Address to listen on.")
    ] = config.DEFAULT_HOST,
    port: Annotated[
        int, typer.Option(metavar="PORT", help="Port to listen on.", min=0, max=65535)
    ] = config.DEFAULT_PORT,
    data_dir: DataDirOption = None,
    select: Annotated[
        str | None,
        typer.Option("--select", metavar="ID", help="Select this provider before serving."),
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
    no_recording: Annotated[
        bool,
        typer.Option(
            "--no-recording",
            help="Record nothing (also BROWSERHOST_RECORDING=off). Otherwise each session's "
            "actions are kept, with a small picture of the page after each, for the viewer's "
            "timeline and browserhost trace export.",
        ),
    ] = False,
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
    few_malloc_arenas()
    import uvicorn

    from browserhost.api import connections
    from browserhost.api.app import create_app
    from browserhost.host import Host
    from browserhost.host.bridge import Bridge
    from browserhost.host.bridge import offered as bridge_offered
    from browserhost.host.recording import data_dir_recorder

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
    browser_host = Host(directory, recorder=data_dir_recorder(directory, no_recording))
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
    if browser_host.recorder.enabled:
        err.print(f"  recording  {browser_host.recorder.store.folder}  (off: --no-recording)")
    err.print(f"  token      {token}  (stored in {config.token_path(directory)})")
    names = ", ".join(provider.id for provider in browser_host.catalog.all()) or "none"
    try:
        selected = browser_host.providers().selected_id or "none"
    except BrowserhostError as exc:
        # An unreadable selection file must not stop the server: choosing a provider
        # (browserhost select, or the viewer) rewrites it.
        selected = "unreadable; choose one with: browserhost select ID"
        print_error(exc)
    err.print(f"  providers  {names}; selected: {selected}")
    connections.more_descriptors()
    api_server = uvicorn.Server(
        uvicorn.Config(api, host=host, port=port, log_level="warning", **connections.settings())
    )
    servers = [(api_server, api_sockets)]
    if bridge is not None and bridge_sockets is not None:
        servers.append((_bridge_server(bridge, token, allow_host or ()), bridge_sockets))
        err.print(f"  bridge     also ws://{bridge_listen}/ext/bridge (the bridge only)")
    if bridge is not None:
        dialled = f"{url.replace('http', 'ws', 1)}/ext/bridge"
        err.print(f"  bridge     {dialled}")
        if dialled != EXTENSION_DIALS:
            err.print(
                f"  extension  dials {EXTENSION_DIALS} unless told: enter {dialled} in its "
                "options page (right-click its button, Options)"
            )
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

    from browserhost.api import connections
    from browserhost.api.bridge import bridge_app

    app = bridge_app(bridge, token, tuple(allowed))
    # The address is the bound sockets' (_bound); the config's is not used.
    settings = uvicorn.Config(app, log_level="warning", lifespan="off", **connections.settings())
    return uvicorn.Server(settings)


async def _serve_all(servers: list[tuple[Server, list[socket.socket]]]) -> None:
    """Run the servers together, each on its bound sockets; when one stops (a signal reaches
    only the last one that installed its handlers), stop the others."""
    running = [asyncio.ensure_future(server.serve(sockets)) for server, sockets in servers]
    await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
    for server, _ in servers:
        server.should_exit = True
    await asyncio.gather(*running)


def mcp(
    url: Annotated[
        str | None,
        typer.Option(
            "--url",
            metavar="URL",
            help="Forward to the browserhost serve at this URL instead of running a host in "
            "this process ($BROWSERHOST_URL is not read here: embedding is the default).",
            show_default=False,
        ),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            envvar="BROWSERHOST_TOKEN",
            metavar="TOKEN",
            help="API token for --url (default: the token file in the data dir).",
            show_default=False,
        ),
    ] = None,
    data_dir: DataDirOption = None,
    select: Annotated[
        str | None,
        typer.Option(
            "--select", metavar="ID", help="Select this provider at start (e.g. chromium)."
        ),
    ] = None,
) -> None:
    """Serve the browser tools over MCP on stdin and stdout, for an MCP client to start.

    A host runs in this process with the data dir of `browserhost serve`: your providers.

    With --url, calls go to that running `browserhost serve` instead.

    Captures are saved into the client's root, else the directory this runs in.
    """
    few_malloc_arenas()
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
        from browserhost.host.recording import data_dir_recorder

        host = Host(directory, recorder=data_dir_recorder(directory))
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

    check_url(url)
    try:
        asyncio.run(embedded() if url is None else forwarding(url))
    except BrowserhostError as exc:
        print_error(exc)
        raise typer.Exit(exit_status(exc)) from None


def doctor(
    host: Annotated[
        str, typer.Option(metavar="HOST", help="The address serve would listen on.")
    ] = (config.DEFAULT_HOST),
    port: Annotated[
        int, typer.Option(metavar="PORT", help="The port serve would listen on.", min=0, max=65535)
    ] = (config.DEFAULT_PORT),
    data_dir: DataDirOption = None,
) -> None:
    """Check what a first run needs and say what to do for each gap, one line each.

    A Chromium that launches (or the remote browser of BROWSERHOST_CHROMIUM_ENDPOINT), the data
    dir and its token file, the port, the selected provider, and each provider service the
    host would start. Exits 0 only when every check passes.
    """
    from browserhost import doctor as checks

    marks = {"ok": ("✓", "green"), "fail": ("✗", "bold red"), "skip": ("-", "dim")}
    with waiting("Checking… (a browser or a service may take a few seconds to start)"):
        findings = asyncio.run(checks.examine(config.data_dir(data_dir), host, port))
    for finding in findings:
        mark, style = marks[finding.verdict]
        out.print(Text.assemble((mark, style), " ", (finding.check, "bold"), "  ", finding.detail))
    raise typer.Exit(1 if any(finding.verdict == "fail" for finding in findings) else 0)


def extension() -> None:
    """Print the folder of browserhost's Chrome extension, for "Load unpacked" in
    chrome://extensions; it then dials this machine's bridge and serves the tabs you share.

    The folder is the one line on stdout; where the extension dials, and how to change it,
    go to stderr.
    """
    out.print(Text(str(EXTENSION_DIR)))
    err.print(
        Text(
            f"It dials {EXTENSION_DIALS} (browserhost serve's default). For a host on "
            "another address or port, open the extension's options page (right-click its "
            "button, Options) and enter ws://HOST:PORT/ext/bridge, the bridge line "
            "browserhost serve prints."
        )
    )


def bridge_connect(
    url: Annotated[
        str,
        typer.Argument(help="The host: ws://HOST:PORT, wss://HOST (behind TLS), or http(s)://."),
    ],
    token: Annotated[
        str | None,
        typer.Option(
            envvar="BROWSERHOST_BRIDGE_TOKEN",
            metavar="TOKEN",
            help="The host's token. Better from $BROWSERHOST_BRIDGE_TOKEN, or typed when "
            "asked: a command line is visible to other users of this machine.",
            show_default=False,
        ),
    ] = None,
    provider: Annotated[
        str, typer.Option("--provider", metavar="ID", help="The installed provider that answers.")
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


def _log_to_stderr() -> None:
    """browserhost's own log records on stderr, timed: a browser or a provider service that
    starts on a first action says so, and so does a provider refused at start."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    logger = logging.getLogger("browserhost")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
