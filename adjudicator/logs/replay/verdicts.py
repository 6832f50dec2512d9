"""Each ruling of a replay at the step where it happened, with its verdict against the ledger.

The log check (`adjudicator.logs.check.check_logs`) judges every ruling a file's chat shows —
verified, altered, forged, not applied, another game's, computed — and lists the ledger's rulings
the files do not show (hidden, re-rolls). This module puts those verdicts where they belong in the
replay's steps: a shown ruling at the step of its last line; a hidden one at its own step between
the shown rulings recorded before and after it (by record number, which is the ledger's order of
time), or at the end when none was recorded after it. With no recorded game (a calculation's
replay) nothing is judged: a recorded tag is shown "unverified", a computed ruling as computed.

It also marks the units' changes after each verified ruling (a step, a trip to the dead pile, a
replacement placed): the change the ruling ordered, or one no ruling of the log ordered
(`adjudicator.logs.board.ordered_changes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from adjudicator.ledger.records import Record
from adjudicator.logs.board import OrderedChange, Shown, ordered_changes, reached
from adjudicator.logs.check import ALTERED, NOT_APPLIED, VERIFIED, LogCheck, LogRuling, board_changes
from adjudicator.logs.replay.timeline import RULING, LogStep, Timeline
from adjudicator.rulings import recorded_response
from adjudicator.logs.transcript import TranscriptEntry, comparable_lines
from adjudicator.words.names import UnitNames
from adjudicator.words.transcript import RULING_MARK
from scenarios.model import Game

HIDDEN, REROLL, UNVERIFIED, UNRECORDED = "hidden", "re-roll", "unverified", "unrecorded"
#: Verdicts that say the log is not what the ledger recorded.
BAD = ("altered", "forged", NOT_APPLIED, HIDDEN, REROLL, "other-game")


@dataclass
class RulingView:
    """One ruling as the replay shows it."""

    status: str
    step: int
    seq: int | None = None
    game_id: str | None = None
    lines: list[str] = field(default_factory=list)  # as the log shows them (tags stripped)
    why: str = ""
    ledger_lines: list[str] = field(default_factory=list)  # what the ledger says, when they differ
    receipt: str = ""
    hash: str = ""
    check: str = ""
    side: str = ""
    time: str = ""
    notices: list[str] = field(default_factory=list)  # the record's notices, as everyone may read them

    @property
    def headline(self) -> str:
        """The ruling in one line: what was asked, and its outcome."""
        lines = self.lines or self.ledger_lines
        head = lines[0] if lines else (f"{self.check} for {self.side}" if self.check else "a ruling")
        head = head.removeprefix(RULING_MARK)  # the sentence, as the ruling's page and the ledger read it
        outcome = [line[2:] for line in lines if line.startswith("= ")]
        return head + (": " + "; ".join(outcome) if outcome else "")

    def to_json(self) -> dict[str, Any]:
        out = {"status": self.status, "step": self.step, "seq": self.seq, "game_id": self.game_id,
               "headline": self.headline, "lines": self.lines, "why": self.why, "receipt": self.receipt,
               "hash": self.hash, "check": self.check, "side": self.side, "time": self.time}
        if self.ledger_lines:
            out["ledger_lines"] = self.ledger_lines
        if self.notices:
            out["notices"] = self.notices
        return out


def place_rulings(timeline: Timeline, game: Game | None, check: LogCheck | None, records: dict[int, dict],
                  system_name: str, redact: Callable[[str], str], labels: Callable[[int, LogStep], str | None]
                  ) -> list[RulingView]:
    """Every ruling of the replay, in the order of its steps; the steps get their indexes (and the
    hidden rulings steps of their own)."""
    rulings: list[RulingView] = []
    # the verdicts' own sentences: redacted for the viewer (by ids), then units as their counters read
    said = (lambda text: UnitNames.of(game.id).text(redact(text))) if game is not None else redact
    for number, files in enumerate(timeline.files):
        judged = check.files[number].rulings if check is not None and number < len(check.files) else None
        if judged is not None and len(judged) != len(files.entries):
            judged = None  # not the same reading of the chat: show them unjudged rather than misplaced
        for index, (entry, at) in enumerate(zip(files.entries, files.entry_steps)):
            view = _shown(entry, at, judged[index] if judged else None, check is not None, records,
                          system_name, redact, said)
            rulings.append(view)
    if check is not None:
        rulings = _with_unshown(timeline, rulings, check, records, system_name, redact, said)
    for index, ruling in enumerate(rulings):
        step = timeline.steps[ruling.step]
        step.rulings.append(index)
        step.kind = RULING if step.kind not in (HIDDEN, REROLL) else step.kind
    if game is not None:
        _mark_ordered(timeline, game, rulings, records, labels)
    return rulings


def _shown(entry: TranscriptEntry, at: int, judged: LogRuling | None, recorded_game: bool,
           records: dict[int, dict], system_name: str, redact: Callable[[str], str],
           said: Callable[[str], str]) -> RulingView:
    lines = [redact(line) for line in entry.lines]
    receipt = next((line for line in lines if line.startswith("receipt: ")), "")
    view = RulingView(UNRECORDED if not entry.recorded else UNVERIFIED, at, entry.seq, entry.game_id, lines,
                      receipt=receipt)
    if judged is None:
        view.why = ("computed from the players' own dice: nothing recorded" if not entry.recorded else
                    f"recorded in game {entry.game_id}; not checked here: replay it on that game's page"
                    if not recorded_game else "not judged")
        return view
    view.status, view.why = judged.status, (redact if judged.status == ALTERED else said)(judged.why)
    if judged.rewind:  # asked again after the game was taken back over a ruling: a re-roll, shown where it was asked
        view.status, view.why = REROLL, said(judged.rewind)
    view.notices = [redact(text) for text in judged.notices]
    record = records.get(entry.seq) if judged.status != "other-game" else None
    if record is not None:
        _fill_from_record(view, record)
        if judged.status == ALTERED:
            view.ledger_lines = [redact(line) for line in _ledger_lines(record, entry.game_id, system_name)]
    return view


def _fill_from_record(view: RulingView, record: dict) -> None:
    body = record.get("body") or {}
    view.check, view.side, view.time = body.get("check", ""), body.get("side") or "", body.get("time", "")
    if view.status in (VERIFIED, NOT_APPLIED, ALTERED, HIDDEN, REROLL):
        view.hash = record.get("hash", "")


def _ledger_lines(record: dict, game_id: str, system_name: str) -> list[str]:
    """The ruling's lines as the ledger renders them (what the log must show)."""
    response = recorded_response(Record(game_id, record["seq"], record["prev_hash"], record["hash"],
                                        record["body"], record["receipt"]))
    return comparable_lines(response, system_name=system_name)


