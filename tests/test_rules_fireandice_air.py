"""Korea: Fire and Ice air war (10.0) against the rulebook's worked examples.

Aircraft ratings are a labelled stand-in (table aircraft) that keeps every value the examples give.
"""

from __future__ import annotations

import pytest

from adjudicator.checks import get_check, run_check
from adjudicator.ledger.dice import SuppliedDice
from adjudicator.rules.fireandice.air import firing_order


def resolve(name, dice, **situation):
    spec = get_check("fireandice", name)
    supplied = SuppliedDice(dice)
    body = {"dice": dice, **situation} if spec.random else situation
    result = run_check(spec, spec.compute_model(**body), supplied)
    supplied.finish()
    return result


def test_mig_alley_example():
    # 10.3.1 example: 324 IAD (6) fires first at the F-86 and misses; the F-86 (5) hits the MiG (rolls 4);
    # the MiG-15 (4) hits the F-84 (rolls 2); the MiG-9 (3) fires at the F-86 and misses (rolls 7).
    # Both sides still have aircraft: no VP.  (The F-84 was damaged before its turn: it does not fire.)
    # "the UN player can get this unit out of the game if he can damage it": the 324 IAD is a Soviet elite
    # aircraft, removed from play when damaged (10.2), not reduced.
    aircraft = [
        {"unit": "com-air-324iad", "targets": ["un-air-4fi"]},
        {"unit": "un-air-4fi", "targets": ["com-air-324iad"]},
        {"unit": "com-air-3ad", "targets": ["un-air-27fe"]},
        {"unit": "un-air-27fe", "targets": ["com-air-5ad"]},
        {"unit": "com-air-5ad", "targets": ["un-air-4fi"]},
    ]
    result = resolve("air_combat", [8, 4, 2, 7], box="mig_alley", aircraft=aircraft)
    shots = [(s["shooter"], s["target"], s["result"]) for s in result.outcome["shots"]]
    assert shots == [
        ("com-air-324iad", "un-air-4fi", "miss"),
        ("un-air-4fi", "com-air-324iad", "removed from play"),
        ("com-air-3ad", "un-air-27fe", "reduced and damaged"),
        ("com-air-5ad", "un-air-4fi", "miss"),
    ]
    assert result.outcome["aircraft"]["com-air-324iad"] == "removed from play"
    assert result.outcome["aircraft"]["un-air-27fe"] == "damaged"
    elite_step = next(s for s in result.steps if "com-air-324iad: D10" in s.text)
    assert "never returns" in elite_step.text and "10.2" in elite_step.rule
    assert result.outcome["vp_to"] is None
    assert any("aircraft" in w for w in result.warnings)


def test_elite_aircraft_hit_by_top_cover_is_removed_from_play():
    """10.2: 'the two Soviet Elite aircraft (324 IAD and 303 IAD ...) are removed from play if they are damaged'."""
    result = resolve("air_attack", [1, 1], kind="top_cover_vs_interceptor",
                     attacker={"unit": "un-air-4fi"}, target={"unit": "com-air-303iad"})
    assert result.outcome["target_result"] == "removed from play"


def test_firing_order_un_first_on_ties_then_alternating():
    # 10.3.1: F-86 (5), MiG-15 (4), then the F-80 before the MiG-9 (both 3).
    order = firing_order([("mig9", "communist", 3), ("f80", "un", 3), ("mig15", "communist", 4), ("f86", "un", 5)])
    assert order == ["f86", "mig15", "f80", "mig9"]
    assert firing_order([("a", "communist", 3), ("b", "communist", 3), ("c", "un", 3)]) == ["c", "a", "b"]


def test_long_range_and_reduced_each_cost_1():
    # 10.2: an F-86 from Japan (long range) has 4, not 5; reduced and long range: -2.
    result = resolve("air_combat", [10, 10], box="mig_alley",
                     aircraft=[{"unit": "un-air-4fi", "long_range": True, "reduced": True}, {"unit": "com-air-3ad"}])
    assert result.outcome["shots"][0]["needed"] == 4  # the MiG-15 (4) fires first
    assert result.outcome["shots"][1]["needed"] == 3  # 5 - 1 - 1


def test_reduced_aircraft_hit_again_is_eliminated_and_lone_side_gets_the_vp_and_4fi_roll():
    result = resolve("air_combat", [1, 3], box="mig_alley",
                     aircraft=[{"unit": "com-air-3ad"}, {"unit": "un-air-8fb", "reduced": True}])
    assert result.outcome["aircraft"]["un-air-8fb"] == "eliminated"
    assert result.outcome["vp_to"] == "communist"
    assert result.outcome["four_fi_arrives"] is True  # D6 3: 1-4 (special rule 1 of 19.0)


