"""Persistence: SQLAlchemy Core tables and the transactional ledger append.

SQLite (WAL mode) by default, PostgreSQL when DATABASE_URL points at one. The promises:

- An acknowledged roll is durable: the record is committed before the response is sent
  (by default group commit, `GROUP`: see `WalSync`; or SQLite's own `synchronous=FULL`).
- A crash never breaks the chain: the next sequence number and previous hash are read and the
  record written inside one transaction that holds the game's write lock (SQLite `BEGIN
  IMMEDIATE`; PostgreSQL `SELECT ... FOR UPDATE` on the game row). Unique constraints on
  (game, seq) and (game, request_id) back this up.
- Idempotency: a request_id already in the game's ledger returns the stored record, never a
  new roll; the same request_id with a different request is refused (`IdempotencyConflict`).
"""

from __future__ import annotations

import errno
import fcntl
import functools
import hashlib
import json
import logging
import os
import secrets
import sqlite3
import threading
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from sqlalchemy import (
    Column,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, ProgrammingError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError

from adjudicator.canonical import canonical_bytes, canonical_digest, parse_json
from adjudicator.config import Config
from adjudicator.greenlets import off_the_hub
from adjudicator.ledger.dice import new_seed, seed_commitment
from adjudicator.ledger.keys import PublicKeyInfo, SigningKey, b64url, public_key_from_raw, raw_public_bytes
from adjudicator.ledger.records import (
    GAME_CLOSED,
    GAME_CREATED,
    GENESIS_PREV_HASH,
    Record,
    build_record,
    make_body,
    utc_now,
)

log = logging.getLogger(__name__)

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("system", String(32), nullable=False),
    Column("scenario", String(64), nullable=False),
    Column("seed", LargeBinary(32), nullable=False),
    Column("seed_commitment", String(64), nullable=False),
    Column("status", String(16), nullable=False),  # "open" | "closed"
    Column("created", String(32), nullable=False),
    Column("closed", String(32)),
    Column("head_seq", Integer, nullable=False),
    Column("head_hash", String(64), nullable=False),
)

tokens = Table(
    "tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 of the bearer token
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, index=True),
    Column("role", String(32), nullable=False),  # a side id, or "observer"
)

ledger_records = Table(
    "ledger_records",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    Column("body", Text, nullable=False),  # canonical JSON of the record body
    Column("receipt", Text, nullable=False),
    Column("request_id", String(100)),
    Column("request_digest", String(64)),
    PrimaryKeyConstraint("game_id", "seq", name="pk_ledger_game_seq"),
    UniqueConstraint("game_id", "request_id", name="uq_ledger_game_request_id"),
)

