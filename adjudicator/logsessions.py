"""Which file must show which ruling: a game's chain of VASSAL log sessions.

A game by e-mail is a chain of files: A plays and sends a log, B loads it and begins his own
log, and so on. The Adjudicator extension gives every log session an id and sends it with each
ruling it asks for (`adjudicator.checks.LogSession`: its id, the session of the file it
continues, its place in the chain, where it began), and begins each log with a line naming the
session and the sessions before it (`adjudicator.transcript.session_line`). So the ledger knows
in which file each ruling belongs, and a log check can tell

* **this file's** rulings (they must be in it),
* **earlier** ones (in the files before it) and **later** ones,
* a **re-roll**: a session that began from the same position as one in the chain (the same
  parent; for the first file, the same start) whose rulings appear in no file: the game was
  reloaded and the check asked again,
* rulings asked **outside VASSAL** (the API or the pages: no session), which the chain of all
  files must still show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

THIS_FILE, EARLIER, LATER, REROLL, OUTSIDE, ELSEWHERE = "this-file", "earlier", "later", "re-roll", "outside", "elsewhere"


@dataclass(frozen=True)
class Session:
    id: str
    parent: str | None
    start: str | None
    file: int | None
    side: str | None
    seqs: tuple[int, ...] = ()


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
                                                     "seqs": []})
            entry["seqs"].append(record["seq"])
        return cls({sid: Session(sid, e["parent"], e["start"], e["file"], e["side"], tuple(e["seqs"]))
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


def place(record: dict[str, Any], sessions: SessionMap, files: list[tuple[str, tuple[str, ...], str | None]]
          ) -> Placement:
    """Where `record` belongs, given the files checked: (session id, its chain, its start) each,
    in order."""
    session = (record.get("body") or {}).get("session")
    if not isinstance(session, dict) or not session.get("id"):
        return Placement(OUTSIDE, "asked outside VASSAL (the API or the pages)")
    sid = session["id"]
    ids = [f[0] for f in files]
    if sid in ids:
        number = ids.index(sid) + 1
        return Placement(THIS_FILE, "made in this file's log session" if len(files) == 1
                         else f"made in the log session of file {number}")
    chains = [set(f[1]) for f in files]
    if any(sid in chain for chain in chains):
        return Placement(EARLIER, f"made in an earlier file's log session ({sid})")
    parent, start = session.get("parent"), session.get("start")
    for number, (fid, chain, fstart) in enumerate(files, start=1):
        line = list(chain) + [fid]
        for position, member in enumerate(line):
            member_parent = line[position - 1] if position else None
            member_start = fstart if member == fid else (sessions.sessions[member].start
                                                         if member in sessions.sessions else None)
            same_position = (parent == member_parent and (parent is not None or (start and start == member_start)))
            if same_position and member != sid:
                where = "this file's log" if member == fid and len(files) == 1 else (
                    f"file {number}'s log" if member == fid else f"log session {member}")
                after = f"after session {parent}" if parent else "from the setup"
                return Placement(REROLL, f"re-roll: log session {sid} began from the same position as {where} "
                                         f"({after}) and is in no file sent")
    if any(sessions.descends_from(sid, f[0]) for f in files):
        return Placement(LATER, f"made in a later log session ({sid})")
    return Placement(ELSEWHERE, f"made in log session {sid}, not in this chain of files")
