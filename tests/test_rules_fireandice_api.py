"""Every Korea: Fire and Ice check once through the HTTP API in compute mode, and bad input as 422."""

from __future__ import annotations

import pytest

from adjudicator.checks import checks_for, get_check
from adjudicator.testing import make_app

COMBAT = {"attacker": "communist", "combat_type": "Prepared Attack", "chit": "P01", "terrain": "town", "road_bonus": True,
          "communist_tank_level": 6, "communist_artillery_level": 7, "un_tank_level": 5, "un_artillery_level": 4,
          "attacking": {"adjacent_units": 2}, "defending": {"adjacent_units": 1}}

BODIES = {
    "combat": {**COMBAT, "dice": [1, 1, 6, 6]},
    "combat_support": COMBAT,
    "draw_chits": {"combat_type": "Hasty Attack", "count": 3, "dice": [1, 1, 1]},
    "combat_losses": {"loser": "communist", "spread": 1, "participating": ["nk-15"], "retreats": [{"unit": "nk-15", "hexes": 1}],
                      "dice": []},
    "supply": {"side": "un", "positions": [{"unit": "rok-1", "hex": "1944"}, {"unit": "rok-hq-i", "hex": "2550"},
                                           {"unit": "nk-1", "hex": "1943"}]},
    "chinese_intervention": {"un_vp": 14, "un_units_in_north_korea": True, "dice": [3]},
    "roc_intervention": {"communist_vp": 12, "dice": [1]},
    "atomic_release": {"communist_vp": 16, "dice": [2]},
    "soviet_intervention": {"un_vp": 16, "dice": [3]},
    "foreign_aid": {"side": "communist", "un_vp": 12, "dice": [2]},
    "victory_points": {"track": 19, "gains": [{"side": "un", "vp": 1}], "macarthur_commands": True, "vp_check": True},
    "weather": {"month": "1950-12", "dice": [1]},
    "hq_flip_cost": {"side": "un", "occasion": "activation", "hex": "2550"},
    "supply_cost": {"side": "un", "winter": True},
    "air_combat": {"box": "mig_alley", "aircraft": [{"unit": "un-air-4fi"}, {"unit": "com-air-3ad"}], "dice": [9, 9]},
    "air_attack": {"kind": "top_cover_vs_mission", "attacker": {"unit": "com-air-4ad", "long_range": True},
                   "target": {"unit": "un-air-18fb"}, "dice": [5, 1]},
    "stay_on_station": {"aircraft": {"unit": "un-air-18fb"}, "mission": "ground_support", "dice": [3]},
    "strategic_strike": {"kind": "infrastructure", "aircraft": [{"unit": "un-air-19bomb"}], "dice": [1]},
    "atomic_strike": {"aircraft": "un-air-19bomb", "target": "airfield_box", "airfield_box": "north_korea",
                      "atomic_release": True},
    "interdiction": {"aircraft": {"unit": "un-air-3bomb"}, "action": "combat_support", "dice": [2, 1]},
    "aircraft_repair": {"aircraft": ["un-air-8fb"], "dice": [2]},
    "ground_support_level": {"aircraft": [{"unit": "com-air-il10"}]},
    "random_event": {"table": "B", "attacker": "communist", "dice": [6, 6]},
    "rebuild": {"unit": "nk-1", "destroyed_unit": "nk-2", "replacement_kind": "nk", "replacement_points": 3,
                "replacements_box": ["nk-1", "nk-2"]},
    "objective_draw": {"side": "communist", "count": 6, "dice": [1, 1, 1, 1, 1, 1]},
    "snafu_draw": {"placer": "un", "count": 2, "dice": [1, 1]},
    "declare_combat": {"unit": "nk-3", "combat_type": "Prepared Attack", "mp_spent": 1.5},
    "air_commitment": {"airfields": [{"box": "south_korea", "improved": 1, "airfields": 1}],
                       "commitments": [{"unit": "un-air-4fi", "mission": "mig_alley", "airfield_box": "south_korea"}]},
    "supply_determination": {"side": "communist", "infrastructure": 12, "changes": [-4, 6], "supply_left": 3},
    "strategic_movement": {"unit": "rok-1", "path": ["2252", "2251", "2250"],
                           "positions": [{"unit": "rok-2", "hex": "2240"}, {"unit": "nk-1", "hex": "2230"}]},
    "amphibious_invasion": {"box": "invasion-inchon", "fleet_station": "Yellow Sea", "units": ["us-1mar-1", "un-hq-x"],
                            "amphibious_points": 8, "bombardment_level": 6, "enemy_units": ["nk-18"], "dice": [3]},
}

