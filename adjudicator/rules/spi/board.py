"""What the SPI Korea map says about hexes and hexsides, who stands where, and Zones of Control.

Terrain is one type per hex: clear, rough_partial ("any hex in whole or part rough terrain"),
rough (the hex is *entirely* rough: Zones of Control (C)) and sea. Rivers, inlets and the 37th/38th
parallel lines are hexside features; roads and railroads are paths; towns, ports and cities are hex
features. These helpers are the only place that knows those data kinds, so the map engineer can
regenerate the map from geography without touching the rules.

Terrain Effects Chart:
- Rough: "any hex in whole or part rough terrain" - 2 MP to enter; Combat Strength doubled;
  "Zones of Control don't extend into hexes entirely Rough Terrain".
- River: "any hex which has two sides crossed by a river" - +1 MP; Position Defense if attacked from
  non-river hexes.
- City: "any hex wholly or partially town" - "Treat as a railroad hex"; Position Defense.
- Sea: no land unit enters. Inlet hexside: "Land units may not enter".
Zones of Control: the six surrounding hexes (General Rule); (B) for supply they do not extend into
hexes the tracing side occupies; (C) not into completely Rough hexes; (D) naval units neither exert
nor feel them.

Readings (the book is silent): towns are the map's city, major_city, capital and port features;
"another road hex" means along a road or railroad hexside, or into/out of a town hex on a road
(a town is treated as a railroad hex).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.rules.positions import UnitAt
from adjudicator.rules.spi import data
from scenarios.hexgrid import Hex
from scenarios.model import Game, GameMap, Unit
from adjudicator.rules.gamedata import hex_label as label, hex_on_map as parse  # noqa: F401  (board.label, board.parse)

ROUGH_TERRAIN = frozenset({"rough", "rough_partial"})
ENTIRELY_ROUGH = "rough"
SEA = "sea"
RIVER = "river"
INLET = "inlet"
ROAD_KINDS = frozenset({"road", "rail"})
RAIL = "rail"
TOWN_KINDS = frozenset({"city", "major_city", "capital", "port", "town"})


def is_sea(gm: GameMap, h: Hex) -> bool:
    return gm.terrain_at(h) == SEA


def is_rough(gm: GameMap, h: Hex) -> bool:
    """Wholly or partly rough (Terrain Effects Chart: 2 MP, defence doubled)."""
    return gm.terrain_at(h) in ROUGH_TERRAIN


def is_entirely_rough(gm: GameMap, h: Hex) -> bool:
    """Zones of Control (C): 'any hex which is totally covered by Rough terrain'."""
    return gm.terrain_at(h) == ENTIRELY_ROUGH


def river_sides(gm: GameMap, h: Hex) -> list[Hex]:
    """Neighbours across a river hexside."""
    return [n for n in gm.grid.neighbours(h) if RIVER in gm.hexside_kinds(h, n)]


def is_river_hex(gm: GameMap, h: Hex) -> bool:
    """Terrain Effects Chart: 'any hex which has two sides crossed by a river'."""
    return len(river_sides(gm, h)) >= 2


def river_names(gm: GameMap, h: Hex) -> set[str]:
    """Names of the rivers on the hex's sides ('' when the data does not name them)."""
    names = set()
    for f in gm.hexside_features:
        if f.kind == RIVER and h in (f.hexside.a, f.hexside.b):
            names.add(f.name)
    return names


def is_town(gm: GameMap, h: Hex) -> bool:
    """TEC City: 'any hex wholly or partially town'."""
    return gm.terrain_at(h) == "city" or any(f.kind in TOWN_KINDS for f in gm.features_at(h))


def road_hexes(gm: GameMap) -> set[Hex]:
    return {h for p in gm.paths if p.kind in ROAD_KINDS for h in p.hexes}


def road_between(gm: GameMap, a: Hex, b: Hex) -> bool:
    return bool(gm.hexside_kinds(a, b) & ROAD_KINDS)


def inlet_between(gm: GameMap, a: Hex, b: Hex) -> bool:
    """TEC Inlet hex-side: 'Land units may not enter'."""
    return INLET in gm.hexside_kinds(a, b)


def is_coastal(gm: GameMap, h: Hex) -> bool:
    """Supply (F) 'any partially-land hex (i.e. coast)': a land hex next to sea or an inlet."""
    if is_sea(gm, h):
        return False
    return any(is_sea(gm, n) or inlet_between(gm, h, n) for n in gm.grid.neighbours(h)) or \
        len(gm.grid.neighbours(h)) < 6


