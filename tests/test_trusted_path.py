"""One trusted path (issue 27): every way a ruling gets into a ledger enforces the same rules.

The four ways in — the JSON API, the game's roll page, the saved-game API and the saved-game
page — are walked with every kind of token (the side that acts, the other side, the observer,
another game's, another system's game's, an unknown one) and must give the same answer: the
same record, or the same refusal with nothing recorded. Pages are driven as a browser drives them
(a token entered once and then carried by the game's cookie, forms with the request id they were
shown with, redirects followed).
"""

from __future__ import annotations

import io
import json
import re

import pytest

from adjudicator.web.page_tokens import COOKIE
from adjudicator.testing import bearer, make_app, new_game

CHECK = "supply_center_move"  # KWB, Pusan: the Communist player rolls; it takes a unit and its hex


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("trusted"))


@pytest.fixture(scope="module")
def pusan(modules) -> bytes:
    return modules[("kwb", 1)][2]["setups/pusan.vsav"]


@pytest.fixture(scope="module")
def centre(app, pusan) -> tuple[str, str]:
    """A Communist Supply Center of the Pusan setup and its hex, as the saved-game reader sees them."""
    client = app.test_client()
    positions = client.post("/api/v1/systems/kwb/savedgame/positions", data=pusan,
                            content_type="application/octet-stream").get_json()
    found = next(u for u in positions["units"] if u["unit"].startswith("nk-sc-") and u["location"]["kind"] == "hex")
    return found["unit"], found["location"]["hex"]


def page_client(app, game_id: str, token: str | None):
    """A browser holding `token` for the game's pages (set as the game's cookie, as login does)."""
    client = app.test_client()
    if token is not None:
        client.log_in(game_id, token)
    return client


def shown_request_id(html: str) -> str:
    return re.search(r'name="request_id" id="request-id" value="([^"]+)"', html).group(1)


def answer(response) -> tuple[str, object]:
    """What a way in answered, comparable across ways: ("recorded", seq) or (status, problem kind)."""
    if response.status_code in (200, 201) and response.is_json:
        return "recorded", response.get_json()["seq"]
    if response.status_code == 303:
        return "recorded", int(re.search(r"/records/(\d+)", response.headers["Location"]).group(1))
    if response.is_json:
        return response.status_code, response.get_json().get("type", "").rsplit(":", 1)[-1]
    kind = re.search(r'data-kind="([^"]*)"', response.get_data(as_text=True))
    return response.status_code, kind.group(1) if kind else None


def rolled_again_if_warned(client, url: str, data: dict, response):
    """A page that held a roll because the situation was asked already (adjudicator.odds.asked_again:
    409, "this situation was asked as record #N") sent again as the player's "Roll again" does:
    with the record he was warned of."""
    warned = re.search(r'name="again" id="again" value="(\d+)"', response.get_data(as_text=True)) \
        if response.status_code == 409 else None
    return client.post(url, data={**data, "again": warned.group(1)}) if warned else response


def via_api(app, game, token, centre, pusan, request_id):
    unit, hex_ = centre
    headers = bearer(token) if token else {}
    return app.test_client().post(f"/api/v1/games/{game['game_id']}/{CHECK}", headers=headers,
                                  json={"supply_center": unit, "from_hex": hex_, "request_id": request_id})


def via_page(app, game, token, centre, pusan, request_id):
    unit, hex_ = centre
    client = page_client(app, game["game_id"], token)
    url, data = f"/games/{game['game_id']}/checks/{CHECK}", {"supply_center": unit, "from_hex": hex_,
                                                             "request_id": request_id}
    return rolled_again_if_warned(client, url, data, client.post(url, data=data))


def via_savedgame_api(app, game, token, centre, pusan, request_id):
    headers = bearer(token) if token else {}
    return app.test_client().post(
        f"/api/v1/games/{game['game_id']}/savedgame/checks/{CHECK}", headers=headers,
        data={"file": (io.BytesIO(pusan), "pusan.vsav"), "unit": centre[0], "request_id": request_id},
        content_type="multipart/form-data")


