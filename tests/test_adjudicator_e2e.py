"""End to end: real gunicorn on a loopback port, real HTTP, a temporary SQLite file.

The server runs `adjudicator.testing:make_test_app()`: the real app plus the test probe check, its
games' seeds the tests' own (no assertion here depends on a die, but a run is reproducible).

Also a small crash test: kill -9 the whole server mid-game, restart it on the same files, and
check that every acknowledged roll is there exactly once and retries return the originals.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from adjudicator.ledger.keys import load_public_keys
from adjudicator.testing import a_side
from adjudicator.ledger.verify import verify_ledger

pytestmark = pytest.mark.server  # starts a real server process

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A gunicorn process group serving the adjudicator, started and stopped by the test."""

    def __init__(self, tmp_path: Path):
        self.tmp_path = tmp_path
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self):
        env = dict(
            os.environ,
            DATABASE_URL=f"sqlite:///{self.tmp_path / 'e2e.sqlite3'}",
            ADJUDICATOR_KEY_PATH=str(self.tmp_path / "signing-key.pem"),
            ADJUDICATOR_RATELIMIT_ENABLED="false",
        )
        self.log = open(self.tmp_path / "gunicorn.log", "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "adjudicator" / "gunicorn.conf.py"),
             "--bind", f"127.0.0.1:{self.port}", "--workers", "2", "adjudicator.testing:make_test_app()"],
            cwd=ROOT, env=env, stdout=self.log, stderr=self.log, start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if requests.get(self.url + "/ping", timeout=5).ok:
                    return self
            except requests.RequestException:
                time.sleep(0.1)
            if self.process.poll() is not None:
                break
        self.kill()
        pytest.fail("gunicorn did not start: " + (self.tmp_path / "gunicorn.log").read_text()[-2000:])

    def kill(self, sig=signal.SIGKILL):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, sig)  # the group this test started, by its id
            self.process.wait(timeout=30)
        self.log.close()


def scenario(server) -> str:
    systems = requests.get(server.url + "/api/v1/systems", timeout=10).json()["systems"]
    return next(s for s in systems if s["id"] == "kwb")["scenarios"][0]["id"]


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path).start()
    yield server
    server.kill(signal.SIGTERM)


def test_game_mode_roll_over_http(server):
    created = requests.post(server.url + "/api/v1/games", json={"system": "kwb", "scenario": scenario(server)},
                            timeout=10)
    assert created.status_code == 201
    game = created.json()
    headers = {"Authorization": f"Bearer {a_side(game)}"}
    rolled = requests.post(f"{server.url}/api/v1/games/{game['game_id']}/probe_roll",
                           json={"target": 3, "request_id": "e2e-1"}, headers=headers, timeout=10)
    assert rolled.status_code == 201
    assert rolled.json()["receipt"]["seq"] == 1
    bad = requests.post(f"{server.url}/api/v1/games/{game['game_id']}/probe_roll",
                        data="{", headers={**headers, "Content-Type": "application/json"}, timeout=10)
    assert bad.status_code == 400 and bad.headers["Content-Type"] == "application/problem+json"


def test_kill_9_loses_no_acknowledged_roll(tmp_path):
    server = Server(tmp_path).start()
    game = requests.post(server.url + "/api/v1/games", json={"system": "kwb", "scenario": scenario(server)},
                         timeout=10).json()
    headers = {"Authorization": f"Bearer {a_side(game)}"}
    url = f"/api/v1/games/{game['game_id']}/probe_roll"
    acknowledged = {}
    for i in range(30):
        response = requests.post(server.url + url, json={"target": 4, "request_id": f"r{i}"}, headers=headers,
                                 timeout=10)
        assert response.status_code == 201
        acknowledged[f"r{i}"] = response.json()
    server.kill(signal.SIGKILL)

    server = Server(tmp_path).start()
    try:
        for request_id, original in acknowledged.items():
            retry = requests.post(server.url + url, json={"target": 4, "request_id": request_id}, headers=headers,
                                  timeout=10)
            assert retry.status_code == 200
            assert retry.json() == original
        ledger = requests.get(f"{server.url}/api/v1/games/{game['game_id']}/ledger", headers=headers,
                              timeout=10).json()
        request_ids = [r["body"]["request_id"] for r in ledger["records"][1:]]
        assert sorted(request_ids) == sorted(acknowledged)
        keys_path = tmp_path / "keys.json"
        keys_path.write_text(requests.get(server.url + "/.well-known/adjudicator-keys.json", timeout=10).text)
        assert verify_ledger(ledger, load_public_keys(keys_path)).ok
    finally:
        server.kill(signal.SIGTERM)
