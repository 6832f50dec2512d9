"""SPI Korea combat: odds, supply halving, Rough doubling, the defender's table, losses in regiments,
Combat (K), Intervention rule (3), offensive supply - on small test maps with fixed dice."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.rules.spi import combat, losses
from adjudicator.rules.spi.combat import CombatRequest, odds_column
from test_rules_spi_fixtures import REAL, board, rolled, validate

MEETING = REAL.tables["crt_meeting"]


def columns():
    return combat.odds_columns(MEETING)


# -- odds (Combat (G)) ----------------------------------------------------------------------------


def test_worked_example_26_against_9_is_two_to_one():
    assert odds_column(MEETING, 26, 9).column == "2-1"


@pytest.mark.parametrize("attack, defence, column", [
    (9, 26, "1-3"), (10, 10, "1-1"), (19, 10, "1-1"), (20, 10, "2-1"), (5, 10, "1-2"), (4, 10, "1-3"),
    (60, 10, "6-1"), (1, 10, "1-5"),
])
def test_odds_round_in_the_defenders_favour(attack, defence, column):
    assert odds_column(MEETING, attack, defence).column == column


def test_odds_beyond_the_columns_are_clamped_and_said_so():
    assert odds_column(MEETING, 100, 10).clamped == "above"
    assert odds_column(MEETING, 1, 10).clamped == "below"
    with pytest.raises(ValueError, match="attack strength is 0"):
        odds_column(MEETING, 0, 5)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 200), st.integers(1, 200), st.integers(0, 50))
def test_more_attack_strength_never_lowers_the_odds_column(attack, defence, more):
    cols = columns()
    assert cols.index(odds_column(MEETING, attack + more, defence).column) >= \
        cols.index(odds_column(MEETING, attack, defence).column)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 200), st.integers(1, 200), st.integers(0, 50))
def test_more_defence_strength_never_raises_the_odds_column(attack, defence, more):
    cols = columns()
    assert cols.index(odds_column(MEETING, attack, defence + more).column) <= \
        cols.index(odds_column(MEETING, attack, defence).column)


# -- strengths --------------------------------------------------------------------------------------


def fight(g, dice=(1,), **body):
    req = validate(CombatRequest, g, **{"scenario": "stalemate", "table": "meeting", **body})
    return combat.resolve(g, req, rolled(dice))


def test_rough_doubles_the_defence_and_every_result_warns_of_the_stand_in_table():
    g = board(terrain={"0505": "rough_partial"})
    r = fight(g, defender_hex="0505", attackers=[{"unit": "us-d2", "hex": "0504"}],
              defenders=[{"unit": "nk-d1", "in_supply": False}])
    # nk-d1 10 out of supply: halved to 5, then doubled in Rough to 10; us-d2 16 -> 16:10 = 1-1
    assert r.outcome["defence_strength"] == 10 and r.outcome["odds"] == "1-1"
    assert any("Stand-in table crt_meeting" in w for w in r.warnings)


def test_out_of_supply_halves_with_fractions_dropped_before_doubling():
    """Supply (A): 'drop any fractions before multiplying': a 5-3 out of supply in Rough defends at 4, not 5."""
    g = board(terrain={"0505": "rough"})
    r = fight(g, defender_hex="0505", attackers=[{"unit": "nk-d1", "hex": "0504", "in_supply": False}],
              defenders=[{"unit": "us-r5c", "in_supply": False}])
    assert r.outcome["attack_strength"] == 5 and r.outcome["defence_strength"] == 4


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["us-d2", "us-r5c", "rok-d1", "rok-r1", "uk-b27", "us-mar1div", "tr-bde"]),
       st.booleans(), st.booleans())
def test_halving_and_doubling_commute_as_the_rules_say(defender, rough, supplied):
    """Halve first, drop the fraction, then double (Supply (A)); doubling never undoes a lost fraction."""
    g = board(terrain={"0505": "rough"} if rough else None)
    r = fight(g, defender_hex="0505", attackers=[{"unit": "nk-d1", "hex": "0504", "supply_unit": "comm-supply-1"}],
              defenders=[{"unit": defender, "in_supply": supplied}])
    printed = REAL.units[defender].full.values["combat"]
    halved = printed if supplied else printed // 2
    assert r.outcome["defence_strength"] == halved * (2 if rough else 1)


def test_naval_guns_add_six_within_two_hexes():
    g = board()
    r = fight(g, defender_hex="0505", attackers=[{"unit": "us-d2", "hex": "0504"}],
              defenders=[{"unit": "nk-d1", "in_supply": True}], naval_guns=[{"unit": "un-ng-1", "hex": "0507"}])
    assert r.outcome["attack_strength"] == 22
    with pytest.raises(ValueError, match="more than 2 hexes"):
        fight(g, defender_hex="0505", attackers=[{"unit": "us-d2", "hex": "0504"}],
              defenders=[{"unit": "nk-d1"}], naval_guns=[{"unit": "un-ng-1", "hex": "0508"}])


# -- the defender's table (Combat (J)) -------------------------------------------------------------


def test_position_defense_only_where_eligible():
    g = board()
    with pytest.raises(ValueError, match="Position Defense table is not available"):
        fight(g, table="position", defender_hex="0505", attackers=[{"unit": "us-d2", "hex": "0504"}],
              defenders=[{"unit": "nk-d1"}])
    town = board(features=[("0505", "city", "Taejon")])
    assert fight(town, table="position", defender_hex="0505", attackers=[{"unit": "us-d2", "hex": "0504"}],
                 defenders=[{"unit": "nk-d1"}]).outcome["table"] == "position"


def test_position_defense_by_entrenchment_needs_supply():
    g = board()
    ok = fight(g, table="position", defender_hex="0505", attackers=[{"unit": "us-d2", "hex": "0504"}],
               defenders=[{"unit": "nk-d1", "entrenched": True}])
    assert ok.outcome["position_defense_available"]
    with pytest.raises(ValueError, match="entrenched and in supply"):
        fight(g, table="position", defender_hex="0505", attackers=[{"unit": "us-d2", "hex": "0504"}],
              defenders=[{"unit": "nk-d1", "entrenched": True, "in_supply": False}])


def test_position_defense_on_a_river_hex_attacked_from_off_the_river():
    # 0505 has two river sides (a river hex); 0504 is not a river hex, 0506 is one (same river).
    rivers = [("0505", "0405"), ("0505", "0605"), ("0506", "0406"), ("0506", "0606")]
    g = board(rivers=rivers, river_name="Han")
    assert fight(g, table="position", defender_hex="0505", attackers=[{"unit": "us-d2", "hex": "0504"}],
                 defenders=[{"unit": "nk-d1"}]).outcome["position_defense_available"]
    with pytest.raises(ValueError, match="river hex of the same river"):
        fight(g, table="position", defender_hex="0505", attackers=[{"unit": "us-d2", "hex": "0506"}],
              defenders=[{"unit": "nk-d1"}])


def test_pursuit_always_retreats_at_least_one_hex():
    g = board()
    for die in range(1, 7):
        r = fight(g, dice=[die], table="pursuit", defender_hex="0505", attackers=[{"unit": "us-r5c", "hex": "0504"}],
                  defenders=[{"unit": "nk-d1"}])
        if r.outcome["result"] != "Dx" and (r.outcome["defender_losses"] is None
                                            or r.outcome["defender_losses"]["remaining"]):
            assert r.outcome["defender_retreat_hexes"] >= 1


def test_meeting_engagement_never_retreats():
    g = board()
    for die in range(1, 7):
        r = fight(g, dice=[die], defender_hex="0505", attackers=[{"unit": "us-d2", "hex": "0504"}],
                  defenders=[{"unit": "nk-d1"}])
        assert r.outcome["defender_retreat_hexes"] == 0


def test_the_table_is_data_a_replaced_csv_changes_the_ruling():
    g = board()
    rows = tuple({**row, **{c: "Dx" for c in row if c != "die"}} for row in MEETING.rows)
    g = replace(g, tables={**g.tables, "crt_meeting": replace(MEETING, rows=rows)})
    r = fight(g, defender_hex="0505", attackers=[{"unit": "us-r5c", "hex": "0504"}], defenders=[{"unit": "nk-d1"}])
    assert r.outcome["result"] == "Dx" and r.outcome["defender_losses"]["eliminated"] == ["nk-d1"]


# -- losses (Combat (J), (K); breakdown) -------------------------------------------------------------


def test_breakdown_equivalents_give_the_regiments():
    assert losses.regiments(REAL, "16-3") == 3 and losses.regiments(REAL, "10-3") == 3
    assert losses.regiments(REAL, "5-3") == 1 and losses.regiments(REAL, "25-2") == 9


def test_a_16_3_losing_one_regiment_leaves_two_5_3s():
    """Stacking & Unit Breakdown: "remove the unit(s) to be replaced, and place the unit(s) which replace it
    on the same hex": the 2nd Division's own regiments (units.csv parent), then the unnumbered US ones."""
    rep = losses.take_losses(REAL, ["us-d2"], 1, doubled=False)
    assert [b.to_json() for b in rep.breakdowns] == [{"unit": "us-d2", "broken_down_into": ["us-r9", "us-r23", "us-r38"]}]
    assert rep.eliminated == ["us-r9"] and rep.remaining == ["us-r23", "us-r38"]
    spares = losses.Spares(REAL, ["us-r23", "us-r-1", "us-r-2", "rok-r-1"])  # what the box holds
    rep = losses.take_losses(REAL, ["us-d2"], 1, doubled=False, spares=spares)
    assert rep.breakdowns[0].parts == ["us-r23", "us-r-1", "us-r-2"] and spares.left == ["rok-r-1"]
    short = losses.take_losses(REAL, ["us-d2"], 1, doubled=False, spares=losses.Spares(REAL, ["us-r-3"]))
    assert short.breakdowns[0].parts == ["us-r-3", "us-d2/5-3", "us-d2/5-3"] and short.missing_counters == ["us-d2/5-3"] * 2