def via_savedgame_page(app, game, token, centre, pusan, request_id):
    """The token's browser uploads the file (a kept file is its uploader's); a token that may not
    upload asks about the acting side's copy."""
    client = page_client(app, game["game_id"], token)
    kept = client.post(f"/games/{game['game_id']}/savedgame", data={"file": (io.BytesIO(pusan), "pusan.vsav")},
                       content_type="multipart/form-data")
    if kept.status_code != 303:
        owner = page_client(app, game["game_id"], game["tokens"]["communist"])
        kept = owner.post(f"/games/{game['game_id']}/savedgame", data={"file": (io.BytesIO(pusan), "pusan.vsav")},
                          content_type="multipart/form-data")
    assert kept.status_code == 303, kept.get_data(as_text=True)[:500]
    sha = re.search(r"/savedgame/([0-9a-f]{64})", kept.headers["Location"]).group(1)
    url, data = f"/games/{game['game_id']}/savedgame/{sha}/checks/{CHECK}", {"_unit": centre[0],
                                                                              "request_id": request_id}
    return rolled_again_if_warned(client, url, data, client.post(url, data=data))


WAYS = {"api": via_api, "page": via_page, "savedgame-api": via_savedgame_api, "savedgame-page": via_savedgame_page}


@pytest.fixture(scope="module")
def games(app):
    client = app.test_client()
    return {"kwb": new_game(client, "kwb", "pusan"), "other-kwb": new_game(client, "kwb", "pusan"),
            "spi": new_game(client, "spi")}


def token_of(games, kind: str) -> str | None:
    return {"acting side": games["kwb"]["tokens"]["communist"], "other side": games["kwb"]["tokens"]["un"],
            "observer": games["kwb"]["tokens"]["observer"], "other game": games["other-kwb"]["tokens"]["communist"],
            "other system": games["spi"]["tokens"]["communist"], "unknown": "not-a-token-of-anything",
            "none": None}[kind]


EXPECTED = {
    "other side": (403, "not-your-roll"),
    "observer": (403, "read-only-token"),
    "other game": (403, "wrong-game"),
    "other system": (403, "wrong-game"),
    "unknown": (401, "bad-token"),
    "none": (401, "missing-token"),
}


def ledger_seqs(app, game) -> list[int]:
    ledger = app.test_client().get(f"/api/v1/games/{game['game_id']}/ledger",
                                   headers=bearer(game["tokens"]["observer"])).get_json()
    return [r["seq"] for r in ledger["records"]]


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(EXPECTED))
def test_every_way_in_refuses_a_token_that_may_not_roll_alike(app, games, centre, pusan, kind):
    game = games["kwb"]
    before = ledger_seqs(app, game)
    answers = {way: answer(call(app, game, token_of(games, kind), centre, pusan, f"refused-{kind.replace(' ', '-')}-{way}"))
               for way, call in WAYS.items()}
    assert set(answers.values()) == {EXPECTED[kind]}, answers
    assert ledger_seqs(app, game) == before  # nothing recorded anywhere


@pytest.mark.slow
def test_every_way_in_records_the_acting_side_once_per_request(app, games, centre, pusan):
    game = new_game(app.test_client(), "kwb", "pusan")
    token = game["tokens"]["communist"]
    for number, (way, call) in enumerate(WAYS.items(), start=1):
        first = answer(call(app, game, token, centre, pusan, f"roll-{way}"))
        again = answer(call(app, game, token, centre, pusan, f"roll-{way}"))  # a double click, a retry
        assert first == again == ("recorded", number), (way, first, again)
    assert ledger_seqs(app, game) == [0, 1, 2, 3, 4]
    ledger = app.test_client().get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(token)).get_json()
    assert {r["body"]["side"] for r in ledger["records"][1:]} == {"communist"}
    assert {r["body"]["check"] for r in ledger["records"][1:]} == {"kwb.supply_center_move"}


