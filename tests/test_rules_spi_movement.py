"""SPI Korea movement costs (Movement, Terrain Effects Chart, Zones of Control (A)) on small test maps."""

from fractions import Fraction

import pytest

from adjudicator.rules.spi import movement
from adjudicator.rules.spi.movement import MovementRequest
from test_rules_spi_fixtures import board, validate

RIVER_HEX_0506 = [("0506", "0406"), ("0506", "0606")]


def priced(g, **body):
    req = validate(MovementRequest, g, **{"scenario": "stalemate", **body})
    return movement.plan(g, req)


def test_worked_example_leaving_a_zoc_into_a_rough_river_hex_costs_four():
    """Zones of Control (A): 'it would cost four Movement Points to leave an Enemy Zone, and enter a Rough
    terrain/River hex'."""
    g = board(terrain={"0506": "rough_partial"}, rivers=RIVER_HEX_0506)
    p = priced(g, unit="nk-d1", path=["0505", "0506"], positions=[{"unit": "us-r5c", "hex": "0504"}])
    assert p.costs == [Fraction(4)]


def test_entering_a_zoc_is_free_and_several_zocs_cost_one():
    g = board()
    p = priced(g, unit="nk-d1", path=["0503", "0504", "0505"],
               positions=[{"unit": "us-r5c", "hex": "0404"}, {"unit": "us-r7c", "hex": "0604"}])
    assert p.costs == [Fraction(1), Fraction(2)]


def test_roads_cost_half_whatever_the_terrain():
    g = board(terrain={"0505": "rough", "0506": "rough"}, rivers=RIVER_HEX_0506, roads=[["0504", "0505", "0506"]])
    p = priced(g, unit="us-r5c", path=["0504", "0505", "0506"])
    assert p.costs == [Fraction(1, 2), Fraction(1, 2)]
    assert p.allowance == 6  # non-Korean UN moving only on roads: twice the allowance (Movement (I))


def test_out_of_supply_halves_the_allowance_and_drops_the_road_bonus():
    g = board(roads=[["0501", "0502", "0503", "0504", "0505"]])
    p = priced(g, unit="us-r5c", path=["0501", "0502", "0503", "0504", "0505"], in_supply=False)
    assert p.allowance == 1 and p.total == 2 and not p.legal


def test_a_unit_may_always_move_one_hex():
    g = board(terrain={"0506": "rough"}, rivers=RIVER_HEX_0506)
    p = priced(g, unit="rok-r1", path=["0505", "0506"], in_supply=False, positions=[{"unit": "nk-r-1", "hex": "0504"}])
    assert p.total == 4 and p.allowance == 1 and p.legal


def test_intervention_rules_2_and_4():
    g = board(terrain={"0506": "rough"})
    enemy = [{"unit": "us-r5c", "hex": "0504"}]
    first = priced(g, scenario="intervention", game_turn=1, phase="first", unit="cpv-d112", path=["0505", "0506"],
                   positions=enemy)
    assert first.costs == [Fraction(2)]  # no cost to leave the ZOC (2); entirely Rough still 2 in the first phase
    second = priced(g, scenario="intervention", game_turn=1, phase="second", unit="cpv-d112", path=["0505", "0506"],
                    positions=enemy)
    assert second.costs == [Fraction(2)]  # 1 for entirely Rough (4) + 1 to leave the ZOC
    later = priced(g, scenario="intervention", game_turn=4, phase="second", unit="cpv-d112", path=["0505", "0506"],
                   positions=enemy)
    assert later.costs == [Fraction(3)]


def test_communist_supply_units_pay_half_in_clear():
    g = board(terrain={"0506": "rough_partial"})
    p = priced(g, unit="comm-supply-1", path=["0504", "0505", "0506"])
    assert p.costs == [Fraction(1, 2), Fraction(1)]


@pytest.mark.parametrize("body, message", [
    ({"unit": "nk-105", "path": ["0505", "0506"]}, "armour"),
    ({"unit": "nk-d1", "path": ["0505", "0507"]}, "not adjacent"),
    ({"unit": "nk-d1", "path": ["0505", "0506"], "positions": [{"unit": "us-r5c", "hex": "0506"}]}, "enemy units"),
    ({"unit": "un-supply-1", "path": ["0505", "0506"]}, "Second Movement Phase"),
])
def test_impossible_moves_are_refused(body, message):
    with pytest.raises(ValueError, match=message):
        priced(board(terrain={"0506": "rough"}), **body)


