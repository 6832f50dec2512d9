"""Saved games uploaded to the pages, kept for a while so each step of a page is a plain address.

A player uploads a ``.vsav`` once; the report, each check from it, the ruling it led to and the
``.vlog`` that continues the game are then pages at addresses naming the file's SHA-256
(``/games/<id>/savedgame/<sha256>``). So a refresh, the Back button or a second check never
uploads the file again, and a recorded ruling can redirect to its own page (post/redirect/get)
and still offer the log download.

Files are stored in the service's database (every instance on one database sees them), in a
*scope*: a recorded game's side (``<game id>/<role>``: only the token that uploaded a file reaches
it, its report, its checks, its replay and the log that continues it; the opponent and the
observer get 404, for a side's own save names every one of its hidden blocks) or, for the
calculation pages, ``system:<id>:<browser>``: the browser that uploaded it (a digest of its session
cookie, `adjudicator.web.csrf.browser_key`). The ledger publishes each recorded file's SHA-256: with
one scope per system, anyone who knew it opened a side's save that its player had also checked on a
calculation page (`?as=un` showed every UN block). They are not a record of anything: the ledger records what was ruled, with
the file's hash. Old files go first: after `MAX_AGE_SECONDS`, or when all kept files pass
`MAX_TOTAL_BYTES`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy import (
    Column, Integer, LargeBinary, PrimaryKeyConstraint, String, Table, delete, func, insert, select,
)

from adjudicator.ledger.records import utc_now
from adjudicator.ledger.storage import Store, TokenGrant, metadata

#: How long an uploaded file stays (a turn's work on the pages, with room to come back).
MAX_AGE_SECONDS = 3 * 24 * 3600
#: All kept files together; past it the oldest go.
MAX_TOTAL_BYTES = 512 * 1024 * 1024

uploads = Table(
    "uploads",
    metadata,
    Column("scope", String(48), nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("name", String(200), nullable=False),
    Column("size", Integer, nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("created", String(32), nullable=False),
    PrimaryKeyConstraint("scope", "sha256", name="pk_uploads"),
)


_SHA_RE = re.compile(r"[0-9a-f]{64}")


def is_sha256(text: str) -> bool:
    """Whether `text` can name a kept file (a SHA-256 in lower-case hex)."""
    return bool(_SHA_RE.fullmatch(text))


def browser_scope(system: str, browser: str) -> str:
    """The files one browser uploaded to a system's calculation pages (``browser``: `browser_key`)."""
    return f"system:{system}:{browser}"


def grant_scope(grant: TokenGrant) -> str:
    """The files one token of a recorded game uploaded (a side's, or the observer's)."""
    return f"{grant.game_id}/{grant.role}"


@dataclass(frozen=True)
class Upload:
    """One kept file."""

    scope: str
    sha256: str
    name: str
    data: bytes


class Uploads:
    """The kept files, on the service's database."""

    def __init__(self, store: Store):
        self.store = store

    def put(self, scope: str, name: str, data: bytes) -> Upload:
        """Keep `data` in `scope` (again, if it is there already); the oldest files make room."""
        sha = hashlib.sha256(data).hexdigest()
        self.put_derived(scope, [(sha, name, data)])
        return Upload(scope, sha, (name or "")[-200:], data)

    def put_derived(self, scope: str, files: list[tuple[str, str, bytes]]) -> None:
        """Keep files made from kept ones (a replay built from its logs), each under a key of its own
        (a SHA-256 the maker derives), in one transaction; kept and expired as uploads are."""
        with self.store._write() as conn:
            self._expire(conn, sum(len(data) for _, _, data in files))
            for sha, name, data in files:
                conn.execute(delete(uploads).where(uploads.c.scope == scope, uploads.c.sha256 == sha))
                conn.execute(insert(uploads).values(scope=scope, sha256=sha, name=(name or "")[-200:], size=len(data),
                                                    data=data, created=utc_now()))

    def has(self, scope: str, sha256: str) -> bool:
        with self.store.engine.connect() as conn:
            return conn.execute(select(uploads.c.size).where(
                uploads.c.scope == scope, uploads.c.sha256 == sha256)).first() is not None

    def get(self, scope: str, sha256: str) -> Upload | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(select(uploads.c.name, uploads.c.data).where(
                uploads.c.scope == scope, uploads.c.sha256 == sha256)).first()
        return Upload(scope, sha256, row.name, bytes(row.data)) if row is not None else None

    @staticmethod
    def _expire(conn, incoming: int) -> None:
        oldest = (datetime.now(timezone.utc) - timedelta(seconds=MAX_AGE_SECONDS)).isoformat(
            timespec="milliseconds").replace("+00:00", "Z")
        conn.execute(delete(uploads).where(uploads.c.created < oldest))
        total = conn.execute(select(func.coalesce(func.sum(uploads.c.size), 0))).scalar_one()
        if total + incoming <= MAX_TOTAL_BYTES:
            return
        for row in conn.execute(select(uploads.c.scope, uploads.c.sha256, uploads.c.size)
                                .order_by(uploads.c.created)).all():
            conn.execute(delete(uploads).where(uploads.c.scope == row.scope, uploads.c.sha256 == row.sha256))
            total -= row.size
            if total + incoming <= MAX_TOTAL_BYTES:
                return
