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
* ledger rulings the log does not show: **hidden** (a ruling received and not passed on, the
  reload-and-reroll trick);
* rulings tagged for another game, and compute-mode rulings (the players' own dice, nothing
  recorded), are listed as such.

The ledger's own chain and signatures are verified too (`verify_ledger`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.bridge import BridgeError, read_upload
from adjudicator.ledger import Record, ledger_document
from adjudicator.rulings import recorded_response
from adjudicator.problems import Problem
from adjudicator.services import services
from adjudicator.storage import GameNotFound
from adjudicator.systems import system_info
from adjudicator.transcript import TranscriptEntry, comparable_lines, parse_transcript
from adjudicator.verify import verify_ledger
from vassalfmt.commands import CHAT_PREFIX

VERIFIED, FORGED, ALTERED, OTHER_GAME, UNRECORDED = "verified", "forged", "altered", "other-game", "unrecorded"


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
                "counts": {status: sum(1 for r in self.rulings if r.status == status)
                           for status in (VERIFIED, FORGED, ALTERED, OTHER_GAME, UNRECORDED)}}


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
    want = comparable_lines(response, system_name=system_name, version=entry.version)
    got = entry.comparable()
    if got != want:
        return LogRuling(ALTERED, game_id, entry.seq, first, _first_difference(got, want))
    return LogRuling(VERIFIED, game_id, entry.seq, first)


def check_log(chat_texts: list[str], document: dict[str, Any], keys) -> LogCheck:
    """Every adjudication in `chat_texts` (a log's chat, in order) against the ledger `document`."""
    game = document["game"]
    records = {r["seq"]: r for r in document["records"]}
    result = LogCheck(game["id"])
    info = system_info(game["system"])
    name = info.name if info else game["system"]
    for entry in parse_transcript(chat_texts):
        result.rulings.append(_judge(entry, game["id"], records, name))
    shown = {r.seq for r in result.rulings if r.status in (VERIFIED, ALTERED)}
    result.hidden = [{"seq": r["seq"], "check": r["body"]["check"], "side": r["body"].get("side"),
                      "time": r["body"].get("time")}
                     for r in document["records"] if _is_ruling(r) and r["seq"] not in shown]
    report = verify_ledger(document, keys)
    result.ledger_ok = report.ok
    result.ledger_problems = [f.message for f in report.problems]
    return result


def log_chat(data: bytes) -> list[str]:
    """The chat lines a saved game or log holds (BridgeError for a file that is none)."""
    saved = read_upload(data)
    return [c[len(CHAT_PREFIX):] for c in saved.other_commands if c.startswith(CHAT_PREFIX)]


def check_log_of_game(game_id: str, data: bytes) -> LogCheck:
    """`check_log` for a game's current ledger; Problems for an unknown game or a bad file."""
    svc = services()
    try:
        document = ledger_document(svc.store.game(game_id), svc.store.records(game_id))
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    try:
        texts = log_chat(data)
    except BridgeError as error:
        raise Problem(error.status, error.title, error.detail, kind=error.kind) from None
    return check_log(texts, document, svc.verification_keys())