def column_path(first_row, last_row, col=5):
    step = 1 if last_row >= first_row else -1
    return [f"{col:02d}{r:02d}" for r in range(first_row, last_row + step, step)]


def test_worked_example_non_korean_un_twelve_road_hexes_south_koreans_six():
    """Movement (I): 'Ordinarily a United Nations unit could move six hexes along a road in a single Movement Phase;
    using this rule, they may move twelve hexes along a road'."""
    road = column_path(14, 1)
    g = board(size=14, roads=[road])
    assert priced(g, unit="us-r5c", path=road[:13]).legal
    assert not priced(g, unit="us-r5c", path=road[:14]).legal
    assert priced(g, unit="rok-r1", path=road[:7]).legal
    assert not priced(g, unit="rok-r1", path=road[:8]).legal


PARALLEL_38_AT_ROW_1 = [("parallel_38", f"{c:02d}01", f"{c:02d}02") for c in range(1, 22)]


def test_worked_example_eighteen_rail_hexes_for_un_units_south_of_the_38th():
    rail = column_path(21, 1)
    g = board(size=21, rails=[rail], lines=PARALLEL_38_AT_ROW_1)
    p = priced(g, unit="us-r5c", path=rail[:19], rail=True)
    assert p.allowance == 18 and p.legal
    assert not priced(g, unit="us-r5c", path=rail[:20], rail=True).legal
    with pytest.raises(ValueError, match="south of the 38th"):
        priced(g, unit="us-r5c", path=rail[17:], rail=True)
    with pytest.raises(ValueError, match="out of supply"):
        priced(g, unit="us-r5c", path=rail[:3], rail=True, in_supply=False)
    with pytest.raises(ValueError, match="only Communist supply units"):
        priced(g, unit="nk-d1", path=rail[:3], rail=True)


def test_worked_example_communist_supply_six_rail_hexes_twelve_early_in_the_invasion():
    rail = column_path(1, 21)
    north = [("parallel_38", f"{c:02d}20", f"{c:02d}21") for c in range(1, 22)]
    g = board(size=21, rails=[rail], lines=north)
    assert priced(g, unit="comm-supply-1", path=rail[:7], rail=True, scenario="stalemate").legal
    assert not priced(g, unit="comm-supply-1", path=rail[:8], rail=True, scenario="stalemate").legal
    early = priced(g, unit="comm-supply-1", path=rail[:13], rail=True, scenario="invasion", game_turn=4)
    assert early.allowance == 12 and early.legal
    assert priced(g, unit="comm-supply-1", path=rail[:13], rail=True, scenario="invasion", game_turn=5).allowance == 6


def test_ending_stacked_with_a_unit_not_moved_with_costs_one_more():
    g = board()
    p = priced(g, unit="us-r5c", path=["0505", "0506"], positions=[{"unit": "us-r7c", "hex": "0506"}])
    assert p.total == 2
    together = priced(g, unit="us-r5c", path=["0505", "0506"], moving_with=["us-r8c"],
                      positions=[{"unit": "us-r8c", "hex": "0505"}])
    assert together.total == 1
    with pytest.raises(ValueError, match=r"stacking limit of 2 \(Stacking \(A\)\); if the move recombines.*"
                                         r"recombine_into.*Stacking & Unit Breakdown"):
        priced(g, unit="us-r5c", path=["0505", "0506"], positions=[{"unit": "us-r7c", "hex": "0506"},
                                                                   {"unit": "us-r8c", "hex": "0506"}])


def test_worked_example_a_regiment_joins_two_others_to_recombine_their_division():
    """Stacking & Unit Breakdown: 'one 16-3 = three 5-3's'; units 'may only stack higher while forming larger
    units'; 'Units must be stacked together to be recombined, and you pay movement penalties ... as outlined in
    Case B' (+1 MP per unit not moved with)."""
    g = board()
    two_there = [{"unit": "us-r7c", "hex": "0506"}, {"unit": "us-r8c", "hex": "0506"}]
    p = priced(g, unit="us-r5c", path=["0505", "0506"], positions=two_there, recombine_into="us-d1cav")
    assert p.costs == [Fraction(1), Fraction(2)] and p.total == 3 and p.legal
    assert p.recombined == ["us-r5c", "us-r7c", "us-r8c"]
    assert any("recombine into us-d1cav" in s.text and "Stacking & Unit Breakdown" in s.rule for s in p.steps)
    # moved together with one of them, it pays Case B only for the one already there
    with_mate = priced(g, unit="us-r5c", path=["0505", "0506"], moving_with=["us-r7c"], recombine_into="us-d1cav",
                       positions=[{"unit": "us-r7c", "hex": "0505"}, {"unit": "us-r8c", "hex": "0506"}])
    assert with_mate.total == 2


