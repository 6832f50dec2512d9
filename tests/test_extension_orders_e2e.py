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
import re

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


def first_record_and_log_check(server, created: dict, files) -> tuple[dict, dict]:
    """The game's first ruling as its ledger holds it, and the server's check of the log the player
    wrote (files / "game.vlog"), both read with the observer's token."""
    token = created["tokens_for_others"]["observer"]
    document = requests.get(f"{server.url}/api/v1/games/{created['game_id']}/ledger",
                            headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
    sent = [("file", ("game.vlog", (files / "game.vlog").read_bytes(), "application/octet-stream"))]
    report = requests.post(f"{server.url}/api/v1/games/{created['game_id']}/savedgame/log-check", files=sent,
                           headers={"Authorization": f"Bearer {token}"}, timeout=60).json()
    return document["records"][1]["body"], report


# -- Fire and Ice: the Communist's first Hasty Attack of Invasion, applied by the dialog ---------------------

def fireandice_attack(engine, engine_module, tmp_path_factory, name: str, combat, seed: int, after: list[str],
                      before: list[str] | None = None):
    """The attack asked by menu and form with the chosen `seed`, Yes in the apply dialog, the pieces'
    `after` properties read (and `before`, when given, as the log begins), the log checked by the
    observer. Yields what the tests read, the server running until they are done."""
    server = Gunicorn(workdir=tmp_path_factory.mktemp(f"{name}-server"), app="adjudicator.testing:make_test_app()",
                      extra_env=seeds_env({"fireandice/invasion": seed})).start()
    try:
        files = tmp_path_factory.mktemp(name)
        form = "^Adjudicator: Combat"
        s = Script()
        s.add({"do": "setup", "name": combat.scenario.name}, {"do": "side", "side": combat.attacking_side})
        s.add(call("connect", server.url), call("createRecordedGame", "", ""), name="create")
        s.add({"do": "log_begin", "file": str(files / "game.vlog")})
        if before:
            s.add({"do": "pieces", "properties": before}, name="board before")
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
        s.add({"do": "pieces", "properties": after}, name="board after")
        s.add({"do": "log_end"})
        run = engine(engine_module("fireandice"), s.steps, timeout=300, prefs_dir=files / "prefs")
        assert run.ok, run.failure()
        record, report = first_record_and_log_check(server, run.result(s.at["create"])["returned"], files)
        yield {"run": run, "script": s, "combat": combat, "report": report, "record": record}
    finally:
        server.stop()


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
    yield from fireandice_attack(engine, engine_module, tmp_path_factory, "fi-marker", combat, seed,
                                 after=["UnitId", "MarkerId"])


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


# -- SPI: the defender's own choice of his losses, made in his next file ---------------------------------------

@pytest.fixture(scope="module")
def spi_owner_choice(engine, engine_module, tmp_path_factory) -> dict:
    """Combat (J) names no chooser of the units that lose a combat's regiments: each player takes his own.
    The Campaign Game's first attack, on a stack of two whose owner said nothing: its dice chosen so the
    CRT costs the defender regiments and the Pursuit table no retreat, the choice is left open, owed by
    the defender. Alice (attacker) rolls it in her file, applying her own losses if any; Bob (defender)
    loads her save, right-clicks his unit, 'Combat losses for this unit', names his second unit to lose
    them first, applies the ruling with the dialog, and saves. Both files are checked as the game's chain."""
    from tests.engine.play import end_log, open_game, save_as, setup_hexes, sign_in

    fight = adjacent_combat("spi", "campaign")
    game = load_game("spi")
    modules = Modules(tmp_path_factory.mktemp("spi-choice-art"))
    setup = modules[("spi", 1)][2]["setups/campaign.vsav"]
    owner, attacker = game.units[fight.defender].side, game.units[fight.attackers[0]].side
    on_hexes = setup_hexes(game, fight.scenario)
    second = next(p.unit for p in fight.scenario.setup if p.unit in on_hexes and p.unit != fight.defender
                  and game.units[p.unit].side == owner and not game.units[p.unit].has("supply"))
    stacked = position_after(setup, Hand(game, setup).onto(second, fight.defender))
    files = tmp_path_factory.mktemp("spi-choice")
    (files / "stack.vsav").write_bytes(stacked)
    systems = {s["id"]: s for s in make_app(tmp_path_factory.mktemp("spi-choice-systems")).test_client()
               .get("/api/v1/systems").get_json()["systems"]}
    typed = player_fields(systems["spi"], "combat")
    request = board_request("spi", "campaign", stacked, "combat", attacker, fight.attackers,
                            hex_label(fight, fight.defender), typed)
    assert {d["unit"] for d in request["defenders"]} == {fight.defender, second}
    seed = seed_for((get_check("spi", "combat"), request,
                     lambda o: o["defender_losses_to_choose"] is not None
                     and not o["defender_losses_to_choose"].get("retreat_hexes"), 1))
    server = Gunicorn(workdir=tmp_path_factory.mktemp("spi-choice-server"), app="adjudicator.testing:make_test_app()",
                      extra_env=seeds_env({"spi/campaign": seed})).start()
    try:
        module = engine_module("spi")
        a = Script()
        a.add(*sign_in("Alice"))
        a.add(*open_game(files / "stack.vsav", files / "a1.vlog", side=game.sides[attacker].name))
        a.add(call("connect", server.url), call("createRecordedGame", "", ""), name="created")
        a.add({"do": "select", "pieces": [{"id": u} for u in fight.attackers]})
        a.add(menu_of(fight.defender, "Adjudicator/Attack this hex with the selected units"))
        a.add({"do": "wait_window", "window": "^Adjudicator: Combat"})
        for field, value in typed.items():
            a.add({"do": "choose", "window": "^Adjudicator: Combat", "field": f"/{field}", "item": str(value)})
        a.add(*submit_form("Combat"))
        a.add({"do": "wait_chat", "match": r"#1\] receipt: record 1 "}, name="ruling")
        a.add({"do": "click_if", "window": "apply the ruling", "on": "Yes", "timeout": 5}, name="her dialog")
        a.add({"do": "click_if", "window": "the ruling orders", "on": "OK", "timeout": 5}, name="orders")
        a.add(*save_as(files / "a1.vsav"), *end_log())
        alice = engine(module, a.steps, timeout=600, prefs_dir=files / "alice")
        assert alice.ok, alice.failure()
        created = alice.result(a.at["created"])["returned"]

        losses_form = "^Adjudicator: Combat losses"
        b = Script()
        b.add(*sign_in("Bob"))
        b.add(*open_game(files / "a1.vsav", files / "b1.vlog", side=game.sides[owner].name))
        b.add(call("connect", server.url), call("joinRecordedGame", created["game_id"], created["tokens_for_others"][owner]))
        b.add(menu_of(fight.defender, "Adjudicator/Combat losses for this unit"))
        b.add({"do": "wait_window", "window": losses_form}, name="losses form")
        b.add({"do": "type", "window": losses_form, "field": "/losses_from", "text": second})
        b.add(*submit_form("Combat losses"))
        b.add({"do": "wait_chat", "match": r"#2\] receipt: record 2 "}, name="losses")
        b.add({"do": "wait_window", "window": "apply the ruling"}, name="apply dialog")
        b.add({"do": "click", "window": "apply the ruling", "on": "Yes"})
        b.add({"do": "settle"})
        b.add({"do": "pieces", "properties": ["UnitId"]}, name="board after")
        b.add(*save_as(files / "b1.vsav"), *end_log())
        bob = engine(module, b.steps, timeout=600, prefs_dir=files / "bob")
        assert bob.ok, bob.failure()
        token = created["tokens_for_others"]["observer"]
        records = requests.get(f"{server.url}/api/v1/games/{created['game_id']}/ledger",
                               headers={"Authorization": f"Bearer {token}"}, timeout=30).json()["records"]

        def check(*names):
            sent = [("file", (n, (files / n).read_bytes(), "application/octet-stream")) for n in names]
            return requests.post(f"{server.url}/api/v1/games/{created['game_id']}/savedgame/log-check", files=sent,
                                 headers={"Authorization": f"Bearer {token}"}, timeout=60).json()

        yield {"alice": (alice, a), "bob": (bob, b), "fight": fight, "second": second, "owner": owner,
               "records": records, "chain": check("a1.vlog", "b1.vlog"), "alone": check("a1.vlog")}
    finally:
        server.stop()


def test_spi_a_loss_chosen_by_the_owner_in_his_next_file_verifies(spi_owner_choice):
    """The attacker's file leaves the choice owed ("owed: UN chooses ... from combat record #1 (Combat
    (J))"), pending while the defender's file is not sent; with it, his 'Combat losses' (record 2, the
    combat's record read from the ledger, his unit named first) settles it and its changes, applied by
    his dialog, verify: the chain is ok."""
    t = spi_owner_choice
    combat, losses = t["records"][1]["body"], t["records"][2]["body"]
    owed = combat["result"]["outcome"]["defender_losses_to_choose"]
    assert owed["side"] == t["owner"] and set(owed["units"]) == {t["fight"].defender, t["second"]}  # the chosen dice
    assert losses["check"] == "spi.combat_losses" and losses["side"] == t["owner"]
    assert losses["request"]["combat_record"] == 1 and losses["request"]["losses_from"][0] == t["second"]
    alone = t["alone"]
    assert [(r["seq"], r["status"]) for r in alone["rulings"]] == [(1, "verified")], alone
    assert [(o["seq"], o["kind"], o["status"]) for o in alone["owed"]] == [(1, "to_choose", "pending")], alone["owed"]
    assert alone["owed"][0]["why"].startswith("owed: UN chooses which units lose ")
    assert "from combat record #1 (Combat (J))" in alone["owed"][0]["why"]
    chain = t["chain"]
    assert [(r["seq"], r["status"]) for r in chain["rulings"]] == [(1, "verified"), (2, "verified")], chain
    assert [(o["seq"], o["kind"], o["status"], o["file"]) for o in chain["owed"]] == [(1, "to_choose", "applied", 2)]
    assert chain["ok"], chain


# -- Fire and Ice 5.5: News reporters, an Objective marker drawn onto the combat hex by the dialog ------------------

@pytest.fixture(scope="module")
def fireandice_objective(engine, engine_module, tmp_path_factory) -> dict:
    """Invasion's first attack, its dice chosen so both dice match and the Random Event is News reporters
    of the attacker's colour (5.5): "place a revealed Objective marker of the attacker's color on the combat
    hex". Yes in the apply dialog draws one from the top of his shuffled pool onto that hex, face up; the
    log check finds a marker of that pool there (its value is the draw's: the ruling names none, 12.1.3)."""
    combat = adjacent_combat("fireandice", "invasion")
    modules = Modules(tmp_path_factory.mktemp("fi-objective-art"))
    setup = modules[("fireandice", 1)][2]["setups/invasion.vsav"]
    typed = {"combat_type": "Hasty Attack", "attacking": {"adjacent_units": 2}, "defending": {"adjacent_units": 1}}
    target = hex_label(combat, combat.defender)
    request = board_request("fireandice", "invasion", setup, "combat", "communist", combat.attackers[:1], target, typed)
    assert request["combat_hex"] == target
    seed = seed_for((get_check("fireandice", "combat"), request,
                     lambda o: [m["side"] for m in o["markers_on_hexes"]] == ["communist"]
                     and not o["quality_markers_placed"], 1))
    for made in fireandice_attack(engine, engine_module, tmp_path_factory, "fi-objective", combat, seed,
                                  after=["UnitId", "MarkerId", "ObscuredToOthers"], before=["MarkerId"]):
        yield {**made, "target": target}


def test_fire_and_ice_an_objective_marker_drawn_onto_the_combat_hex_by_the_dialog_verifies(fireandice_objective):
    t = fireandice_objective
    run, s, target = t["run"], t["script"], t["target"]
    (order,) = t["record"]["result"]["outcome"]["markers_on_hexes"]
    assert (order["side"], order["hex"], order["pool"]) == ("communist", target, "com-objectives")  # the chosen dice
    assert re.search(rf"drawn at random from .*, placed face up on {target}", run.result(s.at["dialog"])["text"])

    def objectives(pieces):
        return {(p["map"], p["location"]) for p in pieces if (p["properties"].get("MarkerId") or "").startswith("com-objective")}

    placed = objectives(run.result(s.at["board after"])["pieces"]) - objectives(run.result(s.at["board before"])["pieces"])
    assert [location for _, location in placed] == [target], placed
    marker = next(p for p in run.result(s.at["board after"])["pieces"]
                  if (p["properties"].get("MarkerId") or "").startswith("com-objective") and p["location"] == target)
    assert str(marker["properties"].get("ObscuredToOthers")).lower() == "false", marker  # face up, as 5.5 says
    chat = [line for line in run.chat() if "Objective marker" in line and "#1]" in line]
    assert any(f"Objective marker on {target}" in line for line in chat), chat  # the chat names the order
    assert [(r["seq"], r["status"]) for r in t["report"]["rulings"]] == [(1, "verified")], t["report"]


# -- HoldFast 7: the Weather block moved on its track by the dialog ---------------------------------------------

@pytest.fixture(scope="module")
def holdfast_weather(engine, engine_module, tmp_path_factory) -> dict:
    """The Weather block left on Snow (a position where last turn snowed), the Communist player rolls the
    weather from the toolbar's Checks: turn 1 is clear (7; 13.6), so Yes in the apply dialog moves the
    block from Snow to Clear on the Weather Track (a track's cells are the map's locations), and the log
    check verifies it."""
    from adjudicator.bridge.locate import TRACKS_MAP

    game = load_game("holdfast")
    scenario = next(iter(game.scenarios.values()))
    server = Gunicorn(workdir=tmp_path_factory.mktemp("hf-weather-server"),
                      app="adjudicator.testing:make_test_app()").start()
    try:
        files = tmp_path_factory.mktemp("hf-weather")
        form = "^Adjudicator: Weather"
        block = {"properties": {"MarkerId": "weather"}}
        s = Script()
        s.add({"do": "setup", "name": scenario.name}, {"do": "side", "side": game.sides["communist"].name})
        s.add({"do": "move", "piece": block, "to": {"map": TRACKS_MAP, "location": "Weather Track Snow"}})
        s.add(call("connect", server.url), call("createRecordedGame", "", ""), name="create")
        s.add({"do": "log_begin", "file": str(files / "game.vlog")})
        s.add({"do": "pieces", "properties": ["MarkerId"]}, name="board before")
        s.add({"do": "person", "on": True})
        s.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Checks", "Weather (7)"]})
        s.add({"do": "wait_window", "window": form})
        s.add(*submit_form("Weather"))
        s.add({"do": "wait_chat", "match": r"#1\] receipt: record 1 "}, name="ruling")
        s.add({"do": "wait_window", "window": "apply the ruling"}, name="dialog")
        s.add({"do": "click", "window": "apply the ruling", "on": "Yes"})
        s.add({"do": "settle"})
        s.add({"do": "pieces", "properties": ["MarkerId"]}, name="board after")
        s.add({"do": "log_end"})
        run = engine(engine_module("holdfast"), s.steps, timeout=300, prefs_dir=files / "prefs")
        assert run.ok, run.failure()
        record, report = first_record_and_log_check(server, run.result(s.at["create"])["returned"], files)
        yield {"run": run, "script": s, "report": report, "record": record}
    finally:
        server.stop()


def test_holdfast_the_weather_block_moved_by_the_dialog_verifies(holdfast_weather):
    t = holdfast_weather
    run, s = t["run"], t["script"]
    assert t["record"]["result"]["outcome"]["weather"] == "clear"  # turn 1

    def block(step):
        return [p["location"] for p in run.result(s.at[step])["pieces"] if p["properties"].get("MarkerId") == "weather"]

    assert block("board before") == ["Weather Track Snow"]
    assert "moved from Snow to Clear (3; 7 Weather)" in run.result(s.at["dialog"])["text"]
    assert block("board after") == ["Weather Track Clear"]
    assert [(r["seq"], r["status"]) for r in t["report"]["rulings"]] == [(1, "verified")], t["report"]
