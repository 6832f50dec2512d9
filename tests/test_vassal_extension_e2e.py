"""The Adjudicator extension in a player's hands, in the real VASSAL 3.7.26 Player (`make vassal-e2e`).

A real adjudicator (gunicorn on a loopback port, a temporary SQLite file, a public address of its
own) and each game's module built by modgen. The engine runs under Xvfb and is driven as a person
drives it: real mouse and key events (java.awt.Robot) on the menus, the wizard, the dialogs, the
pieces and the forms (tests/engine/play.py, docs/engine-harness.md). What is played:

* Korean War Battles between two players on two computers (two preference folders):
  Alice starts Pusan, answers "Start new logfile?" with Yes, connects, creates the recorded game,
  attacks through the right-click menu, saves, reloads, asks a supply report, switches to Battle
  for Seoul as UN (a calculation now); Bob loads Alice's save, is refused with the observer's
  token, joins with his own, attacks as UN; Alice loads Bob's save and continues.
* Fire and Ice's Invasion: the combat form filled field by field, a refusal shown in
  the form, a server that accepts the check and never answers, and the same check asked again.
* SPI's Campaign Game: the defender's choice of table, the attacking units' own fields, dice.
* HoldFast: a combat and a supply report through the extension's methods, and a stopped server;
  and two players: the Communist attack eliminates a UN block hidden from him (the apply dialog says
  it is its owner's), the UN player loads the file and applies it with "Apply the rulings' changes
  to my pieces", and the log check finds it in his next file.

The dice are chosen (adjudicator.testing): the server is the tests' app, whose games' seeds make
each combat rule what the test is about (the KWB attack kills, the UN counter-attack flips the
attacker, the HoldFast attack eliminates the defender), asserted from the ledger afterwards.

After each: the chat, the game's ledger (which verifies) and the .vlog read back with vassalfmt.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest
import requests

from adjudicator.checks import get_check
from adjudicator.words.results import percent
from adjudicator.testing import make_app, seed_for, seeds_env
from adjudicator.words.transcript import (
    RULING_MARK,
    SHORT_LINES,
    UnitNames,
    comparable_lines,
    parse_session_line,
    parse_transcript,
    session_line,
)
from adjudicator.unit_changes import ruled_changes
from bench.server import Gunicorn
from modgen.pieces import unit_piece_name
from scenarios import load_game
from tests.engine.play import (
    Script,
    adjacent_combat,
    board_request,
    hex_label,
    call,
    close_game,
    connect_dialog,
    end_log,
    kept_games,
    log_prompt,
    menu_of,
    open_game,
    player_fields,
    save_as,
    select,
    setup_hexes,
    sign_in,
    start_scenario,
    submit_form,
)
from tests.engine.servers import SilentProxy
from vassalfmt import read_saved_game
from vassalfmt.savedgame import deobfuscate

pytestmark = pytest.mark.engine

PUBLIC = "https://adjudicator.example.test"  # what the server says its address is (ADJUDICATOR_PUBLIC_URL)
STATE = "korea.adjudicator.game\t"


def kwb_rulings(modules) -> tuple:
    """Pusan's two combats as the board asks them: Alice's (Communist) and Bob's counter-attack."""
    setup = modules[("kwb", 1)][2]["setups/pusan.vsav"]
    attack, counter = adjacent_combat("kwb", "pusan"), adjacent_combat("kwb", "pusan", side="un")
    alice = board_request("kwb", "pusan", setup, "combat", "communist", attack.attackers, hex_label(attack, attack.defender))
    bob = board_request("kwb", "pusan", setup, "combat", "un", counter.attackers, hex_label(counter, counter.defender))
    return alice, bob


def holdfast_attack(modules, systems) -> dict:
    combat = adjacent_combat("holdfast")
    setup = modules[("holdfast", 1)][2][f"setups/{combat.scenario.id}.vsav"]
    return board_request("holdfast", combat.scenario.id, setup, "combat", combat.game.units[combat.attackers[0]].side,
                         combat.attackers, hex_label(combat, combat.defender), player_fields(systems["holdfast"], "combat"))


@pytest.fixture(scope="module")
def chosen_dice(modules, tmp_path_factory) -> dict[str, bytes]:
    """The seeds of the games the server creates: Pusan's record 1 (Alice's attack) depletes her
    attacker (AD), record 3 (Bob's counter-attack at 1:4) sends his depleted ROK division to the
    deadpile and a random ROK regiment in its place (7.6); HoldFast's record 1 eliminates the
    defender's block and leaves the attacker's."""
    systems = {s["id"]: s for s in make_app(tmp_path_factory.mktemp("dice")).test_client()
               .get("/api/v1/systems").get_json()["systems"]}
    combat, hold = get_check("kwb", "combat"), get_check("holdfast", "combat")
    alice, bob = kwb_rulings(modules)
    kwb = seed_for((combat, alice, lambda o: o["result"] == "AD" and o["attackers"][0]["step"] == "depleted", 1),
                   (combat, bob, lambda o: bool(o["attackers"][0]["replaced_by"]), 3))
    holdfast = seed_for((hold, holdfast_attack(modules, systems),
                         lambda o: o["defender"]["eliminated"] and all(a["sp"] == a["sp_before"] for a in o["attackers"]), 1))
    return {"kwb/pusan": kwb, "holdfast/campaign": holdfast}


@pytest.fixture(scope="module")
def server(tmp_path_factory, chosen_dice):
    running = Gunicorn(workdir=tmp_path_factory.mktemp("adjudicator"), app="adjudicator.testing:make_test_app()",
                       extra_env={"ADJUDICATOR_PUBLIC_URL": PUBLIC, **seeds_env(chosen_dice)}).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def systems(server) -> dict:
    return {s["id"]: s for s in requests.get(server.url + "/api/v1/systems", timeout=30).json()["systems"]}


# -- reading back what was played -------------------------------------------------------------------

def decoded(*paths: Path) -> str:
    """Every entry of these saved games and logs as text, the game's commands decoded."""
    texts = []
    for path in paths:
        with zipfile.ZipFile(path) as archive:
            for name in archive.namelist():
                data = archive.read(name)
                texts.append(deobfuscate(data) if name == "savedGame" else data.decode("utf-8", "replace"))
    return "\n".join(texts)


def chat_texts(path: Path) -> list[str]:
    """The chat lines a .vlog carries (its CHAT commands)."""
    return [c[len("CHAT"):] for c in read_saved_game(path).other_commands if c.startswith("CHAT")]


def game_states(path: Path) -> list[dict]:
    """What the game said it was, each time a save or log says it (the extension's commands)."""
    return [json.loads(c[len(STATE):]) for c in read_saved_game(path).other_commands if c.startswith(STATE)]


def ledger(server, game_id: str, token: str) -> dict:
    return requests.get(f"{server.url}/api/v1/games/{game_id}/ledger", headers={"Authorization": f"Bearer {token}"},
                        timeout=30).json()


def as_answered(record: dict, game_id: str) -> dict:
    """A ledger record as the server answered its check (what the chat lines render)."""
    body = record["body"]
    system, _, name = body["check"].partition(".")
    return {"system": system, "check": name, "rule": get_check(system, name).rule, **body["result"],
            "request": body["request"], "game_id": game_id, "seq": record["seq"], "hash": record["hash"],
            "side": body["side"], "receipt": record["receipt"]}


def assert_rulings_are_the_ledgers(chat: list[str], document: dict, seqs: list[int]) -> None:
    """The recorded rulings in `chat` are exactly records `seqs`, each line as the ledger renders it."""
    game_id = document["game"]["id"]
    rulings = [r for r in parse_transcript(chat) if r.recorded]
    assert [(r.game_id, r.seq) for r in rulings] == [(game_id, s) for s in seqs]
    records = {r["seq"]: r for r in document["records"]}
    for ruling in rulings:
        record = records[ruling.seq]
        assert ruling.version == 3 and ruling.lines[0].startswith(RULING_MARK) and len(ruling.lines) <= SHORT_LINES
        assert ruling.hash_prefix and record["hash"].startswith(ruling.hash_prefix)
        assert ruling.comparable() == comparable_lines(as_answered(record, game_id))
        assert ruling.lines[-1] == f"verify: {PUBLIC}/games/{game_id}#record-{ruling.seq}"


