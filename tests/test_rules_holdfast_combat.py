"""HoldFast Korea combat (9.2) and naval assault (9.1): the book's worked examples with fixed dice,
the support rules, hit allocation, block swaps, and property tests."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from adjudicator.rules.holdfast import combat, data, naval
from adjudicator.rules.holdfast.combat import CombatRequest, allocate_hits, run_combat
from adjudicator.rules.holdfast.naval import NavalAssaultRequest, NavalTransferRequest, run_naval_assault
from test_rules_holdfast_fixtures import REAL, board, parallel_between_rows, rolled, validate

# A coastal board: Inch'on is a Communist-held port city at 0505 next to open water at 0605; Seoul 0504.
COAST = board(terrain={"0505": "city", "0504": "city", "0605": "sea", "0604": "sea", "0506": "mountain"},
              features=[("0505", "port", "Inch'on", ""), ("0505", "city", "Inch'on", ""),
                        ("0509", "port", "Pusan", "un"), ("0504", "city", "Seoul", "")],
              rivers=[("0404", "0505")], parallel=parallel_between_rows(3))


def fight(g=REAL, dice=(), **body):
    body.setdefault("turn", 6)
    body.setdefault("weather", "clear")
    req = validate(CombatRequest, g, **body)
    d = rolled(dice)
    result = run_combat(g, req, d)
    d.finish()
    return result


# -- worked examples -------------------------------------------------------------------------


def test_naval_assault_example_eleven_dice_against_four():
    """Amphibious Assault example (1 September 1950 = turn 6): Marines + air, armor, naval = 11 dice; the NKPA
    2-SP unit in Inch'on port city rolls 3 + 1 (city) = 4. Round 1: Communist 6,6,5,1 (two hits on the Marines,
    6 -> 4 SP); UN 5,4,4,4,3,3,2,1,1,1,1 (one hit, NKPA 2 -> 1). Round 2: UN hits, Communist rolls no 6: the NKPA
    unit is eliminated and the Marines occupy Inch'on. 3 RP once."""
    round1 = [5, 4, 4, 4, 3, 3, 2, 1, 1, 1, 1] + [6, 6, 5, 1]
    round2 = [5, 4, 4, 4, 3, 3, 2, 1, 1, 1, 1] + [5, 4, 3, 1]
    req = validate(NavalAssaultRequest, COAST, turn=6, weather="clear", attacker={"unit": "usmc-1", "sp": 6},
                   from_port="fec", target_port="0505", defender={"unit": "nkpa-1", "sp": 2},
                   attacker_support=["air", "armor", "naval"], communist_controlled_ports=["0505"])
    d = rolled(round1 + round2)
    result = run_naval_assault(COAST, req, d)
    d.finish()
    out = result.outcome
    assert out["rp_cost"] == 3
    r1, r2 = out["rounds"]
    assert (r1["attacker_dice"], r1["defender_dice"]) == (11, 4)
    assert (r2["attacker_dice"], r2["defender_dice"]) == (11, 4)  # support is used again in round 2
    assert r1["attacker"]["sp"] == 4 and r1["attacker"]["hits"] == 2
    assert r1["defender"]["sp"] == 1 and r1["defender"]["hits"] == 1
    assert r2["defender"]["eliminated"] and r2["attacker"]["sp"] == 4
    assert out["occupies_port"] and not out["broke_off"]
    assert out["support_left"]["un"] == {"air": 0, "armor": 0, "naval": 0}  # 2 per turn each, one per round
    assert all(s.rule for s in result.steps)
    # "Inch'on is now a UN controlled port so for 2 RP he now does a Naval Transfer ... He still has 11 RP left":
    transfer = naval.transfer_ruling(COAST, validate(NavalTransferRequest, COAST, unit="un-7", from_port="fec",
                                                     to_port="0505", un_controlled_ports=["0505"]))
    assert transfer.outcome["rp_cost"] == 2
    assert 16 - out["rp_cost"] - transfer.outcome["rp_cost"] == 11


