"""Predefined setups: each scenario as a saved game with every unit in place.

Starting units stand on their setup hex (or off-map box) showing their
starting step; reinforcements wait on the turn track in the cell of the turn
they arrive.  The save ends with VASSAL's "not a new game" marker so that the
engine does not place at-start stacks on top.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from modgen.buildfile import turn_track_map_name
from modgen.images import ModuleImages
from modgen.pieces import BOXES_MAP, marker_piece, unit_piece
from scenarios.model import Game, GameMap, Scenario
from vassalfmt import ModuleData, Piece, SavedGameWriter


@dataclass
class SetupReport:
    placed: int = 0
    waiting: int = 0
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Spot:
    map_name: str
    x: int
    y: int


def locate(game: Game, scenario: Scenario, location: str, images: ModuleImages) -> Spot | None:
    """A data-file location ("0216", "0216@pusan", "box:dead-un") -> map and pixel."""
    if location.startswith("box:"):
        centre = images.box_centres.get(location[4:])
        return Spot(BOXES_MAP, *centre) if centre else None
    if ":" in location:
        return None  # a rule-described place (edge:, any:) has no pixel of its own
    label, _, map_hint = location.partition("@")
    for map_id in scenario.maps:
        if map_hint and map_id != map_hint:
            continue
        game_map: GameMap = game.maps[map_id]
        try:
            hex = game_map.grid.parse(label)
        except ValueError:
            return None
        if game_map.grid.is_on_map(hex):
            return Spot(game_map.name, *game_map.grid.scaled(images.scale).center(hex))
    return None


def step_index(game: Game, unit_id: str, step: str) -> int:
    unit = game.units[unit_id]
    if not step:
        return 0
    return [s.name for s in unit.steps].index(step)


def build_setup(game: Game, scenario: Scenario, images: ModuleImages, gpids: dict[str, str],
                module: ModuleData, prototypes: dict[str, Piece]) -> tuple[bytes, SetupReport]:
    """The .vsav bytes of one scenario and what was placed.

    Pieces are written with their prototypes expanded, as the engine itself
    saves pieces: a ``prototype;`` trait keeps no state, so unexpanded pieces
    would lose their moved flags and ZOC toggles in play.
    """
    writer = SavedGameWriter(prototypes=prototypes)
    report = SetupReport()
    for number, placement in enumerate(scenario.setup, start=1):
        spot = locate(game, scenario, placement.location, images)
        if spot is None:
            report.problems.append(f"{scenario.id}: {placement.unit} at {placement.location!r} has no map position")
            continue
        if placement.is_marker:
            marker = game.markers[placement.marker_id]
            face = marker.faces.index(placement.step) if placement.step else 0
            piece = marker_piece(game, marker, images.marker_faces[marker.id], face=face,
                                 gpid=gpids.get(f"marker:{marker.id}", ""), map_id=spot.map_name, x=spot.x, y=spot.y)
            writer.add_piece(f"{placement.unit}#{number}", piece)
            report.placed += 1
            continue
        unit = game.units[placement.unit]
        piece = unit_piece(game, unit, images.unit_steps[unit.id], step=step_index(game, unit.id, placement.step),
                           gpid=gpids.get(unit.id, ""), map_id=spot.map_name, x=spot.x, y=spot.y)
        writer.add_piece(unit.id, piece)
        report.placed += 1
    placed = {p.unit for p in scenario.setup}
    for arrival in scenario.schedule:
        if arrival.action != "arrive" or arrival.unit in placed:
            continue
        track = images.turn_tracks.get(scenario.id)
        centre = track.centres.get(arrival.turn) if track else None
        if centre is None:
            report.problems.append(f"{scenario.id}: no turn-track cell for turn {arrival.turn}")
            continue
        unit = game.units[arrival.unit]
        piece = unit_piece(game, unit, images.unit_steps[unit.id], step=step_index(game, unit.id, arrival.step),
                           gpid=gpids.get(unit.id, ""), map_id=turn_track_map_name(scenario), x=centre[0], y=centre[1])
        writer.add_piece(unit.id, piece)
        placed.add(unit.id)
        report.waiting += 1
    return writer.to_bytes(module), report
