"""Korea: Fire and Ice data (scenarios/data/fireandice) checked against the rulebook.

Every expected number below is taken from the rulebook text
(shared/seeds/004_6f7e3fdf649f81e3.txt), with the section in a comment - never
computed from the data under test.  Where the book says "all units of the Nth
US Division" we count a cadre plus three regiments: 9.4 says four activated
cadres bring "up to 16 units" into an activation.
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from scenarios.loader import DATA_ROOT, check_game_dir, load_game, load_game_dir

GAME_DIR = DATA_ROOT / "fireandice"
DIVISION = 4  # a US division = cadre + 3 regiments (9.4)


@pytest.fixture(scope="module")
def game():
    return load_game("fireandice")


def ground(game, unit_ids):
    """Units and HQs (no aircraft), as a Counter per side."""
    return Counter(game.units[u].side for u in unit_ids if game.units[u].type != "aircraft")


def aircraft(game, unit_ids):
    return Counter(game.units[u].side for u in unit_ids if game.units[u].type == "aircraft")


def arrivals(scenario, turn):
    return [a.unit for a in scenario.arrivals_on(turn)]


def withdrawals(scenario, turn):
    return [a.unit for a in scenario.withdrawals_on(turn)]


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------


def test_data_loads_without_problems():
    assert check_game_dir(GAME_DIR) == []


def test_four_scenarios_on_one_korea_map(game):
    assert set(game.scenarios) == {"invasion", "inchon", "intervention", "campaign"}
    assert set(game.maps) == {"korea"}
    for scenario in game.scenarios.values():
        assert scenario.maps == ("korea",)


def test_every_hex_the_book_names_is_a_feature(game):
    korea = game.maps["korea"]
    named = {korea.grid.label(f.hex) for f in korea.features}
    # 1.0 border ends, 11.2 coast ranges and example, 16.0 ports and objective hexes
    for label in ("0743", "3743", "0643", "3843", "2476", "4804", "2377", "1024", "2362",
                  "2151", "2264", "4371", "4046", "2549", "2860", "3965", "3871"):
        assert label in named, label


# ---------------------------------------------------------------------------
# Setups
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("sid", ["invasion", "campaign"])
def test_1950_setup_counts_and_hexes(game, sid):
    scenario = game.scenarios[sid]
    placed = [p.unit for p in scenario.setup if not p.is_marker]
    # 16.0 / 19.0 UN Setup: 8 RoK divisions + I and II Corps RoK HQ; Communist: 9 NK divisions + 3 KPA HQs
    assert ground(game, placed) == Counter({"un": 10, "communist": 12})
    # 16.0 Communist Air Display: 1 FAR in Top Cover, 1 AAR in Ground Support; UN Air Display empty
    assert aircraft(game, placed) == Counter({"communist": 2})
    where = {p.unit: p.location for p in scenario.setup}
    # 16.0: "1st RoK Division: 1944", "Capital RoK Division: 2449", "5th NK Division: 3743", "III KPA HQ: 1341"
    assert where["rok-1"] == "1944"
    assert where["rok-cap"] == "2449"
    assert where["nk-5"] == "3743"
    assert where["nk-hq-iii"] == "1341"
    assert where["com-air-yak9p"] == "box:com-top-cover"
    # 16.0: "all units start spent - HQs are fresh" (UN); Communist "all units start fresh"
    steps = {p.unit: p.step for p in scenario.setup}
    assert steps["rok-3"] == "spent" and steps["rok-hq-i"] == ""
    assert steps["nk-1"] == ""


@pytest.mark.parametrize("sid", ["invasion", "campaign"])
def test_1950_initial_tracks(game, sid):
    tracks = game.scenarios[sid].special_rules["initial_tracks"]
    # 16.0 UN: 4 RoK Replacements, 5 Infrastructure, 5 Supply, 0 Artillery/Tank/Bombardment/Air
    assert (tracks["un_repl_rok"], tracks["un_infrastructure"], tracks["un_supply"]) == (4, 5, 5)
    assert tracks["un_artillery"] == tracks["un_tank"] == tracks["un_bombardment"] == tracks["un_air"] == 0
    # 16.0 Communists: 8 NK Replacements, 12 Infrastructure, 12 Supply, 4 Artillery, 6 Tank, 4 Air
    assert (tracks["com_repl_nk"], tracks["com_infrastructure"], tracks["com_supply"]) == (8, 12, 12)
    assert (tracks["com_artillery"], tracks["com_tank"], tracks["com_air"]) == (4, 6, 4)
    # 16.0: one random Communist Objective marker on each of six hexes
    assert game.scenarios[sid].special_rules["initial_objectives"]["hexes"] == [
        "2549", "2151", "2860", "3965", "3871", "4371"]


def test_inchon_setup_holds_everything_arrived_by_september_week_2(game):
    """17.0 prints 'Per book': the stand-in setup must at least hold the forces the 19.0
    schedule has brought in by September Week 2 1950 (Task Force Smith excepted, 14.2)."""
    scenario = game.scenarios["inchon"]
    placed = [p.unit for p in scenario.setup if not p.is_marker]
    # UN, 16.0 setup: 8 RoK divisions + 2 HQs; 19.0: July Week 2 24th Div + I UN Corps HQ; Week 3 25th and
    # 1st Cav Divs; August Week 4 2nd Div + 27th CW Bde; September Week 2 1st Marine and 7th Divs + X Corps HQ
    un = 10 + (DIVISION + 1) + 2 * DIVISION + (DIVISION + 1) + (2 * DIVISION + 1)
    # Communist, 16.0: 9 NK divisions + 3 HQs; 19.0: July Week 1 four, Week 4 two, August Week 2 one, Week 4 two
    com = 12 + 4 + 2 + 1 + 2
    assert ground(game, placed) == Counter({"un": un, "communist": com})
    # 19.0 September Week 2: 1st Marine and 7th Divisions and X UN Corps HQ, 8 Amphibious points (11.3.1:
    # one point per unit, one HQ free) -> in the Sea Transport box
    at_sea = [p.unit for p in scenario.setup if p.location == "box:sea-transport"]
    assert len(at_sea) == 2 * DIVISION + 1
    assert scenario.special_rules["initial_tracks"]["un_amphibious"] == 8
    # 17.0: "The VPs marker is placed in the 14 box on the Communist (red) side"
    assert scenario.special_rules["initial_vp"] == {"source": scenario.special_rules["initial_vp"]["source"],
                                                    "side": "communist", "vp": 14}


def test_intervention_setup_holds_everything_arrived_by_november_1950(game):
    scenario = game.scenarios["intervention"]
    placed = [p.unit for p in scenario.setup if not p.is_marker]
    # UN: as for Inch'on (37) + September Week 3 187 RCT + October Week 1-2 29th CW, 1st Tk Bde, 11th RoK,
    # IX Corps HQ + October Week 3-4 3rd Div, 9th RoK + November III RoK Corps HQ (19.0)
    un = 37 + 1 + 4 + (DIVISION + 1) + 1
    # Communist NK: 21 as for Inch'on + October Week 3-4 31st, 43rd, 47th NK Divs and IV KPA HQ + November 24th
    nk = 21 + 4 + 1
    sides = ground(game, placed)
    assert sides["un"] == un
    # 18.0: "the Chinese have intervened" - all three waves (their units are a stand-in table) are in play
    chinese = {u for u in placed if game.units[u].nationality == "prc" and game.units[u].type != "aircraft"}
    waves = game.tables["chinese_intervention_forces"]
    assert chinese == {u for w in ("1", "2", "3") for u in waves.cell(w, "units").split()}
    assert sides["communist"] == nk + len(chinese)
    # 19.0 Chinese Intervention air: PRC 2, 6, 19 and 20 Air Divisions in the Available Aircraft box
    for unit in ("com-air-2ad", "com-air-6ad", "com-air-19ad", "com-air-20ad"):
        assert {p.unit: p.location for p in scenario.setup}[unit] == "box:com-air-available"
    # 18.0: first-turn weather Snow, next check December 1950
    assert scenario.special_rules["weather"]["first_turn"] == "snow"
    assert scenario.special_rules["weather"]["first_check"] == "1950-12"


def test_no_unit_stacks_at_setup(game):
    """4.2: one unit per hex (HQs and markers do not count)."""
    for scenario in game.scenarios.values():
        hexes = [p.location for p in scenario.setup
                 if p.is_on_map and not game.units[p.unit].has("hq")]
        assert len(hexes) == len(set(hexes)), scenario.id


# ---------------------------------------------------------------------------
# Turn track and schedule
# ---------------------------------------------------------------------------


def test_scenario_lengths(game):
    # 16.0 June Week 4 - September Week 1 1950; 17.0 September Week 2 - November 1950;
    # 18.0 November 1950 - July Week 4 1951; 19.0 June Week 4 1950 - July Week 4 1951
    assert game.scenarios["invasion"].turns[0].date == "June 1950 Week 4"
    assert game.scenarios["invasion"].turns[-1].date == "September 1950 Week 1"
    assert game.scenarios["inchon"].turns[0].date == "September 1950 Week 2"
    assert game.scenarios["inchon"].turns[-1].date == "November 1950 Week 1-4"
    assert game.scenarios["intervention"].turns[0].date == "November 1950 Week 1-4"
    for sid in ("intervention", "campaign"):
        assert game.scenarios[sid].turns[-1].date == "July 1951 Week 4"
    assert game.scenarios["campaign"].turns[0].date == "June 1950 Week 4"


def test_campaign_ground_reinforcements_per_turn(game):
    c = game.scenarios["campaign"]
    by_date = {t.date: t.number for t in c.turns}

    def on(date):
        return ground(game, arrivals(c, by_date[date]))

    assert on("July 1950 Week 1") == Counter({"un": 1, "communist": 4})      # Task Force; 7th 41st 10th 32nd NK
    assert on("July 1950 Week 2") == Counter({"un": DIVISION + 1})    # 24th Div, I UN Corps HQ
    assert on("July 1950 Week 3") == Counter({"un": 2 * DIVISION})    # 25th and 1st Cav Divs
    assert on("July 1950 Week 4") == Counter({"communist": 2})              # 8th, 9th NK
    assert on("August 1950 Week 1") == Counter()
    assert on("August 1950 Week 2") == Counter({"communist": 1})            # 18th NK
    assert on("August 1950 Week 4") == Counter({"un": DIVISION + 1, "communist": 2})  # 2nd Div, 27th CW; 19th, 27th NK
    assert on("September 1950 Week 2") == Counter({"un": 2 * DIVISION + 1})     # 1st Mar, 7th Divs, X Corps HQ
    assert on("September 1950 Week 3") == Counter({"un": 1})          # 187 RCT
    assert on("October 1950 Week 1-2") == Counter({"un": 4})          # 29th CW, 1st Tk Bde, 11th RoK, IX HQ
    assert on("October 1950 Week 3-4") == Counter({"un": DIVISION + 1, "communist": 4})  # 3rd Div, 9th RoK; 3 NK + IV HQ
    assert on("November 1950 Week 1-4") == Counter({"un": 1, "communist": 1})  # III RoK HQ; 24th NK
    # February 1951: 23rd 37th 45th 46th "46th" NK, V KPA HQ, 187th 188th 196th PRC, 19th Army Group HQ:
    # ten names printed, the 46th twice -> nine counters
    assert on("February 1951 Week 1-4") == Counter({"communist": 9})
    assert on("March 1951 Week 1-4") == Counter({"communist": 10})          # ten PRC divisions
    total = sum(len([u for u in arrivals(c, t.number) if game.units[u].type != "aircraft"]) for t in c.turns)
    assert total == 1 + 4 + 5 + 8 + 2 + 1 + 7 + 9 + 1 + 4 + 9 + 2 + 9 + 10


def test_campaign_aircraft_schedule(game):
    c = game.scenarios["campaign"]
    by_date = {t.date: t.number for t in c.turns}
    # July 1950 Monthly: ten aircraft (22 Bomb printed twice) + four carrier groups
    assert aircraft(game, arrivals(c, by_date["July 1950 Week 1"])) == Counter({"un": 14})
    # August: 307 Bomb; October: 51 F-I, 452 / 3rd and 4th PRC Air Divs
    assert aircraft(game, arrivals(c, by_date["August 1950 Week 1"])) == Counter({"un": 1})
    assert aircraft(game, arrivals(c, by_date["October 1950 Week 1-2"])) == Counter({"un": 2, "communist": 2})
    # December: withdraw CVG 5; February: withdraw CVG 3; March: CVG 101 in, CVG 11 out; May: CVG 19 -> 19x
    assert withdrawals(c, by_date["December 1950 Week 1-2"]) == ["un-air-cvg5"]
    assert withdrawals(c, by_date["February 1951 Week 1-4"]) == ["un-air-cvg3"]
    assert withdrawals(c, by_date["March 1951 Week 1-4"]) == ["un-air-cvg11"]
    assert withdrawals(c, by_date["May 1951 Week 1"]) == ["un-air-cvg19"]
    # April 1951: 303 IAD, 324 IAD, 18th Air Div
    assert aircraft(game, arrivals(c, by_date["April 1951 Week 1"])) == Counter({"communist": 3})


def test_campaign_track_points_per_turn(game):
    turns = {t.date: t.values for t in game.scenarios["campaign"].turns}
    # 19.0 July Week 3: Artillery x4, Tank x4, SK Replacements x2, US Replacements x4, Infrastructure add 2
    w3 = turns["July 1950 Week 3"]
    assert (w3["un_artillery"], w3["un_tank"], w3["un_repl_rok"], w3["un_repl_us"], w3["un_infrastructure"]) == \
        ("4", "4", "2", "4", "2")
    # July Week 1: US Bombardment x4; Communist Artillery x1, Tank x1, Replacements x3
    assert turns["July 1950 Week 1"]["un_bombardment"] == "4"
    assert turns["July 1950 Week 1"]["com_repl_nk"] == "3"
    # September Week 2: Amphibious Support x8, Bombardment Support x2
    assert turns["September 1950 Week 2"]["un_amphibious"] == "8"
    assert turns["September 1950 Week 2"]["un_bombardment"] == "2"
    # December Monthly: UN Bombardment -2; March 1951 Week 1-4: Chinese Replacements x4
    assert turns["December 1950 Week 1-2"]["un_bombardment"] == "-2"
    assert turns["March 1951 Week 1-4"]["com_repl_prc"] == "4"
    # July 1950 Monthly: 5 Improved Airfields in the Japan Airfields box
    assert turns["July 1950 Week 1"]["un_airfields"] == "improved:japan:5"


def test_invasion_schedule_equals_campaign_to_september_week_1(game):
    """16.0's 'Revised Reinforcement arrival times' list is the 19.0 list up to September Week 1."""
    inv, camp = game.scenarios["invasion"], game.scenarios["campaign"]
    assert len(inv.turns) == 10
    for turn in range(1, 11):
        assert arrivals(inv, turn) == arrivals(camp, turn)
        assert inv.turns[turn - 1].values == camp.turns[turn - 1].values


