"""Verify a log received from the opponent against the game's ledger.

The API (`POST /api/v1/games/<game_id>/savedgame/log-check`), the game's log-check page and
`adjudicator-client verify-log` all call `check_log_of_game`.

VASSAL cannot stop a player from reloading a saved game and rolling again, or from typing a
ruling into the chat. The server can: every adjudication line a ``.vlog`` holds (posted by the
module's Adjudicator extension, or written by the saved-game page) carries its tag
(``[ADJ <game>#<seq>]``), and the ledger holds what that record really said. `check_log` compares:

* each recorded ruling in the log with the ledger record of that number: the same record hash
  and the same lines (outcome, dice, steps) as the ledger renders them (`chat_lines`) — else it
  is **forged** (no such record, another hash) or **altered** (the lines differ);
* what each verified ruling did to the board: the pieces must show the steps it ordered (a
  unit flipped or removed) before the next ruling — else it is **not applied**
  (`adjudicator.logboard`);
* ledger rulings the log does not show: **hidden** (a ruling received and not passed on, the
  reload-and-reroll trick);
* rulings tagged for another game, and compute-mode rulings (the players' own dice, nothing
  recorded), are listed as such.

The ledger's own chain and signatures are verified too (`verify_ledger`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.bridge import BridgeError, load_system_game, read_upload
from adjudicator.ledger import Record, ledger_document
from adjudicator.logboard import LogEvent, log_events, missing_changes, ordered_changes
from adjudicator.rulings import recorded_response
from adjudicator.problems import Problem
from adjudicator.services import services
from adjudicator.storage import GameNotFound
from adjudicator.systems import system_info
from adjudicator.transcript import TranscriptEntry, comparable_lines, parse_transcript
from adjudicator.verify import verify_ledger
from scenarios.model import Game
from vassalfmt import SavedGame
from vassalfmt.commands import CHAT_PREFIX

VERIFIED, FORGED, ALTERED, OTHER_GAME, UNRECORDED = "verified", "forged", "altered", "other-game", "unrecorded"
NOT_APPLIED = "not-applied"
STATUSES = (VERIFIED, NOT_APPLIED, FORGED, ALTERED, OTHER_GAME, UNRECORDED)


@dataclass
class LogRuling:
    """One adjudication found in the log and what the ledger says of it."""

    status: str
    game_id: str | None
    seq: int | None
    first_line: str
    why: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "game_id": self.game_id, "seq": self.seq,
                "first_line": self.first_line, "why": self.why}


@dataclass
class LogCheck:
    """The verdict on one log: its rulings, the ledger rulings it does not show, the ledger's own."""

    game_id: str
    rulings: list[LogRuling] = field(default_factory=list)
    hidden: list[dict[str, Any]] = field(default_factory=list)  # seq, check, side, time
    ledger_ok: bool = True
    ledger_problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (self.ledger_ok and not self.hidden
                and all(r.status in (VERIFIED, UNRECORDED) for r in self.rulings))

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "ok": self.ok,
                "rulings": [r.to_json() for r in self.rulings], "hidden": self.hidden,
                "ledger": {"ok": self.ledger_ok, "problems": self.ledger_problems},
                "counts": {status: sum(1 for r in self.rulings if r.status == status) for status in STATUSES}}


def _is_ruling(record: dict[str, Any]) -> bool:
    return not str(record["body"].get("check", "")).startswith("game.")


def _first_difference(got: list[str], want: list[str]) -> str:
    for number, (a, b) in enumerate(zip(got, want), start=1):
        if a != b:
            return f"line {number} reads {a!r}; the ledger says {b!r}"
    return f"the log has {len(got)} lines, the ledger's ruling {len(want)}"


