"""Korea: Fire and Ice intervention and aid (12.2), VPs (12.1), weather (14.1), supply costs (7.0, 9.3), losses (5.6)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.checks import get_check, run_check
from adjudicator.ledger.dice import SuppliedDice
from adjudicator.rules.fireandice import data
from scenarios import load_game
from scenarios.model import Table


def resolve(name, dice, **situation):
    spec = get_check("fireandice", name)
    supplied = SuppliedDice(dice)
    body = {"dice": dice, **situation} if spec.random else situation
    result = run_check(spec, spec.compute_model(**body), supplied)
    supplied.finish()
    return result


# -- 12.2.1 Foreign Intervention ------------------------------------------------------------------


def test_chinese_modifiers_come_from_the_table(monkeypatch):
    g = load_game("fireandice")
    t = g.tables["intervention_modifiers"]
    rows = tuple({**r, "modifier": "-3"} if r["id"] == "chinese-un-in-nk" else dict(r) for r in t.rows)
    g2 = replace(g, tables={**g.tables, "intervention_modifiers": Table(**{**t.__dict__, "rows": rows})})
    before = resolve("chinese_intervention", [3], un_vp=5, un_units_in_north_korea=True)
    assert before.outcome["intervenes"] is False and before.outcome["modifier"] == -1
    monkeypatch.setattr(data, "game", lambda: g2)
    after = resolve("chinese_intervention", [3], un_vp=5, un_units_in_north_korea=True)
    assert after.outcome["modifier"] == -3 and after.outcome["intervenes"] is True


@pytest.mark.parametrize("roll, ok", [(1, True), (2, True), (3, False)])
def test_roc_intervention_on_1_or_2(roll, ok):
    assert resolve("roc_intervention", [roll], un_vp=0, communist_vp=12).outcome["success"] is ok


def test_atomic_release_brings_the_chinese_in():
    result = resolve("atomic_release", [2], un_vp=0, communist_vp=16)
    assert result.outcome["success"] and result.outcome["chinese_intervene_now"]
    assert "chinese_intervene_now" not in resolve("atomic_release", [2], un_vp=0, communist_vp=16,
                                                  chinese_intervened=True).outcome


@pytest.mark.parametrize("roll, vp, atomic, ok", [(1, 0, False, True), (2, 0, False, False), (3, 16, False, True),
                                                  (4, 14, True, True), (5, 16, True, True), (6, 16, True, False)])
def test_soviet_modified_1_or_less(roll, vp, atomic, ok):
    assert resolve("soviet_intervention", [roll], un_vp=vp, atomic_release=atomic).outcome["success"] is ok


# -- 12.2.2 Foreign Aid ----------------------------------------------------------------------------


def test_aid_band_1_4_gives_the_enemy_a_vp_and_no_rolls():
    result = resolve("foreign_aid", [], side="communist", un_vp=3)
    assert result.outcome["band"] == "1-4" and result.outcome["replacements"] == 2
    assert result.outcome["vp_to"] == "un" and result.outcome["intervention_rolls"] == []


def test_aid_band_10_14_triggers_the_chinese_roll_for_the_communist():
    result = resolve("foreign_aid", [2], side="communist", un_vp=12, un_units_in_north_korea=True)
    assert result.outcome["tank"] == 4 and result.outcome["destroyed_to_replacements"] == 2
    (roll,) = result.outcome["intervention_rolls"]
    assert roll["intervention"] == "chinese" and roll["modified"] == 0 and roll["success"]


def test_aid_band_15_20_un_rolls_roc_and_atomic_and_gains_the_vp_itself():
    result = resolve("foreign_aid", [5, 1], side="un", communist_vp=17)
    assert [r["intervention"] for r in result.outcome["intervention_rolls"]] == ["roc", "atomic_release"]
    assert result.outcome["vp_to"] == "un"


def test_aid_band_15_20_communist_soviet_roll_after_chinese_intervened():
    result = resolve("foreign_aid", [1], side="communist", un_vp=15, chinese_intervened=True,
                     chinese_intervened_previous_turn=True)
    assert [r["intervention"] for r in result.outcome["intervention_rolls"]] == ["soviet"]
    assert result.outcome["vp_to"] == "communist"


def test_no_aid_for_the_side_with_vps_nor_at_zero():
    assert resolve("foreign_aid", [], side="un", un_vp=3).outcome["allowed"] is False
    assert resolve("foreign_aid", [], side="communist", un_vp=0).outcome["allowed"] is False


# -- 12.1 VPs ----------------------------------------------------------------------------------------


def test_zero_sum_track_and_macarthur_relief():
    result = resolve("victory_points", [], track=3, macarthur_commands=True,
                     gains=[{"side": "un", "vp": 1}, {"side": "communist", "vp": 6}, {"side": "un", "vp": 1}])
    # 3 + 2 (doubled) = 5; Communist 6 -> red 1: MacArthur relieved; then the UN's 1 counts once: 0
    assert result.outcome["macarthur_relieved"] and result.outcome["track"] == 0


def test_21_vps_at_a_check_win_and_inchon_only_for_the_un():
    assert resolve("victory_points", [], track=-20, gains=[{"side": "communist", "vp": 1}], vp_check=True).outcome["winner"] == "communist"
    inchon = resolve("victory_points", [], scenario="inchon", track=-22, vp_check=True, scenario_end=True)
    assert inchon.outcome["winner"] == "communist"  # 17.0: if the UN does not reach 21, the Communist wins
    assert resolve("victory_points", [], track=0, scenario_end=True).outcome["winner"] == "communist"  # 19.0: at 0


# -- 14.1 weather -------------------------------------------------------------------------------------


def test_weather_rain_snow_clear():
    g = load_game("fireandice")
    rain = int(g.tables["weather_track"].cell("1950-07", "rain"))
    assert resolve("weather", [rain], month="1950-07").outcome["weather"] == "rain"
    assert resolve("weather", [rain + 1], month="1950-07").outcome["weather"] == "clear"
    snow = resolve("weather", [1], month="1950-12")
    assert snow.outcome["weather"] == "snow" and not snow.outcome["aircraft_fly"] and snow.outcome["un_loc_mp"] == 8
    assert any("weather_track" in w for w in snow.warnings)


# -- 7.0, 9.3 supply costs ---------------------------------------------------------------------


def test_hq_flip_example_i_corps_in_south_korea_pays_2():
    # 9.2 example: I Corps not moved, flipped back to fresh for 2 supply points (South Korea).
    result = resolve("hq_flip_cost", [], side="un", occasion="activation", hex="2550")
    assert result.outcome["location"] == "south" and result.outcome["cost"] == 2


@pytest.mark.parametrize("side, occasion, location, winter, cost", [
    ("communist", "monthly", "north", False, 0), ("communist", "monthly", "south", False, 1),
    ("communist", "activation", "north", False, 1), ("communist", "activation", "south", True, 2),
    ("un", "monthly", "north", False, 2), ("un", "monthly", "south", True, 2),
    ("un", "activation", "north", True, 6), ("un", "activation", "south", False, 2)])
def test_hq_flip_costs_by_side_place_and_season(side, occasion, location, winter, cost):
    assert resolve("hq_flip_cost", [], side=side, occasion=occasion, location=location,
                   winter=winter).outcome["cost"] == cost


def test_border_row_43_odd_columns_are_north():
    assert resolve("hq_flip_cost", [], side="communist", occasion="monthly", hex="1943").outcome["location"] == "north"
    assert resolve("hq_flip_cost", [], side="communist", occasion="monthly", hex="3043").outcome["location"] == "south"


def test_supply_costs_doubled_for_the_un_in_winter_only():
    un = resolve("supply_cost", [], side="un", month="1951-01").outcome
    com = resolve("supply_cost", [], side="communist", month="1951-01").outcome
    assert un["doubled"] and not com["doubled"]
    assert un["costs"]["place a Trenches marker"] == 4 and com["costs"]["place a Trenches marker"] == 2


# -- 5.6 losses ---------------------------------------------------------------------------------


def test_losses_example_one_hex_retreat_no_disruption():
    # 5.6 example: the 15th Division retreats one hex (to 2441): no disruption, no artillery lost.
    result = resolve("combat_losses", [], loser="communist", spread=1, participating=["nk-15", "nk-7", "nk-3"],
                     retreats=[{"unit": "nk-15", "hexes": 1}], tank_support_used=4, artillery_support_used=5)
    assert result.outcome["markers"] == {} and result.outcome["support_level_losses"] == {"tank": 0, "artillery": 0}


def test_routed_us_unit_through_zoc_bugs_out_loses_support_and_draws_two_snafu():
    result = resolve("combat_losses", [2, 5], loser="un", spread=3, participating=["us-24-19"],
                     retreats=[{"unit": "us-24-19", "hexes": 3, "through_enemy_zoc": True}],
                     tank_support_used=2, artillery_support_used=1)
    assert result.outcome["markers"] == {"us-24-19": ["routed", "bug_out"]}
    assert result.outcome["support_level_losses"] == {"tank": 2, "artillery": 1}
    assert result.outcome["vp_gained"]["communist"] == 1 and len(result.outcome["snafu_draws"]) == 2


def test_a_unit_both_disrupted_and_bugging_out_draws_for_both_cases():
    """5.6: "if a unit (or units - draw for each to which this applies) is disrupted, routed or bugs out, draw from
    the Cup of Snafu as well. See 6.2; case e, f, and/or g."  6.2 e: "After the retreat has finished and a disrupted
    marker has been placed on the unit, the opposing player draws once"; 6.2 g: Bug Out units "are treated as
    routed", and 6.2 f: "the enemy player draws two markers ... may place one of the two".  Reading: each case
    draws - 1 for Disrupted and 2 for Bug Out; a Routed unit that bugs out draws as routed once (2)."""
    both = resolve("combat_losses", [1, 2, 3], loser="un", spread=2, participating=["us-24-19"],
                   retreats=[{"unit": "us-24-19", "hexes": 2, "through_enemy_zoc": True}])
    assert both.outcome["markers"] == {"us-24-19": ["disrupted", "bug_out"]}
    assert [d["case"] for d in both.outcome["snafu_draws"]] == ["disrupted", "bug_out", "bug_out"]
    assert len({d["marker"] for d in both.outcome["snafu_draws"]}) == 3  # drawn from one cup, none twice
    rules = [s.rule for s in both.steps]
    assert "6.2 e Disrupted" in rules and "6.2 g Bug Out (treated as routed: 6.2 f)" in rules
    assert any("and/or" in s.text for s in both.steps)
    routed = resolve("combat_losses", [1, 2], loser="un", spread=3, participating=["us-24-19"],
                     retreats=[{"unit": "us-24-19", "hexes": 3, "through_enemy_zoc": True}])
    assert [d["case"] for d in routed.outcome["snafu_draws"]] == ["routed", "routed"]
    alone = resolve("combat_losses", [1, 2], loser="un", spread=1, participating=["us-24-19"],
                    retreats=[{"unit": "us-24-19", "hexes": 1, "through_enemy_zoc": True}])
    assert [d["case"] for d in alone.outcome["snafu_draws"]] == ["bug_out", "bug_out"]


def test_disrupted_unit_costs_one_level_of_each_used_support():
    result = resolve("combat_losses", [4], loser="communist", spread=3, participating=["nk-1", "nk-2"],
                     retreats=[{"unit": "nk-1", "hexes": 2}], replacement_points=1,
                     tank_support_used=3, artillery_support_used=0)
    assert result.outcome["markers"] == {"nk-1": ["disrupted"]}
    assert result.outcome["support_level_losses"] == {"tank": 1, "artillery": 0}


@pytest.mark.parametrize("spread, payment, message", [
    (2, {"retreats": [{"unit": "nk-1", "hexes": 1}]}, "must match"),
    (2, {"retreats": [{"unit": "nk-1", "hexes": 1, "through_enemy_zoc": True}], "vps_spent": 1}, "ZoC"),
    (3, {"vps_spent": 2}, "must match"),
    (2, {"retreats": [{"unit": "nk-1", "hexes": 1, "markers": ["disrupted"]}], "vps_spent": 1}, "cannot retreat"),
    (1, {"eliminate": ["nk-2"]}, "did not participate"),
])
def test_illegal_payments_are_refused(spread, payment, message):
    with pytest.raises(ValueError, match=message):
        resolve("combat_losses", [], loser="communist", spread=spread, participating=["nk-1"], **payment)


def test_macarthur_forbids_vp_payments_and_cadre_loss_gives_a_vp():
    with pytest.raises(ValueError, match="MacArthur"):
        resolve("combat_losses", [], loser="un", spread=1, participating=["us-24"], vps_spent=1, macarthur_commands=True)
    result = resolve("combat_losses", [], loser="un", spread=1, participating=["us-24"], eliminate=["us-24"])
    assert result.outcome["vp_gained"]["communist"] == 1


def test_chinese_intervene_automatically_in_january_1951_and_only_once():
    auto = resolve("chinese_intervention", [], un_vp=0, month="1951-01")
    assert auto.outcome["intervenes"] and auto.outcome["automatic"]
    assert resolve("chinese_intervention", [], un_vp=0, month="1950-12").outcome["intervenes"] is False
    done = resolve("chinese_intervention", [], un_vp=15, chinese_intervened=True)
    assert done.outcome["roll_allowed"] is False


# -- 18.0 Chinese Intervention! special rule 1 -------------------------------------------------------

NO_INTERVENTION = "Do not check for Foreign Intervention in this scenario. Foreign Aid may be requested."


def test_chinese_intervention_scenario_makes_no_intervention_check():
    """18.0 Chinese Intervention!, special rule 1: "Do not check for Foreign Intervention in this scenario. Foreign
    Aid may be requested."  The Chinese "have intervened": no die is asked for, even a 2 with UN units in North
    Korea, which would succeed elsewhere."""
    elsewhere = resolve("chinese_intervention", [2], un_vp=14, un_units_in_north_korea=True)
    assert elsewhere.outcome["intervenes"] is True
    result = resolve("chinese_intervention", [], scenario="intervention", un_vp=14, un_units_in_north_korea=True)
    assert result.outcome["roll_allowed"] is False and result.outcome["roll"] is None
    assert result.outcome["intervenes"] is False and result.outcome["already_intervened"] is True
    assert result.steps[0].rule == "18.0 Special Rule 1" and NO_INTERVENTION in result.steps[0].text
    assert any("have already intervened" in s.text for s in result.steps)
    with pytest.raises(ValueError, match="too many dice"):  # no roll: a die offered is one too many
        resolve("chinese_intervention", [2], scenario="intervention", un_vp=14)


@pytest.mark.parametrize("trigger", ["direct", "foreign_aid"])
@pytest.mark.parametrize("check, vps", [("roc_intervention", {"communist_vp": 16}),
                                        ("atomic_release", {"communist_vp": 16}),
                                        ("soviet_intervention", {"un_vp": 16, "chinese_intervened": True})])
def test_chinese_intervention_scenario_refuses_every_intervention_roll(check, vps, trigger):
    """18.0 Special Rule 1: "Do not check for Foreign Intervention in this scenario." No Soviet, Republic of
    China or Atomic Release roll either, whether asked directly or as a Foreign Aid request's: none is made,
    citing the rule (a die that would succeed elsewhere, a 1, is one too many here)."""
    result = resolve(check, [], scenario="intervention", trigger=trigger, **vps)
    assert result.outcome == {"roll_allowed": False, "success": False}
    assert [s.rule for s in result.steps] == ["18.0 Special Rule 1"] and NO_INTERVENTION in result.steps[0].text
    with pytest.raises(ValueError, match="too many dice"):
        resolve(check, [1], scenario="intervention", trigger=trigger, **vps)
    rolled = resolve(check, [1], trigger=trigger, **vps)  # the campaign rolls, and a 1 succeeds
    assert rolled.outcome["roll_allowed"] is True and rolled.outcome["success"] is True
    invasion = resolve(check, [], scenario="invasion", trigger=trigger, **vps)  # 16.0 has the same rule, its own number
    assert invasion.outcome["roll_allowed"] is False and invasion.steps[0].rule == "16.0 Special Rule 2"


@pytest.mark.parametrize("side, vps", [("communist", {"un_vp": 16}), ("un", {"communist_vp": 16})])
def test_chinese_intervention_scenario_gives_foreign_aid_without_its_intervention_rolls(side, vps):
    """18.0 Special Rule 1: "Foreign Aid may be requested." The 15-20 band calls for Chinese, Soviet (the
    Communist's aid), Republic of China and Atomic Release (the UN's) rolls (12.2.2): none is made here."""
    campaign = resolve("foreign_aid", [6] if side == "communist" else [6, 6], side=side,
                       chinese_intervened_previous_turn=side == "communist",
                       chinese_intervened=side == "communist", **vps)
    assert campaign.outcome["intervention_rolls"]
    aid = resolve("foreign_aid", [], scenario="intervention", side=side, **vps)
    assert aid.outcome["allowed"] is True and aid.outcome["intervention_rolls"] == []
    assert aid.outcome["replacements"] == campaign.outcome["replacements"]  # the aid itself is given
    assert any(s.rule == "18.0 Special Rule 1" and NO_INTERVENTION in s.text for s in aid.steps)


def _small_game():
    """A 10 x 10 clear board in place of the real map (the retreat rules only need geometry)."""
    from scenarios.hexgrid import HexGrid
    from scenarios.model import GameMap

    g = load_game("fireandice")
    grid = HexGrid.build(first_col=1, last_col=10, first_row=1, last_row=10)
    gm = GameMap(id="korea", name="test", grid=grid, scale="7 miles", terrain_types=g.maps["korea"].terrain_types,
                 terrain={h: "clear" for h in grid.hexes()})
    return replace(g, maps={"korea": gm})


def test_retreat_paths_on_the_map(monkeypatch):
    g2 = _small_game()
    monkeypatch.setattr(data, "game", lambda: g2)
    spec = get_check("fireandice", "combat_losses")

    def check(dice, combat_hex, path, unit="nk-1", enemy=("rok-1", "0509"), start="0508", loser="communist"):
        body = {"loser": loser, "spread": len(path), "participating": [unit], "combat_hex": combat_hex, "dice": dice,
                "positions": [{"unit": unit, "hex": start}, {"unit": enemy[0], "hex": enemy[1]}],
                "retreats": [{"unit": unit, "hexes": len(path), "path": path}]}
        return run_check(spec, spec.compute_model.model_validate(body, context={"game": g2}), SuppliedDice(dice))

    assert check([1], "0509", ["0507", "0506"]).outcome["markers"] == {"nk-1": ["disrupted"]}
    with pytest.raises(ValueError, match="not north"):
        check([], "0507", ["0509"], enemy=("rok-1", "0506"))
    with pytest.raises(ValueError, match="not adjacent"):
        check([], "0509", ["0506"])
    # a UN (US) unit retreating south through the Communist ZoC bugs out (computed from the map)
    bug = check([1, 1], "0505", ["0507"], unit="us-24-19", enemy=("nk-2", "0607"), start="0506", loser="un")
    assert bug.outcome["markers"] == {"us-24-19": ["bug_out"]} and bug.outcome["vp_gained"]["communist"] == 1
    with pytest.raises(ValueError, match="enemy ZoC"):
        check([], "0505", ["0507"], unit="rok-1", enemy=("nk-2", "0607"), start="0506", loser="un")


def test_replacement_nationality():
    with pytest.raises(ValueError, match="participating us"):
        resolve("combat_losses", [], loser="un", spread=1, participating=["rok-1"], replacement_points=1,
                replacement_kind="us")
    assert resolve("combat_losses", [], loser="un", spread=1, participating=["rok-1"], replacement_points=1,
                   replacement_kind="un").outcome["replacement_points_spent"] == 1


# -- 11.3.1 invasions, 5.5 events ------------------------------------------------------------------


def test_inchon_invasion_costs_and_bombardment():
    result = resolve("amphibious_invasion", [3, 9], box="invasion-inchon", fleet_station="Yellow Sea",
                     units=["us-1mar-1", "us-1mar-5", "us-1mar-7", "un-hq-x"], amphibious_points=8,
                     bombardment_level=6, enemy_units=["nk-18", "nk-9"])
    assert result.outcome["amphibious_points_spent"] == 3  # the HQ is free
    assert result.outcome["to_replacements"] == ["nk-18"]


@pytest.mark.parametrize("change, message", [({"fleet_station": "Sea of Japan"}, "Yellow Sea|Sea of Japan"),
                                             ({"winter": True}, "winter"), ({"invasions_so_far": 1}, "one"),
                                             ({"amphibious_points": 2}, "amphibious points")])
def test_illegal_invasions(change, message):
    body = dict(box="invasion-inchon", fleet_station="Yellow Sea", units=["us-1mar-1", "us-1mar-5", "us-1mar-7"],
                amphibious_points=8)
    with pytest.raises(ValueError, match=message):
        resolve("amphibious_invasion", [], **{**body, **change})


def test_random_event_table_c_and_snafu_without_replacement():
    event = resolve("random_event", [1], table="C", attacker="un")
    assert event.outcome["kind"] == "news_reporters" and event.outcome["objective_marker"] == "communist"
    snafu = resolve("random_event", [9, 1], table="A", attacker="communist")
    assert snafu.outcome["placed_by"] == "communist" and snafu.outcome["snafu"]["marker"] == "snafu-leader-un"
    two = resolve("snafu_draw", [1, 1], placer="un", count=2)
    assert two.outcome["draws"][0]["marker"] != two.outcome["draws"][1]["marker"]
    assert [d.sides for d in two.dice_used] == [6, 5]


def test_objective_draw_without_replacement_and_an_empty_pool():
    result = resolve("objective_draw", [12, 1], side="un", count=2)
    assert result.outcome["values"] == [5, 1]
    assert any("objective" in w for w in result.warnings)
    with pytest.raises(ValueError, match="pool"):
        resolve("objective_draw", [], side="un", out_of_pool={"1": 6, "3": 4, "5": 2})


def test_direct_intervention_rolls_only_for_the_side_without_vps():
    assert resolve("roc_intervention", [], un_vp=4, trigger="direct").outcome["roll_allowed"] is False
    assert resolve("roc_intervention", [], trigger="direct").outcome["roll_allowed"] is False  # marker at 0
    assert resolve("roc_intervention", [1], communist_vp=4, trigger="direct").outcome["success"] is True
    soviet = resolve("soviet_intervention", [1], un_vp=3)
    assert soviet.outcome["success"] and soviet.warnings


@pytest.mark.parametrize("kind, ok", [("nk", True), ("prc", True), ("su", False), ("un", False)])
def test_rebuild_replacement_nationality(kind, ok):
    body = dict(unit="nk-1", destroyed_unit="prc-112", replacement_kind=kind, replacement_points=1,
                replacements_box=["nk-1", "prc-112"])
    if ok:
        assert resolve("rebuild", [], **body).outcome["replacement_points_left"] == 0
    else:
        with pytest.raises(ValueError):
            resolve("rebuild", [], **body)
    with pytest.raises(ValueError, match="ANOTHER"):
        resolve("rebuild", [], **{**body, "destroyed_unit": "nk-1"})
