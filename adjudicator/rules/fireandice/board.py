"""Map queries for Korea: Fire and Ice: hexes, the border, terrain costs, roads, ZoC.

All functions take the `GameMap` as an argument (tests build their own small maps with
`HexGrid.build` + `GameMap(...)`); terrain costs come from the Terrain Effects Chart table.

Readings:
- North/South Korea (1.0): "North Korea is north of the border marked from hexes 0743 to 3743",
  "South Korea ... south of the border marked from 0643 to 3843".  The border is drawn on the
  hexsides of row 43; hexes of row 43 in odd columns (0743...3743) lie north of it, those in even
  columns (0643...3843) south - the 16.0 setup agrees (NK units in 1343, 1943, 2543, 3743; the 6th
  RoK Division in 3043).  Rows below 43 are north, above 43 south (lower row = farther north).
- A unit's ZoC (4.3) covers the adjacent hexes it could legally move into: not all-sea hexes.
  Routed and Bug Out units have none (6.2 f, g); so do South Korean units on the first turn of the
  Invasion and Campaign games (4.3) - the caller lists such units in `no_zoc`.
"""

from __future__ import annotations

import functools
import weakref
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction

from scenarios.hexgrid import Edges, Hex, HexIndex, hex_index
from scenarios.model import Game, GameMap, Table
from adjudicator.rules.gamedata import hex_label as label, hex_on_map as parse  # noqa: F401  (board.label, board.parse)

from adjudicator.rules.fireandice import data

BORDER_ROW = 43
SEA = "sea"
CITY = "city"


def in_north_korea(h: Hex) -> bool:
    """1.0: north of the border of row 43 (odd columns of row 43 lie north of it; see module doc)."""
    if h.row != BORDER_ROW:
        return h.row < BORDER_ROW
    return h.col % 2 == 1


def is_sea(gm: GameMap, h: Hex) -> bool:
    return gm.terrain_at(h) == SEA


def is_city(gm: GameMap, h: Hex) -> bool:
    return gm.terrain_at(h) == CITY


# -- roads, railroads and the road/rail/city net (14.5) --------------------------------------------


def road_connects(gm: GameMap, a: Hex, b: Hex) -> bool:
    """5.3.1: a road or railroad joins two adjacent hexes (they are consecutive on a path)."""
    return bool({"road", "rail"} & gm.hexside_kinds(a, b))


def river_between(gm: GameMap, a: Hex, b: Hex) -> bool:
    return "river" in gm.hexside_kinds(a, b)


# -- terrain effects (the Terrain Effects Chart table) ---------------------------------------------


@dataclass(frozen=True)
class TerrainEffects:
    """One row of the Terrain Effects Chart as the rules use it."""

    terrain: str
    movement: float | None  # None = prohibited
    tank: Fraction | None
    artillery: Fraction | None
    defense: int


def terrain_effects(g: Game, terrain: str) -> TerrainEffects:
    t = data.table(g, "terrain_effects")
    kept = _CHARTS.get(id(t))
    if kept is None or kept[0] is not t:
        kept = _CHARTS[id(t)] = (t, {})
    rows = kept[1]
    if terrain not in rows:
        rows[terrain] = _read_effects(t, terrain)
    return rows[terrain]


#: Terrain Effects Charts already read, by the table object (tables are read-only; a test game
#: that brings its own chart brings a new table): pricing every step of a 3,900-hex map reads the
#: chart some 70,000 times, and parsing a row each time made the first trace on a map take a second.
_CHARTS: dict[int, tuple[Table, dict[str, TerrainEffects]]] = {}


def _read_effects(t: Table, terrain: str) -> TerrainEffects:
    try:
        row = t.row(terrain)
    except KeyError:
        known = ", ".join(r["terrain"] for r in t.rows)
        raise ValueError(f"terrain {terrain!r} is not on the Terrain Effects Chart ({known})") from None
    move_text = row["movement"].strip()
    try:
        movement = float(move_text.replace("+", ""))
    except ValueError:
        movement = None
    defense_text = row["defense"].strip()
    defense = int(defense_text.replace("+", "")) if defense_text not in ("", "-") else 0
    return TerrainEffects(terrain, movement, data.support_factor(row["tank_support"]),
                          data.support_factor(row["artillery_support"]), defense)


def unknown_terrain(g: Game, gm: GameMap) -> set[str]:
    """Terrain ids on the map that the Terrain Effects Chart does not list."""
    listed = {r["terrain"] for r in data.table(g, "terrain_effects").rows}
    return {t for t in facts(gm).terrains if t not in listed}


