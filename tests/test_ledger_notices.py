"""The ledger's view of the board (issue 38): notices, refusals, repeated asks, the rows of the ledger.

The server knows what its rulings did to the units. A recorded check that names a unit its ledger
eliminated, or at a step it contradicts, is answered with notices — in the JSON answer, the chat
lines, the ruling's page, the ledger's rows, the CLI — and an eliminated unit cannot attack or
defend (422, naming the record) unless the request names the ruling that brought it back
(`restored_by`). The same situation asked again is named. Notices are part of the record (hashed,
signed, re-derived by the verifier) and sealed where they name a unit the fog of war hides.
Every game's dice are chosen (adjudicator.testing).
"""

from __future__ import annotations

import copy
import json

import pytest
from lxml import html

from adjudicator.checks import get_check
from adjudicator.ledger.records import build_record
from adjudicator.testing import bearer, choose_seeds, make_app, new_game, seed_where
from adjudicator.ledger.verify import verify_ledger

KILL = {"scenario": "pusan", "attacking_side": "communist", "intensive": "declared",
        "attackers": [{"unit": "nk-83-mot", "hex": "0105", "doubled": True}],
        "defenders": [{"unit": "us-27-25", "hex": "0205", "step": "depleted"}]}
SUPPLY = {"scenario": "pusan", "side": "communist", "game_turn": 1,
          "positions": [{"unit": "nk-1-hq", "hex": "2501"}, {"unit": "nk-83-mot", "hex": "0105"},
                        {"unit": "us-27-25", "hex": "0205", "step": "depleted"}]}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("ledger-notices"))


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


def eliminated(unit: str):
    def wanted(outcome) -> bool:
        return any(a["unit"] == unit and a["step"] == "deadpile" for a in outcome.get("attackers", []))
    return wanted


@pytest.fixture
def kwb(app, client):
    """A Pusan game whose first ruling (NK 83's intensive attack at 1:1, AD) eliminates NK 83."""
    choose_seeds(app, {"kwb/pusan": seed_where(get_check("kwb", "combat"), KILL, eliminated("nk-83-mot"))})
    game = client.post("/api/v1/games", json={"system": "kwb", "scenario": "pusan"}).get_json()
    url = f"/api/v1/games/{game['game_id']}"
    communist = bearer(game["tokens"]["communist"])
    first = client.post(f"{url}/combat?transcript=1", json=KILL, headers=communist)
    assert first.status_code == 201 and first.get_json()["notices"] == []
    return game, url, communist


def test_an_eliminated_unit_named_again_is_noticed_in_every_rendering(client, kwb, capsys):
    game, url, communist = kwb
    answer = client.post(f"{url}/supply?transcript=1", json=SUPPLY, headers=communist).get_json()
    assert answer["notices"] == [{"kind": "eliminated", "record": 1, "unit": "nk-83-mot", "hex": "0105",
                                  "text": "NK 83 was eliminated by record #1; this ruling treats it as present"}]
    assert answer["notice_texts"] == ["NK 83 was eliminated by record #1; this ruling treats it as present"]
    assert answer["transcript"][1] == (f"[ADJ {game['game_id']}#2] notice: NK 83 was eliminated by record #1; this "
                                       "ruling treats it as present")  # the chat lines both players see, and the log
    observer = bearer(game["tokens"]["observer"])
    ledger = client.get(f"{url}/ledger", headers=observer).get_json()
    assert ledger["records"][2]["body"]["result"]["notices"] == answer["notices"]  # in the record: hashed and signed
    page = client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["observer"]}, follow_redirects=True)
    row = html.fromstring(page.get_data(as_text=True)).get_element_by_id("record-2")
    assert [li.text_content() for li in row.xpath('.//li[@class="notice"]')] == [
        "notice: NK 83 was eliminated by record #1; this ruling treats it as present"]
    record = html.fromstring(client.get(f"/games/{game['game_id']}/records/2").get_data(as_text=True))
    assert "NK 83 was eliminated by record #1" in record.get_element_by_id("notices").text_content()
    assert 'class="ok"' in html.tostring(record.get_element_by_id("verification")).decode()
    first_row = html.fromstring(page.get_data(as_text=True)).get_element_by_id("record-1")
    headline = first_row.xpath('.//strong[@class="headline"]')[0].text_content()
    assert headline.startswith("Combat for Communist: NK 83 attacks US 27/25 at ") and "NK 83 eliminated" in headline

    from adjudicator.client.output import check_lines, ledger_lines
    assert "  NOTICE: NK 83 was eliminated by record #1; this ruling treats it as present" in check_lines(answer)
    assert any("notice: NK 83 was eliminated by record #1" in line for line in ledger_lines(ledger))