def _with_unshown(timeline: Timeline, rulings: list[RulingView], check: LogCheck, records: dict[int, dict],
                  system_name: str, redact: Callable[[str], str], said: Callable[[str], str]) -> list[RulingView]:
    """The rulings with the hidden ones and the re-rolls each at a step of its own, inserted
    between the shown rulings recorded before and after it (or at the end)."""
    shown = sorted((r.seq, r.step) for r in rulings if r.seq is not None and r.game_id == check.game_id
                   and (r.status in (VERIFIED, NOT_APPLIED, ALTERED) or r.status == REROLL and r.lines))
    inserts: list[tuple[int, RulingView, int | None, int | None]] = []  # (before index, ruling, prev, next)
    for status, summaries in ((HIDDEN, check.hidden), (REROLL, check.rerolls)):
        for summary in summaries:
            if summary.get("shown"):
                continue  # a re-roll the log shows (a rewind) stands at its own step already
            seq = summary["seq"]
            before = max((s for s in shown if s[0] < seq), default=None)
            after = min((s for s in shown if s[0] > seq), default=None)
            position = len(timeline.steps) if after is None else (before[1] + 1 if before else after[1])
            record = records.get(seq) or {}
            view = RulingView(status, -1, seq, check.game_id, why=said(summary.get("why", "")))
            if record:
                _fill_from_record(view, record)
                view.ledger_lines = [redact(line) for line in _ledger_lines(record, check.game_id, system_name)]
                view.receipt = next((line for line in view.ledger_lines if line.startswith("receipt: ")), "")
            inserts.append((position, view, before[1] if before else None, after[1] if after else None))
    if not inserts:
        return rulings
    inserts.sort(key=lambda item: (item[0], item[1].seq or 0))
    old_steps = timeline.steps
    new_index: dict[int, int] = {}
    steps: list[LogStep] = []
    pending = list(inserts)
    placed: list[tuple[RulingView, int | None, int | None]] = []
    for index, step in enumerate(old_steps + [None]):
        while pending and pending[0][0] == index:
            _, view, before, after = pending.pop(0)
            file_of = old_steps[min(index, len(old_steps) - 1)].file if old_steps else 0
            view.step = len(steps)
            steps.append(LogStep(file_of, view.status))
            placed.append((view, before, after))
        if step is not None:
            new_index[index] = len(steps)
            steps.append(step)
    timeline.steps[:] = steps
    for files in timeline.files:
        files.first_step = new_index[files.first_step]
        files.entry_steps = [new_index[i] for i in files.entry_steps]
    for ruling in rulings:
        ruling.step = new_index[ruling.step]
    for view, before, after in placed:
        where = (f"between step {new_index[before]} and step {new_index[after]}" if before is not None and after is not None
                 else f"before step {new_index[after]}" if after is not None
                 else f"after step {new_index[before]} (the last ruling the log shows)" if before is not None
                 else "at a point the log cannot tell (it shows no ruling of the game)")
        shown = "the log never shows it" + (f" ({view.why})" if view.why else "")
        view.why = f"{shown}; recorded {where}" + (f", at {view.time}" if view.time else "")
    return sorted(rulings + [p[0] for p in placed], key=lambda r: (r.step, r.seq or 0))


