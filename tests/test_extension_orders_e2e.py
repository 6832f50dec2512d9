"""What a ruling orders, applied by the Adjudicator extension's dialog in the real VASSAL 3.7.26
Player, checked by the log check and the ledger (issue 49).

HoldFast rule 3: the Chinese 50th Army, an 8-SP block at 5 SP, attacks and takes two hits; below 5
SP its block is swapped for its 4-SP block, placed showing 3 SP. The extension used to move the
spare block onto the hex as it lay (at 4 SP): the log check judged the ruling not applied (naming
the wrong piece) and the ledger gave the next ruling a false notice. Now the server resolves the
swap into the actions it takes (the 8-SP block to the replacement pile, the 4-SP block placed on
its spot showing 3) and the dialog makes exactly those.

The dice are chosen (adjudicator.testing.seed_for): record 1 swaps the army at 3 SP and leaves the
defender standing; record 2, the same attack again by the 4-SP block, is asked from the board the
dialog left.

Korean War Battles: an attack the CRT answers AR. The ruling's chat names the retreat; the apply
dialog lists it as the player's own order (the hexes are his choice: nothing applied for him); he
drags the unit one hex back and the log check verifies it (one not made is named: tests/test_log_board.py).

Fire and Ice 5.4.2: the attacker's natural 10 puts a Guards marker on his one participating unit;
the dialog places a new marker like the palette's on the unit's spot, and the log check finds it.
"""

from __future__ import annotations

import json

import pytest
import requests

from adjudicator.checks import get_check
from adjudicator.testing import make_app, seed_for, seeds_env
from bench.server import Gunicorn
from scenarios import load_game
from tests.conftest import Modules
from tests.engine.play import (
    Script, adjacent_combat, board_request, call, hex_label, menu_of, player_fields, submit_form,
)
from tests.test_log_board import Hand, position_after

pytestmark = pytest.mark.engine

ARMY, REDUCED = "cpa-50", "cpa-50-r"


@pytest.fixture(scope="module")
def board(engine_module, tmp_path_factory) -> dict:
    """HoldFast's campaign setup with the 50th Army on the first attacker's spot, showing 5 SP (three
    Step losses from 8), as a saved game; the attack on the setup's first defender it makes."""
    combat = adjacent_combat("holdfast")
    modules = Modules(tmp_path_factory.mktemp("orders-art"))
    setup = modules[("holdfast", 1)][2][f"setups/{combat.scenario.id}.vsav"]
    hand = Hand(load_game("holdfast"), setup)
    saved = position_after(setup, hand.onto(ARMY, combat.attackers[0]) + hand.step_loss(ARMY, 3))
    path = tmp_path_factory.mktemp("orders-board") / "army-at-5.vsav"
    path.write_bytes(saved)
    systems = {s["id"]: s for s in make_app(tmp_path_factory.mktemp("orders-systems")).test_client()
               .get("/api/v1/systems").get_json()["systems"]}
    fields = player_fields(systems["holdfast"], "combat")
    request = board_request("holdfast", combat.scenario.id, saved, "combat", "communist", [ARMY],
                            hex_label(combat, combat.defender), fields)
    assert request["attackers"] == [{"unit": ARMY, "sp": 5, "hex": request["attackers"][0]["hex"]}]
    return {"combat": combat, "path": path, "request": request, "fields": fields}


