"""KWB Scratch Units attacked in the real VASSAL 3.7.26 Player (issue 40; docs/draws.md).

The Communist player (Carol) starts the Battle for Seoul and sets up two Scratch Units: two '? 4'
placeholders drawn from their pile onto hexes next to UN units, then saves. The UN player (Uma) loads
her save, joins the recorded game (created with an order of the twelve counters the test chose, and a
seed it chose: its dice are known), and attacks each placeholder through the right-click menu. Each
ruling reveals the next counter of the committed order and says so in its headline; applied to the
board, the first placeholder becomes the Dummy, eliminated at once, the second the counter it turned out
to be, taken from the Scratch Units' counters box. Closed, the ledger verifies, every reveal checked
against the committed order.
"""

from __future__ import annotations

import json

import pytest
import requests

from adjudicator.ledger import draws
from adjudicator.rules.kwb import combat
from adjudicator.testing import choose_seeds, make_app
from adjudicator.unit_changes import ruled_changes
from bench.server import Gunicorn
from modgen.buildfile import main_map_name
from scenarios import load_game
from tests.engine.play import Script, connect_dialog, fighting, menu_of, open_game, save_as, select, setup_hexes, \
    sign_in, start_scenario, submit_form

pytestmark = pytest.mark.engine

#: The order the test draws: a Dummy first, then a real counter.
ORDER = ["nk-scratch-dummy-3", "nk-scratch-b-2", "nk-scratch-a-1", "nk-scratch-c-1", "nk-scratch-dummy-1",
         "nk-scratch-a-2", "nk-scratch-b-1", "nk-scratch-dummy-2", "nk-scratch-c-2", "nk-scratch-a-3",
         "nk-scratch-dummy-4", "nk-scratch-b-3"]
SEED = bytes(range(32))


def attacks(game) -> list[tuple[str, str]]:
    """Two (UN attacker, clear hex next to it) of the Seoul setup, the hexes apart, each an attack the
    rules allow on a Scratch Unit there (no Han River between)."""
    seoul = game.scenarios["seoul"]
    where = setup_hexes(game, seoul)
    gm = game.maps["seoul"]
    taken = {h for _, h in where.values()}
    found: list[tuple[str, object]] = []
    for unit, (_, at) in where.items():
        if game.units[unit].side != "un" or not fighting(game, unit) or game.units[unit].type == "hq":
            continue
        for spot in gm.grid.neighbours(at):
            if spot in taken or gm.terrain_at(spot) != "clear" or any(gm.grid.are_adjacent(spot, h) for _, h in found):
                continue
            body = {"scenario": "seoul", "attacking_side": "un", "attackers": [{"unit": unit, "hex": gm.grid.label(at)}],
                    "defenders": [{"unit": "nk-scratch-1", "hex": gm.grid.label(spot), "revealed_as": ORDER[1]}]}
            try:
                combat.CombatRequest.model_validate(body, context={"game": game})
            except ValueError:
                continue
            found.append((unit, spot))
            break
        if len(found) == 2:
            return [(u, gm.grid.label(h)) for u, h in found]
    raise LookupError("the Seoul setup has no two UN units with a clear hex next to them")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Gunicorn(workdir=tmp_path_factory.mktemp("adjudicator")).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def recorded(server, tmp_path_factory):
    """A recorded Battle for Seoul game in the server's database, its order and seed the test's."""
    patch = pytest.MonkeyPatch()
    patch.setattr(draws, "shuffled", lambda counters: list(ORDER))
    try:
        app = make_app(tmp_path_factory.mktemp("creator"), database_url=f"sqlite:///{server.database}",
                       ADJUDICATOR_KEY_PATH=str(server.key_path))
        choose_seeds(app, {"kwb/seoul": SEED})
        created = app.test_client().post("/api/v1/games", json={"system": "kwb", "scenario": "seoul"})
    finally:
        patch.undo()
    assert created.status_code == 201, created.get_json()
    return created.get_json()


