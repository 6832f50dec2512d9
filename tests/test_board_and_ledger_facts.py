"""What the board and the ledger show is read from them, never taken from a form (issue 27).

KWB 12.1.1: "The UN is initially subject to a supply shortage, and thus the UN player may apply no
more than one Support Fire marker to any one combat ... until the supply shortage ends ... if the
number rolled is less than the game-turn number, the supply shortage is permanently ended."
Fire and Ice: support levels are markers on the Support Level Track (8.1); "the defender rolls a
D10 if fresh" (5.4.1) — a spent defender's counter shows its spent side.
"""

from __future__ import annotations

import io
import json

import pytest

from adjudicator.testing import bearer, make_app, new_game
from tests.engine.play import adjacent_combat

COMBAT = {"attacking_side": "communist", "intensive": "none", "attackers": [{"unit": "nk-6", "hex": "0101"}],
          "defenders": [{"unit": "us-5-1m", "hex": "0201"}]}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("facts")).test_client()


def roll(client, game, side, check, body):
    return client.post(f"/api/v1/games/{game['game_id']}/{check}", json=body, headers=bearer(game["tokens"][side]))


def end_the_shortage(client, game) -> int:
    """Roll the UN's end-of-turn check on turn 7 (every die is below 7): the record's seq."""
    ended = roll(client, game, "un", "un_supply_shortage_end", {"game_turn": 7})
    assert ended.status_code == 201 and ended.get_json()["outcome"]["shortage_ended"]
    return ended.get_json()["seq"]


def test_a_pusan_combat_takes_the_shortage_from_the_ledger(client):
    game = new_game(client, "kwb", "pusan")
    two_markers = roll(client, game, "communist", "combat",
                       {**COMBAT, "defender_support": ["sf-un-1", "sf-un-2"], "defender_hq_loc": True})
    assert two_markers.status_code == 422 and "at most 1 Support Fire marker" in two_markers.get_json()["detail"]
    untouched = roll(client, game, "communist", "combat", {**COMBAT, "un_supply_shortage": False})
    assert untouched.status_code == 201 and untouched.get_json()["request"]["un_supply_shortage"] is True
    first = roll(client, game, "communist", "combat", {**COMBAT, "request_id": "t1-c1"})
    assert first.status_code == 201 and first.get_json()["request"]["un_supply_shortage"] is True

    seq = end_the_shortage(client, game)
    again = roll(client, game, "un", "un_supply_shortage_end", {"game_turn": 8})
    assert again.status_code == 422 and again.get_json()["type"].endswith(":check-closed")
    assert f"record {seq}" in again.get_json()["detail"]
    later = roll(client, game, "communist", "combat", COMBAT)
    assert later.status_code == 201 and later.get_json()["request"]["un_supply_shortage"] is False
    claimed = roll(client, game, "communist", "combat", {**COMBAT, "un_supply_shortage": True})
    assert claimed.status_code == 422 and claimed.get_json()["type"].endswith(":contradicts-game")
    assert f"record {seq} rolled" in claimed.get_json()["detail"]
    retry = roll(client, game, "communist", "combat", {**COMBAT, "request_id": "t1-c1"})  # a late retry
    assert retry.status_code == 200 and retry.get_json()["seq"] == first.get_json()["seq"]


def test_outside_pusan_there_is_no_shortage_to_claim(client):
    game = new_game(client, "kwb", "seoul")
    spi_like = {**COMBAT, "un_supply_shortage": True}
    response = roll(client, game, "communist", "combat", spi_like)
    assert response.status_code == 422


