"""KWB's Scratch Units settled by the adjudicator (issue 40; docs/draws.md).

12.21: "The Communist player sets up all 12 Scratch Units at the beginning of the game, face up (? 4) ...
He selects them randomly and may not peek at them ... When the hex containing a scratch unit is
attacked, turn the unit face up ... If it is a Dummy, eliminate it immediately."

A recorded Battle for Seoul game commits, in its record 0, to a shuffled order of the twelve counters
(here the test's own order), which nobody can read before the game closes; each combat on a '? 4'
placeholder reveals the next counter of that order, the same counter when the same placeholder (or the
same request) is asked again; the verifier checks every reveal against the order after close, and a
ledger whose reveals do not follow it fails.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from adjudicator.ledger import draws

from adjudicator import rulings
from adjudicator.ledger.keys import load_signing_key
from adjudicator.ledger.records import build_record
from adjudicator.testing import bearer, make_app, new_game
from scenarios import load_game_dir
from scenarios.loader import DATA_ROOT, check_game_dir

#: The order the test draws: a Dummy first, then two real counters.
ORDER = ["nk-scratch-dummy-2", "nk-scratch-c-1", "nk-scratch-a-3", "nk-scratch-b-1", "nk-scratch-a-1",
         "nk-scratch-dummy-4", "nk-scratch-b-3", "nk-scratch-c-2", "nk-scratch-dummy-1", "nk-scratch-b-2",
         "nk-scratch-a-2", "nk-scratch-dummy-3"]
UN = {"attacking_side": "un", "attackers": [{"unit": "us-1-1m", "hex": "1405"}]}


def attack(placeholder: str, hex_: str = "1305") -> dict:
    return {**UN, "attackers": [{"unit": "us-1-1m", "hex": "1405" if hex_ == "1305" else "1406"}],
            "defenders": [{"unit": placeholder, "hex": hex_}]}


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setattr(draws, "shuffled", lambda counters: list(ORDER))  # the test's draw
    return make_app(tmp_path)


@pytest.fixture
def client(app):
    return app.test_client()


def ledger(client, game, role):
    return client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"][role])).get_json()


def game_page(client, game, role) -> str:
    page = client.application.test_client()
    page.log_in(game["game_id"], game["tokens"][role])
    return page.get(f"/games/{game['game_id']}").get_data(as_text=True)


def post(client, game, role, check, body, query="?transcript=1"):
    return client.post(f"/api/v1/games/{game['game_id']}/{check}{query}", json=body, headers=bearer(game["tokens"][role]))


def sealed(app, game) -> list[str]:
    """What would tell the order: the hidden part's salt and its value, as JSON is written either way."""
    (part,) = [p for seq, p in app.extensions["adjudicator"].store.hidden_parts(game["game_id"]) if seq == 0]
    assert part["value"]["order"] == ORDER and part["owner"] == ""  # no one's before the close
    return [part["salt"], json.dumps(ORDER), json.dumps(ORDER, separators=(",", ":"))]


def tells(text: str, secrets: list[str]) -> list[str]:
    return [s for s in secrets if s in text]


@pytest.mark.slow
def test_the_order_is_committed_at_creation_and_nobody_can_read_it(client, app):
    game = new_game(client, "kwb", "seoul")
    secrets = sealed(app, game)
    (pool,) = game["genesis"]["body"]["result"]["sealed_draws"]
    assert pool["pool"] == "scratch-units" and pool["rule"] == "12.21" and len(pool["hidden"]) == 64
    assert pool["counters"] == sorted(ORDER)  # what the pool holds is the scenario's, public
    assert pool["placeholders"] == [f"nk-scratch-{n}" for n in range(1, 13)]
    for role in ("communist", "un", "observer"):
        document = json.dumps(ledger(client, game, role))
        assert tells(document, secrets) == [] and "revealed" not in document, role
        assert tells(game_page(client, game, role), secrets) == [], role
    assert tells(json.dumps(game), secrets) == []
    other = new_game(client, "kwb", "pusan")  # a scenario without a sealed pool commits to none
    assert "sealed_draws" not in other["genesis"]["body"]["result"]