def _judge(entry: TranscriptEntry, game_id: str, records: dict[int, dict], system_name: str) -> LogRuling:
    first = entry.lines[0] if entry.lines else ""
    if not entry.recorded:
        return LogRuling(UNRECORDED, None, None, first, "computed from the players' own dice: nothing recorded")
    if entry.game_id != game_id:
        return LogRuling(OTHER_GAME, entry.game_id, entry.seq, first, f"tagged for game {entry.game_id}")
    record = records.get(entry.seq)
    if record is None or not _is_ruling(record):
        return LogRuling(FORGED, game_id, entry.seq, first, f"the ledger has no ruling {entry.seq}")
    if not entry.hash_prefix or not record["hash"].startswith(entry.hash_prefix):
        return LogRuling(FORGED, game_id, entry.seq, first,
                         f"record hash {entry.hash_prefix or '(none)'} is not ledger record {entry.seq}'s "
                         f"{record['hash'][:len(entry.hash_prefix) or 16]}")
    response = recorded_response(Record(game_id, record["seq"], record["prev_hash"], record["hash"],
                                          record["body"], record["receipt"]))
    want = comparable_lines(response, system_name=system_name)
    got = entry.comparable()
    if got != want:
        return LogRuling(ALTERED, game_id, entry.seq, first, _first_difference(got, want))
    return LogRuling(VERIFIED, game_id, entry.seq, first)


def check_log(saved: SavedGame, game: Game | None, document: dict[str, Any], keys) -> LogCheck:
    """Every adjudication in the log `saved` against the ledger `document`; with the system's
    `game` (its units), what each verified ruling did to the pieces as well."""
    header = document["game"]
    records = {r["seq"]: r for r in document["records"]}
    result = LogCheck(header["id"])
    info = system_info(header["system"])
    name = info.name if info else header["system"]
    if game is not None:
        events, steps_now = log_events(saved, game)
    else:
        events = [LogEvent(chat=c[len(CHAT_PREFIX):]) for c in saved.other_commands if c.startswith(CHAT_PREFIX)]
        steps_now = {}
    chat_at = [index for index, event in enumerate(events) if event.chat is not None]
    entries = parse_transcript([events[i].chat for i in chat_at])
    done = 0  # events applied to steps_now so far
    for number, entry in enumerate(entries):
        ruling = _judge(entry, header["id"], records, name)
        end = chat_at[entry.last]
        done = _advance(events, done, end, steps_now)
        if game is not None and ruling.status == VERIFIED:
            following = chat_at[entries[number + 1].first] if number + 1 < len(entries) else len(events)
            window = [e.piece for e in events[end:following] if e.piece is not None]
            ordered = ordered_changes(game, records[entry.seq]["body"]["result"].get("outcome") or {}, steps_now)
            missing = missing_changes(ordered, window)
            if missing:
                ruling = LogRuling(NOT_APPLIED, ruling.game_id, ruling.seq, ruling.first_line,
                                   f"the ruling ordered {'; '.join(missing)}")
        result.rulings.append(ruling)
    shown = {r.seq for r in result.rulings if r.status in (VERIFIED, NOT_APPLIED, ALTERED)}
    result.hidden = [{"seq": r["seq"], "check": r["body"]["check"], "side": r["body"].get("side"),
                      "time": r["body"].get("time")}
                     for r in document["records"] if _is_ruling(r) and r["seq"] not in shown]
    report = verify_ledger(document, keys)
    result.ledger_ok = report.ok
    result.ledger_problems = [f.message for f in report.problems]
    return result


def _advance(events: list[LogEvent], done: int, upto: int, steps_now: dict) -> int:
    """Apply the piece events before index `upto` to `steps_now`; returns the new count done."""
    for event in events[done:upto]:
        if event.piece is not None:
            steps_now[event.piece.unit] = event.piece.step
    return max(done, upto)


def check_log_of_game(game_id: str, data: bytes) -> LogCheck:
    """`check_log` for a game's current ledger; Problems for an unknown game or a bad file."""
    svc = services()
    try:
        header = svc.store.game(game_id)
        document = ledger_document(header, svc.store.records(game_id))
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    try:
        saved = read_upload(data)
        game = load_system_game(header["system"])
    except BridgeError as error:
        raise Problem(error.status, error.title, error.detail, kind=error.kind) from None
    return check_log(saved, game, document, svc.verification_keys())
