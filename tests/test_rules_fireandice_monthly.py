"""Korea: Fire and Ice Monthly Phase checks by the book's cases: the Infrastructure and Supply
Determination (7.0) and Air Commitment within the airfields (10.1, 10.2)."""

from __future__ import annotations

import pytest

from adjudicator.checks import get_check, run_check
from adjudicator.ledger.dice import SuppliedDice


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


def commit(*placements, airfields, **situation):
    commitments = [{"unit": u, "mission": m, "airfield_box": b} for u, m, b in placements]
    return ask("air_commitment", airfields=airfields, commitments=commitments, **situation)


UN_FIELDS = [{"box": "south_korea", "improved": 1, "airfields": 2}, {"box": "japan", "improved": 1}]


def test_worked_example_10_1_un_commitment_within_two_improved_airfields():
    """10.1 example: 'only 2 improved airfields - so he can perform a maximum of 4 Strategic Missions'. The 4 F-I and
    27 F-E go to MiG Alley from the improved airfield in South Korea (not long range); 19 Bomb to the Airfield
    Strike and 22 Bomb to the Infrastructure Strike from the improved airfield in Japan ('the B-29 is not listed
    ... as being at long range'); 8 F-B and 136 F-B to Top Cover on an airfield in South Korea; the F-51 to Ground
    Support on the last one."""
    out = commit(("un-air-4fi", "mig_alley", "south_korea"), ("un-air-27fe", "mig_alley", "south_korea"),
                 ("un-air-19bomb", "airfield_strike", "japan"), ("un-air-22bomb-a", "infrastructure_strike", "japan"),
                 ("un-air-8fb", "top_cover", "south_korea"), ("un-air-136fb", "top_cover", "south_korea"),
                 ("un-air-18fb", "ground_support", "south_korea"), airfields=UN_FIELDS).outcome
    assert out["fits"] and not any(p["long_range"] for p in out["placed"])
    assert {p["unit"]: p["rating"] for p in out["placed"]}["un-air-4fi"] == 5
    # "That uses up both improved airfields and the UN player can't place any more aircraft on strategic missions."
    fifth = commit(("un-air-4fi", "mig_alley", "south_korea"), ("un-air-27fe", "mig_alley", "south_korea"),
                   ("un-air-19bomb", "airfield_strike", "japan"), ("un-air-22bomb-a", "infrastructure_strike", "japan"),
                   ("un-air-92bomb", "infrastructure_strike", "japan"), airfields=UN_FIELDS).outcome
    assert not fifth["fits"] and fifth["no_airfield"] == ["un-air-92bomb"]


def test_worked_example_10_2_f86_from_japan_flies_at_long_range():
    """10.2: 'an F-86 flying into the MiG Alley box using an improved airfield in Japan would have a rating of 4
    (not 5)'."""
    out = commit(("un-air-4fi", "mig_alley", "japan"), airfields=UN_FIELDS).outcome
    assert out["placed"][0]["long_range"] and out["placed"][0]["rating"] == 4


def test_chinese_airfields_are_long_range_except_mig_alley_and_soviet_airfields_take_four():
    """10.1: 'Any missions flown from Chinese airfields will also be Long Range missions except for MiG Alley
    missions'; 'This increases to 4 per airfield for the Communist player when the Soviet Union intervenes.'"""
    china = [{"box": "china", "improved": 1}]
    mig = ("com-air-3ad", "mig_alley", "china")
    cover = ("com-air-4ad", "top_cover", "china")
    three = ("com-air-9ad", "top_cover", "china")
    out = commit(mig, cover, three, airfields=china).outcome
    placed = {p["unit"]: p for p in out["placed"]}
    assert not placed["com-air-3ad"]["long_range"] and placed["com-air-4ad"]["long_range"]
    assert out["no_airfield"] == ["com-air-9ad"]
    assert commit(mig, cover, three, airfields=china, soviet_intervened=True).outcome["fits"]


def test_naval_aircraft_fly_from_the_carriers_never_strategic():
    """11.4: naval aircraft 'are always considered to have an associated airfield provided by the carriers (not an
    improved airfield - naval aircraft may never perform strategic missions)'."""
    out = commit(("un-air-cvg2", "ground_support", "carriers"), airfields=[]).outcome
    assert out["fits"] and out["placed"][0]["airfield"] == "carriers"
    assert not commit(("un-air-cvg2", "ground_support", "south_korea"), airfields=UN_FIELDS).outcome["fits"]
    assert not commit(("un-air-8fb", "top_cover", "carriers"), airfields=UN_FIELDS).outcome["fits"]
