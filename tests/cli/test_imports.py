"""A browser verb loads the client side alone: no server, no browser, no MCP SDK, and no
model of the contract."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from browserhost.cli import EXIT_REFUSED
from tests.conftest import free_port

pytestmark = pytest.mark.slow

SERVER_SIDE = (
    "fastapi",
    "starlette",
    "uvicorn",
    "mcp",
    "playwright",
    "browserhost.host",
    "browserhost.providers",
    "browserhost.api.app",
    "browserhost.mcp_server",
)


def test_the_command_line_imports_no_server_side_module() -> None:
    probe = (
        "import json, sys; import browserhost.cli; "
        f"print(json.dumps([m for m in {list(SERVER_SIDE)!r} if m in sys.modules]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(done.stdout) == []


MODELS = ("browserhost.client", "browserhost.contract.actions", "browserhost.contract.data")


def test_a_browser_verb_builds_no_model() -> None:
    """A verb sends its action as given (the host checks it): neither the typed client nor the
    contract's models are loaded, which would cost every verb a fifth of its start."""
    probe = (
        "import json, sys\n"
        "from browserhost.cli import main\n"
        f"sys.argv = ['browserhost', 'snapshot', '--url', 'http://127.0.0.1:{free_port()}']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exit:\n"
        f"    print(json.dumps([exit.code, [m for m in {list(MODELS)!r} if m in sys.modules]]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(done.stdout) == [EXIT_REFUSED, []], done.stderr