def test_naval_transfer_to_pusan_costs_one_rp_and_only_one_per_turn():
    ok = naval.transfer_ruling(COAST, validate(NavalTransferRequest, COAST, unit="un-24", from_port="fec",
                                               to_port="0509"))
    assert ok.outcome["rp_cost"] == 1 and ok.outcome["to_pusan"]
    with pytest.raises(ValidationError, match="1 unit per turn"):
        validate(NavalTransferRequest, COAST, unit="un-24", from_port="fec", to_port="0509", naval_transfers_this_turn=1)
    with pytest.raises(ValidationError, match="not UN-controlled"):
        validate(NavalTransferRequest, COAST, unit="un-24", from_port="fec", to_port="0509",
                 communist_controlled_ports=["0509"])


def test_naval_assault_break_off_costs_one_more_sp():
    req = validate(NavalAssaultRequest, COAST, turn=6, weather="overcast", attacker={"unit": "un-7", "sp": 4},
                   from_port="fec", target_port="0505", defender={"unit": "nkpa-1", "sp": 3}, max_rounds=1,
                   communist_controlled_ports=["0505"])
    d = rolled([1, 1, 1, 1] + [5, 2, 2, 2])  # 4 UN dice, 3 + 1 city Communist dice
    out = run_naval_assault(COAST, req, d).outcome
    assert out["broke_off"] and not out["occupies_port"]
    assert out["attacker"] == {"block": "un-7", "sp": 2, "eliminated": False}  # 1 hit + 1 for breaking off


@pytest.mark.parametrize("change, message", [
    (dict(naval_assaults_this_turn=1), "1 unit per turn"), (dict(moved_this_turn=True), "may not move"),
    (dict(communist_controlled_ports=[]), "UN-controlled"), (dict(target_port="0504"), "not a port"),
    (dict(attacker={"unit": "nkpa-2", "sp": 3}), "only a UN unit"),
])
def test_naval_assault_refused(change, message):
    body = dict(turn=6, weather="clear", attacker={"unit": "un-7", "sp": 4}, from_port="fec", target_port="0505",
                communist_controlled_ports=["0505"])
    with pytest.raises(ValidationError, match=message):
        validate(NavalAssaultRequest, COAST, **{**body, **change})


def test_naval_assault_on_an_empty_port_just_occupies_it():
    req = validate(NavalAssaultRequest, COAST, turn=6, weather="clear", attacker={"unit": "un-7", "sp": 4},
                   from_port="fec", target_port="0505", communist_controlled_ports=["0505"])
    d = rolled([])
    out = run_naval_assault(COAST, req, d).outcome
    assert out["occupies_port"] and out["rounds"] == [] and out["rp_cost"] == 3


def test_combat_chart_example_cpa_against_marines():
    """9.2 example: CPA 8 SP attacks the Marines (6 SP) in clear terrain: 3 dice against 5; the CPA hits the
    Marines on 6s only, the Marines hit the CPA on 5 or 6."""
    r = fight(dice=[6, 5, 5] + [5, 6, 1, 2, 3], turn=14, attackers=[{"unit": "cpa-50", "sp": 8, "across_river": False}],
              defender={"unit": "usmc-1", "sp": 6}, defender_terrain="clear")
    o = r.outcome
    assert (o["attacker_dice"], o["defender_dice"]) == (3, 5)
    assert o["hits_scored_on_defender"] == o["hits_absorbed_by_defender"] == 1 and o["defender"]["sp"] == 5  # the 6
    # "Any 6's rolled during combat by the Communist player when the Marine block is attacking or defending is
    # automatically applied to the Marine block": the steps say so when the Marines defend, too
    assert o["marine_sixes"] == 1
    assert any("1 Communist 6(s) applied automatically to the Marine block" in s.text for s in r.steps)
    assert o["hits_scored_on_attackers"] == o["hits_absorbed_by_attackers"] == 2  # the 5 and the 6
    assert o["attackers"][0]["sp"] == 6
    assert o["rp_cost"] == 1


