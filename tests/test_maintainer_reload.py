"""A reload with broken data never takes the service down (issue 43), against the real gunicorn.

`adjudicator serve` on a copy of the data (SCENARIOS_DATA); the maintainer breaks KWB's combat table
(a result code the codes table lacks) and sends SIGHUP: the master refuses the data, logs the problem
as `file:line`, the new worker serves the data read before, and the status (`GET /api/v1/status`,
`adjudicator status`) says why. A worker restarted while the folder is still broken serves the same.
The maintainer fixes the table and sends SIGHUP again: the new data is served.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from scenarios.loader import DATA_ROOT
from test_maintainer_scenario import Served

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


def hang_up(server: Served, until=lambda reload: True) -> dict:
    """SIGHUP to the master, then the status once a new worker answers (it knows the reload) and its
    reload is this one (``until`` holds for it): an old worker, still finishing after the last SIGHUP,
    may answer ``before`` or the wait with the reload before this one."""
    before = (status(server).get("last_reload") or {}).get("at")
    seen: dict = {}

    def reloaded() -> bool:
        seen.clear()
        seen.update(status(server))
        reload = seen.get("last_reload")
        return bool(reload) and (reload["at"] != before or before is None) and until(reload)

    # a SIGHUP that reaches the master while it still forks the last reload's workers may be lost
    # (gunicorn logs no "Handling signal: hup" for it): sent again after 10 s, at most three times
    for _ in range(3):
        os.kill(server.process.pid, signal.SIGHUP)
        ends = time.monotonic() + 10
        while time.monotonic() < ends:
            try:
                if reloaded():
                    return seen
            except requests.RequestException:
                pass
            time.sleep(0.2)
    server.wait_for(reloaded)
    return seen


def adjudicator_status(server: Served, maintainer: bool = False) -> subprocess.CompletedProcess:
    """`adjudicator status`; as the maintainer on the server's machine (its signing key readable: the
    status names the data folder's full path), or from elsewhere."""
    env = {**os.environ, "ADJUDICATOR_KEY_PATH": server.env["ADJUDICATOR_KEY_PATH"] if maintainer else "absent.pem"}
    return subprocess.run([str(BIN / "adjudicator"), "status", "--server", server.url], capture_output=True,
                          text=True, timeout=60, env=env)


def settled_status(server: Served, code: int, says: str = "") -> subprocess.CompletedProcess:
    """`adjudicator status` once it answers `code` (and `says` that), within 30 s: just after a SIGHUP
    an old worker, still finishing, may answer once more with the data it had (the reload is the new
    workers')."""
    ends = time.monotonic() + 30
    said = adjudicator_status(server)
    while (said.returncode != code or says not in said.stdout) and time.monotonic() < ends:
        time.sleep(0.2)
        said = adjudicator_status(server)
    return said


def booted_workers(server: Served) -> list[int]:
    return [int(pid) for pid in re.findall(r"Booting worker with pid: (\d+)", server.log.read_text())]


