"""A provider service in plain Python, standard library only: no SDK, no browserhost import.

    BROWSERHOST_SERVICE_TOKEN=... BROWSERHOST_SERVICE_PORT=9100 python plain_service.py [mode]

It stands for a provider written in any language: it reads its port and token from the
environment, says hello at ``GET /browser-control``, answers every action with the page it is
on, refuses a request without its token (401), and prints ``received <action> <requestId>``
for each one it takes. ``mode`` makes it misbehave: ``exit`` fails at start after a line on
stderr, ``future`` speaks protocol version 99, ``hang`` never answers ``browser.click``.
"""

import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODE = sys.argv[1] if len(sys.argv) > 1 else ""
TOKEN = os.environ["BROWSERHOST_SERVICE_TOKEN"]
ACTIONS = ["browser.back", "browser.click"]


class Handler(BaseHTTPRequestHandler):
    def authorized(self) -> bool:
        if self.headers.get("Authorization") == f"Bearer {TOKEN}":
            return True
        self.reply(401, {"error": "send the token"})
        return False

    def reply(self, status: int, body: object) -> None:
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self) -> None:
        if self.authorized():
            version = 99 if MODE == "future" else 1
            self.reply(200, {"protocolVersion": version, "actions": ACTIONS, "surface": False})

    def do_POST(self) -> None:
        if not self.authorized():
            return
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        print("received", body["action"], body["requestId"], flush=True)
        if MODE == "hang" and body["action"] == "browser.click":
            threading.Event().wait()
        self.reply(
            200, {"ok": True, "data": {"url": "http://plain.test/", "title": str(os.getpid())}}
        )

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: stdout is for what it received."""


if MODE == "exit":
    print("plain service: cannot open /dev/frobnicator (no such device)", file=sys.stderr)
    sys.exit(3)
ThreadingHTTPServer(
    ("127.0.0.1", int(os.environ["BROWSERHOST_SERVICE_PORT"])), Handler
).serve_forever()
