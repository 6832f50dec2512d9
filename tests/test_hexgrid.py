"""Hex geometry: labels, VASSAL pixel formulas, cube maths and search.

The VASSAL cases are the ones format.md records as verified in the real
engine, so a convention slip here would misplace pieces in the module.
"""

from __future__ import annotations

import functools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scenarios.hexgrid import (
    Blocked,
    Cube,
    Hex,
    HexGrid,
    Hexside,
    Raw,
    cube_to_raw,
    raw_to_cube,
    search,
)

# --- VASSAL's own verified numbers (shared/vassal/format.md, section 3.2) -------

VERIFIED = HexGrid(dx=55.43, dy=64, x0=40, y0=40, first_col=0, last_col=20, first_row=0,
                   last_row=20, width=2000, height=2000, stagger=True)


@pytest.mark.parametrize("pixel,label", [((150, 232), "0203"), ((95, 168), "0103"),
                                         ((206, 104), "0302"), ((206, 232), "0304")])
def test_pixel_to_label_matches_the_engine(pixel, label):
    assert VERIFIED.label(VERIFIED.hex_at(*pixel)) == label


def test_label_to_centre_matches_the_engine():
    # At-start stack with useGridLocation "0203" was placed at (150, 232).
    assert VERIFIED.center(VERIFIED.parse("0203")) == (150, 232)


def test_leading_zeros_follow_vassal():
    g = HexGrid.build(first_col=1, last_col=120, first_row=1, last_row=9, col_digits=2, row_digits=2)
    assert g.label(Hex(5, 7)) == "0507"
    assert g.label(Hex(105, 7)) == "10507"
    assert g.parse("10507") == Hex(105, 7)
    three = HexGrid.build(first_col=1, last_col=9, first_row=1, last_row=9, col_digits=3, row_digits=3)
    assert three.label(Hex(5, 7)) == "005007"


def test_parse_rejects_garbage():
    g = HexGrid.build(first_col=1, last_col=9, first_row=1, last_row=9)
    for bad in ("", "12", "ab12", "01-02"):
        with pytest.raises(ValueError):
            g.parse(bad)


# --- conventions -------------------------------------------------------------------

CONVENTIONS = [
    dict(shifted_columns=s, stagger=st_, sideways=sw)
    for s in ("even", "odd") for st_ in (False, True) for sw in (False, True)
]


def grid_for(conv: dict, first_col=1, first_row=1, cols=12, rows=10) -> HexGrid:
    return _grid(tuple(sorted(conv.items())), first_col, first_row, cols, rows)


@functools.lru_cache(maxsize=None)
def _grid(conv: tuple, first_col: int, first_row: int, cols: int, rows: int) -> HexGrid:
    return HexGrid.build(first_col=first_col, last_col=first_col + cols - 1, first_row=first_row,
                         last_row=first_row + rows - 1, **dict(conv))


@pytest.mark.parametrize("conv", CONVENTIONS)
def test_shifted_columns_sit_half_a_hex_lower(conv):
    g = grid_for(conv)
    if conv["sideways"]:
        # rows are shifted to the right instead: compare x of two rows in a column
        shifted_row = 2 if conv["shifted_columns"] == "even" else 3
        x_shift = g.center(Hex(3, shifted_row))[0]
        x_plain = g.center(Hex(3, shifted_row - 1))[0]
        assert x_shift - x_plain == g.dy // 2 - (g.dy if conv["stagger"] else 0)
    else:
        shifted_col = 2 if conv["shifted_columns"] == "even" else 3
        y_shift = g.center(Hex(shifted_col, 5))[1]
        y_plain = g.center(Hex(shifted_col - 1, 5))[1]
        assert y_shift - y_plain == g.dy // 2 - (g.dy if conv["stagger"] else 0)


@pytest.mark.parametrize("conv", CONVENTIONS)
def test_every_hex_fits_on_the_board(conv):
    g = grid_for(conv)
    for h in g.hexes():
        for x, y in g.corners(h):
            assert 0 <= x <= g.width and 0 <= y <= g.height


@pytest.mark.parametrize("conv", CONVENTIONS)
def test_centres_are_distinct_and_round_trip(conv):
    g = grid_for(conv)
    centres = {g.center(h) for h in g.hexes()}
    assert len(centres) == len(list(g.hexes()))
    for h in g.hexes():
        assert g.hex_at(*g.center(h)) == h


labels = st.tuples(st.integers(1, 60), st.integers(1, 80))
conventions = st.sampled_from(CONVENTIONS)


@pytest.mark.slow
@given(conventions, st.integers(0, 3), st.integers(0, 3), labels)
@settings(max_examples=300, deadline=None)
def test_label_cell_label_round_trip(conv, first_col, first_row, cr):
    g = grid_for(conv, first_col, first_row, cols=61, rows=81)
    h = Hex(first_col + cr[0] - 1, first_row + cr[1] - 1)
    assert g.parse(g.label(h)) == h
    assert g.from_raw(g.to_raw(h)) == h
    assert g.from_cube(g.to_cube(h)) == h


@given(conventions, labels)
@settings(max_examples=300, deadline=None)
def test_six_neighbours_at_distance_one(conv, cr):
    g = grid_for(conv, cols=70, rows=90)
    h = Hex(*cr)
    ns = g.neighbours(h, on_map_only=False)
    assert len(set(ns)) == 6
    assert all(g.distance(h, n) == 1 for n in ns)
    # neighbours are also geometric neighbours: centre distance about one hex
    cx, cy = g.center(h)
    for n in ns:
        nx, ny = g.center(n)
        assert math.isclose(math.hypot(nx - cx, ny - cy), g.dy, rel_tol=0.05)


