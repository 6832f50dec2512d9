"""Korean War Battles combat: the Exclusive Rules' modifiers (7.1, 9.1, 12.3, 12.21) around the CRT in
the game data, the depletion ladder (7.6), support-fire limits (8.1.1, 12.1.1), and property tests."""

import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from adjudicator.rules.kwb import combat, losses, support
from adjudicator.rules.kwb import board as kb
from test_rules_kwb_fixtures import REAL, at, board, rolled, validate

CRT = REAL.tables["crt"]
DEF = [{"unit": "us-5-1m", "hex": "0505"}]  # 7-7-4, defence 7


def request(g=None, **body):
    body.setdefault("scenario", "pusan")
    body.setdefault("attacking_side", "communist")
    body.setdefault("defenders", DEF)
    return validate(combat.CombatRequest, g or board(), **body)


def fight(dice, g=None, **body):
    g = g or board()
    return combat.resolve(g, request(g, **body), rolled(dice))


def state(result, who, unit):
    return next(s for s in result.outcome[who] if s["unit"] == unit)


# -- odds ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("attack, defence, column", [
    (26, 9, "2:1"),    # rounded down in the defender's favour (the worked example of odds rounding)
    (27, 9, "3:1"), (9, 9, "1:1"), (8, 9, "1:2"), (5, 12, "1:3"), (1, 10, "1:3"), (70, 1, "6:1"),
])
def test_odds_column_rounds_down_for_the_defender(attack, defence, column):
    assert combat.odds_columns(CRT)[combat.odds_index(CRT, attack, defence)] == column


def test_true_odds_notation():
    assert combat.true_odds(26, 9) == "2:1" and combat.true_odds(5, 12) == "1:3"


@given(st.integers(1, 80), st.integers(1, 40), st.integers(0, 40))
def test_more_attack_strength_never_lowers_the_odds_column(attack, defence, extra):
    assert combat.odds_index(CRT, attack + extra, defence) >= combat.odds_index(CRT, attack, defence)
    assert combat.odds_index(CRT, attack, defence + extra) <= combat.odds_index(CRT, attack, defence)


@given(st.integers(0, 14), st.booleans(), st.booleans())
def test_doubling_never_lowers_and_supply_loss_never_raises_attack(printed, doubled, in_supply):
    value = combat.attack_strength(printed, doubled, in_supply)
    assert value >= combat.attack_strength(printed, False, in_supply)
    assert value <= combat.attack_strength(printed, doubled, True)
    assert combat.attack_strength(printed, False, False) == math.ceil(printed / 2)
    assert combat.attack_strength(printed, True, False) == printed  # 2A halved is A: no fraction arises


# -- 7.1 intensive attack, zero strength, 9.1 supply -------------------------------------------------


def test_out_of_supply_attack_halved_rounding_up():
    result = fight([2], attackers=[{"unit": "nk-31", "hex": "0504", "in_supply": False}])  # 3 -> 2
    assert result.outcome["attack_strength"] == 2
    assert any("halved, rounding up, to 2" in s.text and "9.1" in s.rule for s in result.steps)


def test_declared_intensive_attack_depletes_the_doubled_units_whatever_the_result():
    result = fight([2, 5], intensive="declared",
                   attackers=[{"unit": "nk-6", "hex": "0504", "doubled": True}, {"unit": "nk-766", "hex": "0604"}])
    assert result.outcome["attack_strength"] == 24 and result.outcome["column"] == "3:1"
    assert result.outcome["result"] == "EX"
    # EX: one attacker step, taken by the first listed (nk-6); then the declared depletion: a second step, which
    # sends the depleted division to the deadpile and brings in a random regiment (die 2, a d12: nk-reg-5).
    assert state(result, "attackers", "nk-6")["step"] == "deadpile"
    assert state(result, "attackers", "nk-6")["replaced_by"] == "nk-reg-5"
    assert state(result, "attackers", "nk-766")["step"] == "full"  # not doubled
    assert [u["unit"] for u in result.outcome["new_units"]] == ["nk-reg-5"]


def test_declared_intensive_attack_with_no_effect_result():
    result = fight([2], intensive="declared", attackers=[{"unit": "nk-6", "hex": "0504", "doubled": True}])
    assert result.outcome["result"] == "NE"
    assert state(result, "attackers", "nk-6")["step"] == "depleted"
    assert state(result, "defenders", "us-5-1m")["step"] == "full"


def test_burning_a_supply_center_instead():
    result = fight([2], intensive="burn", burned_supply_center="nk-sc-1",
                   attackers=[{"unit": "nk-6", "hex": "0504", "doubled": True}],
                   other_units=[{"unit": "nk-sc-1", "hex": "0504"}])
    assert result.outcome["result"] == "NE" and result.outcome["supply_center_burned"] == "nk-sc-1"
    assert state(result, "attackers", "nk-6")["step"] == "full"


