"""HoldFast Korea turn opening and end: Chinese intervention (11), RP (6, 14), weather (7), victory (12)."""

from dataclasses import replace

import pytest
from pydantic import ValidationError

from adjudicator.rules.holdfast.intervention import ChineseInterventionRequest, run_intervention
from adjudicator.rules.holdfast.replacements import ReplacementsRequest, run_replacements
from adjudicator.rules.holdfast.resources import ResourcePointsRequest, run_resource_points
from adjudicator.rules.holdfast.victory import VictoryRequest, run_victory
from adjudicator.rules.holdfast.weather import WeatherRequest, run_weather
from test_rules_holdfast_fixtures import REAL, board, parallel_between_rows, rolled, validate


def intervene(dice, g=REAL, **body):
    d = rolled(dice)
    result = run_intervention(g, validate(ChineseInterventionRequest, g, **body), d)
    d.finish()
    return result.outcome


def test_intervention_book_example():
    """11 example: crossing on 1 October; 15 Oct rolls 5 (needs 6), 1 Nov rolls 2 (needs 5-6), 15 Nov rolls 4
    (needs 4-6): intervention."""
    assert not intervene([5], turns_after_crossing=1)["intervenes"]
    assert not intervene([2], turns_after_crossing=2)["intervenes"]
    third = intervene([4], turns_after_crossing=3)
    assert third["intervenes"] and third["needed"] == "4-6" and third["communist_rp_per_turn"] == 15
    assert third["chinese_units_placed"] == 9 and third["chinese_unit_sp"] == 8


def test_intervention_is_automatic_on_the_january_turn_and_not_rolled_twice():
    assert intervene([], turns_after_crossing=0, turn=14)["intervenes"]  # turn 14 = 1 January 1951
    assert not intervene([], turns_after_crossing=0, turn=13)["intervenes"]
    done = intervene([], turns_after_crossing=3, already_intervened=True)
    assert done["intervenes"] and done["chinese_units_placed"] == 0


def test_intervention_chart_is_read_from_the_table():
    table = REAL.tables["chinese_intervention"]
    rows = tuple({**r, "min_die": "6"} if r["turn_after_crossing"] == "5+" else r for r in table.rows)
    g = replace(REAL, tables={**REAL.tables, "chinese_intervention": replace(table, rows=rows)})
    assert not intervene([5], g=g, turns_after_crossing=7)["intervenes"]
    assert intervene([2], turns_after_crossing=7)["intervenes"]


@pytest.mark.parametrize("turn, intervention, un, communist", [
    (1, None, 6, 10), (2, None, 8, 10), (5, None, 14, 10), (6, None, 16, 10), (20, None, 16, 10),
    (11, 11, 16, 15), (14, 10, 16, 15)])
def test_resource_points(turn, intervention, un, communist):
    out = run_resource_points(REAL, validate(ResourcePointsRequest, REAL, turn=turn,
                                             chinese_intervention_turn=intervention)).outcome
    assert (out["un_rp"], out["communist_rp"]) == (un, communist)


def test_air_interdiction():
    out = run_resource_points(REAL, validate(ResourcePointsRequest, REAL, turn=8, air_interdiction=2)).outcome
    assert (out["un_rp"], out["communist_rp"]) == (16 - 2, 10 - 4)
    with pytest.raises(ValidationError, match="clear"):
        validate(ResourcePointsRequest, REAL, turn=8, air_interdiction=1, weather="overcast")
    with pytest.raises(ValidationError, match="no air support"):
        validate(ResourcePointsRequest, REAL, turn=1, air_interdiction=1)


def weather(turn, dice, g=REAL):
    d = rolled(dice)
    result = run_weather(g, validate(WeatherRequest, g, turn=turn), d)
    d.finish()
    return result


def test_weather_turn_one_and_unranged_turns_are_clear_without_a_roll():
    assert weather(1, []).outcome["weather"] == "clear"
    assert weather(6, []).outcome == {"weather": "clear", "roll": None, "month": None, "air_support": True,
                                      "mp_modifier": 0,
                                      "track_moves": [{"track": "weather", "marker": "weather",
                                                       "marker_name": "Weather block", "to": "Clear", "side": "",
                                                       "rule": "3; 7 Weather"}]}


def test_the_weather_rolled_moves_the_weather_block_to_its_cell():
    """7: the weather rolled is the Weather Track's cell the Weather block stands on (3): an order."""
    assert [m["to"] for m in weather(12, [6]).outcome["track_moves"]] == ["Snow"]
    assert [m["to"] for m in weather(12, [3]).outcome["track_moves"]] == ["Overcast"]