@given(conventions, labels, labels, labels)
@settings(max_examples=300, deadline=None)
def test_distance_is_a_metric(conv, a, b, c):
    g = grid_for(conv, cols=70, rows=90)
    ha, hb, hc = Hex(*a), Hex(*b), Hex(*c)
    assert g.distance(ha, hb) == g.distance(hb, ha)
    assert g.distance(ha, ha) == 0
    assert g.distance(ha, hc) <= g.distance(ha, hb) + g.distance(hb, hc)


@given(conventions, labels, st.integers(-20, 20), st.integers(-20, 20))
@settings(max_examples=300, deadline=None)
def test_pixel_hex_pixel_is_stable_near_centres(conv, cr, ox, oy):
    g = grid_for(conv, cols=70, rows=90)
    h = Hex(*cr)
    x, y = g.center(h)
    # anywhere well inside the hex (a third of its height) names the same hex
    assert g.hex_at(x + ox * g.dy // 64, y + oy * g.dy // 64) == h
    assert g.center(g.hex_at(x, y)) == (x, y)


def test_within_counts_hexes():
    g = grid_for(CONVENTIONS[0], cols=30, rows=30)
    assert len(g.within(Hex(15, 15), 2)) == 19
    assert all(g.distance(Hex(15, 15), h) <= 2 for h in g.within(Hex(15, 15), 2))


def test_cube_offset_conversions_are_inverse():
    for c in range(-5, 6):
        for r in range(-5, 6):
            assert cube_to_raw(raw_to_cube(Raw(c, r))) == Raw(c, r)
    with pytest.raises(ValueError):
        Cube(1, 1, 1)


def test_hexside_is_unordered():
    a, b = Hex(2, 3), Hex(2, 4)
    assert Hexside.between(a, b) == Hexside.between(b, a)
    assert Hexside.between(a, b).other(a) == b
    with pytest.raises(ValueError):
        Hexside.between(a, a)


# --- search --------------------------------------------------------------------------


def test_search_blocks_hexes_and_hexsides_and_returns_paths():
    g = grid_for(CONVENTIONS[0], cols=10, rows=10)
    wall = {Hex(5, r) for r in range(1, 10)}  # leaves a gap at row 10
    result = search(g, [Hex(1, 5)], Blocked(hexes=wall))
    target = Hex(9, 5)
    path = result.path_to(target)
    assert path[0] == Hex(1, 5) and path[-1] == target
    assert all(g.distance(a, b) == 1 for a, b in zip(path, path[1:]))
    assert Hex(5, 10) in path
    assert not wall & set(path)
    assert result.cost[target] > g.distance(Hex(1, 5), target)


def test_search_from_several_sources_records_the_origin():
    g = grid_for(CONVENTIONS[0], cols=10, rows=10)
    result = search(g, [Hex(1, 1), Hex(10, 10)], Blocked())
    assert result.origin[Hex(2, 2)] == Hex(1, 1)
    assert result.origin[Hex(9, 9)] == Hex(10, 10)


def test_search_respects_max_cost():
    g = grid_for(CONVENTIONS[0], cols=10, rows=10)
    result = search(g, [Hex(5, 5)], Blocked(), max_cost=2)
    assert set(result.cost) == set(g.within(Hex(5, 5), 2))
    assert not result.path_to(Hex(1, 1))


def test_search_rejects_negative_costs():
    g = grid_for(CONVENTIONS[0], cols=3, rows=3)
    with pytest.raises(ValueError):
        search(g, [Hex(2, 2)], lambda a, b: -1)


@given(st.lists(st.tuples(st.integers(1, 12), st.integers(1, 10)), max_size=25),
       st.tuples(st.integers(1, 12), st.integers(1, 10)), st.floats(0.5, 3))
@settings(max_examples=100, deadline=None)
def test_search_cost_never_below_distance_times_cheapest_step(walls, start, cheapest):
    g = grid_for(CONVENTIONS[0])
    blocked = {Hex(*w) for w in walls} - {Hex(*start)}

    def cost(a, b):
        if b in blocked:
            return None
        return cheapest + ((b.col * 7 + b.row * 3) % 4)  # terrain-like variation >= cheapest

    result = search(g, [Hex(*start)], cost)
    for h, c in result.cost.items():
        assert c >= g.distance(Hex(*start), h) * cheapest - 1e-9


@pytest.mark.parametrize("conv", CONVENTIONS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_snap_keeps_the_centres_of_a_whole_pixel_grid_and_any_point_in_its_hex(conv):
    """``snap`` (VASSAL's snapToHex) on the grids we draw: a centre stays put, a point well inside a
    hex goes to that hex's centre.  On a scanned board's fractional grid it may sit a pixel off
    the centre; tests/test_board_scan.py holds it to the real engine there."""
    g = grid_for(conv)
    for h in g.hexes():
        cx, cy = g.center(h)
        assert g.snap(cx, cy) == (cx, cy)
        for ox, oy in ((0.3, 0.2), (-0.25, -0.3), (0.1, -0.35)):
            x, y = (cx + round(ox * g.dy), cy + round(oy * g.dx)) if g.sideways else \
                   (cx + round(ox * g.dx), cy + round(oy * g.dy))
            assert g.snap(x, y) == (cx, cy), (g.label(h), ox, oy)
