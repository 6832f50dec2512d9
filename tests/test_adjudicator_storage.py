"""Storage: idempotency, transactional append, concurrency, durability across restarts.

Runs on SQLite always and on PostgreSQL too when TEST_DATABASE_URL is set, e.g.
TEST_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/adjudicator_test
"""

import os
import threading

import pytest

from adjudicator.ledger.keys import load_or_create_signing_key
from adjudicator.ledger.records import ledger_document
from adjudicator.ledger.storage import GameClosed, IdempotencyConflict, Store, make_engine
from adjudicator.ledger.verify import verify_ledger

BACKENDS = ["sqlite"]
if os.environ.get("TEST_DATABASE_URL"):
    BACKENDS.append(pytest.param("postgres", marks=pytest.mark.postgres))


@pytest.fixture(params=BACKENDS)
def database_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    return os.environ["TEST_DATABASE_URL"]


@pytest.fixture
def key(tmp_path):
    return load_or_create_signing_key(tmp_path / "key.pem")


@pytest.fixture
def store(database_url, key):
    store = Store(make_engine(database_url))
    store.create_schema()
    store.register_public_key(key)
    yield store
    store.engine.dispose()


def roll(store, key, game_id, request_id=None, turn=3, side="un", calls=None):
    def run(seed, seq):
        if calls is not None:
            calls.append(seq)
        return {"outcome": {"seq_seen": seq}, "steps": [], "warnings": [], "dice_used": []}

    return store.append_check(game_id, side, "kwb.un_supply_shortage_end", {"game_turn": turn},
                              request_id, key, run)


def verifies(store, key, game_id):
    document = ledger_document(store.game(game_id), store.records(game_id))
    report = verify_ledger(document, {key.kid: key.public_key})
    return report.ok, report.problems


def test_same_request_id_returns_the_stored_record_without_rolling(store, key):
    game = store.create_game("kwb", "pusan", ("un", "communist"), key)
    calls = []
    first, replayed_first = roll(store, key, game.game_id, "abc", calls=calls)
    again, replayed_again = roll(store, key, game.game_id, "abc", calls=calls)
    assert (replayed_first, replayed_again) == (False, True)
    assert again == first
    assert calls == [1]
    assert len(store.records(game.game_id)) == 2


def test_same_request_id_with_a_different_request_conflicts(store, key):
    game = store.create_game("kwb", "pusan", ("un", "communist"), key)
    roll(store, key, game.game_id, "abc", turn=3)
    with pytest.raises(IdempotencyConflict):
        roll(store, key, game.game_id, "abc", turn=4)
    with pytest.raises(IdempotencyConflict):
        roll(store, key, game.game_id, "abc", turn=3, side="communist")


def test_request_ids_are_per_game(store, key):
    a = store.create_game("kwb", "pusan", ("un", "communist"), key)
    b = store.create_game("kwb", "pusan", ("un", "communist"), key)
    roll(store, key, a.game_id, "same")
    record, replayed = roll(store, key, b.game_id, "same")
    assert not replayed and record.game_id == b.game_id


def test_failed_check_leaves_no_trace(store, key):
    game = store.create_game("kwb", "pusan", ("un", "communist"), key)
    roll(store, key, game.game_id)

    def broken(seed, seq):
        raise RuntimeError("rules crashed mid-roll")

    with pytest.raises(RuntimeError):
        store.append_check(game.game_id, "un", "kwb.x", {}, "r-broken", key, broken)
    record, _ = roll(store, key, game.game_id, "r-broken")
    assert record.seq == 2
    assert verifies(store, key, game.game_id)[0]


def test_concurrent_appends_keep_one_unbroken_chain(store, key):
    game = store.create_game("kwb", "pusan", ("un", "communist"), key)
    errors = []

    def worker(n):
        try:
            for i in range(8):
                roll(store, key, game.game_id, f"w{n}-{i}")
                roll(store, key, game.game_id, f"shared-{i}")  # every thread repeats these
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    records = store.records(game.game_id)
    assert [r.seq for r in records] == list(range(len(records)))
    request_ids = [r.body["request_id"] for r in records[1:]]
    assert len(request_ids) == len(set(request_ids)) == 6 * 8 + 8
    assert verifies(store, key, game.game_id) == (True, [])


