"""Korea: Fire and Ice declaring combat costs (4.5) and strategic movement (4.8), by the book's cases.

Strategic movement runs on a small clear test board (rows 01-14; lower row = farther north), so the
cases do not depend on the geography-derived map.
"""

from __future__ import annotations

import pytest

from adjudicator.rules.fireandice import movement
from adjudicator.rules.fireandice.movement import DeclareCombatRequest, StrategicMoveRequest
from test_rules_fireandice_supply import REAL, make_game


def declare(**body):
    req = DeclareCombatRequest.model_validate({"unit": "nk-3", **body}, context={"game": REAL})
    return movement.run_declare_combat(REAL, req).outcome


def test_worked_example_4_1_third_division_prepared_attack_costs_four_and_a_half():
    """4.1 example: 'This costs the 3rd a total of 4.5 MP: 0.5 to move along the road to hex 2542, 1 to enter the
    enemy ZoC, and 3 to place the Prepared Attack marker.'"""
    out = declare(combat_type="Prepared Attack", mp_spent=1.5)
    assert out["allowed"] and out["cost"] == 3 and out["mp_left_after"] == 0.5
    assert out["cup"] == "Prepared Attack/Deliberate Attack" and out["movement_ends"]


@pytest.mark.parametrize("combat_type, cost", [("Meeting Engagement", 1), ("Hasty Attack", 2), ("Prepared Attack", 3)])
def test_declaring_costs_1_2_3_mp(combat_type, cost):
    """4.5 DECLARING COMBAT COSTS: Meeting Engagement 1, Hasty 2, Prepared 3; not affordable with less left."""
    assert declare(combat_type=combat_type, mp_spent=5 - cost)["allowed"]
    assert not declare(combat_type=combat_type, mp_spent=5 - cost + 0.5)["allowed"]


def test_deliberate_attack_costs_all_mp_and_needs_a_unit_that_started_adjacent():
    """4.5: 'Because a Deliberate Attack costs all movement points, the attacker must start adjacent to the enemy
    unit to declare that type of attack.'"""
    out = declare(combat_type="Deliberate Attack", started_adjacent=True)
    assert out["allowed"] and out["cost"] == 5 and out["mp_left_after"] == 0
    assert not declare(combat_type="Deliberate Attack")["allowed"]
    assert not declare(combat_type="Deliberate Attack", started_adjacent=True, mp_spent=1)["allowed"]


def test_low_morale_adds_one_and_forbids_a_deliberate_attack():
    """6.2 j: 'adds one to all its combat chit movement costs (and may never perform a Deliberate Attack)'."""
    out = declare(combat_type="Hasty Attack", mp_spent=2, markers=["low_morale"])
    assert out["allowed"] and out["cost"] == 3
    assert not declare(combat_type="Hasty Attack", mp_spent=2.5, markers=["low_morale"])["allowed"]
    refused = declare(combat_type="Deliberate Attack", started_adjacent=True, markers=["low_morale"])
    assert not refused["allowed"] and "Low Morale" in refused["refusals"][0]


def test_no_declaration_after_the_one_hex_move_or_a_second_chit():
    assert not declare(combat_type="Meeting Engagement", moved_one_hex_without_mp=True)["allowed"]  # 4.1
    assert not declare(combat_type="Meeting Engagement", chit_placed_this_turn=True)["allowed"]  # 5.1
    assert not declare(combat_type="Meeting Engagement", hex_has_chit=True)["allowed"]  # 4.4


G = make_game()


def strategic(unit, path, positions, **body):
    req = StrategicMoveRequest.model_validate({"unit": unit, "path": path, "positions": positions, **body},
                                              context={"game": G})
    return movement.run_strategic_movement(G, req)


def test_worked_example_4_8_farthest_unit_in_row_36_closes_row_35():
    """4.8: 'if ... the farthest northern UN unit is in hex 2036, that strategically moving unit may not move into
    any hex that is in row xx35' - here the farthest UN unit is in row 06: row 05 is closed, row 06 open."""
    friends = [{"unit": "rok-2", "hex": "0806"}, {"unit": "nk-1", "hex": "0101"}]
    assert strategic("rok-1", ["0509", "0508", "0507", "0506"], friends).outcome["legal"]
    refused = strategic("rok-1", ["0509", "0508", "0507", "0506", "0505"], friends)
    assert not refused.outcome["legal"] and "farther north than row 06" in refused.outcome["broken"][0]


def test_the_farthest_unit_may_only_move_back_and_must_end_behind_another():
    """4.8: the farthest unit 'may only move to the south ... and must end its strategic movement in a hex that is
    farther south ... than another friendly unit. If it cannot end its move in this way, it may not strategically
    move.'"""
    friends = [{"unit": "rok-2", "hex": "0806"}]
    assert strategic("rok-1", ["0504", "0505", "0506", "0507"], friends).outcome["legal"]  # ends in 07, behind 06
    short = strategic("rok-1", ["0504", "0505", "0506"], friends).outcome
    assert not short["legal"] and "must end farther south" in short["broken"][0]
    forward = strategic("rok-1", ["0504", "0503"], friends).outcome
    assert not forward["legal"] and "may only move south" in forward["broken"][0]
    assert not strategic("rok-1", ["0504", "0505"], []).outcome["legal"]  # no other unit to end behind


def test_within_two_hexes_of_an_enemy_only_us_and_minor_powers_with_bug_out():
    """4.8: 'may not start within 2 hexes of an enemy unit - and may not enter any hex within 2 hexes of an enemy
    unit'; 'US and UN Minor Powers units may ... If they do so, place a Bug Out marker'."""
    board = [{"unit": "rok-2", "hex": "0302"}, {"unit": "nk-1", "hex": "0706"}]  # 0507 is 2 hexes from 0706
    rok = strategic("rok-1", ["0510", "0509", "0508", "0507"], board).outcome
    assert not rok["legal"] and "within 2 hexes of an enemy unit: 0507 (nk-1" in rok["broken"][0]
    us = strategic("us-24-19", ["0510", "0509", "0508", "0507"], board).outcome
    assert us["legal"] and us["bug_out"]
    clear = strategic("rok-1", ["0510", "0509", "0508"], board).outcome
    assert clear["legal"] and not clear["bug_out"]


def test_strategic_movement_is_ten_mp_fresh_and_not_interdicted():
    path = [f"05{r:02d}" for r in range(14, 2, -1)]  # 11 clear hexes
    friends = [{"unit": "rok-2", "hex": "0801"}]
    assert not strategic("rok-1", path, friends).outcome["legal"]
    assert strategic("rok-1", path[:11], friends).outcome["legal"]
    assert not strategic("rok-1", path[:3], friends, fresh=False).outcome["legal"]
    interdicted = strategic("rok-1", path[:3], friends, interdicted=True)
    assert not interdicted.outcome["legal"] and any(s.rule == "10.4.2" for s in interdicted.steps)
