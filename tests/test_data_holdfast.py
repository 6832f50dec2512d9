"""HoldFast Korea data (scenarios/data/holdfast) against the rulebook.

Every expected number below is taken from the rulebook text
(shared/seeds/003_de6244cf67d38a46.txt), with its section in a comment, not
computed from the data.  Stand-ins are only checked for being labelled.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scenarios.loader import DATA_ROOT, check_game_dir, load_game, load_game_dir

GAME_DIR = DATA_ROOT / "holdfast"


@pytest.fixture(scope="module")
def game():
    return load_game("holdfast")


@pytest.fixture(scope="module")
def campaign(game):
    return game.scenarios["campaign"]


def turn_dated(scenario, date: str) -> int:
    matches = [t.number for t in scenario.turns if t.date == date]
    assert len(matches) == 1, f"no single turn dated {date}"
    return matches[0]


def sp(unit, step_name: str = "") -> int:
    step = unit.step(step_name) if step_name else unit.full
    return int(step.values["sp"])


# ----------------------------------------------------------------------------- loading


def test_data_loads_with_zero_problems():
    assert check_game_dir(GAME_DIR) == []


def test_one_scenario_on_the_korea_map(game):
    assert set(game.scenarios) == {"campaign"}
    assert game.scenarios["campaign"].maps == ("korea",)


def test_sides_and_sequence(game, campaign):
    assert set(game.sides) == {"communist", "un"}
    # 5: the Communist player's steps (5-8) come before the UN player's (9-12).
    assert campaign.first_player == "communist"
    # 13: step 1 is the UN player's, step 3 the Communist player's.
    assert campaign.sets_up_first == "un"
    assert len(game.phases) == 12  # 5: twelve numbered steps


# ----------------------------------------------------------------------------- blocks


def test_block_counts_per_army(game):
    by_type: dict[str, list] = {}
    for unit in game.units.values():
        if not unit.has("reduced_block"):
            by_type.setdefault(unit.type, []).append(unit)
    assert len(by_type["nkpa-infantry"]) == 10  # 13.3: ten NKPA blocks
    assert len(by_type["rok-infantry"]) == 10  # 13.1: five + five ROK blocks
    assert len(by_type["cpa-infantry"]) == 9  # 11: "the nine Chinese units"
    assert len(by_type["us-marines"]) == 1  # 3: one Marine unit


def test_max_sp_of_each_block_matches_the_unit_chart(game):
    # 4 Combat Chart, MAX SP: CPA 8, NKPA 3, US Marines 6, UN 4, ROK 3.
    expected = {"cpa-infantry": 8, "nkpa-infantry": 3, "us-marines": 6, "un-infantry": 4, "rok-infantry": 3}
    for unit in game.units.values():
        if not unit.has("reduced_block"):
            assert sp(unit) == expected[unit.type], unit.id


def test_chinese_armies_are_an_8_block_and_a_4_block(game):
    # 3: the 8 SP block is replaced by the 4 SP block below 5 SP.
    full = [u for u in game.units.values() if u.type == "cpa-infantry" and not u.has("reduced_block")]
    for army in full:
        low = [u for u in game.units.values() if u.parent == army.id]
        assert len(low) == 1 and low[0].has("reduced_block")
        assert [s.values["sp"] for s in army.steps] == [8, 7, 6, 5]
        assert [s.values["sp"] for s in low[0].steps] == [4, 3, 2, 1]


def test_marines_are_a_6_block_and_a_2_1_block(game):
    # 3: the 6 SP block is replaced by the 2/1 SP block below 3 SP.
    marines = game.units["usmc-1"]
    spare = [u for u in game.units.values() if u.parent == "usmc-1"]
    assert [s.values["sp"] for s in marines.steps] == [6, 5, 4, 3]
    assert len(spare) == 1 and [s.values["sp"] for s in spare[0].steps] == [2, 1]


def test_block_colours_red_communist_blue_un(game):
    # 3: Communist labels on red blocks, UN labels on blue blocks.
    for nat in game.nationalities.values():
        red, green, blue = (int(nat.background[i:i + 2], 16) for i in (1, 3, 5))
        if nat.side == "communist":
            assert red > blue, nat.id
        else:
            assert blue > red, nat.id


def test_book_named_units_are_not_stand_ins(game):
    # Named in the book: 1st NKPA Div (8, 10), Chinese 50th Army (10), 2nd Div (8, 10),
    # UN 7th Div and 1st Div Marines (8, Amphibious Assault example).
    for uid in ("nkpa-1", "cpa-50", "un-2", "un-7", "usmc-1"):
        assert not game.units[uid].source.is_stand_in, uid


# ----------------------------------------------------------------------------- setup (13)


def test_setup_counts_per_side(game, campaign):
    on_map = [p for p in campaign.setup if p.is_on_map]
    per_side: dict[str, int] = {}
    for p in on_map:
        side = game.units[p.unit].side
        per_side[side] = per_side.get(side, 0) + 1
    assert per_side == {"un": 10, "communist": 10}  # 13.1 five + five ROK; 13.3 ten NKPA


def test_rok_start_five_at_1_sp_and_five_at_2_sp(game, campaign):
    # 13.1: "five 1 SP ROK units and five 2 SP ROK units"
    units = [p for p in campaign.setup if not p.is_marker]
    steps = sorted(sp(game.units[p.unit], p.step) for p in units if game.units[p.unit].type == "rok-infantry")
    assert steps == [1] * 5 + [2] * 5


def test_nkpa_start_at_3_sp(game, campaign):
    # 13.3: "ten NKPA blocks at 3 SP"
    nkpa = [p for p in campaign.setup if not p.is_marker and game.units[p.unit].type == "nkpa-infantry"]
    assert len(nkpa) == 10
    assert all(sp(game.units[p.unit], p.step) == 3 for p in nkpa)


def test_setup_hexes_are_the_sides_dots(game, campaign):
    # 13.1 blue dots (UN), 13.3 red dots (Communist): one block per dot.
    korea = game.maps["korea"]
    hexes = []
    for p in campaign.setup:
        if not p.is_on_map:
            continue
        hex = korea.grid.parse(p.location)
        hexes.append(hex)
        dots = korea.features_at(hex, "setup_dot")
        assert [d.side for d in dots] == [game.units[p.unit].side], p.unit
    assert len(hexes) == len(set(hexes))


def test_spare_blocks_wait_off_map(game, campaign):
    spares = {p.unit: p.location for p in campaign.setup if not p.is_on_map and not p.is_marker}
    assert set(spares) == {u.id for u in game.units.values() if u.has("reduced_block")}


# ----------------------------------------------------------------------------- reinforcements


def test_marines_and_7th_div_arrive_on_the_1_september_1950_turn(game, campaign):
    # Amphibious Assault example: on the September 1, 1950 turn "The UN player placed the 1st Div Marine unit and the
    # 7th Div UN unit in the FEC box during the reinforcement phase".  8: they enter at 6 and 4 SP.
    turn = turn_dated(campaign, "1 Sep 1950")
    from_book = [a for a in campaign.arrivals_on(turn) if not a.source.is_stand_in]
    assert sorted(a.unit for a in from_book) == ["un-7", "usmc-1"]
    assert all(a.location == "box:fec" for a in from_book)
    assert {a.unit: sp(game.units[a.unit], a.step) for a in from_book} == {"usmc-1": 6, "un-7": 4}


def test_other_un_reinforcements_enter_the_fec_box_at_1_sp(game, campaign):
    # 8: "All UN reinforcements except the 1st Div Marines and UN 7th Div enter at 1 SP" into the FEC box.
    for a in campaign.schedule:
        unit = game.units[a.unit]
        if unit.side == "un" and a.unit not in ("usmc-1", "un-7"):
            assert a.location == "box:fec" and sp(unit, a.step) == 1, a.unit


def test_nine_chinese_armies_arrive_at_8_sp_on_the_1_january_turn_at_the_latest(game, campaign):
    # 11: automatic intervention on the January 1 turn; nine Chinese units at 8 SP in the yellow hexes.
    turn = turn_dated(campaign, "1 Jan 1951")
    cpa = [a for a in campaign.arrivals_on(turn) if game.units[a.unit].type == "cpa-infantry"]
    assert len(cpa) == 9
    assert all(sp(game.units[a.unit], a.step) == 8 for a in cpa)
    korea = game.maps["korea"]
    entry = set(korea.hexes_with("entry"))
    hexes = [korea.grid.parse(a.location) for a in cpa]
    assert set(hexes) <= entry and len(set(hexes)) == 9
    assert not [a for a in campaign.schedule if game.units[a.unit].type == "cpa-infantry" and a.turn != turn]


def test_every_unit_is_placed_or_scheduled_once(game, campaign):
    placed = [p.unit for p in campaign.setup if not p.is_marker] + [a.unit for a in campaign.schedule
                                                                  if a.action == "arrive"]
    assert sorted(placed) == sorted(game.units)


# ----------------------------------------------------------------------------- per-turn values


def test_un_resource_points(campaign):
    # 6: 6 RP on turn 1, +2 per turn, to a maximum of 16.
    un_rp = [int(t.values["un_rp"]) for t in campaign.turns]
    assert un_rp[:6] == [6, 8, 10, 12, 14, 16]
    assert set(un_rp[5:]) == {16}
    # Amphibious Assault example: "It is the September 1, 1950 game turn. The UN player has 16 RP".
    assert campaign.turns[turn_dated(campaign, "1 Sep 1950") - 1].values["un_rp"] == "16"


def test_communist_resource_points(campaign):
    # 6 / 13.5: 10 RP per turn until Chinese intervention, 15 from then on (11: automatic on the January 1 turn).
    jan = turn_dated(campaign, "1 Jan 1951")
    assert campaign.turns[0].values["communist_rp"] == "10"  # 13.5
    assert {t.values["communist_rp"] for t in campaign.turns if t.number < jan} == {"10"}
    assert {t.values["communist_rp"] for t in campaign.turns if t.number >= jan} == {"15"}


def test_support_by_turn(campaign):
    # 4: Communist air 2 on turn 1 only; UN air 2 from turn 2; UN armor 2 from turn 4; UN naval 2 from turn 2.
    for t in campaign.turns:
        assert t.values["communist_air"] == ("2" if t.number == 1 else "0")
        assert t.values["un_air"] == ("2" if t.number >= 2 else "0")
        assert t.values["un_armor"] == ("2" if t.number >= 4 else "0")
        assert t.values["un_naval"] == ("2" if t.number >= 2 else "0")


def test_turn_1_weather_is_clear(game, campaign):
    # 13.6: "The weather is clear on turn 1."
    assert campaign.turns[0].values["weather"] == "clear"
    weather = game.tables["weather"]
    for t in campaign.turns:
        assert t.values["weather"] == "clear" or weather.row(t.values["weather"])


def test_turns_are_half_months(campaign):
    # 11 example: the 1 October, 15 October, November 1 and November 15 turns follow each other.
    dates = [t.date for t in campaign.turns]
    i = dates.index("1 Oct 1950")
    assert dates[i:i + 4] == ["1 Oct 1950", "15 Oct 1950", "1 Nov 1950", "15 Nov 1950"]


# ----------------------------------------------------------------------------- tables against the book


def test_unit_chart_cells(game):
    chart = game.tables["unit_chart"]
    # 4 Combat Chart: MAX SP, DICE ROLLED IN COMBAT, TARGET HIT #, MP
    printed = {
        "cpa-infantry": ("8", "3", "5", "6"),
        "nkpa-infantry": ("3", "3", "5", "6"),
        "support-communist": ("-", "2", "-", "-"),
        "us-marines": ("6", "5", "6", "6"),
        "un-infantry": ("4", "4", "5", "6"),
        "rok-infantry": ("3", "2", "5", "6"),
        "support-un": ("-", "2", "-", "-"),
    }
    for key, values in printed.items():
        row = chart.row(key)
        assert (row["max_sp"], row["dice_rolled_in_combat"], row["target_hit_number"], row["mp"]) == values, key
    for unit_type in game.unit_types:
        assert chart.row(unit_type)


def test_chinese_intervention_chart(game):
    chart = game.tables["chinese_intervention"]
    # 11 chart: 1 -> 6, 2 -> 5-6, 3 -> 4-6, 4 -> 3-6, 5+ -> 2-6
    assert [(r["turn_after_crossing"], r["die_range_needed"]) for r in chart.rows] == [
        ("1", "6"), ("2", "5-6"), ("3", "4-6"), ("4", "3-6"), ("5+", "2-6")]
    # 11 example: rolls 5, 2, 4 on the 1st, 2nd, 3rd turn after crossing: only the 4 brings the Chinese in.
    assert [roll >= int(chart.cell(n, "min_die")) for n, roll in ((1, 5), (2, 2), (3, 4))] == [False, False, True]


def test_rp_costs(game):
    costs = game.tables["rp_costs"]
    # 6 RP table; 9.1 naval transfer 2 (Pusan 1), naval assault 3; 8 FEC to Pusan 1.
    expected = {"replace_sp": 1, "replace_marine_sp": 3, "replace_eliminated_block": 2, "activate_movement": 1,
                "activate_combat": 1, "naval_transfer": 2, "naval_transfer_pusan": 1, "naval_assault": 3,
                "fec_to_pusan": 1}
    for use, rp in expected.items():
        assert int(costs.cell(use, "rp")) == rp, use
    assert costs.cell("naval_transfer_assault", "cost_as_printed") == "2 RP /3 if naval assault"
    # Amphibious Assault example: 16 RP, one naval assault and one naval transfer, "He still has 11 RP left".
    assert 16 - int(costs.cell("naval_assault", "rp")) - int(costs.cell("naval_transfer", "rp")) == 11


def test_terrain_effects(game):
    terrain = game.tables["terrain_effects"]
    # 2: Clear 1 MP, Mountain 2 MP, City +1 die to defender, river -1 die per attacking unit, enemy ZOC 3 MP.
    assert terrain.cell("clear", "movement_cost_in_mp") == "1 MP"
    assert terrain.cell("mountain", "mp") == "2"
    assert terrain.cell("city", "defender_dice") == "1"
    assert terrain.cell("river", "attacker_dice_per_unit") == "-1"
    assert terrain.cell("river", "mp_add") == "1"
    assert terrain.cell("enemy_zoc", "mp") == "3"
    assert terrain.cell("red_line", "movement_cost_in_mp") == "May not cross"


def test_weather_effects(game):
    effects = game.tables["weather_effects"]
    # 7: overcast and snow: no air support; snow: -1 MP.
    assert [effects.cell(w, "air_support") for w in ("clear", "overcast", "snow")] == ["yes", "no", "no"]
    assert effects.cell("snow", "mp_modifier") == "-1"


def test_support_rules(game, campaign):
    support = game.tables["support"]
    # 4: UN air from turn 2, armor from turn 4, naval from turn 2; Communist air turn 1 only; 2 dice each.
    assert support.cell("un-air", "first_turn") == "2"
    assert support.cell("un-armor", "first_turn") == "4"
    assert support.cell("un-naval", "first_turn") == "2"
    assert (support.cell("communist-air", "first_turn"), support.cell("communist-air", "last_turn")) == ("1", "1")
    assert {r["dice"] for r in support.rows} == {"2"}
    rules = campaign.special_rules["support"]
    assert rules["dice_per_support"] == 2 and rules["max_per_type_per_side_per_combat"] == 1
    assert rules["communist_armor_start_box"] == 2  # 13.4


def test_special_rule_parameters(campaign):
    rules = campaign.special_rules
    assert rules["resource_points"]["communist_before_intervention"] == 10  # 6
    assert rules["resource_points"]["communist_from_intervention"] == 15  # 6, 11
    assert rules["supply"]["trace_hexes"] == 3  # 10
    assert rules["activation"]["zoc_entry_mp"] == 3  # 4
    assert rules["blocks"]["max_chinese_armies_on_board"] == 9  # 11
    assert rules["naval_assault"]["retreat_extra_sp_loss"] == 1  # 9.1, 16
    assert rules["air_interdiction"]["options"][1]["communist_rp_lost"] == 4  # 14
    for name, params in rules.items():
        assert params.get("source"), name


def test_victory_is_data(campaign):
    victory = campaign.victory
    assert victory["source"] == "12"
    assert "star_city" in victory["automatic"] and not any(k.startswith("star_cities") for k in victory)
    assert victory["end_of_game_turn"] == campaign.length


def test_star_cities_are_written_once_on_the_map(game):
    """Blue stars north of the 38th start Communist, red stars south start UN (2, 12): the map's star_city rows."""
    stars = [f for f in game.maps["korea"].features if f.kind == "star_city"]
    assert sorted(f.side for f in stars) == ["communist"] * 4 + ["un"] * 4
    assert all(f.source.is_stand_in for f in stars)