def move_cost(g: Game, gm: GameMap, a: Hex, b: Hex) -> float | None:
    """MP to move from `a` into adjacent `b` (4.1, Terrain Effects Chart): the road rate along a
    road, else the terrain of `b`, plus the river-hexside cost; None where prohibited (sea)."""
    if "road" in gm.hexside_kinds(a, b):
        road = terrain_effects(g, "road").movement
        if road is not None:
            return road
    try:
        cost = terrain_effects(g, gm.terrain_at(b)).movement
    except ValueError:  # a terrain the chart does not list (see unknown_terrain): priced as clear
        cost = terrain_effects(g, "clear").movement
    if cost is None:
        return None
    if river_between(gm, a, b):
        river = terrain_effects(g, "river hexside").movement
        cost += river or 0
    return cost


# -- units on the map and their zones of control ---------------------------------------------------


@dataclass
class Board:
    """Units on one map: which side holds each hex, and what blocks a trace."""

    gm: GameMap
    side_of: dict[Hex, str] = field(default_factory=dict)
    units_at: dict[Hex, list[str]] = field(default_factory=dict)
    no_zoc: set[str] = field(default_factory=set)  # units without a ZoC (routed, bug out, ...)

    def place(self, unit_id: str, side: str, h: Hex) -> None:
        if self.side_of.get(h, side) != side:
            raise ValueError(f"{unit_id} in {label(self.gm, h)}: units of both sides in one hex")
        self.side_of[h] = side
        self.units_at.setdefault(h, []).append(unit_id)

    def occupied_by(self, h: Hex, side: str) -> bool:
        return self.side_of.get(h) == side

    def zoc_of(self, side: str) -> set[Hex]:
        """Hexes in the ZoC of `side`'s units (4.3): adjacent land hexes; not of no-ZoC units."""
        zone: set[Hex] = set()
        land_neighbours = facts(self.gm).land_neighbours
        for h, s in self.side_of.items():
            if s != side:
                continue
            if all(u in self.no_zoc for u in self.units_at.get(h, [])):
                continue
            zone.update(land_neighbours(h))
        return zone

    def blocked_for(self, side: str) -> set[Hex]:
        """Hexes a trace of `side` may not enter (14.5): all-sea, enemy units, enemy ZoC that no
        friendly unit negates (4.3: friendly units negate enemy ZoC in their hex for all rules)."""
        return set(facts(self.gm).sea) | self.blocked_by_units(side)

    def blocked_by_units(self, side: str) -> set[Hex]:
        """The part of `blocked_for` that units make: enemy units and the enemy ZoC no unit of
        `side` negates (the all-sea part depends only on the map: `MapFacts.sea`)."""
        enemy = data.other_side(side)
        blocked = {h for h, s in self.side_of.items() if s == enemy}
        blocked |= {h for h in self.zoc_of(enemy) if not self.occupied_by(h, side)}
        return blocked


# -- what depends only on the map, worked out once per map -----------------------------------------