@pytest.mark.slow
def test_combats_reveal_the_committed_order_one_by_one(client, app):
    game = new_game(client, "kwb", "seoul")
    secrets = sealed(app, game)
    first = post(client, game, "un", "combat", {**attack("nk-scratch-7"), "request_id": "attack-7"})
    assert first.status_code == 201, first.get_json()
    ruling = first.get_json()
    assert ruling["request"]["defenders"][0]["revealed_as"] == "nk-scratch-dummy-2"
    assert ruling["outcome"]["revealed"] == [{"unit": "nk-scratch-7", "revealed_as": "nk-scratch-dummy-2"}]
    assert ruling["outcome"]["combat"] is False and ruling["outcome"]["defenders"][0]["step"] == "deadpile"
    # identical counters are named as they read, never by an id no counter prints (issue 44)
    assert ruling["transcript"][0].endswith("— turned face up: NK Scratch Unit (Dummy)")
    assert any(line.endswith("NK Scratch Unit (Dummy) eliminated") for line in ruling["transcript"][1:])
    second = post(client, game, "un", "combat", attack("nk-scratch-2", "1306")).get_json()
    assert second["outcome"]["revealed"] == [{"unit": "nk-scratch-2", "revealed_as": "nk-scratch-c-1"}]
    assert second["transcript"][0].endswith("turned face up: NK Scratch Unit 2-2-4")
    # The same attack asked again (a reload): the same request id replays its record...
    again = post(client, game, "un", "combat", {**attack("nk-scratch-7"), "request_id": "attack-7"})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["seq"] == ruling["seq"] and again.get_json()["outcome"] == ruling["outcome"]
    # ...and the same piece attacked again is the counter it was shown to be, not the next one.
    twice = post(client, game, "un", "combat", attack("nk-scratch-2", "1306")).get_json()
    assert twice["outcome"]["revealed"] == second["outcome"]["revealed"]
    third = post(client, game, "un", "combat", attack("nk-scratch-11")).get_json()
    assert third["outcome"]["revealed"] == [{"unit": "nk-scratch-11", "revealed_as": "nk-scratch-a-3"}]
    # Before the close the rest of the order is nobody's: not in the ledger, not on the page.
    for role in ("communist", "un", "observer"):
        document = ledger(client, game, role)
        seen = json.dumps(document) + game_page(client, game, role)
        assert tells(seen, secrets) == [], role
        requested = [json.dumps(r["body"]["request"]) for r in document["records"][1:]]
        assert [c for c in ORDER if any(c in text for text in requested)] == ORDER[:3], role


@pytest.mark.slow
def test_nobody_names_a_counter_no_ruling_has_revealed(client):
    game = new_game(client, "kwb", "seoul")
    positions = [{"unit": "nk-scratch-a-1", "hex": "1205"}, {"unit": "nk-1", "hex": "1305"}]
    named = post(client, game, "communist", "supply", {"side": "communist", "positions": positions})
    assert named.status_code == 422 and named.get_json()["type"].endswith(":sealed-draw"), named.get_json()
    assert "nk-scratch-a-1: no ruling has revealed it" in named.get_json()["detail"]
    guessed = {**attack("nk-scratch-7"), "defenders": [{"unit": "nk-scratch-7", "hex": "1305",
                                                        "revealed_as": "nk-scratch-b-1"}]}
    refused = post(client, game, "un", "combat", guessed)
    assert refused.status_code == 422 and "leave revealed_as out" in refused.get_json()["detail"]
    chances = client.post(f"/api/v1/games/{game['game_id']}/combat/odds", json=attack("nk-scratch-7"),
                          headers=bearer(game["tokens"]["un"]))
    assert chances.status_code == 422 and chances.get_json()["type"].endswith(":sealed-draw")
    assert len(ledger(client, game, "observer")["records"]) == 1  # nothing was recorded, nothing drawn
    first = post(client, game, "un", "combat", attack("nk-scratch-7")).get_json()
    assert first["outcome"]["revealed"][0]["revealed_as"] == ORDER[0]  # the refusals drew nothing


