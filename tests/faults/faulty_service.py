"""A provider service in a process of its own that misbehaves when asked to, and its handle.

    python -m tests.faults.faulty_service --port 9100

``browser.click`` on the selector ``#<fault>`` gets that fault (:data:`FAULTS`); every other
action gets a plain success. Each request is printed on stdout as one JSON line before it is
answered, so the test in the other process counts what arrived. It is built on the raw socket
server of :mod:`tests.loopback_service`, not on the SDK, because an SDK service cannot answer
garbage, trickle or a gzip bomb; the SDK runner's own faults are in ``tests/sdk/``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from tests.loopback_service import Behaviour, Received, answer, gzip_bomb, loopback_service
from tests.spawning import READY_WAIT_S, spawn

REPOSITORY = Path(__file__).resolve().parents[2]
SUCCESS = answer({"ok": True, "data": {"url": "http://fault.test/", "title": "Fault test"}})


async def hang(_: Received, __: asyncio.StreamWriter) -> None:
    """Take the request and never answer (until the process ends)."""
    await asyncio.Event().wait()


async def trickle(_: Received, writer: asyncio.StreamWriter) -> None:
    """A valid start, then one byte every 100 ms of an answer that never ends: each read is
    quick, the whole answer never comes. Stops when the host hangs up."""
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
    writer.write(b"Content-Length: 1000000\r\n\r\n")
    while True:
        writer.write(b" ")
        await writer.drain()
        await asyncio.sleep(0.1)  # pacing the fault itself


def built_on_first_use(make: Callable[[], Behaviour]) -> Behaviour:
    """Build a large answer when first asked for, so the service starts at once."""
    made = cache(make)

    async def respond(request: Received, writer: asyncio.StreamWriter) -> None:
        await made()(request, writer)

    return respond


FAULTS: dict[str, Behaviour] = {
    "hang": hang,
    "trickle": trickle,
    "garbage": answer(b"<html><body>502 Bad Gateway</body></html>", content_type="text/html"),
    "oversized": built_on_first_use(
        lambda: answer(b'{"ok": true, "data": {"base64": "' + b"A" * 13_000_000 + b'"}}')
    ),
    "gzip-bomb": built_on_first_use(
        lambda: answer(gzip_bomb(130_000_000), headers={"Content-Encoding": "gzip"})
    ),
}


async def behave(request: Received, writer: asyncio.StreamWriter) -> None:
    envelope = request.json()
    print(json.dumps({k: envelope.get(k) for k in ("action", "parameters")}), flush=True)
    selector = str((envelope.get("parameters") or {}).get("selector", ""))
    fault = FAULTS.get(selector.removeprefix("#"), SUCCESS)
    await (fault if envelope["action"] == "browser.click" else SUCCESS)(request, writer)


async def serve(port: int) -> None:
    async with loopback_service(behave, port) as service:
        print(json.dumps({"listening": service.port}), flush=True)
        await asyncio.Event().wait()


class FaultyService:
    """The service process, run from a test: start, kill, restart on the same port, and the
    requests it received (since it last started)."""

    def __init__(self, log_dir: Path) -> None:
        self._log_dir = log_dir
        self.port = 0
        self.received: list[dict[str, Any]] = []
        self._arrived = threading.Condition()
        self._process: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self._process is not None
        return self._process.pid

    def start(self) -> None:
        log = self._log_dir / f"faulty-service-{len(list(self._log_dir.glob('faulty-*')))}.log"
        with log.open("w") as stderr:
            self._process = spawn(
                [sys.executable, "-m", "tests.faults.faulty_service", "--port", str(self.port)],
                cwd=REPOSITORY,
                env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
            )
        assert self._process.stdout is not None
        listening: dict[str, int] = {}
        started = threading.Event()
        self.received = []

        def read(lines: Any) -> None:
            for line in lines:
                message = json.loads(line)
                if "listening" in message:
                    listening.update(message)
                    started.set()
                    continue
                with self._arrived:
                    self.received.append(message)
                    self._arrived.notify_all()
            started.set()  # the process ended

        self._reader = threading.Thread(target=read, args=(self._process.stdout,), daemon=True)
        self._reader.start()
        started.wait(READY_WAIT_S)  # set at once when the process ends
        if not listening:
            self.kill()
            raise RuntimeError(f"the faulty service did not start:\n{log.read_text()}")
        self.port = listening["listening"]

    def wait_for_requests(self, count: int) -> list[dict[str, Any]]:
        """Block (bounded) until ``count`` requests have arrived; return them all."""
        with self._arrived:
            self._arrived.wait_for(lambda: len(self.received) >= count, timeout=READY_WAIT_S)
            return list(self.received)

    def kill(self) -> None:
        assert self._process is not None
        self._process.send_signal(signal.SIGKILL)
        self._process.wait(timeout=10)
        assert self._reader is not None
        self._reader.join(timeout=10)
        assert self._process.stdout is not None
        self._process.stdout.close()

    def restart(self) -> None:
        """A new process on the same port, as a user restarts a service the host knows."""
        self.kill()
        self.start()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    asyncio.run(serve(parser.parse_args().port))


if __name__ == "__main__":
    main()
