"""A gunicorn process serving the adjudicator on a free loopback port.

Used by the HTTP benchmark and the crash-safety soak.  The server gets its own
temporary SQLite file and signing key; the process group is started here and
only ever signalled by its own id.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import requests

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Gunicorn:
    """Start, kill -9 and restart gunicorn on the same database file."""

    workdir: Path
    workers: int = 2
    extra_env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    #: The WSGI app gunicorn serves (tests: "adjudicator.testing:make_test_app()", chosen dice).
    app: str = "adjudicator.wsgi:app"
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def database(self) -> Path:
        return self.workdir / "adjudicator.sqlite3"

    @property
    def key_path(self) -> Path:
        return self.workdir / "signing-key.pem"

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{self.database}",
            "ADJUDICATOR_KEY_PATH": str(self.key_path),
            "ADJUDICATOR_RATELIMIT_ENABLED": "false",
            **self.extra_env,  # e.g. DATABASE_URL of a PostgreSQL server (bench/scaleout.py)
        }

    def start(self, timeout: float = 60) -> "Gunicorn":
        self.workdir.mkdir(parents=True, exist_ok=True)
        log = open(self.workdir / "gunicorn.log", "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "adjudicator" / "gunicorn.conf.py"),
             "--bind", f"127.0.0.1:{self.port}", "--workers", str(self.workers), self.app],
            cwd=ROOT, env=self.env(), stdout=log, stderr=log, start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if requests.get(self.url + "/ping", timeout=1).ok:
                    return self
            except requests.RequestException:  # refused, or accepted before a worker is ready
                time.sleep(0.1)
            if self.process.poll() is not None:
                break
        self.stop(signal.SIGKILL)
        raise RuntimeError("gunicorn did not start:\n" + self.log_tail())

    def worker_pids(self) -> list[int]:
        """The worker processes (children of the master), for profilers."""
        if self.process is None:
            return []
        out = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True)
        return [int(pid) for pid in out.stdout.split()]

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Signal the whole process group this object started (kill -9 with SIGKILL)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            self.process.wait(timeout=30)
        self.process = None

    def log_tail(self, chars: int = 3000) -> str:
        path = self.workdir / "gunicorn.log"
        return path.read_text(errors="replace")[-chars:] if path.exists() else ""


@contextmanager
def served(prefix: str, extra_env: Callable[[Path], dict[str, str]] | None = None) -> Iterator[tuple[Path, Gunicorn]]:
    """A temporary folder and a server working in it (``extra_env(folder)`` added to its environment),
    stopped and removed afterwards."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        work = Path(tmp)
        server = Gunicorn(workdir=work / "server", extra_env=extra_env(work) if extra_env else {}).start()
        try:
            yield work, server
        finally:
            server.stop()


def new_game(url: str, system: str, scenario: str) -> tuple[str, str, dict[str, str]]:
    """A recorded game on the server: (its id, a side's token, every token by role)."""
    response = requests.post(url + "/api/v1/games", json={"system": system, "scenario": scenario}, timeout=30)
    response.raise_for_status()
    body = response.json()
    side = next(t for role, t in body["tokens"].items() if role != "observer")
    return body["game_id"], side, body["tokens"]
