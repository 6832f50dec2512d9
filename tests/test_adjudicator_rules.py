"""The first real check of each game system, against the rulebooks."""

import pytest

from adjudicator.checks import all_checks, get_check, run_check
from adjudicator.dice import SuppliedDice


def resolve(system, name, dice, **situation):
    spec = get_check(system, name)
    supplied = SuppliedDice(dice)
    result = run_check(spec, spec.compute_model(dice=dice, **situation), supplied)
    supplied.finish()
    return result


def test_every_system_has_a_check():
    systems = {spec.system for spec in all_checks()}
    assert systems == {"kwb", "spi", "holdfast", "fireandice"}


@pytest.mark.parametrize(
    "turn, roll, ended",
    [(1, 1, False), (2, 1, True), (2, 2, False), (4, 3, True), (4, 4, False), (7, 6, True), (21, 6, True)],
)
def test_kwb_un_supply_shortage_ends_if_roll_below_turn(turn, roll, ended):
    result = resolve("kwb", "un_supply_shortage_end", [roll], game_turn=turn)
    assert result.outcome["shortage_ended"] is ended
    assert result.outcome["max_support_fire_markers_per_combat"] == (2 if ended else 1)
    assert all(step.rule and "12.1.1" in step.rule for step in result.steps)
    assert [(d.sides, d.value) for d in result.dice_used] == [(6, roll)]


@pytest.mark.parametrize("roll, moves", [(1, True), (5, True), (6, False)])
def test_kwb_supply_center_breaks_down_on_a_six(roll, moves):
    result = resolve("kwb", "supply_center_move", [roll], from_hex="2501")
    assert result.outcome["moves_normally"] is moves
    assert result.outcome["placed_in_nearest_supply_symbol_hex"] is (not moves)
    if not moves:
        assert "0301" in result.outcome["supply_symbol_hexes"]


def test_holdfast_rulebook_example():
    # Rule 11's example: UN crosses on 1 Oct; 15 Oct rolls 5 (no), 1 Nov rolls 2 (no),
    # 15 Nov rolls 4: the Chinese intervene.
    assert not resolve("holdfast", "chinese_intervention", [5], turns_after_crossing=1).outcome["intervenes"]
    assert not resolve("holdfast", "chinese_intervention", [2], turns_after_crossing=2).outcome["intervenes"]
    third = resolve("holdfast", "chinese_intervention", [4], turns_after_crossing=3)
    assert third.outcome["intervenes"]
    assert third.outcome["chinese_units_placed"] == 9
    assert third.outcome["communist_rp_per_turn"] == 15


@pytest.mark.parametrize("turns, lowest", [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (12, 2)])
def test_holdfast_intervention_chart(turns, lowest):
    assert resolve("holdfast", "chinese_intervention", [lowest], turns_after_crossing=turns).outcome["intervenes"]
    assert not resolve("holdfast", "chinese_intervention", [lowest - 1], turns_after_crossing=turns).outcome[
        "intervenes"
    ]


def test_holdfast_no_roll_before_crossing_and_automatic_in_january():
    before = resolve("holdfast", "chinese_intervention", [], turns_after_crossing=0)
    assert before.outcome["intervenes"] is False and before.dice_used == []
    january = resolve("holdfast", "chinese_intervention", [], turns_after_crossing=0, january_1951_turn=True)
    assert january.outcome["intervenes"] is True and january.dice_used == []


@pytest.mark.parametrize("roll, now", [(1, True), (3, True), (4, False), (6, False)])
def test_spi_second_10_3(roll, now):
    result = resolve("spi", "north_edge_return", [roll])
    assert result.outcome["second_10_3_arrives_now"] is now


def test_spi_blocked_road_moves_the_late_10_3_east():
    result = resolve("spi", "north_edge_return", [5], road_hex_enemy_occupied=True)
    assert result.outcome["second_10_3_placement"] == "first unoccupied hex east of the road"


def test_fireandice_modifiers_are_cumulative():
    result = resolve(
        "fireandice", "chinese_intervention", [6],
        un_vp=14, un_units_in_north_korea=True, chinese_airfield_struck=True, roc_intervened=True,
    )
    assert result.outcome["modifier"] == -6
    assert result.outcome["modified"] == 0
    assert result.outcome["intervenes"] is True
    assert sum(1 for step in result.steps if step.text.startswith("-")) == 5


@pytest.mark.parametrize("roll, vp, north, intervenes", [(1, 10, False, True), (2, 10, False, False), (2, 10, True, True)])
def test_fireandice_modified_zero_or_less(roll, vp, north, intervenes):
    result = resolve("fireandice", "chinese_intervention", [roll], un_vp=vp, un_units_in_north_korea=north)
    assert result.outcome["intervenes"] is intervenes


def test_fireandice_no_roll_without_un_vps():
    result = resolve("fireandice", "chinese_intervention", [], un_vp=0)
    assert result.outcome["roll_allowed"] is False and result.dice_used == []


def test_fireandice_unmodified_roll_cannot_succeed_and_says_so():
    result = resolve("fireandice", "chinese_intervention", [1], un_vp=3)
    assert result.outcome["intervenes"] is False
    assert result.warnings