@pytest.fixture(scope="module")
def server(board, tmp_path_factory):
    spec = get_check("holdfast", "combat")

    def swapped_at_3(outcome):
        return [(a.get("swapped"), a.get("block"), a.get("sp")) for a in outcome["attackers"]] == [(True, REDUCED, 3)] \
            and not outcome["defender"].get("eliminated")

    seed = seed_for((spec, board["request"], swapped_at_3, 1))
    running = Gunicorn(workdir=tmp_path_factory.mktemp("orders-server"), app="adjudicator.testing:make_test_app()",
                       extra_env=seeds_env({"holdfast/campaign": seed})).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def played(engine, engine_module, server, board, tmp_path_factory) -> dict:
    files = tmp_path_factory.mktemp("orders-play")
    combat = board["combat"]
    s = Script()
    s.add({"do": "load", "file": str(board["path"])}, {"do": "side", "side": combat.attacking_side})
    s.add(call("connect", server.url), call("createRecordedGame", "", ""), name="create")
    s.add({"do": "log_begin", "file": str(files / "game.vlog")})
    s.add({"do": "person", "on": True})  # from here the dialogs wait for the player (the form, the apply question)
    s.add({"do": "select", "pieces": [{"id": ARMY}]})
    s.add(menu_of(combat.defender, "Adjudicator/Attack this hex with the selected units"))
    s.add({"do": "wait_window", "window": "^Adjudicator: Combat"}, name="form")
    s.add(*submit_form("Combat"))
    s.add({"do": "wait_chat", "match": r"#1\] receipt: record 1 "}, name="swap")
    s.add({"do": "click_if", "window": "apply the ruling", "on": "Yes", "timeout": 15}, name="apply")
    s.add({"do": "settle"})
    s.add({"do": "pieces", "properties": ["UnitId", "Step_Level"]}, name="board after")
    s.add({"do": "select", "pieces": [{"id": REDUCED}]})
    s.add(call("check", "combat", combat.defender, json.dumps(board["fields"])), name="again")
    s.add({"do": "log_end"})
    run = engine(engine_module("holdfast"), s.steps, timeout=300, prefs_dir=files / "prefs")
    assert run.ok, run.failure()
    created = run.result(s.at["create"])["returned"]
    return {"run": run, "script": s, "files": files, "game_id": created["game_id"],
            "token": created["tokens_for_others"]["observer"]}


def test_holdfast_army_swap_applied_by_the_dialog_verifies_and_draws_no_notice(played, server):
    run, s, game_id = played["run"], played["script"], played["game_id"]
    assert run.result(s.at["apply"])["clicked"]  # the apply dialog asked, and Yes
    document = requests.get(f"{server.url}/api/v1/games/{game_id}/ledger",
                            headers={"Authorization": f"Bearer {played['token']}"}, timeout=30).json()
    first, again = document["records"][1]["body"], document["records"][2]["body"]
    swapped = [a for a in first["result"]["outcome"]["attackers"] if a.get("swapped")]
    assert [(a["block"], a["sp"]) for a in swapped] == [(REDUCED, 3)]  # the chosen dice
    pieces = {p["properties"]["UnitId"]: p for p in run.result(s.at["board after"])["pieces"] if p["properties"]["UnitId"]}
    assert pieces[ARMY]["map"] == "Boxes"  # the 8-SP block to the Communist replacement pile
    assert pieces[REDUCED]["map"] != "Boxes" and pieces[REDUCED]["properties"]["Step_Level"].lstrip("-") == "2"  # "3"
    assert again["request"]["attackers"][0]["unit"] == REDUCED and again["request"]["attackers"][0]["sp"] == 3
    assert again["result"].get("notices", []) == []  # the board agrees with the ledger: no "left at 3 SP" notice
    files = [("file", ("game.vlog", (played["files"] / "game.vlog").read_bytes(), "application/octet-stream"))]
    report = requests.post(f"{server.url}/api/v1/games/{game_id}/savedgame/log-check", files=files,
                           headers={"Authorization": f"Bearer {played['token']}"}, timeout=60).json()
    assert (report["rulings"][0]["seq"], report["rulings"][0]["status"]) == (1, "verified"), report


# -- Korean War Battles: a retreat the CRT orders (AR), made by hand ------------------------------------