@pytest.mark.parametrize("body, message", [
    ({"attackers": [{"unit": "nk-6", "hex": "0504", "doubled": True}]}, "without an intensive attack"),
    ({"intensive": "declared", "attackers": [{"unit": "nk-6", "hex": "0504"}]}, "doubles at least one"),
    ({"intensive": "burn", "burned_supply_center": "nk-sc-1", "attackers": [{"unit": "nk-6", "hex": "0504", "doubled": True}],
      "other_units": [{"unit": "nk-sc-1", "hex": "0604"}]}, "must be stacked"),
    ({"intensive": "declared", "burned_supply_center": "nk-sc-1", "attackers": [{"unit": "nk-6", "hex": "0504", "doubled": True}],
      "other_units": [{"unit": "nk-sc-1", "hex": "0504"}]}, "needs intensive='burn'"),
    ({"attackers": [{"unit": "nk-6", "hex": "0503"}]}, "not adjacent"),
    ({"attackers": [{"unit": "nk-1-hq", "hex": "0504"}]}, "zero-strength units may not attack"),
    ({"attackers": [{"unit": "us-5-1c", "hex": "0504"}]}, "is not a communist unit"),
])
def test_rules_violations_are_validation_errors(body, message):
    with pytest.raises(ValidationError, match=message):
        request(**body)


def test_only_the_communist_player_makes_intensive_attacks():
    with pytest.raises(ValidationError, match="only the Communist player"):
        request(attacking_side="un", intensive="declared", defenders=[{"unit": "nk-6", "hex": "0505"}],
                attackers=[{"unit": "us-5-1m", "hex": "0504", "doubled": True}])


def test_zero_attack_units_are_not_part_of_the_attack_and_not_depleted():
    result = fight([1], attackers=[{"unit": "nk-1-hq", "hex": "0504"}, {"unit": "nk-766", "hex": "0504"}])
    assert result.outcome["attack_strength"] == 4 and result.outcome["result"] == "AD"
    assert [s["unit"] for s in result.outcome["attackers"]] == ["nk-766"]
    assert state(result, "attackers", "nk-766")["step"] == "depleted"
    assert any(s.rule == "7.1 Zero Attack Strength Units" for s in result.steps)


def test_rough_defender_shifts_the_column_left():
    g = board(terrain={"0505": "rough"})
    result = fight([2], g, attackers=[{"unit": "nk-6", "hex": "0504"}, {"unit": "nk-766", "hex": "0604"}])
    assert result.outcome["column_before_shift"] == "2:1" and result.outcome["column"] == "1:2"


def test_warnings_name_the_stand_in_tables():
    result = fight([4], attackers=[{"unit": "nk-6", "hex": "0504"}])
    assert any(w.startswith("Stand-in table crt ") for w in result.warnings)
    assert any(w.startswith("Stand-in table crt_results") for w in result.warnings)


def test_the_crt_is_data_a_maintainer_can_replace():
    g = board()
    rows = tuple({"die": str(d), **{c: "DE" for c in combat.odds_columns(CRT)}} for d in range(1, 7))
    g = replace(g, tables={**g.tables, "crt": replace(CRT, rows=rows)})
    result = fight([1], g, attackers=[{"unit": "nk-766", "hex": "0504"}],
                   defenders=[{"unit": "us-5-1m", "hex": "0505"}, {"unit": "us-mar-tk", "hex": "0505"}])
    assert result.outcome["result"] == "DE"
    assert all(s["step"] == "deadpile" for s in result.outcome["defenders"])


# -- 12.3 Changjin, 12.21 Seoul ------------------------------------------------------------------------


def test_changjin_chinese_coordination_limit():
    g = board("changjin")
    with pytest.raises(ValidationError, match="not divisions: prc-reg-1"):
        request(g, scenario="changjin", attackers=[{"unit": "prc-reg-1", "hex": "0504"}, {"unit": "prc-58", "hex": "0604"}])
    ok = request(g, scenario="changjin", attackers=[{"unit": "prc-58", "hex": "0504"},
                                                     {"unit": "prc-59", "hex": "0604", "step": "depleted"}])
    assert len(ok.attackers) == 2
    assert request(g, scenario="changjin", attackers=[{"unit": "prc-reg-1", "hex": "0504"},
                                                      {"unit": "prc-20-hq", "hex": "0604"}])  # the HQ does not attack