BAD = {
    "combat": {**COMBAT, "chit": "H01", "dice": [1, 1]},  # wrong cup
    "supply": {"side": "un", "positions": [{"unit": "rok-1", "hex": "9999"}]},
    "combat_losses": {"loser": "communist", "spread": 2, "participating": ["nk-15"], "vps_spent": 1, "dice": []},
    "hq_flip_cost": {"side": "un", "occasion": "monthly"},
    "weather": {"month": "1949-01", "dice": [1]},
    "rebuild": {"unit": "nk-1", "destroyed_unit": "nk-2", "replacement_kind": "us", "replacement_points": 3,
                "replacements_box": ["nk-1", "nk-2"]},
    "amphibious_invasion": {"box": "invasion-pusan", "fleet_station": "Yellow Sea", "units": ["us-1mar-1"],
                            "amphibious_points": 8, "dice": []},
    "air_combat": {"box": "mig_alley", "aircraft": [{"unit": "un-air-4fi"}, {"unit": "un-air-8fb"}], "dice": []},
    "declare_combat": {"unit": "nk-3", "combat_type": "Hasty Attack", "mp_spent": 0.25},
    "strategic_movement": {"unit": "rok-1", "path": ["2252", "2250"]},
    "air_commitment": {"commitments": [{"unit": "un-air-4fi", "mission": "mig_alley", "airfield_box": "china"}]},
    "supply_determination": {"side": "un", "infrastructure": 3, "purchases": [{"item": "place a Trenches marker",
                                                                                "count": 2}]},
}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("fireandice")).test_client()


def test_every_check_has_a_body_here():
    assert {spec.name for spec in checks_for("fireandice")} == set(BODIES)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BODIES))
def test_compute_mode(client, name):
    response = client.post(f"/api/v1/systems/fireandice/{name}", json=BODIES[name])
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert body["steps"] and all(step["rule"] for step in body["steps"])
    assert len(body["dice_used"]) == len(BODIES[name].get("dice", []))


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_is_422(client, name):
    response = client.post(f"/api/v1/systems/fireandice/{name}", json=BAD[name])
    assert response.status_code == 422, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"


def test_an_airfield_strike_on_the_carriers_is_refused_by_the_rule_at_the_field(client):
    """10.3.3: "choose an airfield box to attack (China, North Korea, Japan or South Korea - Carriers can't be
    attacked)": the 422 points at /airfield_box and names the rule, not pydantic's list of allowed values."""
    response = client.post("/api/v1/systems/fireandice/strategic_strike",
                           json={"kind": "airfield", "aircraft": [{"unit": "com-air-3ad"}],
                                 "airfield_box": "7th Fleet Carriers", "dice": [3]})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    [error] = response.get_json()["errors"]
    assert error["pointer"] == "/airfield_box"
    assert "Carriers can't be attacked" in error["detail"] and "10.3.3" in error["detail"]
    assert "Input should be" not in error["detail"]


def test_a_d10_zero_is_refused_with_the_hint_to_enter_10(client):
    response = client.post("/api/v1/systems/fireandice/aircraft_repair", json={"aircraft": ["un-air-8fb"], "dice": [0]})
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["errors"][0]["pointer"] == "/dice/0" and "a D10 showing 0 means 10: enter 10" in problem["detail"]