def test_an_eliminated_unit_cannot_attack_unless_a_ruling_brought_it_back(client, kwb):
    game, url, communist = kwb
    again = client.post(f"{url}/combat", json=KILL, headers=communist)
    problem = again.get_json()
    assert again.status_code == 422 and problem["type"].endswith(":eliminated-unit")
    assert "NK 83 was eliminated by record #1" in problem["detail"] and "restored_by" in problem["detail"]
    assert problem["records"] == [1]
    observer = bearer(game["tokens"]["observer"])
    assert len(client.get(f"{url}/ledger", headers=observer).get_json()["records"]) == 2  # nothing recorded

    bogus = client.post(f"{url}/combat", json={**KILL, "restored_by": [1]}, headers=communist)
    assert bogus.status_code == 422 and bogus.get_json()["type"].endswith(":restored-by")
    assert bogus.get_json()["errors"][0]["pointer"] == "/restored_by"
    naming = client.post(f"{url}/supply", json=SUPPLY, headers=communist).get_json()  # record 2 names NK 83
    back = client.post(f"{url}/combat?transcript=1", json={**KILL, "restored_by": [naming["seq"]]}, headers=communist)
    assert back.status_code == 201, back.get_json()
    (notice,) = [n for n in back.get_json()["notices"] if n["kind"] != "repeat"]
    assert notice == {"kind": "restored", "record": 2, "unit": "nk-83-mot", "hex": "0105",
                      "text": "NK 83, eliminated by record #1, is back by record #2 (as this request says)"}
    assert back.get_json()["request"]["restored_by"] == [2]  # the request names it: in the record


def test_a_step_the_ledger_contradicts_is_noticed(app, client):
    choose_seeds(app, {"kwb/pusan": seed_where(get_check("kwb", "combat"), {**KILL, "intensive": "none",
                                                                          "attackers": [{"unit": "nk-83-mot", "hex": "0105"}]},
                                               lambda o: o["result"] == "AD")})
    game = client.post("/api/v1/games", json={"system": "kwb", "scenario": "pusan"}).get_json()
    url, communist = f"/api/v1/games/{game['game_id']}", bearer(game["tokens"]["communist"])
    plain = {**KILL, "intensive": "none", "attackers": [{"unit": "nk-83-mot", "hex": "0105"}]}
    assert client.post(f"{url}/combat", json=plain, headers=communist).status_code == 201
    answer = client.post(f"{url}/supply", json=SUPPLY, headers=communist).get_json()
    assert [(n["kind"], n["unit"], n["text"]) for n in answer["notices"]] == [
        ("step", "nk-83-mot", "NK 83 was left depleted by record #1; this ruling treats it as full")]
    depleted = {**SUPPLY, "positions": [{**p, "step": "depleted"} if p["unit"] == "nk-83-mot" else p
                                        for p in SUPPLY["positions"]]}
    assert client.post(f"{url}/supply", json=depleted, headers=communist).get_json()["notices"] == []


def test_the_same_situation_asked_again_is_named_and_a_retry_is_not(client, kwb):
    game, url, communist = kwb
    un = bearer(game["tokens"]["un"])
    body = {"un_marker": "sf-un-3", "communist_marker": "sf-com-1"}
    first = client.post(f"{url}/counter_battery?transcript=1", json={**body, "request_id": "cb-1"}, headers=un).get_json()
    assert first["notices"] == []
    retry = client.post(f"{url}/counter_battery?transcript=1", json={**body, "request_id": "cb-1"}, headers=un)
    assert retry.status_code == 200 and retry.get_json()["seq"] == first["seq"]  # the record again, not a repeat
    again = client.post(f"{url}/counter_battery?transcript=1", json={**body, "request_id": "cb-2"}, headers=un).get_json()
    assert again["notices"] == [{"kind": "repeat", "record": first["seq"],
                                 "text": f"asked again: the same situation as record #{first['seq']}"}]
    assert f"notice: asked again: the same situation as record #{first['seq']}" in again["transcript"][1]
    other_side = client.post(f"{url}/supply", json={**SUPPLY, "side": "un"}, headers=un).get_json()
    assert [n["kind"] for n in other_side["notices"]] == ["eliminated"]  # another situation: no repeat
    page = client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["observer"]}, follow_redirects=True)
    row = html.fromstring(page.get_data(as_text=True)).get_element_by_id(f"record-{again['seq']}")
    assert [li.text_content() for li in row.xpath('.//li[@class="notice"]')] == [
        f"notice: asked again: the same situation as record #{first['seq']}"]  # its ledger row says so


