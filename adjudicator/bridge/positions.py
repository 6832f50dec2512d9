"""A whole saved game as positions: every unit with its location and step, by hex.

:func:`read_positions` combines the reader (:mod:`vassalfmt`), :mod:`.locate` and
:mod:`.identify` into one :class:`Positions`, which the API returns as JSON, the supply run
turns into ``UnitAt`` lists, and the report page draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.identify import NameIndex, identify
from adjudicator.bridge.locate import (
    HEX, NOT_ON_A_MAP, TRACK, TURN_TRACK, UNKNOWN_MAP, Location, detect_scale, locate,
)
from adjudicator.rules.positions import UnitAt
from scenarios.model import Game, Unit
from vassalfmt import SavedGame

#: At most this many unidentified pieces are listed one by one (the count is always given).
MAX_LISTED_UNIDENTIFIED = 500


@dataclass
class PlacedUnit:
    """One identified unit piece and where it stands."""

    piece_id: str
    unit: Unit
    location: Location
    step_index: int | None
    identified_by: str
    piece_name: str

    @property
    def step(self) -> str:
        """The step's name, "" when the piece does not say (read as full strength)."""
        return self.unit.steps[self.step_index].name if self.step_index is not None else ""

    def unit_at(self) -> UnitAt:
        return UnitAt(self.unit.id, self.location.hex, self.step, self.location.map)

    def to_json(self, game: Game) -> dict[str, Any]:
        unit = self.unit
        step = unit.steps[self.step_index] if self.step_index is not None else None
        return {
            "unit": unit.id,
            "piece_id": self.piece_id,
            "name": self.piece_name,
            "side": unit.side,
            "nationality": unit.nationality,
            "type": unit.type,
            "designation": unit.designation,
            "size": unit.size,
            "step": step.name if step else None,
            "step_index": self.step_index,
            "values": step.text if step else None,
            "identified_by": self.identified_by,
            "location": self.location.to_json(),
        }


