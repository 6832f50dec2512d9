"""The real-engine harness itself (tests/engine): a module built by modgen opens in VASSAL 3.7.26,
a setup puts its units on their hexes, key commands, drawing, masks, saving, logging and
replaying do what the engine does, and a failing step is reported as one.

Three engine runs (about 10 s each); they skip without VASSAL_ENGINE_JAR.
"""

from __future__ import annotations

import re
import zipfile
from collections import Counter
from pathlib import Path

import pytest
from lxml import etree

from modgen.pieces import HIDE
from scenarios import load_game, load_game_dir
from vassalfmt import BasicPiece, Marker, Obscurable, Piece, build_zip
from vassalfmt.buildfile import component

pytestmark = pytest.mark.engine

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "example"
SETUP = "Battle of the Ridge"
DECK = "Harness test pile"
PROPS = ["UnitId", "Step_Level", "Card"]


def with_test_deck(module: Path, out: Path) -> Path:
    """The example module plus a face-down, shuffled draw pile of three masked cards on the main
    map and a toolbar menu folding two buttons (the example game has neither; these exist only
    for the harness's own test)."""
    with zipfile.ZipFile(module) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    root = etree.fromstring(entries["buildFile.xml"])
    game_map = root.find("VASSAL.build.module.Map")
    pile = component(game_map, "VASSAL.build.module.map.DrawPile", name=DECK, x=700, y=80, width=60,
                     height=60, faceDown="Always", drawFaceUp=False, shuffle="Always", allowMultiple=False,
                     allowSelect=False, reversible=False, draw=True)
    image = next(name[len("images/"):] for name in sorted(entries) if name.startswith("images/"))
    next_id = int(root.get("nextPieceSlotId"))
    for n in range(3):
        card = Piece([Obscurable(key=HIDE, image=image, hide_command="Mask", display_style="B", mask_name="Card back"),
                      Marker.of(Card=f"card-{n}"), BasicPiece(image=image, name=f"Card {n}")])
        component(pile, "VASSAL.build.widget.CardSlot", card.add_piece_command(None), entryName=f"Card {n}",
                  gpid=next_id + n, height=0, width=0)
    root.set("nextPieceSlotId", str(next_id + 3))
    component(root, "VASSAL.build.module.ToolbarMenu", text="Windows", tooltip="Harness test menu",
              description="Harness test menu", menuItems="Counters,Inventory")
    entries["buildFile.xml"] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    path = out / "example-with-deck.vmod"
    path.write_bytes(build_zip(entries))
    return path


@pytest.fixture(scope="module")
def deck_module(engine_module, tmp_path_factory) -> Path:
    return with_test_deck(engine_module("example"), tmp_path_factory.mktemp("harness"))


@pytest.fixture(scope="module")
def first_run(engine, deck_module, tmp_path_factory):
    """A setup played a little: a step loss, a side, chat, a log, a save."""
    files = tmp_path_factory.mktemp("harness-files")
    steps = [
        {"do": "setup", "name": SETUP},                                                   # 0
        {"do": "pieces", "properties": PROPS},                                            # 1
        {"do": "key", "piece": {"properties": {"UnitId": "rd-1"}}, "menu": "Step loss",
         "properties": PROPS},                                                            # 2
        {"do": "pref", "key": "RealName", "value": "Tester"},                             # 3
        {"do": "side", "side": "Red"},                                                    # 4
        {"do": "call", "class": "VASSAL.build.module.Chatter", "method": "send",
         "args": ["said through a component"]},                                           # 5
        {"do": "log_begin", "file": str(files / "game.vlog")},                            # 6
        {"do": "key", "piece": {"properties": {"UnitId": "bl-inf-1"}}, "key": "70,130"},   # 7 Ctrl+F
        {"do": "chat", "text": "written into the log"},                                   # 8
        {"do": "log_end"},                                                                # 9
        {"do": "save", "file": str(files / "game.vsav")},                                 # 10
    ]
    return engine(deck_module, steps, timeout=180), files


def by_unit(pieces: list[dict]) -> dict[str, dict]:
    return {p["properties"]["UnitId"]: p for p in pieces if p["properties"].get("UnitId")}


def test_a_setup_lists_its_units_on_their_hexes(first_run):
    run, _ = first_run
    assert run.ok, run.failure()
    assert run.report["engine_version"] == "3.7.26"
    assert run.problems() == []
    scenario = load_game_dir(EXAMPLE).scenarios["battle"]
    units = by_unit(run.result(1)["pieces"])
    for placement in scenario.setup:
        if placement.is_marker:
            continue
        piece = units[placement.unit]
        assert piece["location"] == placement.location, placement.unit
        assert piece["properties"]["Step_Level"] == ("2" if placement.step == "depleted" else "1")
    assert units["rd-tk"]["map"] != units["rd-1"]["map"]  # a reinforcement waits on the turn track


