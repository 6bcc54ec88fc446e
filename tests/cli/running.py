"""``browserhost`` run as a person runs it, in a process of its own, against a served host."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.conftest import TOKEN


@dataclass(frozen=True)
class Ran:
    status: int
    out: str
    err: str

    def answer(self) -> Any:
        """``--json``'s answer, parsed, from a run that succeeded."""
        assert self.status == 0, self
        return json.loads(self.out)


def browserhost(url: str, *args: str, cwd: Path | None = None) -> Ran:
    """Run ``browserhost ARGS`` pointed at the host at ``url`` (with the tests' token)."""
    done = subprocess.run(
        [sys.executable, "-m", "browserhost", *args],
        cwd=cwd,
        env={**os.environ, "BROWSERHOST_URL": url, "BROWSERHOST_TOKEN": TOKEN, "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    return Ran(done.returncode, done.stdout, done.stderr)
