"""Which file must show which ruling: a game's chain of VASSAL log sessions.

A game by e-mail is a chain of files: A plays and sends a log, B loads it and begins his own
log, and so on. The Adjudicator extension gives every log session an id and sends it with each
ruling it asks for (`adjudicator.checks.LogSession`: its id, the session of the file it
continues, its place in the chain, where it began), and begins each log with a line naming the
session and the sessions before it (`adjudicator.words.transcript.session_line`). So the ledger knows
in which file each ruling belongs, and a log check can tell

* **this file's** rulings (they must be in it),
* **earlier** ones (in the files before it) and **later** ones,
* a **re-roll**: a session that began from the same position as one in the chain (the same
  parent; for the first file, the same start) whose rulings appear in no file: the game was
  reloaded and the check asked again,
* rulings asked **outside VASSAL** (the API or the pages: no session), which the chain of all
  files must still show,
* the rulings of a **live partner**: in live play (the players at one board in a room of a VASSAL
  server) each player keeps his own log at the same time, and every log of that sitting names the
  same live session (`live`). Two sessions of one live session kept by different sides are
  partners, never a re-roll of each other; a partner's ruling a file does not show (sent while this
  player's room connection was down) is listed, and held against the files sent only when none of
  them shows it.

Two sessions **began from the same position** when they continue the same session (`parent`) and,
when either was kept in live play or both are the first file, began at the same position digest
(`start`): in live play one player may begin several logs after the same partner's session (a
synchronisation after his connection returned), each from another position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.checks import side_label

THIS_FILE, EARLIER, LATER, REROLL, OUTSIDE, ELSEWHERE, LIVE = (
    "this-file", "earlier", "later", "re-roll", "outside", "elsewhere", "live")


@dataclass(frozen=True)
class Session:
    id: str
    parent: str | None
    start: str | None
    file: int | None
    side: str | None
    seqs: tuple[int, ...] = ()
    live: str | None = None


@dataclass(frozen=True)
class FileSession:
    """A file's log session, as its session line (or its rulings) names it."""

    id: str
    chain: tuple[str, ...]
    start: str | None
    side: str | None = None
    live: str | None = None


def partners(side: str | None, live: str | None, other_side: str | None, other_live: str | None) -> bool:
    """Two log sessions kept at the same time in one live session by different players."""
    return bool(live) and live == other_live and bool(side) and bool(other_side) and side != other_side


def same_position(parent: str | None, start: str | None, live: str | None,
                  other_parent: str | None, other_start: str | None, other_live: str | None) -> bool:
    """Whether two sessions began from the same position: the same session continued and, for
    first files or a session kept in live play, the same position digest."""
    if parent != other_parent:
        return False
    if parent is None or live or other_live:
        return bool(start) and start == other_start
    return True


@dataclass
class SessionMap:
    """Every log session the ledger's rulings name."""

    sessions: dict[str, Session] = field(default_factory=dict)

    @classmethod
    def of(cls, records: list[dict[str, Any]]) -> "SessionMap":
        found: dict[str, dict[str, Any]] = {}
        for record in records:
            body = record.get("body") or {}
            session = body.get("session")
            if not isinstance(session, dict) or not isinstance(session.get("id"), str):
                continue
            entry = found.setdefault(session["id"], {"parent": session.get("parent"), "start": session.get("start"),
                                                     "file": session.get("file"), "side": body.get("side"),
                                                     "seqs": [], "live": None})
            entry["seqs"].append(record["seq"])
            entry["live"] = entry["live"] or session.get("live")  # a log begun before the game went live
        return cls({sid: Session(sid, e["parent"], e["start"], e["file"], e["side"], tuple(e["seqs"]), e["live"])
                    for sid, e in found.items()})

    def chain_of(self, session_id: str) -> tuple[str, ...]:
        """The sessions before `session_id` that the ledger knows of, oldest first (its rulings'
        parents, followed back)."""
        chain: list[str] = []
        seen = {session_id}
        current = self.sessions[session_id].parent if session_id in self.sessions else None
        while current and current not in seen:
            chain.insert(0, current)
            seen.add(current)
            current = self.sessions[current].parent if current in self.sessions else None
        return tuple(chain)

    def descends_from(self, session_id: str, ancestor: str) -> bool:
        seen = set()
        current = self.sessions[session_id].parent if session_id in self.sessions else None
        while current and current not in seen:
            if current == ancestor:
                return True
            seen.add(current)
            current = self.sessions[current].parent if current in self.sessions else None
        return False


@dataclass(frozen=True)
class Placement:
    """Where a ruling of the ledger belongs, seen from one file (or a chain of files)."""

    kind: str
    why: str


def place(record: dict[str, Any], sessions: SessionMap, files: list[FileSession]) -> Placement:
    """Where `record` belongs, given the files checked, in order."""
    body = record.get("body") or {}
    session = body.get("session")
    if not isinstance(session, dict) or not session.get("id"):
        return Placement(OUTSIDE, "asked outside VASSAL (the API or the pages)")
    sid = session["id"]
    ids = [f.id for f in files]
    if sid in ids:
        number = ids.index(sid) + 1
        return Placement(THIS_FILE, "made in this file's log session" if len(files) == 1
                         else f"made in the log session of file {number}")
    if any(sid in f.chain for f in files):
        return Placement(EARLIER, f"made in an earlier file's log session ({sid})")
    known = sessions.sessions.get(sid)
    side, live = body.get("side"), session.get("live") or (known.live if known else None)
    parent, start = session.get("parent"), session.get("start")
    for number, f in enumerate(files, start=1):
        line = list(f.chain) + [f.id]
        for position, member in enumerate(line):
            other = _member(member, f, sessions)
            member_parent = line[position - 1] if position else None
            if member == sid or partners(side, live, other.side, other.live) \
                    or not same_position(parent, start, live, member_parent, other.start, other.live):
                continue
            where = "this file's log" if member == f.id and len(files) == 1 else (
                f"file {number}'s log" if member == f.id else f"log session {member}")
            after = f"after session {parent}" if parent else "from the setup"
            return Placement(REROLL, f"re-roll: log session {sid} began from the same position as {where} "
                                     f"({after}) and is in no file sent")
    for number, f in enumerate(files, start=1):
        if live and any(_member(m, f, sessions).live == live for m in (*f.chain, f.id)):
            who = f"the {side_label(side)} player's" if side else "another"
            here = "this file" if len(files) == 1 else f"file {number}"
            return Placement(LIVE, f"made in {who} log session {sid} of the live session {here} was kept in "
                                   f"({live})")
    if any(sessions.descends_from(sid, f.id) for f in files):
        return Placement(LATER, f"made in a later log session ({sid})")
    return Placement(ELSEWHERE, f"made in log session {sid}, not in this chain of files")


def session_words(sid: str, sessions: SessionMap) -> str:
    """A log session as a player looks for its file: whose it is, and what it continues ("the UN
    player's log session b2, begun after log session a1")."""
    known = sessions.sessions.get(sid)
    whose = f"the {side_label(known.side)} player's" if known and known.side else "the"
    if known is None:
        return f"{whose} log session {sid}"
    begun = f", begun after log session {known.parent}" if known.parent else ", begun from the setup"
    return f"{whose} log session {sid}{begun}"


def _member(member: str, file: FileSession, sessions: SessionMap) -> FileSession:
    """A session of a file's line (the file's own, or one before it) as far as it is known."""
    if member == file.id:
        return file
    known = sessions.sessions.get(member)
    return FileSession(member, (), known.start if known else None, known.side if known else None,
                       known.live if known else None)
