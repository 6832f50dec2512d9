"""Korean War Battles data (scenarios/data/kwb) against the rulebook.

Every expected number below is typed in from the Exclusive Rules
(shared/seeds/001_49babecfe3393900.txt) with its section in a comment - it is
not computed from the data.  Stand-ins are only checked for being labelled and
replaceable.
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from scenarios.loader import DATA_ROOT, check_game_dir, load_game, load_game_dir

GAME_DIR = DATA_ROOT / "kwb"


@pytest.fixture(scope="module")
def game():
    return load_game("kwb")


def unit_placements(game, scenario_id: str) -> list:
    """Setup lines that place units (not markers, which are `marker:<id>`)."""
    return [p for p in game.scenarios[scenario_id].setup if p.unit in game.units]


def setup_count(game, scenario_id: str, side: str) -> int:
    return sum(1 for p in unit_placements(game, scenario_id) if game.units[p.unit].side == side)


def arrivals_by_turn(game, scenario_id: str, side: str) -> dict[int, int]:
    scenario = game.scenarios[scenario_id]
    counts = Counter(a.turn for a in scenario.schedule if a.action == "arrive" and game.units[a.unit].side == side)
    return dict(counts)


def placed_at(game, scenario_id: str, unit: str) -> str:
    [placement] = [p for p in game.scenarios[scenario_id].setup if p.unit == unit]
    return placement.location


def support(game, scenario_id: str) -> list[tuple[int, int]]:
    return [(int(t.values["support_communist"]), int(t.values["support_un"])) for t in game.scenarios[scenario_id].turns]


# ----------------------------------------------------------------------------- loading


def test_data_loads_with_zero_problems():
    assert check_game_dir(GAME_DIR) == []


def test_three_scenarios_each_on_its_own_map(game):
    # 12.0 "There are three scenarios in this game, each one is played on a separate map"
    assert {s.id: s.maps for s in game.scenarios.values()} == {
        "pusan": ("pusan",), "seoul": ("seoul",), "changjin": ("changjin",)}


def test_scenarios_in_rulebook_order(game):
    # 12.1 Pusan Perimeter, 12.2 Battle for Seoul, 12.3 Changjin Reservoir
    assert [s.id for s in sorted(game.scenarios.values(), key=lambda s: s.order)] == ["pusan", "seoul", "changjin"]


def test_first_player_and_setup_order(game):
    # 4.1.1 Communist first in Pusan and Changjin, UN first in Seoul; 12.1.2, 12.22, 12.31 UN sets up first
    assert game.scenarios["pusan"].first_player == "communist"
    assert game.scenarios["changjin"].first_player == "communist"
    assert game.scenarios["seoul"].first_player == "un"
    assert {s.sets_up_first for s in game.scenarios.values()} == {"un"}


def test_game_length(game):
    # 12.1.3 end of Game Turn 21; 12.22 and 12.32 end of Game Turn 14
    assert game.scenarios["pusan"].length == 21
    assert game.scenarios["seoul"].length == 14
    assert game.scenarios["changjin"].length == 14
    assert game.scenarios["changjin"].turns[13].date == "10 Dec 1950"  # 12.32 "(10th December)"


def test_nationalities_and_sides(game):
    # 2.3: Communist = NK and PRC; UN = all other units (ROK, US, CW)
    assert {n.id: n.side for n in game.nationalities.values()} == {
        "nk": "communist", "prc": "communist", "rok": "un", "us": "un", "cw": "un"}
    assert all(n.source.text == "2.3" for n in game.nationalities.values())


# ----------------------------------------------------------------------------- counters


@pytest.mark.parametrize("unit, printed", [
    ("nk-1", "11-10-3"), ("nk-2", "10-10-3"), ("nk-6", "10-9-3"),   # 12.1.2 deployment chart
    ("nk-766", "4-4-4"), ("nk-109-tk", "3-3-6"), ("nk-83-mot", "3-4-8"), ("nk-sc-1", "0-2-3"),
    ("rok-cap", "7-9-3"), ("rok-8", "6-8-3"), ("rok-17", "3-4-4"), ("rok-police-3", "0-2-3"),
    ("us-5-1m", "7-7-4"), ("us-5-rct", "5-6-4"), ("us-mar-tk", "3-2-6"), ("us-cadre-x", "0-2-4"),
    ("us-24-hq", "0-2-4"), ("rok-2-hq", "0-2-3"),
    ("nk-31", "3-3-4"), ("nk-25", "4-5-4"), ("nk-78", "4-3-4"), ("nk-42-tk-2", "1-1-6"),   # 12.22
    ("nk-sc-seoul-1", "0-1-3"), ("rok-1km", "4-4-4"), ("us-31-7", "5-6-4"),
    ("prc-58", "12-10-3"), ("prc-20-hq", "0-2-3"), ("prc-sc-1", "0-2-3"), ("cw-41", "1-1-4"),  # 12.31, 12.3
])
def test_printed_full_values(game, unit, printed):
    assert game.units[unit].full.text == printed


@pytest.mark.parametrize("unit, printed", [
    ("nk-9", "5-4-3"),      # 12.1.2 chart turn 6 "1 x 5-4-3 Inf XX (9th, depleted)"
    ("us-19-24", "2-3-4"),  # 12.1.2 "3 x 2-3-4 Inf III (19th/24, ...)" set up "at the strength level shown"
    ("us-7-3", "2-3-4"),    # 12.3 chart turn 10 "1 x 2-3-4 Inf III (7th/3)"
])
def test_printed_values_on_the_depleted_side(game, unit, printed):
    assert game.units[unit].step("depleted").text == printed


def test_one_step_units(game):
    # 8.1.1 HQs are eliminated; 12.21 Scratch Units have "only one strength level"
    for uid in ("nk-1-hq", "us-1m-hq", "prc-26-hq", "nk-scratch-a-1", "nk-scratch-dummy-4", "prc-sc-3"):
        assert len(game.units[uid].steps) == 1, uid


def test_no_zoc_units(game):
    # 6.1.1 battalion or cadre-sized units, HQ units and Supply Centers have no ZOC
    for uid in ("us-89-tk", "us-cadre-x", "cw-41", "nk-1-hq", "nk-sc-2", "nk-scratch-b-2"):
        assert game.units[uid].has("no_zoc"), uid
    for uid in ("nk-1", "us-5-1m", "cw-27"):
        assert not game.units[uid].has("no_zoc"), uid


def test_generic_regiments_exist_for_each_breakdown_nationality(game):
    # 2.3.1 "unnumbered Chinese, NK, and ROK regiments"
    generic = Counter(u.nationality for u in game.units.values() if u.has("generic"))
    assert set(generic) == {"nk", "prc", "rok"}
    # 12.22 needs 3 + 1 + 1 random NK regiments
    assert generic["nk"] >= 5


def test_twelve_scratch_units(game):
    # 12.21 "all 12 Scratch Units"
    assert sum(1 for u in game.units.values() if u.has("scratch")) == 12


# ----------------------------------------------------------------------------- Pusan 12.1


def test_pusan_setup_counts(game):
    # 12.1.2 Communist: 2 HQ + 3 + 4 + 3 divisions + 766th + 109th + 83rd + 3 Supply Centers = 18
    assert setup_count(game, "pusan", "communist") == 18
    # US: 3 HQ + 9 regiments + 5/1M + Mar tank + 5th X + 9th/2 + cadre = 17; ROK: HQ + 5 div + 17th + 3 police = 10
    assert setup_count(game, "pusan", "un") == 27
    nat = Counter(game.units[p.unit].nationality for p in unit_placements(game, "pusan"))
    assert (nat["nk"], nat["us"], nat["rok"]) == (18, 17, 10)


def test_pusan_depleted_divisions_at_start(game):
    # 12.1.2 "Three ROK and four North Korean divisions must set up depleted"
    depleted = Counter(game.units[p.unit].nationality for p in unit_placements(game, "pusan")
                       if p.step == "depleted" and game.units[p.unit].has("divisional"))
    assert depleted == {"rok": 3, "nk": 4}


@pytest.mark.parametrize("unit, hex", [
    ("nk-1-hq", "2501"), ("nk-2-hq", "3610"), ("nk-6", "0303"), ("nk-12", "3615"), ("nk-15", "3002"),
    ("nk-2", "2501"), ("nk-3", "2104"), ("nk-4", "1203"), ("nk-5", "3220"), ("nk-1", "3701"),
    ("nk-8", "3610"), ("nk-13", "3603"), ("nk-766", "3418"), ("nk-109-tk", "3603"), ("nk-83-mot", "0105"),
    ("us-5-1c", "2205"), ("us-7-1c", "1506"), ("us-8-1c", "1706"), ("us-19-24", "1305"), ("us-21-24", "1105"),
    ("us-34-24", "0906"), ("us-24-25", "0506"), ("us-27-25", "0205"), ("us-35-25", "0706"),
    ("us-5-1m", "0509"), ("us-mar-tk", "0509"), ("us-5-rct", "0308"), ("us-9-2", "1111"), ("us-cadre-x", "0216"),
    ("rok-2-hq", "3110"), ("rok-cap", "3416"), ("rok-1", "2705"), ("rok-6", "3305"), ("rok-3", "3121"),
    ("rok-8", "3510"), ("rok-17", "1505"), ("rok-police-2", "0308"),
])
def test_pusan_printed_setup_hexes(game, unit, hex):
    assert placed_at(game, "pusan", unit) == hex  # 12.1.2 deployment chart


def test_pusan_supply_centers_on_distinct_supply_symbols(game):
    # 12.1.2 "any Supply-symbol hex, no more than 1 per hex"; 12.1.1 symbols
    symbols = {"0301", "2501", "3701", "3706", "3710", "3721"}
    hexes = [p.location for p in game.scenarios["pusan"].setup if p.unit.startswith("nk-sc")]
    assert len(hexes) == 3 and len(set(hexes)) == 3 and set(hexes) <= symbols


def test_pusan_us_hqs_with_or_next_to_a_component_regiment(game):
    # 12.1.2 "w/or next to any component III"
    grid = game.maps["pusan"].grid
    where = {p.unit: grid.parse(p.location) for p in unit_placements(game, "pusan")}
    for hq in ("us-1c-hq", "us-24-hq", "us-25-hq"):
        regiments = [u for u in where if game.units[u].parent == hq]
        assert len(regiments) == 3
        assert min(grid.distance(where[hq], where[r]) for r in regiments) <= 1


def test_pusan_reinforcements_per_turn(game):
    # 12.1.2 reinforcement chart: Communist T1 10th + Supply Center, T6 7th + 9th, T13 16th, T14 17th
    assert arrivals_by_turn(game, "pusan", "communist") == {1: 2, 6: 2, 13: 1, 14: 1}
    # UN T1 2nd HQ, 23rd/2, 89th; T2 three tanks; T6 72nd; T8 38th/2; T9 ROK 1st HQ; T13 CW 27th
    assert arrivals_by_turn(game, "pusan", "un") == {1: 3, 2: 3, 6: 1, 8: 1, 9: 1, 13: 1}


def test_pusan_entry_hexes(game):
    # 12.1.1 all UN reinforcements at 0216; chart: 10th at 2501, 7th at 0301, 9th at 1201, 17th at 3710
    pusan = game.scenarios["pusan"]
    entries = {a.unit: a.location for a in pusan.schedule if a.action == "arrive"}
    assert {entries[u] for u in entries if game.units[u].side == "un"} == {"0216"}
    assert (entries["nk-10"], entries["nk-7"], entries["nk-9"], entries["nk-16-tk"], entries["nk-17-tk"]) == (
        "2501", "0301", "1201", "2501", "3710")
    assert [a.step for a in pusan.schedule if a.unit == "nk-9"] == ["depleted"]  # "(9th, depleted)"


def test_pusan_withdrawals(game):
    # chart: turn 16 withdraw 5th/1M (+3 markers), turn 20 withdraw ROK 17th; 12.1.1 says turn 16
    pusan = game.scenarios["pusan"]
    assert [a.unit for a in pusan.withdrawals_on(16)] == ["us-5-1m"]
    assert [a.unit for a in pusan.withdrawals_on(20)] == ["rok-17"]
    rule = pusan.special_rules["withdrawal"]
    assert rule["turn"] == 16 and rule["support_fire_markers"] == 3
    assert rule["overdue_vp_per_turn"] == {"us-5-1m": 3, "rok-17": 2}  # 12.1.3
    assert rule["due_turn_alternative"] == {"rok-17": 16}


def test_pusan_support_fire_per_turn(game):
    # 12.1.2 chart "Support Fire (Com / UN)", turns 1-21
    assert support(game, "pusan") == [
        (3, 6), (3, 5), (4, 5), (6, 6), (6, 6), (5, 5), (5, 5), (4, 5), (4, 5), (3, 5), (4, 5),
        (5, 6), (5, 6), (6, 6), (6, 6), (4, 5), (4, 4), (3, 4), (3, 4), (3, 4), (3, 4)]


def test_pusan_special_rules(game):
    rules = game.scenarios["pusan"].special_rules
    assert rules["airfields"]["hexes"] == ["2221", "0316"]  # 12.1.1 Yonil Airfield, northern hex of Pusan
    assert rules["un_supply_shortage"]["ends_if"] == "roll < turn"  # 12.1.1
    assert rules["un_supply_shortage"]["max_markers_per_combat_during"] == 1
    assert rules["communist_supply_shortage"]["breakdown_on"] == [6]  # 12.1.1 'If he rolls a "6,"'
    assert rules["setup_options"]["breakdown_others_within_hexes"] == 2  # 12.1.2 "within 2 hexes"
    assert game.scenarios["pusan"].supply_sources == {
        "un": ["0216"], "communist": ["0301", "2501", "3701", "3706", "3710", "3721"]}  # 12.1.1


def test_pusan_victory_schedule(game):
    victory = game.scenarios["pusan"].victory
    # 12.1.3 Communist: 2, 5, 10 (each), 25, 3 per turn, 2 per turn; UN: 1, 2
    assert [e["points"] for e in victory["communist"]] == [2, 5, 10, 25, 3, 2]
    assert [e["points"] for e in victory["un"]] == [1, 2]
    assert victory["communist"][2]["places"] == ["Taegu", "Masan"]
    assert victory["levels_table"] == "victory_levels"


# ----------------------------------------------------------------------------- Seoul 12.2


def test_seoul_setup_counts(game):
    # 12.22: 3 random regiments + 31st + 107th + 226th + 3 x 42nd tanks + 12 scratch + 3 Supply Centers = 24
    assert setup_count(game, "seoul", "communist") == 24
    # "2 x 7-7-4 US Inf III (1st/1M, 5th/1M) | 0109 0209"
    assert setup_count(game, "seoul", "un") == 2
    assert placed_at(game, "seoul", "us-1-1m") == "0109" and placed_at(game, "seoul", "us-5-1m") == "0209"
    assert placed_at(game, "seoul", "nk-107") == "0805" and placed_at(game, "seoul", "nk-226") == "0208"
    assert sorted(placed_at(game, "seoul", f"nk-sc-seoul-{n}") for n in (1, 2, 3)) == ["1107", "1211", "1406"]


def test_seoul_scratch_units_start_in_the_unseen_pool(game):
    # 12.21 "He selects them randomly and may not peek at them": all twelve start in a pool nobody sees
    # into, and "no more than one to a hex and not adjacent to another scratch unit" is the player's
    # placement rule, recorded with each of them.
    scratch = [p for p in unit_placements(game, "seoul") if game.units[p.unit].has("scratch")]
    assert len(scratch) == 12
    assert {p.location for p in scratch} == {"box:scratch-units"}
    assert game.boxes["scratch-units"].draw == "unseen"
    assert all("not adjacent to another Scratch Unit" in p.choice for p in scratch)


def test_seoul_reinforcements_per_turn(game):
    # 12.22 chart: Communist T5 random regiment + 25th, T7 random regiment, T8 78th
    assert arrivals_by_turn(game, "seoul", "communist") == {5: 2, 7: 1, 8: 1}
    # UN T1-T4 two each, T6 two, T13 17th/7 (the 187th is conditional, 12.21)
    assert arrivals_by_turn(game, "seoul", "un") == {1: 2, 2: 2, 3: 2, 4: 2, 6: 2, 13: 1}
    entries = {a.unit: a.location for a in game.scenarios["seoul"].schedule}
    assert (entries["nk-25"], entries["nk-78"], entries["nk-reg-4"]) == ("1701", "0701", "1412")
    assert {entries[u] for u in entries if game.units[u].side == "un"} == {"0109"}


def test_seoul_support_fire_per_turn(game):
    # 12.22 chart "Support Fire (Com/UN)", turns 1-14
    assert support(game, "seoul") == [
        (0, 8), (1, 8), (2, 8), (3, 8), (4, 8), (3, 7), (3, 7), (4, 7), (3, 6), (2, 6), (2, 6), (2, 6), (2, 6), (2, 6)]


def test_seoul_special_rules_and_victory(game):
    seoul = game.scenarios["seoul"]
    assert seoul.supply_sources["communist"] == ["0101", "0701", "1412", "1701"]  # 12.21
    assert seoul.special_rules["airborne_187th"]["condition_hex"] == "0805"  # 12.21 Kimpo
    assert seoul.special_rules["han_river"]["communist_may_attack_across"] is False
    assert seoul.special_rules["scratch_units"]["count"] == 12
    assert seoul.special_rules["replacements"]["rok_may_receive"] is False
    # 12.22 VICTORY Communist 2, 5, 5 per city hex, 20; UN 1 and (14 - T) x 3, e.g. turn 10 -> 12
    assert [e["points"] for e in seoul.victory["communist"]] == [2, 5, 5, 20]
    assert seoul.victory["communist"][3]["after_turn"] == 5
    assert seoul.victory["un"][0]["points"] == 1
    clearing = seoul.victory["un"][1]
    assert (clearing["formula_turns"] - 10) * clearing["formula_multiplier"] == 12
    assert clearing["example"] == {"turn": 10, "points": 12}


# ----------------------------------------------------------------------------- Changjin 12.3


def test_changjin_setup_counts(game):
    # 12.31: 2 HQ + 4 + 2 divisions + 2 Supply Centers = 10; UN: HQ + 3 Marine regiments + 31st/7 + cadre = 6
    assert setup_count(game, "changjin", "communist") == 10
    assert setup_count(game, "changjin", "un") == 6
    assert {game.units[p.unit].nationality for p in unit_placements(game, "changjin")
            if game.units[p.unit].side == "communist"} == {"prc"}  # "all Communist units treated as Chinese"
    for unit, hex in (("us-1-1m", "0907"), ("us-5-1m", "0710"), ("us-7-1m", "0709"), ("us-31-7", "0706"),
                      ("us-cadre-x", "1903"), ("prc-sc-1", "0107"), ("prc-sc-2", "0612")):
        assert placed_at(game, "changjin", unit) == hex


def test_changjin_divisions_within_two_hexes_of_their_army_hq(game):
    # 12.31 HQs at "choice of 0407, 0612, or 1110"; divisions "within two hexes of 20th/27th XXX HQ"
    grid = game.maps["changjin"].grid
    where = {p.unit: grid.parse(p.location) for p in unit_placements(game, "changjin")}
    assert {grid.label(where["prc-20-hq"]), grid.label(where["prc-27-hq"])} <= {"0407", "0612", "1110"}
    groups = {"prc-20-hq": ["prc-58", "prc-59", "prc-60", "prc-89"], "prc-27-hq": ["prc-79", "prc-80"]}
    for hq, divisions in groups.items():
        for division in divisions:
            assert grid.distance(where[hq], where[division]) <= 2, division
    division_hexes = [where[d] for ds in groups.values() for d in ds]
    assert len(set(division_hexes)) == 6  # 5.3.1 one division per hex


def test_changjin_reinforcements_per_turn(game):
    # 12.3 chart: Communist T7 26th HQ + 76th + 77th + Supply Center, T12 81st + 94th (optional ones not charted)
    assert arrivals_by_turn(game, "changjin", "communist") == {7: 4, 12: 2}
    # UN T1 41st + Mar tank, T9 17th/7 (at 1301), T10 7th/3 + 65th/3
    assert arrivals_by_turn(game, "changjin", "un") == {1: 2, 9: 1, 10: 2}
    entries = {a.unit: a.location for a in game.scenarios["changjin"].schedule}
    assert entries["us-17-7"] == "1301" and entries["us-65-3"] == "1903" and entries["prc-81"] == "0107"


def test_changjin_support_fire_per_turn(game):
    # 12.3 chart "Support Fires (Com/UN)", turns 1-14
    assert support(game, "changjin") == [
        (4, 3), (4, 4), (4, 5), (4, 5), (4, 6), (4, 6), (4, 6), (3, 6), (3, 7), (3, 7), (3, 7), (3, 7), (3, 7), (3, 7)]


def test_changjin_special_rules_and_victory(game):
    changjin = game.scenarios["changjin"]
    rules = changjin.special_rules
    assert rules["surprise"]["turns"] == [1, 2]  # "For the first two game-turns"
    assert rules["unit_withdrawal"]["extra_mp"] == 1  # "expend 1 additional MP"
    optional = rules["optional_reinforcements"]
    assert optional["available_from_turn"] == 7  # "At the beginning of Game Turn 7"
    assert len(optional["communist"]) == 2 and len(optional["un"]) == 5  # "two ... divisions", "five units"
    assert optional["un_support_bonus"] == {"unit": "us-3-hq", "support_un_per_turn": 1}
    assert rules["air_supply"]["max_on_map"] == 2
    assert changjin.supply_sources == {"un": ["1902", "1903"], "communist": ["0107", "0612"]}
    # 12.32 Communist 2, 5, 3; UN 1, 2, 3
    assert [e["points"] for e in changjin.victory["communist"]] == [2, 5, 3]
    assert [e["points"] for e in changjin.victory["un"]] == [1, 2, 3]


def test_support_fire_pools_and_scenario_markers(game):
    # 8.1 markers drawn at random from each side's pool: the whole mix of markers.csv starts there
    for scenario in game.scenarios.values():
        placed = Counter(p.unit.removeprefix("marker:") for p in scenario.setup if p.unit.startswith("marker:sf-"))
        assert placed == {m.id: m.count for m in game.markers.values() if m.kind == "support_fire"}
        assert {p.location for p in scenario.setup if p.unit.startswith("marker:sf-com")} == {
            "box:support-fire-pool-communist"}
    changjin = game.scenarios["changjin"]
    assert sum(1 for p in changjin.setup if p.unit == "marker:air-supply") == 2  # 12.3 "only two"
    assert any(p.unit == "marker:un-supply-shortage" for p in game.scenarios["pusan"].setup)  # 12.1.1


# ----------------------------------------------------------------------------- maps


@pytest.mark.parametrize("map_id, hex, kind, name", [
    ("pusan", "0216", "port", "Pusan"),            # 12.1.1
    ("pusan", "2221", "airfield", "Yonil Airfield"),  # 12.1.1
    ("pusan", "0308", "city", "Masan"),            # 12.1.2
    ("pusan", "3721", "supply_symbol", ""),        # 12.1.1
    ("seoul", "0805", "airfield", "Kimpo Airfield"),  # 12.21
    ("seoul", "0109", "port", "Inchon"),           # 12.21
    ("seoul", "1412", "supply_symbol", ""),        # 12.21
    ("changjin", "0907", "town", "Hagaru-ri"),     # 12.31
    ("changjin", "1903", "supply_source", "Oro-ri"),  # 12.3
])
def test_named_hexes_are_features(game, map_id, hex, kind, name):
    game_map = game.maps[map_id]
    found = game_map.features_at(game_map.grid.parse(hex), kind)
    assert [f.name for f in found] == [name]


def test_maps_are_labelled_stand_ins_with_the_book_terrain_legend(game):
    # the book has no map (1.0): terrain is provisional or derived from geography, never the publisher's
    for game_map in game.maps.values():
        assert game_map.source.is_stand_in
        # terrain types the Exclusive Rules name: Rough (5.2.3), City (6.1.2), water (6.1.2)
        assert {"clear", "rough", "city"} <= set(game_map.terrain_types)
        assert set(game_map.terrain.values()) <= set(game_map.terrain_types)


# ----------------------------------------------------------------------------- tables


def test_victory_level_scale_as_printed(game):
    # 11.0 "> 31 Decisive Communist Victory / 21 30 Tactical / 10 20 Pyrrhic / 0 10 Tactical UN / < 0 Decisive UN"
    table = game.tables["victory_levels"]
    assert table.source.text == "11.0"
    assert [r["printed"] for r in table.rows] == ["> 31", "21 30", "10 20", "0 10", "< 0"]
    assert table.cell(3, "level") == "Pyrrhic Communist victory"
    assert table.cell(5, "level") == "Decisive UN Victory"

    def bands(d: int) -> list[str]:
        return [r["band"] for r in table.rows
                if (r["low"] == "" or int(r["low"]) <= d) and (r["high"] == "" or d <= int(r["high"]))]

    assert bands(31) == []  # the printed gap
    assert bands(10) == ["3", "4"]  # the printed overlap
    assert bands(40) == ["1"] and bands(-3) == ["5"]


def test_scale_table(game):
    # 2.4: 5 km Pusan, 3 km Seoul, 4 km Changjin
    scale = game.tables["scale"]
    assert [scale.cell(s, "km_per_hex") for s in ("pusan", "seoul", "changjin")] == ["5", "3", "4"]


def test_rule_parameters(game):
    params = game.tables["rule_parameters"]
    assert params.cell("communist_supply_to_center_max_hexes", "value") == "3"  # 9.0
    assert params.cell("loc_to_hq_max_hexes", "value") == "3"  # 8.1.1
    assert params.cell("intensive_attack_multiplier", "value") == "2"  # 7.1
    assert params.cell("breakdown_regiments", "value") == "3"  # 5.3.2
    assert all(r["source"] for r in params.rows)


def test_stand_in_tables_are_labelled(game):
    for table_id in ("crt", "crt_results", "terrain_effects", "support_fire_use", "bombardment",
                     "counter_battery", "sequence_of_play"):
        assert game.tables[table_id].source.is_stand_in, table_id
    crt = game.tables["crt"]
    assert crt.columns == ("die", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1")
    assert [r["die"] for r in crt.rows] == ["1", "2", "3", "4", "5", "6"]  # one d6 (2.0)
    codes = {r["code"] for r in game.tables["crt_results"].rows}
    assert {crt.cell(d, c) for d in range(1, 7) for c in crt.columns[1:]} <= codes


# ----------------------------------------------------------------------------- stand-ins


def test_every_stand_in_carries_a_reason(game):
    assert game.stand_ins
    for stand_in in game.stand_ins:
        assert len(stand_in.reason) > 10, stand_in


def test_printed_data_is_not_labelled_stand_in(game):
    for uid in ("nk-1-hq", "us-24-hq", "nk-sc-1", "prc-sc-1"):
        assert not game.units[uid].source.is_stand_in, uid
    assert not game.tables["victory_levels"].source.is_stand_in
    for scenario in game.scenarios.values():
        assert not scenario.source.is_stand_in


def test_stand_in_categories_are_all_listed(game):
    whats = " ".join(s.what for s in game.stand_ins)
    for expected in ("table crt", "table terrain_effects", "map pusan", "map seoul", "map changjin",
                     "unit nk-6", "unit us-187", "unit nk-scratch-dummy", "marker sf-un-2",
                     "setup of rok-police-3"):
        assert expected in whats, expected


def test_replacing_a_stand_in_table_with_the_published_one(tmp_path):
    target = tmp_path / "kwb"
    shutil.copytree(GAME_DIR, target)
    published = "die,1:2,1:1,2:1,3:1\n1,AE,AR,DR,DE\n2,AE,AR,DR,DE\n3,AR,EX,DR,DE\n4,AR,DR,DE,DE\n5,EX,DR,DE,DE\n6,DR,DE,DE,DE\n"
    (target / "tables" / "crt.csv").write_text(published)
    with open(target / "tables" / "crt_results.csv", "a") as codes:  # AE: a code the stand-in never used
        codes.write("AE,attacker eliminated,all,0,0,0\n")
    toml = target / "tables.toml"
    text = toml.read_text()
    old = 'source = "stand-in: the combat results table is in the Standard Rules, which are not in the book, see 1.0"'
    assert old in text
    toml.write_text(text.replace(old, 'source = "Standard Rules 7.4"', 1))

    replaced = load_game_dir(target)
    crt = replaced.tables["crt"]
    assert crt.source.text == "Standard Rules 7.4"
    assert crt.columns == ("die", "1:2", "1:1", "2:1", "3:1")
    assert crt.cell(6, "3:1") == "DE"
    assert not [s for s in replaced.stand_ins if s.what == "table crt"]
    assert [s for s in load_game_dir(GAME_DIR).stand_ins if s.what == "table crt"]


@pytest.mark.parametrize("scenario_id", ["pusan", "seoul", "changjin"])
def test_a_unit_set_up_at_a_named_place_stands_in_a_hex_of_that_name(scenario_id):
    """12.x setup charts place units by name ("Seoul (any urban hex)", "Sosa (0708)"): where the map knows the
    name, the setup hex must be one of its hexes (issue #16: nk-reg-1 stood on 1304, outside Seoul)."""
    game = load_game("kwb")
    scenario = game.scenarios[scenario_id]
    wrong = []
    for p in scenario.setup:
        if not p.is_on_map or not p.note:
            continue
        for map_id in scenario.maps:
            gm = game.maps[map_id]
            named = {gm.grid.label(h) for h in gm.find_named(p.note)}
            if named and p.location.partition("@")[0] not in named:
                wrong.append((p.unit, p.location, p.note, sorted(named), p.where))
    assert wrong == []
