"""A browser verb loads the client side alone: no server, no browser, no MCP SDK."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

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
