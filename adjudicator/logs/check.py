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
* what each verified ruling did to the board: the pieces must show what it ordered (a step, a unit
  in its dead pile or deleted, a replacement placed, a hex; `adjudicator.unit_changes`) before
  the next ruling — else it is **not applied** (`adjudicator.logs.board`). A change only the
  opponent can make (his piece is hidden from the asker: a HoldFast block) is **owed** by him: it
  is expected in his next file of the chain, where its absence is the fault; until that file is
  sent it is listed as pending ("to be applied by the UN player in his next file"). A choice the
  rules leave to the opponent (SPI's defender chooses which of his units lose a combat's
  regiments, `adjudicator.ruled_orders.loss_choices`) is owed the same way: his next file must
  settle it with a ruling of his naming that record, else it says "owed: Communist chooses which
  units lose 2 regiments from combat record #4";
* ledger rulings the log does not show: where they belong (`adjudicator.logs.sessions`). A log
  kept by the Adjudicator extension names its log session and the sessions before it, and each
  ruling asked from VASSAL names its session: a ruling of this file's session it does not show is
  **hidden**; one of a session that began from the same position as a file of the chain is a
  **re-roll**; earlier and later files' rulings and rulings asked outside VASSAL are listed, not
  held against this file. Checking a game's whole chain of files in order also names a file
  missing from it and a file that does not continue the one before. A file that names no session
  (an older log) is judged as before: every ruling it does not show is hidden;
* rulings tagged for another game, and compute-mode rulings (the players' own dice, nothing
  recorded), are listed as such.

The ledger's own chain and signatures are verified too (`verify_ledger`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from adjudicator.bridge import BridgeError, load_system_game, read_upload
from adjudicator.bridge.rulings import problem_from
from adjudicator.bridge.upload import Budget
from adjudicator.ledger.records import Record, ledger_document
from adjudicator.checks import side_label
from adjudicator.fog import fog_of, named_units, redact
from adjudicator.logs.board import (
    Events, LogEvent, OrderedChange, PieceEvent, Shown, applied, checked_actions, log_events, missing_changes,
    ordered_changes, reached,
)
from adjudicator.logs.history import BEGINS, RETURNS, FileHistory, Rewind, file_history, find_rewinds
from adjudicator.logs.sessions import (
    EARLIER, LIVE, OUTSIDE, REROLL, THIS_FILE, FileSession, SessionMap, place, session_words,
)
from adjudicator.rulings import recorded_response
from adjudicator.problems import Problem
from adjudicator.services import services
from adjudicator.ledger.storage import GameNotFound
from adjudicator.systems import system_info
from adjudicator.logs.session_line import SessionLineError, parse_session_line
from adjudicator.logs.transcript import TranscriptEntry, comparable_lines, parse_transcript, written_lines
from adjudicator.words.names import UnitNames
from adjudicator.words.transcript import notice_texts
from adjudicator.ruled_orders import LOSS_CHOICE_RULE, settled_choices
from adjudicator.unit_changes import ON_BOARD, RETREAT, TO_CHOOSE, UnitChange, canonical_outcome, ruled_changes
from adjudicator.unit_owners import owners_of
from adjudicator.ledger.verify import verify_ledger
from scenarios.model import Game
from vassalfmt import SavedGame
from vassalfmt.commands import CHAT_PREFIX

VERIFIED, FORGED, ALTERED, OTHER_GAME, UNRECORDED = "verified", "forged", "altered", "other-game", "unrecorded"
NOT_APPLIED = "not-applied"
#: What became of a change the opponent owes (his hidden piece): made, still to come, or missing.
OWED_APPLIED, OWED_PENDING = "applied", "pending"

#: The most files one chain check reads (a long game by e-mail has a few dozen).
MAX_CHAIN_FILES = 200
STATUSES = (VERIFIED, NOT_APPLIED, FORGED, ALTERED, OTHER_GAME, UNRECORDED)
#: An answer repeats at most this much of a line the log holds (its first line, a difference).
MAX_ECHO_CHARS = 200
#: An answer lists at most this many of the rulings found (all files together); the others are counted.
MAX_LISTED_RULINGS = 1000
#: ... and at most this many of those no ledger record stands behind (forged, another game's,
#: computed): a log can hold any number of lines typed to look like rulings.
MAX_UNTIED_LISTED = 20
#: An answer names at most this many breaks of a chain.
MAX_BREAKS_LISTED = 50


@dataclass
class LogRuling:
    """One adjudication found in the log and what the ledger says of it."""

    status: str
    game_id: str | None
    seq: int | None
    first_line: str
    why: str = ""
    #: The record's notices, as everyone may read them (adjudicator.ledger.board): an eliminated unit
    #: named again, the same situation asked again.
    notices: list[str] = field(default_factory=list)
    #: Asked again after the game was taken back over a ruling made (adjudicator.logs.history): a re-roll,
    #: in words ("" when it is none).
    rewind: str = ""

    @property
    def untied(self) -> bool:
        """No ledger record stands behind it: its lines are the log's alone."""
        return self.status in (FORGED, OTHER_GAME, UNRECORDED)

    def cut(self) -> "LogRuling":
        """As an answer shows it: what it repeats of the log cut to `MAX_ECHO_CHARS`."""
        return replace(self, first_line=echo(self.first_line), why=echo(self.why),
                       notices=[echo(text) for text in self.notices], rewind=echo(self.rewind))

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "game_id": self.game_id, "seq": self.seq,
                "first_line": self.first_line, "why": self.why, "notices": self.notices, "rewind": self.rewind}


