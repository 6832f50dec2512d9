"""Every SPI Korea check through the HTTP API in compute mode, and bad input as 422."""

import pytest

from rules_helpers import adjacent_clear_pair, compute_client, ok, poster
from test_rules_spi_fixtures import REAL

SETUP = [{"unit": p.unit, "hex": p.location} for p in REAL.scenarios["stalemate"].setup
         if p.is_on_map and not p.is_marker]
post = poster("spi")


def land_pair():
    """Two adjacent land hexes of the real map with nothing on their hexside."""
    return adjacent_clear_pair(REAL.maps["korea"], without_features=True)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return compute_client(tmp_path_factory, "spi")


@pytest.mark.slow
def test_every_spi_check_is_listed(client):
    systems = client.get("/api/v1/systems").get_json()["systems"]
    spi = next(s for s in systems if s["id"] == "spi")
    names = {c["name"] for c in spi["checks"]}
    assert {"combat", "supply", "movement_cost", "victory", "chinese_intervention", "shock_effect",
            "north_edge_return", "partisans"} <= names


def test_combat(client):
    a, d = land_pair()
    body = ok(post(client, "combat", {"scenario": "stalemate", "defender_hex": d, "table": "meeting",
                                      "attackers": [{"unit": "us-d2", "hex": a}], "defenders": [{"unit": "nk-d1"}],
                                      "dice": [4]}))
    assert body["outcome"]["roll"] == 4 and any("Stand-in table crt_meeting" in w for w in body["warnings"])
    bad = post(client, "combat", {"scenario": "stalemate", "defender_hex": d, "table": "position",
                                  "attackers": [{"unit": "us-d2", "hex": a}], "defenders": [{"unit": "nk-d1"}],
                                  "dice": [4]})
    assert bad.status_code == 422 and "Position Defense" in str(bad.get_json())


@pytest.mark.slow
def test_supply(client):
    body = ok(post(client, "supply", {"scenario": "stalemate", "side": "un", "positions": SETUP}))
    assert body["outcome"]["units"]
    bad = post(client, "supply", {"scenario": "stalemate", "side": "un", "positions": [{"unit": "nobody", "hex": "0101"}]})
    assert bad.status_code == 422


def test_movement_cost(client):
    a, d = land_pair()
    body = ok(post(client, "movement_cost", {"scenario": "stalemate", "unit": "nk-d1", "path": [a, d]}))
    assert body["outcome"]["legal"]
    assert post(client, "movement_cost", {"scenario": "stalemate", "unit": "nk-d1", "path": [a]}).status_code == 422


def test_victory(client):
    body = ok(post(client, "victory", {"scenario": "stalemate", "positions": SETUP,
                                       "last_occupied": [{"place": "Pyongyang", "side": "communist"}]}))
    assert body["outcome"]["victory"]
    assert post(client, "victory", {"scenario": "stalemate", "positions": SETUP,
                                    "last_occupied": [{"place": "Atlantis", "side": "un"}]}).status_code == 422


def test_chinese_intervention_and_shock_effect(client):
    body = ok(post(client, "chinese_intervention", {"game_turn": 20, "non_korean_un_combat_north_of_38th_turn": 19}))
    assert body["outcome"]["armies_this_turn"] == 2
    assert post(client, "chinese_intervention", {"game_turn": 0}).status_code == 422
    assert ok(post(client, "shock_effect", {"intervention_turn": 20, "declared_turn": 22}))["outcome"]["shock_turns"] == [
        22, 23, 24]
    assert post(client, "shock_effect", {"intervention_turn": 20, "declared_turn": 40}).status_code == 422


def test_north_edge_return(client):
    assert ok(post(client, "north_edge_return", {"dice": [2]}))["outcome"]["second_10_3_arrives_now"]
    assert post(client, "north_edge_return", {"dice": [7]}).status_code == 422


def test_partisans(client):
    body = ok(post(client, "partisans", {"positions": SETUP}))
    assert body["outcome"]["in_force"] in (True, False)
    assert post(client, "partisans", {"positions": [{"unit": "rok-d1", "hex": "9999"}]}).status_code == 422
