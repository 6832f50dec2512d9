"""The index-based search (HexIndex, search_indexed) answers exactly as the plain search on Hex objects.

`search` walks the grid's HexIndex when it can; passing `neighbours=grid.neighbours` forces the plain
walk through cube coordinates, which is the reference here.  Costs, origins and parents must be equal,
ties included, and every path a valid chain of adjacent hexes.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scenarios.hexgrid import Hex, HexGrid, HexIndex, breadth_first_indexed, hex_index, search, search_indexed

CONVENTIONS = [
    dict(shifted_columns=s, stagger=st_, sideways=sw)
    for s in ("even", "odd") for st_ in (False, True) for sw in (False, True)
]


def grid(conv_number: int, cols: int = 12, rows: int = 10) -> HexGrid:
    return HexGrid.build(first_col=1, last_col=cols, first_row=1, last_row=rows, **CONVENTIONS[conv_number])


def terrain_cost(walls: set[Hex], rivers: set[frozenset]):
    """A step cost with terrain-like variation, blocked hexes and dearer 'river' hexsides."""
    def cost(a: Hex, b: Hex) -> float | None:
        if b in walls:
            return None
        extra = 1.0 if frozenset((a, b)) in rivers else 0.0
        return 0.5 + ((b.col * 7 + b.row * 3) % 4) + extra
    return cost


def plain(g: HexGrid, sources, step_cost, max_cost=math.inf):
    return search(g, sources, step_cost, max_cost, neighbours=g.neighbours)


def assert_valid_paths(g: HexGrid, result, sources) -> None:
    for h in result.cost:
        path = result.path_to(h)
        assert path[0] in sources and path[0] == result.origin[h] and path[-1] == h
        assert all(g.are_adjacent(a, b) for a, b in zip(path, path[1:]))


hexes = st.tuples(st.integers(1, 12), st.integers(1, 10)).map(lambda t: Hex(*t))


@pytest.mark.slow
@given(st.integers(0, len(CONVENTIONS) - 1), st.lists(hexes, min_size=1, max_size=4, unique=True),
       st.sets(hexes, max_size=30), st.lists(st.tuples(hexes, st.integers(0, 5)), max_size=15),
       st.one_of(st.just(math.inf), st.floats(0, 12)))
@settings(max_examples=150, deadline=None)
def test_index_search_equals_plain_search(conv, sources, walls, river_marks, max_cost):
    g = grid(conv)
    rivers = set()
    for h, d in river_marks:
        ns = g.neighbours(h)
        if ns:
            rivers.add(frozenset((h, ns[d % len(ns)])))
    step = terrain_cost(walls - set(sources), rivers)
    expected = plain(g, sources, step, max_cost)
    got = search(g, sources, step, max_cost)  # walks the index
    assert got.cost == expected.cost
    assert got.origin == expected.origin
    assert got.parent == expected.parent
    assert_valid_paths(g, got, sources)

    index = hex_index(g)
    blocked = index.flags(walls - set(sources))
    edges = index.edges(terrain_cost(set(), rivers))
    fast = search_indexed(index, [index.number[h] for h in sources], edges, max_cost, blocked=blocked)
    as_hexes = fast.to_result()
    assert as_hexes.cost == expected.cost
    assert as_hexes.parent == expected.parent
    assert as_hexes.origin == expected.origin
    assert [index.hexes[i] for i in fast.path_to(index.number[sources[0]])] == [sources[0]]


@given(st.integers(0, len(CONVENTIONS) - 1), hexes, st.sets(hexes, max_size=30))
@settings(max_examples=60, deadline=None)
def test_ends_are_reached_but_not_passed_through(conv, source, ends):
    g = grid(conv)
    ends = ends - {source}
    index = hex_index(g)

    def step(a, b):  # the plain search's way of saying "may not go on from a"
        return None if a in ends else 1.0

    expected = plain(g, [source], step)
    got = search_indexed(index, [index.number[source]], index.uniform_edges(), ends=index.flags(ends)).to_result()
    assert got.cost == expected.cost and got.parent == expected.parent
    assert not any(p in ends for p in got.parent.values())


@pytest.mark.slow
@given(st.integers(0, len(CONVENTIONS) - 1), st.lists(hexes, min_size=1, max_size=6, unique=True),
       st.sets(hexes, max_size=30), st.sets(hexes, max_size=20), st.integers(0, 6))
@settings(max_examples=100, deadline=None)
def test_breadth_first_equals_the_search_with_unit_steps(conv, sources, blocked, ends, max_steps):
    g = grid(conv)
    index = hex_index(g)
    numbers = [index.number[h] for h in sources]
    args = dict(blocked=index.flags(blocked), ends=index.flags(ends))
    expected = search_indexed(index, numbers, index.uniform_edges(1.0), max_steps, **args)
    got = breadth_first_indexed(index, numbers, max_steps, **args)
    assert got.cost == expected.cost and got.parent == expected.parent and got.origin == expected.origin
    assert got.order == expected.order
    plain_result = plain(g, sources, lambda a, b: None if b in blocked or a in ends else 1.0, max_steps)
    assert got.to_result().cost == plain_result.cost and got.to_result().parent == plain_result.parent


def test_sources_with_costs_and_blocked_sources():
    g = grid(0)
    index = hex_index(g)
    a, b = Hex(2, 2), Hex(8, 8)
    blocked = index.flags([a])
    got = search_indexed(index, {index.number[a]: 3.0, index.number[b]: 0.0}, index.uniform_edges(), blocked=blocked)
    expected = plain(g, {a: 3.0, b: 0.0}, lambda x, y: None if y == a else 1.0)
    assert got.to_result().cost == expected.cost
    assert got.cost[index.number[a]] == 3.0  # a blocked source still starts the search
    assert got.reached(index.number[Hex(1, 1)])


def test_index_numbers_every_hex_and_lists_the_grid_neighbours():
    g = grid(3, cols=7, rows=5)
    index = hex_index(g)
    assert hex_index(g) is index  # kept per grid
    assert isinstance(index, HexIndex) and len(index) == 35 and set(index.hexes) == set(g.hexes())
    for i, h in enumerate(index.hexes):
        assert index.number[h] == i
        assert [index.hexes[j] for j in index.neighbours[i]] == g.neighbours(h)


def test_search_off_the_grid_sources_still_work():
    g = grid(0, cols=5, rows=5)
    off = Hex(0, 3)  # not on the grid: search falls back to the plain walk
    result = search(g, [off], lambda a, b: 1.0, max_cost=1)
    assert result.cost[off] == 0 and all(result.cost[n] == 1 for n in g.neighbours(off))


def test_edges_reject_negative_costs():
    index = hex_index(grid(0, cols=3, rows=3))
    with pytest.raises(ValueError):
        index.edges(lambda a, b: -1.0)