def test_seoul_han_river_attacks():
    g = board("seoul", han=[("0504", "0505")])
    with pytest.raises(ValidationError, match="Communist units may not"):
        request(g, scenario="seoul", attackers=[{"unit": "nk-31", "hex": "0504"}])
    un = {"scenario": "seoul", "attacking_side": "un", "defenders": [{"unit": "nk-31", "hex": "0505"}],
          "attackers": [{"unit": "us-5-1m", "hex": "0504"}]}
    with pytest.raises(ValidationError, match="without a division HQ or the 2SE"):
        request(g, **un)
    result = combat.resolve(g, request(g, **un, other_units=[{"unit": "us-1m-hq", "hex": "0504"}]), rolled([6]))
    assert result.outcome["column_shift"] == 1  # as across an unbridged river (stand-in river shift)


def test_scratch_units_revealed_and_dummies_eliminated():
    """12.21: the '? 4' placeholder is turned face up as the counter the player drew (a calculation);
    a Dummy is eliminated at once, and an attack on nothing else does not take place."""
    un = {"scenario": "seoul", "attacking_side": "un", "attackers": [{"unit": "us-5-1m", "hex": "0504"}]}
    only_dummy = fight([], **un, defenders=[{"unit": "nk-scratch-3", "hex": "0505",
                                              "revealed_as": "nk-scratch-dummy-1"}])
    assert only_dummy.outcome["combat"] is False and only_dummy.outcome["defenders"][0]["step"] == "deadpile"
    assert only_dummy.outcome["revealed"] == [{"unit": "nk-scratch-3", "revealed_as": "nk-scratch-dummy-1"}]
    assert only_dummy.steps[0].text.startswith("nk-scratch-3 (a Scratch Unit, ? 4) is turned face up: it is "
                                               "nk-scratch-dummy-1, 0-0-4")
    real = fight([6], **un, defenders=[{"unit": "nk-scratch-3", "hex": "0505", "revealed_as": "nk-scratch-b-1"}])
    assert real.outcome["defence_strength"] == 2 and real.outcome["defenders"][0]["unit"] == "nk-scratch-b-1"
    assert any("turned face up: it is nk-scratch-b-1, 1-2-4; it stays face up" in s.text for s in real.steps)


def test_a_face_down_scratch_unit_needs_its_counter_and_does_not_attack():
    un = {"scenario": "seoul", "attacking_side": "un", "attackers": [{"unit": "us-5-1m", "hex": "0504"}]}
    g = board("seoul")
    with pytest.raises(ValueError, match=r"nk-scratch-3 is a Scratch Unit still face down .* \(revealed_as\)"):
        fight([6], g, **un, defenders=[{"unit": "nk-scratch-3", "hex": "0505"}])
    with pytest.raises(ValidationError, match="cannot be nk-reg-1: the NK Scratch Units"):
        request(g, **un, defenders=[{"unit": "nk-scratch-3", "hex": "0505", "revealed_as": "nk-reg-1"}])
    with pytest.raises(ValidationError, match=r"revealed_as is for a Scratch Unit still face down \(\? 4\); nk-31 is not one"):
        request(g, **un, defenders=[{"unit": "nk-31", "hex": "0505", "revealed_as": "nk-scratch-a-1"}])
    with pytest.raises(ValidationError, match="nk-scratch-3 is a Scratch Unit still face down .* does not attack"):
        request(g, scenario="seoul", attackers=[{"unit": "nk-scratch-3", "hex": "0504"}],
                defenders=[{"unit": "us-5-1m", "hex": "0505"}])


# -- 7.6 the depletion ladder ----------------------------------------------------------------------


def test_division_ladder_full_depleted_random_regiment_depleted_deadpile():
    g = REAL
    pool = losses.GenericPool.for_game(g, set())
    division = losses.UnitState("nk-6", "full")
    dice = rolled([5])
    assert losses.take_step(g, division, pool, dice, "loss 1")[0] == [] and division.step == "depleted"
    born, text = losses.take_step(g, division, pool, dice, "loss 2")
    assert division.step == "deadpile" and division.replaced_by == "nk-reg-5" and "randomly drawn" in text
    assert [d.sides for d in dice.used] == [12]  # one die over the 12 unnumbered NK regiments
    regiment = born[0]
    assert regiment.unit == "nk-reg-5" and regiment.step == "full"
    losses.take_step(g, regiment, pool, dice, "loss 3")
    assert regiment.step == "depleted"
    losses.take_step(g, regiment, pool, dice, "loss 4")
    assert regiment.step == "deadpile"


def test_us_regiment_and_one_step_units():
    pool = losses.GenericPool.for_game(REAL, set())
    us = losses.UnitState("us-5-1m", "depleted")
    losses.take_step(REAL, us, pool, rolled([]), "x")
    assert us.step == "deadpile" and not us.replaced_by
    hq = losses.UnitState("nk-1-hq", "full")
    losses.take_step(REAL, hq, pool, rolled([]), "x")
    assert hq.step == "deadpile"


