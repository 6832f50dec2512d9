"""Pusan Perimeter supply shortages (12.1.1): the UN end roll (die < game-turn) and the Communist Supply
Center breakdown roll (a 6 puts the Center in the nearest supply-symbol hex)."""

import pytest

from adjudicator.checks import get_check, run_check
from adjudicator.ledger.dice import SuppliedDice
from adjudicator.rules.kwb import shortage
from test_rules_kwb_fixtures import REAL


def resolve(name, dice, **body):
    spec = get_check("kwb", name)
    supplied = SuppliedDice(dice)
    result = run_check(spec, spec.compute_model(dice=dice, **body), supplied)
    supplied.finish()
    return result


def test_pusan_length_matches_the_data():
    assert shortage.PUSAN_TURNS == REAL.scenarios["pusan"].length


@pytest.mark.parametrize("turn", range(1, 22))
def test_un_shortage_ends_exactly_when_the_die_is_below_the_turn(turn):
    for roll in range(1, 7):
        assert resolve("un_supply_shortage_end", [roll], game_turn=turn).outcome["shortage_ended"] is (roll < turn)


def test_breakdown_places_the_center_in_the_nearest_supply_symbol_hex():
    result = resolve("supply_center_move", [6], from_hex="2402")
    assert result.outcome["nearest_supply_symbol_hexes"] == ["2501"]
    assert "2501" in result.steps[-1].text
    moves = resolve("supply_center_move", [5], from_hex="2402")
    assert moves.outcome["moves_normally"] and moves.outcome["nearest_supply_symbol_hexes"] == []


def test_breakdown_without_a_hex_lists_every_candidate():
    result = resolve("supply_center_move", [6])
    assert result.outcome["supply_symbol_hexes"] == REAL.scenarios["pusan"].supply_sources["communist"]
    assert any("from_hex" in w for w in result.warnings)