def test_combat_example_over_http(client):
    body = client.post("/api/v1/systems/fireandice/combat", json=BODIES["combat"]).get_json()
    assert body["outcome"]["attacker_total"] == 8 and body["outcome"]["spread"] == 3


def test_game_mode_combat_matches_compute_mode(client):
    from adjudicator.testing import bearer, new_game

    game = new_game(client, "fireandice")
    situation = {k: v for k, v in COMBAT.items() if k != "chit"}  # the server draws the chit too
    rolled = client.post(f"/api/v1/games/{game['game_id']}/combat", json=situation,
                         headers=bearer(game["tokens"]["communist"])).get_json()  # the attacker rolls
    assert rolled["dice_used"][0]["sides"] == 16  # the chit draw from the Prepared/Deliberate cup
    dice = [d["value"] for d in rolled["dice_used"]]
    computed = client.post("/api/v1/systems/fireandice/combat",
                           json={**situation, "scenario": game["scenario"], "dice": dice}).get_json()
    for field in ("outcome", "steps", "warnings", "dice_used"):
        assert computed[field] == rolled[field]


def test_the_old_side_spelling_com_reads_as_communist(client):
    """Fire and Ice said "com" before every game said "communist": old requests still work, and
    every answer uses the one spelling."""
    new = client.post("/api/v1/systems/fireandice/combat", json=BODIES["combat"]).get_json()
    old = client.post("/api/v1/systems/fireandice/combat", json={**BODIES["combat"], "attacker": "com"}).get_json()
    assert old == new
    aid = {k: v for k, v in BODIES["foreign_aid"].items()}
    assert client.post("/api/v1/systems/fireandice/foreign_aid", json={**aid, "side": "com"}).get_json() == \
        client.post("/api/v1/systems/fireandice/foreign_aid", json=aid).get_json()
    renamed = client.post("/api/v1/systems/fireandice/roc_intervention", json={"com_vp": 12, "dice": [1]}).get_json()
    assert renamed == client.post("/api/v1/systems/fireandice/roc_intervention", json=BODIES["roc_intervention"]).get_json()
    supply = {"side": "com", "positions": BODIES["supply"]["positions"]}
    assert client.post("/api/v1/systems/fireandice/supply", json=supply).get_json()["outcome"]["side"] == "communist"
    assert client.post("/api/v1/systems/fireandice/foreign_aid", json={**aid, "side": "reds"}).status_code == 422


def test_the_game_data_spells_the_side_communist():
    from scenarios import load_game

    game = load_game("fireandice")
    assert set(game.sides) == {"un", "communist"}
    assert {u.side for u in game.units.values()} == {"un", "communist"}


@pytest.mark.parametrize("check, side, body", [
    ("chinese_intervention", "communist", {"un_vp": 14, "un_units_in_north_korea": True}),
    ("soviet_intervention", "communist", {"un_vp": 16}),
    ("soviet_intervention", "communist", {"un_vp": 16, "trigger": "direct"}),
    ("roc_intervention", "un", {"communist_vp": 12}),
    ("atomic_release", "un", {"communist_vp": 16, "trigger": "direct"}),
])
def test_a_recorded_chinese_intervention_game_rolls_no_intervention_check(client, check, side, body):
    """18.0 Special Rule 1, "Do not check for Foreign Intervention in this scenario": in a recorded game of
    Chinese Intervention! no check of the Foreign Intervention Table rolls a die, and each says why."""
    from adjudicator.testing import bearer, new_game

    game = new_game(client, "fireandice", "intervention")
    answer = client.post(f"/api/v1/games/{game['game_id']}/{check}", json=body, headers=bearer(game["tokens"][side]))
    assert answer.status_code == 201, answer.get_json()
    ruling = answer.get_json()
    assert ruling["dice_used"] == [] and ruling["outcome"]["roll_allowed"] is False
    assert ruling["steps"][0]["rule"] == "18.0 Special Rule 1"
    assert "Do not check for Foreign Intervention in this scenario" in ruling["steps"][0]["text"]


