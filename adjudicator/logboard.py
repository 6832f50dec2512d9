"""What a log did to the board, in order: its chat lines, and each unit's step as it changed.

A ruling is more than its chat lines: "nk-8 depleted" is a flip of the counter, and a player who
keeps the lines but not the flip plays on with a unit the server weakened. The log check
(`adjudicator.logcheck`) reads a log as a list of `LogEvent`s — a chat text, or a unit piece
shown at another step or removed — and `applied_changes` tells, for one ruling, whether the
pieces show what it ordered before the next ruling (the web write-back writes them right after
the ruling's lines; a player applying them by hand does the same a little later).

Units are known by the properties the generated modules give every unit piece (`UnitId`, and the
Step layer), as the saved-game reader knows them (`adjudicator.bridge.identify`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.bridge.identify import NameIndex, identify
from adjudicator.unit_changes import named_units
from scenarios.model import Game
from vassalfmt import SavedGame, VassalFormatError, parse_piece
from vassalfmt.commands import CHAT_PREFIX, AddPiece, ChangePiece, OtherCommand, RemovePiece, parse_command, split_commands

#: A unit's step in the log: its name ("" = the first, full strength), or None when removed.
Step = str | None


@dataclass(frozen=True)
class PieceEvent:
    """A unit's piece shown at another step (`step`), or removed (`step` None)."""

    unit: str
    step: Step


@dataclass(frozen=True)
class LogEvent:
    """One thing of a log, in order: a chat text, or a unit's piece changing."""

    chat: str | None = None
    piece: PieceEvent | None = None


@dataclass(frozen=True)
class OrderedChange:
    """A change a ruling orders: `unit` to show `step` (None: removed), and what it showed before."""

    unit: str
    step: Step
    before: Step

    def describe(self) -> str:
        return f"{self.unit} removed" if self.step is None else f"{self.unit} to show {self.step or 'full strength'}"


def log_events(saved: SavedGame, game: Game) -> tuple[list[LogEvent], dict[str, Step]]:
    """The log's chat texts and unit-piece changes in order, and every unit's step at the start.

    Pieces added while the log runs count from then on; a piece that is not a unit is skipped."""
    names = NameIndex(game)
    units: dict[str, tuple[str, Step, str]] = {}  # piece id -> (unit, step shown, piece type)
    start: dict[str, Step] = {}
    events: list[LogEvent] = []
    started = False
    for leaf in split_commands(saved.command_text):
        started = started or leaf.logged
        try:
            command = parse_command(leaf.text)
        except VassalFormatError:
            continue
        if isinstance(command, OtherCommand):
            if command.text.startswith(CHAT_PREFIX):
                events.append(LogEvent(chat=command.text[len(CHAT_PREFIX):]))
            continue
        if isinstance(command, AddPiece) and command.piece_id:
            shown = _unit_step(game, names, command.type, command.state)
            if shown is not None:
                units[command.piece_id] = (*shown, command.type)
                if not started:
                    start[shown[0]] = shown[1]
        elif isinstance(command, ChangePiece) and command.piece_id in units:
            unit, before, type_ = units[command.piece_id]
            shown = _unit_step(game, names, type_, command.new_state)
            step = shown[1] if shown else before
            units[command.piece_id] = (unit, step, type_)
            if step != before:
                events.append(LogEvent(piece=PieceEvent(unit, step)))
        elif isinstance(command, RemovePiece) and command.piece_id in units:
            unit, _, _ = units.pop(command.piece_id)
            events.append(LogEvent(piece=PieceEvent(unit, None)))
    return events, start


def _unit_step(game: Game, names: NameIndex, type_: str, state: str) -> tuple[str, Step] | None:
    try:
        piece = parse_piece(type_, state)
    except VassalFormatError:
        return None
    identity = identify(game, piece, names)
    if identity.unit is None:
        return None
    steps = identity.unit.steps
    index = identity.step_index if identity.step_index is not None else 0
    return identity.unit.id, steps[index].name if 0 <= index < len(steps) else ""


def ordered_changes(game: Game, outcome: dict[str, Any], steps_now: dict[str, Step]) -> list[OrderedChange]:
    """The changes a ruling's outcome orders to units on the board (`steps_now`: unit -> step).

    Read the way the write-back reads an outcome (`adjudicator.unit_changes.named_units`); a unit already showing the
    step, or not on the board, needs nothing."""
    out: dict[str, OrderedChange] = {}
    for unit_id, step, sp in named_units(outcome):
        if unit_id not in steps_now or steps_now[unit_id] is None:
            continue
        unit = game.units.get(unit_id)
        if unit is None:
            continue
        target: Step
        if step is None and sp is None:
            target = None
        elif sp is not None:
            target = next((s.name for s in unit.steps if s.values.get("sp") == sp), None)
            if target is None:
                continue
        else:
            target = unit.steps[0].name if step == "" and unit.steps else step
            if target not in {s.name for s in unit.steps}:
                continue
        if target != steps_now[unit_id]:
            out[unit_id] = OrderedChange(unit_id, target, steps_now[unit_id])
    return list(out.values())


def missing_changes(ordered: list[OrderedChange], window: list[PieceEvent]) -> list[str]:
    """What of `ordered` the pieces do not show at the end of `window` (the log after the ruling,
    up to the next ruling), in words; empty when every ordered change was applied."""
    last: dict[str, Step] = {}
    for event in window:
        last[event.unit] = event.step
    missing = []
    for change in ordered:
        if change.unit not in last:
            missing.append(f"{change.describe()}: the log does not show it")
        elif last[change.unit] != change.step:
            shown = "removed" if last[change.unit] is None else f"showing {last[change.unit] or 'full strength'}"
            missing.append(f"{change.describe()}: the log has it {shown}")
    return missing