def test_a_ruling_between_that_changed_a_named_unit_makes_it_another_situation(app, client):
    plain = {**KILL, "intensive": "none", "attackers": [{"unit": "nk-83-mot", "hex": "0105"}]}
    choose_seeds(app, {"kwb/pusan": seed_where(get_check("kwb", "combat"), plain, lambda o: o["result"] == "AD",
                                               seq=2)})
    game = client.post("/api/v1/games", json={"system": "kwb", "scenario": "pusan"}).get_json()
    url, communist = f"/api/v1/games/{game['game_id']}", bearer(game["tokens"]["communist"])
    supply = client.post(f"{url}/supply", json=SUPPLY, headers=communist).get_json()
    client.post(f"{url}/combat", json=plain, headers=communist)  # record 2 depletes NK 83
    after = client.post(f"{url}/supply", json=SUPPLY, headers=communist).get_json()
    assert [n["kind"] for n in after["notices"]] == ["step"] and supply["seq"] == 1  # no "asked again"


def test_the_verifier_re_derives_every_notice_and_a_forged_one_fails(app, client, kwb):
    game, url, communist = kwb
    client.post(f"{url}/supply", json=SUPPLY, headers=communist)
    ledger = client.get(f"{url}/ledger", headers=bearer(game["tokens"]["observer"])).get_json()
    with app.app_context():
        from adjudicator.services import services
        keys, key = services().verification_keys(), services().signing_key
    report = verify_ledger(ledger, keys)
    assert report.ok and "notices: 1 re-derived from the records before each" in report.compared
    # the server's own key signs a record whose notice says otherwise: the hash chain holds, the notice does not
    forged = copy.deepcopy(ledger)
    record = forged["records"][2]
    record["body"]["result"]["notices"] = []
    rebuilt = build_record(key, game["game_id"], 2, record["prev_hash"], record["body"])
    forged["records"][2] = rebuilt.to_json()
    forged["game"]["head_hash"] = rebuilt.hash
    bad = verify_ledger(forged, keys)
    assert [(p.seq, p.code) for p in bad.problems] == [(2, "notice_mismatch")]
    assert "eliminated (record #1, nk-83-mot)" in bad.problems[0].message


HOLDFAST_ATTACK = {"scenario": "campaign", "turn": 1, "weather": "clear",
                   "attackers": [{"unit": "nkpa-6", "sp": 3, "hex": "0517"}],
                   "defender": {"unit": "rok-cap", "sp": 1, "hex": "0518"}, "defender_terrain": "clear"}


def test_a_notice_about_a_hidden_block_is_sealed_from_the_opponent(app, client):
    """HoldFast: the Communist attack eliminates ROK Cap (a combat reveals its blocks). The Communist
    then asks a supply report naming it where the board still shows it: the notice names a block
    hidden from him, so he (and the log, and an observer) reads only "a UN block in 0518";
    its owner reads it whole; the verifier checks it once the game is closed."""
    request = dict(HOLDFAST_ATTACK)
    choose_seeds(app, {"holdfast": seed_where(get_check("holdfast", "combat"), request,
                                              lambda o: o["defender"]["eliminated"])})
    game = client.post("/api/v1/games", json={"system": "holdfast", "scenario": "campaign"}).get_json()
    url, communist = f"/api/v1/games/{game['game_id']}", bearer(game["tokens"]["communist"])
    attack = client.post(f"{url}/combat?transcript=1&changes=1", json=request, headers=communist)
    assert attack.status_code == 201, attack.get_json()
    (change,) = [c for c in attack.get_json()["piece_changes"] if c["unit"] == "rok-cap"]
    assert change["kind"] == "eliminated" and change["applied_by"] == "un"  # hidden from the asker: its owner's
    supply = {"side": "communist", "positions": [{"unit": "nkpa-6", "hex": "0517", "step": "3"},
                                                 {"unit": "rok-cap", "hex": "0518", "step": "1"}]}
    answer = client.post(f"{url}/supply?transcript=1", json=supply, headers=communist).get_json()
    (sealed,) = answer["notices"]
    assert set(sealed) == {"hidden", "side", "hex"} and sealed["side"] == "un" and sealed["hex"] == "0518"
    assert answer["notice_texts"] == ["about a UN block in 0518: sealed until the game closes (its owner reads it)"]
    assert not any("rok-cap" in line or "ROK Cap" in line for line in answer["transcript"])
    ledger = client.get(f"{url}/ledger", headers=bearer(game["tokens"]["un"])).get_json()
    owner_sees = [p["value"] for p in ledger.get("revealed", []) if p["seq"] == answer["seq"] and "kind" in p["value"]]
    assert [(v["kind"], v["unit"], v["record"]) for v in owner_sees] == [("eliminated", "rok-cap", attack.get_json()["seq"])]
    page = client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["observer"]}, follow_redirects=True)
    row = html.fromstring(page.get_data(as_text=True)).get_element_by_id(f"record-{answer['seq']}")
    text = row.xpath('.//td[@class="what"]')[0].text_content()
    assert "rok-cap" not in text and "ROK Cap" not in text and "about a UN block in 0518" in text
    with app.app_context():
        from adjudicator.services import services
        keys = services().verification_keys()
    assert any("once the game is closed" in c for c in verify_ledger(ledger, keys).compared)
    client.post(f"{url}/close", headers=communist)
    closed = client.get(f"{url}/ledger", headers=bearer(game["tokens"]["observer"])).get_json()
    report = verify_ledger(closed, keys)
    assert report.ok and "notices: 1 re-derived from the records before each" in report.compared