def test_key_commands_change_the_piece_and_are_reported(first_run):
    run, _ = first_run
    by_menu = run.result(2)
    assert by_menu["properties"]["Step_Level"] == "2" and by_menu["name"].endswith("(depleted)")
    assert any("Step loss" in line for line in run.step(2)["chat"])
    by_key = run.step(7)
    assert any("Blue infantry regiment (depleted)" in line for line in by_key["chat"])


def test_prefs_side_chat_and_component_calls(first_run):
    run, _ = first_run
    assert run.result(3) == {"value": "Tester"}
    assert run.result(4) == {"side": "Red"}
    assert run.step(5)["chat"] == ["said through a component"]
    assert run.step(8)["chat"] == ["<Tester> - written into the log"]


def test_draw_pile_is_face_down_and_a_drawn_card_is_hidden_from_others(engine, deck_module):
    run = engine(deck_module, [
        {"do": "new_game"},
        {"do": "pieces", "properties": PROPS},
        {"do": "side", "side": "Blue"},
        {"do": "draw", "deck": DECK, "to": {"map": "Example Ridge", "location": "0303"}, "properties": PROPS},
        {"do": "pieces", "properties": PROPS, "as": "observer"},
        {"do": "pieces", "properties": PROPS, "as": "Red"},
    ], timeout=120)
    assert run.ok, run.failure()
    (deck,) = run.result(1)["decks"]
    assert (deck["name"], deck["count"], deck["face_down"], deck["shuffle"]) == (DECK, 3, True, "Always")
    assert {p["name"] for p in deck["pieces"]} == {"Card back"}
    (drawn,) = run.result(3)["drawn"]
    assert drawn["location"] == "0303" and not drawn["obscured"] and drawn["name"].startswith("Card ")
    assert run.result(3)["left"] == 2
    for view in (4, 5):
        seen = {p["id"]: p for p in run.result(view)["pieces"]}[drawn["id"]]
        assert seen["obscured"] and seen["name"] == "Card back", run.result(view)["as"]
    assert run.problems() == []


def test_saved_game_reloads_and_the_log_replays_its_chat(engine, deck_module, first_run):
    _, files = first_run
    run = engine(deck_module, [
        {"do": "load", "file": str(files / "game.vsav")},
        {"do": "pieces", "properties": PROPS},
        {"do": "replay", "file": str(files / "game.vlog")},
        {"do": "pieces", "properties": PROPS},
        {"do": "setup", "name": "No such setup"},
        {"do": "chat", "text": "never sent"},
    ], timeout=120)
    saved = by_unit(run.result(1)["pieces"])
    assert saved["rd-1"]["properties"]["Step_Level"] == "2"       # the step loss made before saving
    assert saved["bl-inf-1"]["properties"]["Step_Level"] == "2"   # and the one made while logging
    replay = run.step(2)
    assert replay["result"]["commands_stepped"] >= 2
    assert "<Tester> - written into the log" in replay["chat"]
    assert replay["dialogs"] == [] and replay["log"] == []
    assert by_unit(run.result(3)["pieces"])["bl-inf-1"]["properties"]["Step_Level"] == "2"
    # A step that fails stops the script: reported with its reason, later steps not run.
    assert run.exit_code == 1 and run.report["failed_step"] == 4
    assert "No such setup" in run.steps[4]["error"] and len(run.steps) == 5
    assert run.problems() == []


def test_toolbar_press_maps_and_typing_into_a_dialog(engine, deck_module):
    """What a player sees and clicks: the toolbar (a menu lists the buttons it folds, which no
    longer show), a dice button's report in the chat, a menu item, the map windows, and a note
    typed into the notes window's Public tab."""
    run = engine(deck_module, [
        {"do": "setup", "name": SETUP},                                                     # 0
        {"do": "toolbar"},                                                                  # 1
        {"do": "press", "text": "1d6"},                                                     # 2
        {"do": "press", "text": "Windows", "item": "Inventory"},                            # 3
        {"do": "maps"},                                                                     # 4
        {"do": "answer", "answers": [{"title": "^Notes$", "button": "Save",
                                      "fields": [{"tab": "Public", "value": "typed by the harness"}]}]},
        {"do": "press", "text": "Notes"},                                                   # 6
        {"do": "press", "text": "Notes"},                                                   # 7
        {"do": "press", "text": "Windows", "item": "No such item"},                         # 8
    ], timeout=120)
    buttons = {b["text"]: b for b in run.result(1)["buttons"] if b["text"]}
    assert buttons["Windows"]["items"] == ["Counters", "Inventory"] and buttons["Windows"]["showing"]
    assert not buttons["Counters"]["showing"] and not buttons["Inventory"]["showing"]
    assert buttons["1d6"]["showing"] and "combat" in buttons["1d6"]["tooltip"]
    (line,) = run.step(2)["chat"]
    assert re.fullmatch(r"\*+ 1d6 = [1-6] \*+ <.*>", line), line
    assert run.result(3) == {"pressed": "Windows/Inventory"}
    (main,) = [m for m in run.result(4)["maps"] if m["main_window"]]
    assert main["boards"] == ["Example Ridge"] and main["pieces"] == main["pieces_in_view"] > 0
    (typed,) = run.step(6)["dialogs"]
    assert typed["answered"] == "Save" and typed["typed"] == [{"field": "{tab=Public, value=typed by the harness}",
                                                                "found": True}]
    (again,) = run.step(7)["dialogs"]
    assert "[tab] Public" in again["text"] and "typed by the harness" in again["text"]
    assert run.report["failed_step"] == 8 and "no item 'No such item'" in run.steps[8]["error"]


