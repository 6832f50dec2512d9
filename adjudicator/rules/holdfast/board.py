"""What the HoldFast Korea board says about a hex or hexside (2 GAME BOARD; 4 ZOC).

Terrain is one type per hex (clear, mountain, city, open water); villages, ports and named
cities are hex features; rivers, red hex lines and the 38th Parallel are hexside features;
rail lines are paths (scenarios.model.GameMap). These helpers are the only place that knows
those data kinds, so the map engineer can regenerate the board without touching the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scenarios.hexgrid import Hex
from scenarios.model import Game, GameMap
from adjudicator.rules.gamedata import hex_label as label, hex_on_map as parse  # noqa: F401  (board.label, board.parse)

RIVER_KINDS = frozenset({"river", "major_river"})
RAIL_KINDS = frozenset({"rail", "railway", "railroad"})
RED_LINE_KIND = "red_line"
PARALLEL_KIND = "parallel_38"
OPEN_WATER = "sea"
CITY_FEATURES = ("city", "star_city")

# Fallback for the 38th Parallel on a map without parallel_38 hexsides (the shipped map has them): the grid's
# projection, as documented in maps/korea.toml (centre of hex 0101 at 43.0 N, one hex height =
# 30 km, 110.57 km per degree of latitude). Used only with a warning.
_FALLBACK_NORTH_LAT = 43.0
_FALLBACK_KM_PER_HEX = 30.0
_KM_PER_DEGREE = 110.57


def terrain(gm: GameMap, hex: Hex) -> str:
    return gm.terrain_at(hex)


def is_city(gm: GameMap, hex: Hex) -> bool:
    """City terrain, or a city feature in the hex (2: City '+1 die to defending unit')."""
    return gm.terrain_at(hex) == "city" or any(gm.features_at(hex, k) for k in CITY_FEATURES)


def is_water(gm: GameMap, hex: Hex) -> bool:
    return gm.terrain_at(hex) == OPEN_WATER


def is_port(gm: GameMap, hex: Hex) -> bool:
    return bool(gm.features_at(hex, "port"))


def is_coastal(gm: GameMap, hex: Hex) -> bool:
    """2 Coast Hex: 'Any hex adjacent to open water allows Naval Support.' A port counts."""
    if is_port(gm, hex):
        return True
    return any(is_water(gm, n) for n in gm.grid.neighbours(hex) if n in gm)


def river_between(gm: GameMap, a: Hex, b: Hex) -> bool:
    return bool(gm.hexside_kinds(a, b) & RIVER_KINDS)


def rail_between(gm: GameMap, a: Hex, b: Hex) -> bool:
    return bool(gm.hexside_kinds(a, b) & RAIL_KINDS)


def red_line_between(gm: GameMap, a: Hex, b: Hex) -> bool:
    return RED_LINE_KIND in gm.hexside_kinds(a, b)


def rail_hexes(gm: GameMap) -> set[Hex]:
    return {h for p in gm.paths if p.kind in RAIL_KINDS for h in p.hexes}


def rail_network(gm: GameMap, starts: set[Hex], passable) -> set[Hex]:
    """Rail hexes connected to `starts` along rail hexsides through hexes `passable(h)` allows."""
    rails = rail_hexes(gm)
    todo = [h for h in starts if h in rails and passable(h)]
    seen = set(todo)
    while todo:
        h = todo.pop()
        for n in gm.grid.neighbours(h):
            if n in seen or n not in rails or not passable(n) or red_line_between(gm, h, n):
                continue
            if rail_between(gm, h, n):
                seen.add(n)
                todo.append(n)
    return seen


# -- the 38th Parallel ------------------------------------------------------------------------


@dataclass
class ParallelReading:
    north: set[Hex]
    method: str
    warning: str = ""


def north_of_38th(g: Game, gm: GameMap, scenario_special: dict | None = None) -> ParallelReading:
    """The hexes north of the 38th Parallel.

    From the map's parallel_38 hexsides when it has them: a hex is north when its centre lies above
    the line those hexsides draw in its column (or the nearest column the line crosses: the
    hexsides stop at the coasts, so a flood fill would leak round them by sea). On a map without them (a
    maintainer's replacement map, a test board) from the latitude of the hex centre on the grid's projection
    (campaign.toml special_rules.parallel_38, a labelled stand-in).
    """
    sides = [hf.hexside for hf in gm.hexside_features if hf.kind == PARALLEL_KIND]
    if sides:
        # The line's height in each column it crosses (hexside midpoints, in pixels); columns it does not
        # cross (open sea at either end) take the height of the nearest column that it does.
        heights: dict[int, list[float]] = {}
        for side in sides:
            (ax, ay), (bx, by) = gm.grid.center(side.a), gm.grid.center(side.b)
            heights.setdefault(round((ax + bx) / 2), []).append((ay + by) / 2)
        line = {x: sum(ys) / len(ys) for x, ys in heights.items()}
        xs = sorted(line)
        north = set()
        for h in gm.hexes():
            x, y = gm.grid.center(h)
            nearest = min(xs, key=lambda lx: abs(lx - x))
            if y < line[nearest]:
                north.add(h)
        reading = ParallelReading(north, "the map's 38th Parallel hexsides")
    else:
        latitude = float((scenario_special or {}).get("latitude", 38.0))
        x0, y0 = gm.grid.center(Hex(gm.grid.first_col, gm.grid.first_row))
        north = set()
        for h in gm.hexes():
            _, y = gm.grid.center(h)
            lat = _FALLBACK_NORTH_LAT - (y - y0) / gm.grid.dy * _FALLBACK_KM_PER_HEX / _KM_PER_DEGREE
            if lat > latitude:
                north.add(h)
        reading = ParallelReading(
            north,
            f"hex-centre latitude above {latitude:g} N on the grid's projection",
            "Stand-in: the map has no 38th Parallel hexsides; north/south of the 38th is read from "
            "the hex-centre latitude on the grid's projection (campaign.toml special_rules.parallel_38).",
        )
    return reading


# -- units on the board, ZOC ----------------------------------------------------------------


@dataclass
class Board:
    """Who stands where, by side: what ZOC, movement and supply need (4 ZOC, 9.1, 10)."""

    gm: GameMap
    side_of: dict[Hex, str] = field(default_factory=dict)  # hex -> side of the unit in it
    unit_at: dict[Hex, str] = field(default_factory=dict)

    def occupied_by(self, hex: Hex, side: str) -> bool:
        return self.side_of.get(hex) == side

    def zoc_of(self, side: str) -> set[Hex]:
        """Hexes in the ZOC of `side`'s units: all 6 adjacent hexes, not across red hex lines (4)."""
        zoc: set[Hex] = set()
        for h, s in self.side_of.items():
            if s != side:
                continue
            for n in self.gm.grid.neighbours(h):
                if n in self.gm and not red_line_between(self.gm, h, n):
                    zoc.add(n)
        return zoc

    def enemy_zoc_sources(self, hex: Hex, side: str) -> list[Hex]:
        """The enemy units whose ZOC covers `hex` (for explanations)."""
        enemy = [h for h in self.gm.grid.neighbours(hex) if self.side_of.get(h) not in (None, side)]
        return [h for h in enemy if not red_line_between(self.gm, h, hex)]
