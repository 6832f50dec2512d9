"""A first turn at the table through the saved-game routes (issue 45): Fire and Ice's Invasion and SPI's
Intervention Game, the checks built from the setups' files as a player's click builds them.

Fire and Ice 16.0: "South Korea (all units start spent - HQs are fresh)"; "North Korea (all units start
fresh)". ROK 6 stands spent in 3043, NK 2 fresh in 3042; the Support Level Track shows the Communist's
tank 6, artillery 4, air 4 and the UN's 0. Spent: "HQ or unit that has ended its activation this game
turn and is no longer available to be active" (Glossary), and "a spent unit may support a friendly active
attacker if it is adjacent to the combat hex (see 5.3). He can't do anything else." (9.3).
"""

from __future__ import annotations

import io
import json

import pytest

from adjudicator.bridge.writeback import piece_changes, ruling_log
from adjudicator.bridge import read_positions, read_upload
from adjudicator.checks import get_check
from adjudicator.testing import bearer, choose_seeds, make_app, new_game, seed_where
from scenarios import load_game
from tests.engine.play import board_request

INVASION = ("fireandice", "invasion")
ROK_6, NK_2 = ("rok-6", "3043"), ("nk-2", "3042")
#: The Invasion's Support Level Track (16.0; the setup's markers).
INVASION_LEVELS = {"communist_tank_level": 6, "communist_artillery_level": 4, "communist_air_level": 4,
                   "un_tank_level": 0, "un_artillery_level": 0, "un_air_level": 0, "un_bombardment_level": 0}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("first-turn"))


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


def recorded_game(app, client, system: str, scenario: str, seed: bytes) -> dict:
    """A recorded game whose dice follow from `seed` (adjudicator.testing)."""
    choose_seeds(app, {f"{system}/{scenario}": seed})
    return new_game(client, system, scenario)


def setup_file(modules, game_id: str, scenario_id: str) -> bytes:
    return modules[(game_id, 1)][2][f"setups/{scenario_id}.vsav"]


def ask(client, url: str, data: bytes, token: str | None = None, **fields):
    """A check asked from a saved game, as a player's click sends it: the file, what he points at, his fields."""
    form = {"file": (io.BytesIO(data), "game.vsav"), **{k: (json.dumps(v) if k == "request" else v)
                                                       for k, v in fields.items()}}
    return client.post(url + ("&" if "?" in url else "?") + "transcript=1", data=form, content_type="multipart/form-data",
                       headers=bearer(token) if token else {})


def ledger(client, game: dict, side: str) -> list[dict]:
    return client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"][side])).get_json()["records"]


@pytest.mark.slow
def test_a_spent_unit_may_not_declare_a_combat(client, modules):
    """The UN selects ROK 6 (spent) and attacks NK 2: refused in the rulebook's words, nothing recorded;
    flipped as its activation began, the player says so and it may."""
    game = new_game(client, *INVASION)
    data = setup_file(modules, *INVASION)
    url = f"/api/v1/games/{game['game_id']}/savedgame/checks/combat"
    refused = ask(client, url, data, game["tokens"]["un"], attackers=ROK_6[0], target_hex=NK_2[1],
                  request={"combat_type": "Hasty Attack"})
    assert refused.status_code == 422, refused.get_json()
    detail = refused.get_json()["detail"]
    assert "ROK 6 (3043) shows its spent side and may not declare a combat" in detail
    assert "no longer available to be active" in detail and "He can't do anything else" in detail and "9.3" in detail
    assert [r["seq"] for r in ledger(client, game, "un")] == [0]
    activated = ask(client, url.replace(f"/games/{game['game_id']}", "/systems/fireandice"), data,
                    attackers=ROK_6[0], target_hex=NK_2[1],
                    request={"combat_type": "Hasty Attack", "chit": "H01", "declaring_unit_activated": True,
                             "dice": [5, 4]})
    assert activated.status_code == 200, activated.get_json()