def test_inchon_and_intervention_schedules(game):
    inchon = game.scenarios["inchon"]
    # 19.0 September Week 3: 187 RCT; October Week 1-2: 4; Week 3-4: 3rd Div + 9th RoK / 3 NK + IV HQ
    assert ground(game, arrivals(inchon, 2)) == Counter({"un": 1})
    assert ground(game, arrivals(inchon, 4)) == Counter({"un": 4})
    assert ground(game, arrivals(inchon, 5)) == Counter({"un": DIVISION + 1, "communist": 4})
    assert ground(game, arrivals(inchon, 6)) == Counter({"un": 1, "communist": 1})
    intervention = game.scenarios["intervention"]
    assert len(intervention.turns) == 23
    by_date = {t.date: t.number for t in intervention.turns}
    assert ground(game, arrivals(intervention, by_date["February 1951 Week 1-4"])) == Counter({"communist": 9})
    assert ground(game, arrivals(intervention, by_date["March 1951 Week 1-4"])) == Counter({"communist": 10})


# ---------------------------------------------------------------------------
# Tables: a sample of cells against the book
# ---------------------------------------------------------------------------


def test_support_planning_and_declaring_costs(game):
    t = game.tables
    # 5.3.1: "B Tank 2, Artillery 3, Air 3"; "C Tank 1, Artillery 2, Air 1"; "Meeting Engagement Tank 4..."
    assert (t["support_planning_attacker"].cell("B", "tank"), t["support_planning_attacker"].cell("B", "artillery")) == ("2", "3")
    assert t["support_planning_attacker"].cell("C", "air") == "1"
    assert t["support_planning_defender"].cell("Meeting Engagement", "artillery") == "4"
    assert t["support_planning_defender"].cell("Deliberate Attack", "tank") == "3"
    # 4.5: HASTY ATTACK = 2 MP; DELIBERATE ATTACK = ALL MOVEMENT POINTS
    assert t["declaring_costs"].cell("Hasty Attack", "mp_cost") == "2"
    assert t["declaring_costs"].cell("Deliberate Attack", "mp_cost") == "all"
    # 5.3.3: four adjacent units add 10 to a Hasty Attack, 20 to a Deliberate Attack
    assert t["adjacent_support"].cell("4", "attacker") == "10"
    assert t["adjacent_support"].cell("4", "attacker_deliberate") == "20"


