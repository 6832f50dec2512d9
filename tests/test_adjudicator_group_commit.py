"""Group commit (ADJUDICATOR_SQLITE_SYNCHRONOUS=GROUP): commits share fsyncs, none is skipped.

Power loss cannot be simulated here, so these tests check the order of events that the
durability argument rests on (adjudicator/ledger/storage.py, `WalSync`): the commit is visible in
the database, then the write lock is released, then the WAL file is fsynced, and only then
does the Store return. Also: readers and replays sync, and the mode works end to end.
"""

from __future__ import annotations

import os
import sqlite3
import threading

import pytest

from adjudicator.ledger.keys import load_or_create_signing_key
from adjudicator.ledger.records import ledger_document
from adjudicator.ledger.storage import GameClosed, Store, WalSync, WriterLock, make_engine
from adjudicator.ledger.verify import verify_ledger


@pytest.fixture
def key(tmp_path):
    return load_or_create_signing_key(tmp_path / "key.pem")


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "group.sqlite3"


@pytest.fixture
def store(db_path, key):
    store = Store(make_engine(f"sqlite:///{db_path}", "GROUP"))
    store.create_schema()
    store.register_public_key(key)
    yield store
    store.engine.dispose()


@pytest.fixture
def events(monkeypatch, db_path):
    """Records 'unlock' and ('fsync', <rows in ledger_records seen by another connection>)."""
    log: list = []
    real_fsync, real_exit = os.fsync, WriterLock.__exit__
    wal = str(db_path) + "-wal"

    def fsync(fd):
        if os.readlink(f"/proc/self/fd/{fd}") == wal:
            with sqlite3.connect(db_path) as other:  # what a fresh reader sees at fsync time
                rows = other.execute("SELECT count(*) FROM ledger_records").fetchone()[0]
            log.append(("fsync", rows))
        return real_fsync(fd)

    def exit_(self, *exc):
        log.append("unlock")
        return real_exit(self, *exc)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(WriterLock, "__exit__", exit_)
    return log


def roll(store, key, game_id, request_id):
    def run(seed, seq):
        return {"outcome": {"seq": seq}, "steps": [], "warnings": [], "dice_used": []}

    return store.append_check(game_id, "un", "kwb.probe", {"n": 1}, request_id, key, run)


def test_group_commit_is_the_default(tmp_path):
    default = Store(make_engine(f"sqlite:///{tmp_path / 'default.sqlite3'}"))
    assert isinstance(default._sync_wal, WalSync)
    default.engine.dispose()


def test_group_mode_commits_without_sqlite_fsync_and_syncs_the_wal_itself(store):
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    assert isinstance(store._sync_wal, WalSync)


def test_full_mode_leaves_syncing_to_sqlite(tmp_path):
    full = Store(make_engine(f"sqlite:///{tmp_path / 'full.sqlite3'}", "FULL"))
    with full.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    assert not isinstance(full._sync_wal, WalSync)
    full.engine.dispose()


def test_a_roll_is_committed_then_unlocked_then_synced_before_it_returns(store, key, events):
    game = store.create_game("kwb", "pusan", ("un", "communist"), key)
    assert events[-2:] == ["unlock", ("fsync", 1)]  # the genesis record, synced
    events.clear()
    record, replayed = roll(store, key, game.game_id, "r1")
    assert not replayed and record.seq == 1
    # the fsync came after the lock was released and saw the committed record
    assert events == ["unlock", ("fsync", 2)]


def test_replays_refusals_and_reads_sync_too(store, key, events):
    game = store.create_game("kwb", "pusan", ("un", "communist"), key)
    first, _ = roll(store, key, game.game_id, "r1")
    events.clear()
    again, replayed = roll(store, key, game.game_id, "r1")
    assert replayed and again == first
    assert events == ["unlock", ("fsync", 2)]
    events.clear()
    store.records(game.game_id)
    store.game(game.game_id)
    assert events == [("fsync", 2), ("fsync", 2)]
    store.close_game(game.game_id, "un", key)
    events.clear()
    with pytest.raises(GameClosed):
        roll(store, key, game.game_id, "r2")
    assert events == ["unlock", ("fsync", 3)]


def test_a_missing_wal_file_means_nothing_to_sync(tmp_path):
    WalSync(tmp_path / "never-created.sqlite3")()  # no error


def test_concurrent_rolls_in_group_mode_make_one_verifiable_chain(db_path, store, key):
    game = store.create_game("kwb", "pusan", ("un", "communist"), key)
    errors = []

    def client(n):
        try:
            for i in range(10):
                roll(store, key, game.game_id, f"c{n}-{i}")
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    store.engine.dispose()
    reopened = Store(make_engine(f"sqlite:///{db_path}", "GROUP"))
    records = reopened.records(game.game_id)
    assert [r.seq for r in records] == list(range(41))
    report = verify_ledger(ledger_document(reopened.game(game.game_id), records), {key.kid: key.public_key})
    assert report.ok, report.problems
    reopened.engine.dispose()