def test_a_placeholder_revealed_puts_its_counter_in_play_and_is_no_unit_of_the_board():
    """KWB 12.21 (adjudicator.ledger.draws): a '? 4' Scratch Unit turned face up leaves the board, the
    counter it turned out to be comes into play; the placeholder is not 'eliminated' (a later
    attack on it is settled as the same counter, without a notice), and a Dummy eliminated at once
    is eliminated."""
    from adjudicator.ledger.board import LedgerBoard

    board = LedgerBoard("kwb")
    outcome = {"combat": True, "revealed": [{"unit": "nk-scratch-2", "revealed_as": "nk-scratch-c-1"},
                                            {"unit": "nk-scratch-7", "revealed_as": "nk-scratch-dummy-2"}],
               "defenders": [{"unit": "nk-scratch-dummy-2", "step": "deadpile"},
                             {"unit": "nk-scratch-c-1", "step": "full"}]}
    request = {"attackers": [{"unit": "us-1-1m", "hex": "1305"}],
               "defenders": [{"unit": "nk-scratch-2", "hex": "1306", "revealed_as": "nk-scratch-c-1"},
                             {"unit": "nk-scratch-7", "hex": "1306", "revealed_as": "nk-scratch-dummy-2"}]}
    board.fold(1, {"check": "kwb.combat", "side": "un", "request": request, "result": {"outcome": outcome}})
    assert "nk-scratch-2" not in board.units and "nk-scratch-7" not in board.units
    assert board.units["nk-scratch-dummy-2"].eliminated and board.units["nk-scratch-dummy-2"].by == 1
    assert board.units["nk-scratch-c-1"].by == 1 and not board.units["nk-scratch-c-1"].eliminated
    again = board.derive(2, "kwb.combat", {**request, "attackers": [{"unit": "us-5-1m", "hex": "1305"}]}, "un")
    assert again.notices == []  # the placeholders named again: settled as the same counters, no notice
    face_up = board.derive(2, "kwb.combat", {"defenders": [{"unit": "nk-scratch-c-1", "hex": "1306", "step": "full"},
                                                           {"unit": "nk-scratch-dummy-2", "hex": "1306"}]}, "un")
    assert [(n.kind, n.unit, n.record) for n in face_up.notices] == [("eliminated", "nk-scratch-dummy-2", 1)]