def test_random_event_tables(game):
    re = game.tables["random_events"]
    assert re.cell("2", "A") == "Anti-tank ambush - reduce the attacker's tank support level by 1"
    assert re.cell("4", "A") == "Radio failure - the defender may not add any support this combat"
    assert re.cell("8", "B") == "Draw from the Cup of SNAFU (attacker places marker)"
    assert re.cell("7", "B") == "Draw from the Cup of SNAFU (defender places marker)"
    assert "defender's color" in re.cell("1", "C")
    assert re.cell("6", "C") == "Draw from the Cup of SNAFU (attacker places marker)"


def test_costs_and_foreign_tables(game):
    t = game.tables
    # 9.3: UN, used-not-moved HQ north of the border: 3; Communist monthly flip north of the border: 0
    assert t["hq_flip_costs"].cell("activation-north", "un") == "3"
    assert t["hq_flip_costs"].cell("monthly-north", "communist") == "0"
    # 7.0: 2 to repair an Improved Airfield; 2 to place Trenches
    assert t["supply_costs"].cell("repair an Improved Airfield marker", "un") == "2"
    assert t["supply_costs"].cell("place a Trenches marker", "communist") == "2"
    # 12.2.2: 10-14 -> 4 replacements and 4 tank / 4 artillery; 15-20 -> requesting player +1 VP
    assert t["foreign_aid"].cell("10-14", "replacements") == "4"
    assert t["foreign_aid"].cell("10-14", "tank") == "4"
    assert t["foreign_aid"].cell("5-9", "destroyed_to_replacements") == "1"
    assert t["foreign_aid"].cell("15-20", "vp") == "requesting player +1"
    # 12.2.1: -2 if the RoC has intervened; Soviet -2 after Atomic Release
    assert t["intervention_modifiers"].cell("chinese-roc", "modifier") == "-2"
    assert t["intervention_modifiers"].cell("soviet-atomic", "modifier") == "-2"
    assert t["foreign_intervention"].cell("Republic of China", "die") == "d6"
    # 14.4: Peng 6 units per HQ, Ridgway 8
    assert t["theater_commanders"].cell("Peng Dehuai", "units_per_hq") == "6"
    assert t["theater_commanders"].cell("Ridgway", "units_per_hq") == "8"
    # 10.2: UN aircraft repair on 5 or less with a D10, Communist 3 or less
    assert t["air_checks"].cell("damaged aircraft repair (UN)", "success") == "5 or less"
    assert t["air_checks"].cell("damaged aircraft repair (Communist)", "success") == "3 or less"


