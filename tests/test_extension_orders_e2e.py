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
"""

from __future__ import annotations

import json
from pathlib import Path

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
