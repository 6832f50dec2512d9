"""Where a data-file location is in the module: a map window and a pixel.

Setups place pieces with it and the opening view is computed from it; the hex maps' pieces
stand on the main map, showing the scenario's own board.
"""

from __future__ import annotations

from dataclasses import dataclass

from modgen.buildfile import main_map_name
from modgen.images import ModuleImages
from modgen.pieces import BOXES_MAP, TRACKS_MAP
from scenarios.model import Game, GameMap, Scenario


@dataclass(frozen=True)
class Spot:
    map_name: str
    x: int
    y: int


def locate(game: Game, scenario: Scenario, location: str, images: ModuleImages) -> Spot | None:
    """A data-file location ("0216", "0216@pusan", "box:dead-un", "track:vp:0") -> map and
    pixel.  ``turn:<n>`` is placed by ``TurnCells`` (a turn's cell has several slots)."""
    if location.startswith("box:"):
        centre = images.box_centres.get(location[4:])
        return Spot(BOXES_MAP, *centre) if centre else None
    if location.startswith("track:"):
        track_id, _, cell = location[len("track:"):].partition(":")
        centre = images.tracks.centres.get((track_id, cell)) if images.tracks else None
        return Spot(TRACKS_MAP, *centre) if centre else None
    if ":" in location:
        return None  # a rule-described place (edge:, any:) has no pixel of its own
    label, _, map_hint = location.partition("@")
    game_map: GameMap = game.maps[scenario.maps[0]]  # the board the main map shows in this scenario
    if map_hint and map_hint != game_map.id:
        return None
    try:
        hex = game_map.grid.parse(label)
    except ValueError:
        return None
    if game_map.grid.is_on_map(hex):
        return Spot(main_map_name(game), *game_map.board_grid(images.scale).center(hex))
    return None