def test_a_hidden_block_its_owners_ruling_eliminated_is_answered_as_one_not_eliminated(client):
    """issue 52: the UN's own supply ruling eliminates ROK 1 (out of supply at 1 SP, 10); everyone reads
    that a UN block in 0101 was eliminated, not which. The Communist then attacks naming ROK 1 there, and
    naming ROK 6 (not eliminated) in another game: the same answer (the roll recorded), never "a UN block
    was eliminated by record #1" refused for nothing (which told him ROK 1 was the one). The notice that
    the ruling treats ROK 1 as present is its owner's, though the combat reveals ROK 1 itself."""
    cut_off = {"side": "un", "positions": [{"unit": "nkpa-1", "hex": "0818", "step": "3"},
                                           {"unit": "rok-1", "hex": "0101", "step": "1"},
                                           {"unit": "rok-6", "hex": "1220", "step": "3"}]}
    answers = {}
    for named in ("rok-1", "rok-6"):
        game = new_game(client, "holdfast")
        url = f"/api/v1/games/{game['game_id']}"
        supply = client.post(f"{url}/supply", json=cut_off, headers=bearer(game["tokens"]["un"])).get_json()
        assert "End of turn: a UN block is out of supply and loses 1 SP: eliminated." in \
            [step["text"] for step in supply["steps"]]  # what everyone reads: not which block
        attack = {"scenario": "campaign", "turn": 1, "weather": "clear", "defender_terrain": "clear",
                  "attackers": [{"unit": "nkpa-1", "sp": 3, "hex": "0201"}],
                  "defender": {"unit": named, "sp": 1, "hex": "0101"}}
        answers[named] = (game, client.post(f"{url}/combat?transcript=1", json=attack,
                                            headers=bearer(game["tokens"]["communist"])))
    (game, eliminated), (_, alive) = answers["rok-1"], answers["rok-6"]
    assert eliminated.status_code == alive.status_code == 201, eliminated.get_json()
    body = eliminated.get_json()
    assert "eliminated by record" not in json.dumps(body) + "\n".join(body["transcript"])
    (sealed,) = body["notices"]
    assert set(sealed) == {"hidden", "side", "hex"} and sealed["side"] == "un"
    owner = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"]["un"])).get_json()
    told = [p["value"] for p in owner.get("revealed", []) if p["seq"] == body["seq"] and "kind" in p["value"]]
    assert [(v["kind"], v["unit"], v["record"]) for v in told] == [("eliminated", "rok-1", 1)]
    client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(game["tokens"]["un"]))
    closed = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"]["observer"])).get_json()
    with client.application.app_context():
        from adjudicator.services import services
        report = verify_ledger(closed, services().verification_keys())
    assert report.ok and "notices: 1 re-derived from the records before each" in report.compared, report


def test_a_unit_whose_elimination_the_asker_saw_is_still_refused(client):
    """The same attack by the UN naming his own ROK 1 (he reads his ruling whole): refused, named."""
    game = new_game(client, "holdfast")
    url = f"/api/v1/games/{game['game_id']}"
    un = bearer(game["tokens"]["un"])
    cut_off = {"side": "un", "positions": [{"unit": "rok-1", "hex": "0101", "step": "1"}]}
    assert client.post(f"{url}/supply", json=cut_off, headers=un).status_code == 201
    attack = {"scenario": "campaign", "turn": 1, "weather": "clear", "defender_terrain": "clear",
              "attackers": [{"unit": "rok-1", "sp": 1, "hex": "0101"}], "defender": {"unit": "nkpa-1", "sp": 3, "hex": "0201"}}
    refused = client.post(f"{url}/combat", json=attack, headers=un)
    assert refused.status_code == 422 and refused.get_json()["type"].endswith(":eliminated-unit")
    assert "ROK 1 was eliminated by record #1" in refused.get_json()["detail"], refused.get_json()


def test_a_step_its_owners_ruling_left_is_noticed_to_its_owner_only(client):
    """issue 52: the UN's own supply ruling takes ROK 6 from 3 SP to 2 (out of supply, 10); everyone reads
    that a UN block lost 1 SP, not which. The Communist's combat then names ROK 6 at 3 SP: the combat
    reveals ROK 6, but the notice that the ledger left it at 2 SP by record #1 is its owner's (sealed),
    not a public line telling the Communist what the supply ruling sealed."""
    game = new_game(client, "holdfast")
    url = f"/api/v1/games/{game['game_id']}"
    cut_off = {"side": "un", "positions": [{"unit": "nkpa-1", "hex": "0818", "step": "3"},
                                           {"unit": "rok-6", "hex": "0101", "step": "3"}]}
    assert client.post(f"{url}/supply", json=cut_off, headers=bearer(game["tokens"]["un"])).status_code == 201
    attack = {"scenario": "campaign", "turn": 1, "weather": "clear", "defender_terrain": "clear",
              "attackers": [{"unit": "nkpa-1", "sp": 3, "hex": "0201"}], "defender": {"unit": "rok-6", "sp": 3, "hex": "0101"}}
    answer = client.post(f"{url}/combat?transcript=1", json=attack, headers=bearer(game["tokens"]["communist"]))
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    (sealed,) = body["notices"]
    assert set(sealed) == {"hidden", "side", "hex"} and sealed["side"] == "un"
    assert "by record #1" not in json.dumps(body) + "\n".join(body["transcript"])
    owner = client.get(f"{url}/ledger", headers=bearer(game["tokens"]["un"])).get_json()
    told = [p["value"] for p in owner.get("revealed", []) if p["seq"] == body["seq"] and "kind" in p["value"]]
    assert [(v["kind"], v["unit"], v["record"]) for v in told] == [("step", "rok-6", 1)]