def test_a_check_of_another_system_is_unknown_on_every_way_in(app, games, centre, pusan):
    game = games["kwb"]
    token = game["tokens"]["un"]
    client = page_client(app, game["game_id"], token)
    responses = [
        app.test_client().post(f"/api/v1/games/{game['game_id']}/north_edge_return", headers=bearer(token),
                               json={"road_hex_enemy_occupied": False}),
        client.post(f"/games/{game['game_id']}/checks/north_edge_return", data={}),
        app.test_client().post(f"/api/v1/games/{game['game_id']}/savedgame/checks/north_edge_return",
                               headers=bearer(token), data=pusan, content_type="application/octet-stream"),
    ]
    assert {answer(r) for r in responses} == {(404, "unknown-check")}


def test_the_roll_page_is_one_request_however_often_it_is_sent(app):
    """The form carries the request id it was shown with: a double click and a refresh of the
    result record one roll; showing the form again is a new request."""
    game = new_game(app.test_client(), "kwb", "pusan")
    client = app.test_client()
    login = client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["un"]})
    assert login.status_code == 303 and COOKIE in login.headers["Set-Cookie"]
    form = client.get(f"/games/{game['game_id']}/checks/un_supply_shortage_end")
    assert form.status_code == 200 and form.headers["Cache-Control"] == "no-store"
    request_id = shown_request_id(form.get_data(as_text=True))
    posts = [client.post(f"/games/{game['game_id']}/checks/un_supply_shortage_end",
                         data={"game_turn": "1", "request_id": request_id}) for _ in range(3)]
    assert {p.status_code for p in posts} == {303}
    assert {p.headers["Location"] for p in posts} == {f"/games/{game['game_id']}/records/1"}
    for _ in range(2):  # refresh: a GET
        assert client.get(posts[0].headers["Location"]).status_code == 200
    assert ledger_seqs(app, game) == [0, 1]
    again = shown_request_id(client.get(f"/games/{game['game_id']}/checks/un_supply_shortage_end")
                             .get_data(as_text=True))
    assert again != request_id
    url = f"/games/{game['game_id']}/checks/un_supply_shortage_end"
    second = rolled_again_if_warned(client, url, {"game_turn": "1", "request_id": again}, client.post(
        url, data={"game_turn": "1", "request_id": again}))  # asked already: held, then rolled again as chosen
    assert second.headers["Location"].endswith("/records/2")
    changed = client.post(f"/games/{game['game_id']}/checks/un_supply_shortage_end",
                          data={"game_turn": "2", "request_id": again})  # the same form, edited after rolling
    assert answer(changed) == (409, "idempotency-conflict")


