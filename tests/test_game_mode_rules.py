"""A recorded game plays by its rules: who may roll, which scenario, which checks (issue #18).

Every game-mode check says whose action it is (`actor`, declared by the rules package); a roll
asked with the other side's token is refused with 403 and nothing is recorded. A request is bound
to the game's scenario, and an unknown check is named with the game's own checks.
"""

from __future__ import annotations

import pytest

from adjudicator.checks import all_checks
from adjudicator.testing import bearer, make_app, new_game

HOLDFAST_ATTACK = {"turn": 6, "weather": "clear", "attackers": [{"unit": "nkpa-1", "sp": 3, "across_river": True}],
                   "defender": {"unit": "un-2", "sp": 4}, "defender_terrain": "city", "coastal": True,
                   "attacker_support": ["armor"], "defender_support": ["air", "naval"]}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("game-mode-rules")).test_client()


def ledger_length(client, game) -> int:
    body = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"]["observer"]))
    return len(body.get_json()["records"])


def roll(client, game, check, body, side):
    return client.post(f"/api/v1/games/{game['game_id']}/{check}", json=body, headers=bearer(game["tokens"][side]))


def test_the_un_cannot_resolve_a_communist_attack(client):
    game = new_game(client, "holdfast", "campaign")
    refused = roll(client, game, "combat", HOLDFAST_ATTACK, "un")
    assert refused.status_code == 403 and refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["type"].endswith(":not-your-roll")
    assert problem["may_roll"] == ["communist"]
    assert "Only the Communist player may roll Combat here" in problem["detail"]
    assert "9.2" in problem["detail"] and "Nothing was recorded" in problem["detail"]
    assert ledger_length(client, game) == 1  # the creation record only
    done = roll(client, game, "combat", HOLDFAST_ATTACK, "communist")
    assert done.status_code == 201
    assert done.get_json()["side"] == "communist"
    records = client.get(f"/api/v1/games/{game['game_id']}/ledger",
                         headers=bearer(game["tokens"]["un"])).get_json()["records"]
    assert records[-1]["body"]["side"] == "communist"  # the acting side is in the record


@pytest.mark.parametrize("system,scenario,check,body,roller", [
    ("holdfast", "campaign", "weather", {"turn": 12}, "communist"),             # 7: rolled by the Communist
    ("holdfast", "campaign", "chinese_intervention", {"turns_after_crossing": 3}, "communist"),
    ("kwb", "pusan", "un_supply_shortage_end", {"game_turn": 5}, "un"),       # 12.1.1: the UN rolls
    ("kwb", "pusan", "supply_center_move", {"from_hex": "2402"}, "communist"),
    ("fireandice", "campaign", "roc_intervention", {"communist_vp": 12}, "un"),
    ("fireandice", "campaign", "soviet_intervention", {"un_vp": 16}, "communist"),
    ("spi", "intervention", "north_edge_return", {}, "un"),
])
def test_a_roll_the_rules_give_one_side_is_refused_to_the_other(client, system, scenario, check, body, roller):
    game = new_game(client, system, scenario)
    other = next(side for side in game["tokens"] if side not in (roller, "observer"))
    assert roll(client, game, check, body, other).status_code == 403
    assert roll(client, game, check, body, roller).status_code == 201
    assert ledger_length(client, game) == 2


def test_the_side_a_field_names_acts_and_is_the_askers_side_by_default(client):
    game = new_game(client, "fireandice", "campaign")
    situation = {"combat_type": "Hasty Attack", "terrain": "clear", "attacker": "un", "attacking": {}, "defending": {}}
    assert roll(client, game, "combat", situation, "communist").status_code == 403
    omitted = {k: v for k, v in situation.items() if k != "attacker"}
    done = roll(client, game, "combat", omitted, "communist")  # attacker: the asking side
    assert done.status_code == 201
    record = client.get(f"/api/v1/games/{game['game_id']}/ledger",
                        headers=bearer(game["tokens"]["un"])).get_json()["records"][-1]
    assert record["body"]["request"]["attacker"] == "communist" and record["body"]["side"] == "communist"
    # the old spelling of the side is read as the new one
    assert roll(client, game, "combat", {**omitted, "attacker": "com"}, "communist").status_code == 201