def test_support_example_armor_against_air_and_naval():
    """4 example: Communist attack with armor on a UN unit in a clear coastal hex, clear weather; the UN defends
    with air and naval support (+4). Each UN 6 also costs the Communist 1 armor support."""
    r = fight(dice=[1] * 5 + [6, 6, 1, 1, 1, 1, 1, 1], turn=6,
              attackers=[{"unit": "nkpa-2", "sp": 3, "across_river": False}], defender={"unit": "un-24", "sp": 4},
              defender_terrain="clear", coastal=True, attacker_support=["armor"], defender_support=["air", "naval"])
    o = r.outcome
    assert (o["attacker_dice"], o["defender_dice"]) == (3 + 2, 4 + 4)
    assert o["communist_armor_level"] == 0
    assert o["attackers"][0]["hits"] == 2 and o["attackers"][0]["sp"] == 1

def test_city_defender_attacked_across_a_river():
    """2 example: defender in a city attacked by units all across a river: +1 die for the defender, -1 die for
    each attacking unit."""
    g = board(terrain={"0505": "city"}, rivers=[("0504", "0505"), ("0506", "0505")])
    r = fight(g, dice=[1] * 4 + [1] * 3, turn=2,
              attackers=[{"unit": "nkpa-1", "sp": 3, "hex": "0504"}, {"unit": "nkpa-2", "sp": 3, "hex": "0506"}],
              defender={"unit": "rok-1", "sp": 2, "hex": "0505"})
    assert (r.outcome["attacker_dice"], r.outcome["defender_dice"]) == (3 - 1 + 3 - 1, 2 + 1)
    assert any("test board" in w for w in r.warnings) is False  # the test board is not a stand-in


# -- hits, allocation, blocks ----------------------------------------------------------------------


def test_communist_sixes_go_to_the_marines_and_fives_cannot():
    r = fight(dice=[1, 1, 1, 1, 1, 1, 1, 1, 1] + [6, 5, 5], turn=14,
              attackers=[{"unit": "usmc-1", "sp": 6, "across_river": False},
                         {"unit": "un-2", "sp": 4, "across_river": False}],
              defender={"unit": "cpa-50", "sp": 8}, defender_terrain="clear",
              attacker_hit_order=["usmc-1", "usmc-1", "usmc-1"])
    by = {a["unit"]: a for a in r.outcome["attackers"]}
    assert by["usmc-1"]["hits"] == 1 and by["un-2"]["hits"] == 2
    assert r.outcome["marine_sixes"] == 1


def test_owner_hit_order_is_followed_then_listed_order():
    r = fight(dice=[1] * 6 + [5, 5, 6, 6], turn=14,
              attackers=[{"unit": "un-2", "sp": 4, "across_river": False},
                         {"unit": "rok-1", "sp": 2, "across_river": False}],
              defender={"unit": "cpa-50", "sp": 8}, defender_terrain="city",  # 3 + 1 dice
              attacker_hit_order=["rok-1", "rok-1", "rok-1"])
    by = {a["unit"]: a for a in r.outcome["attackers"]}
    assert by["rok-1"]["eliminated"] and by["rok-1"]["hits"] == 2  # third entry skipped: already eliminated
    assert by["un-2"]["hits"] == 2 and by["un-2"]["sp"] == 2


def test_chinese_block_swaps_below_five_and_marines_below_three():
    after = data.lose_sp(REAL, "campaign", "cpa-50", 6, 2)
    assert (after.block, after.sp, after.swapped) == ("cpa-50-r", 4, True)
    after = data.lose_sp(REAL, "campaign", "usmc-1", 3, 1)
    assert (after.block, after.sp, after.swapped) == ("usmc-1-r", 2, True)
    gone = data.lose_sp(REAL, "campaign", "usmc-1-r", 1, 1)
    assert gone.eliminated and gone.destination == "removed"  # 8: eliminated Marines never return
    pile = data.lose_sp(REAL, "campaign", "cpa-50-r", 2, 5)
    assert pile.eliminated and pile.destination == "replacement-communist"