def test_the_record_page_shows_the_ruling_verified(app):
    """The record's page says the ruling verifies against the record the server signed, and shows that
    record: the roll the chosen die gave, what it decided, its hash and key, its chat lines. The same
    page of the record edited in the database (a 2 read as a 5) says it does not verify."""
    import sqlalchemy
    from lxml import html

    from adjudicator.checks import get_check
    from adjudicator.testing import choose_seeds, seed_where

    ends = seed_where(get_check("kwb", "un_supply_shortage_end"), {"scenario": "pusan", "game_turn": 3},
                      lambda outcome: outcome["roll"] == 2)  # 2 is less than turn 3: the shortage ends
    choose_seeds(app, {"kwb/pusan": ends})
    game = new_game(app.test_client(), "kwb", "pusan")
    rolled = app.test_client().post(f"/api/v1/games/{game['game_id']}/un_supply_shortage_end?transcript=1",
                                    json={"game_turn": 3}, headers=bearer(game["tokens"]["un"])).get_json()
    assert (rolled["seq"], rolled["outcome"]["roll"], rolled["outcome"]["shortage_ended"]) == (1, 2, True)
    client = page_client(app, game["game_id"], game["tokens"]["observer"])
    page = html.fromstring(client.get(f"/games/{game['game_id']}/records/1").get_data(as_text=True))
    verification = page.get_element_by_id("verification")
    assert verification.get("class") == "ok"
    assert verification.text_content().strip().startswith("✔ Verified: this ruling is the record the server signed (")
    assert "Rolled 2, less than the game-turn number 3: the supply shortage ends permanently." in \
        page.get_element_by_id("result").text_content()
    receipt = page.get_element_by_id("receipt").text_content()
    assert f"Record 1, hash {rolled['hash']}, signed by key {rolled['receipt']['kid']}." in " ".join(receipt.split())
    chat = [line for line in rolled["transcript"] if not line.endswith(f"/games/{game['game_id']}#record-1")]
    assert page.get_element_by_id("transcript").text_content().splitlines() == chat  # all but the page's own address

    store = app.extensions["adjudicator"].store
    with store.engine.begin() as conn:
        body = json.loads(conn.execute(sqlalchemy.text(
            "SELECT body FROM ledger_records WHERE game_id = :g AND seq = 1"), {"g": game["game_id"]}).scalar_one())
        body["result"]["outcome"]["roll"] = 5
        conn.execute(sqlalchemy.text("UPDATE ledger_records SET body = :b WHERE game_id = :g AND seq = 1"),
                     {"b": json.dumps(body, sort_keys=True, separators=(",", ":")), "g": game["game_id"]})
    edited = html.fromstring(client.get(f"/games/{game['game_id']}/records/1").get_data(as_text=True))
    assert edited.get_element_by_id("verification").get("class") == "bad"
    assert edited.get_element_by_id("verification").text_content().strip().startswith("✘ Does not verify: ")


def test_pages_of_an_unknown_game_are_not_found(app):
    client = app.test_client()
    for path in ("/games/nosuchgame", "/games/nosuchgame/checks/combat", "/games/nosuchgame/savedgame",
                 "/games/nosuchgame/records/1", "/games/nosuchgame/log-check"):
        assert client.get(path).status_code == 404, path


def test_without_a_token_a_page_asks_for_one_and_comes_back(app):
    game = new_game(app.test_client(), "kwb", "pusan")
    client = app.test_client()
    going = client.get(f"/games/{game['game_id']}/checks/un_supply_shortage_end")
    assert going.status_code == 303 and "next=" in going.headers["Location"]
    asked = client.get(going.headers["Location"]).get_data(as_text=True)
    target = re.search(r'name="next" value="([^"]*)"', asked).group(1)
    back = client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["un"], "next": target})
    assert back.headers["Location"] == f"/games/{game['game_id']}/checks/un_supply_shortage_end"
    elsewhere = client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["un"],
                                                              "next": "https://evil.example/"})
    assert elsewhere.headers["Location"] == f"/games/{game['game_id']}"


def test_closing_from_the_page_asks_first_and_observers_cannot(app):
    game = new_game(app.test_client(), "kwb", "pusan")
    observer = page_client(app, game["game_id"], game["tokens"]["observer"])
    assert answer(observer.post(f"/games/{game['game_id']}/close", data={"confirm": "close"})) == \
        (403, "read-only-token")
    side = page_client(app, game["game_id"], game["tokens"]["un"])
    assert side.post(f"/games/{game['game_id']}/close", data={}).status_code == 422  # not confirmed
    closed = side.post(f"/games/{game['game_id']}/close", data={"confirm": "close"})
    assert closed.status_code == 303
    page = side.get(f"/games/{game['game_id']}").get_data(as_text=True)
    assert 'id="game-status">closed' in page and 'id="seed"' in page


def test_the_created_page_is_never_cached_and_opens_the_game(app):
    client = app.test_client()
    created = client.post("/games", data={"system_scenario": "kwb/pusan"})
    assert created.status_code == 201 and created.headers["Cache-Control"] == "no-store"
    page = created.get_data(as_text=True)
    assert 'id="created-savedgame-link"' in page and 'id="open-as-un"' in page