@dataclass
class OtherPiece:
    """A marker, or a piece that could not be identified (``reason`` says why)."""

    piece_id: str
    name: str
    location: Location
    marker: str = ""
    face: str = ""
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        out = {"piece_id": self.piece_id, "name": self.name, "location": self.location.to_json()}
        if self.marker:
            out["marker"] = self.marker
            out["face"] = self.face
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass
class Positions:
    game: Game
    units: list[PlacedUnit] = field(default_factory=list)
    markers: list[OtherPiece] = field(default_factory=list)
    unidentified: list[OtherPiece] = field(default_factory=list)
    scale: int = 1
    is_log: bool = False
    module_name: str = ""
    module_version: str = ""
    warnings: list[str] = field(default_factory=list)
    #: The file's other commands (turn trackers, global properties...), in order; see `.turn`.
    commands: list[str] = field(default_factory=list, repr=False)

    def on_map(self) -> list[PlacedUnit]:
        return [u for u in self.units if u.location.kind == HEX]

    def unit_ats(self) -> list[UnitAt]:
        """Every unit on a hex, of every side: what a supply tracer takes."""
        return [u.unit_at() for u in self.on_map()]

    def by_hex(self) -> dict[str, dict[str, list[str]]]:
        """map id -> hex label -> unit ids standing there (in stacking order)."""
        out: dict[str, dict[str, list[str]]] = {}
        for placed in self.on_map():
            out.setdefault(placed.location.map, {}).setdefault(placed.location.hex, []).append(
                placed.unit.id)
        return {m: dict(sorted(hexes.items())) for m, hexes in out.items()}

    def scenario_candidates(self) -> list[str]:
        """Scenarios these positions can belong to: every map used must be one of the
        scenario's, and units waiting on a turn track name their scenario."""
        used_maps = {u.location.map for u in self.on_map()}
        tracks = {u.location.scenario for u in self.units if u.location.kind == TURN_TRACK}
        out = []
        for scenario in self.game.scenarios.values():
            if tracks and scenario.id not in tracks:
                continue
            if used_maps <= set(scenario.maps):
                out.append(scenario.id)
        return out

    def view(self) -> "BoardOfPositions":
        """The positions as a check's board reader sees them (`adjudicator.boardread.BoardView`)."""
        return BoardOfPositions(self)

    def to_json(self) -> dict[str, Any]:
        candidates = self.scenario_candidates()
        return {
            "system": self.game.id,
            "module": {"name": self.module_name, "version": self.module_version},
            "is_log": self.is_log,
            "art_scale": self.scale,
            "scenario_candidates": candidates,
            "counts": {
                "units": len(self.units),
                "on_map": len(self.on_map()),
                "markers": len(self.markers),
                "unidentified": len(self.unidentified),
            },
            "by_hex": self.by_hex(),
            "units": [u.to_json(self.game) for u in self.units],
            "markers": [m.to_json() for m in self.markers],
            "unidentified": [p.to_json() for p in self.unidentified[:MAX_LISTED_UNIDENTIFIED]],
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class BoardOfPositions:
    """`adjudicator.boardread.BoardView` over a saved game's positions."""

    positions: Positions

    def track_cell(self, marker_id: str) -> str | None:
        return next((m.location.cell for m in self.positions.markers
                     if m.marker == marker_id and m.location.kind == TRACK), None)

    def has_marker(self, marker_id: str) -> bool:
        return any(m.marker == marker_id and m.location.kind not in (NOT_ON_A_MAP, UNKNOWN_MAP)
                   for m in self.positions.markers)


def read_positions(game: Game, saved: SavedGame) -> Positions:
    """Every piece of `saved` located and identified against `game`.

    A file whose pieces all belong to another game's module is refused (422): reading SPI
    counters against the KWB maps would give nonsense, not an answer.
    """
    _refuse_other_game(game, saved)
    shown = shown_boards(saved)
    points = [(shown.get(p.map_id, p.map_id), p.x, p.y) for p in saved.pieces if p.map_id is not None]
    scale, warnings = detect_scale(game, points)
    result = Positions(game=game, scale=scale, is_log=saved.is_log, module_name=saved.module_name,
                       module_version=saved.moduledata.version if saved.moduledata else "",
                       warnings=list(saved.warnings) + warnings, commands=list(saved.other_commands))
    names = NameIndex(game)
    seen: dict[str, str] = {}
    for piece in saved.pieces:
        location = locate(game, shown.get(piece.map_id, piece.map_id), piece.x, piece.y, scale)
        identity = identify(game, piece.piece, names)
        if identity.unit is not None:
            unit = identity.unit
            if unit.id in seen:
                result.warnings.append(f"unit {unit.id} appears twice (pieces {seen[unit.id]} and "
                                       f"{piece.piece_id})")
            seen.setdefault(unit.id, piece.piece_id)
            result.warnings += [f"{unit.id}: {note}" for note in identity.notes]
            result.units.append(PlacedUnit(piece.piece_id, unit, location, identity.step_index,
                                           identity.by, piece.name))
        elif identity.marker:
            result.markers.append(OtherPiece(piece.piece_id, piece.name, location,
                                             marker=identity.marker, face=identity.face))
        else:
            result.unidentified.append(OtherPiece(piece.piece_id, piece.name, location,
                                                  reason=identity.reason))
    return result


def shown_boards(saved: SavedGame) -> dict[str, str]:
    """VASSAL map -> the one board it shows, for maps with a board of their own name: a module
    with several game maps (or scenarios) shows the scenario's map (or turn track) as a board of
    one map window, and the board's name is the game map's (or "<scenario> turn track")."""
    return {vassal_map: boards[0].name for vassal_map, boards in saved.boards.items() if len(boards) == 1}


def _refuse_other_game(game: Game, saved: SavedGame) -> None:
    games = {p.properties.get("Game", "") for p in saved.pieces} - {""}
    if games and game.id not in games:
        raise BridgeError(422, "Saved game of another system",
                          f"The pieces in this file come from the module of {', '.join(sorted(games))}"
                          f", not {game.id} ({game.name}).", "wrong-system")
