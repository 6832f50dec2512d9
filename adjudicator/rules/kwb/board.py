"""What a Korean War Battles map says about hexes and hexsides, and who stands where (6.0 ZOC).

Terrain is one type per hex (clear, rough, city, sea, reservoir); towns, cities, supply symbols
and sources are hex features; rivers and the Han are hexside features; roads and trails are
paths (scenarios.model.GameMap). These helpers are the only place that knows those data kinds,
so the map engineer can regenerate the maps from geography without touching the rules.

6.1.1 No-ZOC units: "Battalion or cadre-sized units, HQ units, Supply Centers and units under an
Improved Position marker (7.5) do not have any ZOCs."
6.1.2 "ZOCs do not extend into or out of Rough or City hexes, or across water hexsides of any
type (river, reservoir, or sea)."
The rest of the ZOC rules (movement, retreat) are Standard Rules, absent from the book.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.rules.kwb import data
from adjudicator.rules.positions import UnitAt
from scenarios.hexgrid import Hex
from scenarios.model import Game, GameMap, Unit
from adjudicator.rules.gamedata import hex_label as label, hex_on_map as parse  # noqa: F401  (board.label, board.parse)

WATER_HEXSIDE_KINDS = frozenset({"river", "han_river", "reservoir", "sea", "major_river"})
WATER_TERRAIN = frozenset({"sea", "reservoir"})
ROAD_KINDS = frozenset({"road", "trail"})
HAN_KIND = "han_river"


def is_rough(gm: GameMap, h: Hex) -> bool:
    return gm.terrain_at(h) == "rough"


def is_city(gm: GameMap, h: Hex) -> bool:
    """City terrain, or a city feature in the hex (6.1.2 City hexes; 12.22 city hexes)."""
    return gm.terrain_at(h) == "city" or bool(gm.features_at(h, "city"))


def is_water(gm: GameMap, h: Hex) -> bool:
    """Sea or reservoir: no unit stands there and no line is traced through it."""
    return gm.terrain_at(h) in WATER_TERRAIN


def water_hexside(gm: GameMap, a: Hex, b: Hex) -> bool:
    """6.1.2 'water hexsides of any type (river, reservoir, or sea)': a river/Han hexside, or a side of a
    sea or reservoir hex."""
    return bool(gm.hexside_kinds(a, b) & WATER_HEXSIDE_KINDS) or is_water(gm, a) or is_water(gm, b)


def han_between(gm: GameMap, a: Hex, b: Hex) -> bool:
    return HAN_KIND in gm.hexside_kinds(a, b)


def road_between(gm: GameMap, a: Hex, b: Hex) -> bool:
    return bool(gm.hexside_kinds(a, b) & ROAD_KINDS)


def road_hexes(gm: GameMap) -> set[Hex]:
    return {h for p in gm.paths if p.kind in ROAD_KINDS for h in p.hexes}


def zoc_extends(gm: GameMap, source: Hex, into: Hex) -> bool:
    """6.1.2: a ZOC does not extend out of a Rough or City hex, into one, or across a water hexside."""
    if into not in gm or is_water(gm, into):
        return False
    if is_rough(gm, source) or is_city(gm, source) or is_rough(gm, into) or is_city(gm, into):
        return False
    return not water_hexside(gm, source, into)


@dataclass
class Placed:
    """One position with its counter."""

    at: UnitAt
    unit: Unit
    hex: Hex


@dataclass
class Board:
    """Who stands where on one map (both sides), plus the Improved Position markers (6.1.1)."""

    g: Game
    gm: GameMap
    placed: list[Placed] = field(default_factory=list)
    improved_positions: set[Hex] = field(default_factory=set)
    anomalies: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.by_hex: dict[Hex, list[Placed]] = {}
        for p in self.placed:
            self.by_hex.setdefault(p.hex, []).append(p)

    @classmethod
    def from_positions(cls, g: Game, gm: GameMap, positions: list[UnitAt],
                       improved_positions: list[str] = ()) -> "Board":
        """ValueError for an unknown unit, a hex off the map, a unit twice, or both sides in one hex."""
        placed, seen = [], set()
        for p in positions:
            u = data.unit(g, p.unit)
            if p.unit in seen:
                raise ValueError(f"{p.unit} has two positions")
            seen.add(p.unit)
            data.step_name(u, p.step)
            try:
                h = parse(gm, p.hex)
            except ValueError as err:
                raise ValueError(f"{p.unit}: {err}") from None
            placed.append(Placed(p, u, h))
        board = cls(g, gm, placed, {parse(gm, x) for x in improved_positions})
        for p in placed:
            if is_water(gm, p.hex):
                # A map error (the maps are regenerated from geography) must not stop adjudication: the
                # hex counts as land for the unit standing there, and the result says so.
                board.anomalies.append(f"{p.at.unit} stands in {p.at.hex}, a {gm.terrain_at(p.hex)} hex on map "
                                       f"{gm.id}: treated as land for this unit (map data to check)")
        for h, here in board.by_hex.items():
            if len({p.unit.side for p in here}) > 1:
                raise ValueError(f"units of both sides in {label(gm, h)}: "
                                 + ", ".join(p.at.unit for p in here))
        return board

    def side_at(self, h: Hex) -> str | None:
        here = self.by_hex.get(h)
        return here[0].unit.side if here else None

    def occupied_by(self, h: Hex, side: str) -> bool:
        return self.side_at(h) == side

    def units_of(self, side: str) -> list[Placed]:
        return [p for p in self.placed if p.unit.side == side]

    def exerts_zoc(self, p: Placed) -> bool:
        """6.1.1: no ZOC for battalion/cadre units, HQs, Supply Centers, units under Improved Position."""
        return data.has_zoc(p.unit) and p.hex not in self.improved_positions

    def zoc_of(self, side: str) -> dict[Hex, list[str]]:
        """Hexes in `side`'s ZOC, each with the units projecting it (6.1)."""
        zoc: dict[Hex, list[str]] = {}
        for p in self.units_of(side):
            if not self.exerts_zoc(p):
                continue
            for n in self.gm.grid.neighbours(p.hex):
                if zoc_extends(self.gm, p.hex, n):
                    zoc.setdefault(n, []).append(p.at.unit)
        return zoc

    def blocked_for(self, side: str) -> dict[Hex, str]:
        """Hexes a supply line or line of communications of `side` may not enter, with the reason:
        enemy-occupied hexes, water, and enemy ZOC no friendly unit screens (9.0, 8.1.1)."""
        enemy = data.other_side(side)
        blocked: dict[Hex, str] = {h: f"sea/reservoir {label(self.gm, h)}" for h in self.gm.hexes()
                                   if is_water(self.gm, h) and not self.occupied_by(h, side)}
        for h, units in self.zoc_of(enemy).items():
            if not self.occupied_by(h, side):
                blocked[h] = f"enemy ZOC in {label(self.gm, h)} ({', '.join(units)})"
        for p in self.units_of(enemy):
            blocked[p.hex] = f"enemy unit {p.at.unit} in {label(self.gm, p.hex)}"
        return blocked

    def han_enabled(self, a: Hex, b: Hex) -> bool:
        """12.21: UN units cross a Han hexside only with a division HQ or the 2SE engineer in one of its hexes."""
        for h in (a, b):
            for p in self.by_hex.get(h, []):
                u = p.unit
                if u.side == "un" and ((data.is_hq(u) and u.size == "XX") or u.id == "us-2se"):
                    return True
        return False