def test_stand_in_tables_keep_the_books_example_values(game):
    t = game.tables
    # 5.3 / 5.6 examples: city and town - artillery 1 for 1, tank 3 for 1; town defence +1; road 0.5 MP
    assert t["terrain_effects"].cell("town", "tank_support") == "3 for 1"
    assert t["terrain_effects"].cell("city", "artillery_support") == "1 for 1"
    assert t["terrain_effects"].cell("town", "defense") == "+1"
    assert t["terrain_effects"].cell("road", "movement") == "0.5"
    # 10.3.1 / 10.4.1 examples: F-86 5, 324 IAD 6, MiG-15 of the 4th PRC Air Division 4 with station 2
    assert t["aircraft"].cell("un-air-4fi", "air_combat") == "5"
    assert t["aircraft"].cell("com-air-324iad", "air_combat") == "6"
    assert (t["aircraft"].cell("com-air-4ad", "air_combat"), t["aircraft"].cell("com-air-4ad", "station")) == ("4", "2")
    # 5.6 example chit: D10 with -1, Random Event Table B, support row C
    p01 = t["combat_chits"].row("P01")
    assert (p01["die"], p01["modifier"], p01["re"], p01["spt"]) == ("D10", "-1", "B", "C")


def test_every_aircraft_has_ratings(game):
    rated = {row["unit"] for row in game.tables["aircraft"].rows}
    assert rated == {u.id for u in game.units.values() if u.type == "aircraft"}


