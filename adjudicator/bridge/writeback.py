"""A ruling back into VASSAL: a ``.vlog`` that continues the uploaded game.

The log's new step replays the ruling as chat lines — the transcript the Adjudicator extension
posts (:func:`adjudicator.transcript.chat_lines`), so a log written here and one recorded in
VASSAL read the same and verify the same way — and applies the result to the pieces where it
names them unambiguously: a unit the outcome names as eliminated is removed, a unit named with a step shows that step, a
block named with an SP shows the step with that SP, a placeholder revealed (KWB's '? 4' Scratch Units) gives its
spot to the counter it turned out to be, moved there from its box, and leaves the board
(:mod:`adjudicator.unit_changes` reads the outcome, as the VASSAL extension's "apply to the board" does).

A unit that is not on the board exactly once is left alone (the chat line still says what
happened). Everything else a ruling decides (retreats, markers, new units) stays for the players
to move, as they would after a die roll at the table.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from adjudicator.bridge.identify import step_layer
from adjudicator.bridge.positions import Positions
from adjudicator.unit_changes import named_units, revealed_changes
from vassalfmt import SavedGame, continue_log
from vassalfmt.commands import ChangePiece, MovePiece, RemovePiece, chat_command


@dataclass(frozen=True)
class PieceChange:
    """One change the ruling makes to a piece: a new step, removal (step None), or (a placeholder
    revealed) removal after the counter `revealed_by` (its piece id) is moved onto its spot."""

    unit: str
    piece_id: str
    step: str | None  # None: removed
    revealed_by: str = ""  # the piece id of the counter that takes this placeholder's spot

    def describe(self) -> str:
        if self.revealed_by:
            return f"{self.unit}: turned face up"
        return f"{self.unit}: removed" if self.step is None else f"{self.unit}: shows {self.step or 'full'}"


def piece_changes(positions: Positions, outcome: dict[str, Any]) -> list[PieceChange]:
    """The changes a result makes to the pieces of `positions`, where it names them unambiguously;
    placeholders revealed first, so a change to the counter that takes a spot (a Dummy eliminated)
    comes after it is placed."""
    on_board: dict[str, list] = {}
    for placed in positions.units:
        on_board.setdefault(placed.unit.id, []).append(placed)
    changes: dict[str, PieceChange] = {}
    for reveal in revealed_changes(outcome):
        pieces, counters = on_board.get(reveal.unit, []), on_board.get(reveal.revealed_as, [])
        if len(pieces) == 1 and len(counters) == 1:
            changes[reveal.unit] = PieceChange(reveal.unit, pieces[0].piece_id, None, counters[0].piece_id)
    for unit_id, step, sp in named_units(outcome):
        if unit_id in changes and changes[unit_id].revealed_by:
            continue
        pieces = on_board.get(unit_id, [])
        if len(pieces) != 1:
            continue
        placed = pieces[0]
        if step is None and sp is None:
            changes[unit_id] = PieceChange(unit_id, placed.piece_id, None)
            continue
        names = [s.name for s in placed.unit.steps]
        if sp is not None:
            step = next((s.name for s in placed.unit.steps if s.values.get("sp") == sp), None)
        elif step == "" and names:
            step = names[0]
        if step in names and step != placed.step:
            changes[unit_id] = PieceChange(unit_id, placed.piece_id, step)
    return list(changes.values())


def change_commands(saved: SavedGame, positions: Positions, changes: list[PieceChange]) -> list[str]:
    """VASSAL commands for `changes`: a piece state with its Step layer at the new level, or a
    removal. A piece without a Step layer is left alone."""
    pieces = saved.by_id()
    units = {u.piece_id: u.unit for u in positions.units}
    commands = []
    for change in changes:
        if change.revealed_by:
            spot, counter = pieces[change.piece_id], pieces[change.revealed_by]
            commands.append(MovePiece(change.revealed_by, spot.map_id, spot.x, spot.y, None,
                                      counter.map_id, counter.x, counter.y, None).encode())
        if change.step is None:
            commands.append(RemovePiece(change.piece_id).encode())
            continue
        piece = copy.deepcopy(pieces[change.piece_id].piece)
        layer = step_layer(piece)
        if layer is None:
            continue
        old_state = pieces[change.piece_id].piece.state_string()
        level = [s.name for s in units[change.piece_id].steps].index(change.step) + 1
        layer.level = level if layer.level >= 0 else -level
        commands.append(ChangePiece(change.piece_id, piece.state_string(), old_state).encode())
    return commands


def ruling_log(data: bytes, saved: SavedGame, positions: Positions, lines: list[str],
               changes: list[PieceChange]) -> bytes:
    """The uploaded file continued by the ruling: its chat lines, then its piece changes, one log
    step each."""
    commands = [chat_command(line) for line in lines] + change_commands(saved, positions, changes)
    return continue_log(data, commands)
