"""Small SPI Korea test maps for exact rule tests (the real map is being regenerated from geography).

`board(...)` returns the real game with the `korea` map replaced by a small all-clear map built with
HexGrid.build + GameMap, on which a test draws exactly the terrain, rivers, roads, towns, parallels and
named places it needs; every scenario's UN supply sources become Pusan's hex (default 0510). Hexes in
one column and consecutive rows are always adjacent ("0504" - "0505").
"""

from __future__ import annotations

from dataclasses import replace

import scenarios
from adjudicator.rules.positions import UnitAt
from scenarios.hexgrid import HexGrid, Hexside
from scenarios.model import GameMap, HexFeature, HexsideFeature, MapPath, Source
from rules_helpers import rolled, validate  # noqa: F401  (the game's tests import them from here)

REAL = scenarios.load_game("spi")
MAP_ID = "korea"


def board(terrain=None, rivers=(), roads=(), rails=(), features=(), lines=(), pusan="0510", soul=None,
          size=10, river_name=""):
    """`rivers`: (hex, hex) hexsides; `lines`: (kind, hex, hex) hexsides such as parallel_38;
    `features`: (hex, kind, name)."""
    grid = HexGrid.build(first_col=1, last_col=size, first_row=1, last_row=size)
    real_map = REAL.maps[MAP_ID]
    t = {h: "clear" for h in grid.hexes()}
    for label, kind in (terrain or {}).items():
        t[grid.parse(label)] = kind
    feats = [HexFeature(grid.parse(h), kind, name) for h, kind, name in features]
    feats += [HexFeature(grid.parse(pusan), "major_city", "Pusan"), HexFeature(grid.parse(pusan), "port", "Pusan")]
    if soul:
        feats.append(HexFeature(grid.parse(soul), "capital", "Soul"))
    sides = [HexsideFeature(Hexside.between(grid.parse(a), grid.parse(b)), "river", river_name) for a, b in rivers]
    sides += [HexsideFeature(Hexside.between(grid.parse(a), grid.parse(b)), kind) for kind, a, b in lines]
    paths = [MapPath("road", tuple(grid.parse(h) for h in line)) for line in roads]
    paths += [MapPath("rail", tuple(grid.parse(h) for h in line)) for line in rails]
    gm = GameMap(id=MAP_ID, name="test map", grid=grid, scale="", terrain_types=dict(real_map.terrain_types),
                 terrain=t, features=feats, hexside_features=sides, paths=paths, source=Source("test map"))
    sources = [pusan] + ([soul] if soul else []) + ["any:supply_unit", "any:amph"]
    scs = {sid: replace(sc, supply_sources={"un": sources, "communist": ["any:supply_unit"]})
           for sid, sc in REAL.scenarios.items()}
    return replace(REAL, maps={**REAL.maps, MAP_ID: gm}, scenarios=scs,
                   stand_ins=[s for s in REAL.stand_ins if not s.what.startswith(f"map {MAP_ID}")])


def at(*pairs):
    """Positions from ('unit', 'hex') pairs."""
    return [UnitAt(p[0], p[1]) for p in pairs]


def test_board_geometry_assumed_by_the_tests():
    g = board()
    grid = g.maps[MAP_ID].grid
    assert grid.are_adjacent(grid.parse("0504"), grid.parse("0505"))
    assert grid.are_adjacent(grid.parse("0505"), grid.parse("0605"))
    assert grid.distance(grid.parse("0501"), grid.parse("0505")) == 4