def test_map_names_the_books_places(game):
    korea = game.maps["korea"]
    pusan = korea.find_named("Pusan")
    assert pusan and korea.features_at(pusan[0], "port")
    inchon, seoul = korea.find_named("Inch'on")[0], korea.find_named("Seoul")[0]
    # Amphibious Assault example: from Inch'on port city the 7th Div moves into Seoul for 1 MP: they are adjacent.
    assert korea.grid.are_adjacent(inchon, seoul)
    assert korea.features_at(inchon, "port") and korea.features_at(inchon, "city")
    # 11: nine Chinese armies need nine distinct yellow hexes.
    assert len(set(korea.hexes_with("entry"))) >= 9


# ----------------------------------------------------------------------------- stand-ins


def test_every_stand_in_has_a_reason(game):
    assert game.stand_ins
    for s in game.stand_ins:
        assert len(s.reason) > 15, s


def test_expected_stand_in_categories_are_listed(game):
    whats = {s.what for s in game.stand_ins}
    for what in ("table weather", "map korea", "scenario campaign rule turn_track",
                 "scenario campaign rule victory_tie", "scenario campaign rule parallel_38"):
        assert what in whats, what
    assert not game.stand_ins_for("table unit_chart")
    assert not game.stand_ins_for("table chinese_intervention")


