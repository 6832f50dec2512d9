"""The first checks of Korean War Battles and SPI Korea, against the rulebooks.

(HoldFast Korea's and Fire and Ice's checks now live in their own rules packages, with their
own tests.)"""

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


@pytest.mark.parametrize("roll, now", [(1, True), (3, True), (4, False), (6, False)])
def test_spi_second_10_3(roll, now):
    result = resolve("spi", "north_edge_return", [roll])
    assert result.outcome["second_10_3_arrives_now"] is now


def test_spi_blocked_road_moves_the_late_10_3_east():
    result = resolve("spi", "north_edge_return", [5], road_hex_enemy_occupied=True)
    assert result.outcome["second_10_3_placement"] == "first unoccupied hex east of the road"