def test_a_25_2_loses_a_division_and_leaves_two_10_4s():
    rep = losses.take_losses(REAL, ["cpv-a38"], 1, doubled=True)
    assert rep.divisions_from_armies == 1 and rep.regiments_lost == 0
    assert rep.eliminated == ["cpv-d112"] and rep.remaining == ["cpv-d113", "cpv-d114"]


def test_combat_k_worked_example_army_and_two_regiments_take_an_e2():
    """Combat (K): 'if one Army (25-2) and two regiments were making the attack, one loss would be doubled
    (eliminating the two regiments) and the other would be an undoubled loss of one division extracted
    from the Army.'"""
    rep = losses.take_losses(REAL, ["cpv-a38", "cpv-r-1", "cpv-r-2"], 2, doubled=True)
    assert sorted(rep.eliminated) == ["cpv-d112", "cpv-r-1", "cpv-r-2"]
    assert rep.regiments_lost == 2 and rep.divisions_from_armies == 1


def e2_everywhere(g):
    rows = tuple({**row, **{c: "E2" for c in row if c != "die"}} for row in MEETING.rows)
    return replace(g, tables={**g.tables, "crt_meeting": replace(MEETING, rows=rows)})


def test_communist_losses_doubled_against_non_korean_un_units():
    g = e2_everywhere(board())
    r = fight(g, scenario="stalemate", defender_hex="0505",
              attackers=[{"unit": "nk-r-1", "hex": "0504", "supply_unit": "comm-supply-1"},
                         {"unit": "nk-r-2", "hex": "0506", "supply_unit": "comm-supply-1"},
                         {"unit": "nk-r-3", "hex": "0604", "supply_unit": "comm-supply-1"},
                         {"unit": "nk-r-4", "hex": "0605", "supply_unit": "comm-supply-1"}],
              defenders=[{"unit": "us-d2"}])
    assert r.outcome["communist_losses_doubled"] is True
    assert r.outcome["attacker_losses"]["regiments_lost"] == 4 and r.outcome["defender_losses"]["regiments_lost"] == 2
    assert r.outcome["supply_units_removed_after_combat_phase"] == ["comm-supply-1"]