def test_replacing_the_weather_stand_in_with_a_published_table(tmp_path):
    copy = tmp_path / "holdfast"
    shutil.copytree(GAME_DIR, copy)
    (copy / "tables" / "weather.csv").write_text(
        "month,clear,overcast,snow\n"
        "Jul,1-3,4-6,-\n"
        "Aug,1-3,4-6,-\n"
        "Oct,1-4,5-6,-\n"
        "Nov,1-2,3-4,5-6\n"
        "Dec,1,2-3,4-6\n"
        "Jan,1,2-3,4-6\n"
        "Feb,1,2-3,4-6\n"
        "Mar,1-2,3-4,5-6\n"
        "Apr,1-4,5-6,-\n",
        encoding="utf-8",
    )
    toml = copy / "tables.toml"
    text = toml.read_text(encoding="utf-8")
    old = [line for line in text.splitlines() if line.startswith('source = "stand-in: the weather die ranges')]
    assert len(old) == 1
    toml.write_text(text.replace(old[0], 'source = "Turn Track (board)"'), encoding="utf-8")

    original = load_game("holdfast")
    replaced = load_game_dir(copy)
    assert original.tables["weather"].cell("Dec", "snow") == "5-6"
    assert replaced.tables["weather"].cell("Dec", "snow") == "4-6"
    assert replaced.tables["weather"].source.text == "Turn Track (board)"
    assert original.stand_ins_for("table weather")
    assert not replaced.stand_ins_for("table weather")
    assert len(replaced.stand_ins) == len(original.stand_ins) - 1