@dataclass
class Terrain:
    """One map's terrain with the hex sets every search asks about computed once (road and town
    hexes, river hexes), so a supply search over the whole map stays fast."""

    map: GameMap
    roads: set[Hex] = field(default_factory=set)
    towns: set[Hex] = field(default_factory=set)
    rivers: set[Hex] = field(default_factory=set)
    network: set[Hex] = field(default_factory=set)  # road hexes and towns

    def __post_init__(self) -> None:
        self.network = self.roads | self.towns

    @classmethod
    def of(cls, gm: GameMap) -> "Terrain":
        river_count: dict[Hex, int] = {}
        for f in gm.hexside_features:
            if f.kind == RIVER:
                for h in (f.hexside.a, f.hexside.b):
                    river_count[h] = river_count.get(h, 0) + 1
        towns = {f.hex for f in gm.features if f.kind in TOWN_KINDS} | {h for h, t in gm.terrain.items() if t == "city"}
        return cls(gm, road_hexes(gm), towns, {h for h, n in river_count.items() if n >= 2})

    def road_step(self, a: Hex, b: Hex) -> bool:
        """Entering b from a along a road or railroad; a town on a road counts as a railroad hex
        (TEC City 'Treat as a railroad hex')."""
        if road_between(self.map, a, b):
            return True
        return (a in self.towns or b in self.towns) and (a in self.roads or b in self.roads) \
            and a in self.network and b in self.network


def place_hexes(gm: GameMap, name: str) -> list[Hex]:
    hexes = list(dict.fromkeys(gm.find_named(name)))
    if not hexes:
        raise ValueError(f"map {gm.id} has no place named {name!r}")
    return hexes


# -- the parallels (hexside lines) -------------------------------------------------------------


@dataclass
class Line:
    """A line of hexsides drawn across the map (the dotted 37th and 38th parallels).

    Which side of it a hex lies on: every column the line crosses has one hexside between two
    vertically adjacent hexes of that column (a line crossing a column of flat-topped hexes must
    cut its vertical chain). A hex is south of the line when an odd number of such crossings lie
    above it in its column. Columns the line does not reach (sea beyond its ends) borrow the
    nearest crossed column's crossings.
    """

    kind: str
    crossings: dict[int, list[int]]  # column -> rows r whose hexside (c, r)-(c, r+1) is on the line

    @classmethod
    def of(cls, gm: GameMap, kind: str) -> "Line":
        crossings: dict[int, list[int]] = {}
        for f in gm.hexside_features:
            if f.kind != kind:
                continue
            a, b = f.hexside.a, f.hexside.b
            if a.col == b.col and abs(a.row - b.row) == 1:
                crossings.setdefault(a.col, []).append(min(a.row, b.row))
        if not crossings:
            raise ValueError(f"map {gm.id} has no {kind} line")
        return cls(kind, crossings)

    def is_south(self, h: Hex) -> bool:
        col = h.col if h.col in self.crossings else min(self.crossings, key=lambda c: (abs(c - h.col), c))
        return sum(1 for r in self.crossings[col] if r < h.row) % 2 == 1


# -- who stands where ----------------------------------------------------------------------------


@dataclass
class Placed:
    at: UnitAt
    unit: Unit
    hex: Hex


@dataclass
class Board:
    """Units on one map, by hex, with each side's Zones of Control."""

    game: Game
    map: GameMap
    placed: list[Placed]
    by_hex: dict[Hex, list[Placed]] = field(default_factory=dict)

    @classmethod
    def from_positions(cls, g: Game, gm: GameMap, positions: list[UnitAt]) -> "Board":
        """ValueError for an unknown unit, a hex off the map, a unit listed twice, a land unit at sea
        or opposing land units in one hex (Movement (G))."""
        seen: set[str] = set()
        placed = []
        for p in positions:
            u = data.unit(g, p.unit)
            if p.unit in seen:
                raise ValueError(f"unit {p.unit} is listed twice")
            seen.add(p.unit)
            h = parse(gm, p.hex)
            if is_sea(gm, h) and not data.is_naval(u):
                raise ValueError(f"{p.unit} is a land unit and hex {p.hex} is sea (Terrain Effects Chart: Sea)")
            placed.append(Placed(p, u, h))
        board = cls(g, gm, placed)
        for pl in placed:
            board.by_hex.setdefault(pl.hex, []).append(pl)
        for h, here in board.by_hex.items():
            sides = {pl.unit.side for pl in here if not data.is_naval(pl.unit)}
            if len(sides) > 1:
                raise ValueError(f"hex {label(gm, h)} holds land units of both sides (Movement (G))")
        return board

    def units_of(self, side: str) -> list[Placed]:
        return [p for p in self.placed if p.unit.side == side]

    def land_units_of(self, side: str) -> list[Placed]:
        return [p for p in self.units_of(side) if not data.is_naval(p.unit)]

    def occupied_by(self, side: str) -> set[Hex]:
        """Hexes holding land units of `side` (naval units do not occupy: Naval Units (D))."""
        return {p.hex for p in self.land_units_of(side)}

    def zoc_of(self, side: str, for_supply_of: str | None = None) -> set[Hex]:
        """Hexes in the Zone of Control of `side`'s units.

        Not into completely Rough hexes (Zones of Control (C)), not into sea; with `for_supply_of`
        set, not into hexes that side's units occupy (Zones of Control (B))."""
        screened = self.occupied_by(for_supply_of) if for_supply_of else set()
        zone: set[Hex] = set()
        for p in self.units_of(side):
            if not data.has_zoc(p.unit) or is_sea(self.map, p.hex):
                continue
            for n in self.map.grid.neighbours(p.hex):
                if n in self.map and not is_sea(self.map, n) and not is_entirely_rough(self.map, n):
                    zone.add(n)
        return zone - screened