def test_a_reload_with_broken_data_keeps_serving_the_data_before_and_says_why(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA_ROOT, data)
    server = Served(data, tmp_path)
    try:
        first = status(server)
        assert first["ok"] and first["last_reload"] is None
        assert first["data"]["read_by"] == "gunicorn master" and first["data"]["folder"] == "data"
        assert str(tmp_path) not in json.dumps(first)  # no path of the machine for anyone who asks
        said = adjudicator_status(server, maintainer=True)  # on the server's machine, with its key
        assert said.returncode == 0 and f"from {data}:" in said.stdout, said.stdout
        assert {"id": "kwb", "scenarios": ["pusan", "seoul", "changjin"]} in first["data"]["games"]
        assert result(server) == "NE"

        line = set_crt_row(data, 3, "ZZ")  # a code tables/crt_results.csv does not define
        refused = hang_up(server, until=lambda reload: not reload["taken"])
        assert refused["ok"] is False and refused["last_reload"]["taken"] is False
        assert refused["data"]["loaded_at"] == first["data"]["loaded_at"]  # still the data read at the start
        problems = refused["last_reload"]["problems"]
        assert problems and all(p.startswith(f"kwb/tables/crt.csv:{line}: table crt: column ") for p in problems)
        assert "'ZZ' is not a code of table crt_results" in problems[0]
        assert result(server) == "NE"  # the previous data, served by the new worker
        log = server.log.read_text()
        assert f"reload refused: kwb/tables/crt.csv:{line}: table crt: column" in log
        assert "Shutting down" not in log and "Worker failed to boot" not in log and "Traceback" not in log
        said = settled_status(server, 1)
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
        taken = hang_up(server, until=lambda reload: reload["taken"])
        assert taken["ok"] is True and taken["last_reload"] == {"at": taken["last_reload"]["at"], "taken": True,
                                                                "problems": [], "missing": []}
        assert taken["data"]["loaded_at"] == taken["last_reload"]["at"] != first["data"]["loaded_at"]
        server.wait_for(lambda: result(server) == "DR")
        said = settled_status(server, 0)
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

    app = make_app(tmp_path)
    document = app.test_client().get("/api/v1/status").get_json()
    assert document["ok"] and document["last_reload"] is None
    assert document["data"]["read_by"] == "server process" and document["data"]["folder"] == DATA_ROOT.name
    assert str(DATA_ROOT) not in json.dumps(document)
    with app.app_context():
        from adjudicator import served_data
        from adjudicator.services import services
        token = served_data.maintainer_token(services().signing_key)
    full = app.test_client().get("/api/v1/status", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert full["data"]["folder"] == str(DATA_ROOT) and str(DATA_ROOT) in full["summary"]
    forged = app.test_client().get("/api/v1/status", headers={"Authorization": "Bearer " + token[:-2] + "AA"})
    assert forged.get_json()["data"]["folder"] == DATA_ROOT.name
    assert [g["id"] for g in document["data"]["games"]] == ["kwb", "spi", "holdfast", "fireandice"]


def test_adjudicator_status_without_a_server_says_so(tmp_path):
    from test_maintainer_scenario import free_port

    done = subprocess.run([str(BIN / "adjudicator"), "status", "--server", f"http://127.0.0.1:{free_port()}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.startswith("adjudicator status: no status from http://127.0.0.1:")
    assert "Traceback" not in done.stderr


HOLDFAST_COMBAT = {"turn": 6, "weather": "clear", "attackers": [{"unit": "nkpa-1", "sp": 3, "across_river": True}],
                   "defender": {"unit": "un-2", "sp": 4}, "defender_terrain": "city", "coastal": True,
                   "attacker_support": ["armor"], "defender_support": ["air", "naval"],
                   "dice": [5, 6, 1, 1] + [6, 2, 2, 2, 2, 2, 2, 2, 2]}


def holdfast_combat(server: Served) -> int:
    """Defender's strength points after a HoldFast combat with fixed dice (the game's data served)."""
    answer = requests.post(server.url + "/api/v1/systems/holdfast/combat", json=HOLDFAST_COMBAT, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()["outcome"]["defender"]["sp"]


def test_a_reload_that_would_drop_a_game_is_refused_and_names_it(tmp_path):
    """issue 52: a game's game.toml gone, its folder moved away, the whole data folder moved or emptied:
    each SIGHUP refused like broken data (before, taken as good: every check of the game answered 500,
    or the new workers failed to boot and gunicorn stopped)."""
    data = tmp_path / "data"
    shutil.copytree(DATA_ROOT, data)
    server = Served(data, tmp_path)
    try:
        first = status(server)
        assert holdfast_combat(server) == 2
        steps = [
            (lambda: (data / "holdfast" / "game.toml").rename(data / "holdfast" / "game.toml.bak"),
             "holdfast/game.toml: missing: its folder has no game.toml; the server serves game 'holdfast'",
             lambda: (data / "holdfast" / "game.toml.bak").rename(data / "holdfast" / "game.toml")),
            (lambda: (data / "holdfast").rename(tmp_path / "holdfast-away"),
             "holdfast/game.toml: missing: the data folder has no folder holdfast/ (moved or renamed?)",
             lambda: (tmp_path / "holdfast-away").rename(data / "holdfast")),
            (lambda: data.rename(tmp_path / "data-away"),
             "holdfast/game.toml: missing: the data folder does not exist (moved or renamed?)",
             lambda: (tmp_path / "data-away").rename(data)),
            (lambda: [d.rename(tmp_path / f"away-{d.name}") for d in list(data.iterdir())],
             "holdfast/game.toml: missing: the data folder has no game in it (no <game>/game.toml)",
             lambda: [d.rename(data / d.name.removeprefix("away-")) for d in tmp_path.glob("away-*")]),
        ]
        for break_it, problem, mend in steps:
            break_it()
            refused = hang_up(server, until=lambda reload: any(p.startswith(problem) for p in reload["problems"]))
            mend()
            assert refused["ok"] is False and refused["last_reload"]["taken"] is False, problem
            assert refused["data"]["loaded_at"] == first["data"]["loaded_at"]
            assert any(p.startswith(problem) for p in refused["last_reload"]["problems"]), refused
            whole = "no game in it" in problem or "does not exist" in problem
            assert refused["last_reload"]["missing"] == (["kwb", "spi", "holdfast", "fireandice"] if whole
                                                         else ["holdfast"])
            assert "game(s) missing: " + ("kwb, spi, holdfast, fireandice" if whole else "holdfast") \
                in refused["summary"]
            assert holdfast_combat(server) == 2  # the game read at the start, served by the new worker
            said = settled_status(server, 1, f"  {problem}")
            assert said.returncode == 1 and said.stdout.startswith("RELOAD REFUSED: "), said.stdout
            assert f"  {problem}" in said.stdout
        log = server.log.read_text()
        assert "reload refused: holdfast/game.toml: missing" in log
        assert "Shutting down" not in log and "Worker failed to boot" not in log and "Traceback" not in log
        assert "KeyError" not in log

        taken = hang_up(server, until=lambda reload: reload["taken"])  # everything back where it was
        assert taken["ok"] is True and taken["last_reload"]["taken"] and taken["last_reload"]["missing"] == []
        assert holdfast_combat(server) == 2
    finally:
        server.stop()


@pytest.mark.parametrize("folder", ["empty", "absent"])
def test_serve_on_a_folder_without_games_says_so_and_starts_nothing(tmp_path, folder):
    data = tmp_path / "data"
    if folder == "empty":
        data.mkdir()
    env = {**os.environ, "SCENARIOS_DATA": str(data), "DATABASE_URL": f"sqlite:///{tmp_path / 'g.sqlite3'}",
           "ADJUDICATOR_KEY_PATH": str(tmp_path / "key.pem")}
    done = subprocess.run([str(BIN / "adjudicator"), "serve", "--port", "1"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    why = "the data folder has no game in it" if folder == "empty" else "the data folder does not exist"
    for game in ("kwb", "spi", "holdfast", "fireandice"):
        assert f"{game}/game.toml: missing: {why}" in done.stderr
    assert "4 problem(s), listed above" in done.stderr
    assert "Traceback" not in done.stderr and "Booting worker" not in done.stderr

    # gunicorn itself with the service's configuration: its master refuses the same, before any worker
    env["ADJUDICATOR_BIND"] = "127.0.0.1:0"
    done = subprocess.run([sys.executable, "-m", "gunicorn", "-c", str(Path("adjudicator/gunicorn.conf.py").resolve()),
                           "adjudicator.wsgi:app"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert f"fireandice/game.toml: missing: {why}" in done.stderr
    assert "Traceback" not in done.stderr and "Booting worker" not in done.stderr


def test_each_server_has_its_own_control_socket_or_none(tmp_path):
    """issue 52: gunicorn's control socket defaulted to one path per user (every server on a machine took
    it over from the last one started). None unless ADJUDICATOR_CONTROL_SOCKET names one of its own.
    The master starts it before its loop reads signals: a SIGHUP handled means it was decided."""
    from test_maintainer_scenario import free_port

    logs = {}
    for name, own in (("plain", ""), ("own", str(tmp_path / "own.ctl"))):
        env = {key: value for key, value in os.environ.items() if key != "ADJUDICATOR_CONTROL_SOCKET"}
        env.update({"DATABASE_URL": f"sqlite:///{tmp_path / (name + '.sqlite3')}", "ADJUDICATOR_CONTROL_SOCKET": own,
                    "ADJUDICATOR_KEY_PATH": str(tmp_path / "key.pem"), "ADJUDICATOR_BIND": f"127.0.0.1:{free_port()}"})
        log = tmp_path / f"{name}.log"
        with open(log, "wb") as out:
            process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c",
                                        str(Path("adjudicator/gunicorn.conf.py").resolve()), "adjudicator.wsgi:app"],
                                       cwd=tmp_path, env=env, stdout=out, stderr=out, start_new_session=True)
        try:
            until(process, lambda: "Booting worker" in log.read_text())
            os.kill(process.pid, signal.SIGHUP)  # the master this test started
            until(process, lambda: "Handling signal: hup" in log.read_text())
        finally:
            os.killpg(process.pid, signal.SIGTERM)  # the group this test started, by its id
            process.wait(timeout=30)
        logs[name] = log.read_text()
    assert "Control socket" not in logs["plain"], logs["plain"]
    assert f"Control socket listening at {tmp_path / 'own.ctl'}" in logs["own"], logs["own"]


def until(process: subprocess.Popen, done, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert process.poll() is None and time.monotonic() < deadline, "the server stopped or hung"
        time.sleep(0.2)


def test_a_process_without_a_master_will_not_start_without_a_game(tmp_path, monkeypatch):
    """`flask run` or a test's app on a folder that lacks a game the rules know: the app is not made,
    and says which game (before, it was, and each check of that game answered 500 KeyError)."""
    from adjudicator import served_data
    from scenarios import loader

    data = tmp_path / "data"
    shutil.copytree(DATA_ROOT, data)
    shutil.rmtree(data / "spi")
    monkeypatch.setattr(served_data, "DATA_ROOT", data)
    monkeypatch.setattr(loader, "DATA_ROOT", data)
    monkeypatch.setattr(served_data, "_served", None)
    monkeypatch.setattr(loader, "_SERVED", None)
    with pytest.raises(served_data.DataUnavailable) as refused:
        served_data.ensure_read(("kwb", "spi"))
    assert str(refused.value).startswith("spi/game.toml: missing: the data folder has no folder spi/")