def test_block_must_show_an_edge_it_has():
    with pytest.raises(ValidationError, match="cpa-50-r"):
        fight(dice=[], turn=14, attackers=[{"unit": "cpa-50", "sp": 3, "across_river": False}],
              defender={"unit": "un-2", "sp": 4}, defender_terrain="clear")


# -- support availability (422s) --------------------------------------------------------------------

BASE = dict(attackers=[{"unit": "nkpa-1", "sp": 3, "across_river": False}], defender={"unit": "un-2", "sp": 4},
            defender_terrain="clear", coastal=False)


@pytest.mark.parametrize("change, message", [
    (dict(weather="overcast", defender_support=["air"]), "clear weather"),
    (dict(turn=3, defender_support=["armor"]), "turn 4"),
    (dict(defender_terrain="mountain", attacker_support=["armor"]), "mountain"),
    (dict(defender_support=["naval"]), "coastal"),
    (dict(turn=2, attacker_support=["air"]), "turn 1"),
    (dict(attacker_support=["naval"]), "no naval support"),
    (dict(attacker_support=["armor"], communist_armor_level=0), "reduced to 0"),
    (dict(defender_support=["air"], defender_support_left={"air": 0}), "left this turn"),
    (dict(attacker_support=["armor", "armor"]), "one support of each type"),
    (dict(already_attacked=["nkpa-1"]), "one attack a turn"),
])
def test_support_availability_is_validated(change, message):
    body = {**BASE, "turn": 6, "weather": "clear", **change}
    with pytest.raises(ValidationError, match=message):
        validate(CombatRequest, REAL, **body)


def test_communist_armor_cannot_defend():
    with pytest.raises(ValidationError, match="defence"):
        validate(CombatRequest, REAL, turn=6, weather="clear", attackers=[{"unit": "un-2", "sp": 4, "across_river": False}],
                 defender={"unit": "nkpa-1", "sp": 3}, defender_terrain="clear", defender_support=["armor"])


def test_un_armor_may_defend_in_mountains():
    """4: "Armor support may not be used in **attacks** in mountain terrain."  The terrain chart (2) says only
    "No armor support allowed"; the engine reads it as rule 4's short form - attack only - and says so."""
    r = fight(dice=[1, 1, 1] + [1] * 6, attackers=[{"unit": "nkpa-1", "sp": 3, "across_river": False}],
              defender={"unit": "un-2", "sp": 4}, defender_terrain="mountain", defender_support=["armor"])
    assert r.outcome["defender_dice"] == 6
    reading = next(s for s in r.steps if s.text.startswith("Reading: armor supports the defence"))
    assert "Armor support may not be used in attacks in mountain terrain." in reading.text
    assert "No armor support allowed" in reading.text and reading.rule.startswith("4 Armor Support")
    clear = fight(dice=[1, 1, 1] + [1] * 6, attackers=[{"unit": "nkpa-1", "sp": 3, "across_river": False}],
                  defender={"unit": "un-2", "sp": 4}, defender_terrain="clear", defender_support=["armor"])
    assert not any(s.text.startswith("Reading: armor") for s in clear.steps)
    with pytest.raises(ValidationError, match="may not be used in attacks in mountain terrain"):
        fight(dice=[], attackers=[{"unit": "un-2", "sp": 4, "across_river": False}], defender={"unit": "nkpa-1", "sp": 3},
              defender_terrain="mountain", attacker_support=["armor"])


def test_hits_scored_and_hits_absorbed_are_both_reported():
    """9.2: "A hit is scored on an opposing unit for each number that is rolled that corresponds to an opposing
    units hit number" and "When a unit is reduced below 1 SP it is removed from the board".  Three 5s against a
    2-SP NKPA block score 3 hits - what the players count - and the block absorbs 2 before it is eliminated."""
    r = fight(dice=[5, 5, 5, 1] + [1, 1, 1], attackers=[{"unit": "un-2", "sp": 4, "across_river": False}],
              defender={"unit": "nkpa-1", "sp": 2}, defender_terrain="clear")
    o = r.outcome
    assert o["hits_scored_on_defender"] == 3 and o["hits_absorbed_by_defender"] == 2
    assert o["defender"]["eliminated"] is True
    assert o["hits_scored_on_attackers"] == o["hits_absorbed_by_attackers"] == 0
    assert any("3 hit(s) on nkpa-1" in s.text and "it absorbs 2, 1 more than it can" in s.text for s in r.steps)