class MapFacts:
    """The map-only part of every trace, computed once per map (see `facts`).

    A LoC trace runs on every supply check; the sea, the cities, the road/railroad hexes and which
    steps the net or a moving unit may take depend only on the map (and the Terrain Effects Chart),
    so they are worked out here once and each trace only adds what changes: units, ZoC, options.
    Steps are kept by hex number (`scenarios.hexgrid.HexIndex`) for `search_indexed`.
    """

    def __init__(self, gm: GameMap) -> None:
        self.index: HexIndex = hex_index(gm.grid)
        self.sea: frozenset[Hex] = frozenset(h for h, t in gm.terrain.items() if t == SEA)
        self.cities: frozenset[Hex] = frozenset(h for h, t in gm.terrain.items() if t == CITY)
        self.road_rail: frozenset[Hex] = frozenset(
            h for p in gm.paths if p.kind in ("road", "rail") for h in p.hexes)
        self.terrains: frozenset[str] = frozenset(gm.terrain.values())  # the terrain types on the map
        self.labels: tuple[str, ...] = tuple(gm.grid.label(h) for h in self.index.hexes)  # by hex number
        self.sea_flags: bytearray = self.index.flags(self.sea)
        # 1 = not a road, railroad or city hex, or all-sea: where a live-net trace never goes
        # unless the hex is a supply source (see supply._net_closed).
        self.off_net_or_sea_flags: bytearray = bytearray(
            1 - f for f in self.index.flags(self.road_rail | self.cities))
        for i, sea in enumerate(self.sea_flags):
            self.off_net_or_sea_flags[i] |= sea
        self.north_edge_row: int = min((h.row for h in gm.terrain), default=0)
        # 14.5 net steps: along a road/railroad hexside, or into or out of a city hex (1 per hex).
        self.net_edges: Edges = self.index.edges(
            lambda a, b: 1.0 if road_connects(gm, a, b) or a in self.cities or b in self.cities else None)
        self._gm = weakref.ref(gm)
        self._move_edges: dict[int, tuple[object, Edges]] = {}
        self.stretches: dict[tuple[Hex, Hex], frozenset[Hex]] = {}  # station_coast's walks, by their ends

    @functools.cached_property
    def coast(self) -> frozenset[Hex]:
        """Land hexes next to the open sea (`open_sea`), worked out on first use (11.2 only)."""
        gm = self._gm()
        sea = open_sea(gm)
        return frozenset(h for h in gm.hexes() if h not in self.sea and any(n in sea for n in gm.grid.neighbours(h)))

    def land_neighbours(self, h: Hex) -> list[Hex]:
        """Adjacent hexes of the map that are not all-sea (where a ZoC reaches, 4.3)."""
        index = self.index
        i = index.number.get(h)
        gm = self._gm()
        if i is None or gm is None:
            return []
        return [n for n in (index.hexes[j] for j in index.neighbours[i]) if n in gm and n not in self.sea]

    def toward_edges(self, g: Game) -> Edges:
        """Steps a -> b priced as a unit moving the other way, b -> a (`move_cost(b, a)`): traces run
        from the HQ outward but cost what the unit pays moving toward it.  Kept per Terrain Effects
        Chart (test games may bring their own)."""
        chart = data.table(g, "terrain_effects")
        kept = self._move_edges.get(id(chart))
        if kept is not None and kept[0] is chart:
            return kept[1]
        gm = self._gm()
        edges = self.index.edges(lambda a, b: move_cost(g, gm, b, a))
        self._move_edges[id(chart)] = (chart, edges)
        return edges


_FACTS: dict[int, tuple[weakref.ref, MapFacts]] = {}


def facts(gm: GameMap) -> MapFacts:
    """The map's `MapFacts`, built on first use.  Kept by the map object's identity (maps are not
    hashable; `load_game` maps are cached and read-only, test maps are built and dropped) and
    forgotten when the map is garbage-collected."""
    key = id(gm)
    kept = _FACTS.get(key)
    if kept is not None and kept[0]() is gm:
        return kept[1]
    built = MapFacts(gm)
    _FACTS[key] = (weakref.ref(gm, lambda ref: _forget(key, ref)), built)
    return built


def _forget(key: int, ref: weakref.ref) -> None:
    kept = _FACTS.get(key)
    if kept is not None and kept[0] is ref:
        del _FACTS[key]


# -- the 7th Fleet's bombardment coasts (11.2) -----------------------------------------------------

#: How far the 7th Fleet's water reaches inland, and how far apart two coast hexes may be and still
#: be one coastline: a bay the hex grid closed off (an all-sea hex behind a one-hex strip of land,
#: as 2262 behind 2162, which makes 2362 the coast hex of the 11.2 example) is the sea's; a lake
#: farther inland is not.
COAST_REACH = 2


def open_sea(gm: GameMap) -> set[Hex]:
    """The all-sea hexes the 7th Fleet sails: those joined to the map's edge through all-sea hexes,
    and the cut-off bays within `COAST_REACH` hexes of them (not a lake inland)."""
    sea = facts(gm).sea
    edge = [h for h in sea if len(gm.grid.neighbours(h)) < 6]
    reached, queue = set(edge), deque(edge)
    while queue:
        h = queue.popleft()
        for n in gm.grid.neighbours(h):
            if n in sea and n not in reached:
                reached.add(n)
                queue.append(n)
    bays = {h for h in sea - reached
            if any(n in reached for n in gm.grid.within(h, COAST_REACH))}
    return reached | bays


def coast_hexes(gm: GameMap) -> set[Hex]:
    """Land hexes next to the open sea (`open_sea`): the map's coast hexes (11.2)."""
    return set(facts(gm).coast)