def test_the_roll_page_starts_from_the_game_and_says_why(client):
    game = new_game(client, "kwb", "pusan")
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["communist"]})
    page = client.get(f"/games/{game['game_id']}/checks/combat").get_data(as_text=True)
    assert 'id="game-facts"' in page and "no end-of-turn roll in this game" in page
    assert 'name="un_supply_shortage" id="roll-un_supply_shortage" checked' in page
    end_the_shortage(client, game)
    page = client.get(f"/games/{game['game_id']}/checks/combat").get_data(as_text=True)
    assert 'name="un_supply_shortage" id="roll-un_supply_shortage" checked' not in page
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["un"]})
    closed = client.get(f"/games/{game['game_id']}/checks/un_supply_shortage_end").get_data(as_text=True)
    assert 'data-kind="check-closed"' in closed


def _upload_check(client, game, side, data, combat, request):
    from tests.test_savedgame_checks import hex_of

    return client.post(
        f"/api/v1/games/{game['game_id']}/savedgame/checks/combat", headers=bearer(game["tokens"][side]),
        data={"file": (io.BytesIO(data), "setup.vsav"), "attackers": ",".join(combat.attackers),
              "target_hex": hex_of(combat.game, combat.scenario, combat.defender), "request": json.dumps(request)},
        content_type="multipart/form-data")


@pytest.mark.slow
def test_a_fire_and_ice_combat_reads_the_track_and_the_units_sides(client, modules):
    """The campaign setup: rok-1 stands spent, the support markers on their track cells. A request
    claiming the example's levels records the board's values instead: the levels are where the
    markers stand, the units and the side each shows are the pieces'."""
    combat = adjacent_combat("fireandice")
    data = modules[("fireandice", 1)][2][f"setups/{combat.scenario.id}.vsav"]
    game = new_game(client, "fireandice", combat.scenario.id)
    side = combat.game.units[combat.attackers[0]].side
    other = "communist" if side == "un" else "un"
    claimed = {"combat_type": "Prepared Attack", f"{side}_tank_level": 6, f"{side}_artillery_level": 7,
               f"{other}_tank_level": 5, f"{other}_artillery_level": 4, "defending": {"adjacent_units": 1}}
    response = _upload_check(client, game, side, data, combat, claimed)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    recorded, filled = body["request"], body["savedgame"]["filled"]
    positions = client.post("/api/v1/systems/fireandice/savedgame/positions", data=data,
                            content_type="application/octet-stream").get_json()
    cells = {m["marker"]: m["location"].get("cell") for m in positions["markers"]}
    prefix = {"un": "un", "communist": "com"}
    assert recorded[f"{side}_tank_level"] == int(cells[f"{prefix[side]}-tank"])
    assert recorded[f"{other}_artillery_level"] == int(cells[f"{prefix[other]}-artillery"])
    assert filled[f"/{side}_tank_level"] == f"track:support:{prefix[side]}-tank"
    assert recorded["defending"]["adjacent_units"] == 1  # what the board cannot show stays the player's
    defender = next(u for u in positions["units"] if u["unit"] == combat.defender)
    assert recorded["defenders"] == [{"unit": combat.defender, "hex": defender["location"]["hex"], "step": defender["step"]}]
    assert [a["unit"] for a in recorded["attackers"]] == combat.attackers
    assert defender["step"] == "spent"  # rok-1, as the setup has it: a d6, whatever the dice roll (5.4.1)
    assert [d["sides"] for d in body["dice_used"] if "defender" in d["purpose"].lower()] == [6]
    assert body["outcome"]["flipped_spent"] == [] and body["outcome"]["defender_becomes_spent"] is False


@pytest.mark.slow
def test_a_pusan_saved_game_shows_the_shortage_marker(client, modules):
    combat = adjacent_combat("kwb")
    data = modules[("kwb", 1)][2][f"setups/{combat.scenario.id}.vsav"]
    game = new_game(client, "kwb", combat.scenario.id)
    response = _upload_check(client, game, "communist", data, combat, {"intensive": "none"})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["request"]["un_supply_shortage"] is True
    assert "UN Supply Shortage marker is on the board" in response.get_json()["savedgame"]["read"]["/un_supply_shortage"]
