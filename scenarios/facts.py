"""What the data says about hexes, as checks a map must pass.

A rulebook that names a hex says something about the printed map: "the port of Pusan (hex 0216)"
puts 0216 on the coast, "the 7th Fleet ... within 2 hexes of a coast hex from hex 2476" makes 2476
a coast hex, a setup chart that puts a tank in 1211 means a tank may stand there, "map-edge hexes
marked with a Supply symbol" are on the map's edge.  Our maps are derived from geography
(docs/maps.md), so nothing guarantees those facts unless they are checked: the loader checks every
fact on every map (``scenarios check`` fails with the fact's file:line and rule), and the map builder
(``scenarios.mapbuild.honour``) bends and classifies the map until they all hold.

Facts come from three places in the data, each row keeping its own ``source`` (a rule section, or a
``stand-in`` for our own placements, which are checked the same way):

- ``maps/<map>.features.csv`` (and the generated ``geo-features.csv``): what a feature's kind demands,
  ``FEATURE_DEMANDS`` (every kind not listed there stands on land);
- scenario setups and arrival schedules: a unit's hex is terrain it may stand on (not water unless
  it is a naval unit; not a terrain the game's ``[[terrain_ban]]`` forbids it, game.toml);
- scenario ``[supply_sources]`` hexes: on land.
"""

from __future__ import annotations

from scenarios.hexgrid import Hex
from scenarios.model import Fact, GameMap, TerrainBan, Unit

LAND = "land"  # not water
COAST = "coast"  # land with a water neighbour on the map
EDGE = "edge"  # on the map's edge
WATER = "water"  # sea, lake or reservoir
STAND = "stand"  # the fact's unit may stand here (water and terrain bans)

#: What a map feature of each kind demands of its hex; any other kind: LAND.
FEATURE_DEMANDS: dict[str, tuple[str, ...]] = {
    "port": (COAST,),  # a port is on the coast
    "coast": (COAST,),  # Fire and Ice 11.2 "the coastal hex 2362"
    "coast_range_end": (COAST,),  # Fire and Ice 11.2 "a coast hex from hex 2476 to 4804"
    "supply_symbol": (LAND, EDGE),  # KWB 9.0 "map-edge hexes marked with a Supply symbol"
    "naval_passage": (WATER,),  # SPI Naval Units (G): the arrows round the southern tip are at sea
}

#: Units with this flag stand at sea or in a port (SPI's naval units); every other unit stands on land.
NAVAL_FLAG = "naval"

__all__ = ["COAST", "EDGE", "FEATURE_DEMANDS", "Fact", "LAND", "STAND", "TerrainBan", "WATER", "describe",
           "feature_demands", "stand_ban", "unmet"]


def feature_demands(kind: str) -> tuple[str, ...]:
    return FEATURE_DEMANDS.get(kind, (LAND,))


def stand_ban(unit: Unit, gm: GameMap, hex: Hex, bans: tuple[TerrainBan, ...]) -> str:
    """Why `unit` may not stand in `hex` ("" when it may)."""
    terrain = gm.terrain_at(hex)
    if unit.has(NAVAL_FLAG):
        if not gm.is_water(hex) and not gm.features_at(hex, "port"):
            return f"{unit.id} is a naval unit: it stands at sea or in a port, not on {terrain}"
        return ""
    if gm.is_water(hex):
        return f"{unit.id} is a land unit and {terrain} is water"
    for ban in bans:
        if terrain in ban.terrain and ban.applies_to(unit):
            lifted = set(ban.except_on) & (gm.path_kinds_at(hex) | {f.kind for f in gm.features_at(hex)})
            if not lifted:
                return f"{unit.id} may not stand on {terrain} ({ban.source})" + (
                    f" except on {' or '.join(ban.except_on)}" if ban.except_on else "")
    return ""


def unmet(fact: Fact, gm: GameMap, bans: tuple[TerrainBan, ...] = ()) -> list[str]:
    """What the map breaks of the fact (empty when it holds), one phrase per broken demand."""
    h = fact.hex
    broken = []
    for demand in fact.demands:
        if demand == LAND and gm.is_water(h):
            broken.append(f"{gm.grid.label(h)} is {gm.terrain_at(h)}, not land")
        elif demand == WATER and not gm.is_water(h):
            broken.append(f"{gm.grid.label(h)} is {gm.terrain_at(h)}, not water")
        elif demand == EDGE and not gm.is_edge(h):
            broken.append(f"{gm.grid.label(h)} is not on the map edge")
        elif demand == COAST:
            if gm.is_water(h):
                broken.append(f"{gm.grid.label(h)} is {gm.terrain_at(h)}, not a coast hex (land)")
            elif not any(gm.is_water(n) for n in gm.grid.neighbours(h)):
                broken.append(f"{gm.grid.label(h)} is not a coast hex: no water next to it")
        elif demand == STAND and fact.unit is not None:
            why = stand_ban(fact.unit, gm, h, bans)
            if why:
                broken.append(f"{gm.grid.label(h)}: {why}")
    return broken


def describe(demands: tuple[str, ...]) -> str:
    words = {LAND: "land", COAST: "a coast hex", EDGE: "on the map edge", WATER: "water",
             STAND: "terrain the unit may stand on"}
    return " and ".join(words[d] for d in demands)