@pytest.mark.parametrize("check, body", [
    ("chinese_intervention", {"un_vp": 14, "un_units_in_north_korea": True}),
    ("roc_intervention", {"communist_vp": 12}),
])
def test_dice_sent_to_a_check_the_scenario_makes_no_roll_are_refused_with_the_reason(client, check, body):
    """issue 52: in compute mode, a die sent to a check that 18.0 Special Rule 1 turns into "no roll" is one
    too many; the refusal says why (the scenario's rule, its words), not only "too many dice"."""
    answer = client.post(f"/api/v1/systems/fireandice/{check}", json={**body, "scenario": "intervention", "dice": [4]})
    problem = answer.get_json()
    assert answer.status_code == 422 and problem["type"].endswith(":dice"), problem
    assert problem["detail"].startswith("too many dice supplied: 1 given, the check used 0. No roll is made here: ")
    assert "Do not check for Foreign Intervention in this scenario" in problem["detail"]
    assert "(18.0 Special Rule 1)" in problem["detail"] and problem["errors"][0]["detail"] == problem["detail"]
    plain = client.post(f"/api/v1/systems/fireandice/{check}", json={**body, "scenario": "campaign", "dice": [4, 4, 4]})
    assert plain.status_code == 422 and "No roll is made here" not in plain.get_json()["detail"]  # a typo: no reason


def test_combat_losses_naming_a_ruling_that_is_no_combat_say_which_in_words(client):
    """Issue 51: the refusal named the other ruling by its check's id ("a combat_support ruling")."""
    from adjudicator.testing import bearer, new_game

    game = new_game(client, "fireandice")
    weather = client.post(f"/api/v1/games/{game['game_id']}/weather", json={"month": "1950-12"},
                          headers=bearer(game["tokens"]["un"]))
    assert weather.status_code == 201, weather.get_json()
    body = {k: v for k, v in get_check("fireandice", "combat_losses").example.items() if k != "dice"}
    refused = client.post(f"/api/v1/games/{game['game_id']}/combat_losses",
                          json={**body, "combat_record": weather.get_json()["seq"]}, headers=bearer(game["tokens"]["communist"]))
    assert refused.status_code == 422, refused.get_json()
    assert f"record {weather.get_json()['seq']} is a Weather ruling, not a combat" in refused.get_json()["detail"]


def test_combat_losses_with_no_combat_to_settle_say_so_in_a_sentence(client):
    """Issue 51: "no combat NK 15 fought in in this game waits ..." read "fought in in"."""
    from adjudicator.testing import bearer, new_game

    game = new_game(client, "fireandice")
    refused = client.post(f"/api/v1/games/{game['game_id']}/combat_losses", json={"loser": "communist", "unit": "nk-15"},
                          headers=bearer(game["tokens"]["communist"]))
    assert refused.status_code == 422, refused.get_json()
    assert "no combat that NK 15 fought in waits for its losses in this game" in refused.get_json()["detail"], \
        refused.get_json()


def test_a_scenario_whose_rule_makes_foreign_intervention_no_roll_is_not_offered_it(client, tmp_path):
    """issue 51: VASSAL offered RoC intervention and atomic release in Chinese Intervention! (18.0 Special
    Rule 1: "Do not check for Foreign Intervention"; 16.0 and 17.0 Special Rule 2 alike). The catalog's
    `applies.scenarios`, which the extension's menus and the pages read, offers the Foreign Intervention
    rolls in the campaign alone; Foreign Aid everywhere; asked anyway, each still answers "no roll"
    (the test above)."""
    from adjudicator.testing import PageClient, new_game

    (system,) = [s for s in client.get("/api/v1/systems").get_json()["systems"] if s["id"] == "fireandice"]
    applies = {c["name"]: c["applies"]["scenarios"] for c in system["checks"]}
    for check in ("chinese_intervention", "roc_intervention", "atomic_release", "soviet_intervention"):
        assert applies[check] == ["campaign"], check
    assert applies["foreign_aid"] is None

    app = make_app(tmp_path)
    pages = PageClient(app)
    for scenario, offered in (("intervention", False), ("campaign", True)):
        game = new_game(app.test_client(), "fireandice", scenario)
        pages.log_in(game["game_id"], game["tokens"]["un"])
        page = pages.get(f"/games/{game['game_id']}").get_data(as_text=True)
        assert ("Republic of China intervention" in page) is offered, scenario
        assert "Foreign Aid" in page, scenario