def test_a_fresh_unit_is_ruled_with_its_units_named_and_the_tracks_levels(client, modules):
    """The Communist selects NK 2 (fresh) and attacks ROK 6 (spent), a calculation with his own dice: the
    request built from the file names both units, their hexes and sides, and the Support Level Track's
    levels, whatever the player's fields said; the spent defender rolls a D6 and is not made spent."""
    data = setup_file(modules, *INVASION)
    response = ask(client, "/api/v1/systems/fireandice/savedgame/checks/combat", data, attackers=NK_2[0],
                   target_hex=ROK_6[1], side="communist",
                   request={"combat_type": "Hasty Attack", "chit": "H01", "communist_tank_level": 9, "dice": [7, 2]})
    body = response.get_json()
    assert response.status_code == 200, body
    built = body["savedgame"]["request"]
    assert built["attackers"] == [{"unit": "nk-2", "hex": "3042", "step": "fresh"}]
    assert built["defenders"] == [{"unit": "rok-6", "hex": "3043", "step": "spent"}]
    assert {k: built[k] for k in INVASION_LEVELS} == INVASION_LEVELS  # the track's, not the 9 the player typed
    assert body["savedgame"]["filled"]["/communist_tank_level"] == "track:support:com-tank"
    assert [(d["sides"], d["value"]) for d in body["dice_used"]] == [(10, 7), (6, 2)]
    out = body["outcome"]
    assert out["defender_die"] == 6 and out["defender_becomes_spent"] is False and out["flipped_spent"] == []
    assert out["declaring_unit"] == {"unit": "nk-2", "hex": "3042"} and out["defending_unit"] == {"unit": "rok-6", "hex": "3043"}
    assert out["participants"] == {"attacker": ["nk-2"], "defender": ["rok-6"]}
    assert not any("becomes spent" in s["text"] for s in body["steps"])
    assert body["steps"][0]["text"].startswith("NK 2 (3042, fresh) declares a Hasty Attack on 3043. Defending: ROK 6 "
                                               "(3043, spent).")
    # H01: D10 +0, planning row A (tank, artillery, air 4 each): tank 6 - 4 = 2 in clear terrain, the others 0;
    # 7 + 2 = 9 against the D6's 2 and the UN's empty track: 7, limited to 5 (5.6)
    assert out["attacker_total"] == 9 and out["defender_total"] == 2 and out["spread"] == 5
    headline = body["transcript"][0]
    assert "NK 2 (3042) attacks ROK 6 (3043): 9 against 2: the Communist wins, spread 5" in headline


def test_the_month_is_a_choice_and_the_turn_track_gives_it(client, modules):
    """The month is one of the Game Turn Record Track's, never a pattern to type; a saved game's turn gives it."""
    bad = client.post("/api/v1/systems/fireandice/weather", json={"month": "June 1950", "dice": [1]})
    assert bad.status_code == 422
    detail = bad.get_json()["detail"]
    assert detail.startswith("/month: 'June 1950' is not one of the choices")
    allowed = bad.get_json()["errors"][0]["allowed"]
    assert allowed[:2] == ["1950-06", "1950-07"] and allowed[-1] == "1951-07"  # the choices, in the track's order
    assert "pattern" not in detail
    systems = client.get("/api/v1/systems").get_json()["systems"]
    fireandice = next(s for s in systems if s["id"] == "fireandice")
    weather = next(c for c in fireandice["checks"] if c["name"] == "weather")
    assert weather["request_schema"]["properties"]["month"]["enum"][0] == "1950-06"
    invasion = next(s for s in fireandice["scenarios"] if s["id"] == "invasion")
    assert invasion["months"]["1"] == "1950-06"  # what the extension's month role reads for turn 1
    data = setup_file(modules, *INVASION)
    response = ask(client, "/api/v1/systems/fireandice/savedgame/checks/weather", data, request={"dice": [1]})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["savedgame"]["request"]["month"] == "1950-06"