#: NKPA 1 attacks ROK 1 at 1 SP in 0101 (a UN supply ruling may have eliminated it).
ATTACK_ROK_1 = {"scenario": "campaign", "turn": 1, "weather": "clear", "defender_terrain": "clear",
                "attackers": [{"unit": "nkpa-1", "sp": 3, "hex": "0201"}], "defender": {"unit": "rok-1", "sp": 1, "hex": "0101"}}


def two_workers_after_a_combat(tmp_path):
    """Two apps over one database and one signing key (two workers), a HoldFast game, and its first
    ruling recorded through the first: a combat naming neither NKPA 1 nor ROK 1."""
    first, second = make_app(tmp_path), make_app(tmp_path)
    a, b = first.test_client(), second.test_client()
    game = new_game(a, "holdfast")
    url = f"/api/v1/games/{game['game_id']}"
    other = {"scenario": "campaign", "turn": 1, "weather": "clear", "defender_terrain": "clear",
             "attackers": [{"unit": "nkpa-2", "sp": 3, "hex": "0601"}], "defender": {"unit": "rok-6", "sp": 3, "hex": "0602"}}
    assert a.post(f"{url}/combat", json=other, headers=bearer(game["tokens"]["communist"])).status_code == 201
    return first, a, b, game, url


def test_a_ruling_another_process_recorded_is_read_into_the_kept_board_with_its_hidden_parts(tmp_path):
    """issue 53: each process keeps its games' boards and catches them up with the records the others
    appended (before it takes the write lock, reading only what came after its board). Two apps over
    one database: A records a combat, B (its board folded from the ledger) the UN's supply ruling that
    eliminates ROK 1, sealed; A's next combat names ROK 1. A's board must have read B's record with its
    hidden parts (else no notice) and know that record names ROK 1 only sealed (else a 422 telling the
    Communist which block it was): one sealed notice, its owner's, as one process answers; the
    verifier re-derives every notice once the game is closed."""
    first, a, b, game, url = two_workers_after_a_combat(tmp_path)
    communist, un = bearer(game["tokens"]["communist"]), bearer(game["tokens"]["un"])
    cut_off = {"side": "un", "positions": [{"unit": "rok-1", "hex": "0101", "step": "1"}]}
    supply = b.post(f"{url}/supply", json=cut_off, headers=un)
    assert supply.status_code == 201 and supply.get_json()["seq"] == 2
    answer = a.post(f"{url}/combat", json=ATTACK_ROK_1, headers=communist)
    assert answer.status_code == 201, answer.get_json()
    (sealed,) = answer.get_json()["notices"]
    assert set(sealed) == {"hidden", "side", "hex"} and sealed["side"] == "un"
    owner = a.get(f"{url}/ledger", headers=un).get_json()
    told = [p["value"] for p in owner.get("revealed", []) if p["seq"] == 3 and "kind" in p["value"]]
    assert [(v["kind"], v["unit"], v["record"]) for v in told] == [("eliminated", "rok-1", 2)]
    assert b.post(f"{url}/close", headers=un).status_code in (200, 201)
    closed = a.get(f"{url}/ledger", headers=bearer(game["tokens"]["observer"])).get_json()
    with first.app_context():
        from adjudicator.services import services
        report = verify_ledger(closed, services().verification_keys())
    assert report.ok and "notices: 1 re-derived from the records before each" in report.compared, report


