"""Korean War Battles victory: each scenario's schedule (12.1.3, 12.22, 12.32) and the 11.0 scale with its
printed defects (31 in no band, 10 in two) resolved and reported."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from adjudicator.rules.kwb import victory
from test_rules_kwb_fixtures import REAL, validate

LEVELS = REAL.tables["victory_levels"]


def score(**body):
    return victory.score(REAL, validate(victory.VictoryRequest, REAL, **body))


def test_seoul_clearing_worked_example_turn_10_is_12():
    # 12.22: "if Seoul is cleared at the end of Game Turn 10, then the UN player gets 12 points" ((14-10) x 3).
    entry = next(e for e in REAL.scenarios["seoul"].victory["un"] if "points_formula" in e)
    assert victory.seoul_clearing_vp(entry, 10) == 12
    result = score(scenario="seoul", seoul_cleared_on_turn=10)
    assert result.outcome["un_vp"] == 12 and result.outcome["difference"] == -12
    assert result.outcome["level"] == "Decisive UN Victory"
    assert any("(14 - 10) x 3" in s.text for s in result.steps)


@pytest.mark.parametrize("difference, level, resolved", [
    (40, "Decisive Communist Victory", False), (32, "Decisive Communist Victory", False),
    (31, "Decisive Communist Victory", True),   # printed '> 31': 31 is in no band
    (30, "Tactical Communist Victory", False), (21, "Tactical Communist Victory", False),
    (20, "Pyrrhic Communist victory", False), (11, "Pyrrhic Communist victory", False),
    (10, "Tactical UN Victory", True),          # printed in '10 20' and '0 10'
    (0, "Tactical UN Victory", False), (-1, "Decisive UN Victory", False),
])
def test_victory_scale(difference, level, resolved):
    band, notes = victory.victory_level(LEVELS, difference)
    assert band["level"] == level
    assert bool(notes) is resolved


@given(st.integers(-200, 200), st.integers(0, 50))
def test_every_difference_has_exactly_one_level_and_more_communist_vp_never_helps_the_un(d, more):
    order = [r["level"] for r in LEVELS.rows]  # band 1 (best for the Communists) first
    assert order.index(victory.victory_level(LEVELS, d + more)[0]["level"]) <= order.index(
        victory.victory_level(LEVELS, d)[0]["level"])


def test_result_says_the_scale_was_resolved():
    # Pusan: Taegu (10) = 10 -> in two bands as printed.
    result = score(scenario="pusan", places_occupied=["Taegu"], withdrawn_on_turn={"us-5-1m": 16, "rok-17": 20})
    assert result.outcome["difference"] == 10 and result.outcome["scale_resolved"]
    assert result.outcome["level"] == "Tactical UN Victory"
    assert any("two bands" in w for w in result.warnings)


def test_pusan_overdue_withdrawals():
    never = score(scenario="pusan")
    lines = {line["text"][:40]: line for line in never.outcome["lines"]}
    marines = next(v for k, v in lines.items() if "5 th" in k or "5th" in k)
    assert marines["points"] == 3 * 6  # due turn 16, never withdrawn: turns 16-21
    rok = next(line for line in never.outcome["lines"] if "17" in line["text"])
    assert rok["points"] == 2 * 2      # due turn 20 (chart reading): turns 20-21
    text = score(scenario="pusan", withdrawal_due="text")
    assert next(line for line in text.outcome["lines"] if "17" in line["text"])["points"] == 2 * 6
    late = score(scenario="pusan", withdrawn_on_turn={"us-5-1m": 18, "rok-17": 20})
    assert late.outcome["communist_vp"] == 3 * 2


def test_pusan_deadpile_and_places():
    result = score(scenario="pusan", withdrawn_on_turn={"us-5-1m": 16, "rok-17": 20},
                   deadpile=["rok-1", "rok-reg-1", "us-cadre-x", "us-5-1c", "us-24-hq", "rok-2-hq",
                             "nk-6", "nk-reg-2", "nk-83-mot", "nk-1-hq", "nk-sc-1"],
                   places_occupied=["Masan", "Pusan"])
    # Communist: 2 x (rok-1, rok-reg-1, us-cadre-x) + 5 x (us-5-1c, us-24-hq, rok-2-hq) + 10 (Masan) + 25 (Pusan)
    assert result.outcome["communist_vp"] == 6 + 15 + 10 + 25
    # UN: 1 x (nk-6, nk-reg-2) + 2 x (nk-83-mot mobile, nk-1-hq, nk-sc-1)
    assert result.outcome["un_vp"] == 2 + 6


def test_seoul_cities_and_inchon():
    gm = REAL.maps["seoul"]
    city = gm.grid.label(gm.hexes_with("city")[0])
    result = score(scenario="seoul", city_hexes_occupied=[city], places_occupied=["Inchon"],
                   deadpile=["us-5-1m", "rok-1km", "nk-31", "nk-sc-seoul-1"])
    assert result.outcome["communist_vp"] == 5 + 20 + 5 + 2
    assert result.outcome["un_vp"] == 2


def test_changjin_withdrawals_supply_and_optional_units():
    result = score(scenario="changjin", withdrawn=["us-5-1m", "cw-41", "us-32-7"], optional_taken=["us-32-7", "prc-78"],
                   un_units_out_of_supply=2, deadpile=["us-7-1m"])
    # Communist: 2 (us-32-7 taken by the UN) + 5 (us-7-1m) + 3 x 2 out of supply
    assert result.outcome["communist_vp"] == 2 + 5 + 6
    # UN: 2 (us-5-1m) + 1 (cw-41) + 0 (us-32-7 is an optional unit) + 3 (prc-78 taken by the Communists)
    assert result.outcome["un_vp"] == 2 + 1 + 3


@pytest.mark.parametrize("body, message", [
    ({"scenario": "pusan", "places_occupied": ["Seoul"]}, "scores nothing"),
    ({"scenario": "pusan", "seoul_cleared_on_turn": 4}, "only in the Battle for Seoul"),
    ({"scenario": "seoul", "city_hexes_occupied": ["0101"]}, "not a city hex"),
    ({"scenario": "pusan", "withdrawn_on_turn": {"us-1-1m": 16}}, "requires to withdraw"),
    ({"scenario": "changjin", "optional_taken": ["us-5-1m"]}, "not an optional reinforcement"),
    ({"scenario": "pusan", "deadpile": ["nk-6", "nk-6"]}, "twice"),
])
def test_bad_requests(body, message):
    with pytest.raises(ValidationError, match=message):
        validate(victory.VictoryRequest, REAL, **body)


def test_seoul_cleared_from_a_position_and_the_once_only_award():
    gm = REAL.maps["seoul"]
    capital = victory.capital_hexes(gm)
    first = gm.grid.label(capital[0])

    def judge(positions, **body):
        req = validate(victory.SeoulClearedRequest, REAL, positions=positions, **body)
        return victory.seoul_cleared(REAL, req)

    held = judge([{"unit": "us-5-1m", "hex": first}], game_turn=10)
    assert held.outcome["cleared"] and held.outcome["un_vp"] == 12  # the book's example: turn 10 -> 12
    if len(capital) > 1:
        other = gm.grid.label(capital[1])
        contested = judge([{"unit": "us-5-1m", "hex": first}, {"unit": "nk-31", "hex": other}], game_turn=10)
        assert not contested.outcome["cleared"] and contested.outcome["communist_regiments_in"] == ["nk-31"]
        cadre_only = judge([{"unit": "us-5-1m", "hex": first}, {"unit": "nk-scratch-a-1", "hex": other}], game_turn=10)
        assert cadre_only.outcome["cleared"]  # a cadre is not regiment-size
        assert not judge([{"unit": "us-5-1m", "hex": first}], game_turn=10, every_hex=True).outcome["cleared"]
    again = judge([{"unit": "us-5-1m", "hex": first}], game_turn=12, awarded_on_turn=10)
    assert again.outcome["cleared"] and again.outcome["un_vp"] == 0
    assert not judge([{"unit": "nk-31", "hex": first}], game_turn=3).outcome["cleared"]