def explain(run) -> str:
    """Why a run failed, with what the last steps showed (chat, dialogs) for the assertion's message."""
    shown = []
    for entry in run.steps[-6:]:
        shown.append(f"{entry.get('do')}: {entry.get('error') or ''}")
        shown += [f"   chat: {line}" for line in entry.get("chat", [])]
        shown += [f"   dialog: {d.get('title')}: {str(d.get('text'))[:300]}" for d in entry.get("dialogs", [])]
    return run.failure() + "\n" + "\n".join(shown)


# -- Korean War Battles, two players ----------------------------------------------------------------

class Session:
    """One engine run of a player: its script, its report, its files."""

    def __init__(self, files: Path, prefs: Path):
        self.files = files
        self.prefs = prefs
        self.script = Script()
        self.run = None

    def result(self, name: str):
        return self.run.result(self.script.at[name])

    def step(self, name: str):
        return self.run.step(self.script.at[name])


@pytest.fixture(scope="module")
def kwb(engine, engine_module, server, tmp_path_factory) -> dict:
    """Alice (Communist) and Bob (UN) play Pusan on two computers; what each session showed."""
    files = tmp_path_factory.mktemp("kwb")
    module = engine_module("kwb")
    attack = adjacent_combat("kwb", "pusan")
    counter = adjacent_combat("kwb", "pusan", side="un")
    seoul_un = next(p.unit for p in load_game("kwb").scenarios["seoul"].setup if p.unit.startswith("us-"))
    # a unit of Alice's the combat cannot have eliminated (its supply is asked after the combat)
    supplied = next(p.unit for p in attack.scenario.setup if not p.is_marker and p.unit.startswith("nk-")
                    and p.unit not in attack.attackers and ":" not in p.location)
    # a division of Alice's away from the fight: selected by mistake with the attackers, then taken out of the form
    division = next(u for u in ("nk-6", "nk-12", "nk-15") if u not in attack.attackers and u != supplied)
    form = "^Adjudicator: Combat"

    alice = Session(files, files / "alice-prefs")
    a = alice.script
    a.add(*sign_in("Alice"))
    a.add(*start_scenario("Pusan Perimeter", "Communist", files / "a1.vlog"), name="started")
    a.add(*connect_dialog(server.url))
    a.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Create recorded game..."]})
    a.add({"do": "wait_window", "window": "create a recorded game"}, name="create dialog")
    a.add({"do": "click", "window": "create a recorded game", "on": "OK"})
    a.add({"do": "wait_window", "window": "recorded game created"}, name="created")
    a.add({"do": "click", "window": "recorded game created", "on": "OK"})
    a.add(menu_of(attack.defender), name="enemy menu, nothing selected")
    a.add(menu_of(attack.attackers[0]), name="own unit's menu")
    a.add(menu_of(division), name="own division's menu")
    a.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Checks"], "read": True}, name="checks menu")
    a.add(*select(*attack.attackers, division))
    a.add(menu_of(attack.defender, "Adjudicator/Attack this hex with the selected units"))
    a.add({"do": "wait_window", "window": form}, name="combat form")
    a.add({"do": "click", "window": form, "on": f"/attackers/{len(attack.attackers)}/remove"})
    a.add({"do": "click", "window": form, "on": "chances"})
    a.add({"do": "wait_window", "window": f"(?s){form}.*Expected losses"}, name="chances")
    a.add(*submit_form("Combat"))
    a.add({"do": "wait_chat", "match": r"#1\] receipt: record 1 "})
    a.add({"do": "click_if", "window": "apply the ruling", "on": "No"}, name="not by the dialog")
    a.add(menu_of(attack.attackers[0], "Step loss"), name="by hand")  # the module's own command, from the piece's menu
    a.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Open this ruling's page"]})
    a.add({"do": "wait_window", "window": "open in your browser"}, name="ruling page")
    a.add({"do": "click", "window": "open in your browser", "on": "OK"})
    a.add({"do": "chat_click", "match": r"#1\] verify: ", "on": "https://"}, name="clicked in the chat")
    a.add({"do": "wait_window", "window": "open in your browser"}, name="address clicked")
    a.add({"do": "click", "window": "open in your browser", "on": "OK"})
    a.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["The last ruling in full..."]})
    a.add({"do": "wait_window", "window": "the ruling in full"}, name="ruling window")
    a.add({"do": "click", "window": "the ruling in full", "on": "Close"})
    a.add({"do": "wait_window", "window": "the ruling in full", "gone": True})
    a.add({"do": "chat_click", "match": r"#1\] RULING", "on": "Combat for"})  # a click on the ruling in the chat
    a.add({"do": "wait_window", "window": "the ruling in full"}, name="ruling window by a click")
    a.add({"do": "click", "window": "the ruling in full", "on": "Close"})
    a.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Replay a log in the browser"]})
    a.add({"do": "wait_window", "window": "open in your browser"}, name="replay")
    a.add({"do": "click", "window": "open in your browser", "on": "OK"})
    a.add({"do": "pieces", "properties": ["UnitId", "Step_Level"]}, name="board after 1")
    a.add(*save_as(files / "a1.vsav"), *end_log())
    a.add(*open_game(files / "a1.vsav", files / "a2.vlog"), name="reloaded")
    a.add(menu_of(supplied, "Adjudicator/Supply of this side"))
    a.add({"do": "wait_window", "window": "^Adjudicator: Supply"}, name="supply form")
    a.add(*submit_form("Supply"))
    a.add({"do": "wait_chat", "match": r"#2\] receipt: record 2 "}, name="supply")
    a.add(*save_as(files / "a2.vsav"), *end_log())
    a.add(*close_game(), *start_scenario("Battle for Seoul", "United Nations", None), name="seoul")
    a.add({"do": "wait_chat", "match": "is not recorded game"})
    a.add(menu_of(seoul_un, "Adjudicator/Supply of this side"))  # Seoul's board, on the main map
    a.add({"do": "wait_window", "window": "^Adjudicator: Supply"}, name="calculation form")
    a.add(*submit_form("Supply"))
    a.add({"do": "wait_chat", "match": rf"^\[ADJ compute\] {RULING_MARK}Supply for UN"}, name="calculation")
    a.add(call("status"), name="status in seoul")
    alice.run = engine(module, a.steps, timeout=900, prefs_dir=alice.prefs)
    assert alice.run.ok, explain(alice.run)

    created = alice.result("created")["text"]
    game_id = next(iter(kept_games(alice.prefs)))
    tokens = dict(line.split(": ", 1) for line in created.splitlines() if line.startswith(("un: ", "observer: ")))

    bob = Session(files, files / "bob-prefs")
    b = bob.script
    b.add(*sign_in("Bob"))
    b.add(*open_game(files / "a2.vsav", files / "b1.vlog", side="United Nations"), name="loaded")
    b.add(*connect_dialog(server.url))
    b.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Join recorded game..."]})
    b.add({"do": "wait_window", "window": "join a recorded game"}, name="join dialog")
    # the game names its server's public address, which this test's machine cannot reach: Bob's own is offered beside it
    b.add({"do": "choose", "window": "join a recorded game", "field": "server", "item": server.url})
    b.add({"do": "type", "window": "join a recorded game", "field": "token", "text": tokens["observer"]})
    b.add({"do": "click", "window": "join a recorded game", "on": "OK"})
    b.add({"do": "wait_window", "window": "(?s)join a recorded game.*An observer's token"}, name="observer refused")
    b.add({"do": "type", "window": "join a recorded game", "field": "token", "text": tokens["un"]})
    b.add({"do": "click", "window": "join a recorded game", "on": "OK"})
    b.add({"do": "wait_window", "window": "Joined recorded game"}, name="joined")
    b.add({"do": "click", "window": "Joined recorded game", "on": "OK"})
    b.add(*select(*counter.attackers))
    b.add(menu_of(counter.defender, "Adjudicator/Attack this hex with the selected units"))
    b.add(*submit_form("Combat"))
    b.add({"do": "pieces", "properties": ["UnitId", "Step_Level"]}, name="board before 3")
    b.add({"do": "wait_chat", "match": r"#3\] receipt: record 3 "}, name="un attack")
    b.add({"do": "click_if", "window": "apply the ruling", "on": "Yes"}, name="apply 3")
    b.add({"do": "wait_chat", "match": r"placed in"}, name="placed")
    b.add({"do": "pieces", "properties": ["UnitId", "Step_Level"]}, name="board after 3")
    b.add(*save_as(files / "b1.vsav"), *end_log())
    bob.run = engine(module, b.steps, timeout=600, prefs_dir=bob.prefs)
    assert bob.run.ok, explain(bob.run)

    again = Session(files, alice.prefs)
    c = again.script
    c.add(*sign_in("Alice"))
    c.add(*open_game(files / "b1.vsav", files / "a3.vlog"), name="continued")
    c.add(menu_of(supplied, "Adjudicator/Supply of this side"))
    c.add(*submit_form("Supply"))
    c.add({"do": "wait_chat", "match": r"#4\] receipt: record 4 "}, name="supply again")
    c.add(*end_log())
    # the re-roll: Bob's save loaded once more, a log begun, the same check asked again (record 5)
    c.add(*open_game(files / "b1.vsav", files / "a3x.vlog"), name="loaded again")
    c.add(menu_of(supplied, "Adjudicator/Supply of this side"))
    c.add(*submit_form("Supply"))
    c.add({"do": "wait_chat", "match": r"#5\] receipt: record 5 "}, name="re-roll")
    c.add({"do": "wait_window", "window": "Adjudicator: notice"}, name="notice")  # the server: asked again
    c.add({"do": "click", "window": "Adjudicator: notice", "on": "OK"})
    c.add(*end_log())
    again.run = engine(module, c.steps, timeout=900, prefs_dir=again.prefs)
    assert again.run.ok, explain(again.run)
    return {"alice": alice, "bob": bob, "again": again, "game_id": game_id, "tokens": tokens, "attack": attack,
            "counter": counter, "files": files, "division": division}