def test_either_side_may_ask_where_the_rules_allow(client):
    game = new_game(client, "fireandice", "campaign")
    for side in ("un", "communist"):
        assert roll(client, game, "random_event", {"table": "B", "attacker": "un"}, side).status_code == 201


def test_units_of_both_sides_have_no_single_owner(client):
    """Where the owner of the units named acts, units of both sides leave no side to ask alone (the
    games' own validators mostly refuse such requests first; this shows the service's answer)."""
    from pydantic import Field

    from adjudicator.checks import CheckRequest, CheckResult, register_check, unregister_check
    from adjudicator.rules.gamedata import owner_of

    class Units(CheckRequest):
        units: list[str] = Field(max_length=4)

    register_check(system="kwb", name="test_owned_roll", request=Units, random=True, summary="test", rule="-",
                   actor=owner_of("kwb", "the units", "-", lambda r: r.units))(
        lambda req, dice: CheckResult(outcome={"roll": dice.roll(6)[0]}))
    try:
        game = new_game(client, "kwb", "pusan")
        for side in ("un", "communist"):
            refused = roll(client, game, "test_owned_roll", {"units": ["nk-6", "us-5-1m"]}, side)
            assert refused.status_code == 403 and "both sides" in refused.get_json()["detail"]
            assert refused.get_json()["may_roll"] == []
        assert roll(client, game, "test_owned_roll", {"units": ["nk-6"]}, "un").status_code == 403
        assert roll(client, game, "test_owned_roll", {"units": ["nk-6"]}, "communist").status_code == 201
        assert ledger_length(client, game) == 2
    finally:
        unregister_check("kwb", "test_owned_roll")


def test_a_request_is_bound_to_the_games_scenario(client):
    game = new_game(client, "spi", "campaign")
    supply = {"side": "communist", "positions": [{"unit": "nk-d6", "hex": "1518"}, {"unit": "nk-d1", "hex": "1818"}]}
    other = roll(client, game, "supply", {**supply, "scenario": "invasion"}, "un")
    assert other.status_code == 422
    problem = other.get_json()
    assert problem["type"].endswith(":scenario-mismatch") and problem["errors"][0]["pointer"] == "/scenario"
    assert "campaign" in problem["detail"] and "invasion" in problem["detail"]
    same = roll(client, game, "supply", {**supply, "scenario": "campaign"}, "un")
    omitted = roll(client, game, "supply", supply, "un")
    assert same.status_code == omitted.status_code == 201
    records = client.get(f"/api/v1/games/{game['game_id']}/ledger",
                         headers=bearer(game["tokens"]["un"])).get_json()["records"]
    assert [r["body"]["request"]["scenario"] for r in records[1:]] == ["campaign", "campaign"]


def test_a_check_of_another_scenario_is_refused(client):
    game = new_game(client, "kwb", "seoul")
    refused = roll(client, game, "un_supply_shortage_end", {"game_turn": 5}, "un")
    assert refused.status_code == 422 and "(Pusan Perimeter)" in refused.get_json()["detail"]  # the scenario by name
    assert "un_supply_shortage_end" not in refused.get_json()["checks"]


def test_an_unknown_check_is_named_with_the_games_checks(client):
    game = new_game(client, "kwb", "pusan")
    response = roll(client, game, "combatt", {}, "un")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert "'combatt'" in problem["detail"] and "combat" in problem["checks"]
    assert "Korean War Battles" in problem["detail"]
    assert client.post(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"]["un"])).status_code == 405


def test_every_check_declares_who_acts_and_the_systems_document_says_it(client):
    systems = client.get("/api/v1/systems").get_json()["systems"]
    listed = {f"{s['id']}.{c['name']}": c for s in systems for c in s["checks"]}
    for spec in all_checks():
        actor = listed[spec.key]["actor"]
        assert actor["description"] and actor["rule"], spec.key
        if actor["field"]:
            assert actor["field"] in spec.request.model_fields, spec.key
