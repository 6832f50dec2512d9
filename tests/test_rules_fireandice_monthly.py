"""Korea: Fire and Ice Monthly Phase checks by the book's cases: the Infrastructure and Supply
Determination (7.0) and Air Commitment within the airfields (10.1, 10.2)."""

from __future__ import annotations

import pytest

from adjudicator.checks import get_check, run_check
from adjudicator.dice import SuppliedDice


def ask(name, **situation):
    spec = get_check("fireandice", name)
    return run_check(spec, spec.compute_model(**situation), SuppliedDice([]))


def test_worked_example_7_0_supply_marker_goes_on_the_infrastructure_marker():
    """7.0 example: 'The Communist player has 1 Supply left on the track and the Infrastructure marker is on the 12
    space ... the Communist player has 12 Supply to use this month.' Later 2 B-29s reduce Infrastructure by 4 and
    additions total 6: at the next Monthly Phase the Supply marker again goes on the Infrastructure marker (14)."""
    first = ask("supply_determination", side="communist", infrastructure=12, supply_left=1)
    assert first.outcome["supply"] == 12 and first.outcome["supply_lost"] == 1
    assert any("1 left from last month are lost" in s.text for s in first.steps)
    nxt = ask("supply_determination", side="communist", infrastructure=12, changes=[-4, 6])
    assert nxt.outcome["infrastructure"] == 14 and nxt.outcome["supply"] == 14


def test_infrastructure_limits_hold_after_each_change():
    """7.0: 'never be more than 19 for either side, and never less than 2 for the Communists or 0 for the UN'."""
    assert ask("supply_determination", side="communist", infrastructure=4, changes=[-4, 1]).outcome["supply"] == 3
    assert ask("supply_determination", side="un", infrastructure=4, changes=[-6, 1]).outcome["supply"] == 1
    assert ask("supply_determination", side="un", infrastructure=18, changes=[3]).outcome["supply"] == 19
    with pytest.raises(ValueError, match="2..19"):
        ask("supply_determination", side="communist", infrastructure=1)


def test_purchases_of_the_subphase_at_the_season_cost():
    """7.0: the '*' items are paid in this subphase; 'Winter turns double all of the above costs for the UN'."""
    out = ask("supply_determination", side="un", infrastructure=6, winter=True,
              purchases=[{"item": "repair an Airfield marker"}, {"item": "place a Trenches marker", "count": 1}]).outcome
    assert out["supply_after_purchases"] == 6 - 2 - 4
    with pytest.raises(ValueError, match="Activation Phase"):
        ask("supply_determination", side="un", infrastructure=6,
            purchases=[{"item": "remove an Ammo Out or Fuel Out marker"}])
    with pytest.raises(ValueError, match="left"):
        ask("supply_determination", side="communist", infrastructure=2,
            purchases=[{"item": "place a Trenches marker", "count": 2}])
