"""Servers for the Adjudicator extension's engine tests: VASSAL's own server, and a server that
accepts a check and never answers.

`VassalServer` runs the engine jar's own server (VASSAL.chat.node.Server) on a free loopback port:
the rooms live players meet in (docs/engine-harness.md, "Several Players at once"). It keeps rooms
in memory, reports to no one (-URL null) and is stopped by its process id.

`SilentProxy` stands between VASSAL and a real adjudicator: it passes every request through and
returns the answer, except for the checks it is told to withhold (by their number, counting the
check requests it has seen): it passes such a request on (so the server records the ruling) and
then keeps the connection open without a word: what a player sees when the server accepts and
never answers, or the answer is lost on the way. The
extension must show that it waits, give up after its timeout with a clear message, and, asked
again with the same request id, get the recorded ruling instead of a second roll.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests

from tests.engine.harness import class_path


class VassalServer:
    """VASSAL's own server from the engine jar, on a free loopback port."""

    def __init__(self):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> "VassalServer":
        self.process = subprocess.Popen(
            ["java", "-Xmx256m", "-cp", os.pathsep.join(map(str, class_path())), "VASSAL.chat.node.Server",
             "-port", str(self.port), "-URL", "null"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + timeout
        while time.monotonic() < end:  # until it accepts a connection
            if self.process.poll() is not None:
                raise RuntimeError(f"VASSAL's server ended at start (exit {self.process.returncode})")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"VASSAL's server did not listen on port {self.port} within {timeout:.0f} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

#: A check request: game mode (/api/v1/games/<id>/<check>) or compute (/api/v1/systems/<game>/<check>).
CHECK_PATH = re.compile(r"^/api/v1/(games/[^/]+|systems/[^/]+)/[a-z_]+(\?|$)")
NOT_CHECKS = ("/ledger", "/close", "/verify", "/savedgame")


class SilentProxy:
    """A pass-through proxy on a loopback port that can withhold the answer to checks."""

    def __init__(self, target: str, withhold: tuple[int, ...] = ()):
        self.target = target.rstrip("/")
        self.withhold = set(withhold)  # the numbers (1 = first) of the check requests whose answers are withheld
        self.checks = 0        # check requests seen
        self.withheld = []     # the paths of the checks whose answers were withheld
        self.release = threading.Event()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                self._forward(b"")

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                self._forward(self.rfile.read(length))

            def _forward(self, body: bytes):
                headers = {k: v for k, v in self.headers.items() if k.lower() in ("authorization", "content-type", "accept")}
                answer = requests.request(self.command, proxy.target + self.path, data=body or None, headers=headers,
                                          timeout=60)
                if self.command == "POST" and proxy._withhold(self.path):
                    proxy.release.wait(120)  # the ruling is recorded; its answer never comes
                    self.close_connection = True
                    return
                self.send_response(answer.status_code)
                for name in ("Content-Type", "Idempotent-Replayed", "Location"):
                    if name in answer.headers:
                        self.send_header(name, answer.headers[name])
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, name="silent-proxy", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> "SilentProxy":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    def _withhold(self, path: str) -> bool:
        if not CHECK_PATH.match(path) or any(part in path for part in NOT_CHECKS):
            return False
        self.checks += 1
        if self.checks not in self.withhold:
            return False
        self.withheld.append(path)
        return True