def test_the_scenario_is_the_games_own_through_the_log_prompt_a_save_and_a_reload(kwb, server):
    alice, game_id, files = kwb["alice"], kwb["game_id"], kwb["files"]
    create = alice.result("create dialog")["text"]
    assert "Scenario:\npusan\nYour side:\ncommunist" in create  # from the game itself, after "Start new logfile? Yes"
    states = game_states(files / "a1.vlog")  # the log's start, then each change (the recorded game, the stand-ins stated)
    assert {s["scenario"] for s in states} == {"pusan"} and states[0]["game_id"] == "" and states[-1]["game_id"] == game_id
    assert game_states(files / "a1.vsav")[-1] == {**game_states(files / "a1.vsav")[-1], "scenario": "pusan", "game_id": game_id}
    assert any(f"this game is recorded game {game_id} (Pusan Perimeter)" in line and "you play Communist" in line
               for line in alice.step("reloaded")["chat"] + alice.run.chat())
    status = alice.result("status in seoul")["returned"]
    assert status["scenario"] == "seoul" and status["game_id"] == "" and status["recorded"] is False


def test_a_recorded_game_is_created_in_the_game_and_says_so_to_both_players(kwb):
    alice, game_id = kwb["alice"], kwb["game_id"]
    said = [line for line in alice.run.chat() if line.startswith("Adjudicator: this game is recorded game")]
    assert said and said[0].startswith(f"Adjudicator: this game is recorded game {game_id} (Pusan Perimeter) at {PUBLIC}")
    created = alice.result("created")["text"]
    (own,) = kept_games(alice.prefs)[game_id]["tokens"].values()
    assert f"Your token (keep it to yourself" in created and own in created  # shown once, to its owner
    assert set(kwb["tokens"]) == {"un", "observer"}


def test_the_right_click_offers_what_fits_the_unit_and_its_owner(kwb):
    alice = kwb["alice"]
    own = alice.result("own unit's menu")["items"]
    assert "Adjudicator/Supply of this side" in own
    assert not [i for i in own if "Attack" in i or "in this hex" in i]  # nothing attacks one's own unit
    assert "Adjudicator/Division breakdown for this unit" not in own  # a regiment is no division (applies.units)
    assert "Adjudicator/Division breakdown for this unit" in alice.result("own division's menu")["items"]
    enemy = alice.result("enemy menu, nothing selected")
    attack = "Adjudicator/Attack this hex with the selected units (select your attacking units first)"
    assert attack in enemy["items"] and attack in enemy["disabled"]
    assert not [i for i in enemy["items"] if i.endswith("for this unit")]  # a check of one unit is for one's own


def test_the_toolbar_offers_the_checks_of_the_scenario_the_player_may_ask(kwb):
    """Pusan as Communist: the Communist's own shortage roll is there; the UN's rolls (its supply
    shortage's end, counter-battery) and another scenario's check (Seoul cleared) are not."""
    items = kwb["alice"].result("checks menu")["items"]
    assert any(i.startswith("Supply center move (") for i in items) and any(i.startswith("Combat (") for i in items)
    assert not [i for i in items if i.startswith(("UN supply shortage end", "Counter battery", "Seoul cleared"))], items


def test_the_chances_are_shown_in_the_form_before_the_roll_as_the_pages_show_them(kwb, server):
    """The combat form's Chances button: each outcome with its probability and the expected
    losses of both sides, the server's own odds of the very request then recorded (the division
    selected by mistake and removed from the form is in neither)."""
    alice, game_id = kwb["alice"], kwb["game_id"]
    shown = as_read(alice.result("chances")["text"])
    record = ledger(server, game_id, kwb["tokens"]["observer"])["records"][1]
    request = {k: v for k, v in record["body"]["request"].items() if k not in ("request_id", "log_session")}
    odds = requests.post(f"{server.url}/api/v1/systems/kwb/combat/odds", json=request, timeout=60).json()
    assert odds["outcomes"]
    for outcome in odds["outcomes"][:24]:
        row = re.escape(outcome["label"]) + r" (≈ )?" + re.escape(percent(outcome["probability"]))
        assert re.search(row, shown), (outcome, shown)
    for loss in odds["expected_losses"]:
        assert f"{loss['side_label']} {loss['expected']:.2f}" in shown
    assert "Expected losses" in shown and as_read(odds["method"]) in shown
    game = load_game("kwb")
    division = rf"(?<![\w/]){re.escape(unit_piece_name(game, game.units[kwb['division']]))}(?![\w/])"
    assert re.search(division, alice.result("combat form")["text"]) and not re.search(division, shown)  # removed


def as_read(html: str) -> str:
    """A label's HTML as a person reads it: tags and entities gone, spaces collapsed."""
    text = re.sub(r"<[^>]+>", " ", html).replace("&nbsp;", " ").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return re.sub(r"\s+", " ", text)


def test_the_ruling_is_one_click_from_its_page_its_whole_text_and_the_replay(kwb):
    """Adjudicator > Open this ruling's page, a click on the verify address in the chat, the
    ruling window, and Replay a log in the browser (the harness shows the address a browser
    would be given: korea.adjudicator.browser=off)."""
    alice, game_id = kwb["alice"], kwb["game_id"]
    page = f"{PUBLIC}/games/{game_id}#record-1"
    assert page in alice.result("ruling page")["text"]
    clicked = alice.result("clicked in the chat")
    assert clicked["line"] == f"[ADJ {game_id}#1] verify: {page}" and page in alice.result("address clicked")["text"]
    window = alice.result("ruling window")["text"]
    assert window.startswith("RULING Combat for Communist: ") and "[7." in window  # every step with its rule
    assert alice.result("ruling window by a click")["text"] == window
    assert f"{PUBLIC}/games/{game_id}/replay" in alice.result("replay")["text"]


def test_rulings_read_like_rulings_and_are_the_ledgers_own_lines(kwb, server):
    alice, bob, again, game_id = kwb["alice"], kwb["bob"], kwb["again"], kwb["game_id"]
    document = ledger(server, game_id, kwb["tokens"]["observer"])
    assert [r["body"]["check"] for r in document["records"]] == \
        ["game.created", "kwb.combat", "kwb.supply", "kwb.combat", "kwb.supply", "kwb.supply"]
    assert [r["body"].get("side") for r in document["records"][1:]] == ["communist", "communist", "un", "communist", "communist"]
    assert requests.post(f"{server.url}/api/v1/verify", json={"ledger": document}, timeout=30).json()["ok"]
    assert_rulings_are_the_ledgers(alice.run.chat(), document, [1, 2])
    assert_rulings_are_the_ledgers(bob.run.chat(), document, [3])
    assert_rulings_are_the_ledgers(again.run.chat(), document, [4, 5])
    first = next(line for line in alice.run.chat() if line.startswith(f"[ADJ {game_id}#1] "))
    names = "NK 83 attacks US 27/25" if kwb["attack"].attackers == ["nk-83-mot"] else " attacks "
    assert first.startswith(f"[ADJ {game_id}#1] {RULING_MARK}Combat for Communist: ") and names in first
    combat = [r for r in document["records"] if r["body"]["check"] == "kwb.combat"][0]["body"]["request"]
    assert [u["unit"] for u in combat["attackers"]] == kwb["attack"].attackers  # the units selected before the click
    stated = [line for s in (alice, bob, again) for line in s.run.chat() if "stand-in data" in line]
    assert len(stated) == len({line for line in stated})  # each stand-in stated once in the game, not per ruling


