"""Make a derived map honour every hex fact the data states (scenarios.facts), and say whether it does.

Geography gives the shape of Korea; the rulebooks say things about particular hexes of the printed
map ("the coastal hex 2362", "the port of Pusan (0216)", a tank set up in 1211).  Where the two
disagree, the book wins, in three places of the build:

- the **warp** (``coast_pulls``): a coast hex that the fit puts more than
  ``PULL_BEYOND_HEXES`` from the shore is bent onto the shore, a quarter hex inland (Fire and Ice
  1024, which the fit leaves five hexes from Korea Bay);
- the **coastline classification** (``honour_water``): a hex the data needs on land is land; a coast
  hex with no water beside it gets its most seaward neighbour as sea (the shore runs through or next
  to it); a hex the data needs at sea is sea;
- the **terrain** (``honour_bans``): a book setup hex whose unit may not stand on the derived terrain
  (KWB 5.2.3: mobile units and Rough) becomes the map's clear terrain.

Our own stand-in placements of units are checked but never bend the map: a unit a stand-in puts on
water or forbidden terrain is a data error for ``scenarios check``, fixed in the setup file.
``verify`` checks every fact on the finished map for the calibration report.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

from scenarios import facts, geodata
from scenarios.hexgrid import Hex
from scenarios.loader import read_game_dir
from scenarios.model import Fact, Game, GameMap, HexFeature, MapPath, Source
from scenarios.problems import DataError
from scenarios.mapbuild import classify, derived
from scenarios.mapbuild.places import Feature

WATER = ("sea", "lake")
PULL_BEYOND_HEXES = 3.0  # a coast hex further than this from open sea is bent onto the shore (nearer: classification)
PULL_INLAND_HEXES = 0.3  # how far inland of the shore a pulled hex centre lands


@dataclass(frozen=True)
class Change:
    """One hex the facts changed, for the calibration report."""

    hex: Hex
    before: str
    after: str
    why: str  # the fact's subject and file:line


def game_for(game_dir: Path) -> Game | None:
    """The game's data as far as it reads (its facts do not depend on the maps being right).

    A file that cannot be read at all (not UTF-8, not TOML) is a DataError: the facts it states
    would be missing, and the map built without them would break them silently."""
    game, problems = read_game_dir(game_dir)
    if problems.unreadable:
        raise DataError(problems.unreadable)
    return game


def map_facts(game: Game | None, map_id: str) -> list[Fact]:
    """The facts about one map, except those of the generated geo-features.csv (rebuilt here)."""
    if game is None:
        return []
    return [f for f in game.hex_facts if f.map_id == map_id and ".geo-features.csv:" not in f.where]


def port_facts(map_id: str, features: list[Feature]) -> list[Fact]:
    """Generated ports are on the coast too (a towns.csv port is a harbour town)."""
    return [Fact(map_id, f.hex, (facts.COAST,), f"port {f.name}", Source(derived(f.why)),
                 f"{map_id}.geo-features.csv (generated)") for f in features if f.kind == "port"]


def bends_map(fact: Fact) -> bool:
    """Facts the build makes true: all but our stand-in unit placements."""
    return fact.is_book or facts.STAND not in fact.demands


def needs_land(fact: Fact) -> bool:
    if facts.STAND in fact.demands:
        return fact.unit is not None and not fact.unit.has(facts.NAVAL_FLAG)
    return bool({facts.LAND, facts.COAST, facts.EDGE} & set(fact.demands))


# -- the warp ---------------------------------------------------------------------------------------

def coast_pulls(cal, coast_hexes: list[Hex], hex_km: float) -> list[tuple[Hex, tuple[float, float]]]:
    """(hex, ground km) for each coast hex the calibration puts far from open sea: where to bend it to."""
    pulls = []
    for h in sorted(set(coast_hexes)):
        lat, lon = cal.hex_latlon(h)
        sea = classify.nearest_open_sea(lat, lon, hex_km)
        if sea is None:
            continue  # nothing within reach: the classification tries, verify reports
        px, py = cal.projection.to_km(lat, lon)
        sx, sy = cal.projection.to_km(*sea)
        dist = math.hypot(px - sx, py - sy)
        if dist <= PULL_BEYOND_HEXES * hex_km:
            continue
        k = PULL_INLAND_HEXES * hex_km / dist
        pulls.append((h, (sx + (px - sx) * k, sy + (py - sy) * k)))
    return pulls


# -- the coastline classification -------------------------------------------------------------------

def honour_water(cal, ground: dict[Hex, classify.HexGround], generic: dict[Hex, str], thresholds,
                 map_facts_: list[Fact], keep_land: set[Hex], hex_km: float) -> list[Change]:
    """Make land, coast and water facts hold on the generic classes (sea, lake, clear...), in place.

    ``keep_land``: hexes that must stay land besides the facts' own (named places of the towns table)."""
    changes: list[Change] = []
    binding = [f for f in map_facts_ if bends_map(f)]
    land_needed = {f.hex for f in binding if needs_land(f)} | keep_land
    for f in binding:
        if f.hex in land_needed and generic[f.hex] in WATER:
            g = ground[f.hex]
            after = classify.land_class(g.elevation_m, g.relief_m, thresholds)
            changes.append(Change(f.hex, generic[f.hex], after, _why(f)))
            generic[f.hex] = after
        elif facts.WATER in f.demands and generic[f.hex] not in WATER:
            changes.append(Change(f.hex, generic[f.hex], "sea", _why(f)))
            generic[f.hex] = "sea"
    for f in binding:
        if facts.COAST not in f.demands or any(generic[n] in WATER for n in cal.grid.neighbours(f.hex)):
            continue
        options = [n for n in cal.grid.neighbours(f.hex) if n not in land_needed]
        if not options:
            continue  # every neighbour is needed on land: verify reports the fact as broken
        sea = classify.nearest_open_sea(*cal.hex_latlon(f.hex), hex_km) or cal.hex_latlon(f.hex)
        seaward = min(options, key=lambda n: (round(ground[n].land_fraction, 2),
                                              geodata.distance_km(*cal.hex_latlon(n), *sea), n))
        changes.append(Change(seaward, generic[seaward], "sea", f"{_why(f)}: its most seaward neighbour"))
        generic[seaward] = "sea"
    return changes