def echo(text: str) -> str:
    return text if len(text) <= MAX_ECHO_CHARS else text[:MAX_ECHO_CHARS - 1] + "…"


@dataclass
class FileReading:
    """One file read against the ledger: its rulings judged, and the log session it is."""

    name: str
    rulings: list[LogRuling] = field(default_factory=list)
    #: The file's log session: its id, the sessions before it, its start; None for a file that names
    #: none (a log kept before sessions, or not kept by the extension).
    session: str | None = None
    chain: tuple[str, ...] = ()
    start: str | None = None
    named_by: str = ""  # "its first line" or "its rulings"
    #: The side that played the file: its first line says (the extension writes it), else the side
    #: of the rulings asked in its session; None when neither tells.
    side: str | None = None
    #: The live session the file was kept in (players at one board over a VASSAL server), or None.
    live: str | None = None
    #: The units as the file begins and its piece events in order (what an owed change is judged on).
    start_units: dict[str, Shown] = field(default_factory=dict, repr=False)
    piece_events: list[PieceEvent] = field(default_factory=list, repr=False)
    #: Changes of this file's verified rulings only the opponent can make, not made before the next
    #: ruling: (seq, change).
    owed: list[tuple[int, OrderedChange]] = field(default_factory=list, repr=False)
    #: Choices this file's verified rulings leave open to the opponent (his losses' units): (seq, change).
    choices: list[tuple[int, UnitChange]] = field(default_factory=list, repr=False)
    #: ruling seq -> how many piece events of the file come before its last line.
    pieces_before: dict[int, int] = field(default_factory=dict, repr=False)
    #: Rulings of the file whose changes the asker applies and the file shows applied: the position
    #: they were asked at is one the game had *before* them (adjudicator.logs.history).
    changed_board: set[int] = field(default_factory=set, repr=False)
    #: The positions the file's board stood at, and where each of its rulings was asked.
    history: FileHistory | None = field(default=None, repr=False)

    def ever_reached(self, game: Game, change: OrderedChange, after_seq: int | None = None) -> bool:
        """Whether the pieces show the change at some moment of the file (its start included), or,
        with `after_seq`, at some moment after that ruling of the file (in live play the owner's
        moves reach the asker's log too)."""
        units = dict(self.start_units)
        first = self.pieces_before.get(after_seq, 0) if after_seq is not None else 0
        if after_seq is None and reached(game, change, units):
            return True
        for number, event in enumerate(self.piece_events):
            units[event.unit] = event.shown
            if number >= first and reached(game, change, units):
                return True
        return False

    @property
    def shown(self) -> set[int]:
        return {r.seq for r in self.rulings if r.status in (VERIFIED, NOT_APPLIED, ALTERED)}

    def to_json(self, listed: list[LogRuling] | None = None) -> dict[str, Any]:
        listed = self.rulings if listed is None else listed
        return {"name": echo(self.name), "session": self.session, "chain": list(self.chain[-MAX_BREAKS_LISTED:]),
                "chain_length": len(self.chain), "start": self.start, "session_named_by": self.named_by,
                "side": self.side, "live": self.live, "rulings": [r.to_json() for r in listed], "not_listed": len(self.rulings) - len(listed),
                "counts": {status: sum(1 for r in self.rulings if r.status == status) for status in STATUSES}}


