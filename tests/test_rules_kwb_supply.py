"""Korean War Battles supply (9.0, 9.1.1, 12.21, 12.3) and ZOC (6.1) on small drawn maps, a property
test of screening, and a smoke test on the real maps."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from adjudicator.rules.kwb import supply
from adjudicator.rules.positions import supply_tracer
from test_rules_kwb_fixtures import REAL, at, board, validate

# Land corridor of columns 05-06 between sea columns 04 and 07 (see the fixtures' geometry):
# a Supply Center in 0502 (beside the supply symbol 0501) and a Communist unit in 0505, 3 hexes away.
SEA = {f"{c:02d}{r:02d}": "sea" for c in (4, 7) for r in range(1, 11)}


def status(report, unit):
    return next(u for u in report.units if u.unit == unit)


def communist(g, positions, **options):
    return supply.trace_side(g, "pusan", "communist", positions, options)


def test_communist_unit_within_3_hexes_of_a_connected_supply_center():
    g = board(terrain=SEA)
    report = communist(g, at(("nk-sc-1", "0502"), ("nk-766", "0505"), ("nk-6", "0506")))
    assert status(report, "nk-766").in_supply
    assert status(report, "nk-766").path == ["0505", "0504", "0503", "0502", "0501"]
    assert status(report, "nk-766").source == "0501"
    assert status(report, "nk-sc-1").in_supply
    assert not status(report, "nk-6").in_supply  # 4 hexes


def test_enemy_zoc_blocks_and_a_friendly_unit_screens_it():
    g = board(terrain=SEA)
    base = [("nk-sc-1", "0502"), ("nk-766", "0505"), ("us-5-1m", "0604")]
    assert not status(communist(g, at(*base)), "nk-766").in_supply
    screened = communist(g, at(*base, ("nk-reg-1", "0504")))
    assert status(screened, "nk-766").in_supply and "0504" in status(screened, "nk-766").path


@pytest.mark.parametrize("terrain, rivers", [
    ({"0504": "rough"}, ()),   # no ZOC into a Rough hex
    ({"0604": "rough"}, ()),   # no ZOC out of a Rough hex
    ({"0504": "city"}, ()),    # no ZOC into a City hex
    ({}, [("0604", "0504")]),  # no ZOC across a water (river) hexside
])
def test_zoc_does_not_extend_into_or_out_of_rough_or_city_nor_across_water(terrain, rivers):
    g = board(terrain={**SEA, **terrain}, rivers=rivers)
    report = communist(g, at(("nk-sc-1", "0502"), ("nk-766", "0505"), ("us-5-1m", "0604")))
    assert status(report, "nk-766").in_supply


@pytest.mark.parametrize("blocker", ["us-cadre-x", "us-1c-hq", "us-mar-tk"])
def test_no_zoc_units_do_not_block(blocker):
    g = board(terrain=SEA)
    assert status(communist(g, at(("nk-sc-1", "0502"), ("nk-766", "0505"), (blocker, "0604"))), "nk-766").in_supply


def test_improved_position_removes_the_zoc():
    g = board(terrain=SEA)
    report = communist(g, at(("nk-sc-1", "0502"), ("nk-766", "0505"), ("us-5-1m", "0604")), improved_positions=["0604"])
    assert status(report, "nk-766").in_supply


def test_cut_off_center_and_emergency_supply():
    g = board(terrain=SEA)
    positions = at(("nk-sc-1", "0503"), ("nk-766", "0504"), ("nk-6", "0505"), ("us-5-1m", "0501"))
    report = communist(g, positions)
    assert not status(report, "nk-sc-1").in_supply and not status(report, "nk-766").in_supply
    assert "emergency supply possible from nk-sc-1" in status(report, "nk-766").reason
    report = communist(g, positions, emergency_supply_centers=["nk-sc-1"])
    assert status(report, "nk-766").in_supply and status(report, "nk-766").source == "emergency:nk-sc-1"
    assert not status(report, "nk-6").in_supply  # not in or adjacent to the Center


def test_center_to_edge_leg_zoc_reading():
    g = board(terrain=SEA)
    positions = at(("nk-sc-1", "0503"), ("nk-766", "0505"), ("us-5-1m", "0601"))  # ZOC on 0501 and 0502
    assert not status(communist(g, positions), "nk-766").in_supply
    assert status(communist(g, positions, center_leg_zoc=False), "nk-766").in_supply


def test_changjin_surprise_turns_1_and_2():
    g = board("changjin", communist_sources=("0501",))
    positions = at(("prc-58", "0808"))
    assert supply.trace_side(g, "changjin", "communist", positions, {"game_turn": 2}).units[0].in_supply
    assert not supply.trace_side(g, "changjin", "communist", positions, {"game_turn": 3}).units[0].in_supply


ROAD = [["0510", "0509", "0508", "0507"]]


def un(g, positions, scenario="pusan", **options):
    return supply.trace_side(g, scenario, "un", positions, options)


def test_un_unit_within_3_hexes_of_the_road_net():
    g = board(roads=ROAD)
    report = un(g, at(("us-5-1m", "0504"), ("us-8-1c", "0503")))
    assert status(report, "us-5-1m").in_supply and status(report, "us-5-1m").path[-1] == "0507"
    assert not status(report, "us-8-1c").in_supply


def test_un_line_never_passes_through_rough_but_may_end_in_it():
    rough = {"0406": "rough", "0506": "rough", "0606": "rough"}
    g = board(roads=ROAD, terrain=rough)
    assert not status(un(g, at(("us-5-1m", "0505"))), "us-5-1m").in_supply
    assert status(un(g, at(("us-5-1m", "0506"))), "us-5-1m").in_supply  # its own hex is Rough


def test_enemy_on_the_road_cuts_the_net():
    g = board(roads=ROAD)
    assert not status(un(g, at(("us-5-1m", "0504"), ("nk-766", "0508"))), "us-5-1m").in_supply


def test_seoul_han_river_needs_a_division_hq_or_the_engineer_for_the_un():
    g = board("seoul", roads=[["0510", "0509", "0508", "0507", "0506", "0505"]], han=[("0507", "0508")],
              communist_sources=("0510",))
    alone = un(g, at(("us-5-1m", "0503")), "seoul")
    assert not alone.units[0].in_supply
    with_hq = un(g, at(("us-5-1m", "0503"), ("us-1m-hq", "0507")), "seoul")
    assert status(with_hq, "us-5-1m").in_supply
    with_engineer = un(g, at(("us-5-1m", "0503"), ("us-2se", "0508")), "seoul")
    assert status(with_engineer, "us-5-1m").in_supply
    # Communist lines cross the Han freely (12.21).
    red = supply.trace_side(g, "seoul", "communist", at(("nk-sc-seoul-1", "0509"), ("nk-31", "0506")), {})
    assert status(red, "nk-31").in_supply


def test_changjin_air_supply():
    g = board("changjin", un_sources=("0110",))
    report = un(g, at(("us-5-1m", "0903"), ("us-1-1m", "0803")), "changjin", air_supply_hexes=["0903"])
    assert status(report, "us-5-1m").in_supply and status(report, "us-5-1m").source == "air supply"
    assert not status(report, "us-1-1m").in_supply


def test_request_validation():
    g = board("changjin")
    with pytest.raises(ValidationError, match="at most 2 Air Supply"):
        validate(supply.SupplyRequest, g, scenario="changjin", side="un", positions=[{"unit": "us-5-1m", "hex": "0903"}],
                 air_supply_hexes=["0101", "0102", "0103"])
    with pytest.raises(ValidationError, match="only in Changjin"):
        validate(supply.SupplyRequest, board(), scenario="pusan", side="un",
                 positions=[{"unit": "us-5-1m", "hex": "0903"}], air_supply_hexes=["0101"])
    with pytest.raises(ValidationError, match="both sides"):
        validate(supply.SupplyRequest, board(), scenario="pusan", side="un",
                 positions=[{"unit": "us-5-1m", "hex": "0903"}, {"unit": "nk-6", "hex": "0903"}])
    with pytest.raises(ValidationError, match="unknown Korean War Battles unit"):
        validate(supply.SupplyRequest, board(), scenario="pusan", side="un", positions=[{"unit": "zz", "hex": "0903"}])


# -- property: a supply path never enters an enemy ZOC hex that no friendly unit occupies ------------

HEXES = [f"{c:02d}{r:02d}" for c in range(1, 11) for r in range(1, 11)]
UN_REGIMENTS = ["us-5-1m", "us-1-1m", "us-7-1m", "us-5-1c", "us-7-1c", "us-8-1c"]
NK = ["nk-sc-1", "nk-sc-2", "nk-766", "nk-31", "nk-107", "nk-226", "nk-25", "nk-78", "nk-reg-1", "nk-reg-2"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(HEXES), min_size=len(UN_REGIMENTS) + len(NK), max_size=len(UN_REGIMENTS) + len(NK),
                unique=True),
       st.integers(min_value=1, max_value=len(UN_REGIMENTS)))
def test_supply_paths_never_enter_unscreened_enemy_zoc(hexes, n_un):
    g = board()
    grid = g.maps["pusan"].grid
    un_pos = list(zip(UN_REGIMENTS[:n_un], hexes))
    nk_pos = list(zip(NK, hexes[len(UN_REGIMENTS):]))
    report = communist(g, at(*un_pos, *nk_pos))
    un_hexes = {grid.parse(h) for _, h in un_pos}
    friendly = {h for _, h in nk_pos}
    zoc = {grid.label(n) for h in un_hexes for n in grid.neighbours(h)}  # all-clear map: every neighbour
    for u in report.units:
        if u.in_supply and u.source != "surprise":
            assert u.path[0] == u.hex
            for h in u.path:
                assert grid.parse(h) not in un_hexes
                assert h not in zoc or h in friendly, (u, h)
            if u.unit not in ("nk-sc-1", "nk-sc-2"):
                assert u.cost <= 3


# -- the real maps ---------------------------------------------------------------------------------


@pytest.mark.parametrize("scenario", ["pusan", "seoul", "changjin"])
def test_real_map_setup_smoke(scenario):
    sc = REAL.scenarios[scenario]
    positions = at(*[(p.unit, p.location, p.step) for p in sc.setup if p.is_on_map and not p.is_marker])
    tracer = supply_tracer("kwb")
    for side in ("communist", "un"):
        report = tracer(REAL, scenario, side, positions, {"game_turn": 1})
        mine = [p for p in positions if REAL.units[p.unit].side == side]
        assert len(report.units) == len(mine)
        assert any("Stand-in map" in w for w in report.warnings)
        assert all(u.reason for u in report.units)


def test_pusan_supply_centers_stand_where_a_player_would_put_them():
    """12.1.2: "3 x 0-2-3 Supply Center | any Supply-symbol hex, no more than 1 per hex"; 9.0: "The Communist player
    must trace a supply line no more than 3 hexes long to a Supply Center".  Of the 20 ways to fill three of the six
    symbol hexes (12.1.1: 0301, 2501, 3701, 3706, 3710, 3721) the setup takes the one that leaves the most Communist
    counters in supply, and its notes say the player may move them."""
    from itertools import combinations

    sc = REAL.scenarios["pusan"]
    centers = [p for p in sc.setup if p.unit.startswith("nk-sc")]
    assert all("the player may move it" in p.note for p in centers)
    others = [(p.unit, p.location, p.step) for p in sc.setup
              if p.is_on_map and not p.is_marker and not p.unit.startswith("nk-sc")]

    def in_supply(hexes):
        placed = at(*others, *[(c.unit, h) for c, h in zip(centers, hexes)])
        return sum(u.in_supply for u in communist(REAL, placed, game_turn=1).units)

    symbols = ["0301", "2501", "3701", "3706", "3710", "3721"]
    best = max(in_supply(hexes) for hexes in combinations(symbols, 3))
    assert in_supply([c.location for c in centers]) == best == 10  # of 18 (8 stand beyond 3 hexes of any symbol)


def test_positions_on_another_map_are_ignored_with_a_warning():
    from adjudicator.rules.positions import UnitAt
    g = board(roads=ROAD)
    report = un(g, [UnitAt("us-5-1m", "0504", "", "pusan"), UnitAt("us-1-1m", "0504", "", "seoul")])
    assert [u.unit for u in report.units] == ["us-5-1m"]
    assert any("another map" in w for w in report.warnings)