def test_attackers_must_be_adjacent_and_not_across_red_lines():
    g = board(red_lines=[("0504", "0505")])
    with pytest.raises(ValidationError, match="adjacent"):
        fight(g, attackers=[{"unit": "nkpa-1", "sp": 3, "hex": "0503"}], defender={"unit": "rok-1", "sp": 2, "hex": "0505"})
    with pytest.raises(ValidationError, match="red hex line"):
        fight(g, attackers=[{"unit": "nkpa-1", "sp": 3, "hex": "0504"}], defender={"unit": "rok-1", "sp": 2, "hex": "0505"})


# -- properties --------------------------------------------------------------------------------------

SUPPORT_SETS = st.sets(st.sampled_from(["air", "armor", "naval"]))


@settings(max_examples=60, deadline=None)
@given(extra=SUPPORT_SETS, base=SUPPORT_SETS, rolls=st.lists(st.integers(1, 6), min_size=12, max_size=12))
def test_more_support_never_lowers_the_roll(extra, base, rolls):
    """UN defending on a clear coastal hex, turn 6: adding support types never lowers the dice or the hits
    scored with the same dice (the extra dice come after)."""
    def hits(kinds):
        req = validate(CombatRequest, REAL, turn=6, weather="clear", coastal=True, defender_terrain="clear",
                       attackers=[{"unit": "nkpa-1", "sp": 3, "across_river": False}], defender={"unit": "un-2", "sp": 4},
                       defender_support=sorted(kinds))
        s = combat.situation_for(req, REAL)
        pools = combat.dice_pools(REAL, s)
        mine = rolls[:pools.defender]
        return pools.defender, allocate_hits(mine, s.attackers, "un").scoring_dice
    small, large = hits(base), hits(base | extra)
    assert large[0] >= small[0] and large[1] >= small[1]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 5), river=st.lists(st.booleans(), min_size=6, max_size=6))
def test_more_attackers_never_lower_the_attack(n, river):
    units = ["nkpa-1", "nkpa-2", "nkpa-3", "nkpa-4", "nkpa-5", "nkpa-6"]

    def pool(k):
        req = validate(CombatRequest, REAL, turn=6, weather="clear", defender_terrain="clear",
                       attackers=[{"unit": u, "sp": 3, "across_river": river[i]} for i, u in enumerate(units[:k])],
                       defender={"unit": "un-2", "sp": 4})
        return combat.dice_pools(REAL, combat.situation_for(req, REAL)).attacker
    assert pool(n + 1) >= pool(n)


@settings(max_examples=100, deadline=None)
@given(rolls=st.lists(st.integers(1, 6), max_size=15), sps=st.tuples(st.integers(1, 6), st.integers(1, 4)),
       order=st.lists(st.sampled_from(["usmc-1", "un-2"]), max_size=6))
def test_hit_allocation_invariants(rolls, sps, order):
    marines = combat.Fighter("usmc-1", "un", sps[0], 5, 6, True)
    infantry = combat.Fighter("un-2", "un", sps[1], 4, 5, False)
    result = allocate_hits(rolls, [marines, infantry], "communist", order)
    sixes = rolls.count(6)
    assert result.hits["usmc-1"] <= min(sixes, sps[0])  # a 5 never hits the Marines
    assert result.hits["usmc-1"] == min(sixes, sps[0])  # every 6 goes to the Marines while they stand
    assert result.hits["un-2"] <= sps[1]
    assert sum(result.hits.values()) + result.lost_hits == sum(1 for r in rolls if r >= 5)
