"""Small HoldFast Korea test boards for exact rule tests (the real map is being regenerated).

`board(...)` returns the real game with its map replaced by a 10 x 10 all-clear board built with
HexGrid.build + GameMap, on which a test draws exactly the terrain, rivers, red hex lines, rails,
ports and 38th Parallel it needs. Hexes in one column and consecutive rows are always adjacent
("0504" - "0505"), which keeps the drawings readable.
"""

from __future__ import annotations

from dataclasses import replace

import scenarios
from scenarios.hexgrid import HexGrid, Hexside
from scenarios.model import GameMap, HexFeature, HexsideFeature, MapPath, Source
from rules_helpers import rolled, validate  # noqa: F401  (the game's tests import them from here)

REAL = scenarios.load_game("holdfast")


def board(terrain=None, features=(), rivers=(), red_lines=(), rails=(), parallel=(), un_rail_terminus="0510",
          size=10):
    grid = HexGrid.build(first_col=1, last_col=size, first_row=1, last_row=size)
    real_map = REAL.maps["korea"]
    t = {h: "clear" for h in grid.hexes()}
    for label, kind in (terrain or {}).items():
        t[grid.parse(label)] = kind
    feats = [HexFeature(grid.parse(h), kind, name, side) for h, kind, name, side in features]
    sides = [HexsideFeature(Hexside.between(grid.parse(a), grid.parse(b)), "river") for a, b in rivers]
    sides += [HexsideFeature(Hexside.between(grid.parse(a), grid.parse(b)), "red_line") for a, b in red_lines]
    sides += [HexsideFeature(Hexside.between(grid.parse(a), grid.parse(b)), "parallel_38") for a, b in parallel]
    paths = [MapPath("rail", tuple(grid.parse(h) for h in line)) for line in rails]
    gm = GameMap(id="korea", name="test board", grid=grid, scale="", terrain_types=real_map.terrain_types,
                 terrain=t, features=feats, hexside_features=sides, paths=paths, source=Source("test board"))
    sc = REAL.scenarios["campaign"]
    sources = dict(sc.supply_sources)
    sources["un"] = [un_rail_terminus, "any:un_controlled_port", "any:rail_line_to_pusan"]
    sc = replace(sc, supply_sources=sources)
    return replace(REAL, maps={"korea": gm}, scenarios={"campaign": sc})


def parallel_between_rows(row_north: int, size=10):
    """The 38th Parallel as hexsides between row `row_north` and the row below, across the board."""
    grid = HexGrid.build(first_col=1, last_col=size, first_row=1, last_row=size)
    out = []
    for c in range(1, size + 1):
        h = grid.parse(f"{c:02d}{row_north:02d}")
        for n in grid.neighbours(h):
            if n.row > row_north:
                out.append((grid.label(h), grid.label(n)))
    return out


def test_board_geometry_assumed_by_the_tests():
    g = board()
    grid = g.maps["korea"].grid
    assert grid.are_adjacent(grid.parse("0504"), grid.parse("0505"))
    assert grid.are_adjacent(grid.parse("0505"), grid.parse("0605"))
    assert grid.are_adjacent(grid.parse("0405"), grid.parse("0505"))
    assert len(parallel_between_rows(5)) >= 10
