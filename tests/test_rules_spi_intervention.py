"""SPI Korea: Campaign Chinese Intervention, Shock Effect, Intervention rule (5)."""

import pytest

from adjudicator.rules.spi import intervention as iv
from test_rules_spi_fixtures import REAL, validate


def arrivals(**body):
    return iv.resolve_intervention(REAL, validate(iv.ChineseInterventionRequest, REAL, **body))


def test_intervention_from_the_turn_after_non_korean_combat_north_of_the_38th():
    assert not arrivals(game_turn=18, non_korean_un_combat_north_of_38th_turn=18).outcome["intervened"]
    r = arrivals(game_turn=19, non_korean_un_combat_north_of_38th_turn=18)
    assert r.outcome["intervened"] and r.outcome["armies_this_turn"] == 2
    assert r.outcome["supply_units"] == {"count": 1, "at": "Antung"}
    assert any("lost in the OCR" in s.text for s in r.steps) and r.warnings


def test_two_armies_a_turn_up_to_twelve():
    assert arrivals(game_turn=30, non_korean_un_combat_north_of_38th_turn=18, armies_received=11).outcome[
        "armies_this_turn"] == 1
    assert arrivals(game_turn=30, non_korean_un_combat_north_of_38th_turn=18, armies_received=12).outcome[
        "armies_this_turn"] == 0


def test_north_korean_supply_before_intervention():
    r = arrivals(game_turn=10)
    assert not r.outcome["intervened"] and r.outcome["supply_units"] == {"count": 1, "at": "Pyongyang"}
    r = arrivals(game_turn=10, pyongyang_occupied_by_un=True)
    assert r.outcome["supply_units"]["count"] == 0


def test_chart_chinese_units_wait_for_the_intervention():
    # campaign turn 24 = Intervention chart turn 2: 'A1-1, 25-2'
    assert arrivals(game_turn=24).outcome["chart_reinforcements"] == []
    assert arrivals(game_turn=24, non_korean_un_combat_north_of_38th_turn=20).outcome["chart_reinforcements"] == ["25-2"]


def test_what_ifs_7_and_8():
    assert arrivals(game_turn=8, what_if=7, un_units_on_map_turn_8=True).outcome["intervened"]
    assert not arrivals(game_turn=8, what_if=7).outcome["intervened"]
    r = arrivals(game_turn=6, what_if=8, first_non_korean_landing_turn=3)
    assert r.outcome["intervention_turn"] == 6 and r.outcome["shock_effect_latest_start"] is None


@pytest.mark.parametrize("body, message", [
    ({"game_turn": 10, "non_korean_un_combat_north_of_38th_turn": 12}, "after the current"),
    ({"game_turn": 10, "what_if": 8}, "needs first_non_korean_landing_turn"),
    ({"game_turn": 99}, "less than or equal"),
])
def test_bad_intervention_requests(body, message):
    with pytest.raises(ValueError, match=message):
        arrivals(**body)


def shock(**body):
    return iv.resolve_shock(REAL, validate(iv.ShockEffectRequest, REAL, **body))


def test_shock_effect_turns_and_limits():
    r = shock(intervention_turn=20, declared_turn=28, game_turn=30)
    assert r.outcome["shock_turns"] == [28, 29, 30] and r.outcome["active_on_game_turn"]
    assert r.outcome["remove_communist_supply_units"]
    with pytest.raises(ValueError, match="no later than the eighth"):
        shock(intervention_turn=20, declared_turn=29)
    with pytest.raises(ValueError, match="used only"):
        shock(intervention_turn=20, declared_turn=21, used_before=True)
    with pytest.raises(ValueError, match="forbids the Shock Effect"):
        shock(intervention_turn=20, declared_turn=21, what_if=7)