def test_a_ruling_is_applied_to_the_board_when_the_player_says_yes(kwb, server):
    """Bob's counter-attack sends his depleted ROK division to the deadpile and a random ROK
    regiment in its place (7.6, the chosen dice): Yes eliminates the division (the module's
    Eliminate, to the UN dead pile) and moves the regiment's counter out of the cup onto its spot."""
    bob, game_id = kwb["bob"], kwb["game_id"]
    record = ledger(server, game_id, kwb["tokens"]["observer"])["records"][3]
    division = kwb["counter"].attackers[0]
    (change,) = [c for c in ruled_changes(record["body"]["result"]["outcome"]) if c.unit == division]
    assert change.kind == "replaced" and change.replaced_by
    assert bob.result("apply 3")["clicked"]
    before = {p["properties"]["UnitId"]: p for p in bob.result("board before 3")["pieces"] if p["properties"]["UnitId"]}
    board = {p["properties"]["UnitId"]: p for p in bob.result("board after 3")["pieces"] if p["properties"]["UnitId"]}
    said = (bob.step("apply 3")["chat"], record["body"]["result"]["outcome"])
    assert board[division]["map"] == "Boxes", said  # the module's Eliminate: to the dead pile
    regiment = board[change.replaced_by]
    assert regiment["map"] == before[division]["map"] and (regiment["x"], regiment["y"]) == \
        (before[division]["x"], before[division]["y"]), said  # out of the cup, onto the division's spot
    report = log_check(server, game_id, kwb["tokens"]["un"], kwb["files"] / "b1.vlog")
    assert [(r["seq"], r["status"]) for r in report["rulings"]] == [(3, "verified")] and report["ok"]


def test_a_ruling_applied_by_hand_with_the_modules_own_command(kwb, server):
    """Alice answers No to the dialog and flips her attacker with its own "Step loss": the log holds
    the module's command, and the log check verifies it as it would the dialog's."""
    alice, game_id = kwb["alice"], kwb["game_id"]
    record = ledger(server, game_id, kwb["tokens"]["observer"])["records"][1]
    attacker = kwb["attack"].attackers[0]
    assert [(c.unit, c.kind, c.step) for c in ruled_changes(record["body"]["result"]["outcome"]) if c.unit == attacker] \
        == [(attacker, "step", "depleted")]  # the chosen dice
    assert alice.result("not by the dialog")["clicked"]
    board = {p["properties"]["UnitId"]: p for p in alice.result("board after 1")["pieces"] if p["properties"]["UnitId"]}
    assert board[attacker]["properties"]["Step_Level"] == "2"
    assert any("* Step loss: " in line for line in chat_texts(kwb["files"] / "a1.vlog"))  # the module's own report
    report = log_check(server, game_id, kwb["tokens"]["un"], kwb["files"] / "a1.vlog")
    assert [(r["seq"], r["status"]) for r in report["rulings"]] == [(1, "verified")] and report["ok"]


def test_a_change_of_game_drops_the_recorded_game_and_calculates(kwb, server):
    alice, game_id = kwb["alice"], kwb["game_id"]
    assert any(f"this game is not recorded game {game_id}" in line for line in alice.step("seoul")["chat"] + alice.run.chat())
    form = alice.result("calculation form")["text"]
    assert "A calculation: nothing is rolled or recorded." in form and "Dice" not in form  # supply rolls no dice
    (line,) = [l for l in alice.run.chat() if l.startswith("[ADJ compute] RULING")]
    assert line.startswith(f"[ADJ compute] {RULING_MARK}Supply for UN:")


def test_a_supply_ruling_is_its_totals_and_the_units_out_of_supply_in_the_chat_panes_lines(kwb, server):
    """The recorded supply report in the chat: at most SHORT_LINES lines, its totals first, then
    only the units out of supply; its form does not say a die is rolled (none is)."""
    alice, game_id = kwb["alice"], kwb["game_id"]
    form = alice.result("supply form")["text"]
    assert "the server records the ruling (no die is rolled)" in form and "rolls the dice" not in form
    (ruling,) = [r for r in parse_transcript(alice.run.chat()) if r.seq == 2]
    assert len(ruling.lines) <= SHORT_LINES and re.match(r"RULING » Supply for Communist: in supply \d+, out of supply \d+",
                                                        ruling.lines[0])
    units = [line for line in ruling.lines[1:] if not line.startswith(("receipt: ", "verify: ", "dice: "))]
    assert all(line.endswith(("out of supply", "isolated")) for line in units), units


def test_the_second_player_joins_with_his_own_token_and_his_side_is_the_tokens(kwb, server):
    bob, game_id = kwb["bob"], kwb["game_id"]
    assert any(f"this game is recorded game {game_id} at {PUBLIC}: to roll in it, join it" in line for line in bob.run.chat())
    join = bob.result("join dialog")
    assert f"Game id:\n{game_id}" in join["text"]  # filled in from the game Bob loaded
    assert f"This game says its recorded game lives at {PUBLIC}; your address (Adjudicator > Connect) is {server.url}" \
        in join["text"]  # the game's server and his own, both shown: his token goes to the one he chooses
    refused = bob.result("observer refused")["text"]
    assert "That token is the observer's" in refused and kwb["tokens"]["observer"] in refused  # the dialog kept what was typed
    assert f"Joined recorded game {game_id} (Pusan Perimeter) as United Nations." in bob.result("joined")["text"]
    assert kept_games(bob.prefs)[game_id]["tokens"].keys() == {"un"}
    assert any(f"this game is recorded game {game_id}" in line and "you play Communist" in line
               for line in kwb["again"].run.chat())  # Alice continues Bob's save with her own token


LOGS = ("a1", "a2", "b1", "a3", "a3x")


def session_lines(path: Path) -> list:
    return [found for text in chat_texts(path) if (found := parse_session_line(text))]