def test_masked_blocks_are_hidden_from_the_other_side_and_observers(engine, engine_module):
    game = load_game("holdfast")
    scenario = next(iter(game.scenarios.values()))
    run = engine(engine_module("holdfast"), [
        {"do": "setup", "name": scenario.name},
        {"do": "pieces", "properties": ["SideId"], "as": game.sides["un"].name},
        {"do": "pieces", "properties": ["SideId"], "as": "observer"},
    ], timeout=180)
    assert run.ok, run.failure()
    seen_by_un = Counter((p["properties"]["SideId"], p["obscured"]) for p in run.result(1)["pieces"])
    seen_by_observer = Counter((p["properties"]["SideId"], p["obscured"]) for p in run.result(2)["pieces"])
    assert seen_by_un[("un", False)] > 0 and seen_by_un[("un", True)] == 0
    assert seen_by_un[("communist", True)] > 0 and seen_by_un[("communist", False)] == 0
    assert seen_by_observer[("un", False)] == seen_by_observer[("communist", False)] == 0


def test_two_players_at_once_in_a_room_of_vassals_own_server(engine, engine_module, tmp_path):
    """Several Players at once (live play): VASSAL's own server on loopback, two engine runs each on
    its own display; Alice connects (Server controls), makes a room, moves a piece; Bob connects,
    joins the room by a double-click (the engine synchronises his game to hers), sees her move and
    her chat, and answers. They wait for each other by conditions (a signal, the room's players, a
    chat line, a piece's place), never by sleeping. Two runs at once (about 20 s)."""
    from tests.engine.harness import Player, run_engines
    from tests.engine.servers import VassalServer

    module = engine_module("example")
    vassal = VassalServer().start()
    try:
        server = {"host": "127.0.0.1", "port": vassal.port}
        alice = [{"do": "pref", "key": "RealName", "value": "Alice"},
                 {"do": "setup", "name": SETUP},
                 {"do": "server_connect", **server},
                 {"do": "room_create", "name": "Ridge"},
                 {"do": "signal", "name": "room", "text": "Ridge"},
                 {"do": "wait_room", "players": 2, "timeout": 120},
                 {"do": "move", "piece": {"properties": {"UnitId": "rd-1"}}, "to": {"map": "Example Ridge", "location": "0303"}},
                 {"do": "chat", "text": "hello from Alice"},
                 {"do": "wait_chat", "match": "hello from Bob", "timeout": 60},
                 {"do": "server_disconnect"}]
        bob = [{"do": "pref", "key": "RealName", "value": "Bob"},
               {"do": "wait_signal", "name": "room", "timeout": 120},
               {"do": "server_connect", **server},
               {"do": "room_join", "name": "Ridge"},
               {"do": "wait_room", "players": 2},
               {"do": "wait_piece", "piece": {"properties": {"UnitId": "rd-1"}}, "location": "0303", "timeout": 60},
               {"do": "wait_chat", "match": "hello from Alice", "timeout": 60},
               {"do": "chat", "text": "hello from Bob"},
               {"do": "wait_room", "players": 1, "timeout": 60}]
        a, b = run_engines([Player(module, alice, tmp_path / "alice"), Player(module, bob, tmp_path / "bob")],
                           tmp_path / "signals")
    finally:
        vassal.stop()
    assert a.ok, a.failure()
    assert b.ok, b.failure()
    assert a.result(3)["room"] == "Ridge" and b.result(3)["room"] == "Ridge"
    assert sorted(a.result(5)["players"]) == ["Alice", "Bob"]
    assert b.result(5)["location"] == "0303"  # her move reached his board
    assert any("hello from Bob" in line for line in a.chat()) and any("hello from Alice" in line for line in b.chat())
    assert b.result(8)["players"] == ["Bob"]  # she left: the room shows it