def test_a_ruling_made_before_the_write_lock_is_made_again_when_another_came_in_meanwhile(tmp_path, monkeypatch):
    """issue 53: a ruling is rolled, sealed and signed before the ledger's write lock, for the record
    after the last its board folded, and appended as it is only if the ledger still ends there. Here
    another process records the UN's supply ruling (eliminating ROK 1) while A's combat naming ROK 1 is
    being prepared: A's combat is made again under the lock, as record 3 after it, and its notice says
    what that record did; the chain and every notice verify."""
    from adjudicator.ledger.storage import Store

    first, a, b, game, url = two_workers_after_a_combat(tmp_path)
    communist, un = bearer(game["tokens"]["communist"]), bearer(game["tokens"]["un"])
    prepared_for, original = [], Store.prepare_check

    def meanwhile(store, *args, **kwargs):
        made = original(store, *args, **kwargs)
        prepared_for.append(made.record.seq)
        if len(prepared_for) == 1:  # the UN's ruling comes in after A prepared its combat as record 2
            cut_off = {"side": "un", "positions": [{"unit": "rok-1", "hex": "0101", "step": "1"}]}
            assert b.post(f"{url}/supply", json=cut_off, headers=un).get_json()["seq"] == 2
        return made

    monkeypatch.setattr(Store, "prepare_check", meanwhile)
    answer = a.post(f"{url}/combat", json=ATTACK_ROK_1, headers=communist)
    assert answer.status_code == 201, answer.get_json()
    assert prepared_for[0] == 2 and answer.get_json()["seq"] == 3
    (sealed,) = answer.get_json()["notices"]  # what record 2, appended meanwhile, did to ROK 1: its owner's
    assert set(sealed) == {"hidden", "side", "hex"} and sealed["side"] == "un"
    monkeypatch.undo()
    assert b.post(f"{url}/close", headers=un).status_code in (200, 201)
    closed = a.get(f"{url}/ledger", headers=bearer(game["tokens"]["observer"])).get_json()
    assert [r["seq"] for r in closed["records"]] == [0, 1, 2, 3, 4]
    with first.app_context():
        from adjudicator.services import services
        report = verify_ledger(closed, services().verification_keys())
    assert report.ok and "notices: 1 re-derived from the records before each" in report.compared, report


def test_a_ruling_is_made_once_before_the_write_lock_when_no_other_comes_in(tmp_path, monkeypatch):
    """issue 53: with no other process appending, every ruling (its rules, notices, sealing, hash and
    signature) is made once, before the write lock, and that record is the one appended: counted, not
    timed. A retry of a recorded request id still answers with the stored record."""
    from adjudicator.ledger import storage

    first, a, _, game, url = two_workers_after_a_combat(tmp_path)
    communist = bearer(game["tokens"]["communist"])
    made, original = [], storage._made_record
    monkeypatch.setattr(storage, "_made_record", lambda *args: made.append(args[2]) or original(*args))
    across = {"scenario": "campaign", "turn": 1, "weather": "clear", "defender_terrain": "clear",  # eliminates neither
              "attackers": [{"unit": "nkpa-1", "sp": 3, "across_river": True}], "defender": {"unit": "rok-1", "sp": 3}}
    for seq in (2, 3):
        answer = a.post(f"{url}/combat", json={**across, "request_id": f"roll-{seq}"}, headers=communist)
        assert answer.status_code == 201 and answer.get_json()["seq"] == seq, answer.get_json()
    assert made == [2, 3]  # once each: the record made before the lock was appended
    again = a.post(f"{url}/combat", json={**across, "request_id": "roll-3"}, headers=communist)
    assert again.status_code == 200 and again.get_json()["hash"] == answer.get_json()["hash"]


def test_a_board_caught_up_from_another_process_is_the_board_its_own_process_folded(tmp_path):
    """issue 53: a process folds its own record from what it made it of (the request and result before
    sealing, what its board derived of them), another process from the stored record and its hidden
    parts put back. Both must leave the same board, the same as a third process folding the whole
    ledger: the units, the situations asked, what each record names, which hidden blocks it names in
    the clear. The two workers take turns, with sealed supply rulings, notices and a repeat between."""
    from adjudicator.ledger.storage import TokenGrant
    from adjudicator.rulings import ledger_board_before

    first, a, b, game, url = two_workers_after_a_combat(tmp_path)
    communist, un = bearer(game["tokens"]["communist"]), bearer(game["tokens"]["un"])
    again = {"scenario": "campaign", "turn": 1, "weather": "clear", "defender_terrain": "clear",
             "attackers": [{"unit": "nkpa-1", "sp": 3, "across_river": True}], "defender": {"unit": "rok-6", "sp": 3}}
    turns = [(b, un, "supply", {"side": "un", "positions": [{"unit": "rok-1", "hex": "0101", "step": "1"},
                                                            {"unit": "rok-6", "hex": "0602", "step": "3"}]}),
             (a, communist, "combat", ATTACK_ROK_1),
             (b, communist, "combat", again),
             (a, communist, "supply", {"side": "communist", "positions": [{"unit": "nkpa-1", "hex": "0818", "step": "3"}]}),
             (a, communist, "combat", again),
             (b, communist, "combat", again)]
    for client, token, check, body in turns:
        answer = client.post(f"{url}/{check}", json=body, headers=token)
        assert answer.status_code == 201, answer.get_json()
    grant = TokenGrant(game["game_id"], "communist", "holdfast", "campaign")

    def board_of(app):
        with app.app_context():
            board = ledger_board_before(grant, None)
        return {key: value for key, value in vars(board).items() if key not in ("names", "owners", "fog", "turn")}

    third = make_app(tmp_path)  # a process that made none of the records: every one caught up
    boards = [board_of(app) for app in (first, b.application, third)]
    assert boards[0] == boards[2] and boards[1] == boards[2]
    folded = boards[2]
    assert folded["head"] == 7 and sorted(folded["in_clear"]) == [1, 2, 3, 4, 5, 6, 7]
    assert "rok-1" in folded["mentions"][2] and "rok-1" not in folded["in_clear"][2]  # the supply ruling's, sealed
    assert folded["units"]["rok-1"].by == 2 and folded["situations"]