def test_no_doubling_against_south_koreans_alone():
    g = e2_everywhere(board())
    r = fight(g, defender_hex="0505", attackers=[{"unit": "nk-d1", "hex": "0504", "supply_unit": "comm-supply-1"}],
              defenders=[{"unit": "rok-d1"}])
    assert r.outcome["communist_losses_doubled"] is False
    assert r.outcome["attacker_losses"]["regiments_lost"] == 2


def test_intervention_first_three_turns():
    """Intervention (1): in supply; (3a) Communist attack doubled; (3b) no loss doubling; (3c) no Rough doubling."""
    g = e2_everywhere(board(terrain={"0505": "rough"}))
    r = fight(g, scenario="intervention", game_turn=2, defender_hex="0505",
              attackers=[{"unit": "cpv-d112", "hex": "0504"}], defenders=[{"unit": "us-d2"}])
    assert r.outcome["attack_strength"] == 20 and r.outcome["defence_strength"] == 16
    assert r.outcome["communist_losses_doubled"] is False and r.outcome["attacker_losses"]["regiments_lost"] == 2
    assert r.outcome["supply_units_removed_after_combat_phase"] == []
    later = fight(g, scenario="intervention", game_turn=4, defender_hex="0505",
                  attackers=[{"unit": "cpv-d112", "hex": "0504", "supply_unit": "comm-supply-1"}],
                  defenders=[{"unit": "us-d2"}])
    assert later.outcome["attack_strength"] == 10 and later.outcome["defence_strength"] == 32
    assert later.outcome["attacker_losses"]["regiments_lost"] == 3  # doubled: 4 asked, the 10-4 has 3