def log_check(server, game_id: str, token: str, *paths: Path) -> dict:
    files = [("file", (p.name, p.read_bytes(), "application/octet-stream")) for p in paths]
    response = requests.post(f"{server.url}/api/v1/games/{game_id}/savedgame/log-check", files=files,
                             headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert response.status_code == 200, response.text
    return response.json()


def test_each_log_begins_with_its_session_and_the_sessions_before_it(kwb, server):
    """Every log Alice and Bob kept names its log session, the game, its place in the chain and
    the sessions before it; each ruling in the ledger names the session it was asked in."""
    files, game_id = kwb["files"], kwb["game_id"]
    lines = {name: session_lines(files / f"{name}.vlog") for name in LOGS}
    assert all(len(found) == 1 for found in lines.values()), lines
    one = {name: found[0] for name, found in lines.items()}
    ids = {name: line.id for name, line in one.items()}
    assert len(set(ids.values())) == len(LOGS) and all(line.game_id == game_id for line in one.values())
    assert [one[n].file for n in LOGS] == [1, 2, 3, 4, 4]
    assert one["a1"].chain == () and one["a2"].chain == (ids["a1"],) and one["b1"].chain == (ids["a1"], ids["a2"])
    assert one["a3"].chain == one["a3x"].chain == (ids["a1"], ids["a2"], ids["b1"])
    assert one["a3"].start == one["a3x"].start  # Bob's save, loaded twice: the same position
    assert one["a2"].start != one["a1"].start  # the first ruling was applied to the board in between
    assert [one[n].side for n in LOGS] == ["communist", "communist", "un", "communist", "communist"]
    for name, line in one.items():  # written as the server writes it
        text = next(t for t in chat_texts(files / f"{name}.vlog") if parse_session_line(t))
        assert text == session_line(game_id, {"id": line.id, "file": line.file, "start": line.start, "side": line.side},
                                    list(line.chain))
    document = ledger(server, game_id, kwb["tokens"]["observer"])
    asked_in = {r["seq"]: r["body"]["session"]["id"] for r in document["records"][1:]}
    assert asked_in == {1: ids["a1"], 2: ids["a2"], 3: ids["b1"], 4: ids["a3"], 5: ids["a3x"]}
    first = next(r for r in document["records"] if r["seq"] == 3)["body"]["session"]
    assert first == {"id": ids["b1"], "parent": ids["a2"], "start": one["b1"].start, "file": 3}


def test_the_log_check_tells_the_files_before_from_a_re_roll(kwb, server):
    """Each honest file verifies on its own (the rulings of the files before it are earlier, not
    hidden); the whole chain verifies but for the session begun a second time from Bob's save,
    which is named a re-roll whichever of the two Alice sends."""
    files, game_id, token = kwb["files"], kwb["game_id"], kwb["tokens"]["un"]
    for name in ("a1", "a2", "b1"):  # a1 holds the kill, applied through the dialog's Eliminate
        report = log_check(server, game_id, token, files / f"{name}.vlog")
        assert report["ok"] and report["hidden"] == [] and report["rerolls"] == [], (name, report)
        assert all(r["status"] == "verified" for r in report["rulings"]), (name, report)
    chain = log_check(server, game_id, token, *(files / f"{n}.vlog" for n in ("a1", "a2", "b1", "a3")))
    assert [(r["seq"], r["status"]) for r in chain["rulings"]] == [(1, "verified"), (2, "verified"), (3, "verified"),
                                                                  (4, "verified")]  # A, A, B, A, Bob's kill in it
    assert chain["hidden"] == [] and chain["owed"] == [] and chain["breaks"] == [] and chain["missing_files"] == []
    assert [r["seq"] for r in chain["rerolls"]] == [5] and not chain["ok"]  # honest but for Alice's re-roll
    record_5 = ledger(server, game_id, kwb["tokens"]["observer"])["records"][5]["body"]["result"]["notices"]
    assert record_5 == [{"kind": "repeat", "record": 4, "text": "asked again: the same situation as record #4"}]
    assert "asked again: the same situation as record #4" in kwb["again"].result("notice")["text"]  # shown to Alice
    assert f"[ADJ {game_id}#5] notice: asked again: the same situation as record #4" in chat_texts(files / "a3x.vlog")
    sent = log_check(server, game_id, token, *(files / f"{n}.vlog" for n in ("a1", "a2", "b1", "a3x")))
    assert [r["seq"] for r in sent["rerolls"]] == [4] and sent["hidden"] == [] and not sent["ok"]
    assert "re-roll" in sent["rerolls"][0]["why"]
    alone = log_check(server, game_id, token, files / "a3.vlog")
    assert {h["seq"] for h in alone["elsewhere"]} >= {1, 2, 3} and [r["seq"] for r in alone["rerolls"]] == [5]
    broken = log_check(server, game_id, token, *(files / f"{n}.vlog" for n in ("a1", "b1", "a3")))
    assert not broken["ok"] and broken["breaks"]  # Alice's second file is missing


def test_logs_and_saves_carry_the_rulings_and_no_token(kwb, server):
    files, game_id = kwb["files"], kwb["game_id"]
    document = ledger(server, game_id, kwb["tokens"]["observer"])
    assert_rulings_are_the_ledgers(chat_texts(files / "a1.vlog"), document, [1])
    assert_rulings_are_the_ledgers(chat_texts(files / "a2.vlog"), document, [2])
    assert_rulings_are_the_ledgers(chat_texts(files / "b1.vlog"), document, [3])
    assert_rulings_are_the_ledgers(chat_texts(files / "a3.vlog"), document, [4])
    assert_rulings_are_the_ledgers(chat_texts(files / "a3x.vlog"), document, [5])
    tokens = set(kwb["tokens"].values()) | {t for g in kept_games(kwb["alice"].prefs).values() for t in g["tokens"].values()}
    written = decoded(*(files / f for f in ("a1.vlog", "a2.vlog", "a3.vlog", "b1.vlog", "a1.vsav", "a2.vsav", "b1.vsav")))
    for session in (kwb["alice"], kwb["bob"], kwb["again"]):
        seen = "\n".join(session.run.chat())
        others = "\n".join(f"{d['title']}\n{d['text']}" for d in session.run.report["dialogs"]
                           if not re.search("recorded game created|join a recorded game", str(d["title"])))
        for token in tokens:
            assert token not in written and token not in seen and token not in others


# -- Fire and Ice: the combat form, a refusal, a server that never answers --------------------------

@pytest.fixture(scope="module")
def fireandice(engine, engine_module, server, tmp_path_factory) -> dict:
    files = tmp_path_factory.mktemp("fireandice")
    proxy = SilentProxy(server.url, withhold=(2,)).start()  # the second check is recorded, its answer lost
    combat = adjacent_combat("fireandice", "invasion")
    form = "^Adjudicator: Combat"
    s = Script()
    s.add({"do": "pref", "key": "adjudicatorTimeoutSeconds", "value": "12"})  # long enough to see it wait under load
    s.add(*sign_in("Alice"))
    s.add(*start_scenario(combat.scenario.name, combat.attacking_side, files / "fi.vlog"))
    s.add(call("connect", proxy.url), call("createRecordedGame", "", ""), name="created")
    s.add(menu_of(combat.attackers[0]), name="ground unit's menu")
    s.add(*select(combat.attackers[0]))
    s.add(menu_of(combat.defender, "Adjudicator/Attack this hex with the selected units"))
    s.add({"do": "wait_window", "window": form}, name="form")
    s.add({"do": "choose", "window": form, "field": "/combat_type", "item": "Hasty Attack"})
    s.add({"do": "choose", "window": form, "field": "/chit", "item": "P01"})  # a chit of the other mug
    for field, text in (("/attacking/adjacent_units", "2"), ("/defending/adjacent_units", "1")):
        s.add({"do": "type", "window": form, "field": field, "text": text})
    s.add({"do": "click", "window": form, "on": "OK"})
    s.add({"do": "wait_window", "window": "(?s)^Adjudicator: Combat.*is from the prepared cup"}, name="refused")
    s.add({"do": "type", "window": form, "field": "/attacking/adjacent_units", "text": "66"})
    s.add({"do": "click", "window": form, "on": "OK"})
    s.add({"do": "wait_window", "window": "(?s)^Adjudicator: Combat.*must be at most 6"}, name="caught here")
    s.add({"do": "type", "window": form, "field": "/attacking/adjacent_units", "text": "2"})
    s.add({"do": "choose", "window": form, "field": "/chit", "item": ""})
    s.add({"do": "click", "window": form, "on": "OK"})
    s.add({"do": "wait_window", "window": "(?s)^Adjudicator: Combat.*Waiting for the adjudicator at"}, name="waiting")
    s.add({"do": "wait_window", "window": "(?s)^Adjudicator: Combat.*did not answer in time", "timeout": 30}, name="no answer")
    s.add({"do": "click", "window": form, "on": "OK"}, name="asked again")
    s.add({"do": "wait_window", "window": form, "gone": True, "timeout": 60})
    s.add({"do": "wait_chat", "match": r"#1\] receipt: record 1 "}, name="ruling")
    s.add({"do": "click_if", "window": "apply the ruling", "on": "No"})
    s.add(menu_of(combat.attackers[0], "Adjudicator/Supply of this side"))
    s.add({"do": "wait_window", "window": "^Adjudicator: Supply"})
    s.add(*submit_form("Supply"))
    s.add({"do": "wait_chat", "match": r"#2\] receipt: record 2 "}, name="supply")
    s.add(*end_log())
    try:
        run = engine(engine_module("fireandice"), s.steps, timeout=600, prefs_dir=files / "prefs")
    finally:
        proxy.stop()
    assert run.ok, explain(run)
    return {"run": run, "script": s, "files": files, "proxy": proxy, "combat": combat}


def test_the_fire_and_ice_combat_form_is_filled_field_by_field(fireandice, server):
    run, s = fireandice["run"], fireandice["script"]
    form = run.result(s.at["form"])["text"]
    assert "SideCombatModel" not in form and "Attacking" in form and "Adjacent units" in form
    # the levels are the Support Level Track's, read from the board and shown, not typed
    assert "Communist Tank Support level: 6" in form and "UN Tank Support level: 0" in form
    created = run.result(s.at["created"])["returned"]
    document = ledger(server, created["game_id"], created["tokens_for_others"]["observer"])
    (record,) = [r for r in document["records"] if r["body"]["check"] == "fireandice.combat"]
    request = record["body"]["request"]
    assert request["combat_type"] == "Hasty Attack" and request["chit"] is None
    assert (request["communist_tank_level"], request["communist_artillery_level"], request["un_tank_level"]) == (6, 4, 0)
    assert request["attacking"]["adjacent_units"] == 2 and request["defending"]["adjacent_units"] == 1
    combat = fireandice["combat"]
    assert [a["unit"] for a in request["attackers"]] == combat.attackers[:1]
    assert [d["unit"] for d in request["defenders"]] == [combat.defender]
    assert_rulings_are_the_ledgers(run.chat(), document, [1, 2])
    assert_rulings_are_the_ledgers(chat_texts(fireandice["files"] / "fi.vlog"), document, [1, 2])


def test_fire_and_ice_menus_and_supply_fit_the_unit_and_the_chat_pane(fireandice):
    """A ground division is offered no aircraft's check (Interdiction, Stay on station) and no
    rebuild (a unit off the map's); the whole side's supply report fits the chat pane."""
    run, s = fireandice["run"], fireandice["script"]
    items = run.result(s.at["ground unit's menu"])["items"]
    assert "Adjudicator/Supply of this side" in items
    assert not [i for i in items if re.search("Interdiction|Stay on station|Rebuild", i)], items
    (supply,) = [r for r in parse_transcript(run.chat()) if r.seq == 2]
    assert len(supply.lines) <= SHORT_LINES and supply.lines[0].startswith(f"{RULING_MARK}Supply for ")


def test_a_refusal_keeps_the_form_open_with_the_problem_in_players_words(fireandice):
    run, s = fireandice["run"], fireandice["script"]
    refused = run.result(s.at["refused"])["text"]
    # beside the chit's field, in words, with the chits its mug has
    assert "chit P01 is from the prepared cup, not the one for a Hasty Attack (5.2.1). Allowed: H01, H02," in refused
    assert "Value error" not in refused and "(body)" not in refused and "request body" not in refused
    assert "Combat chit\nP01" in refused  # what was chosen is still there
    caught = run.result(s.at["caught here"])["text"]
    assert "Adjacent units\n66\nAdjacent units must be at most 6" in caught  # beside the field, before anything is sent
    combats = [r.seq for r in parse_transcript(run.chat()) if r.recorded and r.lines[0].startswith(f"{RULING_MARK}Combat")]
    assert combats == [1]  # the refused request recorded nothing


def test_a_server_that_does_not_answer_is_waited_for_visibly_and_asked_again_without_a_second_roll(fireandice, server):
    run, s, proxy = fireandice["run"], fireandice["script"], fireandice["proxy"]
    waiting = run.result(s.at["waiting"])["text"]
    assert f"Waiting for the adjudicator at {proxy.url}" in waiting and "(at most 12 s)" in waiting
    gave_up = run.result(s.at["no answer"])["text"]
    assert f"No answer from {proxy.url} within 12 s" in gave_up and "not rolled twice" in gave_up
    assert len(proxy.withheld) == 1
    rulings = [r for r in parse_transcript(run.chat()) if r.recorded and r.lines[0].startswith(f"{RULING_MARK}Combat")]
    assert [r.seq for r in rulings] == [1]  # posted once; the ledger has one combat (previous test)


# -- SPI: the defender's choice, the attacking units' own fields ---------------------------------------

@pytest.fixture(scope="module")
def spi(engine, engine_module, server, tmp_path_factory) -> dict:
    files = tmp_path_factory.mktemp("spi")
    combat = adjacent_combat("spi", "campaign")
    form = "^Adjudicator: Combat"
    s = Script()
    s.add(*sign_in("Alice"))
    s.add(*start_scenario(combat.scenario.name, combat.attacking_side, None))
    s.add(call("connect", server.url))
    s.add(*select(*combat.attackers))
    s.add(menu_of(combat.defender, "Adjudicator/Attack this hex with the selected units"))
    s.add({"do": "wait_window", "window": form}, name="form")
    s.add({"do": "click", "window": form, "on": f"/attackers/0/in_supply"})
    s.add({"do": "type", "window": form, "field": "/dice", "text": "1"})
    s.add({"do": "click", "window": form, "on": "OK"})
    s.add({"do": "wait_window", "window": "(?s)^Adjudicator: Combat.*Table is required"}, name="no table")
    s.add({"do": "choose", "window": form, "field": "/table", "item": "meeting"})
    s.add(*submit_form("Combat"))
    s.add({"do": "wait_chat", "match": r"^\[ADJ compute\] not recorded"}, name="ruling")
    s.add({"do": "click_if", "window": "apply the ruling", "on": "Yes"}, name="apply")
    s.add({"do": "pieces", "properties": ["UnitId"]}, name="board")
    un_unit = next(u for u in ("rok-r17", "rok-r13") if u != combat.defender)
    s.add(menu_of(un_unit), name="enemy's menu")
    own = next(u for u in setup_hexes(combat.game, combat.scenario)
               if combat.game.units[u].side == combat.side and u not in combat.attackers)
    s.add(menu_of(own), name="own unit's menu")
    s.add(menu_of(un_unit, "Adjudicator/Supply of this side"))
    s.add({"do": "wait_window", "window": "^Adjudicator: Supply"}, name="supply form")
    s.add(*submit_form("Supply"))
    s.add({"do": "wait_chat", "match": rf"^\[ADJ compute\] {RULING_MARK}Supply for UN"}, name="supply")
    s.add(*close_game(), *start_scenario("Intervention Game", combat.attacking_side, None))
    s.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Checks"], "read": True}, name="intervention checks")
    run = engine(engine_module("spi"), s.steps, timeout=600, prefs_dir=files / "prefs")
    assert run.ok, explain(run)
    return {"run": run, "script": s, "combat": combat}


def test_the_defenders_choice_is_asked_for_and_never_sent_silently(spi):
    run, s = spi["run"], spi["script"]
    form = run.result(s.at["form"])["text"]
    assert "Table (the defender's choice: ask them) *" in form
    assert "Dice: give the dice you rolled" in form and "its example uses 1" in form
    assert "In supply" in form  # the attacking units' own fields, beside the units the board names
    assert "Table is required" in run.result(s.at["no table"])["text"]
    (combat, *_) = [r for r in parse_transcript(run.chat()) if not r.recorded]
    assert combat.lines[0].startswith(f"{RULING_MARK}Combat: ") and any("Meeting Engagement" in line for line in combat.lines)


def test_spi_labels_read_as_the_rulebook_and_the_uns_supply_fits_the_chat_pane(spi):
    """SPI: the supply form's labels are the schema's titles in the rulebook's words; the UN's
    whole-side supply report (94 chat lines before) is its totals and the units out of supply;
    the Intervention Game's checks do not offer the Campaign Game's Chinese Intervention."""
    run, s = spi["run"], spi["script"]
    form = run.result(s.at["supply form"])["text"]
    assert "Seoul (Soul) taken by the Communists" in form and "Soul Taken By Communists" not in form
    (supply,) = [r for r in parse_transcript(run.chat()) if not r.recorded and "Supply for UN" in r.lines[0]]
    assert len(supply.lines) <= SHORT_LINES
    items = run.result(s.at["intervention checks"])["items"]
    assert items and not [i for i in items if i.startswith(("Chinese intervention", "Shock effect"))], items
    assert "Adjudicator/Movement cost for this unit" in run.result(s.at["own unit's menu"])["items"]
    assert "Adjudicator/Movement cost for this unit" not in run.result(s.at["enemy's menu"])["items"]  # not the enemy's unit


def test_a_calculated_elimination_is_applied_through_the_pieces_own_command(spi):
    run, s, combat = spi["run"], spi["script"], spi["combat"]
    assert run.result(s.at["apply"])["clicked"]
    board = {p["properties"]["UnitId"]: p for p in run.result(s.at["board"])["pieces"]}
    assert board[combat.defender]["map"] == "Boxes"  # Eliminate: to the dead pile
    assert any(combat.defender in line or "Eliminate" in line for line in run.step(s.at["apply"])["chat"])


# -- HoldFast: the extension's methods, and a server that is not there --------------------------------

@pytest.fixture(scope="module")
def holdfast(engine, engine_module, server, systems, tmp_path_factory) -> dict:
    files = tmp_path_factory.mktemp("holdfast")
    combat = adjacent_combat("holdfast")
    s = Script()
    s.add({"do": "setup", "name": combat.scenario.name}, {"do": "side", "side": combat.attacking_side})
    s.add(call("connect", server.url), call("createRecordedGame", "", ""), name="create")
    s.add({"do": "log_begin", "file": str(files / "game.vlog")})
    s.add({"do": "select", "pieces": [{"id": a} for a in combat.attackers]})
    s.add(call("check", "combat", combat.defender, json.dumps(player_fields(systems["holdfast"], "combat"))), name="combat")
    s.add(call("check", "supply", combat.attackers[0], "{}"), name="supply")
    s.add(call("check", "supply", combat.attackers[0], '{"no_such_field": 1}'), name="refused")
    s.add({"do": "log_end"}, {"do": "save", "file": str(files / "game.vsav")})
    run = engine(engine_module("holdfast"), s.steps, timeout=240, prefs_dir=files / "prefs")
    assert run.ok, explain(run)
    return {"run": run, "script": s, "files": files, "combat": combat}


def test_the_methods_ask_checks_in_a_recorded_game(holdfast, server):
    run, s = holdfast["run"], holdfast["script"]
    created = run.result(s.at["create"])["returned"]
    assert created["ok"] and created["scenario"] == "campaign"
    document = ledger(server, created["game_id"], created["tokens_for_others"]["observer"])
    assert [r["body"]["check"] for r in document["records"]] == ["game.created", "holdfast.combat", "holdfast.supply"]
    for name, seq in (("combat", 1), ("supply", 2)):
        answer = run.result(s.at[name])["returned"]
        chat = run.step(s.at[name])["chat"]
        assert answer["ok"] and answer["seq"] == seq and chat[-len(answer["lines"]):] == answer["lines"]  # the ruling last
    assert_rulings_are_the_ledgers(chat_texts(holdfast["files"] / "game.vlog"), document, [1, 2])
    refused = run.result(s.at["refused"])["returned"]
    assert refused["ok"] is False and refused["title"] == "The request body is invalid"
    assert not [line for line in run.step(s.at["refused"])["chat"] if "[ADJ" in line]


def test_the_board_fills_the_turn_the_scenarios_tracker_level_shows(kwb, holdfast, server):
    """The module's one turn tracker shows the setup's scenario level at its first turn; a
    check with a turn role gets it from there (Fire and Ice's combat takes no turn)."""
    created = holdfast["run"].result(holdfast["script"].at["create"])["returned"]
    games = ((kwb["game_id"], kwb["tokens"]["observer"], kwb["attack"]),
             (created["game_id"], created["tokens_for_others"]["observer"], holdfast["combat"]))
    for game_id, token, combat in games:
        record = next(r["body"] for r in ledger(server, game_id, token)["records"] if r["body"]["check"].endswith(".combat"))
        system = record["check"].split(".")[0]
        turn_field = get_check(system, "combat").top_level_field("turn")
        assert turn_field is not None
        assert record["request"][turn_field] == combat.scenario.turns[0].number


def block_names(combat, side: str | None = None) -> dict[str, str]:
    """HoldFast's blocks of the setup (of one side), id -> the name its counter reads."""
    names = UnitNames.of("holdfast").names
    return {p.unit: names[p.unit] for p in combat.scenario.setup
            if not p.is_marker and (side is None or combat.game.units[p.unit].side == side)}


def named(text: str, blocks: dict[str, str]) -> list[str]:
    return sorted(u for u, name in blocks.items()
                  if re.search(rf"(?<![\w/-])({re.escape(u)}|{re.escape(name)})(?![\w-])", text))


def test_a_supply_ruling_in_the_log_names_no_block_and_shows_the_player_his_own(holdfast):
    """HoldFast, Fog of War: the log the opponent receives names no block of either side; the
    player who asked is shown his own blocks (the whole ruling, for his ruling window: never
    logged) and no other."""
    run, s, combat = holdfast["run"], holdfast["script"], holdfast["combat"]
    answer = run.result(s.at["supply"])["returned"]
    logged = "\n".join(chat_texts(holdfast["files"] / "game.vlog"))
    supply_lines = "\n".join(answer["lines"])
    assert named(supply_lines, block_names(combat)) == [] and supply_lines in logged
    mine = block_names(combat, combat.side or combat.scenario.first_player)
    details = "\n".join(answer["details"])
    assert named(details, mine) and named(details, block_names(combat)) == named(details, mine)  # his own, by name
    assert named("\n".join(answer["private_lines"]), block_names(combat)) == named("\n".join(answer["private_lines"]), mine)
    assert "as your side sees it" not in logged


@pytest.fixture(scope="module")
def holdfast_form(engine, engine_module, server, tmp_path_factory) -> dict:
    """A player opens the attack form on a hidden enemy block, reads it, asks its chances (refused:
    they would show the block), and cancels; then joins a recorded game with the observer's token
    (refused, the dialog keeps what was typed) and with the other side's token (joined, warned)."""
    files = tmp_path_factory.mktemp("holdfast-form")
    combat = adjacent_combat("holdfast")
    created = requests.post(f"{server.url}/api/v1/games", json={"system": "holdfast", "scenario": combat.scenario.id},
                            timeout=30).json()
    other = next(side for side in created["tokens"] if side not in ("observer", combat.side))
    form = "^Adjudicator: Combat"
    join = "join a recorded game"
    s = Script()
    s.add(*sign_in("Alice"))
    s.add(*start_scenario(combat.scenario.name, combat.attacking_side, None))
    s.add(*connect_dialog(server.url))
    s.add(*select(*combat.attackers))
    s.add(menu_of(combat.defender, "Adjudicator/Attack this hex with the selected units"), name="menu")
    s.add({"do": "wait_window", "window": form}, name="form")
    s.add({"do": "click", "window": form, "on": "chances"})
    s.add({"do": "wait_window", "window": f"(?s){form}.*hidden from you"}, name="no chances")
    s.add({"do": "click", "window": form, "on": "Cancel"})
    s.add({"do": "wait_window", "window": form, "gone": True})
    s.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Join recorded game..."]})
    s.add({"do": "type", "window": join, "field": "game id", "text": created["game_id"]})
    s.add({"do": "type", "window": join, "field": "token", "text": created["tokens"]["observer"]})
    s.add({"do": "click", "window": join, "on": "OK"})
    s.add({"do": "wait_window", "window": f"(?s){join}.*An observer's token"}, name="refused join")
    s.add({"do": "type", "window": join, "field": "token", "text": created["tokens"][other]})
    s.add({"do": "click", "window": join, "on": "OK"})
    s.add({"do": "wait_window", "window": "not the side you took"}, name="joined as the other side")
    s.add({"do": "click", "window": "not the side you took", "on": "OK"})
    run = engine(engine_module("holdfast"), s.steps, timeout=600, prefs_dir=files / "prefs")
    assert run.ok, explain(run)
    return {"run": run, "script": s, "combat": combat, "created": created, "other": other}


def test_the_attack_form_shows_no_more_of_a_hidden_block_than_the_board(holdfast_form):
    """Opening the attack form on an enemy block and pressing Cancel is no peek: the form names
    it by its mask and hex only (its identity and strength are seen once OK announces the attack)."""
    run, s, combat = holdfast_form["run"], holdfast_form["script"], holdfast_form["combat"]
    text = run.result(s.at["form"])["text"]
    enemy = block_names(combat, combat.game.units[combat.defender].side)
    assert named(text, enemy) == [], text
    assert f"{combat.game.sides[combat.game.units[combat.defender].side].name} block" in text  # its mask's name
    game = combat.game
    assert all(unit_piece_name(game, game.units[a]) in text for a in combat.attackers)  # his own, by their pieces' names
    assert not [u for u in enemy if unit_piece_name(game, game.units[u]) in text]
    assert not [line for line in run.chat() if "[ADJ" in line]  # nothing asked, nothing recorded
    no_chances = run.result(s.at["no chances"])["text"]  # the chances would show the block's strength: refused
    assert "The chances would show what is hidden from you" in no_chances and named(no_chances, enemy) == []


def test_the_attackers_menu_and_form_fit_him(holdfast_form):
    """The Communist attacker: no naval assault offered (the UN's alone), and the hit order he
    chooses himself is not said to be another player's choice."""
    run, s = holdfast_form["run"], holdfast_form["script"]
    assert not [i for i in run.result(s.at["menu"])["items"] if "Naval assault" in i]
    form = run.result(s.at["form"])["text"]
    assert "Attacker hit order" in form and "the attacker's choice" not in form


def test_a_refused_join_keeps_what_was_typed_and_another_sides_token_is_named(holdfast_form):
    run, s, created, other = holdfast_form["run"], holdfast_form["script"], holdfast_form["created"], holdfast_form["other"]
    refused = run.result(s.at["refused join"])["text"]
    assert "That token is the observer's" in refused
    assert created["game_id"] in refused and created["tokens"]["observer"] in refused  # kept, to correct
    joined = run.result(s.at["joined as the other side"])["text"]
    assert f"Joined recorded game {created['game_id']}" in joined
    assert re.search(r"This token is .+'s, but you took .+ in VASSAL: your checks are asked as ", joined), joined


# -- HoldFast, two players: a hidden block eliminated, applied by its owner ----------------------------

@pytest.fixture(scope="module")
def holdfast_owner(engine, engine_module, server, tmp_path_factory) -> dict:
    """Alice (Communist) attacks a UN block hidden from her through the right-click menu; the ruling
    eliminates it (the chosen dice); the apply dialog says the change is its owner's. Bob (UN) loads
    her save, joins, and applies it with Adjudicator > Apply the rulings' changes to my pieces."""
    files = tmp_path_factory.mktemp("holdfast-owner")
    module = engine_module("holdfast")
    combat = adjacent_combat("holdfast")
    un = combat.game.sides["un"].name

    alice = Session(files, files / "alice-prefs")
    a = alice.script
    a.add(*sign_in("Alice"))
    a.add(*start_scenario(combat.scenario.name, combat.attacking_side, files / "a1.vlog"))
    a.add(*connect_dialog(server.url))
    a.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Create recorded game..."]})
    a.add({"do": "wait_window", "window": "create a recorded game"})
    a.add({"do": "click", "window": "create a recorded game", "on": "OK"})
    a.add({"do": "wait_window", "window": "recorded game created"}, name="created")
    a.add({"do": "click", "window": "recorded game created", "on": "OK"})
    a.add(*select(*combat.attackers))
    a.add(menu_of(combat.defender, "Adjudicator/Attack this hex with the selected units"))
    a.add({"do": "wait_window", "window": "^Adjudicator: Combat"})
    a.add(*submit_form("Combat"))
    a.add({"do": "wait_chat", "match": r"#1\] receipt: record 1 "}, name="attack")
    a.add({"do": "wait_window", "window": "not yours to apply"}, name="owner's change")
    a.add({"do": "click", "window": "not yours to apply", "on": "OK"})
    a.add(*save_as(files / "a1.vsav"), *end_log())
    alice.run = engine(module, a.steps, timeout=600, prefs_dir=alice.prefs)
    assert alice.run.ok, explain(alice.run)
    created = alice.result("created")["text"]
    tokens = dict(line.split(": ", 1) for line in created.splitlines() if line.startswith(("un: ", "observer: ")))
    game_id = next(iter(kept_games(alice.prefs)))

    bob = Session(files, files / "bob-prefs")
    b = bob.script
    b.add(*sign_in("Bob"))
    b.add(*open_game(files / "a1.vsav", files / "b1.vlog", side=un))
    b.add({"do": "pieces", "properties": ["UnitId"]}, name="board before")
    b.add(*connect_dialog(server.url))
    b.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Join recorded game..."]})
    b.add({"do": "choose", "window": "join a recorded game", "field": "server", "item": server.url})  # as in kwb
    b.add({"do": "type", "window": "join a recorded game", "field": "token", "text": tokens["un"]})
    b.add({"do": "click", "window": "join a recorded game", "on": "OK"})
    b.add({"do": "wait_window", "window": "Joined recorded game"})
    b.add({"do": "click", "window": "Joined recorded game", "on": "OK"})
    b.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Apply the rulings' changes to my pieces..."]})
    b.add({"do": "wait_window", "window": "apply the rulings' changes to your pieces"}, name="apply dialog")
    b.add({"do": "click", "window": "apply the rulings' changes to your pieces", "on": "Yes"})
    b.add({"do": "wait_chat", "match": r"\* Eliminate:"}, name="eliminated")
    b.add({"do": "pieces", "properties": ["UnitId"]}, name="board after")
    b.add(*save_as(files / "b1.vsav"), *end_log())
    bob.run = engine(module, b.steps, timeout=600, prefs_dir=bob.prefs)
    assert bob.run.ok, explain(bob.run)
    return {"alice": alice, "bob": bob, "files": files, "combat": combat, "game_id": game_id, "tokens": tokens}


def test_a_hidden_block_eliminated_is_applied_by_its_owner_in_his_next_file(holdfast_owner, server):
    alice, bob, files = holdfast_owner["alice"], holdfast_owner["bob"], holdfast_owner["files"]
    game_id, combat, observer = holdfast_owner["game_id"], holdfast_owner["combat"], holdfast_owner["tokens"]["observer"]
    record = ledger(server, game_id, observer)["records"][1]["body"]
    assert record["result"]["outcome"]["defender"]["unit"] == combat.defender  # the chosen dice: it is eliminated
    assert record["result"]["outcome"]["defender"]["eliminated"]
    said = alice.result("owner's change")["text"]
    assert "to be applied by its owner (the UN (ROK, US and UN) player)" in said
    assert any("in his next file" in line for line in chat_texts(files / "a1.vlog"))  # both players read who makes it
    before = {p["properties"]["UnitId"]: p for p in bob.result("board before")["pieces"]}
    after = {p["properties"]["UnitId"]: p for p in bob.result("board after")["pieces"]}
    assert before[combat.defender]["map"] != "Boxes" and after[combat.defender]["map"] == "Boxes"  # its dead pile
    assert "eliminated (to its dead pile)" in bob.result("apply dialog")["text"]  # his own block: his to apply

    alone = log_check(server, game_id, observer, files / "a1.vlog")
    assert alone["ok"] and [(o["unit"], o["status"]) for o in alone["owed"]] == [(combat.defender, "pending")]
    chain = log_check(server, game_id, observer, files / "a1.vlog", files / "b1.vlog")
    assert chain["ok"] and [(o["status"], o["file"]) for o in chain["owed"]] == [("applied", 2)], chain
    his = log_check(server, game_id, observer, files / "b1.vlog")
    assert his["ok"] and [o["status"] for o in his["owed"]] == ["applied"]


def test_a_stopped_server_gives_a_dialog_and_nothing_in_the_log(holdfast, engine, engine_module, server):
    """(Last: it stops the module's server.) After the server stops, the same player (same preferences: the game names its recorded
    game) asks a combat: a dialog says the adjudicator cannot be reached; the log gets nothing."""
    files, combat = holdfast["files"], holdfast["combat"]
    server.stop()
    run = engine(engine_module("holdfast"), [
        {"do": "load", "file": str(files / "game.vsav")},
        {"do": "log_begin", "file": str(files / "after.vlog")},
        {"do": "chat", "text": "asking for the combat"},
        {"do": "select", "pieces": [{"id": a} for a in combat.attackers]},
        call("check", "combat", combat.defender, "{}"),
        {"do": "log_end"},
    ], timeout=120, prefs_dir=files / "prefs")
    assert run.ok, run.failure()
    answer = run.result(4)["returned"]
    assert answer["ok"] is False and answer["title"] == "Cannot reach the adjudicator"
    (dialog,) = run.step(4)["dialogs"]
    assert dialog["title"] == "Adjudicator: Cannot reach the adjudicator" and server.url in dialog["text"]
    assert run.step(4)["chat"] == []
    logged = chat_texts(files / "after.vlog")
    assert any("asking for the combat" in line for line in logged)
    assert parse_transcript(logged) == []  # no ruling (the log's session line names the log, no more)