def honour_bans(gm: GameMap, terrain: dict[Hex, str], map_facts_: list[Fact], game: Game, clear_id: str,
                hand_set: set[Hex]) -> list[Change]:
    """A book setup hex whose unit may not stand on the derived terrain becomes clear, in place.

    Hexes a maintainer set by hand (overrides.csv) are left alone: verify reports the conflict."""
    changes = []
    for f in map_facts_:
        if not (f.is_book and f.unit is not None and facts.STAND in f.demands) or f.hex in hand_set:
            continue
        current = replace(gm, terrain=terrain)
        if gm.is_water(f.hex) or not facts.stand_ban(f.unit, current, f.hex, game.terrain_bans):
            continue
        changes.append(Change(f.hex, terrain[f.hex], clear_id, _why(f)))
        terrain[f.hex] = clear_id
    return changes


def _why(f: Fact) -> str:
    return f"{f.subject} ({f.where})"


# -- the finished map -------------------------------------------------------------------------------

def built_map(gm: GameMap, terrain: dict[Hex, str], features: list[Feature], paths) -> GameMap:
    """The loader's map with the build's terrain, features and paths, for the fact checks."""
    return replace(gm, terrain=dict(terrain),
                   features=[HexFeature(f.hex, f.kind, f.name, f.side) for f in features],
                   paths=[MapPath(p.kind, tuple(p.hexes), p.name) for p in paths])


@dataclass(frozen=True)
class Verdict:
    fact: Fact
    broken: tuple[str, ...]

    @property
    def holds(self) -> bool:
        return not self.broken


def verify(gm: GameMap, map_facts_: list[Fact], game: Game) -> list[Verdict]:
    return [Verdict(f, tuple(facts.unmet(f, gm, game.terrain_bans))) for f in map_facts_]