#: The hidden parts of fog-of-war rulings (adjudicator.fog) and of record 0's sealed draws
#: (adjudicator.ledger.draws): the values behind the commitments a record holds, each with its salt and the
#: side that may see it before the game closes.
hidden_parts = Table(
    "hidden_parts",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("idx", Integer, nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("owner", String(32), nullable=False),  # a side id, or "" (no one before the close)
    Column("salt", String(64), nullable=False),
    Column("value", Text, nullable=False),  # canonical JSON
    PrimaryKeyConstraint("game_id", "seq", "idx", name="pk_hidden_parts"),
)

signing_keys = Table(
    "signing_keys",
    metadata,
    Column("kid", String(32), primary_key=True),
    Column("public_key", String(64), nullable=False),  # raw 32 bytes, base64url
    Column("created", String(32), nullable=False),
    Column("retired", String(32)),
)

#: A side's consent to its closed game's after-action report being public (`Store.publish_report`):
#: the report's public link opens once a side has given it. Kept beside the ledger, never in it: the
#: closed chain takes no record after its last.
report_consents = Table(
    "report_consents",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("side", String(32), nullable=False),
    Column("time", String(32), nullable=False),
    PrimaryKeyConstraint("game_id", "side", name="pk_report_consents"),
)

OBSERVER = "observer"


class GameNotFound(LookupError):
    pass


class GameClosed(RuntimeError):
    pass


class GameOpen(RuntimeError):
    """What only a closed game may do (publish its report) asked of an open one."""


class IdempotencyConflict(RuntimeError):
    """The request_id was used before for a different request."""


class LedgerMoved(RuntimeError):
    """A record was appended after the one the request was prepared against (`expect_head`)."""


class StorageUnavailable(RuntimeError):
    """The database cannot be used now (disk full, read-only, server down): not a bug.

    The HTTP layer answers 503 with Retry-After and logs one line; the CLI and gunicorn's
    master print the message and stop (gunicorn prints a RuntimeError's text as is).
    """

    def __init__(self, reason: str, database: str = ""):
        self.reason = reason
        self.database = database
        where = f" ({database})" if database else ""
        super().__init__(f"the database{where} cannot be used: {reason}")


#: SQLite primary result codes that mean "cannot use the database now" (the sqlite3 module
#: raises OperationalError for a misspelt statement too, which is a bug, not an outage).
_SQLITE_UNAVAILABLE_CODES = {
    5: "the database is locked by another process",  # SQLITE_BUSY
    6: "the database table is locked",  # SQLITE_LOCKED
    7: "out of memory",  # SQLITE_NOMEM
    8: "the database is read-only",  # SQLITE_READONLY
    10: "disk I/O error",  # SQLITE_IOERR
    11: "the database file is damaged",  # SQLITE_CORRUPT
    13: "the disk is full",  # SQLITE_FULL
    14: "the database file cannot be opened",  # SQLITE_CANTOPEN
    15: "database locking failed",  # SQLITE_PROTOCOL
    26: "the file is not a database",  # SQLITE_NOTADB
}
#: Operating-system errors (the WAL fsync, the writer lock file) that mean the same.
_OS_UNAVAILABLE = {errno.ENOSPC, errno.EIO, errno.EROFS, errno.EDQUOT}


def storage_failure(error: BaseException, dbapi: Any) -> str | None:
    """A sentence saying why the database cannot be used now, or None if `error` is not an
    outage (a bug, a constraint, anything else: those stay what they are)."""
    if isinstance(error, SQLAlchemyTimeoutError):
        return "no database connection became free in time"
    original = getattr(error, "orig", None) if isinstance(error, DBAPIError) else error
    if original is None:
        return None
    if isinstance(original, OSError) and original.errno in _OS_UNAVAILABLE:
        return os.strerror(original.errno).lower()
    if isinstance(original, sqlite3.Error):
        code = getattr(original, "sqlite_errorcode", None)
        if code is not None and code & 0xFF in _SQLITE_UNAVAILABLE_CODES:
            return f"{_SQLITE_UNAVAILABLE_CODES[code & 0xFF]} ({original})"
        return None
    unavailable = tuple(getattr(dbapi, name) for name in ("OperationalError", "InterfaceError") if hasattr(dbapi, name))
    if unavailable and isinstance(original, unavailable):  # PostgreSQL down, restarting, unreachable
        return str(original).strip().splitlines()[0] if str(original).strip() else type(original).__name__
    return None


def _storage_call(method: Callable) -> Callable:
    """Turn the database's "cannot be used now" errors into `StorageUnavailable`."""

    @functools.wraps(method)
    def call(self: "Store", *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except (DBAPIError, SQLAlchemyTimeoutError, sqlite3.Error, OSError, self._dbapi_error) as error:
            reason = storage_failure(error, self.engine.dialect.dbapi)
            if reason is None:
                raise
            raise StorageUnavailable(reason, self.database_name) from error

    return call


@dataclass(frozen=True)
class TokenGrant:
    """What a bearer token allows: one role in one game."""

    game_id: str
    role: str
    system: str
    scenario: str


@dataclass(frozen=True)
class CreatedGame:
    game_id: str
    system: str
    scenario: str
    tokens: dict[str, str]  # role -> bearer token (shown once, stored only hashed)
    seed_commitment: str
    genesis: Record


def command_line_safe_token(nbytes: int) -> str:
    """A random URL-safe string that does not start with "-": players paste game ids and tokens
    into command lines, where `roll -xyz...` or `--token -xyz...` would read as an option."""
    while True:
        token = secrets.token_urlsafe(nbytes)
        if not token.startswith("-"):
            return token


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database)


#: ADJUDICATOR_SQLITE_SYNCHRONOUS values. GROUP is ours (group commit, see `WalSync`); the
#: others are SQLite's `PRAGMA synchronous` levels as they are.
SQLITE_SYNCHRONOUS_MODES = ("FULL", "GROUP", "NORMAL", "EXTRA", "OFF")

#: Execution option on the engine telling the `Store` to sync the WAL itself (GROUP mode).
GROUP_COMMIT_OPTION = "adjudicator_group_commit"


#: The files of a SQLite database: the open games' secret seeds are in them (and in the WAL
#: before a checkpoint), so only the service's own user may read them, like the signing key.
PRIVATE_FILE_MODE = 0o600
SQLITE_COMPANION_SUFFIXES = ("-wal", "-shm", "-journal", ".write-lock")


def make_private_database_file(path: Path) -> None:
    """Create the database file 0600 before SQLite opens it (SQLite gives the -wal and -shm
    files it creates the database file's mode), and take group and other access away from
    files an earlier version created world-readable."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE))
        return
    except FileExistsError:
        pass
    except OSError:
        return  # an unwritable folder: SQLite's own error says more (see `Store.create_schema`)
    for file in (path, *(path.with_name(path.name + suffix) for suffix in SQLITE_COMPANION_SUFFIXES)):
        try:
            mode = file.stat().st_mode & 0o777
            if mode & 0o077:
                os.chmod(file, mode & 0o700)
                log.warning("%s was readable by other users (mode %o); now %o", file, mode, mode & 0o700)
        except OSError:
            continue  # missing, or not ours to change


def make_engine(url: str, sqlite_synchronous: str = Config.sqlite_synchronous) -> Engine:
    """An engine for `url`; SQLite gets WAL mode and explicit write transactions.

    With `GROUP`, connections run `synchronous=NORMAL` (a commit does not fsync) and the
    engine carries `GROUP_COMMIT_OPTION`, so the Store fsyncs the WAL after each commit,
    outside the write lock, before acknowledging.
    """
    if make_url(url).get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    path = sqlite_path(url)
    if path is not None:
        make_private_database_file(path)
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
    mode = sqlite_synchronous.upper()
    if mode not in SQLITE_SYNCHRONOUS_MODES:
        raise ValueError(
            f"ADJUDICATOR_SQLITE_SYNCHRONOUS must be one of {', '.join(SQLITE_SYNCHRONOUS_MODES)}, not {mode}"
        )
    group_commit = mode == "GROUP" and path is not None
    synchronous = "NORMAL" if mode == "GROUP" else mode

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        # Let SQLAlchemy, not the sqlite3 module, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        # Writers take the database write lock at BEGIN, so reading the chain head and
        # appending after it can never interleave with another writer.
        if connection.get_execution_options().get("write"):
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            connection.exec_driver_sql("BEGIN")

    if group_commit:
        # Same pool and event listeners; the option only tells the Store what to do.
        return engine.execution_options(**{GROUP_COMMIT_OPTION: True})
    return engine


class WalSync:
    """Group commit for SQLite: fsync the WAL after the commit, outside the write lock, one fsync
    for every request of the process that waits at the same time.

    With `synchronous=FULL`, SQLite fsyncs the WAL inside every commit, while the writer
    holds the database's write lock, so writers queue behind each other's fsyncs (most of a
    roll's time on this disk), and a gevent worker's other players wait with them: the fsync
    blocks the process's one thread. In GROUP mode a commit only write()s its WAL frames
    (NORMAL); the writer releases the lock and then asks for an fsync of the WAL file. The next
    writer commits meanwhile, and one fsync makes every commit written before it durable: the
    requests of a process that ask while one runs are all served by the next one, a single fsync
    (the leader's; the others wait for it). The fsync runs off gevent's hub
    (`adjudicator.greenlets.off_the_hub`), so the worker's other players are answered meanwhile.
    The promise is FULL's:

    - A write is acknowledged only after an fsync that began after its commit returned (each
      caller waits for the first fsync to begin after its call).
    - Whatever a reader is shown has been synced first: every write transaction (also one
      that only found an idempotent replay, a closed game or a conflict) ends with a sync,
      and `Store.game`/`Store.records` sync before returning, so another process's commit a
      reader sees is durable too. (Tokens need not: they are known to nobody until
      `create_game`, which synced, has answered.)
    - A later record in a game can only be synced together with the earlier ones (the WAL
      is one file, appended in commit order), so the chain never has a durable gap.

    If the WAL file is gone it was checkpointed into the database file and removed, and
    SQLite syncs the database file before it removes or restarts the WAL. An fsync error
    is raised to every caller that fsync was to serve: their requests fail rather than
    acknowledging a write that may be lost.
    """

    def __init__(self, database_path: Path):
        # Absolute, as SQLite resolved it when it opened the database (a later chdir must not
        # make us sync some other file).
        database_path = database_path.absolute()
        self.wal_path = database_path.with_name(database_path.name + "-wal")
        self._turn = threading.Condition()  # gevent's, in a gevent worker (made after it patched)
        self._begun = 0  # fsyncs begun by this process, one at a time
        self._ended = 0  # the last fsync that ended
        self._running = False
        self._failed: dict[int, BaseException] = {}  # the recent fsyncs that failed, and why

    def __call__(self) -> None:
        with self._turn:
            # The first fsync to begin after this call: its outcome is this caller's (numbers count
            # up by one and one runs at a time, so `wanted` is that fsync exactly).
            wanted = self._begun + 1
            while self._ended < wanted:
                if self._running:
                    self._turn.wait()
                else:
                    self._lead()
            failure = self._failed.get(wanted)
        if failure is not None:
            raise failure

    def _lead(self) -> None:
        """Run the next fsync for every caller waiting; called, and returns, holding `_turn`."""
        self._running = True
        self._begun += 1
        number = self._begun
        failure: BaseException | None = OSError(errno.EIO, "the WAL's fsync did not end")
        self._turn.release()
        try:
            off_the_hub(self._fsync_wal)
            failure = None
        except OSError as error:
            failure = error
        finally:  # also when the leader is interrupted: its followers are not told it synced
            self._turn.acquire()
            if failure is not None:
                self._failed[number] = failure
                self._failed.pop(number - 1000, None)
            self._running = False
            self._ended = number
            self._turn.notify_all()

    def _fsync_wal(self) -> None:
        try:
            fd = os.open(self.wal_path, os.O_RDONLY)
        except FileNotFoundError:
            return
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _no_sync() -> None:
    """FULL (SQLite synced inside the commit), NORMAL (no fsync by choice) and PostgreSQL."""


class WriterLock:
    """Queues SQLite writers of all processes on a file lock before they BEGIN IMMEDIATE.

    SQLite makes a blocked writer poll with growing sleeps (1, 2, 5, 10 ... ms); with several
    gunicorn workers that idles the CPU while requests wait. `flock` wakes the next writer as
    soon as the lock is free. The lock file is opened per process (a descriptor inherited
    across fork would be shared, and then exclude nobody) and guarded by a thread lock too.
    SQLite's own locking still guarantees correctness; this only makes waiting efficient.
    """

    def __init__(self, path: Path):
        self.path = path
        self._pid = None
        self._fd = None
        self._thread_lock = threading.Lock()

    def __enter__(self):
        self._thread_lock.acquire()
        try:
            if self._pid != os.getpid():
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
                self._pid = os.getpid()
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # another process writes: wait without stopping this one's players
                off_the_hub(fcntl.flock, self._fd, fcntl.LOCK_EX)
        except BaseException:
            self._thread_lock.release()
            raise
        return self

    def __exit__(self, *exc):
        try:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._thread_lock.release()


@dataclass(frozen=True)
class _Prepared:
    """A statement compiled once for the engine's dialect and run on a bare DBAPI cursor.

    The roll path runs four statements per request; building, cache-keying and executing
    SQLAlchemy constructs cost about twice the database work itself, so these statements are
    compiled to the driver's SQL once, at startup. Everything else uses SQLAlchemy normally.
    """

    sql: str
    positional_names: tuple[str, ...] | None

    @classmethod
    def compile(cls, statement, engine: Engine) -> "_Prepared":
        compiled = statement.compile(dialect=engine.dialect)
        names = tuple(compiled.positiontup) if compiled.positional else None
        return cls(compiled.string, names)

    def run(self, cursor, **values):
        params = tuple(values[n] for n in self.positional_names) if self.positional_names else values
        cursor.execute(self.sql, params)
        return cursor


#: Columns of a ledger row as the roll path reads them, in this order.
_RECORD_COLUMNS = ("game_id", "seq", "prev_hash", "hash", "body", "receipt", "request_digest")


class _HotStatements:
    """The statements of the ledger append, prepared once per engine."""

    def __init__(self, engine: Engine):
        self.lock_game = _Prepared.compile(
            select(games.c.seed, games.c.status, games.c.head_seq, games.c.head_hash)
            .where(games.c.id == bindparam("b_game_id"))
            .with_for_update(),
            engine,
        )
        self.record_by_request_id = _Prepared.compile(
            select(*(ledger_records.c[name] for name in _RECORD_COLUMNS)).where(
                ledger_records.c.game_id == bindparam("b_game_id"),
                ledger_records.c.request_id == bindparam("b_request_id"),
            ),
            engine,
        )
        self.records_after = _Prepared.compile(
            select(*(ledger_records.c[name] for name in _RECORD_COLUMNS)).where(
                ledger_records.c.game_id == bindparam("b_game_id"), ledger_records.c.seq > bindparam("b_after"),
            ).order_by(ledger_records.c.seq),
            engine,
        )
        self.parts_after = _Prepared.compile(
            select(hidden_parts.c.seq, hidden_parts.c.commitment, hidden_parts.c.owner, hidden_parts.c.salt,
                   hidden_parts.c.value).where(
                hidden_parts.c.game_id == bindparam("b_game_id"), hidden_parts.c.seq > bindparam("b_after"),
            ).order_by(hidden_parts.c.seq, hidden_parts.c.idx),
            engine,
        )
        self.insert_record = _Prepared.compile(insert(ledger_records), engine)
        self.insert_part = _Prepared.compile(insert(hidden_parts), engine)
        self.move_head = _Prepared.compile(
            update(games)
            .where(games.c.id == bindparam("b_game_id"))
            .values(head_seq=bindparam("b_head_seq"), head_hash=bindparam("b_head_hash")),
            engine,
        )


class Store:
    """All database access of the service. One per process; thread-safe."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self._hot = _HotStatements(engine)
        self._is_sqlite = engine.dialect.name == "sqlite"
        path = sqlite_path(str(engine.url))
        self._writer_lock = WriterLock(path.with_name(path.name + ".write-lock")) if path else nullcontext()
        group_commit = path is not None and engine.get_execution_options().get(GROUP_COMMIT_OPTION, False)
        self._sync_wal: Callable[[], None] = WalSync(path) if group_commit else _no_sync
        self._token_cache: dict[str, TokenGrant] = {}
        self._seeds: dict[str, bytes] = {}  # game id -> its secret seed (`game_seed`)
        #: A new game's secret seed, by its system and scenario: always fresh random bytes, except
        #: where a test chooses the dice of its games (adjudicator.testing.choose_seeds; no
        #: configuration or request of the service reaches it).
        self.new_seed: Callable[[str, str], bytes] = lambda system, scenario: new_seed()
        self._cache_lock = threading.Lock()
        #: The driver's own error base class (the roll path uses the bare DBAPI connection).
        self._dbapi_error = getattr(engine.dialect.dbapi, "Error", sqlite3.Error)
        self.database_name = str(path) if path else engine.url.render_as_string(hide_password=True)

    # -- schema and keys -------------------------------------------------------------------

    @_storage_call
    def create_schema(self) -> None:
        """Create missing tables. Tolerates another process creating them at the same moment."""
        for attempt in range(3):
            try:
                metadata.create_all(self.engine)
                self._sync_wal()
                return
            except (OperationalError, ProgrammingError, IntegrityError):
                if attempt == 2:
                    raise

    @_storage_call
    def register_public_key(self, key: SigningKey) -> None:
        """Record the active key's public half (once), so it stays published after rotation."""
        with self._write() as conn:
            found = conn.execute(select(signing_keys.c.kid).where(signing_keys.c.kid == key.kid)).first()
            if found is None:
                conn.execute(
                    update(signing_keys).where(signing_keys.c.retired.is_(None)).values(retired=utc_now())
                )
                conn.execute(
                    insert(signing_keys).values(
                        kid=key.kid,
                        public_key=b64url(raw_public_bytes(key.public_key)),
                        created=utc_now(),
                        retired=None,
                    )
                )

    @_storage_call
    def publish_report(self, game_id: str, side: str) -> None:
        """Record `side`'s consent to the closed game's report being public (once; again is a no-op).
        Raises GameNotFound, or GameOpen for a game still open (its fog and its dice are not done)."""
        with self._write() as conn:
            game = self._lock_game(conn, game_id)
            if game.status != "closed":
                raise GameOpen(game_id)
            found = conn.execute(select(report_consents.c.side).where(
                report_consents.c.game_id == game_id, report_consents.c.side == side)).first()
            if found is None:
                conn.execute(insert(report_consents).values(game_id=game_id, side=side, time=utc_now()))

    @_storage_call
    def report_consents(self, game_id: str) -> list[dict[str, str]]:
        """The sides that made the game's report public, and when, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(report_consents).where(report_consents.c.game_id == game_id)
                                .order_by(report_consents.c.time, report_consents.c.side)).all()
        return [{"side": row.side, "time": row.time} for row in rows]

    @_storage_call
    def public_keys(self) -> list[PublicKeyInfo]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(signing_keys).order_by(signing_keys.c.created)).all()
        return [
            PublicKeyInfo(
                kid=row.kid,
                public_key=public_key_from_raw(row.public_key),
                created=row.created,
                retired=row.retired,
            )
            for row in rows
        ]

    # -- games and tokens ------------------------------------------------------------------

    @_storage_call
    def create_game(self, system: str, scenario: str, sides: tuple[str, ...], key: SigningKey,
                    sealed_draws: list[dict[str, Any]] | None = None, parts: list | tuple = ()) -> CreatedGame:
        """A new game and its record 0. `sealed_draws` (adjudicator.ledger.draws.commit) are stated in that
        record, and `parts` (their orders, `adjudicator.fog.Part`) kept beside it as hidden parts,
        which the closing record reveals."""
        game_id = command_line_safe_token(9)
        seed = self.new_seed(system, scenario)
        commitment = seed_commitment(seed)
        issued = {role: command_line_safe_token(32) for role in (*sides, OBSERVER)}
        result: dict[str, Any] = {"seed_commitment": commitment, "sides": list(sides)}
        if sealed_draws:
            result["sealed_draws"] = sealed_draws
        body = make_body(
            check=GAME_CREATED,
            request={"system": system, "scenario": scenario},
            result=result,
            request_id=None,
            side=None,
        )
        genesis = build_record(key, game_id, 0, GENESIS_PREV_HASH, body)
        with self._write() as conn:
            conn.execute(
                insert(games).values(
                    id=game_id,
                    system=system,
                    scenario=scenario,
                    seed=seed,
                    seed_commitment=commitment,
                    status="open",
                    created=body["time"],
                    closed=None,
                    head_seq=0,
                    head_hash=genesis.hash,
                )
            )
            conn.execute(
                insert(tokens),
                [{"token_hash": hash_token(t), "game_id": game_id, "role": r} for r, t in issued.items()],
            )
            self._insert_record(conn, genesis, None, None)
            for index, part in enumerate(parts):
                conn.execute(insert(hidden_parts).values(
                    game_id=game_id, seq=0, idx=index, commitment=part.commitment, owner=part.owner, salt=part.salt,
                    value=canonical_bytes(part.value).decode("utf-8")))
        return CreatedGame(game_id, system, scenario, issued, commitment, genesis)

    @_storage_call
    def grant_for(self, token: str) -> TokenGrant | None:
        """What `token` allows, or None. Grants never change, so they are cached."""
        token_hash = hash_token(token)
        grant = self._token_cache.get(token_hash)
        if grant is not None:
            return grant
        with self.engine.connect() as conn:
            row = conn.execute(
                select(tokens.c.game_id, tokens.c.role, games.c.system, games.c.scenario)
                .join(games, games.c.id == tokens.c.game_id)
                .where(tokens.c.token_hash == token_hash)
            ).first()
        if row is None:
            return None
        grant = TokenGrant(row.game_id, row.role, row.system, row.scenario)
        with self._cache_lock:
            if len(self._token_cache) > 100_000:
                self._token_cache.clear()
            self._token_cache[token_hash] = grant
        return grant

    @_storage_call
    def game(self, game_id: str) -> dict[str, Any]:
        """The public header of a game (the seed only once the game is closed)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).first()
        self._sync_wal()  # show nothing that is not durable yet (GROUP mode)
        if row is None:
            raise GameNotFound(game_id)
        return _game_header(row)

    @_storage_call
    def records(self, game_id: str, after: int = -1, limit: int | None = None) -> list[Record]:
        """The game's records (those after record `after` only, when given; the first `limit` of
        them, when given), in order."""
        query = (select(ledger_records).where(ledger_records.c.game_id == game_id, ledger_records.c.seq > after)
                 .order_by(ledger_records.c.seq))
        with self.engine.connect() as conn:
            rows = conn.execute(query if limit is None else query.limit(limit)).all()
        self._sync_wal()  # show nothing that is not durable yet (GROUP mode)
        return [_record_from_row(row) for row in rows]

    def hidden_parts(self, game_id: str, after: int = -1, through: int | None = None) -> list[tuple[int, dict[str, Any]]]:
        """Every hidden part of the game's records (after record `after` only, when given, and up
        to record `through`): (seq, {commitment, owner, salt, value})."""
        query = select(hidden_parts).where(hidden_parts.c.game_id == game_id, hidden_parts.c.seq > after)
        if through is not None:
            query = query.where(hidden_parts.c.seq <= through)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(hidden_parts.c.seq, hidden_parts.c.idx)).all()
        return [(row.seq, {"commitment": row.commitment, "owner": row.owner, "salt": row.salt,
                           "value": json.loads(row.value)}) for row in rows]

    @_storage_call
    def appended_since(self, game_id: str, after: int, parts: bool = True
                       ) -> tuple[list[Record], list[tuple[int, dict[str, Any]]]]:
        """The records after record `after` and (`parts`) their hidden parts, as `records` and
        `hidden_parts` give them, read on the bare connection with statements prepared once: a
        kept ledger board's catch-up, asked by every ruling (usually nothing or a record or two
        another process appended). The parts are read after the records, so every record read
        has its parts (a record and its parts are committed together).

        Unlike `records` it does not sync the WAL first: what it reads is shown to nobody before the
        ruling it prepares is answered, and that answer waits for a sync begun after the ruling's
        own transaction (`_raw_write`), which makes every record it read durable too (the WAL is one
        file, written in commit order). A sync here was a second (or third) fsync per roll, and
        under gevent a wait in the middle of the kept board's catch-up (`rulings.ledger_board_before`)."""
        dbapi = self.engine.raw_connection()
        try:
            cursor = dbapi.cursor()
            try:
                rows = self._hot.records_after.run(cursor, b_game_id=game_id, b_after=after).fetchall()
                found = self._hot.parts_after.run(cursor, b_game_id=game_id, b_after=after).fetchall() \
                    if rows and parts else []
            finally:
                cursor.close()
            dbapi.rollback()  # nothing was written: end the read (PostgreSQL opened a transaction)
        finally:
            dbapi.close()  # back to the pool
        return ([_record_from_mapping(dict(zip(_RECORD_COLUMNS, row)), keep_text=True) for row in rows],
                [(seq, {"commitment": commitment, "owner": owner, "salt": salt, "value": parse_json(value)})
                 for seq, commitment, owner, salt, value in found])

    def record(self, game_id: str, seq: int) -> Record | None:
        """One record of a game (None if the game has no such record; GameNotFound for no game)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(ledger_records).where(ledger_records.c.game_id == game_id, ledger_records.c.seq == seq)
            ).first()
            if row is None and conn.execute(select(games.c.id).where(games.c.id == game_id)).first() is None:
                raise GameNotFound(game_id)
        self._sync_wal()
        return _record_from_row(row) if row is not None else None

    # -- the ledger append -----------------------------------------------------------------

    @_storage_call
    def game_seed(self, game_id: str) -> bytes:
        """A game's secret seed, read once per process (it never changes): a ruling prepared before
        the write lock (`prepare_check`) rolls its dice with it. GameNotFound for no game."""
        seed = self._seeds.get(game_id)
        if seed is None:
            with self.engine.connect() as conn:
                row = conn.execute(select(games.c.seed).where(games.c.id == game_id)).first()
            if row is None:
                raise GameNotFound(game_id)
            seed = bytes(row.seed)
            with self._cache_lock:
                if len(self._seeds) > 100_000:
                    self._seeds.clear()
                self._seeds[game_id] = seed
        return seed

    def prepare_check(self, game_id: str, side: str, check: str, request: dict[str, Any], request_id: str | None,
                      key: SigningKey, run: Callable[[bytes, int], dict[str, Any]], seq: int, prev_hash: str,
                      session: dict[str, Any] | None = None,
                      seal: Callable[[dict[str, Any], dict[str, Any]], tuple[dict, dict, list]] | None = None,
                      ) -> PreparedRecord:
        """The record `append_check` would append as record `seq` after the record of hash
        `prev_hash`, made outside the write lock: rolled, sealed, hashed and signed while other
        rulings are recorded. `append_check(prepared=...)` appends it as it is if the ledger still
        ends there, else makes it again under the lock (nothing differs but the time: the dice are
        the seed's and the record number's, the board the caller read is the ledger before it)."""
        record, parts = _made_record(key, game_id, seq, prev_hash, self.game_seed(game_id), side, check, request,
                                     request_id, run, session, seal)
        return PreparedRecord(record, parts)

    @_storage_call
    def append_check(
        self,
        game_id: str,
        side: str,
        check: str,
        request: dict[str, Any],
        request_id: str | None,
        key: SigningKey,
        run: Callable[[bytes, int], dict[str, Any]],
        session: dict[str, Any] | None = None,
        seal: Callable[[dict[str, Any], dict[str, Any]], tuple[dict, dict, list]] | None = None,
        expect_head: int | None = None,
        prepared: PreparedRecord | None = None,
    ) -> tuple[Record, bool]:
        """Roll and record one check in one transaction. Returns (record, replayed).

        `seal(request, result)`, for games with fog of war, gives the public request and result
        the record holds and the hidden parts (`adjudicator.fog.Part`) kept beside it.
        `expect_head`: the last record the request was prepared against (a sealed draw settled by
        the ledger, adjudicator.ledger.draws); LedgerMoved if another was appended since.

        `run(seed, seq)` computes the check's result with dice derived from the seed and the
        new record's sequence number. On a repeated request_id the stored record is returned
        and `run` is not called. `prepared` (`prepare_check`): the record made before the lock,
        appended as it is when the ledger still ends where it was made to follow (then `run` and
        `seal` are not called here).
        """
        digest = canonical_digest({"check": check, "request": request, "side": side})
        hot = self._hot
        with self._raw_write() as cursor:
            game = hot.lock_game.run(cursor, b_game_id=game_id).fetchone()
            if game is None:
                raise GameNotFound(game_id)
            seed, status, head_seq, head_hash = game
            if request_id is not None:
                stored = hot.record_by_request_id.run(
                    cursor, b_game_id=game_id, b_request_id=request_id
                ).fetchone()
                if stored is not None:
                    stored = dict(zip(_RECORD_COLUMNS, stored))
                    if stored["request_digest"] != digest:
                        raise IdempotencyConflict(request_id)
                    return _record_from_mapping(stored), True
            if status != "open":
                raise GameClosed(game_id)
            if expect_head is not None and head_seq != expect_head:
                raise LedgerMoved(game_id)
            seq = head_seq + 1
            if prepared is not None and (prepared.record.game_id, prepared.record.seq, prepared.record.prev_hash) \
                    == (game_id, seq, head_hash):
                record, parts = prepared.record, prepared.parts
            else:
                record, parts = _made_record(key, game_id, seq, head_hash, bytes(seed), side, check, request,
                                             request_id, run, session, seal)
            hot.insert_record.run(cursor, **_record_row(record, request_id, digest))
            for index, part in enumerate(parts):
                hot.insert_part.run(cursor, game_id=game_id, seq=seq, idx=index, commitment=part.commitment,
                                    owner=part.owner, salt=part.salt, value=canonical_bytes(part.value).decode("utf-8"))
            hot.move_head.run(cursor, b_game_id=game_id, b_head_seq=seq, b_head_hash=record.hash)
        return record, False

    @_storage_call
    def close_game(self, game_id: str, side: str, key: SigningKey) -> tuple[Record, bool]:
        """Close the game and reveal its seed in a final record. Closing twice returns it again."""
        with self._write() as conn:
            game = self._lock_game(conn, game_id)
            if game.status == "closed":
                row = conn.execute(
                    select(ledger_records).where(
                        ledger_records.c.game_id == game_id, ledger_records.c.seq == game.head_seq
                    )
                ).one()
                return _record_from_row(row), True
            seq = game.head_seq + 1
            result = {"seed": game.seed.hex(), "seed_commitment": game.seed_commitment}
            revealed = conn.execute(select(hidden_parts).where(hidden_parts.c.game_id == game_id)
                                    .order_by(hidden_parts.c.seq, hidden_parts.c.idx)).all()
            if revealed:  # fog of war lifts: every hidden part, for anyone to check against its record
                result["revealed"] = [{"seq": row.seq, "commitment": row.commitment, "owner": row.owner,
                                       "salt": row.salt, "value": json.loads(row.value)} for row in revealed]
            body = make_body(
                check=GAME_CLOSED,
                request={},
                result=result,
                request_id=None,
                side=side,
            )
            record = build_record(key, game_id, seq, game.head_hash, body)
            self._insert_record(conn, record, None, None)
            conn.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(head_seq=seq, head_hash=record.hash, status="closed", closed=body["time"])
            )
        return record, False

    # -- helpers ---------------------------------------------------------------------------

    @contextmanager
    def _write(self):
        """A write transaction (SQLite: BEGIN IMMEDIATE), committed on success.

        In GROUP mode the WAL is synced after the write lock is released, whatever the outcome.
        """
        try:
            with self._writer_lock, self.engine.connect() as conn:
                conn.execution_options(write=True)
                with conn.begin():
                    yield conn
        finally:
            self._sync_wal()

    @contextmanager
    def _raw_write(self):
        """The roll path's write transaction, on the bare DBAPI connection (see `_Prepared`).

        SQLite: BEGIN IMMEDIATE takes the write lock before the chain head is read.
        PostgreSQL: the driver opens the transaction; the game row is locked FOR UPDATE.
        """
        try:
            with self._writer_lock:
                dbapi = self.engine.raw_connection()
                try:
                    cursor = dbapi.cursor()
                    try:
                        if self._is_sqlite:
                            cursor.execute("BEGIN IMMEDIATE")
                        yield cursor
                    except BaseException:
                        dbapi.rollback()
                        raise
                    else:
                        dbapi.commit()
                    finally:
                        cursor.close()
                finally:
                    dbapi.close()  # back to the pool
        finally:
            self._sync_wal()  # GROUP mode: after the lock is released, before anyone is answered

    def _lock_game(self, conn, game_id: str):
        row = conn.execute(select(games).where(games.c.id == game_id).with_for_update()).first()
        if row is None:
            raise GameNotFound(game_id)
        return row

    @staticmethod
    def _insert_record(conn, record: Record, request_id: str | None, digest: str | None) -> None:
        conn.execute(insert(ledger_records), [_record_row(record, request_id, digest)])


@dataclass(frozen=True)
class PreparedRecord:
    """A check's record made before the write lock (`Store.prepare_check`) and its hidden parts."""

    record: Record
    parts: list


def _made_record(key: SigningKey, game_id: str, seq: int, prev_hash: str, seed: bytes, side: str, check: str,
                 request: dict[str, Any], request_id: str | None, run: Callable[[bytes, int], dict[str, Any]],
                 session: dict[str, Any] | None, seal: Callable | None) -> tuple[Record, list]:
    """A check's record `seq` after `prev_hash`: its result rolled (`run`), sealed (`seal`),
    hashed and signed; and the hidden parts kept beside it."""
    result = run(seed, seq)
    public_request, parts = request, []
    if seal is not None:
        public_request, result, parts = seal(request, result)
    body = make_body(check, public_request, result, request_id, side, session=session)
    return build_record(key, game_id, seq, prev_hash, body), parts


def _record_row(record: Record, request_id: str | None, digest: str | None) -> dict[str, Any]:
    return {
        "game_id": record.game_id,
        "seq": record.seq,
        "prev_hash": record.prev_hash,
        "hash": record.hash,
        "body": (record.canonical_body or canonical_bytes(record.body)).decode("utf-8"),
        "receipt": json.dumps(record.receipt, sort_keys=True),
        "request_id": request_id,
        "request_digest": digest,
    }


def _game_header(row) -> dict[str, Any]:
    return {
        "id": row.id,
        "system": row.system,
        "scenario": row.scenario,
        "status": row.status,
        "created": row.created,
        "closed": row.closed,
        "seed_commitment": row.seed_commitment,
        "seed": row.seed.hex() if row.status == "closed" else None,
        "head_seq": row.head_seq,
        "head_hash": row.head_hash,
    }


def _record_from_row(row) -> Record:
    return _record_from_mapping(row._mapping)


def _record_from_mapping(row, keep_text: bool = False) -> Record:
    """`keep_text`: the record keeps its stored body text as `canonical_body` (written canonical,
    `_record_row`), for a reader that looks units up in it (the kept board's catch-up)."""
    return Record(
        game_id=row["game_id"],
        seq=row["seq"],
        prev_hash=row["prev_hash"],
        hash=row["hash"],
        body=parse_json(row["body"]),
        receipt=parse_json(row["receipt"]),
        canonical_body=row["body"].encode("utf-8") if keep_text else None,
    )
