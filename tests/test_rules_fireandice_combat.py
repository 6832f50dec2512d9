"""Korea: Fire and Ice combat (5.0-5.7, 8.0) against the rulebook's worked examples and rules.

The book's examples are reproduced with their dice fixed.  Where the book's own arithmetic
contradicts its rules, the rules as written are asserted and the printed figure is noted.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.checks import get_check, run_check
from adjudicator.ledger.dice import SuppliedDice
from adjudicator.rules.fireandice import board, data, support
from scenarios import load_game
from scenarios.model import Table


LEVELS = ("tank_level", "artillery_level", "air_level", "bombardment_level")


def on_the_track(situation: dict) -> dict:
    """A situation written side by side (each side's levels and its declaring/defending unit) as the
    request takes it: the levels by the side whose markers they are on the Support Level Track, the
    declaring unit first among `attackers`, the defending unit among `defenders`."""
    situation = dict(situation)
    attacker = situation["attacker"]
    defender = "communist" if attacker == "un" else "un"
    for role, side, units in (("attacking", attacker, "attackers"), ("defending", defender, "defenders")):
        own = dict(situation.get(role) or {})
        for level in LEVELS:
            if level in own:
                situation[f"{side}_{level}"] = own.pop(level)
        if "lead_unit" in own:
            situation[units] = [{"unit": own.pop("lead_unit")}]
        situation[role] = own
    return situation


def resolve(name, dice, **situation):
    spec = get_check("fireandice", name)
    if "attacker" in situation and name in ("combat", "combat_support"):
        situation = on_the_track(situation)
    supplied = SuppliedDice(dice)
    body = {"dice": dice, **situation} if spec.random else situation
    result = run_check(spec, spec.compute_model(**body), supplied)
    supplied.finish()
    return result


# -- 5.3 Support Determination Example ------------------------------------------------------------


def test_support_example_city_prepared_attack_row_c_gives_10():
    # 5.3 example: UN tank 5, artillery 11, chit row C, attacking a city: tank (5-1) x 1/3 = 1, artillery 9.
    result = resolve("combat_support", [], attacker="un", combat_type="Prepared Attack", chit="P01", terrain="city",
                     attacking={"tank_level": 5, "artillery_level": 11}, defending={})
    assert result.outcome["attacker"]["tank"] == 1
    assert result.outcome["attacker"]["artillery"] == 9
    assert result.outcome["attacker"]["total"] == 10
    assert result.outcome["road_bonus_tank_cost"] == 0


def test_support_example_road_option_gives_13_and_costs_a_tank_level():
    # "... the UN player could add a maximum of 4 + 9 = 13 ... reduce his Tank Support Level by 1"
    result = resolve("combat_support", [], attacker="un", combat_type="Prepared Attack", chit="P01", terrain="city",
                     road_bonus=True, attacking={"tank_level": 5, "artillery_level": 11}, defending={})
    assert result.outcome["attacker"]["total"] == 13
    assert result.outcome["road_bonus_tank_cost"] == 1
    assert any("8.2" == s.rule for s in result.steps)


# -- 5.6 Combat Example, parts 1 and 2 -----------------------------------------------------------


EXAMPLE = dict(attacker="communist", combat_type="Prepared Attack", chit="P01", terrain="town", road_bonus=True,
               attacking={"tank_level": 6, "artillery_level": 7, "adjacent_units": 2},
               defending={"tank_level": 5, "artillery_level": 4, "adjacent_units": 1})


def test_combat_example_support_by_the_rules_as_written():
    # Book: "the attacker may use up to 4 tank support and 5 artillery" - but 6 - 1 (row C) = 5 tank.
    # Book: defender "3 tanks and 1 artillery" - but 5 - 3 (Prepared) = 2 tank; x 1/3 = 0.
    # Printed totals: attacker D10 +11, defender D10 +5.  By the rules: +12 and +4.
    result = resolve("combat_support", [], **EXAMPLE)
    assert result.outcome["attacker"] == {"tank": 5, "artillery": 5, "air": 0, "bombardment": 0, "adjacent": 3, "total": 13}
    assert result.outcome["attacker_modifier"] == 12  # printed: 11
    assert result.outcome["defender"]["tank"] == 0 and result.outcome["defender"]["artillery"] == 1
    assert result.outcome["defender"]["adjacent"] == 2 and result.outcome["terrain_defense"] == 1
    assert result.outcome["defender_modifier"] == 4  # printed: 5


def test_combat_example_part_2_both_roll_1_random_event_b6_ammo_out():
    # Both roll 1: Penal (Communist) and Poor (UN) markers, effective at once; Random Event Table B, roll 6:
    # SNAFU (defender places); the Communist Ammo Shortage/Ammo Out marker is drawn (6th of the cup) and the
    # defender puts Ammo Out on the declaring 3rd Division: no Communist artillery.
    result = resolve("combat", [1, 1, 6, 6], **EXAMPLE)
    out = result.outcome
    assert out["random_event"]["table"] == "B" and out["random_event"]["kind"] == "snafu"
    assert out["random_event"]["snafu"]["marker"] == "snafu-ammo-com"
    assert out["random_event"]["snafu"]["face"] == "Ammo Out"
    assert out["attacker_support"]["artillery"] == 0
    assert {m["marker"] for m in out["quality_markers_placed"]} == {"Penal", "Poor"}
    # Book: 12 - 5 = 7 vs 6 ... "the spread is now 0. The attacker loses by one" (its own figures: 6 vs 6).
    # Rules as written: attacker 1 - 1 + 5 tank + 0 artillery + 3 adjacent = 8; defender 1 + 1 + 2 + 1 = 5.
    assert out["attacker_total"] == 8 and out["defender_total"] == 5
    assert out["winner"] == "attacker"
    # quality: the winner's Penal -1, the loser's Poor +1 -> 3
    assert out["quality_adjustment"] == {"winner": -1, "loser": 1} and out["spread"] == 3
    # the road option costs the tank level win or lose (the book's example pays it too)
    assert out["level_changes"]["attacker"]["tank"] == -1
    assert [d.sides for d in result.dice_used] == [10, 10, 10, 6]


def test_tie_means_the_attacker_takes_a_1():
    result = resolve("combat", [5, 4], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                     attacking={}, defending={"adjacent_units": 0}, defender_fresh=True)
    # D10 5 + 0 vs D10 4 + 1?  No support anywhere; make it a tie with the defender's terrain:
    assert result.outcome["attacker_total"] == 5 and result.outcome["defender_total"] == 4
    tie = resolve("combat", [5, 4], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="rough",
                  attacking={}, defending={})
    assert tie.outcome["attacker_total"] == tie.outcome["defender_total"] == 5
    assert tie.outcome["winner"] == "defender" and tie.outcome["loser"] == "attacker" and tie.outcome["spread"] == 1


def test_spread_capped_at_5_then_elite_winner_against_poor_loser_makes_7():
    result = resolve("combat", [9, 2], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                     attacking={"adjacent_units": 3, "quality": ["elite"]}, defending={"quality": ["poor"]})
    assert result.outcome["raw_spread"] > 5
    assert result.outcome["spread"] == 7


def test_poor_winner_against_penal_loser_stays_5():
    result = resolve("combat", [9, 2], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                     attacking={"adjacent_units": 3, "quality": ["poor"]}, defending={"quality": ["poor"]})
    assert result.outcome["spread"] == 5


def test_side_with_both_quality_kinds_takes_elite():
    result = resolve("combat", [9, 2], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                     attacking={"adjacent_units": 3, "quality": ["poor", "elite"]}, defending={})
    assert result.outcome["quality_adjustment"]["winner"] == 1


def test_natural_max_places_elite_and_counts_at_once():
    # D6 chit H09 (+1): attacker rolls a natural 6 -> Elite, which adds 1 to the winner's spread.
    result = resolve("combat", [6, 3], attacker="un", combat_type="Hasty Attack", chit="H09", terrain="clear",
                     attacking={}, defending={})
    assert result.outcome["quality_markers_placed"] == [{"side": "un", "marker": "Elite"}]
    assert result.outcome["spread"] == min(5, 6 + 1 - 3) + 1


def test_spent_defender_rolls_d6_and_fresh_one_may_choose_it():
    spent = resolve("combat", [4, 3], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                    attacking={}, defending={}, defender_fresh=False)
    assert [d.sides for d in spent.dice_used] == [10, 6] and not spent.outcome["defender_becomes_spent"]
    chose = resolve("combat", [4, 3], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                    attacking={}, defending={}, defender_die="d6")
    assert [d.sides for d in chose.dice_used] == [10, 6]


def test_spent_defender_may_not_roll_a_d10():
    with pytest.raises(ValueError):
        resolve("combat", [4, 3], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                attacking={}, defending={}, defender_fresh=False, defender_die="d10")


def test_chit_drawn_from_the_right_cup_when_not_given():
    result = resolve("combat", [1, 5, 4], attacker="un", combat_type="Prepared Attack", terrain="clear",
                     attacking={}, defending={}, defender_fresh=False)
    assert result.outcome["chit"]["id"] == "P01"
    assert result.dice_used[0].sides == 16
    assert any("combat_chits" in w for w in result.warnings)


def test_chit_from_the_wrong_cup_is_refused():
    with pytest.raises(ValueError, match="cup"):
        resolve("combat_support", [], attacker="un", combat_type="Prepared Attack", chit="H01", terrain="clear",
                attacking={}, defending={})


def test_anti_tank_ambush_lowers_the_tank_level_in_this_combat():
    # chit H01: RE table A; both roll 3; event roll 2 = anti-tank ambush.
    base = dict(attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                attacking={"tank_level": 8}, defending={})
    result = resolve("combat", [3, 3, 2], **base)
    assert result.outcome["random_event"]["kind"] == "antitank_ambush"
    assert result.outcome["attacker_support"]["tank"] == (8 - 1) - 4  # level 7, planning A = 4
    assert result.outcome["level_changes"]["attacker"]["tank"] == -1


def test_radio_failure_removes_all_defender_support():
    result = resolve("combat", [3, 3, 4], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                     attacking={}, defending={"artillery_level": 9, "adjacent_units": 2})
    assert result.outcome["random_event"]["kind"] == "radio_failure"
    assert result.outcome["defender_support"]["total"] == 0


@pytest.mark.parametrize("markers, artillery", [([], 6), (["ammo_shortage"], 3), (["ammo_out"], 0)])
def test_ammo_markers_on_the_declaring_unit(markers, artillery):
    result = resolve("combat_support", [], attacker="communist", combat_type="Prepared Attack", chit="P01", terrain="clear",
                     attacking={"artillery_level": 8, "lead_markers": markers}, defending={})
    assert result.outcome["attacker"]["artillery"] == artillery


def test_deliberate_attack_doubles_adjacent_support_and_defender_gets_2_each():
    result = resolve("combat_support", [], attacker="communist", combat_type="Deliberate Attack", chit="P01", terrain="clear",
                     attacking={"adjacent_units": 4}, defending={"adjacent_units": 3})
    assert result.outcome["attacker"]["adjacent"] == 20  # 5.3.3: "he would add 20 (!)"
    assert result.outcome["defender"]["adjacent"] == 6


def test_task_force_gets_terrain_only_and_disrupted_defender_no_tank_or_artillery():
    tf = resolve("combat_support", [], attacker="communist", combat_type="Hasty Attack", chit="H01", terrain="rough",
                 attacking={}, defending={"lead_unit": "us-tf-smith", "artillery_level": 9, "adjacent_units": 2})
    assert tf.outcome["defender"]["total"] == 0 and tf.outcome["defender_modifier"] == 1
    disrupted = resolve("combat_support", [], attacker="communist", combat_type="Hasty Attack", chit="H01", terrain="clear",
                        attacking={}, defending={"artillery_level": 9, "tank_level": 9, "air_level": 5,
                                                 "adjacent_units": 1, "lead_markers": ["disrupted"]})
    assert disrupted.outcome["defender"]["tank"] == disrupted.outcome["defender"]["artillery"] == 0
    assert disrupted.outcome["defender"]["adjacent"] == 2


# -- 5.3.1 "all references to Artillery apply equally to air support used" ---------------------------

AIR_AS_ARTILLERY = "Note that all references to Artillery apply equally to air support used."


@pytest.mark.parametrize("role, side_state, book", [
    ("defending", {"lead_markers": ["disrupted"]},
     "6.2 e: Disrupted units ... cannot use artillery or tank support if they are the defending unit"),
    ("attacking", {"lead_markers": ["ammo_out"]},
     "6.1 b: An Ammo Out marker ... prevents the respective player from using any artillery support"),
    ("attacking", {"combat_hex_loc": False},
     "5.3.1: To allow artillery and tank support, the combat hex must trace a LoC back to a friendly HQ or cadre"),
    ("defending", {"support_interdicted": True},
     "10.4.2: Combat hex attempting to call in artillery or tank support (no support is available)"),
    ("attacking", {"lead_unit": "us-24-19", "cadre_in_range": False},
     "9.4: in order for a US unit to receive tank or artillery support, it must be within 6 MP of its division cadre"),
])
def test_what_takes_artillery_support_away_takes_air_support_away(role, side_state, book):
    """5.3.1: "Note that all references to Artillery apply equally to air support used." - read as written, for
    every rule that takes artillery support away (quoted in `book`)."""
    attacker = "un" if role == "attacking" or "lead_unit" in side_state else "communist"
    levels = {"artillery_level": 9, "air_level": 6}
    sides = {"attacking": dict(levels), "defending": dict(levels)}
    sides[role].update(side_state)
    result = resolve("combat_support", [], attacker=attacker, combat_type="Hasty Attack", chit="H01", terrain="clear",
                     **sides)
    who = result.outcome["attacker" if role == "attacking" else "defender"]
    other = result.outcome["defender" if role == "attacking" else "attacker"]
    assert who["artillery"] == 0 and who["air"] == 0, book
    assert other["air"] > 0  # the other side's air is untouched
    assert any(AIR_AS_ARTILLERY in s.text and "5.3.1" in s.rule for s in result.steps)


def test_ammo_shortage_halves_air_support_as_it_halves_artillery():
    """6.1 b: "If there is an Ammo Shortage marker on the unit that declared the combat ... the total amount of
    available artillery support is halved (rounded down)"; 5.3.1: "all references to Artillery apply equally to air
    support used"."""
    full = resolve("combat_support", [], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                   attacking={"artillery_level": 9, "air_level": 8}, defending={})
    short = resolve("combat_support", [], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                    attacking={"artillery_level": 9, "air_level": 8, "lead_markers": ["ammo_shortage"]}, defending={})
    assert short.outcome["attacker"]["artillery"] == full.outcome["attacker"]["artillery"] // 2
    assert short.outcome["attacker"]["air"] == full.outcome["attacker"]["air"] // 2 < full.outcome["attacker"]["air"]


def test_aircraft_kept_from_a_combat_by_ammo_out_do_not_roll_to_stay_on_station():
    """10.4.3: "After the combat is over, each aircraft used must roll to stay on station" - with Ammo Out no air
    support is used (5.3.1, 6.1 b), so no aircraft rolls."""
    result = resolve("combat_support", [], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                     attacking={"air_level": 8, "air_used": [{"unit": "un-air-35fi", "rating": 3}],
                                "lead_markers": ["ammo_out"]}, defending={})
    assert result.outcome["attacker"]["air"] == 0 and result.outcome["attacker"]["air_aircraft"] == []


# -- 5.3.1 the road option may not cross a river ----------------------------------------------------

ROAD_ACROSS_RIVER = ("The road advantage may not be used if the road connecting the declared attacker and the combat "
                     "chit hex crosses a river.")


def test_road_option_across_a_river_is_refused_by_the_map_and_by_the_flags_alike():
    """5.3.1: "The road advantage may not be used if the road connecting the declared attacker and the combat chit
    hex crosses a river."  On the map, 0321 -> 0420 is a road across a river hexside; in flags, a declaring unit
    that attacks across a river (across_river) does so along that road."""
    g = load_game("fireandice")
    gm = g.maps["korea"]
    a, b = gm.grid.parse("0321"), gm.grid.parse("0420")
    assert board.road_connects(gm, a, b) and board.river_between(gm, a, b)
    base = dict(attacker="un", combat_type="Hasty Attack", chit="H01", road_bonus=True,
                attacking={"tank_level": 6}, defending={})
    for body in ({"attackers": [{"unit": "rok-1", "hex": "0321"}], "combat_hex": "0420"},
                 {"terrain": "town", "across_river": True},
                 {"terrain": "town", "across_river": True, "across_bridge": True}):
        with pytest.raises(ValueError) as refused:
            resolve("combat_support", [], **base, **body)
        assert ROAD_ACROSS_RIVER in str(refused.value) and "5.3.1" in str(refused.value)
    # without the river the flags keep the road option (the 5.3 example's road: tank 1/1)
    road = resolve("combat_support", [], **base, terrain="town")
    assert road.outcome["road_bonus_tank_cost"] == 1




def test_bombardment_level_minus_2_only_in_range_and_only_un():
    result = resolve("combat_support", [], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                     bombardment_in_range=True, attacking={"bombardment_level": 8}, defending={})
    assert result.outcome["attacker"]["bombardment"] == 6
    out = resolve("combat_support", [], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                  attacking={"bombardment_level": 8}, defending={})
    assert out.outcome["attacker"]["bombardment"] == 0
    with pytest.raises(ValueError):
        resolve("combat_support", [], attacker="communist", combat_type="Hasty Attack", chit="H01", terrain="clear",
                attacking={"bombardment_level": 4}, defending={})


def test_river_bonus_and_prepared_positions():
    result = resolve("combat_support", [], attacker="un", combat_type="Hasty Attack", chit="H01", terrain="clear",
                     across_river=True, trenches=True, attacking={}, defending={})
    g = load_game("fireandice")
    expected = board.terrain_effects(g, "river hexside").defense + board.terrain_effects(g, "trenches").defense
    assert result.outcome["terrain_defense"] == expected


def test_low_morale_unit_may_not_make_a_deliberate_attack():
    with pytest.raises(ValueError, match="Low Morale"):
        resolve("combat_support", [], attacker="un", combat_type="Deliberate Attack", chit="P01", terrain="clear",
                attacking={"lead_markers": ["low_morale"]}, defending={})


def test_draw_three_chits_without_replacement():
    result = resolve("draw_chits", [16, 15, 1], combat_type="Hasty Attack", count=3)
    assert [c["id"] for c in result.outcome["chits"]] == ["H16", "H15", "H01"]


# -- tables are data ------------------------------------------------------------------------------


def test_replacing_the_terrain_chart_changes_the_support():
    g = load_game("fireandice")
    tec = g.tables["terrain_effects"]
    rows = tuple({**r, "tank_support": "2 for 1"} if r["terrain"] == "city" else dict(r) for r in tec.rows)
    g2 = replace(g, tables={**g.tables, "terrain_effects": Table(**{**tec.__dict__, "rows": rows})})
    side = support.SideSupport(tank_level=5)
    old = support.determine(g, "attacker", "un", side, "Prepared Attack", "C", board.terrain_effects(g, "city"))
    new = support.determine(g2, "attacker", "un", side, "Prepared Attack", "C", board.terrain_effects(g2, "city"))
    assert (old.tank, new.tank) == (1, 2)


# -- properties ----------------------------------------------------------------------------------


GAME = load_game("fireandice")
TERRAINS = [r["terrain"] for r in GAME.tables["terrain_effects"].rows
            if r["terrain"] in ("clear", "rough", "mountain", "city", "town")]
levels = st.integers(min_value=0, max_value=19)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(role=st.sampled_from(["attacker", "defender"]), terrain=st.sampled_from(TERRAINS),
       combat_type=st.sampled_from(list(data.COMBAT_TYPES)), spt=st.sampled_from(["A", "B", "C", "D"]),
       tank=levels, artillery=levels, air=levels, adjacent=st.integers(0, 6),
       kind=st.sampled_from(["tank_level", "artillery_level", "air_level", "adjacent_units"]),
       extra=st.integers(1, 5))
def test_more_support_never_lowers_the_roll(role, terrain, combat_type, spt, tank, artillery, air, adjacent, kind, extra):
    effects = board.terrain_effects(GAME, terrain)
    base = support.SideSupport(tank_level=tank, artillery_level=artillery, air_level=air, adjacent_units=adjacent)
    more = replace(base, **{kind: getattr(base, kind) + extra})
    a = support.determine(GAME, role, "un", base, combat_type, spt, effects)
    b = support.determine(GAME, role, "un", more, combat_type, spt, effects)
    assert b.total >= a.total


@settings(max_examples=100, deadline=None)
@given(a=st.integers(1, 10), d=st.integers(1, 10), adj=st.integers(0, 5))
def test_quality_spread_stays_between_0_and_7(a, d, adj):
    result = resolve("combat", [a, d] + ([1] if a == d else []), attacker="un", combat_type="Hasty Attack",
                     chit="H01", terrain="clear", attacking={"adjacent_units": adj, "quality": ["elite"]},
                     defending={"quality": ["poor"]})
    assert 0 <= result.outcome["spread"] <= 7


def test_bombardment_flag_is_refused_where_no_station_coast_is_within_2_hexes():
    g = load_game("fireandice")
    gm = g.maps["korea"]
    coasts = board.coast_hexes(gm)
    inland = next(h for h in sorted(gm.hexes()) if not board.is_sea(gm, h) and not coasts & set(gm.grid.within(h, 2)))
    with pytest.raises(ValueError, match=r"not within 2 hexes of the coast.*\(11\.2\)"):
        resolve("combat_support", [], attacker="un", combat_type="Hasty Attack", chit="H01",
                combat_hex=gm.grid.label(inland), bombardment_in_range=True,
                attacking={"bombardment_level": 6}, defending={})


def test_bombardment_example_2562_from_the_yellow_sea_coast_2362_on_the_map():
    """11.2, the book's example on the game's map: "If the Fleet is in the Yellow Sea box, it may provide support
    for any UN unit (attacking or defending) within 2 hexes of the coast from hex 2377 to 1024. For example, if a
    combat occurs in hex 2562 and the 7th Fleet marker is in the Yellow Sea Station box, it can be supported by
    bombardment from the coastal hex 2362."  (2562 is 3 hexes from the nearest all-sea hex of the stand-in map:
    the coast decides, not 5.3.2's "no more than 2 hexes from an all sea hex".)"""
    body = dict(attacker="un", combat_type="Hasty Attack", chit="H01", combat_hex="2562", fleet_station="Yellow Sea",
                attacking={"bombardment_level": 6}, defending={})
    west = resolve("combat_support", [], **body)
    assert west.outcome["attacker"]["bombardment"] > 0
    fleet = next(s for s in west.steps if s.text.startswith("7th Fleet"))
    assert "coast hex 2362" in fleet.text and "2377 to 1024" in fleet.text and fleet.rule.startswith("11.2")
    # the Sea of Japan's coast (2476 to 4804) is across the peninsula from 2562
    east = resolve("combat_support", [], **{**body, "fleet_station": "Sea of Japan"})
    assert east.outcome["attacker"]["bombardment"] == 0
    # the same from the flag: the map agrees that a station's coast is within 2 hexes
    flagged = resolve("combat_support", [], **{k: v for k, v in body.items() if k != "fleet_station"},
                      bombardment_in_range=True)
    assert flagged.outcome["attacker"]["bombardment"] == west.outcome["attacker"]["bombardment"]


def test_the_two_stations_coasts_run_between_the_books_end_hexes():
    """11.2: the Sea of Japan station supports "any UN unit ... within 2 hexes of a coast hex from hex 2476 to
    4804", the Yellow Sea station "within 2 hexes of the coast from hex 2377 to 1024".  Each stretch holds its
    end hexes, runs along its own side of the peninsula, stops at its ends, and a lake inland is no coast."""
    g = load_game("fireandice")
    gm = g.maps["korea"]
    grid = gm.grid
    west = board.station_coast(gm, grid.parse("2377"), grid.parse("1024"))
    east = board.station_coast(gm, grid.parse("2476"), grid.parse("4804"))
    assert {grid.parse("2377"), grid.parse("1024"), grid.parse("2362")} <= west
    assert {grid.parse("2476"), grid.parse("4804")} <= east
    assert all(h.row >= 23 for h in west)            # nothing north of the 1024 end ...
    assert all(h.col <= 24 for h in west if h.row >= 60)  # ... nor along the south coast east of 2377
    assert all(h.col >= 23 for h in east)            # the Sea of Japan's coast is the east and south-east
    # the Changjin (Chosin) Reservoir is all-sea on the stand-in map, but it is not the 7th Fleet's water
    lake = grid.parse("2520")
    assert board.is_sea(gm, lake) and lake not in board.open_sea(gm)
    assert not any(grid.distance(lake, h) == 1 for h in board.coast_hexes(gm))
    # Busan's coast (port 4371, Sea of Japan) is the east's; Inch'on's (2151, Yellow Sea) the west's
    assert board.in_bombardment_range(g, gm, grid.parse("4371"), "Sea of Japan")[0]
    assert not board.in_bombardment_range(g, gm, grid.parse("4371"), "Yellow Sea")[0]
    assert board.in_bombardment_range(g, gm, grid.parse("2151"), "Yellow Sea")[0]
    assert not board.in_bombardment_range(g, gm, grid.parse("2151"), "Sea of Japan")[0]


def test_real_map_has_hexes_in_range_of_both_stations():
    g = load_game("fireandice")
    gm = g.maps["korea"]
    for station in ("Yellow Sea", "Sea of Japan"):
        coast = board.station_coast(gm, gm.grid.parse(g.tables["fleet_stations"].cell(station, "coast_from")),
                                    gm.grid.parse(g.tables["fleet_stations"].cell(station, "coast_to")))
        assert coast
        assert any(board.in_bombardment_range(g, gm, h, station)[0] for h in sorted(coast)[:10])


def test_worked_example_10_4_3_partial_use_of_ground_support():
    """10.4.3: a reduced long-range Tu-2 (1) and an Il-10 (4) put the Air Support marker on 5. In a combat the owner
    'may use ground support values with one or more aircraft up to that total. You may use partial values (so if
    the allowed value is 3, you may use a 4 rated aircraft) - but only add 3'; each aircraft used rolls to stay on
    station. Chit row C deducts 1 from air (5.3.1): 4 available."""
    def air(air_used):
        out = resolve("combat_support", [], attacker="communist", combat_type="Prepared Attack", chit="P01",
                      terrain="clear", attacking={"air_level": 5, "air_used": air_used}, defending={})
        return out.outcome["attacker"], out.steps

    both, steps = air([{"unit": "com-air-10ad", "rating": 1}, {"unit": "com-air-il10", "rating": 4}])
    assert both["air"] == 4 and both["air_aircraft"] == ["com-air-10ad", "com-air-il10"]
    assert any("com-air-il10 adds 3 (a partial value: 3 of its 4)" in s.text for s in steps)
    il10_only, _ = air([{"unit": "com-air-il10", "rating": 4}, {"unit": "com-air-10ad", "rating": 1}])
    assert il10_only["air"] == 4 and il10_only["air_aircraft"] == ["com-air-il10"]  # the Tu-2 is not needed
    one, _ = air([{"unit": "com-air-10ad", "rating": 1}])
    assert one["air"] == 1 and one["air_aircraft"] == ["com-air-10ad"]
    whole = resolve("combat_support", [], attacker="communist", combat_type="Prepared Attack", chit="P01",
                    terrain="clear", attacking={"air_level": 5}, defending={}).outcome["attacker"]
    assert whole["air"] == 4 and "air_aircraft" not in whole
    with pytest.raises(ValueError, match="more than the Air Support level 5"):
        air([{"unit": "com-air-il10", "rating": 4}, {"unit": "com-air-11ad", "rating": 4}])
    with pytest.raises(ValueError, match="flies Ground Support"):
        air([{"unit": "un-air-18fb", "rating": 4}])