def station_coast(gm: GameMap, coast_from: Hex, coast_to: Hex) -> set[Hex]:
    """The coast hexes "from hex <coast_from> to <coast_to>" of 11.2, walked along the coast.

    The walk steps from a coast hex to any within `COAST_REACH` hexes (a coastline the grid breaks -
    a cut-off bay, an inshore island - stays one coast) and along the map's edge through land hexes
    (where the land runs off the map, as the peninsula's tip does off the stand-in map's south edge,
    the coast goes on beyond it).  The stretch is the shortest walk from one end to the other and
    every coast hex nearer to its inside than to its ends (the shores of its bays and inlets); the
    coast beyond either end is not.  An end that is not a coast hex of this map is taken at the coast
    hex nearest to it; ends on unconnected coasts have no stretch between them (an empty set)."""
    key = (coast_from, coast_to)
    kept = facts(gm).stretches
    if key not in kept:
        kept[key] = frozenset(_walk_stretch(gm, facts(gm).coast, coast_from, coast_to))
    return set(kept[key])


def _coast_steps(gm: GameMap, coast: frozenset[Hex]) -> dict[Hex, list[Hex]]:
    """Where the walk along the coast may step from each hex (see `station_coast`)."""
    grid = gm.grid
    sea = facts(gm).sea
    edge_land = {h for h in gm.hexes() if h not in sea and len(grid.neighbours(h)) < 6}
    steps = {h: [n for n in grid.within(h, COAST_REACH) if n in coast and n != h] for h in coast}
    for h in edge_land:
        steps.setdefault(h, [])
        for n in grid.neighbours(h):
            if n in edge_land or n in coast:
                steps[h].append(n)
                if n in coast:
                    steps[n].append(h)
    return steps


def _walk_stretch(gm: GameMap, coast: frozenset[Hex], a: Hex, b: Hex) -> set[Hex]:
    if not coast:
        return set()
    grid = gm.grid
    a, b = (min(coast, key=lambda h: (grid.distance(e, h), h)) for e in (a, b))
    steps = _coast_steps(gm, coast)
    parent = {a: a}
    queue = deque([a])
    while queue and b not in parent:
        h = queue.popleft()
        for n in steps[h]:
            if n not in parent:
                parent[n] = h
                queue.append(n)
    if b not in parent:
        return set()
    walk = [b]
    while walk[-1] != a:
        walk.append(parent[walk[-1]])
    # every coast hex goes to the walk hex it is nearest along the coast (walking outward from all of
    # them at once, not along the map's edge; the ends first, so that a hex as near an end as the
    # walk's inside is not the stretch's: the coast beyond an end is as near the end as the walk
    # hex before it, one step of `COAST_REACH` hexes)
    ends = {a, b}
    walk = sorted(ends) + [h for h in walk if h not in ends]
    source = {h: h for h in walk}
    queue = deque(walk)
    while queue:
        h = queue.popleft()
        for n in steps[h]:
            if n in coast and n not in source:
                source[n] = source[h]
                queue.append(n)
    return {h for h, s in source.items() if h in coast and (s not in ends or h in ends)}


def stations_in_range(g: Game, gm: GameMap, combat: Hex) -> list[str]:
    """The Sea Stations from which the 7th Fleet's bombardment reaches the combat hex (11.2)."""
    return [r["station"] for r in data.table(g, "fleet_stations").rows
            if in_bombardment_range(g, gm, combat, r["station"])[0]]


def in_bombardment_range(g: Game, gm: GameMap, combat: Hex, station: str) -> tuple[bool, str]:
    """11.2: the combat hex is within 2 hexes of a coast hex of the station's stretch of coast.
    Returns (in range, why)."""
    t = data.table(g, "fleet_stations")
    try:
        row = t.row(station)
    except KeyError:
        raise ValueError(f"unknown Sea Station {station!r}; known: {', '.join(r['station'] for r in t.rows)}") from None
    # the ends need not be on a (test) map: the coast hex nearest each counts
    coast = station_coast(gm, gm.grid.parse(row["coast_from"]), gm.grid.parse(row["coast_to"]))
    near = sorted((h for h in coast if gm.grid.distance(combat, h) <= 2), key=lambda h: (gm.grid.distance(combat, h), h))
    stretch = f"the {station} coast from {row['coast_from']} to {row['coast_to']}"
    if near:
        return True, f"{label(gm, combat)} is within 2 hexes of {stretch}: coast hex {label(gm, near[0])}"
    return False, f"{label(gm, combat)} is not within 2 hexes of {stretch}"