def test_top_cover_example_intercepting_the_f51():
    # 10.4.1 example: MiG-15 of the 4th Air Division from China at long range: 4 - 1 = 3.  D6 5: missed;
    # station 2: passes (the example does not print the roll; 1 here).
    first = resolve("air_attack", [5, 1], kind="top_cover_vs_mission",
                    attacker={"unit": "com-air-4ad", "long_range": True}, target={"unit": "un-air-18fb"})
    assert first.outcome["needed"] == 3 and not first.outcome["hit"] and first.outcome["attacker_station"] == "stays"
    # Later: rolls 2 - the F-51 is reduced and damaged; the station roll "rolls a 10" (printed: impossible on
    # a D6) - any roll above 2 sends the MiG to the Available box; 6 here.
    second = resolve("air_attack", [2, 6], kind="top_cover_vs_mission",
                     attacker={"unit": "com-air-4ad", "long_range": True}, target={"unit": "un-air-18fb"})
    assert second.outcome["hit"] and second.outcome["target_result"] == "reduced and damaged"
    assert second.outcome["attacker_station"] == "to available"


def test_strategic_missions_example():
    # 10.3 example: a B-29 rolls 1 on the Infrastructure Strike: -2; a B-26 (3) rolls 6: damaged.
    infra = resolve("strategic_strike", [1, 6], kind="infrastructure",
                    aircraft=[{"unit": "un-air-19bomb"}, {"unit": "un-air-3bomb"}], enemy_infrastructure=12)
    assert infra.outcome["infrastructure_loss"] == 2
    assert infra.outcome["results"][1]["attacker_damaged"] is True
    assert infra.outcome["enemy_infrastructure"] == 10
    # The last B-29 strikes Chinese airfields (MacArthur commands) and rolls 3 against 4: one airfield damaged.
    field = resolve("strategic_strike", [3], kind="airfield", aircraft=[{"unit": "un-air-22bomb-a"}],
                    airfield_box="china", macarthur_commands=True)
    assert field.outcome["airfields_damaged"] == 1
    step = field.steps[-1].text
    assert "china box's Damaged Airfield box" in step and "if there is an aircraft" in step


def test_airfield_strike_removes_an_aircraft_only_if_there_is_one():
    """10.3.3: each hit damages an airfield (to the Damaged Airfield box) and 'if there is an aircraft in either the
    Damaged or the Available Aircraft box of this airfield it is permanently removed from play'."""
    two_hits = resolve("strategic_strike", [2, 3], kind="airfield", airfield_box="north_korea",
                       aircraft=[{"unit": "un-air-19bomb"}, {"unit": "un-air-92bomb"}],
                       airfields_there=2, aircraft_there=1)
    assert two_hits.outcome["airfields_damaged"] == 2 and two_hits.outcome["aircraft_removed"] == 1
    assert "permanently removed" in two_hits.steps[0].text and "none is removed" in two_hits.steps[1].text
    assert all("north korea box's Damaged Airfield box" in s.text for s in two_hits.steps)


def test_airfield_strike_with_no_undamaged_airfield_left():
    """10.3.3: "The player may attack either an airfield or an improved airfield of his choice. If he rolls equal to
    or less than the aircraft's strategic mission value, the airfield is damaged ... In addition, if there is an
    aircraft in either the Damaged or the Available Aircraft box of this airfield it is permanently removed".
    Reading: with no undamaged airfield there is nothing to attack (refused); a hit after the last one is damaged
    damages nothing and, the aircraft going only "in addition", removes none."""
    with pytest.raises(ValueError, match="no undamaged airfield is left.*may attack either an airfield"):
        resolve("strategic_strike", [2], kind="airfield", airfield_box="north_korea",
                aircraft=[{"unit": "un-air-19bomb"}], airfields_there=0, aircraft_there=3)
    two_hits = resolve("strategic_strike", [2, 3], kind="airfield", airfield_box="north_korea",
                       aircraft=[{"unit": "un-air-19bomb"}, {"unit": "un-air-92bomb"}],
                       airfields_there=1, aircraft_there=3)
    assert two_hits.outcome["airfields_damaged"] == 1 and two_hits.outcome["aircraft_removed"] == 1
    assert "no aircraft is removed" in two_hits.steps[1].text and "'in addition'" in two_hits.steps[1].text


def test_an_airfield_strike_on_the_carriers_is_refused_by_the_rule():
    """10.3.3: "choose an airfield box to attack (China, North Korea, Japan or South Korea - Carriers can't be
    attacked)" - the refusal names the rule, not the list of allowed values."""
    with pytest.raises(ValueError) as refused:
        resolve("strategic_strike", [3], kind="airfield", aircraft=[{"unit": "com-air-3ad"}], airfield_box="carriers")
    text = str(refused.value)
    assert "Carriers can't be attacked" in text and "10.3.3" in text and "Input should be" not in text