def test_requests_of_one_process_catching_a_board_up_together_fold_the_ledger_once(tmp_path, monkeypatch):
    """issue 53: a second request of the game while the first catches the kept board up (threads;
    greenlets where a read yields) waits for that board: it does not fold the whole ledger into a
    board of its own (a long game's every record, again)."""
    import threading
    import time

    from adjudicator import rulings
    from adjudicator.ledger.storage import TokenGrant
    from adjudicator.services import services

    first, a, b, game, url = two_workers_after_a_combat(tmp_path)
    grant = TokenGrant(game["game_id"], "communist", "holdfast", "campaign")
    third = make_app(tmp_path)  # a process with no board yet
    made, read = [], []
    original_init, original_read = rulings.KeptBoard.__init__, None

    def counted_init(self, system):
        made.append(system)
        original_init(self, system)

    monkeypatch.setattr(rulings.KeptBoard, "__init__", counted_init)
    with third.app_context():
        store = services().store
        original_read = store.appended_since

    def slow_read(*args, **kwargs):
        read.append(args[1])
        time.sleep(0.2)  # the second request comes in meanwhile
        return original_read(*args, **kwargs)

    monkeypatch.setattr(store, "appended_since", slow_read)
    boards = []

    def request():
        with third.app_context():
            boards.append(rulings.ledger_board_before(grant, None))

    threads = [threading.Thread(target=request) for _ in range(2)]
    for thread in threads:
        thread.start()
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    assert made == ["holdfast"] and boards[0] is boards[1] and boards[0].head == 1
    assert read == [0, 1]  # the second read only what came after the first's fold: nothing


def test_a_ruling_of_a_game_another_ruling_of_the_process_is_recording_is_made_once_under_the_lock(tmp_path, monkeypatch):
    """issue 53: two rulings of one game in one process at once (threads here; a gevent worker's
    greenlets): the second is not prepared before the write lock for a head the first will move (that
    making was wasted, and made again under the lock): each ruling is made once, both are recorded."""
    import threading
    import time

    from adjudicator.ledger import storage

    first, a, _, game, url = two_workers_after_a_combat(tmp_path)
    communist = bearer(game["tokens"]["communist"])
    made, original_made = [], storage._made_record
    monkeypatch.setattr(storage, "_made_record", lambda *args: made.append(args[2]) or original_made(*args))
    original_append = storage.Store.append_check

    def slow_append(self, *args, **kwargs):
        time.sleep(0.3)  # the first ruling on its way to the ledger: the second comes in meanwhile
        return original_append(self, *args, **kwargs)

    monkeypatch.setattr(storage.Store, "append_check", slow_append)
    across = {"scenario": "campaign", "turn": 1, "weather": "clear", "defender_terrain": "clear",
              "attackers": [{"unit": "nkpa-1", "sp": 3, "across_river": True}], "defender": {"unit": "rok-1", "sp": 3}}
    answers = []

    def roll(n):
        answers.append(a.application.test_client().post(
            f"{url}/combat", json={**across, "request_id": f"together-{n}"}, headers=communist).status_code)

    threads = [threading.Thread(target=roll, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
        time.sleep(0.1)
    for thread in threads:
        thread.join()
    assert answers == [201, 201]
    assert sorted(made) == [2, 3]  # each made once: the first before the lock, the second under it