@pytest.mark.slow
def test_a_calculation_takes_the_counter_the_player_drew(client):
    body = {**attack("nk-scratch-4"), "scenario": "seoul", "dice": [3]}
    missing = client.post("/api/v1/systems/kwb/combat", json=body)
    assert missing.status_code == 422 and "(revealed_as)" in missing.get_json()["detail"]
    body["defenders"][0]["revealed_as"] = "nk-scratch-b-2"
    drawn = client.post("/api/v1/systems/kwb/combat?transcript=1", json=body).get_json()
    assert drawn["outcome"]["revealed"] == [{"unit": "nk-scratch-4", "revealed_as": "nk-scratch-b-2"}]
    assert drawn["outcome"]["defence_strength"] == 2  # 1-2-4
    assert drawn["transcript"][0].startswith("[ADJ compute] RULING » Combat: US 1/1M attacks NK Scratch Unit (? 4) at 3:1")
    assert drawn["transcript"][0].endswith("— turned face up: NK Scratch Unit 1-2-4")


@pytest.mark.slow
def test_after_close_every_reveal_is_checked_against_the_commitment(client, app, tmp_path):
    game = new_game(client, "kwb", "seoul")
    post(client, game, "un", "combat", attack("nk-scratch-7"))
    post(client, game, "un", "combat", attack("nk-scratch-2", "1306"))
    client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(game["tokens"]["un"]))
    document = ledger(client, game, "observer")
    (order,) = [r for r in document["records"][-1]["body"]["result"]["revealed"] if r["seq"] == 0]
    assert order["value"] == {"pool": "scratch-units", "order": ORDER}
    report = client.post("/api/v1/verify", json={"ledger": document}).get_json()
    assert report["ok"], report["problems"]
    assert any("sealed pool" in line for line in report["compared"])

    edited = json.loads(json.dumps(document))  # a closing record that reveals another order
    edited["records"][-1]["body"]["result"]["revealed"][0]["value"]["order"] = ORDER[1:] + ORDER[:1]
    codes = {p["code"] for p in client.post("/api/v1/verify", json={"ledger": edited}).get_json()["problems"]}
    assert {"revealed_mismatch", "draw_mismatch"} <= codes

    # A server that signed a reveal its commitment does not give: every hash and signature is right.
    key = load_signing_key(tmp_path / "signing-key.pem")
    forged = json.loads(json.dumps(document))
    forged["records"][2]["body"]["request"]["defenders"][0]["revealed_as"] = "nk-scratch-a-1"
    previous = forged["records"][1]["hash"]
    for index in range(2, len(forged["records"])):
        rebuilt = build_record(key, game["game_id"], index, previous, forged["records"][index]["body"]).to_json()
        forged["records"][index] = {**forged["records"][index], **rebuilt}
        previous = rebuilt["hash"]
    forged["game"]["head_hash"] = previous
    report = client.post("/api/v1/verify", json={"ledger": forged}).get_json()
    assert [p["code"] for p in report["problems"]] == ["draw_mismatch"], report["problems"]
    assert report["problems"][0]["seq"] == 2
    assert "nk-scratch-2 is revealed as nk-scratch-a-1; draw 2 of the committed order" in report["problems"][0]["message"]


@pytest.mark.slow
def test_an_attack_recorded_meanwhile_makes_a_ruling_settle_again(client, app, monkeypatch):
    """Two attacks at once must not reveal the same counter: a ruling settled against a ledger that
    another ruling has grown since is refused by storage (its stale head) and settled again."""
    game = new_game(client, "kwb", "seoul")
    store = app.extensions["adjudicator"].store
    real = store.append_check
    meanwhile: list = []

    def another_attack_first(*args, **kwargs):
        if not meanwhile:  # another attack lands between this one's settling and its append
            meanwhile.append(None)
            meanwhile[0] = post(client, game, "un", "combat", attack("nk-scratch-11")).get_json()
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "append_check", another_attack_first)
    late = post(client, game, "un", "combat", attack("nk-scratch-2", "1306")).get_json()
    assert "outcome" in late, late
    assert meanwhile[0]["outcome"]["revealed"] == [{"unit": "nk-scratch-11", "revealed_as": ORDER[0]}]
    assert late["outcome"]["revealed"] == [{"unit": "nk-scratch-2", "revealed_as": ORDER[1]}]
    assert late["seq"] == meanwhile[0]["seq"] + 1


# -- the data ----------------------------------------------------------------------------------------

