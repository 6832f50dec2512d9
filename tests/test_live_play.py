"""Live play over a VASSAL server (issue 44): the server's part.

Two players at one board, one ledger, each player's own log:

* a player who was not there when a ruling was posted (his room connection down, or he joins late)
  catches up from the ledger: `GET /games/<id>/rulings` gives each ruling as its check answered,
  the very lines its asker's VASSAL posted, with the hidden parts his own side may see;
* the log check takes the two players' logs kept at the same time (one live session) each alone and
  as one session, and still names a re-roll, a missing file and a forged line
  (tests/test_log_chain.py: the e-mail chain);
* the ledger's view of a unit, not a stale board, is what the next ruling is read against.

The VASSAL side (two and three real Players in one room of VASSAL's own server) is
tests/test_vassal_live_play.py.
"""

from __future__ import annotations

import pytest

from adjudicator.testing import bearer, make_app, new_game

SUPPLY = {"side": "un", "positions": [{"unit": "nkpa-1", "hex": "0818", "step": "3"},
                                      {"unit": "rok-1", "hex": "0101", "step": "2"},
                                      {"unit": "rok-6", "hex": "1220", "step": "3"}]}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("live")).test_client()


def rulings(client, game, role, query=""):
    return client.get(f"/api/v1/games/{game['game_id']}/rulings{query}", headers=bearer(game["tokens"][role]))


def test_a_player_catches_up_the_rulings_as_they_were_posted_with_his_own_sides_view(client):
    game = new_game(client, "holdfast")
    url = f"/api/v1/games/{game['game_id']}"
    asked = [client.post(f"{url}/supply?transcript=1&changes=1", json=SUPPLY, headers=bearer(game["tokens"]["un"]))
             .get_json() for _ in range(3)]
    assert [a["seq"] for a in asked] == [1, 2, 3]

    mine = rulings(client, game, "un", "?transcript=1&changes=1").get_json()
    assert [r["seq"] for r in mine["rulings"]] == [1, 2, 3] and mine["next"] is None and mine["since"] == 0
    first = mine["rulings"][0]
    assert first["transcript"] == asked[0]["transcript"]  # the very lines the asker's VASSAL posted
    assert first["private_transcript"] == asked[0]["private_transcript"]  # his own blocks, as his side sees them
    assert first["piece_changes"] == asked[0]["piece_changes"] and first["receipt"] == asked[0]["receipt"]
    assert "ROK 1 (0101) out of supply" in "\n".join(first["private_transcript"])

    theirs = rulings(client, game, "communist", "?transcript=1&changes=1").get_json()["rulings"][0]
    assert theirs["transcript"] == asked[0]["transcript"]  # everyone's lines are everyone's
    assert "ROK 1" not in "\n".join(theirs["private_transcript"] + theirs["details"])  # the fog: not his to see
    assert theirs["piece_changes"] == []  # the block it reduces is not his to know of, nor to change
    observer = rulings(client, game, "observer", "?transcript=1").get_json()["rulings"][0]
    assert "ROK 1" not in "\n".join(observer["private_transcript"] + observer["details"])

    paged = rulings(client, game, "communist", "?since=1&limit=1").get_json()
    assert [r["seq"] for r in paged["rulings"]] == [2] and paged["next"] == 2 and "transcript" not in paged["rulings"][0]
    assert [r["seq"] for r in rulings(client, game, "communist", "?since=2").get_json()["rulings"]] == [3]
    assert rulings(client, game, "communist", "?since=3").get_json() == {
        "game_id": game["game_id"], "since": 3, "rulings": [], "next": None}


def test_the_rulings_list_refuses_what_it_cannot_answer(client):
    game = new_game(client, "holdfast")
    for query in ("?since=-1", "?since=x", "?limit=0", "?limit=101"):
        refused = rulings(client, game, "un", query)
        assert refused.status_code == 400 and refused.get_json()["type"].endswith(":bad-parameter"), query
    assert client.get(f"/api/v1/games/{game['game_id']}/rulings").status_code == 401
    other = new_game(client, "holdfast")
    assert client.get(f"/api/v1/games/{game['game_id']}/rulings", headers=bearer(other["tokens"]["un"])).status_code == 403
    assert client.post(f"/api/v1/games/{game['game_id']}/rulings", json={},
                       headers=bearer(game["tokens"]["un"])).status_code in (404, 405)