def test_a_saved_game_over_64_kib_is_taken_by_the_pages(app, pusan):
    """The pages take files up to their stated limit (the JSON body limit is not theirs)."""
    padded = _with_chat(pusan, 3000)
    assert len(padded) > 64 * 1024
    game = new_game(app.test_client(), "kwb", "pusan")
    client = page_client(app, game["game_id"], game["tokens"]["un"])
    kept = client.post(f"/games/{game['game_id']}/savedgame", data={"file": (io.BytesIO(padded), "long.vlog")},
                       content_type="multipart/form-data")
    assert kept.status_code == 303, kept.get_data(as_text=True)[:300]
    log = client.post(f"/games/{game['game_id']}/log-check", data={"file": (io.BytesIO(padded), "long.vlog")},
                      content_type="multipart/form-data")
    assert log.status_code == 200, log.get_data(as_text=True)[:300]


def _with_chat(data: bytes, lines: int) -> bytes:
    """`data` continued by `lines` chat lines of random text (a long, hard to compress log)."""
    import secrets

    from vassalfmt import continue_log
    from vassalfmt.commands import chat_command

    return continue_log(data, [chat_command(f"<A> {secrets.token_hex(16)}") for _ in range(lines)])


def test_an_answer_kept_by_a_player_verifies_only_as_it_was_signed(app, tmp_path):
    """`adjudicator-client verify` of a saved --json answer compares its content with the signed
    record: an edited roll, die or step no longer verifies (and the report says what was compared)."""
    from adjudicator.client.cli import main

    game = new_game(app.test_client(), "kwb", "pusan")
    body = app.test_client().post(f"/api/v1/games/{game['game_id']}/un_supply_shortage_end",
                                  json={"game_turn": 3}, headers=bearer(game["tokens"]["un"])).get_json()
    keys = app.test_client().get("/.well-known/adjudicator-keys.json").get_json()
    keys_path = tmp_path / "keys.json"
    keys_path.write_text(json.dumps(keys))
    kept = tmp_path / "answer.json"
    kept.write_text(json.dumps(body))
    assert main(["verify", str(kept), "--key", str(keys_path)]) == 0
    for edit in (lambda b: b["outcome"].update(roll=b["outcome"]["roll"] + 10),
                 lambda b: b["dice_used"][0].update(value=7 - b["dice_used"][0]["value"]),
                 lambda b: b["steps"].pop(),
                 lambda b: b["request"].update(game_turn=6)):
        edited = json.loads(json.dumps(body))
        edit(edited)
        kept.write_text(json.dumps(edited))
        assert main(["verify", str(kept), "--key", str(keys_path)]) == 1
    report = app.test_client().post("/api/v1/verify", json={"answer": body}).get_json()
    assert report["ok"] and report["records_checked"] == 1 and report["compared"]
    old = {k: v for k, v in body.items() if k != "request"}  # an answer from before answers carried it
    report = app.test_client().post("/api/v1/verify", json={"answer": old}).get_json()
    assert not report["ok"] and report["problems"][0]["code"] == "answer_incomplete"


def test_the_roll_page_gives_the_chances_first_and_records_nothing(app):
    game = new_game(app.test_client(), "kwb", "pusan")
    client = page_client(app, game["game_id"], game["tokens"]["un"])
    form = client.get(f"/games/{game['game_id']}/checks/un_supply_shortage_end").get_data(as_text=True)
    request_id = shown_request_id(form)
    assert 'id="chances"' in form
    asked = client.post(f"/games/{game['game_id']}/checks/un_supply_shortage_end/odds",
                        data={"game_turn": "4", "request_id": request_id})
    assert asked.status_code == 303  # to the chances' own address: Back after the roll finds a page, not a POST
    address = asked.headers["Location"]
    assert "game_turn=4" in address and "form_token" not in address
    odds = client.get(address)
    page = odds.get_data(as_text=True)
    assert odds.status_code == 200 and 'id="odds-roll"' in page and "Nothing was recorded" in page
    assert shown_request_id(page) == request_id  # the roll that follows is still this form's one request
    assert ledger_seqs(app, game) == [0]
