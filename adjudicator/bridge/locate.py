"""Where a piece stands: a VASSAL map name and pixel -> a hex, a box, a turn track, or unknown.

Modules written by ``modgen`` name each hex map window after its ``GameMap.name``, put off-map
boxes on a map called "Boxes" (the box a piece lies in is ``scenarios.boxboard``'s: a unit sent to
its side's dead pile by the module's Eliminate lies in that box), player-aid track markers on "Tracks" (the cell a marker stands on
is its value: ``scenarios.trackboard``) and waiting reinforcements on "<scenario name> turn track". A
position in a saved game is a board pixel; the hex is ``grid.hex_at(x, y)`` on the same grid
the module used (``GameMap.board_grid``): a scanned board's calibrated grid, or the map drawn from
the data at the module's art scale (1, or 2 for double-size art). The scale is not recorded in
the save, so :func:`detect_scale` picks the one that puts the pieces on hex centres (where VASSAL's
snap leaves them); a scanned board's grid is the same at every scale.
"""

from __future__ import annotations

from dataclasses import dataclass

from scenarios.hexgrid import HexGrid
from scenarios.model import Game, GameMap, Scenario
from scenarios.boxboard import BoxesLayout, boxes_layout
from scenarios.trackboard import TracksLayout, tracks_layout

BOXES_MAP = "Boxes"
TRACKS_MAP = "Tracks"
TURN_TRACK_SUFFIX = " turn track"
#: Art scales modgen builds modules at (``modgen --scale``).
SCALES = (1, 2)

HEX = "hex"
BOX = "box"
TRACK = "track"  # a player-aid track's cell: `track` and `cell` say which
TURN_TRACK = "turn-track"
OFF_GRID = "off-grid"  # on a hex map but outside its printed hexes
NOT_ON_A_MAP = "not-on-a-map"
UNKNOWN_MAP = "unknown-map"


@dataclass(frozen=True)
class Location:
    """Where one piece is. ``kind`` is one of the constants above."""

    kind: str
    vassal_map: str | None
    x: int
    y: int
    map: str = ""  # GameMap.id for HEX / OFF_GRID
    hex: str = ""  # printed label for HEX
    on_centre: bool = False  # the pixel is exactly the hex centre
    scenario: str = ""  # Scenario.id for TURN_TRACK
    track: str = ""  # Track.id for TRACK
    cell: str = ""  # the cell's label for TRACK
    box: str = ""  # Box.id for BOX ("" between the boxes)

    @property
    def on_map(self) -> bool:
        return self.kind == HEX

    def to_json(self) -> dict:
        out = {"kind": self.kind, "vassal_map": self.vassal_map, "x": self.x, "y": self.y}
        if self.kind in (HEX, OFF_GRID):
            out["map"] = self.map
        if self.kind == HEX:
            out["hex"] = self.hex
            out["on_centre"] = self.on_centre
        if self.kind == TURN_TRACK:
            out["scenario"] = self.scenario
        if self.kind == TRACK:
            out["track"], out["cell"] = self.track, self.cell
        if self.kind == BOX and self.box:
            out["box"] = self.box
        return out


def hex_map_named(game: Game, vassal_map: str) -> GameMap | None:
    """The game map whose window carries this name (the id is accepted too)."""
    for game_map in game.maps.values():
        if game_map.name == vassal_map:
            return game_map
    return game.maps.get(vassal_map)


def turn_track_scenario(game: Game, vassal_map: str) -> Scenario | None:
    if not vassal_map.endswith(TURN_TRACK_SUFFIX):
        return None
    name = vassal_map[: -len(TURN_TRACK_SUFFIX)]
    return next((s for s in game.scenarios.values() if s.name == name), None)


def _on_centre(grid: HexGrid, x: int, y: int) -> bool:
    """The pixel is where a piece stands on its hex: the centre a setup puts it on, or where the
    engine's snap leaves a moved one (a pixel off the centre on a grid of fractional spacing)."""
    return (x, y) in (grid.center(grid.hex_at(x, y)), grid.snap(x, y))


def _centre_hit(grid: HexGrid, x: int, y: int) -> bool:
    return grid.is_on_map(grid.hex_at(x, y)) and _on_centre(grid, x, y)


def detect_scale(game: Game, points: list[tuple[str, int, int]]) -> tuple[int, list[str]]:
    """The art scale whose grids put most of ``(vassal_map, x, y)`` points on hex centres.

    Ties go to the scale with more points inside the board, then to scale 1. Returns the scale
    and warnings (e.g. when no piece sits on any hex centre).
    """
    scored = []
    for scale in SCALES:
        centres = inside = 0
        for vassal_map, x, y in points:
            game_map = hex_map_named(game, vassal_map)
            if game_map is None:
                continue
            grid = game_map.board_grid(scale)
            centres += _centre_hit(grid, x, y)
            inside += 0 <= x <= grid.width and 0 <= y <= grid.height
        scored.append((centres, inside, -scale, scale))
    best = max(scored)
    warnings = []
    if points and best[0] == 0 and any(hex_map_named(game, m) for m, _, _ in points):
        warnings.append(f"no piece stands exactly on a hex centre; hexes were read at art scale "
                        f"{best[3]}")
    return best[3], warnings


_TRACKS: dict[tuple[str, int], TracksLayout] = {}


def tracks_of(game: Game, scale: int) -> TracksLayout:
    """The game's Tracks board geometry at `scale`, made once per game and scale (every piece read asks it)."""
    key = (game.id, scale)
    if key not in _TRACKS:
        _TRACKS[key] = tracks_layout(game, scale)
    return _TRACKS[key]


_BOXES: dict[tuple[str, int], BoxesLayout | None] = {}


def boxes_of(game: Game, scale: int) -> BoxesLayout | None:
    """The game's Boxes board geometry at `scale` (None: no boxes), made once per game and scale."""
    key = (game.id, scale)
    if key not in _BOXES:
        _BOXES[key] = boxes_layout(game, scale)
    return _BOXES[key]


def locate(game: Game, vassal_map: str | None, x: int, y: int, scale: int) -> Location:
    """Where a piece at ``(vassal_map, x, y)`` stands, in the game's terms."""
    if vassal_map is None:
        return Location(NOT_ON_A_MAP, None, x, y)
    game_map = hex_map_named(game, vassal_map)
    if game_map is not None:
        grid = game_map.board_grid(scale)
        hex = grid.hex_at(x, y)
        if not grid.is_on_map(hex):
            return Location(OFF_GRID, vassal_map, x, y, map=game_map.id)
        return Location(HEX, vassal_map, x, y, map=game_map.id, hex=grid.label(hex),
                        on_centre=_on_centre(grid, x, y))
    if vassal_map == BOXES_MAP:
        layout = boxes_of(game, scale)
        return Location(BOX, vassal_map, x, y, box=(layout.box_at(x, y) or "") if layout else "")
    if vassal_map == TRACKS_MAP and game.tracks:
        cell = tracks_of(game, scale).cell_at(x, y)
        if cell is not None:
            return Location(TRACK, vassal_map, x, y, track=cell[0], cell=cell[1])
    scenario = turn_track_scenario(game, vassal_map)
    if scenario is not None:
        return Location(TURN_TRACK, vassal_map, x, y, scenario=scenario.id)
    return Location(UNKNOWN_MAP, vassal_map, x, y)