@pytest.fixture(scope="module")
def kwb_retreat(engine, engine_module, tmp_path_factory) -> dict:
    """Pusan's first attack, its dice chosen so the CRT says AR (attackers retreat one hex): the
    apply dialog lists the retreat as the player's own order (nothing to apply), he drags his unit
    one hex back, and the log check finds it there."""
    from modgen.buildfile import main_map_name

    combat = adjacent_combat("kwb", "pusan")
    modules = Modules(tmp_path_factory.mktemp("kwb-retreat-art"))
    setup = modules[("kwb", 1)][2]["setups/pusan.vsav"]
    request = board_request("kwb", "pusan", setup, "combat", "communist", combat.attackers,
                            hex_label(combat, combat.defender))
    seed = seed_for((get_check("kwb", "combat"), request, lambda o: o["result"] == "AR", 1))
    server = Gunicorn(workdir=tmp_path_factory.mktemp("kwb-retreat-server"), app="adjudicator.testing:make_test_app()",
                      extra_env=seeds_env({"kwb/pusan": seed})).start()
    try:
        files = tmp_path_factory.mktemp("kwb-retreat")
        game = load_game("kwb")
        grid = game.maps["pusan"].grid
        back = {u: grid.label(grid.neighbours(grid.parse(hex_label(combat, u)))[0]) for u in combat.attackers}
        s = Script()
        s.add({"do": "setup", "name": combat.scenario.name}, {"do": "side", "side": combat.attacking_side})
        s.add(call("connect", server.url), call("createRecordedGame", "", ""), name="create")
        s.add({"do": "log_begin", "file": str(files / "game.vlog")})
        s.add({"do": "person", "on": True})
        s.add({"do": "select", "pieces": [{"id": u} for u in combat.attackers]})
        s.add(menu_of(combat.defender, "Adjudicator/Attack this hex with the selected units"))
        s.add({"do": "wait_window", "window": "^Adjudicator: Combat"})
        s.add(*submit_form("Combat"))
        s.add({"do": "wait_chat", "match": r"#1\] receipt: record 1 "}, name="ruling")
        s.add({"do": "wait_window", "window": "the ruling orders"}, name="orders")
        s.add({"do": "click", "window": "the ruling orders", "on": "OK"})
        for unit, hex_ in back.items():
            s.add({"do": "move", "piece": {"id": unit}, "to": {"map": main_map_name(game), "location": hex_}})
        s.add({"do": "log_end"})
        run = engine(engine_module("kwb"), s.steps, timeout=300, prefs_dir=files / "prefs")
        assert run.ok, run.failure()
        created = run.result(s.at["create"])["returned"]
        files_sent = [("file", ("game.vlog", (files / "game.vlog").read_bytes(), "application/octet-stream"))]
        report = requests.post(f"{server.url}/api/v1/games/{created['game_id']}/savedgame/log-check", files=files_sent,
                               headers={"Authorization": f"Bearer {created['tokens_for_others']['observer']}"},
                               timeout=60).json()
        yield {"run": run, "script": s, "combat": combat, "report": report}
    finally:
        server.stop()


def test_kwb_a_retreat_the_crt_orders_is_listed_and_made_by_hand_verifies(kwb_retreat):
    run, s, combat, report = kwb_retreat["run"], kwb_retreat["script"], kwb_retreat["combat"], kwb_retreat["report"]
    ruling = [line for line in run.chat() if line.startswith("[ADJ ") and "#1]" in line]
    assert ": AR" in ruling[0] and any(line.endswith("retreats 1 hex") for line in ruling), ruling  # in the log too
    listed = run.result(s.at["orders"])["text"]
    assert listed.count("retreats 1 hex, as the ruling orders: move it yourself") == len(combat.attackers), listed
    assert [(r["seq"], r["status"]) for r in report["rulings"]] == [(1, "verified")], report


# -- Fire and Ice: a quality marker the combat orders, placed by the dialog ---------------------------------