def test_closed_game_refuses_rolls_and_reveals_its_seed(store, key):
    game = store.create_game("kwb", "pusan", ("un", "communist"), key)
    roll(store, key, game.game_id, "r1")
    closing, again = store.close_game(game.game_id, "un", key), store.close_game(game.game_id, "un", key)
    assert closing[0] == again[0] and again[1] is True
    with pytest.raises(GameClosed):
        roll(store, key, game.game_id, "r2")
    replay, replayed = roll(store, key, game.game_id, "r1")  # an old request id still answers
    assert replayed and replay.seq == 1
    header = store.game(game.game_id)
    assert header["status"] == "closed" and header["seed"] == closing[0].body["result"]["seed"]


def test_seed_stays_secret_while_open(store, key):
    game = store.create_game("kwb", "pusan", ("un", "communist"), key)
    assert store.game(game.game_id)["seed"] is None
    assert all("seed" not in r.body["result"] for r in store.records(game.game_id))


def test_tokens_are_stored_hashed_and_bound_to_one_game(store, key):
    a = store.create_game("kwb", "pusan", ("un", "communist"), key)
    b = store.create_game("kwb", "pusan", ("un", "communist"), key)
    assert store.grant_for(a.tokens["un"]).game_id == a.game_id
    assert store.grant_for(b.tokens["observer"]).role == "observer"
    assert store.grant_for("not-a-token") is None
    with store.engine.connect() as conn:
        stored = {row[0] for row in conn.exec_driver_sql("SELECT token_hash FROM tokens")}
    assert not set(a.tokens.values()) & stored


def test_records_survive_a_restart(database_url, key, store):
    game = store.create_game("kwb", "pusan", ("un", "communist"), key)
    acknowledged = [roll(store, key, game.game_id, f"r{i}")[0] for i in range(5)]
    store.engine.dispose()

    reopened = Store(make_engine(database_url))
    reopened.create_schema()
    assert reopened.records(game.game_id)[1:] == acknowledged
    replay, replayed = roll(reopened, key, game.game_id, "r3")
    assert replayed and replay == acknowledged[3]
    assert verifies(reopened, key, game.game_id)[0]
    reopened.engine.dispose()


def test_sqlite_database_is_in_wal_mode(tmp_path, key):
    store = Store(make_engine(f"sqlite:///{tmp_path / 'wal.sqlite3'}"))
    store.create_schema()
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL: by default the Store syncs (GROUP)


def test_sqlite_files_holding_secret_seeds_are_private(tmp_path, key):
    """The database, its WAL and shared-memory files are 0600 like the key file, whatever the umask."""
    old_umask = os.umask(0o022)
    try:
        path = tmp_path / "private.sqlite3"
        store = Store(make_engine(f"sqlite:///{path}"))
        store.create_schema()
        store.register_public_key(key)
        game = store.create_game("kwb", "pusan", ("un", "communist"), key)
        roll(store, key, game.game_id)
        files = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
        assert all(f.exists() for f in files)
        assert {f.name: oct(f.stat().st_mode & 0o777) for f in files} == {f.name: "0o600" for f in files}
        store.engine.dispose()
    finally:
        os.umask(old_umask)


def test_a_world_readable_database_of_an_earlier_version_is_made_private(tmp_path, key):
    path = tmp_path / "old.sqlite3"
    store = Store(make_engine(f"sqlite:///{path}"))
    store.create_schema()
    store.engine.dispose()
    os.chmod(path, 0o644)
    Store(make_engine(f"sqlite:///{path}")).engine.dispose()
    assert path.stat().st_mode & 0o777 == 0o600