@pytest.mark.slow
def test_the_app_runs_in_group_mode(tmp_path):
    from adjudicator.testing import a_side, bearer, make_app, new_game, probe_check, probe_url

    with probe_check():
        app = make_app(tmp_path, ADJUDICATOR_SQLITE_SYNCHRONOUS="GROUP")
        client = app.test_client()
        game = new_game(client)
        headers = bearer(a_side(game))
        for i in range(3):
            assert client.post(probe_url(game), json={"target": 4, "request_id": f"a{i}"},
                               headers=headers).status_code == 201
        ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=headers).get_json()
        assert len(ledger["records"]) == 4
        assert client.post("/api/v1/verify", json={"ledger": ledger}).get_json()["ok"] is True


def test_an_unknown_mode_is_refused(tmp_path):
    with pytest.raises(ValueError, match="GROUP"):
        make_engine(f"sqlite:///{tmp_path / 'x.sqlite3'}", "SOMETIMES")


@pytest.fixture
def slow_fsyncs(monkeypatch):
    """os.fsync made slow enough that callers pile up behind one; logs (start, end) per fsync."""
    import time

    spans: list[tuple[float, float]] = []
    real_fsync = os.fsync

    def fsync(fd):
        started = time.monotonic()
        time.sleep(0.05)
        real_fsync(fd)
        spans.append((started, time.monotonic()))

    monkeypatch.setattr(os, "fsync", fsync)
    return spans


@pytest.fixture
def wal_sync(db_path):
    """A WalSync of a database whose WAL file exists (its connection stays open: the last one to
    close removes the WAL)."""
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    yield WalSync(db_path)
    conn.close()


def test_callers_waiting_together_share_one_fsync_begun_after_each_call(wal_sync, slow_fsyncs):
    import time

    sync = wal_sync
    called, returned = {}, {}

    def caller(n):
        called[n] = time.monotonic()
        sync()
        returned[n] = time.monotonic()

    first = threading.Thread(target=caller, args=(0,))
    first.start()
    time.sleep(0.01)  # fsync 1 is running: the next eight arrive during it
    others = [threading.Thread(target=caller, args=(n,)) for n in range(1, 9)]
    for t in others:
        t.start()
    for t in [first, *others]:
        t.join()
    assert len(slow_fsyncs) == 2  # the first caller's, then one for the eight who came during it
    for n in called:  # every caller returned after an fsync that began after its call ended
        assert any(called[n] <= start and end <= returned[n] for start, end in slow_fsyncs), n


def test_an_fsync_error_fails_the_caller_it_served_and_the_next_call_syncs_anew(wal_sync, monkeypatch):
    sync = wal_sync
    real_fsync = os.fsync
    outcomes = []

    def failing(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(OSError, match="Input/output"):
        sync()
    monkeypatch.setattr(os, "fsync", lambda fd: outcomes.append("synced") or real_fsync(fd))
    sync()
    assert outcomes == ["synced"]


GEVENT_SCRIPT = r'''
from gevent import monkey
monkey.patch_all()
import fcntl, os, sys, time
import gevent
from pathlib import Path
from adjudicator.ledger.storage import WalSync, WriterLock

lock_path, db_path = Path(sys.argv[1]), Path(sys.argv[2])
ticks = []

def ticker():  # another player's requests, as a gevent worker runs them
    while True:
        ticks.append(time.monotonic())
        gevent.sleep(0.005)

def timed(call):
    ticks.clear()
    started = time.monotonic()
    call()
    return time.monotonic() - started, len(ticks)

gevent.spawn(ticker)
gevent.sleep(0.02)
real_fsync = os.fsync
os.fsync = lambda fd: (time.sleep(0.3), real_fsync(fd))  # a slow disk (time.sleep as the thread pool has it)
waited_sync, ticks_sync = timed(WalSync(db_path))
held = os.open(lock_path, os.O_RDWR | os.O_CREAT)  # another process's writer: the same file, its own description
fcntl.flock(held, fcntl.LOCK_EX)
gevent.spawn_later(0.3, fcntl.flock, held, fcntl.LOCK_UN)
def take_lock():
    with WriterLock(lock_path):
        pass
waited_lock, ticks_lock = timed(take_lock)
print(f"{waited_sync:.3f} {ticks_sync} {waited_lock:.3f} {ticks_lock}")
'''


@pytest.mark.slow
def test_in_a_gevent_worker_a_slow_fsync_or_a_busy_write_lock_stops_no_other_request(tmp_path, db_path, wal_sync):
    """The default server's workers are gevent's: a blocking fsync or flock would stop every player of
    the process. Both wait off the hub: the other greenlets run meanwhile (a ticker every 5 ms)."""
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("gevent")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", GEVENT_SCRIPT, str(tmp_path / "w.lock"), str(db_path)],
                         cwd=root, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(root)})
    assert out.returncode == 0, out.stderr
    waited_sync, ticks_sync, waited_lock, ticks_lock = out.stdout.split()
    assert float(waited_sync) >= 0.3 and int(ticks_sync) >= 10  # the others ran while it synced
    assert float(waited_lock) >= 0.25 and int(ticks_lock) >= 10  # and while it waited for the lock