def test_empty_pool_sends_the_division_to_the_deadpile_alone():
    pool = losses.GenericPool.for_game(REAL, set(), given=[])
    division = losses.UnitState("rok-1", "depleted")
    born, text = losses.take_step(REAL, division, pool, rolled([]), "x")
    assert born == [] and division.step == "deadpile" and "no unnumbered ROK" in text


# -- 8.1.1 / 12.1.1 support-fire markers -----------------------------------------------------------------


def test_un_supply_shortage_allows_one_marker():
    body = {"attacking_side": "un", "defenders": [{"unit": "nk-6", "hex": "0505"}],
            "attackers": [{"unit": "us-5-1m", "hex": "0504"}], "attacker_support": ["sf-un-1", "sf-un-2"]}
    with pytest.raises(ValidationError, match="at most 1"):
        request(**body, un_supply_shortage=True)
    assert request(**body)  # US units involved, shortage over: one or two normally


def test_communist_second_marker_needs_an_hq_loc():
    body = {"attackers": [{"unit": "nk-6", "hex": "0504"}], "attacker_support": ["sf-com-1", "sf-com-2"]}
    with pytest.raises(ValidationError, match="give the positions or the LOC flag"):
        request(**body)
    with pytest.raises(ValidationError, match="at most 1"):
        request(**body, attacker_hq_loc=False)
    assert request(**body, attacker_hq_loc=True)
    near = [{"unit": "nk-6", "hex": "0504"}, {"unit": "us-5-1m", "hex": "0505"}, {"unit": "nk-1-hq", "hex": "0501"}]
    assert request(**body, positions=near)
    far = near[:2] + [{"unit": "nk-1-hq", "hex": "0108"}]
    with pytest.raises(ValidationError, match="at most 1"):
        request(**body, positions=far)


def test_rok_only_combat_needs_a_loc_to_an_rok_corps_hq():
    g = board()
    gm = g.maps["pusan"]
    rok = [REAL.units["rok-17"]]
    def limit(*positions):
        b = kb.Board.from_positions(g, gm, at(*positions))
        return support.marker_limit(g, "pusan", "un", rok, un_supply_shortage=False, b=b)
    assert limit(("rok-17", "0505"), ("rok-2-hq", "0508")).limit == 2
    assert limit(("rok-17", "0505"), ("rok-2-hq", "0509")).limit == 1          # 4 hexes
    assert limit(("rok-17", "0505"), ("us-1c-hq", "0506")).limit == 1          # not an ROK corps HQ
    zoc = [("rok-17", "0505"), ("rok-2-hq", "0507"), ("nk-6", "0606"), ("nk-3", "0406")]
    blocked = limit(*zoc)
    assert blocked.limit == 1 and "free of enemy units" in blocked.loc.text
    assert limit(*zoc, ("rok-reg-1", "0506")).limit == 2  # a friendly unit screens the ZOC
    mixed = support.marker_limit(g, "pusan", "un", rok + [REAL.units["us-5-1m"]], un_supply_shortage=False)
    assert mixed.limit == 2


def test_mobile_combat_phase():
    with pytest.raises(ValidationError, match="not mobile: nk-6"):
        request(phase="mobile_combat", attackers=[{"unit": "nk-6", "hex": "0504"}, {"unit": "nk-83-mot", "hex": "0604"}])
    assert request(phase="mobile_combat", attackers=[{"unit": "nk-83-mot", "hex": "0604"}])
    g = board("changjin")
    un = {"scenario": "changjin", "attacking_side": "un", "phase": "mobile_combat",
          "attackers": [{"unit": "us-mar-tk", "hex": "0504"}], "defenders": [{"unit": "prc-58", "hex": "0505"}]}
    with pytest.raises(ValidationError, match="no Mobile Combat Phase on game-turn 2"):
        request(g, **un, game_turn=2)
    assert request(g, **un, game_turn=3)


@pytest.mark.slow
@given(st.sampled_from(["nk-6", "nk-766", "nk-31", "nk-reg-1"]), st.booleans(),
       st.sampled_from(["sf-com-1", "sf-com-2", "sf-com-3"]), st.integers(1, 6))
def test_more_support_never_lowers_the_column(attacker, in_supply, marker, die):
    g = board()
    cols = combat.odds_columns(CRT)
    body = {"attackers": [{"unit": attacker, "hex": "0504", "in_supply": in_supply}]}
    without = fight([die, 1, 1], g, **body).outcome["column"]
    with_marker = fight([die, 1, 1], g, **body, attacker_support=[marker]).outcome["column"]
    assert cols.index(with_marker) >= cols.index(without)
    helped = fight([die, 1, 1], g, **body, defender_support=["sf-un-3"]).outcome["column"]
    assert cols.index(helped) <= cols.index(without)
