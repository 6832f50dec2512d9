"""SPI "Korea: The Mobile War" data (scenarios/data/spi) against the rulebook.

Every expected number below is typed in from the Standard Rules
(shared/seeds/002_4ec11b99f88b4c4b.txt) with the heading it comes from in a
comment - it is not computed from the data.  The rulebook has no numbered
sections; it cites headings and lettered Cases ("Movement (L)").  Stand-ins
(map, Initial Order of Battle positions, counter sheet, the three CRTs) are
only checked for being labelled and replaceable.
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from scenarios.loader import DATA_ROOT, check_game_dir, load_game, load_game_dir

GAME_DIR = DATA_ROOT / "spi"


@pytest.fixture(scope="module")
def game():
    return load_game("spi")


# ----------------------------------------------------------------------------- helpers


def label(game, unit_id: str, location: str = "") -> str:
    """How the rulebook names a unit: its printed values, or its kind for supply/naval units."""
    unit = game.units[unit_id]
    kinds = {"supply": "supply unit", "naval_gun": "NG", "sea_transport": "MST", "amphibious": "Amph"}
    if unit.type in kinds:
        return kinds[unit.type]
    if location == "box:un-repl":
        return "R1"  # Reinforcement Notes: "R1" = one 5-3 placed directly in the Replacement Box
    return unit.full.text


def on_map(game, scenario_id: str, side: str) -> Counter:
    scenario = game.scenarios[scenario_id]
    return Counter(label(game, p.unit) for p in scenario.setup
                   if p.is_on_map and game.units[p.unit].side == side)


def in_boxes(game, scenario_id: str, side: str) -> Counter:
    scenario = game.scenarios[scenario_id]
    return Counter(label(game, p.unit) for p in scenario.setup
                   if not p.is_on_map and not p.is_marker and game.units[p.unit].side == side)


def arrivals(game, scenario_id: str, side: str) -> dict[int, Counter]:
    result: dict[int, Counter] = {}
    for a in game.scenarios[scenario_id].schedule:
        if a.action == "arrive" and game.units[a.unit].side == side:
            result.setdefault(a.turn, Counter())[label(game, a.unit, a.location)] += 1
    return result


def column(game, scenario_id: str, name: str) -> list[str]:
    return [t.values[name] for t in game.scenarios[scenario_id].turns]


def feature_hex(game, name: str) -> str:
    korea = game.maps["korea"]
    [hex] = set(korea.find_named(name))
    return korea.grid.label(hex)


# ----------------------------------------------------------------------------- loading


def test_data_loads_with_zero_problems():
    assert check_game_dir(GAME_DIR) == []


def test_four_games_on_one_map(game):
    # Standard Rules: Invasion, Intervention, Stalemate; Campaign Game links them
    assert {s.id: s.maps for s in game.scenarios.values()} == {
        "invasion": ("korea",), "intervention": ("korea",), "stalemate": ("korea",), "campaign": ("korea",)}


def test_first_player(game):
    # chart headers: Invasion "[Communists move first]" (OCR-damaged), Intervention "Communists
    # move first", Stalemate "United Nations move first"
    assert game.scenarios["invasion"].first_player == "communist"
    assert game.scenarios["intervention"].first_player == "communist"
    assert game.scenarios["stalemate"].first_player == "un"


def test_game_lengths_and_dates(game):
    # Invasion chart: 22 columns, "Invasion Game Ends" after turn 17 (our reading), 18-22 campaign only
    assert game.scenarios["invasion"].length == 17
    assert game.scenarios["invasion"].turns[0].date == "1950-06-25"
    assert game.scenarios["invasion"].turns[16].date == "1950-10-15"
    # Intervention chart: 9 columns, weeks of 11/26 .. 1/21
    assert game.scenarios["intervention"].length == 9
    assert game.scenarios["intervention"].turns[-1].date == "1951-01-21"
    # Stalemate chart: 21 columns, weeks of 1/28 .. 6/17 (1951)
    assert game.scenarios["stalemate"].length == 21
    assert game.scenarios["stalemate"].turns[-1].date == "1951-06-17"
    # Campaign: all three charts in sequence, 22 + 9 + 21 weeks
    assert game.scenarios["campaign"].length == 52
    assert game.scenarios["campaign"].turns[22].date == "1950-11-26"
    assert game.scenarios["campaign"].turns[31].date == "1951-01-28"


def test_nationality_letters(game):
    # Unit Origin: gold Chinese, N brown North Korean, green UN; S, B, T, P
    letters = {n.id: n.letter for n in game.nationalities.values()}
    assert letters == {"cpv": "", "nk": "N", "us": "", "rok": "S", "uk": "B", "tr": "T", "ph": "P"}
    sides = {n.id: n.side for n in game.nationalities.values()}
    assert sides["cpv"] == sides["nk"] == "communist"
    assert {sides[n] for n in ("us", "rok", "uk", "tr", "ph")} == {"un"}


def test_the_187th_is_the_only_designation_from_the_book(game):
    # Unit Origin: "The only case where this designation affects play is that of the 187th Airborne"
    unit = game.units["us-r187"]
    assert unit.full.text == "5-3" and unit.has("paradrop")
    assert unit.source.text == "Parachute Troops"


# ----------------------------------------------------------------------------- set-ups


def test_invasion_setup_counts(game):
    # INVASION, On the Map: "Communist: Two 2-8s, thirteen 3-4s, one 9-8, seven 10-4s. UN: fourteen 3-3s."
    assert on_map(game, "invasion", "communist") == Counter({"2-8": 2, "3-4": 13, "9-8": 1, "10-4": 7})
    assert on_map(game, "invasion", "un") == Counter({"3-3": 14})
    # In the Replacement Boxes: "Communist: two 3-4s  UN: three 10-3s, one 3-3."
    assert in_boxes(game, "invasion", "communist") == Counter({"3-4": 2})
    assert in_boxes(game, "invasion", "un") == Counter({"10-3": 3, "3-3": 1})


def test_intervention_setup_counts(game):
    # INTERVENTION, On the Map: "Communist: nine 25-2's, four 10-4's, two 3-4's."
    assert on_map(game, "intervention", "communist") == Counter({"25-2": 9, "10-4": 4, "3-4": 2})
    # "UN: six 3-3's, sixteen 5-3's, five 10-3's, one 2-3, three 6-3's, two 16-3's, two supply units,
    #  one MST, one Amph, two NG units."
    assert on_map(game, "intervention", "un") == Counter({
        "3-3": 6, "5-3": 16, "10-3": 5, "2-3": 1, "6-3": 3, "16-3": 2,
        "supply unit": 2, "MST": 1, "Amph": 1, "NG": 2})
    # In the Replacement Boxes: "Communist: ten 10-4's, one 3-4."
    assert in_boxes(game, "intervention", "communist") == Counter({"10-4": 10, "3-4": 1})
    assert in_boxes(game, "intervention", "un") == Counter()


def test_stalemate_setup_counts(game):
    # STALEMATE: "Communist: thirty-three 10-4s, three Supply units."
    assert on_map(game, "stalemate", "communist") == Counter({"10-4": 33, "supply unit": 3})
    # "UN: seven 16-3s, one 20-3, two 5-3s, one 2-3, seven 10-3s, nine 3-3s, three Supply units,
    #  one MST unit, one Amph unit, two NG units."
    assert on_map(game, "stalemate", "un") == Counter({
        "16-3": 7, "20-3": 1, "5-3": 2, "2-3": 1, "10-3": 7, "3-3": 9,
        "supply unit": 3, "MST": 1, "Amph": 1, "NG": 2})
    # "In the Replacement Boxes; Communist: nine 10-4s.  UN: none."
    assert in_boxes(game, "stalemate", "communist") == Counter({"10-4": 9})
    assert in_boxes(game, "stalemate", "un") == Counter()


def test_campaign_starts_with_the_invasion_setup(game):
    # Campaign Game: "start an Invasion Game in the normal manner"
    invasion = {(p.unit, p.location) for p in game.scenarios["invasion"].setup}
    assert {(p.unit, p.location) for p in game.scenarios["campaign"].setup} == invasion


def test_replacement_boxes_hold_the_right_nationalities(game):
    # Replacements: NK, South Korean and non-Korean UN boxes; Chinese never receive replacements
    for scenario in game.scenarios.values():
        for p in scenario.setup:
            if p.location == "box:nk-repl":
                assert game.units[p.unit].nationality == "nk"
            if p.location == "box:rok-repl":
                assert game.units[p.unit].nationality == "rok"


def test_on_map_positions_are_labelled_stand_ins_with_a_freedom(game):
    # The Initial Order of Battle maps are not in the text: every on-map hex is ours.
    for scenario in game.scenarios.values():
        for p in scenario.setup:
            if p.is_on_map:
                assert p.source.is_stand_in and "Order of Battle" in p.source.reason, p
                assert p.choice, p
            elif not p.is_marker:  # aid markers are labelled stand-ins of their own
                assert not p.source.is_stand_in, p  # the box contents are the book's


def test_setups_respect_two_units_per_hex(game):
    # Stacking: "Units may stack two high" (naval units not counted - the text does not say)
    for scenario in game.scenarios.values():
        per_hex = Counter(p.location for p in scenario.setup
                          if p.is_on_map and "naval" not in game.units[p.unit].flags)
        assert max(per_hex.values()) <= 2, scenario.id


# ----------------------------------------------------------------------------- charts


def test_invasion_un_reinforcements(game):
    # Invasion chart, UN "Reinf" row, turns 1-17 (R1 = a 5-3 into the Replacement Box)
    assert arrivals(game, "invasion", "un") == {
        2: Counter({"5-3": 1}),                                   # one 5-3
        3: Counter({"5-3": 1}),                                   # one 5-3
        4: Counter({"5-3": 1, "R1": 1, "supply unit": 1}),        # one 5-3, R1, supply unit
        5: Counter({"5-3": 1, "R1": 1}),                          # one 5-3, R1
        6: Counter({"5-3": 3, "R1": 1}),                          # three 5-3's, R1
        7: Counter({"6-3": 1}),                                   # one 6-3
        8: Counter({"5-3": 2, "R1": 1, "MST": 1}),                # two 5-3's, R1, MST
        9: Counter({"MST": 1}),                                   # MST
        10: Counter({"5-3": 2, "NG": 1, "Amph": 1, "MST": 1}),    # two 5-3's, NG, Amph MST
        11: Counter({"5-3": 3, "6-3": 2}),                        # three 5-3's*, two 6-3's
        12: Counter({"NG": 1, "supply unit": 1}),                 # NG, supply unit
        13: Counter({"5-3": 1, "2-3": 1}),                        # one 5-3, one 2-3
    }
    assert arrivals(game, "invasion", "communist") == {}  # only P1-1 codes (see the turns)
    # "*one of these 5-3's is the 187th Airborne regiment"
    assert any(a.unit == "us-r187" and a.turn == 11 for a in game.scenarios["invasion"].schedule)


def test_campaign_only_columns_of_the_invasion_chart(game):
    # turns 18-22 "FOR CAMPAIGN GAME ONLY": one 10-3 on 10/22 and 10/29, "(remove 2 MST's)" on 11/12
    un = arrivals(game, "campaign", "un")
    assert un[18] == Counter({"10-3": 1}) and un[19] == Counter({"10-3": 1})
    assert 20 not in un and 22 not in un
    removed = [a for a in game.scenarios["campaign"].schedule if a.action == "withdraw"]
    assert [(a.turn, label(game, a.unit)) for a in removed] == [(21, "MST"), (21, "MST")]


def test_intervention_reinforcements(game):
    # Intervention chart: 25-2 on turns 2, 3, 4, 5, 6 and 8 (at Antung)
    assert arrivals(game, "intervention", "communist") == {t: Counter({"25-2": 1}) for t in (2, 3, 4, 5, 6, 8)}
    # UN: NG turn 4, Supply unit turn 8; plus Special Game Rules (5): a 10-3 on the RR and a 5-3 on
    # the road automatically, and a second 10-3 by die roll (turn 1, or turn 2 on 4-6)
    assert arrivals(game, "intervention", "un") == {
        1: Counter({"10-3": 2, "5-3": 1}), 4: Counter({"NG": 1}), 8: Counter({"supply unit": 1})}


def test_stalemate_reinforcements(game):
    # Stalemate chart: 25-2 on turns 1, 2, 4, 5, 6, 7, 9, 11
    assert arrivals(game, "stalemate", "communist") == {
        t: Counter({"25-2": 1}) for t in (1, 2, 4, 5, 6, 7, 9, 11)}
    # UN: Supply unit turn 1, one 5-3 turns 4 and 12
    assert arrivals(game, "stalemate", "un") == {
        1: Counter({"supply unit": 1}), 4: Counter({"5-3": 1}), 12: Counter({"5-3": 1})}


def test_campaign_schedule_is_the_three_charts_in_sequence(game):
    # Campaign turn 23 = Intervention turn 1, turn 32 = Stalemate turn 1
    comm = arrivals(game, "campaign", "communist")
    assert {t - 22 for t in comm if 23 <= t <= 31} == {2, 3, 4, 5, 6, 8}
    assert {t - 31 for t in comm if t >= 32} == {1, 2, 4, 5, 6, 7, 9, 11}
    un = arrivals(game, "campaign", "un")
    assert un[26] == Counter({"NG": 1}) and un[30] == Counter({"supply unit": 1})
    assert un[32] == Counter({"supply unit": 1}) and un[35] == Counter({"5-3": 1}) and un[43] == Counter({"5-3": 1})


def test_invasion_chart_codes(game):
    # Invasion chart rows (our reading of the OCR; '*' on turn 3 read as blank, '2' on turn 5 as N2,
    # 'Na' on turns 16-17 as N3)
    assert column(game, "invasion", "comm_reinf") == ["P1-1"] * 17
    assert column(game, "invasion", "comm_repl") == [
        "", "", "", "N1", "N2", "N1", "", "N1", "", "N2", "", "N2", "N2", "N2", "N3", "N3", "N3"]
    assert column(game, "invasion", "un_repl") == [
        "", "", "S1", "S2", "S3, UN1", "S3", "S3, UN1", "S3"] + ["S3, UN1"] * 9
    campaign = game.scenarios["campaign"].turns
    assert [t.values["comm_repl"] for t in campaign[17:22]] == ["N3"] * 5
    assert [t.values["chart"] for t in campaign[17:22]] == ["campaign-only"] * 5


def test_intervention_and_stalemate_chart_codes(game):
    # Intervention chart: A1-1 every turn, 25-2 on 2-6 and 8; N3 and "S3, UN1" every turn
    assert column(game, "intervention", "comm_reinf") == [
        "A1-1", "A1-1, 25-2", "A1-1, 25-2", "A1-1, 25-2", "A1-1, 25-2", "A1-1, 25-2", "A1-1", "A1-1, 25-2", "A1-1"]
    assert column(game, "intervention", "comm_repl") == ["N3"] * 9
    assert column(game, "intervention", "un_repl") == ["S3, UN1"] * 9
    # Stalemate chart ('Na' on turns 1, 17, 21 and '23' on turn 10 read as N3)
    assert column(game, "stalemate", "comm_repl") == ["N3"] * 21
    assert column(game, "stalemate", "un_repl") == ["S3, UN1"] * 21
    assert [t for t, v in enumerate(column(game, "stalemate", "comm_reinf"), 1) if "25-2" in v] == [
        1, 2, 4, 5, 6, 7, 9, 11]
    ocr = game.scenarios["stalemate"].turns[9].values["ocr_note"]
    assert "'23'" in ocr


def test_arrival_places(game):
    # Reinforcement Notes: UN units appear in Pusan, R1 in the Replacement Box;
    # Intervention notes: 25-2 "starts at Antung"
    pusan, antung = feature_hex(game, "Pusan"), feature_hex(game, "Antung")
    for scenario in game.scenarios.values():
        for a in scenario.schedule:
            if a.action != "arrive":
                continue
            unit = game.units[a.unit]
            if unit.type == "army":
                assert a.location == antung
            elif a.source.text.startswith("Special Game Rules"):
                assert a.location in {"3401", "3001"}  # the RR / the road
            elif unit.side == "un":
                assert a.location in {pusan, "box:un-repl"}


# ----------------------------------------------------------------------------- tables


def test_movement_table(game):
    # Movement (L): United Nations 12 3 1 18a 3; South Korean 6 3 1 18a 3; Communists 8 4 2 8 4;
    # UN supply unit 2 1 1/2c 2 1; Communist supply 4 2 1 12b 1
    movement = game.tables["movement"]
    assert movement.columns == ("unit_type", "road", "clear", "rough", "RR", "basic")
    assert movement.cell("United Nations", "road") == "12"
    assert movement.cell("South Korean", "road") == "6"
    assert movement.cell("Communists", "clear") == "4"
    assert movement.cell("Communists", "RR") == "8"
    assert movement.cell("UN supply unit", "rough") == "1/2 c"
    assert movement.cell("Communist supply", "RR") == "12 b"
    assert movement.cell("South Korean", "RR") == "18 a"
    assert movement.source.text == "Movement (L)"


def test_terrain_effects_chart(game):
    tec = game.tables["tec"]
    assert [r["terrain"] for r in tec.rows] == [
        "Clear", "Rough Terrain", "Roads", "Railroad/road", "River", "Sea", "Inlet hex-side", "City"]
    assert tec.cell("Rough Terrain", "effect_on_defensive_combat") == "Combat Strength is doubled"
    assert tec.cell("River", "description") == "any hex which has two sides crossed by a river"
    assert tec.cell("City", "effect_on_movement") == "Treat as a railroad hex"


def test_naval_and_breakdown_tables(game):
    # Naval Units (A), as OCR'd: NG 120, MST 80, Amph 60; load cannot/80/30; unload cannot/60/30
    naval = game.tables["naval_movement"]
    assert [naval.cell("Basic allowance", c) for c in ("NG", "MST", "Amph")] == ["120", "80", "60"]
    assert [naval.cell("To unload troops", c) for c in ("NG", "MST", "Amph")] == ["cannot", "60", "30"]
    # Stacking & Unit Breakdown: one 25-2 = three 10-4's (Chinese only); one 16-3 = three 5-3's
    breakdown = game.tables["breakdown"]
    assert (breakdown.cell("25-2", "equals"), breakdown.cell("25-2", "component")) == ("3", "10-4")
    assert (breakdown.cell("16-3", "equals"), breakdown.cell("16-3", "component")) == ("3", "5-3")
    assert breakdown.cell("9-8", "component") == "3-8"
    assert len(breakdown.rows) == 6


def test_chart_codes_and_results(game):
    codes = game.tables["chart_codes"]
    assert codes.cell("P1-1", "place") == "Pyongyang"
    assert codes.cell("A1-1", "place") == "Antung-Sinuiju"
    assert codes.cell("R1", "place") == "box:un-repl"
    results = game.tables["combat_results"]
    assert [r["result"] for r in results.rows] == ["Dx", "D1", "D2", "D3", "E1", "E2", "A1", "A2", "A3", "Ax"]


def test_stand_in_crts_use_only_the_rulebook_results(game):
    # Combat (J): results Dx, D1-D3, E1-E2, A1-A3, Ax; the Pursuit table always retreats the defender
    allowed = {"Dx", "D1", "D2", "D3", "E1", "E2", "A1", "A2", "A3", "Ax"}
    for tid in ("crt_meeting", "crt_position", "crt_pursuit"):
        table = game.tables[tid]
        assert table.source.is_stand_in
        assert table.columns[0] == "die" and [r["die"] for r in table.rows] == ["1", "2", "3", "4", "5", "6"]
        for row in table.rows:
            for col in table.columns[1:]:
                result, *retreat = row[col].split()
                assert result in allowed, (tid, row, col)
                if tid == "crt_pursuit" and result != "Dx":
                    assert retreat and retreat[0].startswith("r"), (row, col)
                if tid != "crt_pursuit":
                    assert not retreat


def test_rule_parameters_from_the_prose(game):
    params = game.tables["rule_parameters"]
    assert params.cell("un_supply_range", "value") == "16"                # Supply (D): sixteen (16) MP
    assert params.cell("communist_supply_range", "value") == "2"          # Supply (C): within two hexes
    assert params.cell("un_supply_unit_return_delay", "value") == "6"     # Supply (D): sixth Game-Turn
    assert params.cell("air_supply_capacity", "value") == "6"             # Supply (G): six regiments
    assert params.cell("naval_gun_strength", "value") == "6"              # Naval Units (F)
    assert params.cell("southern_tip_passage_cost", "value") == "8"       # Naval Units (G)
    assert params.cell("stacking_limit", "value") == "2"                  # Stacking
    assert all(r["source"] for r in params.rows)


def test_twelve_what_if_situations(game):
    variants = game.tables["variants"]
    assert [r["situation"] for r in variants.rows] == [str(n) for n in range(1, 13)]
    # Other Games 5: "one additional 16-3 lands on both Turns 2 and 6 of the Intervention Game"
    assert "Turns 2 and 6" in variants.cell("5", "text")
    # Other Games 1: "eight 10-3s and six 3-3s"
    assert "eight 10-3s and six 3-3s" in variants.cell("1", "text")
    assert variants.cell("2", "source").startswith("stand-in")
    # Other Games 10 removes the 5-3s of Invasion turns 2 and 4: the chart has exactly one there
    un = arrivals(game, "invasion", "un")
    assert un[2]["5-3"] == 1 and un[4]["5-3"] == 1


# ----------------------------------------------------------------------------- victory and rules


def test_victory_conditions(game):
    inv = game.scenarios["invasion"].victory
    assert inv["levels"] == ["marginal", "tactical", "strategic"]
    assert inv["communist"]["strategic"]["places"] == ["Pusan", "Soul", "Pyongyang"]
    assert inv["un"]["marginal"]["kind"] == "hold_same_port_throughout"
    assert game.scenarios["intervention"].victory["communist"]["strategic"]["line"] == "parallel_37"
    assert game.scenarios["stalemate"].victory["communist"]["marginal"]["kind"] == "no_enemy_north_of"
    campaign = game.scenarios["campaign"].victory
    assert campaign["communist"]["strategic"]["kind"] == "no_enemy_on_map"
    assert len(campaign["un"]["marginal"]["conditions"]) == 2


def test_victory_places_are_named_on_the_map(game):
    korea = game.maps["korea"]

    def places(condition):
        yield from condition.get("places", [])
        for sub in condition.get("conditions", []):
            yield from places(sub)

    for scenario in game.scenarios.values():
        for side in ("un", "communist"):
            for level in scenario.victory["levels"]:
                for place in places(scenario.victory[side][level]):
                    assert korea.find_named(place), (scenario.id, side, level, place)


def test_special_rule_parameters(game):
    inv = game.scenarios["invasion"].special_rules
    assert inv["inchon_assault_turns"]["turns"] == [13, 14, 17]          # Naval Units (C)
    assert inv["communist_supply_rail_bonus"]["rail_multiplier"] == 12    # Movement (J)
    intervention = game.scenarios["intervention"].special_rules
    assert intervention["chinese_combat_shock"]["turns"] == [1, 2, 3]     # Special Game Rules (3)
    assert intervention["chinese_rough_movement"]["entire_rough_cost"] == 1  # (4)
    for scenario in game.scenarios.values():  # chart notes: no UN units appear if Pusan is Communist
        assert scenario.special_rules["no_un_arrivals_if_pusan_occupied"]["place"] == "Pusan"
    campaign = game.scenarios["campaign"].special_rules
    assert campaign["chinese_intervention"]["armies_total"] == 12        # Chinese Intervention
    assert campaign["partisans"]["within_hexes"] == 4                      # Partisans
    assert campaign["chinese_shock_effect"]["duration_turns"] == 3        # Chinese Shock Effect


def test_named_places_are_on_the_map(game):
    korea = game.maps["korea"]
    for name in ("Pusan", "Soul", "Pyongyang", "Antung", "Inchon", "Iwon", "Chonju", "Taegu", "Kwangju"):
        assert korea.find_named(name), name
    sources = {f.source.text for f in korea.features if f.name in ("Pusan", "Soul", "Pyongyang")}
    # our hexes (the rules print none), each still citing the rule that names the place
    assert all(s.startswith("stand-in: our hex for the place ") for s in sources), sources
    assert any("Supply (D)" in s for s in sources) and any("Victory Conditions" in s for s in sources)
    assert korea.source.is_stand_in  # the map is not in the rules text


def test_setups_stand_on_land_and_ships_at_sea_or_in_port(game):
    # TEC "Sea": no land units may enter; naval units move through sea hexes and call at ports
    korea = game.maps["korea"]
    for scenario in game.scenarios.values():
        for p in scenario.setup:
            if not p.is_on_map:
                continue
            hex = korea.grid.parse(p.location)
            if "naval" in game.units[p.unit].flags:
                assert korea.terrain_at(hex) == "sea" or korea.features_at(hex, "port"), (scenario.id, p)
            else:
                assert korea.terrain_at(hex) != "sea", (scenario.id, p)
        for a in scenario.schedule:
            if a.action == "arrive" and a.location[:1].isdigit():  # a hex, not box:...
                assert korea.terrain_at(korea.grid.parse(a.location)) != "sea", (scenario.id, a)


# ----------------------------------------------------------------------------- stand-ins


def test_every_stand_in_has_a_reason(game):
    assert game.stand_ins
    for s in game.stand_ins:
        assert s.reason and len(s.reason) > 10, s


def test_stand_in_listing_covers_the_missing_material(game):
    whats = " | ".join(s.what for s in game.stand_ins)
    for expected in ("table crt_meeting", "table crt_position", "table crt_pursuit", "map korea",
                     "rule invasion_rule_1", "rule chinese_intervention_trigger", "rule partisans_release"):
        assert expected in whats, expected


def test_a_published_crt_replaces_the_stand_in(tmp_path):
    copy = tmp_path / "spi"
    shutil.copytree(GAME_DIR, copy)
    published = "die,1-5,1-4,1-3,1-2,1-1,2-1,3-1,4-1,5-1,6-1\n" + "".join(
        f"{d},Ax,Ax,A3,A2,A1,E1,D1,D2,D3,Dx\n" for d in range(1, 7))
    (copy / "tables" / "crt_meeting.csv").write_text(published, encoding="utf-8")
    toml = copy / "tables.toml"
    text = toml.read_text(encoding="utf-8")
    start = text.index('id = "crt_meeting"')
    line_start = text.index("source = ", start)
    line_end = text.index("\n", line_start)
    toml.write_text(text[:line_start] + 'source = "Game map: Meeting Engagement CRT"' + text[line_end:],
                    encoding="utf-8")

    replaced = load_game_dir(copy)
    original = load_game("spi")
    assert replaced.tables["crt_meeting"].cell(1, "1-5") == "Ax"
    assert original.tables["crt_meeting"].cell(1, "1-5") != "Ax"
    assert not replaced.tables["crt_meeting"].source.is_stand_in
    assert not replaced.stand_ins_for("table crt_meeting")
    assert original.stand_ins_for("table crt_meeting")
    assert replaced.stand_ins_for("table crt_pursuit")  # the others stay stand-ins


def test_every_named_place_is_a_listed_stand_in(game):
    """The rules never print a hex number, so every hex of the map's features is our placement (issue #16)."""
    gm = game.maps["korea"]
    assert [f for f in gm.features if not f.source.is_stand_in] == []
    listed = {s.where for s in game.stand_ins}
    assert {f.where for f in gm.features} <= listed


@pytest.mark.parametrize("scenario_id", ["invasion", "campaign"])
def test_the_invasion_sets_up_the_communists_north_of_the_38th(game, scenario_id):
    """25 June 1950: every Communist unit starts north of the 38th parallel (the stand-in hexes too, e.g. nk-mc12)."""
    from adjudicator.rules.spi import board as sb

    gm = game.maps["korea"]
    line = sb.Line.of(gm, "parallel_38")
    south = [(p.unit, p.location) for p in game.scenarios[scenario_id].setup
             if p.is_on_map and game.units[p.unit].side == "communist" and line.is_south(gm.grid.parse(p.location))]
    assert south == []
