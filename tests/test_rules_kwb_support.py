"""Korean War Battles support fire per turn (8.1, 8.1.1, 12.1.1, 12.3), bombardment (8.4), counter-battery
(8.4.1) and divisional breakdown (5.3.2)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from adjudicator.rules.kwb import bombardment, breakdown, support
from test_rules_kwb_fixtures import REAL, board, rolled, validate


def allocate(**body):
    return support.allocation(REAL, validate(support.SupportFireAllocationRequest, REAL, **body))


def test_allocation_reads_the_chart_and_applies_losses_and_bonuses():
    assert allocate(scenario="seoul", side="un", game_turn=1).outcome["markers"] == 8
    assert allocate(scenario="pusan", side="communist", game_turn=4).outcome["markers"] == 6
    both = allocate(scenario="pusan", side="un", game_turn=4, hqs_lost=1, airfields_occupied=["2221", "0316"])
    assert both.outcome["markers"] == 6 - 1 - 2 and any("cut off" in w for w in both.warnings)
    assert allocate(scenario="changjin", side="un", game_turn=7, optional_hq_taken=True).outcome["markers"] == 7


@given(st.integers(1, 14), st.integers(0, 5))
def test_more_hq_losses_never_raise_the_allocation(turn, lost):
    a = allocate(scenario="seoul", side="un", game_turn=turn, hqs_lost=lost).outcome["markers"]
    b = allocate(scenario="seoul", side="un", game_turn=turn, hqs_lost=lost + 1).outcome["markers"]
    assert 0 <= b <= a


@pytest.mark.parametrize("body, message", [
    ({"scenario": "seoul", "side": "un", "game_turn": 15}, "not a turn"),
    ({"scenario": "seoul", "side": "un", "game_turn": 2, "airfields_occupied": ["2221"]}, "Pusan Perimeter only"),
    ({"scenario": "pusan", "side": "un", "game_turn": 2, "airfields_occupied": ["1111"]}, "not one of the Pusan airfield"),
    ({"scenario": "pusan", "side": "un", "game_turn": 2, "optional_hq_taken": True}, "Changjin"),
])
def test_allocation_bad_requests(body, message):
    with pytest.raises(ValidationError, match=message):
        validate(support.SupportFireAllocationRequest, REAL, **body)


# -- bombardment ------------------------------------------------------------------------------------


def bombard_request(g, **body):
    body.setdefault("scenario", "pusan")
    return validate(bombardment.BombardmentRequest, g, **body)


def test_communist_bombardment_only_of_a_unit_adjacent_to_his_own():
    g = board()
    target = [{"unit": "us-5-1m", "hex": "0505"}]
    with pytest.raises(ValidationError, match="needs `positions`"):
        bombard_request(g, side="communist", markers=["sf-com-3"], targets=target)
    far = [{"unit": "us-5-1m", "hex": "0505"}, {"unit": "nk-6", "hex": "0502"}]
    with pytest.raises(ValidationError, match="may not bombard"):
        bombard_request(g, side="communist", markers=["sf-com-3"], targets=target, positions=far)
    near = [{"unit": "us-5-1m", "hex": "0505"}, {"unit": "nk-6", "hex": "0504"}]
    result = bombardment.bombard(g, bombard_request(g, side="communist", markers=["sf-com-3"], targets=target,
                                                    positions=near), rolled([4]))
    assert result.outcome["column"] == "3" and result.outcome["result"] == "D"
    assert result.outcome["targets"][0]["step"] == "depleted"
    assert any(w.startswith("Stand-in table bombardment") for w in result.warnings)


def test_un_bombardment_rough_shift_and_shortage_limit():
    g = board(terrain={"0505": "rough"})
    req = bombard_request(g, side="un", markers=["sf-un-2", "sf-un-3"], targets=[{"unit": "nk-6", "hex": "0505"}],
                          involved=["us-5-1m"])
    result = bombardment.bombard(g, req, rolled([2]))
    assert result.outcome["total_value"] == 5 and result.outcome["column"] == "4" and result.outcome["result"] == "NE"
    with pytest.raises(ValidationError, match="at most 1"):
        bombard_request(g, side="un", markers=["sf-un-2", "sf-un-3"], targets=[{"unit": "nk-6", "hex": "0505"}],
                        involved=["us-5-1m"], un_supply_shortage=True)


def test_counter_battery_is_un_only():
    req = validate(bombardment.CounterBatteryRequest, REAL, un_marker="sf-un-1", communist_marker="sf-com-2")
    assert bombardment.counter_fire(REAL, req, rolled([3])).outcome == {"column": "1", "roll": 3, "result": "NE",
                                                                        "cancelled": False}
    with pytest.raises(ValidationError, match="8.4.1"):
        validate(bombardment.CounterBatteryRequest, REAL, un_marker="sf-com-1", communist_marker="sf-com-2")


# -- 5.3.2 breakdown -------------------------------------------------------------------------------


def test_depleted_division_breaks_down_into_three_depleted_random_regiments():
    req = validate(breakdown.BreakdownRequest, REAL, division="rok-1", step="depleted")
    dice = rolled([1, 1, 13])
    result = breakdown.break_down(REAL, req, dice)
    assert [r["unit"] for r in result.outcome["regiments"]] == ["rok-reg-1", "rok-reg-2", "rok-reg-15"]
    assert {r["step"] for r in result.outcome["regiments"]} == {"depleted"}
    assert [d.sides for d in dice.used] == [15, 14, 13]


def test_only_rok_nk_prc_divisions_break_down():
    with pytest.raises(ValidationError, match="only those break down"):
        validate(breakdown.BreakdownRequest, REAL, division="us-5-1m")
    with pytest.raises(ValidationError, match="needs 3"):
        validate(breakdown.BreakdownRequest, REAL, division="nk-6", generic_pool=["nk-reg-1"])