def test_infrastructure_example_two_b29s_take_4_and_the_floor_holds():
    # 7.0 example: 2 B-29s reduce the Communist Infrastructure by 4 (two rolls of 1).
    result = resolve("strategic_strike", [1, 1], kind="infrastructure",
                     aircraft=[{"unit": "un-air-19bomb"}, {"unit": "un-air-92bomb"}], enemy_infrastructure=12)
    assert result.outcome["infrastructure_struck"] == result.outcome["infrastructure_loss"] == 4
    assert result.outcome["enemy_infrastructure"] == 8


def test_the_communist_floor_limits_the_change_and_the_result_says_so():
    """7.0: "The Infrastructure value can never be more than 19 for either side, and never less than 2 for the
    Communists or 0 for the UN side."  10.3.2: "If he rolls a 1, the enemy's infrastructure is reduced by 2."  A 1
    against a Communist Infrastructure of 3 scores 2 and changes the marker by 1: the result reports both."""
    result = resolve("strategic_strike", [1], kind="infrastructure", aircraft=[{"unit": "un-air-19bomb"}],
                     enemy_infrastructure=3)
    assert result.outcome["infrastructure_struck"] == 2
    assert result.outcome["infrastructure_loss"] == 1 and result.outcome["enemy_infrastructure"] == 2
    step = result.steps[-1]
    assert "3 -> 2" in step.text and "never goes below 2" in step.text and "changes by 1, not 2" in step.text
    assert "7.0" in step.rule
    # not knowing the Infrastructure now, the check says the floor may cut the change
    unknown = resolve("strategic_strike", [1], kind="infrastructure", aircraft=[{"unit": "un-air-19bomb"}])
    assert unknown.outcome["infrastructure_struck"] == 2 and "enemy_infrastructure" not in unknown.outcome
    assert any("never goes below 2" in w for w in unknown.warnings)
    with pytest.raises(ValueError, match="never below 2"):
        resolve("strategic_strike", [1], kind="infrastructure", aircraft=[{"unit": "un-air-19bomb"}],
                enemy_infrastructure=1)


def test_chinese_airfields_only_while_macarthur_commands():
    with pytest.raises(ValueError, match="MacArthur"):
        resolve("strategic_strike", [3], kind="airfield", aircraft=[{"unit": "un-air-19bomb"}], airfield_box="china")


def test_repair_example_and_soviet_elite_removed():
    # 10.1 example: the UN needs 5 or less and rolls 2: the F-80 returns (still reduced).
    result = resolve("aircraft_repair", [2], aircraft=["un-air-8fb"])
    assert result.outcome["results"]["un-air-8fb"].startswith("available")
    com = resolve("aircraft_repair", [4], aircraft=["com-air-324iad", "com-air-3ad"])
    assert com.outcome["results"] == {"com-air-324iad": "removed from play", "com-air-3ad": "stays damaged"}


def test_ground_support_example_marker_on_5():
    # 10.4.3 example: a reduced Tu-2 at long range (value 1) and a full Il-10 at normal range: 5.
    result = resolve("ground_support_level", [], aircraft=[{"unit": "com-air-10ad", "reduced": True, "long_range": True},
                                                           {"unit": "com-air-il10"}])
    assert result.outcome["air_support_level"] == 5
    assert resolve("ground_support_level", [], aircraft=[{"unit": "com-air-il10"}], rain=True).outcome["air_support_level"] == 3


def test_ground_support_station_roll_six_damages():
    result = resolve("stay_on_station", [6], aircraft={"unit": "un-air-18fb"}, mission="ground_support")
    assert result.outcome["result"] == "damaged"
    assert resolve("stay_on_station", [6], aircraft={"unit": "un-air-18fb"}, mission="interdiction").outcome["result"] == "to available"


def test_interdiction_success_and_six():
    ok = resolve("interdiction", [2, 1], aircraft={"unit": "un-air-3bomb"}, action="hq_activation")
    assert ok.outcome["denied"] and ok.outcome["station"] == "stays"
    six = resolve("interdiction", [6], aircraft={"unit": "un-air-3bomb"}, action="strategic_move")
    assert not six.outcome["denied"] and six.outcome["interdictor_damaged"] and six.outcome["station"] is None


def test_atomic_strike_limits():
    ok = resolve("atomic_strike", [], aircraft="un-air-19bomb", target="hex", hex="2042", atomic_release=True,
                 strikes_so_far=4)
    assert ok.outcome["strikes_left"] == 0
    with pytest.raises(ValueError, match="B-29"):
        resolve("atomic_strike", [], aircraft="un-air-3bomb", target="hex", hex="2042", atomic_release=True)
    with pytest.raises(ValueError, match="5 atomic"):
        resolve("atomic_strike", [], aircraft="un-air-19bomb", target="hex", hex="2042", atomic_release=True,
                strikes_so_far=5)


def test_no_flying_in_snow():
    with pytest.raises(ValueError, match="Snow"):
        resolve("air_attack", [1, 1], kind="top_cover_vs_mission", attacker={"unit": "com-air-4ad"},
                target={"unit": "un-air-18fb"}, snow=True)
