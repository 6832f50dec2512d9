"""A ruling back into VASSAL: a ``.vlog`` that continues the uploaded game.

The log's new step replays the ruling as chat lines — the transcript the Adjudicator extension
posts (:func:`adjudicator.words.transcript.chat_lines`), so a log written here and one recorded in
VASSAL read the same and verify the same way — and makes the piece actions each change of the
ruling was resolved into (:mod:`adjudicator.unit_changes`, :mod:`adjudicator.piece_actions`: the
step names are looked up there, once) as the module's own commands do, where it finds the pieces
(a change on the piece standing on a hex, a counter placed from those lying off the hex maps):

* a step: the piece's Step layer at that step (Step loss / Restore step; a block's SP is the step
  showing it);
* an elimination: the piece moved to the centre of its dead pile box on the Boxes map, the move
  the module's Eliminate makes (a game without boxes: the piece removed);
* a replacement: the unit so eliminated, and a spare counter of each replacement unit the file
  holds off the hex maps (in a box or a cup) moved onto the hex the unit stood in; with no spare
  counter in the file the page says so, and the players place one;
* a move the rules order: the piece moved to that hex's centre (and showing the step it names: a
  fresh Fire and Ice unit that retreats is flipped spent);
* a track marker's move (the VP marker, HoldFast's weather, Fire and Ice's support levels): the
  marker moved to the centre of the cell ordered (or so many cells from the one it stands on) on
  the Tracks map, showing the face ordered; one of several markers, the side's choice, is his to
  move, and a marker of the other side's track his (as the extension leaves it);
* a breakdown (SPI): the unit's piece set aside in its side's box of counters not in play, as the
  module's "Set aside" sends it, the counters that replace it moved from there onto its spot, and
  the parts lost at once from there to their dead pile; a recombination: the whole's counter onto
  the spot of one of its parts, the parts set aside;
* a retreat the rules order (SPI's Pursuit table, KWB's CRT, Fire and Ice's losses), a marker to
  place or take off a hex, a choice still open (SPI's defender's losses): left to the owner, who
  chooses the hexes, places the marker (a new piece from the module's palette, which the file does
  not hold), makes the choice; the page says so;
* a placeholder revealed (KWB's '? 4' Scratch Units, `adjudicator.ledger.draws`): the placeholder
  removed (the module's own Delete: it was never a unit, so no dead pile) and the counter it
  turned out to be moved from its box onto the placeholder's spot, as a replacement is placed; a
  change to the counter itself (a Dummy eliminated at once) follows, from there.

A change only the opponent can make (his piece is hidden from the asker: the module masks it and
lets no command of another side reach it) is left to him, as VASSAL would; the page says who
makes it. A unit that is not on the board exactly once is left alone (the chat line still says
what happened). Everything else a ruling decides (markers placed, new units) stays for the players
to move, as they would after a die roll at the table.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from adjudicator.bridge.identify import FACE_LAYER, STEP_LAYER
from adjudicator.bridge.locate import BOXES_MAP, HEX, TRACK, TRACKS_MAP, boxes_of, tracks_of
from adjudicator.bridge.positions import OtherPiece, PlacedUnit, Positions
from adjudicator.checks import side_label
from adjudicator.piece_actions import (
    DELETE, ELIMINATE, MOVE as MOVE_ACTION, MOVE_MARKER, OPEN_CHOICES, PLACE as PLACE_ACTION, PLACE_MARKER,
    REMOVE_MARKER, RETREAT_ORDER, SET_ASIDE, SHOW_STEP as SHOW_STEP_ACTION, PieceAction, marker_cell,
    marker_move_words,
)
from adjudicator.unit_changes import ON_BOARD, canonical_outcome, ruled_changes
from adjudicator.unit_owners import owners_of
from vassalfmt import Embellishment, Piece, SavedGame, continue_log
from vassalfmt.commands import ChangePiece, MovePiece, RemovePiece, chat_command

#: What the write-back does to one piece.
SHOW_STEP, TO_DEAD_PILE, REMOVE, PLACE, MOVE, LEFT = "step", "dead-pile", "remove", "place", "move", "left"
TO_BOX = "to-box"  # set aside in the box of counters not in play (a breakdown, a recombination)
SHOW_FACE = "face"  # a marker flipped to the face ordered


@dataclass(frozen=True)
class PieceChange:
    """One thing the write-back does to a piece — show a step, go to a box or a hex, be removed —
    or, `LEFT`, leaves to the players (`why` says why)."""

    unit: str  # "" for a marker (`marker_name` names it)
    piece_id: str
    does: str
    step: str | None = None  # SHOW_STEP: the step shown; SHOW_FACE: the face shown
    to: tuple[str | None, int, int] | None = None  # moves: (VASSAL map, x, y); map None: `beside`'s map
    beside: str = ""  # PLACE: the piece whose spot the counter takes (the unit it replaces, the placeholder)
    where: str = ""  # a move's destination in words: the box's name, the hex, the track's cell
    why: str = ""
    marker_name: str = ""  # a marker's change: the marker, as its track names it
    face: int = 0  # SHOW_FACE: the face's number (1: its front)

    def describe(self) -> str:
        if not self.unit and self.marker_name and self.does != LEFT:
            return (f"the {self.marker_name} marker: "
                    + (f"shows {self.step}" if self.does == SHOW_FACE else f"moved to {self.where}"))
        if self.does == SHOW_STEP:
            return f"{self.unit}: shows {self.step or 'full'}"
        if self.does in (TO_DEAD_PILE, TO_BOX):
            return f"{self.unit}: to {self.where}"
        if self.does == REMOVE:
            return f"{self.unit}: removed"
        if self.does in (PLACE, MOVE):
            return f"{self.unit}: {'placed' if self.does == PLACE else 'moved'} to {self.where}"
        return f"{self.unit}: {self.why}" if self.unit else self.why  # a choice among units: none named yet


def piece_changes(positions: Positions, outcome: dict[str, Any], asker: str = "") -> list[PieceChange]:
    """What the write-back does for a result on the pieces of `positions` (`asker`: the side that
    asked; its opponent's hidden pieces are his to change): each resolved piece action of each
    change (`adjudicator.piece_actions`), in order, on the piece it names."""
    on_board: dict[str, list[PlacedUnit]] = {}
    for placed in positions.units:
        on_board.setdefault(placed.unit.id, []).append(placed)
    out: list[PieceChange] = []
    for change in ruled_changes(canonical_outcome({"outcome": outcome}), owners_of(positions.game.id), asker):
        if change.applied_by and asker and change.applied_by != asker and change.kind in ON_BOARD:
            piece = _piece(on_board, change.unit)
            if piece is not None:
                out.append(PieceChange(change.unit, piece.piece_id, LEFT,
                                       why=f"to be applied by the {side_label(change.applied_by)} player "
                                           "(his piece is hidden from you)"))
            continue
        for action in change.actions:
            out += _move_marker(positions, action, asker) if action.does == MOVE_MARKER else \
                _action(positions, on_board, action)
    return out


def _action(positions: Positions, on_board: dict[str, list[PlacedUnit]], action: PieceAction) -> list[PieceChange]:
    """The write-back's piece changes for one resolved action (none for a unit not on the board)."""
    if action.does == PLACE_ACTION:
        return _place(positions, on_board, action)
    if action.does in (PLACE_MARKER, REMOVE_MARKER):  # markers are no unit pieces: the players place them
        where = action.what or "on its hex"
        verb = "place the" if action.does == PLACE_MARKER else "take the"
        return [PieceChange(action.unit, "", LEFT, why=f"{verb} {action.marker_name or action.marker} marker "
                                                         f"{where if action.does == PLACE_MARKER else 'off its hex'} "
                                                         "by hand")]
    if action.does in OPEN_CHOICES:
        return [PieceChange(action.unit, piece.piece_id if (piece := _piece(on_board, action.unit)) else "", LEFT,
                            why=_choice_words(action))]
    piece = _piece(on_board, action.unit, eliminating=action.does == ELIMINATE)
    if piece is None:
        return []  # a unit not on the board exactly once: left alone (the chat line says what happened)
    if action.does == SHOW_STEP_ACTION:
        return _step(piece, action.step)
    if action.does == ELIMINATE:
        return _eliminate(positions, piece, action.box)
    if action.does == SET_ASIDE:
        return _to_box(positions, piece, action.box)
    if action.does == MOVE_ACTION:
        return _move(positions, piece, action.hex) + _step(piece, action.step)
    if action.does == DELETE:
        return [PieceChange(action.unit, piece.piece_id, REMOVE)]
    return []


def _move_marker(positions: Positions, action: PieceAction, asker: str) -> list[PieceChange]:
    """A track marker to the cell ordered (`piece_actions.marker_cell`), at its centre on the Tracks
    map, flipped to the face ordered. Left to the players, said so: one of several markers (the
    side's choice), a marker the other side moves, one the file does not hold once on its track,
    or a cell the track does not have."""
    words = marker_move_words(action)
    chooser = action.chosen_by or action.applied_by
    if chooser and asker and chooser != asker:
        return [PieceChange("", "", LEFT, why=f"to be moved by the {side_label(chooser)} player: {words} "
                                              f"({action.what})")]
    by_hand = [PieceChange("", "", LEFT, why=f"move {words} on its track by hand ({action.what})")]
    marker = _track_marker(positions, action)
    if marker is None:
        return by_hand
    to = marker_cell(action, marker.location.cell)
    layout = tracks_of(positions.game, positions.scale)
    if to is None or (marker.location.track, to) not in layout.cells:
        return by_hand
    out = []
    if to != marker.location.cell:
        x, y = layout.centre((marker.location.track, to))
        track = positions.game.tracks.get(marker.location.track)
        out.append(PieceChange("", marker.piece_id, MOVE, to=(TRACKS_MAP, x, y), marker_name=action.marker_name,
                               where=f"{track.name if track else marker.location.track} {to}"))
    if action.face and marker.face != action.marker_name:
        out.append(PieceChange("", marker.piece_id, SHOW_FACE, step=action.marker_name, face=action.face,
                               marker_name=action.marker_name))
    return out


def _track_marker(positions: Positions, action: PieceAction) -> OtherPiece | None:
    """The one piece of the action's marker standing on its track (None: none, several, or no marker
    named)."""
    if not action.marker:
        return None
    found = [m for m in positions.markers if m.marker == action.marker and m.location.kind == TRACK
             and (not action.track or m.location.track == action.track)]
    return found[0] if len(found) == 1 else None


def _choice_words(action: PieceAction) -> str:
    """An open choice in words: who makes it and what it is."""
    if action.does == RETREAT_ORDER:
        return (f"retreat {action.hexes} hex{'es' if action.hexes != 1 else ''}, as the ruling orders: "
                f"its owner{f' (the {side_label(action.chosen_by)} player)' if action.chosen_by else ''} "
                "chooses the hexes and moves it")
    return action.what


def _piece(on_board: dict[str, list[PlacedUnit]], unit: str, eliminating: bool = False,
           off_map: bool = False, box: str = "") -> PlacedUnit | None:
    """The piece of `unit` an action is about: the one on a hex (a unit on the map), or, with
    `off_map`, a spare lying off the hex maps (in `box` when one is named); an elimination takes a
    piece lying in a box too (a reinforcement). None when there is none, or two it cannot tell apart."""
    pieces = on_board.get(unit, [])
    if off_map:
        spares = [p for p in pieces if p.location.kind != HEX]
        return next((p for p in spares if p.location.box == box), spares[0] if spares else None) if box else \
            (spares[0] if spares else None)
    on_hex = [p for p in pieces if p.location.kind == HEX]
    if len(on_hex) == 1 or (len(pieces) == 1 and not on_hex):
        return on_hex[0] if on_hex else pieces[0]
    if eliminating and not on_hex and pieces:
        return pieces[0]
    return None


def _step(piece: PlacedUnit, step: str | None) -> list[PieceChange]:
    """The piece showing `step` (a name the resolver looked up: `adjudicator.piece_actions.step_name`)."""
    if step is not None and step in [s.name for s in piece.unit.steps] and step != piece.step:
        return [PieceChange(piece.unit.id, piece.piece_id, SHOW_STEP, step=step)]
    return []


def _eliminate(positions: Positions, piece: PlacedUnit, box_id: str) -> list[PieceChange]:
    """To the dead pile `box_id` (from a hex, or from a box it lies in); no box: removed."""
    game = positions.game
    layout = boxes_of(game, positions.scale)
    box = game.boxes.get(box_id)
    if layout is None or box is None or box.id not in layout.centres:
        return [PieceChange(piece.unit.id, piece.piece_id, REMOVE)]
    if piece.location.box == box.id:
        return []  # already there
    x, y = layout.centres[box.id]
    return [PieceChange(piece.unit.id, piece.piece_id, TO_DEAD_PILE, to=(BOXES_MAP, x, y), where=box.name)]


def _place(positions: Positions, on_board: dict[str, list[PlacedUnit]], action: PieceAction) -> list[PieceChange]:
    """A counter of the unit lying off the hex maps (in the action's box when it names one) onto the
    spot of the unit it takes the place of, showing the step ordered; a unit on a hex already stays."""
    if action.hex and any(p.location.kind == HEX for p in on_board.get(action.unit, [])):
        return []  # a recombined unit already on the map
    spare = _piece(on_board, action.unit, off_map=True, box=action.box)
    beside = _piece(on_board, action.beside) if action.beside else None
    if spare is None or beside is None or beside.location.kind != HEX:
        why = (f"no spare counter of {action.unit} in the file (off the hex maps): place one by hand" if spare is None
               else f"place {action.unit} in {action.hex} by hand" if action.hex
               else f"place {action.unit} by hand: {action.beside} stood on no hex")
        return [PieceChange(action.unit, "", LEFT, why=why)]
    where = action.hex or beside.location.hex
    return [PieceChange(action.unit, spare.piece_id, PLACE, beside=beside.piece_id, where=where)] + _step(spare, action.step)


def _to_box(positions: Positions, piece: PlacedUnit, box_id: str) -> list[PieceChange]:
    """The piece set aside in a box (the box of counters not in play), as the module's "Set aside" does."""
    layout = boxes_of(positions.game, positions.scale)
    box = positions.game.boxes.get(box_id)
    if layout is None or box is None or box.id not in layout.centres:
        return [PieceChange(piece.unit.id, piece.piece_id, LEFT, why="set it aside by hand (no box of counters not "
                                                                       "in play)")]
    if piece.location.box == box.id:
        return []
    x, y = layout.centres[box.id]
    return [PieceChange(piece.unit.id, piece.piece_id, TO_BOX, to=(BOXES_MAP, x, y), where=box.name)]


def _move(positions: Positions, piece: PlacedUnit, hex_label: str) -> list[PieceChange]:
    if piece.location.kind != HEX or piece.location.hex == hex_label:
        return []
    grid = positions.game.maps[piece.location.map].board_grid(positions.scale)
    try:
        x, y = grid.center(grid.parse(hex_label))
    except (ValueError, KeyError):
        return [PieceChange(piece.unit.id, piece.piece_id, LEFT, why=f"move it to {hex_label} by hand")]
    return [PieceChange(piece.unit.id, piece.piece_id, MOVE, to=(None, x, y), where=hex_label)]


def change_commands(saved: SavedGame, positions: Positions, changes: list[PieceChange]) -> list[str]:
    """VASSAL commands for `changes`: a piece state with its Step layer (a marker: its Face layer) at
    the new level, a move (as the engine's MovePiece writes it, from where the piece stands by then:
    a revealed Dummy is placed, then eliminated), or a removal. A piece without that layer keeps its
    step or face."""
    pieces = saved.by_id()
    units = {u.piece_id: u.unit for u in positions.units}
    states = {piece_id: piece.piece for piece_id, piece in pieces.items()}
    spots = {piece_id: (piece.map_id, piece.x, piece.y) for piece_id, piece in pieces.items()}
    commands = []
    for change in changes:
        if change.does == REMOVE:
            commands.append(RemovePiece(change.piece_id).encode())
        elif change.does in (TO_DEAD_PILE, TO_BOX, PLACE, MOVE):
            was = spots[change.piece_id]
            if change.does == PLACE:  # onto the spot the unit it replaces stood on (moved away by now)
                spot = pieces[change.beside]
                to = (spot.map_id, spot.x, spot.y)
            else:
                to = (change.to[0] or was[0], change.to[1], change.to[2])
            commands.append(MovePiece(change.piece_id, to[0], to[1], to[2], None, was[0], was[1], was[2],
                                      None).encode())
            spots[change.piece_id] = to
            states[change.piece_id] = _moved(states[change.piece_id], to)
        elif change.does in (SHOW_STEP, SHOW_FACE):
            level = change.face if change.does == SHOW_FACE else \
                [s.name for s in units[change.piece_id].steps].index(change.step) + 1
            command = _layer_at(states, change.piece_id, FACE_LAYER if change.does == SHOW_FACE else STEP_LAYER, level)
            if command is not None:
                commands.append(command)
    return commands


def _moved(piece: Piece, to: tuple[str | None, int, int]) -> Piece:
    """The piece's state where it stands after a move: a piece's state holds its map and position,
    so a step or face shown after a move (a retreat flipped spent, a spare placed at a step, the VP
    marker moved and turned) is written from there, not from where the file had it; VASSAL puts
    the piece where the state says."""
    moved = copy.deepcopy(piece)
    basic = moved.basic
    if basic is not None:
        basic.map_id, basic.x, basic.y = to
    return moved


def _layer_at(states: dict[str, Piece], piece_id: str, layer_name: str, level: int) -> str | None:
    """The command showing level `level` (1-based) of the piece's layer `layer_name` (a unit's Step,
    a marker's Face), its state kept in `states`; None for a piece without that layer."""
    piece = copy.deepcopy(states[piece_id])
    layer = next((t for t in piece.find(Embellishment) if t.name == layer_name), None)
    if layer is None:
        return None
    layer.level = level if layer.level >= 0 else -level  # a negative level: the layer is off, kept so
    command = ChangePiece(piece_id, piece.state_string(), states[piece_id].state_string()).encode()
    states[piece_id] = piece
    return command


def ruling_log(data: bytes, saved: SavedGame, positions: Positions, lines: list[str],
               changes: list[PieceChange]) -> bytes:
    """The uploaded file continued by the ruling: its chat lines, then its piece changes, one log
    step each."""
    commands = [chat_command(line) for line in lines] + change_commands(saved, positions, changes)
    return continue_log(data, commands)
