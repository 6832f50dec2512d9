"""Supply / line-of-communication benchmark on the largest map (Fire and Ice, ~3,900 hexes).

Every unit of one side is placed on the map; the trace is done two ways and
timed side by side:

* **one search** — a single multi-source search for the whole side;
* **per unit** — one search started from each unit.

When Fire and Ice's own tracer is registered (``supply_tracer("fireandice")``)
that is what is timed: the whole side in one call versus one call per unit.
Until then a stand-in of its unit-LoC rule (14.5) runs on the real map with
``scenarios.hexgrid.search``: a path of at most 10 MP, at the stand-in terrain
effects chart's costs (road 0.5, river hexside +1, sea prohibited), not
entering enemy units or enemy ZoC (friendly units negate it), to an HQ of the
side.  The section notes which of the two was measured.

Positions: the scenario with the most units on the map (intervention) sets
the hexes it gives; the side's other units stand on seeded random land hexes
in that side's half of the peninsula; the enemy's set-up units supply ZoC.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from bench.config import TARGETS, SupplySettings
from bench.indexed_search import MapIndex, indexed_search
from bench.profiling import cprofile_call
from bench.results import Section
from scenarios import load_game
from scenarios.hexgrid import Hex, Hexside, search
from scenarios.model import Game, GameMap

LOC_MP = 10.0  # 14.5 unit LoC: at most 10 MP to an HQ (UN in winter 8)


@dataclass
class SidePositions:
    side: str
    scenario: str
    units: dict[str, Hex]  # unit id -> hex, every unit of the side
    hqs: list[Hex]  # hexes of the side's HQs
    enemy: dict[str, Hex]  # enemy unit id -> hex
    from_setup: int  # how many of `units` stand where the scenario sets them up


def busiest_scenario(game: Game, map_id: str) -> str:
    def on_map(scenario) -> int:
        return sum(1 for p in scenario.setup if not p.location.startswith("box:"))
    return max((s for s in game.scenarios.values() if map_id in s.maps or not s.maps), key=on_map).id


def place_side(game: Game, game_map: GameMap, side: str, seed: int = 11) -> SidePositions:
    scenario = game.scenarios[busiest_scenario(game, game_map.id)]
    grid = game_map.grid
    units: dict[str, Hex] = {}
    enemy: dict[str, Hex] = {}
    for placement in scenario.setup:
        unit = game.units.get(placement.unit)
        if unit is None or placement.location.startswith("box:"):
            continue
        try:
            hex_ = grid.parse(placement.location)
        except ValueError:
            continue
        if not grid.is_on_map(hex_) or game_map.terrain.get(hex_, "sea") == "sea":
            continue  # off the map, or a set-up hex the derived map draws as sea: placed below instead
        (units if unit.side == side else enemy)[unit.id] = hex_
    from_setup = len(units)
    land = [h for h, t in game_map.terrain.items() if t != "sea"]
    rows = sorted({h.row for h in land})
    middle = rows[len(rows) // 2]
    friendly_half = [h for h in land if (h.row < middle) == _is_northern(side)]
    occupied = set(units.values()) | set(enemy.values())
    rng = random.Random(seed)
    free = [h for h in friendly_half if h not in occupied]
    rng.shuffle(free)
    for unit in game.units.values():
        if unit.side == side and unit.id not in units:
            units[unit.id] = free.pop()
    hqs = [h for uid, h in units.items() if "hq" in game.units[uid].flags]
    return SidePositions(side, scenario.id, units, hqs, enemy, from_setup)


def _is_northern(side: str) -> bool:
    return side == "communist"  # Fire and Ice: the Communist side holds the north


TERRAIN_MP = {"clear": 1.0, "rough": 2.0, "mountain": 3.0, "city": 1.0, "town": 1.0}  # stand-in TEC; sea: none


def static_step_cost(game_map: GameMap) -> Callable[[Hex, Hex], float | None]:
    """What moving from `a` into `b` costs on the bare map: road 0.5, else terrain (+1 across a river)."""
    grid = game_map.grid
    roads: set[Hexside] = set()
    for path in game_map.paths:
        for x, y in zip(path.hexes, path.hexes[1:]):
            if x != y and grid.are_adjacent(x, y):
                roads.add(Hexside.between(x, y))
    rivers = {f.hexside for f in game_map.hexside_features if f.kind == "river"}
    terrain = game_map.terrain

    def step_cost(a: Hex, b: Hex) -> float | None:
        side = Hexside.between(a, b)
        if side in roads:
            return 0.5
        cost = TERRAIN_MP.get(terrain.get(b, "sea"))
        if cost is None:
            return None
        return cost + (1.0 if side in rivers else 0.0)

    return step_cost


def blocked_hexes(game_map: GameMap, positions: SidePositions) -> set[Hex]:
    """Enemy units and the enemy ZoC no friendly unit negates (14.5)."""
    friendly = set(positions.units.values())
    enemy_hexes = set(positions.enemy.values())
    zoc = {n for h in enemy_hexes for n in game_map.grid.neighbours(h)} - friendly
    return enemy_hexes | zoc


def loc_step_cost(game_map: GameMap, positions: SidePositions) -> Callable[[Hex, Hex], float | None]:
    """Cost of moving from `a` into `b` for an LoC trace (stand-in TEC, 14.5 blocking)."""
    static = static_step_cost(game_map)
    blocked = blocked_hexes(game_map, positions)

    def step_cost(a: Hex, b: Hex) -> float | None:
        return None if b in blocked else static(a, b)

    return step_cost


def stand_in_one_search(game_map: GameMap, positions: SidePositions, step_cost) -> set[str]:
    """Every unit in one search: from all HQs at once, tracing back toward the units."""
    def reverse(a: Hex, b: Hex) -> float | None:
        return step_cost(b, a)  # the unit traces toward the HQ: price the move b -> a
    result = search(game_map.grid, positions.hqs, reverse, max_cost=LOC_MP)
    return {uid for uid, h in positions.units.items() if result.reached(h)}


def stand_in_per_unit(game_map: GameMap, positions: SidePositions, step_cost) -> set[str]:
    """One search per unit, from the unit, looking for any HQ within 10 MP."""
    hqs = set(positions.hqs)
    in_loc = set()
    for uid, h in positions.units.items():
        result = search(game_map.grid, [h], step_cost, max_cost=LOC_MP)
        if any(result.reached(q) for q in hqs):
            in_loc.add(uid)
    return in_loc


def best_time(function: Callable[[], object], repeats: int) -> tuple[float, object]:
    best = float("inf")
    value = None
    for _ in range(repeats):
        started = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - started)
    return best, value


def stand_in_indexed(index: MapIndex, game_map: GameMap, positions: SidePositions) -> set[str]:
    """The proposal: the same trace as `stand_in_one_search` on a prebuilt `MapIndex` (reversed costs)."""
    blocked = bytearray(len(index.hexes))
    for h in blocked_hexes(game_map, positions):
        j = index.number.get(h)
        if j is not None:
            blocked[j] = 1
    cost = indexed_search(index, [index.number[h] for h in positions.hqs], blocked, max_cost=LOC_MP)
    return {uid for uid, h in positions.units.items() if cost[index.number[h]] <= LOC_MP}


def run_supply(settings: SupplySettings = SupplySettings(), profile_on_miss: bool = True) -> Section:
    section = Section("supply")
    game = load_game(settings.game)
    game_map = max(game.maps.values(), key=lambda m: len(m.terrain))
    side = max(game.sides, key=lambda s: sum(1 for u in game.units.values() if u.side == s))
    positions = place_side(game, game_map, side)
    section.notes.append(
        f"map {game_map.id}: {len(game_map.terrain)} hexes; side {side}: {len(positions.units)} units "
        f"({positions.from_setup} at their {positions.scenario} set-up hexes, the rest on seeded land hexes), "
        f"{len(positions.hqs)} HQs, {len(positions.enemy)} enemy units")

    # The stand-in unit-LoC trace on scenarios.hexgrid.search, and the index-based proposal.
    step_cost = loc_step_cost(game_map, positions)
    one, in_one = best_time(lambda: stand_in_one_search(game_map, positions, step_cost), settings.repeats)
    per_unit, in_per = best_time(lambda: stand_in_per_unit(game_map, positions, step_cost), settings.per_unit_repeats)
    started = time.perf_counter()
    index = MapIndex.build(game_map.grid, game_map.terrain, static_step_cost(game_map)).reversed()
    index_build = time.perf_counter() - started
    fast, in_fast = best_time(lambda: stand_in_indexed(index, game_map, positions), settings.repeats)
    section.row("stand-in: one search (hexgrid.search)", f"{one * 1000:8.2f} ms  ({len(in_one)} units with an LoC)")
    section.row("stand-in: one search per unit", f"{per_unit * 1000:8.2f} ms  ({per_unit / one:.1f}x the one search)")
    section.row("proposal: one index-based search", f"{fast * 1000:8.2f} ms  ({one / fast:.1f}x faster than "
                f"hexgrid.search; map index built once in {index_build * 1000:.0f} ms)")
    section.numbers.update({"stand_in_one_ms": one * 1000, "stand_in_per_unit_ms": per_unit * 1000,
                            "indexed_one_ms": fast * 1000, "index_build_ms": index_build * 1000,
                            "units": len(positions.units), "hexes": len(game_map.terrain)})
    if not (in_one == in_per == in_fast):
        section.notes.append("WARNING: the stand-in searches disagree on which units have an LoC")

    tracer = _real_tracer(settings.game)
    if tracer is not None:
        t_one, t_per, agree = _time_real_tracer(tracer, game, positions, settings)
        section.row("tracer: whole side in one call", f"{t_one * 1000:8.2f} ms  (best of {settings.repeats})")
        section.row("tracer: one call per unit", f"{t_per * 1000:8.2f} ms  (best of {settings.per_unit_repeats})")
        section.numbers.update({"tracer_one_ms": t_one * 1000, "tracer_per_unit_ms": t_per * 1000})
        section.notes.append(f"targets measured on the game's registered tracer supply_tracer({settings.game!r}) "
                             "(live net, HQ and unit traces: several multi-source searches per call)")
        if not agree:
            section.notes.append("WARNING: the tracer's whole-side and per-unit answers disagree")
        measured_one, measured_per = t_one, t_per
    else:
        section.notes.append(f"targets measured on the stand-in (no {settings.game} tracer is registered)")
        measured_one, measured_per = one, per_unit
    section.notes.append(f"stand-in: unit LoC of 14.5 (<= {LOC_MP:g} MP to an HQ of the side, stand-in TEC costs, "
                         "enemy units and unnegated enemy ZoC block) on the real map")
    ratio = measured_per / measured_one if measured_one else 0.0
    section.numbers.update({"one_search_ms": measured_one * 1000, "per_unit_ms": measured_per * 1000, "speedup": ratio})
    section.target("whole side in one search", measured_one * 1000, TARGETS.supply_ms, "ms", at_most=True)
    section.target("speed-up over per-unit searches", ratio, TARGETS.supply_speedup, "x", at_most=False)
    if profile_on_miss and not all(t.passed for t in section.targets):
        if tracer is not None:
            everyone = _unit_positions(game, positions)
            section.profile = "tracer, whole side, 10 calls:\n" + cprofile_call(
                lambda: [tracer(game, positions.scenario, positions.side, everyone, {}) for _ in range(10)], top=18)
        else:
            section.profile = cprofile_call(lambda: [stand_in_one_search(game_map, positions, step_cost)
                                                     for _ in range(20)], top=12)
    return section


def _real_tracer(system: str):
    try:
        from adjudicator.rules import register_all_games
        from adjudicator.rules.positions import supply_tracer
    except ImportError:
        return None
    register_all_games()
    return supply_tracer(system)


def _time_real_tracer(tracer, game: Game, positions: SidePositions, settings: SupplySettings):
    everyone = _unit_positions(game, positions)
    own = everyone[:len(positions.units)]
    one, report = best_time(lambda: tracer(game, positions.scenario, positions.side, everyone, {}), settings.repeats)

    def per_unit():
        status = {}
        for unit in own:
            rep = tracer(game, positions.scenario, positions.side, [unit] + [u for u in everyone if u is not unit], {})
            status.update({u.unit: u.in_supply for u in rep.units if u.unit == unit.unit})
        return status

    per, status = best_time(per_unit, settings.per_unit_repeats)
    agree = {u.unit: u.in_supply for u in report.units if u.unit in status} == status
    return one, per, agree


def _unit_positions(game: Game, positions: SidePositions) -> list:
    """The side's units, then the enemy's, as the tracers take them (hex labels)."""
    from adjudicator.rules.positions import UnitAt

    grid = max(game.maps.values(), key=lambda m: len(m.terrain)).grid
    own = [UnitAt(uid, grid.label(h)) for uid, h in positions.units.items()]
    return own + [UnitAt(uid, grid.label(h)) for uid, h in positions.enemy.items()]