def test_an_atomic_strike_is_offered_once_the_ledger_holds_a_successful_atomic_release(tmp_path):
    """issue 51: VASSAL offered the Atomic Strike (10.3.4: "after Atomic Release") in a game whose
    Atomic Release roll had not succeeded. The game's `waiting_checks` (GET /api/v1/games/<id>),
    which the extension's menus read, and the game page's list leave it out until a successful
    roll is recorded (a failed one changes nothing); asked anyway, it answers as before."""
    from adjudicator.testing import PageClient, bearer, choose_seeds, new_game, seed_for

    release = {"communist_vp": 16, "scenario": "campaign"}
    spec = get_check("fireandice", "atomic_release")
    app = make_app(tmp_path)
    choose_seeds(app, {"fireandice/campaign": seed_for((spec, release, lambda o: o["success"] is False, 1),
                                                       (spec, release, lambda o: o["success"] is True, 2))})
    api = app.test_client()
    game = new_game(api, "fireandice", "campaign")
    un, url = bearer(game["tokens"]["un"]), f"/api/v1/games/{game['game_id']}"
    pages = PageClient(app)
    pages.log_in(game["game_id"], game["tokens"]["un"])

    def offered() -> bool:
        info = api.get(url, headers=un).get_json()
        assert "atomic_strike" in info["checks"]  # the scenario's check all along (the field keeps its meaning)
        page = pages.get(url.replace("/api/v1", "")).get_data(as_text=True)
        listed = "Atomic strike" in page
        assert listed is ("atomic_strike" not in info["waiting_checks"]), info["waiting_checks"]
        return listed

    assert not offered()
    assert "Roll for Atomic Release" in pages.get(url.replace("/api/v1", "")).get_data(as_text=True)
    why = api.get(url, headers=un).get_json()["waiting_checks"]["atomic_strike"]
    assert "Atomic Strikes need Atomic Release (10.3.4, 12.2.1)" in why and "_" not in why
    strike = {"aircraft": "un-air-19bomb", "target": "airfield_box", "airfield_box": "north_korea", "atomic_release": False}
    asked = api.post(f"{url}/atomic_strike", json=strike, headers=un)
    assert asked.status_code == 422 and "need Atomic Release" in asked.get_data(as_text=True)  # as today
    for roll, success in ((1, False), (2, True)):
        assert "atomic_release" not in api.get(url, headers=un).get_json()["waiting_checks"]  # not released yet
        ruled = api.post(f"{url}/atomic_release", json={"communist_vp": 16}, headers=un)
        assert ruled.status_code == 201 and ruled.get_json()["outcome"]["success"] is success, (roll, ruled.get_json())
        assert offered() is success, roll
    assert "atomic_strike" not in api.get(url, headers=bearer(game["tokens"]["communist"])).get_json()["waiting_checks"]
    # released once and for all (12.2.1): its roll is no longer offered, to either side, on the page either
    for side in ("un", "communist"):
        why = api.get(url, headers=bearer(game["tokens"][side])).get_json()["waiting_checks"]["atomic_release"]
        assert why == "Atomic Release happened with record #2 (12.2.1): it is not rolled for again", why
    assert "Roll for Atomic Release" not in pages.get(url.replace("/api/v1", "")).get_data(as_text=True)


