"""Small Korean War Battles test maps for exact rule tests (the real maps are being regenerated).

`board(...)` returns the real game with one scenario's map replaced by a 10 x 10 all-clear map built
with HexGrid.build + GameMap, on which a test draws exactly the terrain, rivers, Han hexsides, roads
and supply sources it needs. Hexes in one column and consecutive rows are always adjacent
("0504" - "0505"), so a line down a column is a line of that many hexes.
"""

from __future__ import annotations

from dataclasses import replace

import scenarios
from adjudicator.rules.positions import UnitAt
from scenarios.hexgrid import HexGrid, Hexside
from scenarios.model import GameMap, HexFeature, HexsideFeature, MapPath, Source
from rules_helpers import rolled, validate  # noqa: F401  (the game's tests import them from here)

REAL = scenarios.load_game("kwb")


def board(scenario="pusan", terrain=None, rivers=(), han=(), roads=(), un_sources=("0510",),
          communist_sources=("0501",), features=(), size=10):
    grid = HexGrid.build(first_col=1, last_col=size, first_row=1, last_row=size)
    sc = REAL.scenarios[scenario]
    real_map = REAL.maps[sc.maps[0]]
    types = dict(real_map.terrain_types)
    for extra in ("reservoir", "sea"):
        types.setdefault(extra, next(iter(REAL.maps[m].terrain_types[extra] for m in REAL.maps
                                          if extra in REAL.maps[m].terrain_types)))
    t = {h: "clear" for h in grid.hexes()}
    for label, kind in (terrain or {}).items():
        t[grid.parse(label)] = kind
    feats = [HexFeature(grid.parse(h), kind, name) for h, kind, name in features]
    sides = [HexsideFeature(Hexside.between(grid.parse(a), grid.parse(b)), "river") for a, b in rivers]
    sides += [HexsideFeature(Hexside.between(grid.parse(a), grid.parse(b)), "han_river") for a, b in han]
    paths = [MapPath("road", tuple(grid.parse(h) for h in line)) for line in roads]
    gm = GameMap(id=real_map.id, name="test map", grid=grid, scale="", terrain_types=types, terrain=t,
                 features=feats, hexside_features=sides, paths=paths, source=Source("test map"))
    sc = replace(sc, supply_sources={"un": list(un_sources), "communist": list(communist_sources)})
    return replace(REAL, maps={**REAL.maps, gm.id: gm}, scenarios={**REAL.scenarios, scenario: sc},
                   stand_ins=[s for s in REAL.stand_ins if not s.what.startswith(f"map {gm.id}")])


def at(*triples):
    """Positions from ('unit', 'hex') or ('unit', 'hex', 'step') tuples."""
    return [UnitAt(t[0], t[1], t[2] if len(t) > 2 else "") for t in triples]


def test_board_geometry_assumed_by_the_tests():
    g = board()
    grid = g.maps["pusan"].grid
    assert grid.are_adjacent(grid.parse("0504"), grid.parse("0505"))
    assert grid.are_adjacent(grid.parse("0505"), grid.parse("0605"))
    assert grid.distance(grid.parse("0501"), grid.parse("0505")) == 4
