"""Korea: Fire and Ice lines of communications (14.5) on small test maps, plus a smoke test on the real map.

The test maps are built here (HexGrid.build + GameMap) so the exact rule tests do not depend on the
geography-derived map, which is being regenerated.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.checks import get_check, run_check
from adjudicator.ledger.dice import SuppliedDice
from adjudicator.rules.fireandice import board
from adjudicator.rules.fireandice.supply import trace_side
from adjudicator.rules.positions import UnitAt, supply_tracer
from scenarios import load_game
from scenarios.hexgrid import HexGrid
from scenarios.model import GameMap, MapPath

REAL = load_game("fireandice")


def make_game(terrain_rows: dict[int, str] | None = None, roads: list[list[str]] = (), size: int = 14):
    """A game whose map is a size x size clear board (rows given as strings override), with roads."""
    grid = HexGrid.build(first_col=1, last_col=size, first_row=1, last_row=size)
    chars = {t.char: t.id for t in REAL.maps["korea"].terrain_types.values()}
    terrain = {}
    for h in grid.hexes():
        line = (terrain_rows or {}).get(h.row)
        terrain[h] = chars[line[h.col - 1]] if line else "clear"
    paths = [MapPath(kind="road", hexes=tuple(grid.parse(x) for x in road)) for road in roads]
    gm = GameMap(id="korea", name="test", grid=grid, scale="7 miles", terrain_types=REAL.maps["korea"].terrain_types,
                 terrain=terrain, paths=paths)
    return replace(REAL, maps={"korea": gm})


def trace(g, side, positions, **options):
    return {u.unit: u for u in trace_side(g, "campaign", side, [UnitAt(u, h) for u, h in positions], options).units}


# A north-south road down column 05 from the north edge (row 01) to row 12; Communist sources on row 01.
ROAD = [[f"05{r:02d}" for r in range(1, 13)]]


def test_hq_within_3_hexes_of_a_live_road_has_an_loc_and_4_does_not():
    g = make_game(roads=ROAD)
    found = trace(g, "communist", [("nk-hq-i", "0806"), ("nk-hq-ii", "0906")], supply_sources=["0501"])
    assert found["nk-hq-i"].in_supply and found["nk-hq-i"].cost == 3
    gm = g.maps["korea"]
    path = [board.parse(gm, x) for x in found["nk-hq-i"].path]
    assert all(gm.grid.are_adjacent(a, b) for a, b in zip(path, path[1:]))
    assert sum(1 for h in path if h.col != 5) == 3  # 3 hexes off the road, then along it
    assert not found["nk-hq-ii"].in_supply
    assert found["nk-hq-i"].path[0] == "0806" and found["nk-hq-i"].path[-1] == "0501"


def test_unit_within_10_mp_of_an_hq_with_loc():
    g = make_game(roads=ROAD)
    # clear terrain costs 1 MP (stand-in chart); the HQ sits on the road; 10 hexes east = 10 MP; 11 = too far.
    found = trace(g, "communist", [("nk-hq-i", "0508"), ("nk-1", "1208"), ("nk-2", "1408")], supply_sources=["0501"])
    # 1208 is 7 columns east of 0508: within 10 MP of the HQ (and more than 3 hexes from the road)
    assert found["nk-1"].in_supply and found["nk-1"].source == "nk-hq-i"
    assert found["nk-1"].path[0] == "1208" and "0508" in found["nk-1"].path and found["nk-1"].path[-1] == "0501"


def test_unit_beyond_10_mp_and_3_hexes_has_no_loc():
    g = make_game(terrain_rows={r: "....^^^^^^^^^^" for r in range(1, 15)}, roads=ROAD)
    found = trace(g, "communist", [("nk-hq-i", "0508"), ("nk-1", "1308")], supply_sources=["0501"])
    assert not found["nk-1"].in_supply


def test_un_winter_range_is_8_mp():
    g = make_game(roads=[[f"05{r:02d}" for r in range(1, 15)]])
    positions = [("rok-hq-i", "0508"), ("rok-1", "1408")]  # 9 hexes east of the road HQ: 9 MP
    summer = trace(g, "un", positions, supply_sources=["0514"])
    winter = trace(g, "un", positions, supply_sources=["0514"], winter=True)
    assert summer["rok-1"].in_supply and summer["rok-1"].cost == 9
    assert not winter["rok-1"].in_supply


def test_enemy_zoc_cuts_the_road_unless_a_friendly_unit_negates_it():
    g = make_game(roads=ROAD)
    base = [("nk-hq-i", "0512")]
    assert trace(g, "communist", base, supply_sources=["0501"])["nk-hq-i"].in_supply
    # a UN unit next to the road puts its ZoC on the road hexes around it: the net is cut
    blocked = trace(g, "communist", base + [("rok-1", "0606")], supply_sources=["0501"])
    assert not blocked["nk-hq-i"].in_supply
    negated = trace(g, "communist", base + [("rok-1", "0606"), ("nk-1", "0505"), ("nk-2", "0506"), ("nk-3", "0507")],
                    supply_sources=["0501"])
    assert negated["nk-hq-i"].in_supply


def test_routed_units_have_no_zoc():
    g = make_game(roads=ROAD)
    positions = [("nk-hq-i", "0512"), ("rok-1", "0606")]
    assert not trace(g, "communist", positions, supply_sources=["0501"])["nk-hq-i"].in_supply
    assert trace(g, "communist", positions, supply_sources=["0501"], no_zoc_units=["rok-1"])["nk-hq-i"].in_supply


def test_us_unit_needs_its_cadre_within_6_mp_for_tank_and_artillery():
    g = make_game(roads=[[f"05{r:02d}" for r in range(1, 15)]])
    near = trace(g, "un", [("us-24", "0508"), ("us-24-19", "0808")], supply_sources=["0514"])
    far = trace(g, "un", [("us-24", "0508"), ("us-24-19", "1408")], supply_sources=["0514"])
    assert "may use tank/artillery" in near["us-24-19"].reason
    assert "NOT within 6 MP" in far["us-24-19"].reason


def test_187_rct_always_has_an_loc_and_interdiction_denies_one():
    g = make_game(roads=ROAD)
    found = trace(g, "un", [("us-187", "1414"), ("rok-hq-i", "0508")], supply_sources=["0501"],
                  interdicted_units=["rok-hq-i"])
    assert found["us-187"].in_supply
    assert not found["rok-hq-i"].in_supply and "interdicted" in found["rok-hq-i"].reason


def test_a_unit_in_enemy_zoc_may_still_trace_out_of_its_own_hex():
    g = make_game(roads=ROAD)
    found = trace(g, "communist", [("nk-1", "0708"), ("rok-1", "0808")], supply_sources=["0501"])
    assert found["nk-1"].in_supply  # 2 hexes to the road; its own hex is in the enemy ZoC


# -- properties ----------------------------------------------------------------------------------


hexes = st.tuples(st.integers(1, 14), st.integers(1, 14)).map(lambda t: f"{t[0]:02d}{t[1]:02d}")


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(com=st.lists(hexes, min_size=1, max_size=4, unique=True), un=st.lists(hexes, min_size=1, max_size=4, unique=True))
def test_a_path_never_enters_an_enemy_zoc_hex_no_friendly_unit_occupies(com, un):
    un = [h for h in un if h not in com]
    g = make_game(roads=ROAD)
    gm = g.maps["korea"]
    com_units = ["nk-hq-i"] + [f"nk-{n}" for n in (1, 2, 3)]
    un_units = ["rok-1", "rok-2", "rok-3", "rok-5"]
    positions = list(zip(com_units, com)) + list(zip(un_units, un))
    found = trace(g, "communist", positions, supply_sources=["0501"])
    b = board.Board(gm)
    for u, h in positions:
        if u != "nk-hq-i":
            b.place(u, "communist" if u.startswith("nk") else "un", board.parse(gm, h))
    enemy_zoc = b.zoc_of("un")
    friendly = {board.parse(gm, h) for u, h in positions if u.startswith("nk-") and u != "nk-hq-i"}
    enemy_units = {board.parse(gm, h) for u, h in positions if u.startswith("rok")}
    for entry in found.values():
        for label in entry.path[1:]:  # the start hex is not entered
            h = board.parse(gm, label)
            assert h not in enemy_units
            assert h not in enemy_zoc or h in friendly or _hq_hex(h, positions, gm)


def _hq_hex(h, positions, gm):
    """The trace may end in its HQ's hex (see the supply module's readings)."""
    return any(u == "nk-hq-i" and board.parse(gm, x) == h for u, x in positions)


# -- the real map ------------------------------------------------------------------------------


def test_smoke_real_map_campaign_setup_both_sides():
    sc = REAL.scenarios["campaign"]
    positions = [UnitAt(p.unit, p.location) for p in sc.setup if p.is_on_map and not p.is_marker]
    tracer = supply_tracer("fireandice")
    for side in ("un", "communist"):
        report = tracer(REAL, "campaign", side, positions, {})
        assert report.units and all(u.reason for u in report.units)
        assert any(u.in_supply for u in report.units)
        for u in report.units:
            if u.in_supply and u.path:
                assert u.path[0] == u.hex


def test_supply_check_request_and_unknown_unit():
    spec = get_check("fireandice", "supply")
    body = {"side": "un", "positions": [{"unit": "rok-1", "hex": "1944"}, {"unit": "nk-1", "hex": "1943"}]}
    result = run_check(spec, spec.compute_model(**body), SuppliedDice([]))
    assert result.outcome["units"][0]["unit"] == "rok-1"
    import pytest
    with pytest.raises(ValueError):
        spec.compute_model(side="un", positions=[{"unit": "no-such-unit", "hex": "1944"}])


def test_invasion_scenario_map_b_north_edge_roads_are_communist_sources():
    # 16.0 special rule 4; with the test map's road crossing row 06 northward, row 06 stands in for map B's edge.
    g = make_game(roads=ROAD)
    found = trace_side(g, "invasion", "communist", [UnitAt("nk-hq-i", "0809")], {"map_b_north_row": 6}).units
    assert found[0].in_supply and found[0].path[-1] == "0506"
    assert not trace_side(g, "campaign", "communist", [UnitAt("nk-hq-i", "0809")], {"supply_sources": ["0512"],
                                                                               "atomic_hexes": ["0511"]}).units[0].in_supply


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(un=st.lists(hexes, min_size=1, max_size=4, unique=True), drop=st.integers(0, 3))
def test_removing_an_enemy_unit_never_takes_an_loc_away(un, drop):
    g = make_game(roads=ROAD)
    com = [("nk-hq-i", "0508"), ("nk-1", "0910"), ("nk-2", "1204"), ("nk-3", "0213")]
    un_units = [(f"rok-{n}", h) for n, h in zip((1, 2, 3, 5), un) if h not in {x for _, x in com}]
    before = trace(g, "communist", com + un_units, supply_sources=["0501"])
    fewer = un_units[:drop] + un_units[drop + 1:]
    after = trace(g, "communist", com + fewer, supply_sources=["0501"])
    for unit, entry in before.items():
        if entry.in_supply:
            assert after[unit].in_supply


# --- the shipped map and setups ---------------------------------------------------------------

def _setup_positions(scenario):
    return [UnitAt(p.unit, p.location) for p in scenario.setup if p.is_on_map and not p.is_marker]


@pytest.mark.parametrize("scenario_id", sorted(load_game("fireandice").scenarios))
@pytest.mark.parametrize("side", ["communist", "un"])
def test_every_unit_of_every_setup_starts_with_an_loc(scenario_id, side):
    """The setups (the book's, and our stand-in placements where 18.0 says 'per book') start every unit with
    an LoC on today's map, the Communist tracing to the marked supply sources (1.0; stand-ins in data)."""
    g = load_game("fireandice")
    report = trace_side(g, scenario_id, side, _setup_positions(g.scenarios[scenario_id]), {})
    assert report.units
    assert [(u.unit, u.hex, u.reason) for u in report.units if not u.in_supply] == []


def test_communist_supply_sources_are_data_and_listed_as_stand_ins():
    g = load_game("fireandice")
    marked = [f for f in g.maps["korea"].features if f.kind == "supply_source" and f.side == "communist"]
    assert len(marked) >= 5 and all(f.source.is_stand_in for f in marked)
    listed = {s.where for s in g.stand_ins}
    assert {f.where for f in marked} <= listed
    # 16.0 plays on Maps B and C: the Yalu sources are off its maps; map B's north edge row is data too
    report = trace_side(g, "invasion", "communist", _setup_positions(g.scenarios["invasion"]), {})
    first = report.steps[0][0]
    assert "Maps B and C (1.0): 0 hexes" in first and "north edge of map B" in first, first
    assert g.stand_ins_for("scenario invasion rule map_b_north_edge")