def test_weather_roll_reads_the_stand_in_ranges_and_says_so():
    result = weather(12, [6])  # 1 Dec 1950: stand-in Dec ranges clear 1-2, overcast 3-4, snow 5-6
    assert result.outcome["weather"] == "snow" and result.outcome["mp_modifier"] == -1
    assert not result.outcome["air_support"]
    assert any("weather" in w and "Stand-in" in w for w in result.warnings)


def test_weather_follows_a_replaced_table():
    table = REAL.tables["weather"]
    rows = tuple({**r, "clear": "1-6", "overcast": "-", "snow": "-"} if r["month"] == "Dec" else r for r in table.rows)
    g = replace(REAL, tables={**REAL.tables, "weather": replace(table, rows=rows)})
    assert weather(12, [6], g).outcome["weather"] == "clear"


# Victory board: star cities 0502 (north, Communist at start) and 0508 (south, UN); 38th between rows 5 and 6;
# a rail down column 5 from Pusan (0510) to the north edge.
VICTORY = board(features=[("0502", "star_city", "Pyongyang", "communist"), ("0508", "star_city", "Seoul", "un")]
                + [(f"{c:02d}01", "map_edge", "", "") for c in range(1, 11)],
                rails=[[f"05{r:02d}" for r in range(10, 0, -1)]], parallel=parallel_between_rows(5))


def victory(**body):
    return run_victory(VICTORY, validate(VictoryRequest, VICTORY, **body)).outcome


def test_automatic_victory_for_all_star_cities():
    out = victory(side="un", positions=[{"unit": "un-2", "hex": "0502"}])
    assert out["winner"] == "un" and out["how"] == "automatic" and out["star_city_control"]["0502"] == "un"
    none = victory(side="communist", positions=[{"unit": "un-2", "hex": "0502"}])
    assert none["winner"] is None


def test_end_of_game_counts_in_supply_units_beyond_the_38th():
    positions = [{"unit": "un-2", "hex": "0804"}, {"unit": "un-7", "hex": "0704"},
                 {"unit": "nkpa-1", "hex": "0109"}, {"unit": "nkpa-2", "hex": "0208"}]
    out = victory(side="un", positions=positions, last_turn=True)
    assert not out["in_supply"]["nkpa-1"] and out["in_supply"]["nkpa-2"]  # 0109 is 4 hexes from the rail
    assert out["units_beyond_38th"] == {"communist": 1, "un": 2}
    assert out["winner"] == "un" and out["how"] == "end of game"
    tie = victory(side="un", positions=[], last_turn=True)
    assert tie["how"] == "draw"


def test_victory_rejects_unknown_star_cities():
    with pytest.raises(ValidationError, match="not a star city"):
        validate(VictoryRequest, VICTORY, side="un", star_city_control={"0303": "un"})


# -- replacements (8) ----------------------------------------------------------------------------------

def replace_steps(**body):
    return run_replacements(REAL, validate(ReplacementsRequest, REAL, **body)).outcome


def test_replacement_costs_and_block_swaps():
    out = replace_steps(side="un", replacements=[{"unit": "usmc-1-r", "sp": 2, "add": 2},
                                                 {"unit": "un-24", "sp": 1, "add": 3},
                                                 {"unit": "rok-1", "sp": 0, "add": 2}])
    by = {b["unit"]: b for b in out["blocks"]}
    assert by["usmc-1-r"] == {"unit": "usmc-1-r", "sp_before": 2, "block": "usmc-1", "sp": 4, "rp": 6, "swapped": True}
    assert by["un-24"]["sp"] == 4 and by["un-24"]["rp"] == 3
    assert by["rok-1"]["sp"] == 2 and by["rok-1"]["rp"] == 2 + 1
    assert out["rp_cost"] == 12
    chinese = replace_steps(side="communist", replacements=[{"unit": "cpa-50-r", "sp": 4, "add": 1}])
    assert chinese["blocks"][0]["block"] == "cpa-50" and chinese["rp_cost"] == 1


@pytest.mark.parametrize("body, message", [
    (dict(side="un", replacements=[{"unit": "usmc-1", "sp": 0, "add": 1}]), "Marine"),
    (dict(side="un", replacements=[{"unit": "un-24", "sp": 3, "add": 2}]), "maximum"),
    (dict(side="un", replacements=[{"unit": "un-24", "sp": 1, "add": 1, "in_supply": False}]), "out of supply"),
    (dict(side="un", replacements=[{"unit": "un-24", "sp": 1, "add": 3}], rp_available=2), "only 2"),
    (dict(side="communist", replacements=[{"unit": "cpa-50", "sp": 0, "add": 1}], chinese_armies_on_board=9), "never more than 9"),
])
def test_replacements_refused(body, message):
    with pytest.raises(ValidationError, match=message):
        validate(ReplacementsRequest, REAL, **body)