@dataclass
class LogCheck:
    """The verdict on one log (or a chain of logs): its rulings, and where every other ruling of the
    ledger belongs — hidden here, earlier, later, a re-roll, outside VASSAL — and the ledger's own."""

    game_id: str
    files: list[FileReading] = field(default_factory=list)
    hidden: list[dict[str, Any]] = field(default_factory=list)  # rulings a file sent should show and does not
    rerolls: list[dict[str, Any]] = field(default_factory=list)
    elsewhere: list[dict[str, Any]] = field(default_factory=list)  # earlier, later, outside: not judged here
    missing_files: list[dict[str, Any]] = field(default_factory=list)
    breaks: list[str] = field(default_factory=list)  # a file that does not continue the one before it
    #: Changes only the opponent can make (his hidden pieces), each with what became of it:
    #: applied, pending (his next file is not among those sent) or not-applied (it does not show it).
    owed: list[dict[str, Any]] = field(default_factory=list)
    ledger_ok: bool = True
    ledger_problems: list[str] = field(default_factory=list)

    @property
    def rulings(self) -> list[LogRuling]:
        return [r for f in self.files for r in f.rulings]

    @property
    def ok(self) -> bool:
        return (self.ledger_ok and not self.hidden and not self.rerolls and not self.missing_files
                and not self.breaks and all(r.status in (VERIFIED, UNRECORDED) for r in self.rulings)
                and all(o["status"] != NOT_APPLIED for o in self.owed))

    @property
    def notice_count(self) -> int:
        """How many notices the rulings the files show carry: while one stands, the answer is not
        "every ruling matches" however well the lines do."""
        return sum(len(r.notices) for r in self.rulings)

    def notice_list(self, listing: list[tuple[FileReading, list[LogRuling]]] | None = None) -> list[dict[str, Any]]:
        """Every notice of the rulings listed, one entry each: the record, the file (1-based), the text."""
        listing = self.listing() if listing is None else listing
        return [{"seq": r.seq, "file": number, "text": text}
                for number, (_, listed) in enumerate(listing, start=1) for r in listed for text in r.notices]

    def listing(self) -> list[tuple[FileReading, list[LogRuling]]]:
        """Each file with the rulings an answer lists, their texts cut: in order, at most
        `MAX_LISTED_RULINGS` in all and `MAX_UNTIED_LISTED` of those no record stands behind; the
        rest are counted (a log's size must not make the answer's)."""
        left, untied_left = MAX_LISTED_RULINGS, MAX_UNTIED_LISTED
        out = []
        for reading in self.files:
            listed = []
            for ruling in reading.rulings:
                if left and (untied_left or not ruling.untied):
                    listed.append(ruling.cut())
                    left -= 1
                    untied_left -= ruling.untied
            out.append((reading, listed))
        return out

    def to_json(self) -> dict[str, Any]:
        listing = self.listing()
        return {"game_id": self.game_id, "ok": self.ok,
                "rulings": [r.to_json() for _, listed in listing for r in listed],
                "not_listed": sum(len(f.rulings) - len(listed) for f, listed in listing), "hidden": self.hidden,
                "rerolls": self.rerolls, "elsewhere": self.elsewhere, "missing_files": self.missing_files,
                "breaks": self.breaks, "owed": self.owed, "files": [f.to_json(listed) for f, listed in listing],
                "notices": self.notice_list(listing),
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
    wanted = comparable_lines(response, system_name=system_name, version=entry.version)
    got = entry.comparable()
    notices = notice_texts(record["body"]["result"], record["body"]["check"].partition(".")[0])
    if got != wanted and got not in written_lines(response, system_name=system_name, version=entry.version):
        return LogRuling(ALTERED, game_id, entry.seq, first, _first_difference(got, wanted), notices)
    return LogRuling(VERIFIED, game_id, entry.seq, first, notices=notices)


def read_file(name: str, saved: SavedGame, game: Game | None, header: dict[str, Any],
              records: dict[int, dict], sessions: SessionMap, read: Events | None = None) -> FileReading:
    """Every adjudication in the log `saved` judged against the ledger's `records`; with the
    system's `game` (its units), what each verified ruling did to the pieces as well; and the log
    session the file is. `read`: the file's `log_events`, when they were read already."""
    reading = FileReading(name)
    info = system_info(header["system"])
    system_name = info.name if info else header["system"]
    if game is not None:
        events, units_now = read if read is not None else log_events(saved, game)
        reading.start_units = dict(units_now)
        reading.piece_events = [e.piece for e in events if e.piece is not None]
    else:
        events = [LogEvent(chat=c[len(CHAT_PREFIX):]) for c in saved.other_commands if c.startswith(CHAT_PREFIX)]
        units_now = {}
    chat_at = [index for index, event in enumerate(events) if event.chat is not None]
    texts = [events[i].chat for i in chat_at]
    entries = parse_transcript(texts)
    done = 0  # events applied to units_now so far
    pieces_upto = _pieces_upto(events)  # index -> piece events before it (asked per ruling: not counted again)
    asked: list[tuple[int, int]] = []  # (seq, index of its first line in events) of the rulings shown
    for number, entry in enumerate(entries):
        ruling = _judge(entry, header["id"], records, system_name)
        end = chat_at[entry.last]
        done = _advance(events, done, end, units_now)
        if entry.seq is not None:
            reading.pieces_before[entry.seq] = pieces_upto[end]
        if game is not None and ruling.status == VERIFIED:
            following = chat_at[entries[number + 1].first] if number + 1 < len(entries) else len(events)
            window = [e.piece for e in events[end:following] if e.piece is not None]
            ruling = _judge_board(ruling, reading, game, records[entry.seq], units_now, window)
        if ruling.status in (VERIFIED, NOT_APPLIED, ALTERED):
            asked.append((ruling.seq, chat_at[entry.first]))
        reading.rulings.append(ruling)
    if game is not None:
        reading.history = file_history(reading.start_units, events,
                                       [(seq, at, seq in reading.changed_board) for seq, at in asked])
    _name_session(reading, texts, header["id"], records, sessions)
    return reading


def _pieces_upto(events: list[LogEvent]) -> list[int]:
    """For each index of `events` (and its end), how many piece events come before it."""
    out = [0]
    for event in events:
        out.append(out[-1] + (event.piece is not None))
    return out


def board_changes(record: dict[str, Any], system: str) -> list[UnitChange]:
    """What a ledger record's ruling does to the board, each change with who makes it."""
    body = record["body"]
    return ruled_changes(canonical_outcome(body.get("result") or {}), owners_of(system), body.get("side") or "")


def _judge_board(ruling: LogRuling, reading: FileReading, game: Game, record: dict[str, Any],
                 units_now: dict[str, Shown], window: list[PieceEvent]) -> LogRuling:
    """A verified ruling judged on the pieces: its changes the asker makes must show on the board
    as it stands before the next ruling (`window`: the piece events up to it); those only the
    opponent can make are owed by him. A ruling whose changes the board showed at some moment of
    the window (applied, even if undone after) is one the board moved on from (`changed_board`)."""
    after = applied(units_now, window)
    asker = record["body"].get("side") or ""
    changes = board_changes(record, game.id)
    reading.choices += [(ruling.seq, c) for c in _choices_owed(changes, asker)]
    ordered = ordered_changes(game, changes, units_now)
    mine = [o for o in ordered if o.change.applied_by in ("", asker)]
    for owed in ordered:
        if owed not in mine and not reached(game, owed, after):
            reading.owed.append((ruling.seq, owed))
    missing = missing_changes(game, mine, after)
    if mine and (not missing or _reached_once(game, mine, units_now, window)):
        reading.changed_board.add(ruling.seq)
    if missing:
        return LogRuling(NOT_APPLIED, ruling.game_id, ruling.seq, ruling.first_line,
                         f"the ruling ordered {'; '.join(missing)}", ruling.notices)
    owed_here = [o for seq, o in reading.owed if seq == ruling.seq]
    said = []
    if owed_here:
        who = side_label(owed_here[0].change.applied_by)
        why = ("the hexes are his choice" if all(o.change.kind == RETREAT for o in owed_here)
               else "his piece is hidden from the asker")
        said.append(f"{'; '.join(o.describe() for o in owed_here)}: to be applied by the {who} player in his next "
                    f"file ({why})")
    said += [f"{choice_words(seq, c)}: his to make in his next file" for seq, c in reading.choices if seq == ruling.seq]
    if said:
        ruling.why = "; ".join(said)
    return ruling


def _choices_owed(changes: list[UnitChange], asker: str) -> list[UnitChange]:
    """The choices a ruling leaves open to a side other than the asker's (nobody can make them for him)."""
    return [c for c in changes if c.kind == TO_CHOOSE and c.applied_by and c.applied_by != asker]


def choice_words(seq: int, change: UnitChange) -> str:
    """An open choice owed, in words: "owed: Communist chooses which units lose 2 regiments from
    combat record #4 (Combat (J))"."""
    return (f"owed: {side_label(change.applied_by)} chooses which units lose {change.regiments} "
            f"regiment{'s' if change.regiments != 1 else ''} from combat record #{seq} ({LOSS_CHOICE_RULE})")


def _reached_once(game: Game, changes: list[OrderedChange], units: dict[str, Shown], window: list[PieceEvent]) -> bool:
    """Whether the pieces showed every change at some moment of the window."""
    state = dict(units)
    for event in window:
        state[event.unit] = event.shown
        if all(reached(game, change, state) for change in changes):
            return True
    return False


def _name_session(reading: FileReading, texts: list[str], game_id: str, records: dict[int, dict],
                  sessions: SessionMap) -> None:
    """The file's log session: from the line the extension begins a log with, else from the
    session its recorded rulings were asked in."""
    lines = [line for text in texts if (line := parse_session_line(text)) and line.game_id in (None, game_id)]
    if lines:
        first = lines[0]
        reading.session, reading.chain, reading.start, reading.named_by = first.id, first.chain, first.start, \
            "its first line"
        known = sessions.sessions.get(first.id)
        reading.side = first.side or (known.side if known else None)
        # a log begun before the game went live says its live session in a later line of its session
        reading.live = next((line.live for line in lines if line.id == first.id and line.live),
                            known.live if known else None)
        return
    asked_in = {records[seq]["body"]["session"]["id"] for seq in reading.shown
                if isinstance(records[seq]["body"].get("session"), dict)}
    if len(asked_in) == 1:
        (session,) = asked_in
        known = sessions.sessions.get(session)
        reading.session, reading.chain, reading.named_by = session, sessions.chain_of(session), "its rulings"
        reading.start = known.start if known else None
        reading.side = known.side if known else None
        reading.live = known.live if known else None


def _session_id(record: dict[str, Any]) -> str | None:
    session = record["body"].get("session")
    return session.get("id") if isinstance(session, dict) else None


def _summary(record: dict[str, Any], why: str = "") -> dict[str, Any]:
    body = record["body"]
    session = body.get("session") if isinstance(body.get("session"), dict) else {}
    out = {"seq": record["seq"], "check": body["check"], "side": body.get("side"), "time": body.get("time"),
           "session": session.get("id")}
    if why:
        out["why"] = why
    return out


def chain_breaks(readings: list[FileReading]) -> list[str]:
    """Where files sent in order are not one game's chain in order, in words: a file that continues
    another session than the one before it, or none (it begins a chain) though a file comes before
    it; files in reverse order (one continues a file sent after it); a session sent twice; and
    sessions whose lines name themselves or each other among the sessions before them (a loop)."""
    label = {id(f): echo(f.name) or f"file {number}" for number, f in enumerate(readings, start=1)}
    named = [f for f in readings if f.session]
    before_sets = {id(f): set(f.chain) for f in named}
    breaks = []
    first_of: dict[str, FileReading] = {}
    for f in named:
        if f.session in first_of:
            breaks.append(f"{label[id(f)]} is log session {f.session} again ({label[id(first_of[f.session])]} is too)")
        first_of.setdefault(f.session, f)
        if f.session in before_sets[id(f)]:
            breaks.append(f"{label[id(f)]} names its own log session {f.session} among the sessions before it: a loop")
    for number, a in enumerate(named):
        for b in named[number + 1:]:
            if a.session != b.session and b.session in before_sets[id(a)] and a.session in before_sets[id(b)]:
                breaks.append(f"{label[id(a)]} and {label[id(b)]} name each other's log session ({a.session}, "
                              f"{b.session}) among the sessions before them: a loop, not a chain of files")
        if len(breaks) > MAX_BREAKS_LISTED:
            break
    groups = _live_groups(readings)
    for earlier, group in zip(groups, groups[1:]):
        before = earlier[-1]
        known = {f.session for f in earlier if f.session}
        ours = {f.session for f in group if f.session}
        named_before = set().union(*(before_sets.get(id(f), set()) for f in earlier))
        who = label[id(before)] if len(earlier) == 1 else " and ".join(label[id(f)] for f in earlier)
        for after in group:
            if not (after.session and before.session) or after.session in known:
                continue
            if len(breaks) > MAX_BREAKS_LISTED:
                break
            if after.chain and after.chain[-1] in ours:
                continue  # in live play: a log begun after a partner's of the same sitting
            if after.session in named_before:
                breaks.append(f"{label[id(after)]} is sent after {who}, which continues it: the files "
                              "are out of order (send the game's logs oldest first)")
            elif not after.chain:
                breaks.append(f"{label[id(after)]} does not continue {who}: it begins a game's chain of "
                              "files (it continues no log session)")
            elif after.chain[-1] not in known:
                breaks.append(f"{label[id(after)]} does not continue {who}: it continues log session "
                              f"{after.chain[-1]}, not {' or '.join(sorted(known))} (add the file of log session "
                              f"{after.chain[-1]} between them)")
    if len(breaks) > MAX_BREAKS_LISTED:
        breaks[MAX_BREAKS_LISTED:] = ["… and more breaks of the chain: the files are not one game's logs in order"]
    return breaks


def _live_groups(readings: list[FileReading]) -> list[list[FileReading]]:
    """The files in order, those kept at the same time in one live session (consecutive files
    naming the same live session) as one group: the players' logs of one sitting, in any order;
    every other file a group of its own."""
    groups: list[list[FileReading]] = []
    for reading in readings:
        if groups and reading.live and groups[-1][-1].live == reading.live:
            groups[-1].append(reading)
        else:
            groups.append([reading])
    return groups


def judge_files(document: dict[str, Any], readings: list[FileReading], keys, game: Game | None = None) -> LogCheck:
    """Where every ruling of the ledger belongs, seen from the files sent (one, or a game's chain
    in order): shown, hidden from the file it belongs in, a re-roll, or elsewhere."""
    header = document["game"]
    result = LogCheck(header["id"], files=readings)
    records = [r for r in document["records"] if _is_ruling(r)]
    sessions = SessionMap.of(records)
    shown = set().union(*(f.shown for f in readings)) if readings else set()
    placed_files = [FileSession(f.session, f.chain, f.start, f.side, f.live) for f in readings if f.session]
    result.breaks = chain_breaks(readings)
    in_chain = {None, *(f.id for f in placed_files)}.union(*(f.chain for f in placed_files))
    for record in records:
        if record["seq"] in shown and _session_id(record) in in_chain:
            continue  # shown, and of a file sent or one before it: nothing more to say
        placement = place(record, sessions, placed_files) if placed_files else None
        if record["seq"] in shown:
            # in live play a partner's log shows what another player re-rolled: still a re-roll
            if placement is not None and placement.kind == REROLL:
                result.rerolls.append(_summary(record, f"{placement.why.replace(' and is in no file sent', '')}, "
                                                       "though a partner's log shows it"))
            continue
        if placement is None:  # files that name no log session: every ruling they do not show is hidden
            result.hidden.append(_summary(record, "not shown in the file"))
        elif placement.kind == THIS_FILE:
            result.hidden.append(_summary(record, placement.why))
        elif placement.kind == REROLL:
            result.rerolls.append(_summary(record, placement.why))
        elif placement.kind == OUTSIDE and len(readings) > 1:
            result.hidden.append(_summary(record, f"{placement.why}, and shown in no file of the chain"))
        elif placement.kind in (EARLIER, LIVE) and len(readings) > 1:
            result.missing_files.append(_summary(record, _missing_words(record, placement, sessions)))
        elif placement.kind == LIVE:
            result.elsewhere.append(_summary(record, _live_elsewhere_words(record, placement, readings[0], sessions)))
        else:
            result.elsewhere.append(_summary(record, placement.why))
    if game is not None:
        result.owed = judge_owed(game, readings, records, sessions)
        by_seq = {r["seq"]: r for r in records}
        named = {r["seq"] for r in result.rerolls}  # a re-roll the log sessions already name is named once
        result.rerolls += rewound_rulings(game, readings, by_seq, named)
    report = verify_ledger(document, keys)
    result.ledger_ok = report.ok
    result.ledger_problems = [f.message for f in report.problems]
    return result


def rewound_rulings(game: Game, readings: list[FileReading], records: dict[int, dict[str, Any]], named: set[int]
                    ) -> list[dict[str, Any]]:
    """The rulings the files show that were asked after the game was taken back over a ruling made
    (`adjudicator.logs.history`), each a re-roll in words; the ruling's verdict says so too. Those
    whose rewound rulings are all `named` re-rolls already (by their log sessions) are left out."""
    rewinds = [r for r in find_rewinds([f.history for f in readings], records)
               if not set(r.rewound) <= named and not _last_still_shown(game, r, readings, records)]
    out = []
    for rewind in rewinds:
        why = _rewind_words(rewind, readings)
        entry = _summary(records[rewind.seq], why)
        entry.update({"rewound": list(rewind.rewound), "rewound_in": [_shown_in(s, readings) for s in rewind.rewound],
                      "file": rewind.file + 1, "shown": True})
        out.append(entry)
        for ruling in readings[rewind.file].rulings:
            if ruling.seq == rewind.seq and ruling.status in (VERIFIED, NOT_APPLIED, ALTERED):
                ruling.rewind = why
    return out


def _last_still_shown(game: Game, rewind: Rewind, readings: list[FileReading], records: dict[int, dict[str, Any]]
                      ) -> bool:
    """Whether the board the ruling was asked on still shows what the last ruling it would take back
    ordered (the asker's own changes): then the position came back by a later ruling's changes (a
    step lost, then restored), not by going back in time, which takes every later ruling back too."""
    last = max(rewind.rewound)
    before = next((f.history.units_at[last] for f in readings if f.history and last in f.history.units_at), None)
    now = readings[rewind.file].history.units_at.get(rewind.seq) if readings[rewind.file].history else None
    if before is None or now is None:
        return False
    asker = records[last]["body"].get("side") or ""
    mine = [o for o in ordered_changes(game, board_changes(records[last], game.id), before)
            if o.change.applied_by in ("", asker)]
    return bool(mine) and all(reached(game, change, now) for change in mine)


def _file_label(readings: list[FileReading], number: int) -> str:
    name = echo(readings[number].name)
    return name or ("this file" if len(readings) == 1 else f"file {number + 1}")


def _shown_in(seq: int, readings: list[FileReading]) -> str:
    number = next(n for n, f in enumerate(readings) if seq in f.shown)
    return _file_label(readings, number)


def _rewind_words(rewind: Rewind, readings: list[FileReading]) -> str:
    """A rewind in words: which file went back where, over which rulings, shown in which file."""
    file = _file_label(readings, rewind.file)
    rulings = ", ".join(f"#{seq} (in {_shown_in(seq, readings)})" for seq in rewind.rewound)
    plural = "s" if len(rewind.rewound) > 1 else ""
    if rewind.how == BEGINS:
        return (f"re-roll: {file} begins from a position the game had before record{plural} {rulings} was made "
                "(a save or an autosave taken before it, loaded again), and asks again")
    if rewind.how == RETURNS:
        return (f"re-roll: {file} goes back to a position the game had before record{plural} {rulings} was made "
                "(VASSAL's Undo, or the pieces put back), and asks again")
    (seq,) = rewind.rewound
    return (f"re-roll: the same situation as record #{seq} (in {_shown_in(seq, readings)}), asked again from the "
            f"position it was asked at: {file} comes back to it (a save loaded again, or Undo) with no ruling between")


def _missing_words(record: dict[str, Any], placement, sessions: SessionMap) -> str:
    """Why a ruling is held against a file not sent, and which file to add."""
    sid = _session_id(record) or ""
    which = session_words(sid, sessions)
    if placement.kind == EARLIER:
        return f"{placement.why}: that file is not among those sent; add {which} to them, in its place in the chain"
    return (f"{placement.why}: his log is not among those sent, and no file sent shows it; add {which} "
            "to the files sent")


def _live_elsewhere_words(record: dict[str, Any], placement, reading: FileReading, sessions: SessionMap) -> str:
    """A ruling of the sitting this one file does not show: in the same player's other log of the
    sitting (send both), or in the partner's, posted while this player's connection was down."""
    side = record["body"].get("side")
    which = session_words(_session_id(record) or "", sessions)
    if side and side == reading.side:
        return (f"{placement.why}; this file does not show it: it is in this player's other log of the sitting "
                f"({which}); send both files, in the order they were begun, to check them together")
    who = f"the {side_label(side)} player's" if side else "the other player's"
    return (f"{placement.why}; this file does not show it (posted while this player's room connection was down?): "
            f"send {who} log of the sitting ({which}) with this one to check it")


def judge_owed(game: Game, readings: list[FileReading], records: list[dict[str, Any]],
               sessions: SessionMap) -> list[dict[str, Any]]:
    """What became of each change only the opponent can make: applied in his next file of those
    sent (or already where the asker applied it, the piece revealed), not applied there, or
    pending (his next file is not among those sent)."""
    out: list[dict[str, Any]] = []
    shown = {r.seq for f in readings for r in f.rulings if r.status in (VERIFIED, NOT_APPLIED)}
    settled = _settled_by(records)
    for number, reading in enumerate(readings):
        for seq, owed in reading.owed:
            out.append(_owed_verdict(game, readings, number, seq, owed))
        out += [_choice_verdict(readings, number, seq, choice, settled.get(seq)) for seq, choice in reading.choices]
    for record in records:  # rulings of files not sent, owed by the side of a file that was
        if record["seq"] in shown:
            continue
        changes = board_changes(record, game.id)
        for number, reading in enumerate(readings):
            if reading.side is None or reading.session is None:
                continue
            for choice in _choices_owed(changes, record["body"].get("side") or ""):
                if choice.applied_by == reading.side and _next_file_of_owner(reading, record, sessions, readings[:number]):
                    out.append(_choice_entry(record["seq"], choice, reading, number, settled.get(record["seq"])))
            for change in changes:
                if not checked_actions(change) or change.applied_by != reading.side \
                        or change.applied_by == record["body"].get("side") or change.unit not in reading.start_units \
                        or not _next_file_of_owner(reading, record, sessions, readings[:number]):
                    continue
                owed = OrderedChange(change, reading.start_units.get(change.unit, Shown()), checked_actions(change))
                out.append(_owed_entry(record["seq"], owed, reading, number,
                                       OWED_APPLIED if reading.ever_reached(game, owed) else NOT_APPLIED))
    return out


def _owed_verdict(game: Game, readings: list[FileReading], number: int, seq: int, owed: OrderedChange
                  ) -> dict[str, Any]:
    owner = owed.change.applied_by
    if readings[number].ever_reached(game, owed, after_seq=seq):  # live: the owner applied it at the board
        entry = _owed_entry(seq, owed, readings[number], number, OWED_APPLIED)
        entry["why"] = echo(f"{owed.describe()}: applied by the {side_label(owner)} player at the board (live play), "
                            "as this file shows")
        return entry
    for later in range(number + 1, len(readings)):
        reading = readings[later]
        if reading.side == owner:
            return _owed_entry(seq, owed, reading, later,
                               OWED_APPLIED if reading.ever_reached(game, owed) else NOT_APPLIED)
    entry = _owed_entry(seq, owed, readings[number], number, OWED_PENDING)
    entry["why"] = echo(f"{owed.describe()}: to be applied by the {side_label(owner)} player in his next file")
    return entry


def _settled_by(records: list[dict[str, Any]]) -> dict[int, int]:
    """record -> the first later record that settles the choice it left open (`settled_choices`)."""
    out: dict[int, int] = {}
    for record in records:
        body = record["body"]
        for seq in settled_choices(body.get("request"), ((body.get("result") or {}).get("outcome"))):
            if seq < record["seq"]:
                out.setdefault(seq, record["seq"])
    return out


def _choice_verdict(readings: list[FileReading], number: int, seq: int, choice: UnitChange, settled: int | None
                    ) -> dict[str, Any]:
    """What became of a choice a ruling of file `number` left to the opponent: made (a file from
    this one on shows the ruling that settles it: live play, or his next file), missing from his next
    file, or pending (his next file is not among those sent)."""
    owner = choice.applied_by
    for later in range(number, len(readings)):
        reading = readings[later]
        if settled is not None and settled in reading.shown:
            return _choice_entry(seq, choice, reading, later, settled)
        if later > number and reading.side == owner:
            return _choice_entry(seq, choice, reading, later, None)
    entry = _choice_entry(seq, choice, readings[number], number, None)
    entry.update(status=OWED_PENDING, why=echo(f"{choice_words(seq, choice)}: to be made by the {side_label(owner)} "
                                               "player in his next file"))
    return entry


def _choice_entry(seq: int, choice: UnitChange, reading: FileReading, number: int, settled: int | None
                  ) -> dict[str, Any]:
    """An owed choice's entry: made when `reading` shows the ruling that settles it, else not made."""
    file = reading.name or f"file {number + 1}"
    made = settled is not None and settled in reading.shown
    who = side_label(choice.applied_by)
    why = (f"{choice_words(seq, choice)}: made by the {who} player with record #{settled} in {file}" if made
           else f"{choice_words(seq, choice)}: the {who} player's next file ({file}) does not make it")
    return {"seq": seq, "unit": choice.unit, "kind": choice.kind, "owner": choice.applied_by, "file": number + 1,
            "status": OWED_APPLIED if made else NOT_APPLIED, "why": echo(why)}


def _owed_entry(seq: int, owed: OrderedChange, reading: FileReading, number: int, status: str) -> dict[str, Any]:
    who = side_label(owed.change.applied_by)
    file = reading.name or f"file {number + 1}"
    why = {OWED_APPLIED: f"{owed.describe()}: applied by the {who} player in {file}",
           NOT_APPLIED: f"{owed.describe()}: the {who} player's next file ({file}) does not show it"}.get(status, "")
    return {"seq": seq, "unit": owed.unit, "kind": owed.change.kind, "owner": owed.change.applied_by,
            "file": number + 1, "status": status, "why": echo(why)}


def _next_file_of_owner(reading: FileReading, record: dict[str, Any], sessions: SessionMap,
                        before: list[FileReading]) -> bool:
    """Whether `reading` is its side's first file after the log session `record` was asked in:
    that session is in its chain, and no session after it in the chain, nor a file sent before
    it, is that side's."""
    session = record["body"].get("session")
    sid = session.get("id") if isinstance(session, dict) else None
    if not sid or sid not in reading.chain:
        return False
    after = reading.chain[reading.chain.index(sid) + 1:]
    if any(sessions.sessions.get(s) and sessions.sessions[s].side == reading.side for s in after):
        return False
    return not any(f.side == reading.side and f.session in after for f in before)


def check_log(saved: SavedGame, game: Game | None, document: dict[str, Any], keys, name: str = "") -> LogCheck:
    """One log against the ledger (`check_logs` with one file)."""
    return check_logs([(name, saved)], game, document, keys)


def check_logs(files: list[tuple[str, SavedGame]], game: Game | None, document: dict[str, Any], keys,
               budget: Budget | None = None, read: list[Events | None] | None = None) -> LogCheck:
    """A log, or a game's chain of logs in order, against the ledger `document` (within the
    request's `budget`, looked at before each file). `read`: each file's `log_events` where they
    were read already (the replay reads them as it walks the files), else None."""
    records = {r["seq"]: r for r in document["records"]}
    sessions = SessionMap.of([r for r in document["records"] if _is_ruling(r)])
    readings = []
    for number, (name, saved) in enumerate(files):
        if budget is not None:
            budget.check(f"checking {name or 'the log'} against the ledger")
        events = read[number] if read is not None else None
        readings.append(read_file(name, saved, game, document["game"], records, sessions, events))
    return judge_files(document, readings, keys, game)


def in_players_words(check: LogCheck, words: Callable[[str, int | None], str]) -> LogCheck:
    """The verdict's own sentences (why each ruling stands as it does, where the others belong, what
    is owed) as the viewer may read them (`verdict_words`: each with the ruling it is about, None for
    none); what it quotes of the log (a ruling's first line, an altered line) stays as the log has it.
    The JSON's fields (seq, unit) keep their ids for programs."""
    for reading in check.files:
        reading.rulings = [r if r.status == ALTERED else replace(r, why=words(r.why, r.seq)) for r in reading.rulings]
    for listed in (check.hidden, check.rerolls, check.elsewhere, check.missing_files, check.owed):
        for item in listed:
            if isinstance(item.get("why"), str):
                item["why"] = words(item["why"], item.get("seq") if isinstance(item.get("seq"), int) else None)
    check.breaks = [words(text, None) for text in check.breaks]
    return check


def verdict_words(system: str, document: dict[str, Any], viewer: str | None) -> Callable[[str, int | None], str]:
    """How a verdict's sentence about ruling `seq` reads to `viewer` (a side; None: an observer), as
    that ruling's page shows it (`adjudicator.fog.reveal`): a unit the fog of war hides from him by its
    side ("a UN block") unless the ruling names it in the clear (the rules revealed it: a combat's
    combatants), every other unit as its counter reads; every unit so once the game is closed."""
    names = UnitNames.of(system)
    fog = fog_of(system)
    if fog is None or document["game"].get("status") == "closed":
        return lambda text, seq: names.text(text)
    shown = {r["seq"]: named_units(fog, [r["body"].get("request"), (r["body"].get("result") or {}).get("outcome")])
             for r in document["records"] if isinstance(r.get("body"), dict)}
    return lambda text, seq: names.text(redact(system, text, viewer, shown.get(seq, frozenset())))


def _advance(events: list[LogEvent], done: int, upto: int, units_now: dict[str, Shown]) -> int:
    """Apply the piece events before index `upto` to `units_now`; returns the new count done."""
    for event in events[done:upto]:
        if event.piece is not None:
            units_now[event.piece.unit] = event.piece.shown
    return max(done, upto)


def check_log_of_game(game_id: str, data: bytes | list[tuple[str, bytes]], *, viewer: str | None) -> LogCheck:
    """`check_logs` for a game's current ledger: one file's bytes, or (name, bytes) of each file of a
    chain in order, its verdicts' sentences as `viewer` (the asking side; None: an observer) may read
    them (`verdict_words`: a unit the fog of war hides from him by its side, "a UN block", as the
    ruling pages show it); the JSON's fields keep the ids. Problems for an unknown
    game or a file that is none."""
    svc = services()
    try:
        header = svc.store.game(game_id)
        document = ledger_document(header, svc.store.records(game_id))
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    files = [("", data)] if isinstance(data, bytes) else data
    if len(files) > MAX_CHAIN_FILES:
        raise Problem(413, "Too many files", f"At most {MAX_CHAIN_FILES} files are checked at once.",
                      kind="too-many-files")
    budget = Budget()  # one for the whole request, however many files it sends
    try:
        saved = [(name, read_upload(content, budget=budget, keep_commands=True)) for name, content in files]
        game = load_system_game(header["system"])
        return in_players_words(check_logs(saved, game, document, svc.verification_keys(), budget),
                                verdict_words(header["system"], document, viewer))
    except BridgeError as error:
        raise problem_from(error) from None
    except SessionLineError as error:
        raise Problem(422, "The log's session line cannot be read", str(error), kind="bad-session-line") from None