def test_each_intervention_is_found_in_the_ledger_once_it_happened():
    """12.2.1: the Chinese intervene when their roll `intervenes` (their start may still be delayed);
    the RoC, the Atomic Release and the Soviets when theirs succeeds; a Foreign Aid request's
    triggered rolls count as the intervention's own (12.2.2). A failed roll is no intervention."""
    from adjudicator.facts import waiting_checks
    from adjudicator.rules.fireandice.intervention import intervention_record

    records = [
        (1, {"check": "fireandice.chinese_intervention", "result": {"outcome": {"intervenes": False}}}),
        (2, {"check": "fireandice.foreign_aid", "result": {"outcome": {"intervention_rolls": [
            {"intervention": "roc", "success": True}, {"intervention": "atomic_release", "success": False}]}}}),
        (3, {"check": "fireandice.chinese_intervention", "result": {"outcome": {"intervenes": True, "may_delay": True}}}),
    ]
    found = {kind: intervention_record(records, kind) for kind in ("chinese", "roc", "atomic_release", "soviet")}
    assert found == {"chinese": 3, "roc": 2, "atomic_release": None, "soviet": None}
    rolls = ["chinese_intervention", "roc_intervention", "atomic_release", "soviet_intervention"]
    assert sorted(waiting_checks("fireandice", "campaign", rolls, lambda: records, "un")) == \
        ["chinese_intervention", "roc_intervention"]


def test_a_combats_losses_are_offered_to_its_loser_alone_until_settled(tmp_path):
    """issue 51: after a combat ruling VASSAL offered "Combat losses" to both sides. 5.6: "The loser of the combat
    must fulfill the spread as losses": the game's `waiting_checks` (which the extension's menus read) and the game
    page's list offer them to the side the ruling says lost, and to nobody before a combat or once it is settled;
    asked anyway, the check answers as before."""
    from adjudicator.testing import PageClient, bearer, choose_seeds, new_game, seed_for

    situation = {k: v for k, v in COMBAT.items() if k != "chit"}
    lost = seed_for((get_check("fireandice", "combat"), {**situation, "scenario": "campaign"},
                     lambda o: o["loser_side"] == "communist", 1))
    app = make_app(tmp_path)
    choose_seeds(app, {"fireandice/campaign": lost})
    api = app.test_client()
    game = new_game(api, "fireandice", "campaign")
    url = f"/api/v1/games/{game['game_id']}"
    tokens = {side: bearer(game["tokens"][side]) for side in ("un", "communist", "observer")}

    def waiting() -> dict[str, bool]:
        return {side: "combat_losses" in api.get(url, headers=t).get_json()["waiting_checks"] for side, t in tokens.items()}

    assert waiting() == {"un": True, "communist": True, "observer": True}  # no combat yet
    why = api.get(url, headers=tokens["un"]).get_json()["waiting_checks"]["combat_losses"]
    assert why.startswith("no combat the UN lost waits for its losses (5.6") and "_" not in why
    ruled = api.post(f"{url}/combat", json=situation, headers=tokens["communist"])
    assert ruled.status_code == 201 and ruled.get_json()["outcome"]["loser_side"] == "communist", ruled.get_json()
    assert waiting() == {"un": True, "communist": False, "observer": False}  # the winner is not offered them
    pages = PageClient(app)
    for side, listed in (("un", False), ("communist", True)):
        pages.log_in(game["game_id"], game["tokens"][side])
        assert ("Combat losses" in pages.get(f"/games/{game['game_id']}").get_data(as_text=True)) is listed, side
    settled = api.post(f"{url}/combat_losses", json={"loser": "communist", "participating": ["nk-15"], "eliminate_all": True},
                       headers=tokens["communist"])
    assert settled.status_code == 201, settled.get_json()
    assert waiting() == {"un": True, "communist": True, "observer": True}  # settled: 5.6, a spread is satisfied once