def test_combat_chits_use_only_printed_letters(game):
    for row in game.tables["combat_chits"].rows:
        assert row["die"] in ("D10", "D6")
        assert row["re"] in game.tables["random_events"].columns
        assert row["spt"] in {r["spt"] for r in game.tables["support_planning_attacker"].rows}


# ---------------------------------------------------------------------------
# Stand-ins
# ---------------------------------------------------------------------------


def test_every_stand_in_has_a_reason(game):
    assert game.stand_ins, "the book lacks the TEC, the chits and the aircraft ratings"
    for s in game.stand_ins:
        assert len(s.reason) > 10, s


def test_the_gaps_the_book_leaves_are_listed_as_stand_ins(game):
    what = {s.what for s in game.stand_ins}
    for table in ("terrain_effects", "combat_chits", "aircraft", "weather_track",
                  "chinese_intervention_forces", "soviet_intervention_forces"):
        assert f"table {table}" in what
    assert "map korea" in what
    assert any(w.startswith("scenario inchon setup of") for w in what)
    assert any(w.startswith("scenario intervention setup of") for w in what)
    # the transcribed 16.0 setup is not a stand-in (its starting VP marker is: 16.0 does not state the VPs)
    assert not any(w.startswith("scenario invasion setup of") and "marker:" not in w for w in what)
    # book tables are not stand-ins
    assert "table random_events" not in what and "table foreign_aid" not in what


def test_replacing_a_stand_in_table_needs_no_code(tmp_path):
    """A maintainer overwrites the chit CSV with the published one and changes its source."""
    copy = tmp_path / "fireandice"
    shutil.copytree(GAME_DIR, copy)
    (copy / "tables" / "combat_chits.csv").write_text(
        "chit,cup,die,modifier,re,spt,adv\n"
        "X1,hasty,D6,+2,C,D,5\n"
        "X2,prepared,D10,0,A,A,1\n", encoding="utf-8")
    toml = copy / "tables.toml"
    text = toml.read_text(encoding="utf-8")
    old = 'source = "stand-in: the combat chits are counters; their mix and values are not in the rulebook text"'
    assert old in text
    toml.write_text(text.replace(old, 'source = "Counter sheet 2 (published)"'), encoding="utf-8")
    replaced = load_game_dir(copy)
    chits = replaced.tables["combat_chits"]
    assert [r["chit"] for r in chits.rows] == ["X1", "X2"]
    assert chits.cell("X1", "adv") == "5"
    assert not chits.source.is_stand_in
    assert replaced.stand_ins_for("table combat_chits") == []
    assert load_game("fireandice").stand_ins_for("table combat_chits")
