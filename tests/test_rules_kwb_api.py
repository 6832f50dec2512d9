"""Every Korean War Battles check through the HTTP API in compute mode, and bad input as 422."""

import pytest

from rules_helpers import adjacent_clear_pair, compute_client, ok, poster
from test_rules_kwb_fixtures import REAL

SETUP = [{"unit": p.unit, "hex": p.location, "step": p.step}
         for p in REAL.scenarios["pusan"].setup if p.is_on_map and not p.is_marker]
post = poster("kwb")


def clear_pair(map_id):
    """Two adjacent clear hexes of a real map with no water hexside between them."""
    return adjacent_clear_pair(REAL.maps[map_id])


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return compute_client(tmp_path_factory, "kwb")


@pytest.mark.slow
def test_every_kwb_check_is_listed(client):
    systems = client.get("/api/v1/systems").get_json()["systems"]
    kwb = next(s for s in systems if s["id"] == "kwb")
    assert {c["name"] for c in kwb["checks"]} == {
        "combat", "supply", "support_fire_limit", "support_fire_allocation", "bombardment", "counter_battery",
        "division_breakdown", "replacements", "victory", "seoul_cleared", "un_supply_shortage_end", "supply_center_move",
        "support_fire_draw"}


def test_combat(client):
    a, d = clear_pair("pusan")
    body = ok(post(client, "combat", {
        "scenario": "pusan", "attacking_side": "communist", "intensive": "declared",
        "attackers": [{"unit": "nk-6", "hex": a, "doubled": True}], "defenders": [{"unit": "us-5-1m", "hex": d}],
        "attacker_support": ["sf-com-2"], "dice": [2, 7]}))
    assert body["outcome"]["attack_strength"] == 22 and body["outcome"]["column"] == "3:1"
    # EX: nk-6 loses a step, then the declared intensive attack depletes it again: a random NK regiment (d12 = 7).
    assert body["outcome"]["result"] == "EX" and body["outcome"]["new_units"][0]["unit"] == "nk-reg-7"
    assert [(d["sides"], d["purpose"]) for d in body["dice_used"]] == [
        (6, "combat (CRT)"), (12, "random unnumbered NK regiment for nk-6")]
    assert any("Stand-in table crt " in w for w in body["warnings"])


def test_combat_bad_input_is_422(client):
    a, d = clear_pair("pusan")
    response = post(client, "combat", {
        "scenario": "pusan", "attacking_side": "un", "intensive": "declared",
        "attackers": [{"unit": "us-5-1m", "hex": a, "doubled": True}], "defenders": [{"unit": "nk-6", "hex": d}],
        "dice": [3]})
    assert response.status_code == 422 and "only the Communist player" in response.get_json()["detail"]


def test_supply(client):
    body = ok(post(client, "supply", {"scenario": "pusan", "side": "communist", "positions": SETUP}))
    assert len(body["outcome"]["units"]) == sum(REAL.units[p["unit"]].side == "communist" for p in SETUP)
    bad = post(client, "supply", {"scenario": "pusan", "side": "un", "positions": [{"unit": "nobody", "hex": "0101"}]})
    assert bad.status_code == 422


def test_support_fire_limit(client):
    body = ok(post(client, "support_fire_limit", {"scenario": "pusan", "side": "un", "involved": ["rok-17"],
                                                  "positions": SETUP, "un_supply_shortage": True}))
    assert body["outcome"]["max_markers"] == 1
    bad = post(client, "support_fire_limit", {"scenario": "pusan", "side": "un", "involved": ["nk-6"], "positions": SETUP})
    assert bad.status_code == 422


def test_victory(client):
    body = ok(post(client, "victory", {"scenario": "seoul", "seoul_cleared_on_turn": 10}))
    assert body["outcome"]["un_vp"] == 12
    assert post(client, "victory", {"scenario": "seoul", "seoul_cleared_on_turn": 15}).status_code == 422


def test_shortage_checks(client):
    assert ok(post(client, "un_supply_shortage_end", {"game_turn": 5, "dice": [4]}))["outcome"]["shortage_ended"]
    assert post(client, "un_supply_shortage_end", {"game_turn": 0, "dice": [4]}).status_code == 422
    body = ok(post(client, "supply_center_move", {"from_hex": "2402", "dice": [6]}))
    assert body["outcome"]["nearest_supply_symbol_hexes"] == ["2501"]
    assert post(client, "supply_center_move", {"from_hex": "24", "dice": [6]}).status_code == 422


def test_support_fire_allocation(client):
    assert ok(post(client, "support_fire_allocation", {"scenario": "pusan", "side": "un", "game_turn": 16}))[
        "outcome"]["markers"] == 5  # chart '4/5' on turn 16
    assert post(client, "support_fire_allocation", {"scenario": "pusan", "side": "un", "game_turn": 22}).status_code == 422


def test_bombardment_and_counter_battery(client):
    a, d = clear_pair("pusan")
    body = ok(post(client, "bombardment", {"scenario": "pusan", "side": "un", "markers": ["sf-un-3"],
                                           "targets": [{"unit": "nk-6", "hex": d}], "dice": [6]}))
    assert body["outcome"]["result"] == "D"
    bad = post(client, "bombardment", {"scenario": "pusan", "side": "communist", "markers": ["sf-com-3"],
                                       "targets": [{"unit": "us-5-1m", "hex": d}], "dice": [6]})
    assert bad.status_code == 422 and "8.4" in bad.get_json()["detail"]
    assert ok(post(client, "counter_battery", {"un_marker": "sf-un-3", "communist_marker": "sf-com-1", "dice": [1]}))[
        "outcome"]["cancelled"]
    assert post(client, "counter_battery", {"un_marker": "sf-com-3", "communist_marker": "sf-com-1",
                                            "dice": [1]}).status_code == 422


def test_division_breakdown(client):
    body = ok(post(client, "division_breakdown", {"division": "prc-58", "dice": [18, 17, 16]}))
    assert [r["unit"] for r in body["outcome"]["regiments"]] == ["prc-reg-18", "prc-reg-17", "prc-reg-16"]
    assert post(client, "division_breakdown", {"division": "us-1m-hq", "dice": [1, 1, 1]}).status_code == 422


def test_replacements(client):
    body = ok(post(client, "replacements", {"scenario": "pusan", "side": "un", "undeplete": [
        {"unit": "us-5-1c", "hex": "2205", "in_supply": True}, {"unit": "rok-17", "hex": "1505", "in_supply": True}]}))
    assert body["outcome"]["undepleted"] == ["us-5-1c", "rok-17"]
    bad = post(client, "replacements", {"scenario": "seoul", "side": "un", "undeplete": [
        {"unit": "rok-17", "hex": "1505", "in_supply": True}]})
    assert bad.status_code == 422 and "12.21" in bad.get_json()["detail"]


def test_seoul_cleared(client):
    gm = REAL.maps["seoul"]
    seoul = gm.grid.label(gm.find_named("Seoul")[0])
    body = ok(post(client, "seoul_cleared", {"game_turn": 10, "positions": [{"unit": "us-1-1m", "hex": seoul}]}))
    assert body["outcome"]["cleared"] and body["outcome"]["un_vp"] == 12
    assert post(client, "seoul_cleared", {"game_turn": 15, "positions": [{"unit": "us-1-1m", "hex": seoul}]}).status_code == 422