def _mark_ordered(timeline: Timeline, game: Game, rulings: list[RulingView], records: dict[int, dict],
                  labels: Callable[[int, LogStep], str | None]) -> None:
    """Notes on the units' step changes: ordered by the verified ruling before them, or by none."""
    by_step = {r.step: r for r in rulings if (r.status in (VERIFIED, NOT_APPLIED) or r.status == REROLL and r.lines)
               and r.seq in records}
    units: dict[str, Shown] = {}
    ordered: dict[str, OrderedChange] = {}  # unit (the changed one, or a replacement) -> the change
    source: RulingView | None = None
    current_file = -1
    for index, step in enumerate(timeline.steps):
        if step.file != current_file and index == timeline.files[step.file].first_step:
            current_file = step.file
            units = dict(timeline.files[step.file].start_units)
            ordered, source = {}, None
        for event in step.unit_events:
            units[event.unit] = event.shown
            label = labels(event.piece, step)
            if label is None:
                continue  # a change the viewer does not see
            change = ordered.get(event.unit)
            if change is not None and source is not None and reached(game, change, units):
                step.marks.append(f"{label}: as ruling #{source.seq} ordered")
            elif change is not None:
                step.marks.append(f"{label}: part of what ruling #{source.seq} ordered")
            else:
                step.marks.append(f"{label}: no ruling of this log ordered this change")
        if step.rulings:
            ruling = by_step.get(index)
            if ruling is not None:
                changes = ordered_changes(game, board_changes(records[ruling.seq], game.id), units)
                ordered = {unit: c for c in changes for unit in (c.unit, *(p.unit for p in c.change.replacements))}
                source = ruling
            elif any(r.status not in (HIDDEN, REROLL) for r in (rulings[i] for i in step.rulings)):
                ordered, source = {}, None