@pytest.mark.parametrize("body, message", [
    ({"recombine_into": "us-d2"}, None),  # a 16-3 too: any three 5-3s form one (breakdown by values)
    ({"recombine_into": "rok-r1"}, "not a unit the breakdown table forms"),
    ({"recombine_into": "nk-d1"}, "not a unit of un"),
    ({"recombine_into": "us-d1cav", "unit": "rok-r1"}, "not a component of us-d1cav"),
    ({"recombine_into": "us-d1cav", "positions": [{"unit": "us-r7c", "hex": "0506"}]}, r"needs 3 5-3s.*there would be 2"),
    ({"recombine_into": "us-d1cav", "positions": [{"unit": "us-r7c", "hex": "0506"}, {"unit": "us-r8c", "hex": "0506"},
                                                   {"unit": "us-d2", "hex": "0506"}]}, None),  # 2 once formed
    ({"recombine_into": "us-d1cav", "positions": [{"unit": "us-r7c", "hex": "0506"}, {"unit": "us-r8c", "hex": "0506"},
                                                   {"unit": "us-d2", "hex": "0506"}, {"unit": "us-d3", "hex": "0506"}]},
     "would still hold 3 units"),
    ({"recombine_into": "us-d1cav", "positions": [{"unit": "us-r7c", "hex": "0506"}, {"unit": "us-r8c", "hex": "0506"},
                                                   {"unit": "us-d1cav", "hex": "0101"}]}, "already on the map"),
])
def test_recombination_refusals_cite_the_breakdown_rules(body, message):
    g = board()
    request = {"unit": "us-r5c", "path": ["0505", "0506"],
               "positions": [{"unit": "us-r7c", "hex": "0506"}, {"unit": "us-r8c", "hex": "0506"}], **body}
    if message is None:
        assert priced(g, **request).legal
        return
    with pytest.raises(ValueError, match=message):
        priced(g, **request)


def test_worked_example_movement_table_communist_supply_four_road_hexes():
    """Movement (L): the Communist supply unit's row reads road 4, clear 2, rough 1 for a basic allowance of 1:
    a road hex costs it 1/4 MP, not the 1/2 of other units."""
    road = column_path(1, 6)
    g = board(roads=[road])
    p = priced(g, unit="comm-supply-1", path=road[:5])
    assert p.costs == [Fraction(1, 4)] * 4 and p.total == 1 and p.legal
    assert not priced(g, unit="comm-supply-1", path=road[:6]).legal
    assert any("Communist supply row: 1 / 4 road hexes = 1/4" in s.text for s in p.steps)
    # ordinary units keep their rows' 1/2: Communists 4 / 8, South Korean 3 / 6, UN 3 x 2 / 12
    for unit in ("nk-d1", "rok-r1", "us-r5c"):
        assert priced(g, unit=unit, path=road[:3]).costs == [Fraction(1, 2)] * 2


def test_movement_table_rows_agree_with_case_k_and_the_terrain_chart():
    """Movement (K) halves a Communist supply unit's clear and rough costs (1/2, 1): its row's 2 clear and 1 rough
    hexes for an allowance of 1; ordinary rows' clear/rough columns are the allowance over the TEC's 1 and 2 MP."""
    g = board()
    assert movement.table_hexes(g, "Communist supply", "basic") / movement.table_hexes(g, "Communist supply", "clear") \
        == Fraction(1, 2)
    assert movement.table_hexes(g, "Communist supply", "basic") / movement.table_hexes(g, "Communist supply", "rough") == 1
    for row in ("United Nations", "South Korean", "Communists"):
        basic = movement.table_hexes(g, row, "basic")
        assert movement.table_hexes(g, row, "clear") == basic and movement.table_hexes(g, row, "rough") == basic // 2


def test_a_chinese_army_recombines_from_chinese_divisions_only():
    """Stacking & Unit Breakdown: 'one 25-2 = three 10-4's (Chinese only)'."""
    g = board()
    chinese = [{"unit": "cpv-d113", "hex": "0506"}, {"unit": "cpv-d114", "hex": "0506"}]
    assert priced(g, unit="cpv-d112", path=["0505", "0506"], positions=chinese, recombine_into="cpv-a38").legal
    with pytest.raises(ValueError, match="Chinese 10-4s only"):
        priced(g, unit="nk-d1", path=["0505", "0506"], positions=chinese, recombine_into="cpv-a38")
