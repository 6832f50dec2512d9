"""The chances over HTTP: POST /api/v1/systems/<game>/<check>/odds and its game-mode twin.

Compute mode takes the check's own request without dice; a recorded game binds the request as it
binds a roll (its scenario, the asking side) and records nothing.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from adjudicator.testing import a_side, bearer, make_app, new_game
from adjudicator.words.transcript import parse_transcript

COMBAT = {"scenario": "pusan", "attacking_side": "communist", "intensive": "declared",
          "attackers": [{"unit": "nk-6", "hex": "0101", "doubled": True}],
          "defenders": [{"unit": "us-5-1m", "hex": "0201"}], "attacker_support": ["sf-com-2"]}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("odds-api")).test_client()


@pytest.mark.slow
def test_compute_mode_answers_every_outcome_with_its_fraction(client):
    response = client.post("/api/v1/systems/kwb/combat/odds", json=COMBAT)
    assert response.status_code == 200
    body = response.get_json()
    assert (body["system"], body["check"], body["exact"]) == ("kwb", "combat", True)
    assert sum(Fraction(o["fraction"]) for o in body["outcomes"]) == 1
    assert {o["result"] for o in body["outcomes"]} == {"NE", "EX", "DR", "DD", "DDR"}
    assert all(step["rule"] for step in body["steps"])
    assert body["summary"].startswith("3:1 odds")


def test_dice_are_refused_with_the_reason(client):
    response = client.post("/api/v1/systems/kwb/combat/odds", json={**COMBAT, "dice": [3]})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/dice"
    assert "no dice" in response.get_json()["detail"]


def test_a_check_without_dice_and_an_unknown_check_are_404(client):
    response = client.post("/api/v1/systems/kwb/supply/odds", json={})
    assert response.status_code == 404 and response.get_json()["type"].endswith("no-dice")
    assert client.post("/api/v1/systems/kwb/nothing/odds", json={}).status_code == 404
    assert client.post("/api/v1/systems/chess/combat/odds", json={}).status_code == 404


def test_bad_situations_are_422_not_500(client):
    response = client.post("/api/v1/systems/kwb/combat/odds", json={**COMBAT, "attackers": []})
    assert response.status_code == 422
    response = client.post("/api/v1/systems/kwb/combat/odds", data="not json", content_type="application/json")
    assert response.status_code in (400, 422)
    response = client.post("/api/v1/systems/kwb/combat/odds", data="{}", content_type="text/plain")
    assert response.status_code == 415


def test_game_mode_binds_the_game_and_records_nothing(client):
    game = new_game(client, "kwb", "pusan")
    token = game["tokens"]["un"]
    url = f"/api/v1/games/{game['game_id']}/un_supply_shortage_end/odds"
    response = client.post(url, json={"game_turn": 3}, headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["game_id"] == game["game_id"] and body["exact"]
    assert [(o["label"], o["fraction"]) for o in body["outcomes"]] == [
        ("the shortage continues", "2/3"), ("the shortage ends", "1/3")]
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(token)).get_json()
    assert ledger["game"]["head_seq"] == 0  # the creation only: nothing recorded


def test_game_mode_fills_the_scenario_and_refuses_another(client):
    game = new_game(client, "kwb", "pusan")
    url = f"/api/v1/games/{game['game_id']}/combat/odds"
    without_scenario = {k: v for k, v in COMBAT.items() if k != "scenario"}
    response = client.post(url, json=without_scenario, headers=bearer(game["tokens"]["communist"]))
    assert response.status_code == 200 and response.get_json()["request"]["scenario"] == "pusan"
    other = client.post(url, json={**COMBAT, "scenario": "inchon"}, headers=bearer(game["tokens"]["communist"]))
    assert other.status_code == 422 and other.get_json()["type"].endswith("scenario-mismatch")


def test_game_mode_needs_a_side_token(client):
    game = new_game(client, "kwb", "pusan")
    url = f"/api/v1/games/{game['game_id']}/un_supply_shortage_end/odds"
    assert client.post(url, json={"game_turn": 3}).status_code == 401
    assert client.post(url, json={"game_turn": 3}, headers=bearer("nonsense")).status_code == 401
    observer = client.post(url, json={"game_turn": 3}, headers=bearer(game["tokens"]["observer"]))
    assert observer.status_code == 403
    other_game = new_game(client, "kwb", "pusan")
    assert client.post(url, json={"game_turn": 3}, headers=bearer(a_side(other_game))).status_code == 403
    assert client.post(f"/api/v1/games/{game['game_id']}/supply/odds", json={},
                       headers=bearer(a_side(game))).status_code == 404


def test_the_systems_document_and_openapi_name_the_odds(client):
    systems = client.get("/api/v1/systems").get_json()["systems"]
    checks = {c["key"]: c for s in systems for c in s["checks"]}
    assert checks["kwb.combat"]["odds_url"] == "/api/v1/systems/kwb/combat/odds"
    assert checks["kwb.supply"]["odds_url"] is None
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    assert "/api/v1/systems/kwb/combat/odds" in paths and "/api/v1/games/{game_id}/combat/odds" in paths
    assert "/api/v1/systems/kwb/supply/odds" not in paths


def test_the_chat_line_is_not_read_as_a_ruling(client):
    body = client.post("/api/v1/systems/kwb/combat/odds", json=COMBAT).get_json()
    assert body["chat_line"] == ("Chances, Korean War Battles combat (before the roll): 3:1 odds, column 3:1: "
                                 "DD 33 %, DDR 17 %, DR 17 %, EX 17 %, NE 17 %")
    assert parse_transcript([body["chat_line"]]) == []  # a log's rulings are checked against the ledger: not this