@pytest.fixture
def kwb_data(tmp_path) -> Path:
    target = tmp_path / "kwb"
    shutil.copytree(DATA_ROOT / "kwb", target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_data_says_which_pool_is_sealed_and_the_loader_checks_it(kwb_data):
    game = load_game_dir(kwb_data)
    assert draws.commit("kwb", "seoul", lambda c: list(ORDER))[0][0]["placeholders"][-1] == "nk-scratch-12"
    assert game.boxes["scratch-units"].placeholders == "scratch_placeholder"
    edit(kwb_data / "game.toml", 'draw = "unseen"\nback = "NK ?-4"', 'draw = "secret"\nback = "NK ?-4"')
    assert any("box scratch-units: placeholders stand for pieces nobody may see" in p and "game.toml:" in p
               for p in check_game_dir(kwb_data))


def test_a_setup_needs_as_many_placeholders_as_its_pool_holds_and_places_none(kwb_data):
    edit(kwb_data / "units.csv", "scratch_placeholder cadre no_zoc,,12,", "scratch_placeholder cadre no_zoc,,11,")
    problems = check_game_dir(kwb_data)
    assert any("scenario seoul puts 12 pieces in it, but only 11 units have the flag 'scratch_placeholder'" in p
               for p in problems), problems
    edit(kwb_data / "units.csv", "scratch_placeholder cadre no_zoc,,11,", "scratch_placeholder cadre no_zoc,,12,")
    with open(kwb_data / "scenarios" / "seoul.setup.csv", "a", encoding="utf-8") as setup:
        setup.write("nk-scratch-3,1210,,,,12.21\n")
    problems = check_game_dir(kwb_data)
    assert any("scenario seoul places nk-scratch-3, a placeholder the module shows" in p for p in problems), problems


@pytest.mark.slow
def test_rulings_create_game_commits_the_drawn_order(app):
    with app.app_context():
        created = rulings.create_game("kwb", "seoul", ("un", "communist"), shuffle=lambda c: list(reversed(ORDER)))
    parts = [p for seq, p in app.extensions["adjudicator"].store.hidden_parts(created.game_id) if seq == 0]
    assert [p["value"]["order"] for p in parts] == [list(reversed(ORDER))] and parts[0]["owner"] == ""


# -- the board: the write-back and the log check ------------------------------------------------------

@pytest.mark.slow
def test_the_write_back_turns_the_placeholder_into_the_counter_and_the_log_check_knows_it(client, modules):
    """A saved game with a '? 4' placeholder in 1305, attacked in a recorded game: the .vlog the pages
    write takes the placeholder off the board (deleted: it was never a unit, so no dead pile) and
    moves the counter the ruling revealed from its box onto the placeholder's spot, then the Dummy
    to its dead pile (eliminated at once); the log check finds every ordered change made, and a log
    that only holds the ruling's lines not made."""
    from adjudicator.bridge import read_positions, read_upload
    from adjudicator.bridge.locate import BOXES_MAP
    from adjudicator.bridge.writeback import PLACE, REMOVE, TO_DEAD_PILE, piece_changes, ruling_log
    from adjudicator.logs.board import applied, log_events, missing_changes, ordered_changes
    from adjudicator.unit_changes import canonical_outcome
    from adjudicator.unit_changes import ELIMINATED, REVEALED, ruled_changes
    from adjudicator.unit_owners import owners_of
    from scenarios import load_game
    from vassalfmt import continue_log, read_saved_game
    from vassalfmt.commands import MovePiece, RemovePiece, parse_command, split_commands

    game_data = load_game("kwb")
    setup = modules[("kwb", 1)][2]["setups/seoul.vsav"]
    saved = read_saved_game(setup)
    card = saved.by_id()["nk-scratch-7"]
    gm = game_data.maps["seoul"]
    x, y = gm.grid.center(gm.grid.parse("1305"))
    placed = continue_log(setup, [MovePiece("nk-scratch-7", gm.name, x, y, None, card.map_id, card.x, card.y,
                                            None, "").encode()])
    game = new_game(client, "kwb", "seoul")
    ruling = post(client, game, "un", "combat", {**attack("nk-scratch-7")}, query="?transcript=1&changes=1").get_json()
    dummy = ORDER[0]
    assert [(c["kind"], c["unit"], c.get("revealed_as")) for c in ruling["piece_changes"]] == [
        (REVEALED, "nk-scratch-7", dummy), (ELIMINATED, dummy, None)]  # turned face up, then the Dummy eliminated
    assert "dead_pile" not in ruling["piece_changes"][0] and ruling["piece_changes"][0]["applied_by"] == "un"
    upload = read_upload(placed)
    positions = read_positions(game_data, upload)
    changes = piece_changes(positions, ruling["outcome"], "un")
    assert [(c.unit, c.does) for c in changes] == [("nk-scratch-7", REMOVE), (dummy, PLACE), (dummy, TO_DEAD_PILE)]
    log = ruling_log(placed, upload, positions, ruling["transcript"], changes)
    commands = [parse_command(c.text) for c in split_commands(read_saved_game(log).command_text)]
    moved = [c for c in commands if isinstance(c, MovePiece) and c.piece_id == dummy]
    assert [(m.new_map, m.new_x, m.new_y) for m in moved][0] == (gm.name, x, y)  # onto the placeholder's spot...
    assert moved[1].new_map == BOXES_MAP and (moved[1].old_map, moved[1].old_x, moved[1].old_y) == (gm.name, x, y)
    assert {c.piece_id for c in commands if isinstance(c, RemovePiece)} == {"nk-scratch-7"}  # ...then the dead pile
    board = ruled_changes(canonical_outcome(ruling), owners_of("kwb"), "un")
    events, start = log_events(read_saved_game(log), game_data)
    ordered = ordered_changes(game_data, board, start)
    assert {c.unit for c in ordered} == {"nk-scratch-7", dummy}
    assert missing_changes(game_data, ordered, applied(start, [e.piece for e in events if e.piece])) == []
    lines_only = continue_log(placed, [])  # the ruling's lines without its changes: not applied
    _, start = log_events(read_saved_game(lines_only), game_data)
    missing = missing_changes(game_data, ordered_changes(game_data, board, start), start)
    assert len(missing) == 2 and missing[0].startswith(f"nk-scratch-7 turned face up: {dummy} in its place")


def test_the_log_check_wants_a_real_counter_on_the_placeholders_hex_not_in_a_dead_pile():
    """A revealed counter the ruling leaves standing must stand where its placeholder stood: sent to
    the dead pile instead (the attacker 'applying' a kill the ruling did not order) it is not applied;
    a Dummy the same ruling eliminates may go straight there."""
    from adjudicator.logs.board import Shown, missing_changes, ordered_changes
    from adjudicator.unit_changes import ruled_changes
    from scenarios import load_game
    from scenarios.boxboard import dead_pile

    game_data = load_game("kwb")
    pile = dead_pile(game_data, "communist").id
    real = ruled_changes({"revealed": [{"unit": "nk-scratch-2", "revealed_as": "nk-scratch-c-1"}],
                          "defenders": [{"unit": "nk-scratch-c-1", "step": "full"}]})
    dummy = ruled_changes({"revealed": [{"unit": "nk-scratch-7", "revealed_as": "nk-scratch-dummy-2"}],
                           "defenders": [{"unit": "nk-scratch-dummy-2", "step": "deadpile"}]})
    before = {"nk-scratch-2": Shown(map="seoul", hex="1306"), "nk-scratch-7": Shown(map="seoul", hex="1306"),
              "nk-scratch-c-1": Shown(box="scratch-faces"), "nk-scratch-dummy-2": Shown(box="scratch-faces")}
    gone = Shown(deleted=True)
    placed = {**before, "nk-scratch-2": gone, "nk-scratch-c-1": Shown(map="seoul", hex="1306")}
    killed = {**before, "nk-scratch-2": gone, "nk-scratch-c-1": Shown(box=pile)}
    assert missing_changes(game_data, ordered_changes(game_data, real, before), placed) == []
    (missing,) = missing_changes(game_data, ordered_changes(game_data, real, before), killed)
    assert missing.startswith("nk-scratch-2 turned face up: nk-scratch-c-1 in its place")
    straight = {**before, "nk-scratch-7": gone, "nk-scratch-dummy-2": Shown(box=pile)}
    assert missing_changes(game_data, ordered_changes(game_data, dummy, before), straight) == []
