"""A reload with broken data never takes the service down (issue 43), against the real gunicorn.

`adjudicator serve` on a copy of the data (SCENARIOS_DATA); the maintainer breaks KWB's combat table
(a result code the codes table lacks) and sends SIGHUP: the master refuses the data, logs the problem
as `file:line`, the new worker serves the data read before, and the status (`GET /api/v1/status`,
`adjudicator status`) says why. A worker restarted while the folder is still broken serves the same.
The maintainer fixes the table and sends SIGHUP again: the new data is served.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import requests

from scenarios.loader import DATA_ROOT
from test_maintainer_scenario import Served
import pytest

pytestmark = pytest.mark.server  # starts a real server process

BIN = Path(sys.executable).parent
ATTACK = {"scenario": "pusan", "attacking_side": "communist", "attackers": [{"unit": "nk-6", "hex": "0101"}],
          "defenders": [{"unit": "us-5-1m", "hex": "0201"}], "dice": [3]}  # odds 1:1, die 3


def set_crt_row(data: Path, die: int, code: str) -> int:
    """Every cell of the CRT's row for ``die`` set to ``code``; the row's line."""
    crt = data / "kwb" / "tables" / "crt.csv"
    lines = crt.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{die},"))
    lines[at] = f"{die}," + ",".join([code] * (lines[at].count(",")))
    crt.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return at + 1


def result(server: Served) -> str:
    answer = requests.post(server.url + "/api/v1/systems/kwb/combat", json=ATTACK, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()["outcome"]["result"]


def status(server: Served) -> dict:
    return requests.get(server.url + "/api/v1/status", timeout=10).json()


def hang_up(server: Served) -> dict:
    """SIGHUP to the master, then the status once the new worker answers (it knows the reload)."""
    before = (status(server).get("last_reload") or {}).get("at")
    os.kill(server.process.pid, signal.SIGHUP)
    seen: dict = {}

    def reloaded() -> bool:
        seen.update(status(server))
        return bool(seen.get("last_reload")) and (seen["last_reload"]["at"] != before or before is None)

    server.wait_for(reloaded)
    return seen


def adjudicator_status(server: Served) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "adjudicator"), "status", "--server", server.url], capture_output=True,
                          text=True, timeout=60)


def booted_workers(server: Served) -> list[int]:
    return [int(pid) for pid in re.findall(r"Booting worker with pid: (\d+)", server.log.read_text())]


def test_a_reload_with_broken_data_keeps_serving_the_data_before_and_says_why(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA_ROOT, data)
    server = Served(data, tmp_path)
    try:
        first = status(server)
        assert first["ok"] and first["last_reload"] is None
        assert first["data"]["read_by"] == "gunicorn master" and first["data"]["folder"] == str(data)
        assert {"id": "kwb", "scenarios": ["pusan", "seoul", "changjin"]} in first["data"]["games"]
        assert result(server) == "NE"

        line = set_crt_row(data, 3, "ZZ")  # a code tables/crt_results.csv does not define
        refused = hang_up(server)
        assert refused["ok"] is False and refused["last_reload"]["taken"] is False
        assert refused["data"]["loaded_at"] == first["data"]["loaded_at"]  # still the data read at the start
        problems = refused["last_reload"]["problems"]
        assert problems and all(p.startswith(f"kwb/tables/crt.csv:{line}: table crt: column ") for p in problems)
        assert "'ZZ' is not a code of table crt_results" in problems[0]
        assert result(server) == "NE"  # the previous data, served by the new worker
        log = server.log.read_text()
        assert f"reload refused: kwb/tables/crt.csv:{line}: table crt: column" in log
        assert "Shutting down" not in log and "Worker failed to boot" not in log and "Traceback" not in log
        said = adjudicator_status(server)
        assert said.returncode == 1, said.stderr
        assert said.stdout.startswith("RELOAD REFUSED: the reload at ")
        assert f"  kwb/tables/crt.csv:{line}: table crt: column " in said.stdout

        # A worker that dies while the folder is broken is replaced by one with the master's data.
        worker = booted_workers(server)[-1]
        os.kill(worker, signal.SIGKILL)  # the server's own worker, started by this test's server
        server.wait_for(lambda: len(booted_workers(server)) > 2 and requests.get(server.url + "/ping", timeout=5).ok)
        assert result(server) == "NE"
        assert "Worker failed to boot" not in server.log.read_text()

        set_crt_row(data, 3, "DR")  # fixed: a code it defines
        taken = hang_up(server)
        assert taken["ok"] is True and taken["last_reload"] == {"at": taken["last_reload"]["at"], "taken": True,
                                                                "problems": []}
        assert taken["data"]["loaded_at"] == taken["last_reload"]["at"] != first["data"]["loaded_at"]
        server.wait_for(lambda: result(server) == "DR")
        said = adjudicator_status(server)
        assert said.returncode == 0 and said.stdout.startswith("ok: serving the game data read at "), said.stdout
    finally:
        server.stop()


def test_gunicorn_started_on_broken_data_stops_with_every_problem_and_no_traceback(tmp_path):
    """Plain gunicorn with the service's configuration (docs/api.md "Running it"): its master reads
    the data before any worker exists, and stops with the problems."""
    data = tmp_path / "data"
    shutil.copytree(DATA_ROOT, data)
    line = set_crt_row(data, 3, "ZZ")
    env = {**os.environ, "SCENARIOS_DATA": str(data), "DATABASE_URL": f"sqlite:///{tmp_path / 'g.sqlite3'}",
           "ADJUDICATOR_KEY_PATH": str(tmp_path / "key.pem"), "ADJUDICATOR_BIND": "127.0.0.1:0"}
    done = subprocess.run([sys.executable, "-m", "gunicorn", "-c", str(Path("adjudicator/gunicorn.conf.py").resolve()),
                           "adjudicator.wsgi:app"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert f"kwb/tables/crt.csv:{line}: table crt: column " in done.stderr
    assert "problem(s), listed above" in done.stderr and "Traceback" not in done.stderr
    assert "Booting worker" not in done.stderr


def test_a_process_without_a_master_reads_the_data_itself_and_says_so(tmp_path):
    from adjudicator.testing import make_app

    document = make_app(tmp_path).test_client().get("/api/v1/status").get_json()
    assert document["ok"] and document["last_reload"] is None
    assert document["data"]["read_by"] == "server process" and document["data"]["folder"] == str(DATA_ROOT)
    assert [g["id"] for g in document["data"]["games"]] == ["kwb", "spi", "holdfast", "fireandice"]


def test_adjudicator_status_without_a_server_says_so(tmp_path):
    from test_maintainer_scenario import free_port

    done = subprocess.run([str(BIN / "adjudicator"), "status", "--server", f"http://127.0.0.1:{free_port()}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.startswith("adjudicator status: no status from http://127.0.0.1:")
    assert "Traceback" not in done.stderr