def test_the_losing_player_settles_the_combat_from_the_board(app, client, modules):
    """NK 2 beats ROK 6 with a spread of 1 (the dice chosen); the UN player points at ROK 6 ("Combat losses for
    this unit") and names it by its counter's name: the server takes the spread, the participating units and the
    combat hex from the combat's record, and the ruling eliminates ROK 6."""
    data = setup_file(modules, *INVASION)
    combat = board_request(*INVASION, data, "combat", "communist", [NK_2[0]], ROK_6[1], {"combat_type": "Hasty Attack"})
    seed = seed_where(get_check("fireandice", "combat"), combat,
                      lambda o: o["winner_side"] == "communist" and o["spread"] == 1)
    game = recorded_game(app, client, *INVASION, seed)
    base = f"/api/v1/games/{game['game_id']}/savedgame/checks"
    ruled = ask(client, f"{base}/combat", data, game["tokens"]["communist"], attackers=NK_2[0], target_hex=ROK_6[1],
                request={"combat_type": "Hasty Attack"})
    assert ruled.status_code == 201, ruled.get_json()
    assert ruled.get_json()["outcome"]["spread"] == 1 and ruled.get_json()["outcome"]["loser_side"] == "un"
    settled = ask(client, f"{base}/combat_losses?changes=1", data, game["tokens"]["un"], unit=ROK_6[0],
                  request={"eliminate": ["ROK 6"]})
    body = settled.get_json()
    assert settled.status_code == 201, body
    built = body["savedgame"]["request"]
    assert (built["combat_record"], built["spread"], built["participating"], built["combat_hex"], built["loser"]) == \
        (1, 1, ["rok-6"], "3043", "un")
    assert body["savedgame"]["filled"]["/unit"] == "unit" and len(built["positions"]) > 10
    assert body["outcome"]["eliminated"] == ["rok-6"] and body["outcome"]["combat_record"] == 1
    again = ask(client, f"{base}/combat_losses", data, game["tokens"]["un"], unit=ROK_6[0], request={"eliminate_all": True})
    assert again.status_code == 422 and "no combat that ROK 6 fought in" in again.get_json()["detail"]


@pytest.mark.slow
def test_an_spi_d1_broken_down_by_the_write_back_and_checked_in_the_log(app, client, modules):
    """The Intervention Game: CPV 38 attacks ROK 6 on the Pursuit table, D1 r2 (the dice chosen). The ruling from
    the file breaks ROK 6 down into counters lying in the UN's box; the log the write-back makes verifies, the
    log with the ruling's lines alone does not."""
    intervention = ("spi", "intervention")
    data = setup_file(modules, *intervention)
    given = {"table": "pursuit"}
    request = board_request(*intervention, data, "combat", "communist", ["cpv-a38"], "1706", given)
    game = recorded_game(app, client, *intervention,
                         seed_where(get_check("spi", "combat"), request, lambda o: o["cell"] == "D1 r2"))
    ruled = ask(client, f"/api/v1/games/{game['game_id']}/savedgame/checks/combat?changes=1", data,
                game["tokens"]["communist"], attackers="cpv-a38", target_hex="1706", request=given)
    answer = ruled.get_json()
    assert ruled.status_code == 201, answer
    assert [c["kind"] for c in answer["piece_changes"]] == ["broken_down", "retreat", "retreat"]
    saved = read_upload(data)
    positions = read_positions(load_game("spi"), saved)
    changes = piece_changes(positions, answer["outcome"], "communist")
    assert [(c.unit, c.does) for c in changes][:4] == [("rok-d6", "to-box"), ("rok-r2", "place"), ("rok-r-1", "place"),
                                                       ("rok-r7", "dead-pile")]
    assert any(c.does == "left" and "retreat 2 hexes" in c.why for c in changes)

    def log_check(log: bytes) -> list:
        checked = client.post(f"/api/v1/games/{game['game_id']}/savedgame/log-check",
                              data={"file": (io.BytesIO(log), "turn.vlog")}, content_type="multipart/form-data",
                              headers=bearer(game["tokens"]["observer"]))
        assert checked.status_code == 200, checked.get_json()
        return [(r["seq"], r["status"]) for r in checked.get_json()["rulings"]]

    assert log_check(ruling_log(data, saved, positions, answer["transcript"], changes)) == [(1, "verified")]
    assert log_check(ruling_log(data, saved, positions, answer["transcript"], [])) == [(1, "not-applied")]
