"""Every HoldFast Korea check through the HTTP API in compute mode, and bad input as 422."""

import pytest

from rules_helpers import compute_client, ok, poster
from test_rules_holdfast_fixtures import REAL

SETUP = [{"unit": p.unit, "hex": p.location, "step": p.step}
         for p in REAL.scenarios["campaign"].setup if p.is_on_map]
post = poster("holdfast")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return compute_client(tmp_path_factory, "holdfast")


@pytest.mark.slow
def test_combat(client):
    body = ok(post(client, "combat", {
        "turn": 6, "weather": "clear", "attackers": [{"unit": "nkpa-1", "sp": 3, "across_river": True}],
        "defender": {"unit": "un-2", "sp": 4}, "defender_terrain": "city", "coastal": True,
        "attacker_support": ["armor"], "defender_support": ["air", "naval"],
        "dice": [5, 6, 1, 1] + [6, 2, 2, 2, 2, 2, 2, 2, 2]}))
    assert body["outcome"]["attacker_dice"] == 3 - 1 + 2 and body["outcome"]["defender_dice"] == 4 + 1 + 4
    assert body["outcome"]["defender"]["sp"] == 2 and body["outcome"]["communist_armor_level"] == 1
    assert [d["purpose"] for d in body["dice_used"]][:1] == ["attacker combat dice"]


def test_combat_bad_support_is_422(client):
    response = post(client, "combat", {
        "turn": 6, "weather": "overcast", "attackers": [{"unit": "un-2", "sp": 4, "across_river": False}],
        "defender": {"unit": "nkpa-1", "sp": 3}, "defender_terrain": "clear", "attacker_support": ["air"], "dice": []})
    assert response.status_code == 422
    assert "clear weather" in response.get_json()["detail"]


def test_combat_wrong_dice_count_is_422(client):
    response = post(client, "combat", {
        "turn": 6, "weather": "clear", "attackers": [{"unit": "un-2", "sp": 4, "across_river": False}],
        "defender": {"unit": "nkpa-1", "sp": 3}, "defender_terrain": "clear", "dice": [1, 2]})
    assert response.status_code == 422


def test_naval_assault_on_an_empty_port_and_a_bad_target(client):
    gm = REAL.maps["korea"]
    inchon = gm.grid.label(gm.find_named("Inch'on")[0])
    body = ok(post(client, "naval_assault", {"turn": 6, "weather": "clear", "attacker": {"unit": "usmc-1", "sp": 6},
                                             "from_port": "fec", "target_port": inchon,
                                             "communist_controlled_ports": [inchon], "dice": []}))
    assert body["outcome"]["occupies_port"] and body["outcome"]["rp_cost"] == 3
    response = post(client, "naval_assault", {"turn": 6, "weather": "clear", "attacker": {"unit": "usmc-1", "sp": 6},
                                              "from_port": "fec", "target_port": inchon, "dice": []})
    assert response.status_code == 422 and "UN-controlled" in response.get_json()["detail"]


def test_naval_transfer(client):
    gm = REAL.maps["korea"]
    pusan = gm.grid.label(gm.find_named("Pusan")[0])
    body = ok(post(client, "naval_transfer", {"unit": "un-24", "from_port": "fec", "to_port": pusan}))
    assert body["outcome"]["rp_cost"] == 1
    assert post(client, "naval_transfer", {"unit": "nkpa-1", "from_port": "fec", "to_port": pusan}).status_code == 422


def test_supply(client):
    body = ok(post(client, "supply", {"side": "communist", "positions": SETUP}))
    assert len(body["outcome"]["units"]) == 10
    assert post(client, "supply", {"side": "un", "positions": [{"unit": "nobody", "hex": "0101"}]}).status_code == 422


def test_movement(client):
    start = next(p for p in SETUP if p["unit"] == "rok-1")["hex"]
    gm = REAL.maps["korea"]
    h = gm.grid.parse(start)
    nxt = next(gm.grid.label(n) for n in gm.grid.neighbours(h) if gm.terrain_at(n) != "sea")
    body = ok(post(client, "movement", {"unit": "rok-1", "path": [start, nxt], "weather": "clear",
                                        "positions": SETUP}))
    assert "legal" in body["outcome"]
    assert post(client, "movement", {"unit": "rok-1", "path": [start], "weather": "clear"}).status_code == 422


def test_chinese_intervention_automatic_on_turn_14(client):
    body = ok(post(client, "chinese_intervention", {"turns_after_crossing": 0, "turn": 14, "dice": []}))
    assert body["outcome"]["intervenes"]
    assert post(client, "chinese_intervention", {"turns_after_crossing": 1, "turn": 99, "dice": [6]}).status_code == 422


def test_resource_points(client):
    body = ok(post(client, "resource_points", {"turn": 6}))
    assert body["outcome"]["un_rp"] == 16 and body["outcome"]["communist_rp"] == 10
    assert post(client, "resource_points", {"turn": 0}).status_code == 422


def test_weather(client):
    body = ok(post(client, "weather", {"turn": 12, "dice": [1]}))
    # Turn 12 (1 Dec 1950) rolls on December's ranges (clear 1-2 in the stand-in table): a 1 is clear.
    assert (body["outcome"]["weather"], body["outcome"]["roll"], body["outcome"]["month"]) == ("clear", 1, "Dec")
    assert any("Stand-in" in w for w in body["warnings"])
    assert post(client, "weather", {"turn": 12, "dice": [7]}).status_code == 422


def test_victory(client):
    body = ok(post(client, "victory", {"side": "un", "positions": SETUP, "last_turn": True}))
    # The setup after the last turn: no side holds every star city; in supply beyond the 38th, UN 1, Communist 0.
    assert (body["outcome"]["winner"], body["outcome"]["how"]) == ("un", "end of game")
    assert body["outcome"]["units_beyond_38th"] == {"communist": 0, "un": 1}
    assert post(client, "victory", {"side": "un", "star_city_control": {"0101": "un"}}).status_code == 422


def test_replacements(client):
    body = ok(post(client, "replacements", {"side": "un", "replacements": [{"unit": "usmc-1-r", "sp": 1, "add": 1}]}))
    assert body["outcome"]["rp_cost"] == 3
    assert post(client, "replacements", {"side": "un", "replacements": []}).status_code == 422