@pytest.fixture(scope="module")
def fireandice_marker(engine, engine_module, tmp_path_factory) -> dict:
    """Invasion's first attack, a Hasty Attack, its dice chosen so the attacker rolls a natural 10
    (5.4.2): a Guards marker on his one participating unit. Yes in the apply dialog places a new
    marker like the palette's on the unit's spot; the log check finds it there."""
    combat = adjacent_combat("fireandice", "invasion")
    modules = Modules(tmp_path_factory.mktemp("fi-marker-art"))
    setup = modules[("fireandice", 1)][2]["setups/invasion.vsav"]
    typed = {"combat_type": "Hasty Attack", "attacking": {"adjacent_units": 2}, "defending": {"adjacent_units": 1}}
    request = board_request("fireandice", "invasion", setup, "combat", "communist", combat.attackers[:1],
                            hex_label(combat, combat.defender), typed)
    seed = seed_for((get_check("fireandice", "combat"), request,
                     lambda o: [p["side"] for p in o["quality_markers_placed"]] == ["communist"], 1))
    server = Gunicorn(workdir=tmp_path_factory.mktemp("fi-marker-server"), app="adjudicator.testing:make_test_app()",
                      extra_env=seeds_env({"fireandice/invasion": seed})).start()
    try:
        files = tmp_path_factory.mktemp("fi-marker")
        form = "^Adjudicator: Combat"
        s = Script()
        s.add({"do": "setup", "name": combat.scenario.name}, {"do": "side", "side": combat.attacking_side})
        s.add(call("connect", server.url), call("createRecordedGame", "", ""), name="create")
        s.add({"do": "log_begin", "file": str(files / "game.vlog")})
        s.add({"do": "person", "on": True})
        s.add({"do": "select", "pieces": [{"id": combat.attackers[0]}]})
        s.add(menu_of(combat.defender, "Adjudicator/Attack this hex with the selected units"))
        s.add({"do": "wait_window", "window": form})
        s.add({"do": "choose", "window": form, "field": "/combat_type", "item": "Hasty Attack"})
        for field, text in (("/attacking/adjacent_units", "2"), ("/defending/adjacent_units", "1")):
            s.add({"do": "type", "window": form, "field": field, "text": text})
        s.add(*submit_form("Combat"))
        s.add({"do": "wait_chat", "match": r"#1\] receipt: record 1 "}, name="ruling")
        s.add({"do": "wait_window", "window": "apply the ruling"}, name="dialog")
        s.add({"do": "click", "window": "apply the ruling", "on": "Yes"})
        s.add({"do": "settle"})
        s.add({"do": "pieces", "properties": ["UnitId", "MarkerId"]}, name="board after")
        s.add({"do": "log_end"})
        run = engine(engine_module("fireandice"), s.steps, timeout=300, prefs_dir=files / "prefs")
        assert run.ok, run.failure()
        created = run.result(s.at["create"])["returned"]
        token = created["tokens_for_others"]["observer"]
        document = requests.get(f"{server.url}/api/v1/games/{created['game_id']}/ledger",
                                headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
        sent = [("file", ("game.vlog", (files / "game.vlog").read_bytes(), "application/octet-stream"))]
        report = requests.post(f"{server.url}/api/v1/games/{created['game_id']}/savedgame/log-check", files=sent,
                               headers={"Authorization": f"Bearer {token}"}, timeout=60).json()
        yield {"run": run, "script": s, "combat": combat, "report": report, "record": document["records"][1]["body"]}
    finally:
        server.stop()


def test_fire_and_ice_a_quality_marker_placed_by_the_dialog_verifies(fireandice_marker):
    run, s, combat = fireandice_marker["run"], fireandice_marker["script"], fireandice_marker["combat"]
    outcome = fireandice_marker["record"]["result"]["outcome"]
    assert outcome["quality_markers_placed"] == [{"side": "communist", "marker": "Guards"}]  # the chosen dice
    assert "Guards Unit" in run.result(s.at["dialog"])["text"]  # the dialog lists the marker
    pieces = run.result(s.at["board after"])["pieces"]
    unit = next(p for p in pieces if p["properties"].get("UnitId") == combat.attackers[0])
    markers = [p for p in pieces if p["properties"].get("MarkerId") == "guards-penal"]
    assert [(m["map"], m["location"]) for m in markers] == [(unit["map"], unit["location"])]
    assert [(r["seq"], r["status"]) for r in fireandice_marker["report"]["rulings"]] == [(1, "verified")]