def test_scratch_units_attacked_turn_into_the_counters_the_server_drew(engine, engine_module, server, recorded,
                                                                      tmp_path):
    game = load_game("kwb")
    module = engine_module("kwb")
    (first_attacker, first_hex), (second_attacker, second_hex) = attacks(game)
    pile = game.boxes["scratch-units"].name
    main = main_map_name(game)

    carol = Script()
    carol.add(*sign_in("Carol"))
    carol.add(*start_scenario("Battle for Seoul", "Communist", None))
    carol.add({"do": "draw", "deck": pile, "to": {"map": main, "location": first_hex}, "count": 1,
               "properties": ["UnitId"]}, name="first")
    carol.add({"do": "draw", "deck": pile, "to": {"map": main, "location": second_hex}, "count": 1,
               "properties": ["UnitId"]}, name="second")
    carol.add(*save_as(tmp_path / "set-up.vsav"))
    set_up = engine(module, carol.steps, timeout=600, prefs_dir=tmp_path / "carol")
    assert set_up.ok, set_up.failure()
    first = set_up.result(carol.at["first"])["drawn"][0]["id"]
    second = set_up.result(carol.at["second"])["drawn"][0]["id"]

    uma = Script()
    uma.add(*sign_in("Uma"))
    uma.add(*open_game(tmp_path / "set-up.vsav", tmp_path / "attacks.vlog", side="United Nations"))
    uma.add(*connect_dialog(server.url))
    uma.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Join recorded game..."]})
    uma.add({"do": "type", "window": "join a recorded game", "field": "game id", "text": recorded["game_id"]})
    uma.add({"do": "type", "window": "join a recorded game", "field": "token", "text": recorded["tokens"]["un"]})
    uma.add({"do": "click", "window": "join a recorded game", "on": "OK"})
    uma.add({"do": "wait_window", "window": "Joined recorded game"})
    uma.add({"do": "click", "window": "Joined recorded game", "on": "OK"})
    for n, (attacker, placeholder) in enumerate(((first_attacker, first), (second_attacker, second)), start=1):
        uma.add(*select(attacker))
        uma.add(menu_of(placeholder, "Adjudicator/Attack this hex with the selected units"))
        uma.add({"do": "wait_window", "window": "^Adjudicator: Combat"}, name=f"form {n}")
        uma.add(*submit_form("Combat"))
        uma.add({"do": "wait_chat", "match": rf"#{n}\] receipt: record {n} "}, name=f"ruling {n}")
        uma.add({"do": "click_if", "window": "apply the ruling", "on": "Yes", "timeout": 10}, name=f"apply {n}")
        uma.add({"do": "pieces", "properties": ["UnitId"]}, name=f"board {n}")
    uma.add(*save_as(tmp_path / "attacked.vsav"))
    played = engine(module, uma.steps, timeout=900, prefs_dir=tmp_path / "uma")
    assert played.ok, played.failure()

    token = {"Authorization": f"Bearer {recorded['tokens']['observer']}"}
    document = requests.get(f"{server.url}/api/v1/games/{recorded['game_id']}/ledger", headers=token, timeout=30).json()
    records = document["records"]
    for n, (placeholder, counter) in enumerate(((first, ORDER[0]), (second, ORDER[1])), start=1):
        body = records[n]["body"]
        assert body["request"]["defenders"][0] == {**body["request"]["defenders"][0], "unit": placeholder,
                                                   "revealed_as": counter}
        outcome = body["result"]["outcome"]
        assert outcome["revealed"] == [{"unit": placeholder, "revealed_as": counter}]
        headline = next(line for line in played.step(uma.at[f"ruling {n}"])["chat"] + played.chat()
                        if line.startswith(f"[ADJ {recorded['game_id']}#{n}] RULING"))
        assert f"turned face up: {game.units[counter].name}" in headline and f"({counter})" not in headline  # no id
        assert played.result(uma.at[f"apply {n}"])["clicked"]
        board = {p["properties"]["UnitId"]: p for p in played.result(uma.at[f"board {n}"])["pieces"]
                 if p["properties"]["UnitId"]}
        assert placeholder not in board  # the '? 4' is gone: the counter took its spot
        gone = {c.unit for c in ruled_changes(outcome) if c.eliminated and not c.revealed_as}
        spot = board[counter]
        if counter in gone:  # a Dummy "eliminate it immediately" (or a counter the combat eliminated)
            assert spot["map"] == "Boxes", spot
        else:
            assert (spot["map"], spot["location"]) == (main, second_hex if n == 2 else first_hex), spot
        assert any(f"turned face up: {game.units[counter].name}" in line and "as the ruling says" in line
                   for line in played.step(uma.at[f"apply {n}"])["chat"]), played.step(uma.at[f"apply {n}"])["chat"]
    assert game.units[ORDER[0]].has("dummy") and records[1]["body"]["result"]["outcome"]["combat"] is False

    closed = requests.post(f"{server.url}/api/v1/games/{recorded['game_id']}/close",
                           headers={"Authorization": f"Bearer {recorded['tokens']['un']}"}, timeout=30)
    assert closed.status_code == 200, closed.text
    document = requests.get(f"{server.url}/api/v1/games/{recorded['game_id']}/ledger", headers=token, timeout=30).json()
    report = requests.post(f"{server.url}/api/v1/verify", json={"ledger": document}, timeout=30).json()
    assert report["ok"], json.dumps(report["problems"])
    assert any("sealed pool" in line for line in report["compared"])
