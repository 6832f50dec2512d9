"""HoldFast Korea movement cost (9.1; 2; 4; 7): the book's examples on test boards."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from adjudicator.rules.holdfast.movement import MovementRequest, run_movement
from test_rules_holdfast_fixtures import board, validate

# Rail down column 5 crossing a river between 0504 and 0505; the UN 2nd Div at 0605 (ZOC 0505, 0506, ...).
RAIL = board(rails=[[f"05{r:02d}" for r in range(1, 11)]], rivers=[("0504", "0505")],
             terrain={"0404": "mountain", "0303": "mountain"}, red_lines=[("0708", "0709")])


def move(g=RAIL, **body):
    body.setdefault("weather", "clear")
    body.setdefault("in_supply", True)
    return run_movement(g, validate(MovementRequest, g, **body)).outcome


def test_book_example_rail_across_river_into_zoc_then_next_zoc():
    """8 example: 'He spends 3 MP to use the railroad to cross the river into the ZOC of the 2nd Div. He then
    spends another 3 MP to move into the next ZOC of 2nd Div. After spending 6 MP ... can move no further.'"""
    out = move(unit="nkpa-1", path=["0504", "0505", "0506"], positions=[{"unit": "un-2", "hex": "0605"}])
    assert [s["mp"] for s in out["steps"]] == [3, 3]
    assert out["legal"] and out["mp_allowance"] == 6 and out["mp_left"] == 0 and not out["double_move"]
    further = move(unit="nkpa-1", path=["0504", "0505", "0506", "0507"], positions=[{"unit": "un-2", "hex": "0605"}])
    assert not further["legal"]


def test_terrain_costs_are_not_cumulative_but_the_river_is():
    """2 example: enemy ZOC in mountain costs 3 MP, not 5; across a river off the railroad, 4."""
    zoc_mountain = move(unit="nkpa-1", path=["0403", "0404"], positions=[{"unit": "rok-1", "hex": "0405"}])
    assert zoc_mountain["steps"][0]["mp"] == 3
    g = board(terrain={"0404": "mountain"}, rivers=[("0403", "0404")])
    across = move(g, unit="nkpa-1", path=["0403", "0404"], positions=[{"unit": "rok-1", "hex": "0405"}])
    assert across["steps"][0]["mp"] == 4
    plain = move(g, unit="nkpa-1", path=["0403", "0404"])
    assert plain["steps"][0]["mp"] == 3  # mountain 2 + river 1


def test_double_move_snow_and_supply():
    long_path = [f"08{r:02d}" for r in range(1, 11)]
    assert move(unit="un-2", path=long_path)["mp_allowance"] == 12  # in supply, no enemy ZOC: twice 6
    assert move(unit="un-2", path=long_path)["legal"]
    snow = move(unit="un-2", path=long_path[:3], weather="snow")
    assert snow["mp_allowance"] == 10  # (6 - 1) x 2 (reading)
    tired = move(unit="un-2", path=long_path[:3], weather="snow", in_supply=False)
    assert tired["mp_allowance"] == 4 and not tired["double_move"]  # 6 - 1 snow - 1 out of supply


def test_after_naval_transfer_example_two_mp_four_left():
    """Amphibious Assault example: the 7th Div lands at Inch'on 'with the city costing 1 movement point' and moves
    into Seoul, stopping 'even though it has 4 movement points left'."""
    g = board(terrain={"0505": "city", "0504": "city", "0605": "sea"}, features=[("0505", "port", "Inch'on", "")])
    out = move(g, unit="un-7", path=["0505", "0504"], after_naval_transfer=True)
    assert out["mp_spent"] == 2 and out["mp_left"] == 4 and not out["double_move"] and out["rp_cost"] == 0


def test_illegal_moves():
    assert "red hex line" in move(unit="un-2", path=["0708", "0709"])["problems"][0]
    through = move(unit="un-2", path=["0801", "0802", "0803"], positions=[{"unit": "nkpa-1", "hex": "0802"}])
    assert not through["legal"] and "enemy unit" in through["problems"][0]
    stop = move(unit="un-2", path=["0801", "0802"], positions=[{"unit": "un-7", "hex": "0802"}])
    assert not stop["legal"] and "one unit per hex" in stop["problems"][0]
    passing = move(unit="un-2", path=["0801", "0802", "0803"], positions=[{"unit": "un-7", "hex": "0802"}])
    assert passing["legal"]
    with pytest.raises(ValidationError):
        validate(MovementRequest, RAIL, unit="un-2", path=["0801"], weather="clear")


def test_supply_is_traced_when_not_given():
    g = board(rails=[[f"05{r:02d}" for r in range(10, 4, -1)]], un_rail_terminus="0510")
    near = run_movement(g, validate(MovementRequest, g, unit="un-2", path=["0607", "0608"], weather="clear")).outcome
    assert near["in_supply"] and near["mp_allowance"] == 12
    far = run_movement(g, validate(MovementRequest, g, unit="un-2", path=["1001", "1002"], weather="clear")).outcome
    assert not far["in_supply"] and far["mp_allowance"] == 5


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["clear", "mountain", "city"]), min_size=5, max_size=5))
def test_each_hex_costs_between_one_and_four(terrains):
    g = board(terrain={f"09{r:02d}": t for r, t in enumerate(terrains, start=2)}, rivers=[("0903", "0904")])
    out = move(g, unit="un-2", path=[f"09{r:02d}" for r in range(1, 7)], positions=[{"unit": "nkpa-1", "hex": "1003"}])
    assert all(1 <= s["mp"] <= 4 for s in out["steps"])
