"""SPI Korea supply (Supply (A)-(I), Zones of Control (B), (C)) on small test maps, properties, and a
smoke test on the real map."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.rules.positions import UnitAt, supply_tracer
from adjudicator.rules.spi import board as sb
from adjudicator.rules.spi import supply
from adjudicator.rules.spi.supply import SupplyRequest
from test_rules_spi_fixtures import MAP_ID, REAL, at, board, validate

# Communist units in every column of row 7 but column 5: their ZOC closes the map from side to side.
WALL = [(f"nk-r-{n}", f"{c:02d}07") for n, c in enumerate([1, 2, 3, 4, 6, 7, 8, 9, 10], start=1)]


def status(report):
    return {u.unit: u.in_supply for u in report.units}


def trace(g, side, positions, scenario="stalemate", **options):
    return supply.trace_side(g, scenario, side, positions, options)


# -- Communist (Supply (C)) -----------------------------------------------------------------------


def test_communist_units_within_two_hexes_of_a_supply_unit():
    g = board()
    r = trace(g, "communist", at(("comm-supply-1", "0505"), ("nk-d1", "0507"), ("nk-d2", "0508")))
    assert status(r) == {"comm-supply-1": True, "nk-d1": True, "nk-d2": False}
    assert next(u for u in r.units if u.unit == "nk-d1").path == ["0507", "0506", "0505"]


def test_enemy_zoc_on_the_intervening_hex_blocks_unless_a_friendly_unit_is_there():
    g = board()
    cut = at(("comm-supply-1", "0505"), ("nk-d1", "0507"), ("us-r5c", "0406"))
    assert status(trace(g, "communist", cut))["nk-d1"] is False
    screened = cut + at(("nk-r-1", "0506"))
    assert status(trace(g, "communist", screened))["nk-d1"] is True


def test_zocs_do_not_extend_into_entirely_rough_hexes():
    positions = at(("comm-supply-1", "0505"), ("nk-d1", "0507"), ("us-r5c", "0406"))
    assert status(trace(board(terrain={"0506": "rough"}), "communist", positions))["nk-d1"] is True
    # partly rough: the ZOC extends in (Zones of Control (C))
    assert status(trace(board(terrain={"0506": "rough_partial"}), "communist", positions))["nk-d1"] is False


def test_a_unit_adjacent_to_its_supply_unit_is_supplied_even_inside_an_enemy_zoc():
    g = board()
    r = trace(g, "communist", at(("comm-supply-1", "0505"), ("nk-d1", "0506"), ("us-r5c", "0507")))
    assert status(r)["nk-d1"] is True


def test_communists_always_in_supply_in_the_first_intervention_turns():
    g = board()
    r = trace(g, "communist", at(("nk-d1", "0507")), scenario="intervention", game_turn=3)
    assert status(r) == {"nk-d1": True}
    assert status(trace(g, "communist", at(("nk-d1", "0507")), scenario="intervention", game_turn=4)) == {"nk-d1": False}


# -- UN (Supply (D), (F), (G)) ------------------------------------------------------------------------


def test_un_units_within_16_movement_points_of_pusan():
    g = board(terrain={f"05{r:02d}": "rough_partial" for r in range(1, 10)})
    # every hex of column 5 costs 2 MP: 0502 is 8 hexes = 16 MP from Pusan (0510) in a straight line,
    # but the clear columns beside it are cheaper; a road makes it cheaper still.
    r = trace(g, "un", at(("us-r5c", "0502")))
    assert status(r) == {"us-r5c": True}
    assert next(u for u in r.units).cost <= 16


def test_un_16_mp_limit_counts_terrain_costs():
    everywhere_rough = {lab: "rough_partial" for lab in (f"{c:02d}{r:02d}" for c in range(1, 11) for r in range(1, 11))}
    g = board(terrain=everywhere_rough)
    r = trace(g, "un", at(("us-r5c", "0502"), ("us-r7c", "0501")))
    assert status(r) == {"us-r5c": True, "us-r7c": False}
    assert {u.unit: u.cost for u in r.units}["us-r5c"] == 16
    road = board(terrain=everywhere_rough, roads=[[f"05{r:02d}" for r in range(10, 0, -1)]])
    assert status(trace(road, "un", at(("us-r7c", "0501"))))["us-r7c"] is True


def test_a_wall_of_enemy_zoc_cuts_un_supply_unless_friendly_units_hold_the_gap():
    g = board()
    cut = WALL + [("us-r5c", "0502")]
    assert status(trace(g, "un", at(*cut)))["us-r5c"] is False
    held = cut + [("us-r7c", "0507"), ("us-r8c", "0508")]
    r = trace(g, "un", at(*held))
    assert status(r)["us-r5c"] is True
    path = next(u for u in r.units if u.unit == "us-r5c").path
    assert "0507" in path and "0508" in path


def test_un_supply_units_need_a_zoc_free_line_to_pusan():
    g = board()
    cut = WALL + [("un-supply-1", "0503"), ("us-r5c", "0502")]
    r = trace(g, "un", at(*cut))
    assert status(r) == {"un-supply-1": False, "us-r5c": False}
    held = cut + [("us-r7c", "0507"), ("us-r8c", "0508")]
    r = trace(g, "un", at(*held))
    assert status(r)["un-supply-1"] is True
    assert next(u for u in r.units if u.unit == "us-r5c").source == "un-supply-1"


def test_the_amph_on_a_coast_is_a_source_without_tracing_to_pusan():
    sea = {f"01{r:02d}": "sea" for r in range(1, 11)}
    g = board(terrain=sea)
    cut = WALL[1:] + [("us-r5c", "0303")]
    assert status(trace(g, "un", at(*cut)))["us-r5c"] is False
    r = trace(g, "un", at(*cut, ("un-amph", "0203")))
    assert status(r)["us-r5c"] is True and next(u for u in r.units if u.unit == "us-r5c").source == "un-amph"
    assert status(trace(g, "un", at(*cut, ("un-amph", "0103"))))["us-r5c"] is False  # at sea, not on the coast


def test_air_supply_up_to_six_regiments():
    g = board()
    positions = [{"unit": u, "hex": h} for u, h in WALL + [("us-d2", "0502"), ("rok-d1", "0503"), ("us-r5c", "0504")]]
    req = validate(SupplyRequest, g, scenario="stalemate", side="un", positions=positions, air_supplied=["us-d2", "rok-d1"])
    report = supply.trace_side(g, "stalemate", "un", [UnitAt(p["unit"], p["hex"]) for p in positions], req.options())
    assert status(report) == {"us-d2": True, "rok-d1": True, "us-r5c": False}
    with pytest.raises(ValueError, match="exceeds the 6"):
        validate(SupplyRequest, g, scenario="stalemate", side="un", positions=positions,
                 air_supplied=["us-d2", "rok-d1", "us-r5c"])
    with pytest.raises(ValueError, match="exceeds the 3"):
        validate(SupplyRequest, g, scenario="stalemate", side="un", positions=positions,
                 air_supplied=["us-d2", "rok-d1"], paradrop_this_turn=True)


def test_soul_is_a_base_in_the_invasion_game_until_the_communists_take_it():
    g = board(soul="0302")
    positions = at(*WALL, ("rok-d1", "0303"))
    assert status(trace(g, "un", positions, scenario="invasion"))["rok-d1"] is True
    assert status(trace(g, "un", positions, scenario="invasion", soul_taken_by_communists=True))["rok-d1"] is False
    assert status(trace(g, "un", positions, scenario="campaign", game_turn=18))["rok-d1"] is False


def test_the_tracer_is_registered_for_the_saved_game_bridge():
    assert supply_tracer("spi") is supply.spi_supply_tracer


# -- properties -----------------------------------------------------------------------------------------

HEXES = [f"{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 9)]


@st.composite
def positions(draw):
    cells = draw(st.lists(st.sampled_from(HEXES), min_size=3, max_size=14, unique=True))
    n_enemy = draw(st.integers(1, len(cells) - 2))
    enemy = [(f"nk-r-{i + 1}", h) for i, h in enumerate(cells[:n_enemy])]
    rest = cells[n_enemy:]
    friends = [("un-supply-1", rest[0])] + [(f"us-r-{i + 1}", h) for i, h in enumerate(rest[1:6])]
    return enemy, friends


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(positions())
def test_a_un_supply_path_never_enters_an_unscreened_enemy_zoc_hex(pos):
    enemy, friends = pos
    g = board(size=8, pusan="0508")
    report = trace(g, "un", at(*enemy, *friends))
    b = sb.Board.from_positions(g, g.maps[MAP_ID], at(*enemy, *friends))
    zoc = b.zoc_of("communist") - b.occupied_by("un")
    for u in report.units:
        if u.in_supply and u.path:
            assert not set(u.path) & {g.maps[MAP_ID].grid.label(h) for h in zoc | b.occupied_by("communist")}


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(positions())
def test_removing_an_enemy_unit_never_takes_supply_away(pos):
    enemy, friends = pos
    g = board(size=8, pusan="0508")
    before = status(trace(g, "un", at(*enemy, *friends)))
    after = status(trace(g, "un", at(*enemy[1:], *friends)))
    assert all(after[u] for u, ok in before.items() if ok)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(positions())
def test_a_communist_supply_line_never_passes_through_an_unscreened_un_zoc_hex(pos):
    un, communists = pos
    # swap the roles: Communist supply unit and regiments, UN regiments as the enemy
    enemy = [(f"us-r-{i + 1}", h) for i, (_, h) in enumerate(un[:6])]
    friends = [("comm-supply-1", communists[0][1])] + [(f"nk-r-{i + 1}", h) for i, (_, h) in enumerate(communists[1:])]
    g = board(size=8, pusan="0508")
    report = trace(g, "communist", at(*enemy, *friends))
    b = sb.Board.from_positions(g, g.maps[MAP_ID], at(*enemy, *friends))
    blocked = {g.maps[MAP_ID].grid.label(h) for h in (b.zoc_of("un") - b.occupied_by("communist"))}
    for u in report.units:
        if u.in_supply and len(u.path) == 3:
            assert u.path[1] not in blocked


# -- the real map -------------------------------------------------------------------------------------


@pytest.mark.parametrize("scenario", ["intervention", "stalemate"])
def test_real_map_setups_trace_for_both_sides(scenario):
    setup = [UnitAt(p.unit, p.location) for p in REAL.scenarios[scenario].setup if p.is_on_map and not p.is_marker]
    for side in ("un", "communist"):
        r = supply.trace_side(REAL, scenario, side, setup, {"game_turn": 1})
        assert r.units and all(u.reason for u in r.units)
        if side == "un":
            assert sum(u.in_supply for u in r.units) >= len(r.units) // 2
        else:  # intervention: special rule (1); stalemate: its three supply units reach every unit (below)
            assert all(u.in_supply for u in r.units)


def test_stalemate_supply_units_stand_where_a_player_would_put_them():
    """STALEMATE: "Communist: thirty-three 10-4s, three Supply units" - the Initial Order of Battle map that places
    them is not in the text, so the setup places them as a player would: Supply (C) "Communist units are considered
    in supply if they are within two hexes, regardless of terrain, of a supply unit" - each of the three is needed,
    and with all three every Communist unit starts in supply.  The notes say the player may move them."""
    sc = REAL.scenarios["stalemate"]
    setup = [UnitAt(p.unit, p.location) for p in sc.setup if p.is_on_map and not p.is_marker]
    supplies = [p for p in sc.setup if p.unit.startswith("comm-supply")]
    assert len(supplies) == 3 and all("the player may move it" in p.note for p in supplies)
    assert all(u.in_supply for u in supply.trace_side(REAL, "stalemate", "communist", setup, {"game_turn": 1}).units)
    for p in supplies:
        without = [u for u in setup if u.unit != p.unit]
        report = supply.trace_side(REAL, "stalemate", "communist", without, {"game_turn": 1})
        assert not all(u.in_supply for u in report.units), f"{p.unit} adds nothing"