def test_communist_attacker_in_supply_must_name_its_supply_unit():
    with pytest.raises(ValueError, match="name the supply unit"):
        fight(board(), defender_hex="0505", attackers=[{"unit": "nk-d1", "hex": "0504"}], defenders=[{"unit": "us-d2"}])


@pytest.mark.parametrize("body, message", [
    ({"attackers": [{"unit": "us-d2", "hex": "0502"}]}, "not adjacent"),
    ({"attackers": [{"unit": "rok-d1", "hex": "0504"}]}, "one side"),
    ({"attackers": [{"unit": "un-supply-1", "hex": "0504"}]}, "no Combat Strength"),
    ({"amphibious_assault": True, "table": "position"}, "not a port"),
])
def test_impossible_combats_are_refused(body, message):
    base = {"defender_hex": "0505", "attackers": [{"unit": "us-d2", "hex": "0504"}], "defenders": [{"unit": "rok-d1"}]}
    base["defenders"] = [{"unit": "nk-d1"}]
    if "rok-d1" in str(body):
        base["defenders"] = [{"unit": "us-r5c"}]
    with pytest.raises(ValueError, match=message):
        fight(board(), **{**base, **body})


def test_bridge_blown_when_the_defender_is_eliminated():
    rivers = [("0505", "0405"), ("0505", "0605")]
    g = board(rivers=rivers, roads=[("0504", "0505", "0506")])
    rows = tuple({**row, **{c: "Dx" for c in row if c != "die"}} for row in MEETING.rows)
    g = replace(g, tables={**g.tables, "crt_meeting": replace(MEETING, rows=rows)})
    r = fight(g, defender_hex="0505", attackers=[{"unit": "us-d2", "hex": "0504"}],
              defenders=[{"unit": "nk-d1", "entrenched": True}])
    assert r.outcome["bridge_blown"] and r.outcome["entrenched_counters_removed"] == ["nk-d1"]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["nk-d1", "nk-r-1", "cpv-a38", "cpv-d112"]), st.booleans(), st.integers(0, 2))
def test_more_naval_gun_support_never_lowers_the_un_odds(defender, rough, guns):
    """Naval Units (F): each Naval Gun adds six; more support never lowers the UN attack's column."""
    g = board(terrain={"0505": "rough"} if rough else None)
    ng = [{"unit": f"un-ng-{i + 1}", "hex": "0507"} for i in range(guns)]
    base = fight(g, defender_hex="0505", attackers=[{"unit": "us-r5c", "hex": "0504"}], defenders=[{"unit": defender}],
                 naval_guns=ng)
    more = fight(g, defender_hex="0505", attackers=[{"unit": "us-r5c", "hex": "0504"}], defenders=[{"unit": defender}],
                 naval_guns=ng + [{"unit": f"un-ng-{guns + 1}", "hex": "0506"}])
    cols = columns()
    assert cols.index(more.outcome["odds"]) >= cols.index(base.outcome["odds"])


def test_inchon_only_on_invasion_turns_13_14_17():
    g = board(features=[("0505", "port", "Inchon")])
    body = dict(scenario="invasion", table="position", amphibious_assault=True, defender_hex="0505",
                attackers=[{"unit": "us-mar1", "hex": "0606"}], defenders=[{"unit": "nk-r-1"}])
    assert fight(g, game_turn=13, **body).outcome["table"] == "position"
    with pytest.raises(ValueError, match="13, 14, 17"):
        fight(g, game_turn=12, **body)


def test_the_defenders_choice_of_losses_is_offered_to_the_defender_alone_until_made():
    """issue 51: after a combat VASSAL offered "Combat losses" to both sides. Combat (J): the defending units lose
    the regiments and their owner chooses which, so a recorded game offers the choice (its `waiting_checks`, which
    the extension's menus read) to the side whose units the combat owes it, to nobody before nor once it is made."""
    from adjudicator.rules.spi.chosen_losses import losses_to_the_defender

    combat = {"check": "spi.combat", "request": {},
              "result": {"outcome": {"defender_losses_to_choose": {"regiments": 2, "units": ["us-d2", "us-d3"]}}}}
    made = {"check": "spi.combat_losses", "request": {"combat_record": 1}, "result": {"outcome": {}}}
    offered = {side: losses_to_the_defender("campaign", [(1, combat)], side) for side in ("un", "communist", None)}
    assert offered["un"] is None and offered["communist"] == ("no combat waits for the Communist's units' losses to "
                                                             "be chosen (Combat (J): the defender takes them)")
    assert offered[None] is None  # the observer's list: a choice is owed
    for side in ("un", "communist", None):
        assert losses_to_the_defender("campaign", [], side) is not None, side
        assert losses_to_the_defender("campaign", [(1, combat), (2, made)], side) is not None, side
