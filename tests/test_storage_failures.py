"""Storage failures are outages, not bugs (issue 29): 503 problem+json with Retry-After and one log
line (no traceback per request); a database that cannot be written at start-up stops `adjudicator
serve` and gunicorn with a sentence, not a traceback; nothing acknowledged is lost.

The full disk is real where this user may mount a small tmpfs (root, as in CI); elsewhere those
tests skip with the reason. The SQLite "database or disk is full" of a capped database
(`PRAGMA max_page_count`, the same SQLITE_FULL a full disk gives) runs everywhere.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import event

from adjudicator.ledger.keys import public_key_from_raw
from adjudicator.testing import bearer, make_app, new_game, probe_check, probe_url
from adjudicator.ledger.verify import verify_ledger
from bench.overload import fill_disk, mount_small_disk

pytestmark = pytest.mark.server  # starts a real server process

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def probe():
    with probe_check():
        yield


def side_token(game: dict) -> str:
    return next(token for role, token in game["tokens"].items() if role != "observer")


def roll(client, game, request_id: str):
    return client.post(probe_url(game), json={"target": 3, "request_id": request_id},
                       headers=bearer(side_token(game)))


def ledger_verifies(client, game) -> int:
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(side_token(game))).get_json()
    keys = {k["kid"]: public_key_from_raw(k["public_key"])
            for k in client.get("/.well-known/adjudicator-keys.json").get_json()["keys"]}
    report = verify_ledger(ledger, keys)
    assert report.ok, report.problems
    return len(ledger["records"])


def assert_storage_unavailable(response) -> None:
    assert response.status_code == 503, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/problem+json"
    assert int(response.headers["Retry-After"]) > 0
    body = response.get_json()
    assert body["type"].endswith(":storage-unavailable") and "Traceback" not in response.get_data(as_text=True)


@contextmanager
def capped(engine):
    """Every new connection of `engine` may not grow the database by a page (SQLITE_FULL)."""
    def cap(dbapi_connection, _record):
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    engine.dispose()
    event.listen(engine, "connect", cap)
    try:
        yield
    finally:
        event.remove(engine, "connect", cap)
        engine.dispose()


def test_a_full_database_answers_503_logs_one_line_and_loses_nothing(tmp_path, caplog):
    app = make_app(tmp_path)
    client = app.test_client()
    game = new_game(client)
    assert roll(client, game, "before").status_code == 201
    store = app.extensions["adjudicator"].store
    caplog.set_level(logging.INFO)
    with capped(store.engine):
        for n in range(40):  # enough rolls to need a new page
            response = roll(client, game, f"full-{n}")
            if response.status_code != 201:
                break
        assert_storage_unavailable(response)
        assert_storage_unavailable(client.post("/api/v1/games", json={"system": "kwb", "scenario": "pusan"}))
    lines = [r for r in caplog.records if "storage unavailable" in r.getMessage()]
    assert len(lines) == 2 and all(r.exc_info is None for r in lines)
    assert "full" in lines[0].getMessage()
    assert not any(r.exc_info for r in caplog.records)  # no traceback logged
    # the disk has room again: the refused roll, retried with its request_id, is recorded once
    assert roll(client, game, f"full-{n}").status_code == 201
    assert roll(client, game, f"full-{n}").status_code == 200  # a replay, not a second roll
    assert ledger_verifies(client, game) == n + 3  # genesis, "before", full-0 .. full-n


def test_other_database_errors_stay_bugs(tmp_path):
    """Only "cannot be used now" is an outage: a misspelt statement is still a 500 (and logged)."""
    from sqlalchemy import text
    from sqlalchemy.exc import OperationalError

    from adjudicator.ledger.storage import storage_failure

    app = make_app(tmp_path)
    store = app.extensions["adjudicator"].store
    with pytest.raises(OperationalError) as caught:
        with store.engine.connect() as conn:
            conn.execute(text("SELECT * FROM no_such_table"))
    assert storage_failure(caught.value, store.engine.dialect.dbapi) is None


# -- a real full disk and a read-only one (a tmpfs of our own) -----------------------------------

@contextmanager
def small_disk(path: Path, size: str = "2m"):
    reason = mount_small_disk(path, size)
    if reason is not None:
        pytest.skip(f"cannot mount a tmpfs here ({reason})")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


@pytest.mark.parametrize("synchronous", ["FULL", "GROUP"])
def test_a_really_full_disk_answers_503_and_recovers(tmp_path, synchronous):
    with small_disk(tmp_path / "disk") as disk:
        app = make_app(tmp_path, database_url=f"sqlite:///{disk / 'adjudicator.sqlite3'}",
                       ADJUDICATOR_SQLITE_SYNCHRONOUS=synchronous)
        client = app.test_client()
        game = new_game(client)
        filler = fill_disk(disk)
        refused = None
        for n in range(2000):
            response = roll(client, game, f"r{n}")
            if response.status_code != 201:
                refused = n
                break
        assert refused is not None, "the disk never filled"
        assert_storage_unavailable(response)
        filler.unlink()
        assert roll(client, game, f"r{refused}").status_code in (200, 201)
        assert ledger_verifies(client, game) == refused + 2


def run_serve(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adjudicator.cli", *args], cwd=ROOT, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=60)


def test_a_read_only_database_stops_start_up_with_a_sentence(tmp_path):
    with small_disk(tmp_path / "disk") as disk:
        env = {"DATABASE_URL": f"sqlite:///{disk / 'adjudicator.sqlite3'}",
               "ADJUDICATOR_KEY_PATH": str(tmp_path / "key.pem")}
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        serve = run_serve(env, "serve", "--port", "1")
        assert serve.returncode == 2
        assert "cannot be used" in serve.stderr and "Traceback" not in serve.stderr, serve.stderr
        gunicorn = subprocess.run(
            [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "adjudicator" / "gunicorn.conf.py"),
             "--bind", f"unix:{tmp_path / uuid.uuid4().hex}.sock"],
            cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=60)
        assert gunicorn.returncode != 0
        assert "Error: the database" in gunicorn.stderr and "Traceback" not in gunicorn.stderr, gunicorn.stderr
        rotate = run_serve(env, "rotate-key")
        assert rotate.returncode == 2 and "Traceback" not in rotate.stderr, rotate.stderr


def test_a_worker_started_while_the_database_is_down_answers_503(tmp_path):
    with small_disk(tmp_path / "disk") as disk:
        env = {"DATABASE_URL": f"sqlite:///{disk / 'adjudicator.sqlite3'}",
               "ADJUDICATOR_KEY_PATH": str(tmp_path / "signing-key.pem"), "ADJUDICATOR_RATELIMIT_ENABLED": "false"}
        made = subprocess.run([sys.executable, "-c", "from adjudicator.app import prepare; from adjudicator.config "
                               "import Config; prepare(Config.load())"], cwd=ROOT, env={**os.environ, **env})
        assert made.returncode == 0  # what gunicorn's master does before the outage
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        from adjudicator.app import create_app

        worker = create_app({name: value for name, value in env.items()}, storage_may_be_down=True).test_client()
        assert worker.get("/ping").status_code == 200
        assert_storage_unavailable(worker.post("/api/v1/games/some-game/probe_roll", json={"target": 3},
                                               headers=bearer("some-token")))


# -- a PostgreSQL outage -------------------------------------------------------------------------

@pytest.mark.postgres
def test_a_postgresql_outage_answers_503_and_recovers(tmp_path):
    import glob
    import shutil

    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        pytest.skip("PostgreSQL is not installed")
    import tempfile

    cluster = Path(tempfile.mkdtemp(prefix="kw-pg."))  # (the server's own user cannot enter pytest's folders)
    script = str(ROOT / "scripts" / "postgres.sh")
    url = subprocess.run(["bash", script, "start", str(cluster)], capture_output=True, text=True,
                         check=True).stdout.strip()
    port = url.rsplit(":", 1)[1].split("/")[0]
    try:
        client = make_app(tmp_path, database_url=url).test_client()
        game = new_game(client)
        assert roll(client, game, "before").status_code == 201
        subprocess.run(["bash", script, "stop", str(cluster)], check=True, capture_output=True)
        assert_storage_unavailable(roll(client, game, "during"))
        assert_storage_unavailable(client.get("/.well-known/adjudicator-keys.json"))
        subprocess.run(["bash", script, "resume", str(cluster), port], check=True, capture_output=True)
        assert roll(client, game, "during").status_code == 201  # the refused roll, retried
        assert ledger_verifies(client, game) == 3
    finally:
        subprocess.run(["bash", script, "stop", str(cluster)], capture_output=True)
        shutil.rmtree(cluster, ignore_errors=True)
