"""Every game system offers checks; SPI Korea's first check against its rulebook.

(The other games' checks live in their own rules packages, with their owners' tests.)"""

import pytest

from adjudicator.checks import all_checks, get_check, run_check
from adjudicator.ledger.dice import SuppliedDice


def resolve(system, name, dice, **situation):
    spec = get_check(system, name)
    supplied = SuppliedDice(dice)
    result = run_check(spec, spec.compute_model(dice=dice, **situation), supplied)
    supplied.finish()
    return result


def test_every_system_has_a_check():
    systems = {spec.system for spec in all_checks()}
    assert systems == {"kwb", "spi", "holdfast", "fireandice"}


@pytest.mark.parametrize("roll, now", [(1, True), (3, True), (4, False), (6, False)])
def test_spi_second_10_3(roll, now):
    result = resolve("spi", "north_edge_return", [roll])
    assert result.outcome["second_10_3_arrives_now"] is now


def test_spi_blocked_road_moves_the_late_10_3_east():
    result = resolve("spi", "north_edge_return", [5], road_hex_enemy_occupied=True)
    assert result.outcome["second_10_3_placement"] == "first unoccupied hex east of the road"
