"""Forms that hold their shape and reports that keep the fog, in the real VASSAL 3.7.26 Player
(issue 51), played as a person plays (real mouse and key events: tests/engine/play.py).

HoldFast, the UN player: the Communist's attack (record 1, asked over the API with chosen dice)
eliminated his ROK Capital block in the ledger, the piece still on the board. He attacks with it
through the right-click menu: the server refuses (an eliminated unit cannot attack), and the form
shows why at its top, wrapped to its width, in words (no request member the form lacks), its unit
rows still in view and the dialog as wide as before; asked outside a form, the refusal's dialog is
wrapped. Then he takes a step off another of his hidden blocks with its own "Step loss": the
module's report, which both players' chats and logs read, says "A UN block in <hex> lost a step"
and never which block. His "Apply the rulings' changes to my pieces" dialog lists the elimination
in full view, his block by its own name.

Fire and Ice, the Communist: his attacker and, by mistake, a UN unit elsewhere selected, an attack
through the right-click menu: the form's attackers are his own unit, its defender the enemy, and
what the board filled names the side and the scenario by their names.
"""

from __future__ import annotations

import re

import pytest
import requests

from adjudicator.checks import get_check
from adjudicator.testing import make_app, seed_for, seeds_env
from adjudicator.words.names import UnitNames
from bench.server import Gunicorn
from modgen.pieces import unit_piece_name
from tests.engine.play import (
    Script,
    adjacent_combat,
    board_request,
    call,
    end_log,
    hex_label,
    menu_of,
    player_fields,
    select,
    setup_hexes,
    sign_in,
    start_scenario,
)
from vassalfmt import read_saved_game

pytestmark = pytest.mark.engine

FORM = "^Adjudicator: Combat"


def explain(run) -> str:
    shown = []
    for entry in run.steps[-6:]:
        shown.append(f"{entry.get('do')}: {entry.get('error') or ''}")
        shown += [f"   dialog: {d.get('title')}: {str(d.get('text'))[:300]}" for d in entry.get("dialogs", [])]
    return run.failure() + "\n" + "\n".join(shown)


def chat_texts(path) -> list[str]:
    return [c[len("CHAT"):] for c in read_saved_game(path).other_commands if c.startswith("CHAT")]


@pytest.fixture(scope="module")
def holdfast_combat():
    return adjacent_combat("holdfast")


@pytest.fixture(scope="module")
def communist_attack(modules, holdfast_combat, tmp_path_factory) -> dict:
    """The Communist's attack on the UN block as the board asks it (the dice chosen to eliminate it)."""
    combat = holdfast_combat
    systems = {s["id"]: s for s in make_app(tmp_path_factory.mktemp("systems")).test_client()
               .get("/api/v1/systems").get_json()["systems"]}
    setup = modules[("holdfast", 1)][2][f"setups/{combat.scenario.id}.vsav"]
    return board_request("holdfast", combat.scenario.id, setup, "combat", combat.side, combat.attackers,
                         hex_label(combat, combat.defender), player_fields(systems["holdfast"], "combat"))


@pytest.fixture(scope="module")
def server(tmp_path_factory, communist_attack):
    seed = seed_for((get_check("holdfast", "combat"), communist_attack, lambda o: o["defender"]["eliminated"], 1))
    running = Gunicorn(workdir=tmp_path_factory.mktemp("forms-adjudicator"), app="adjudicator.testing:make_test_app()",
                       extra_env=seeds_env({"holdfast/campaign": seed})).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def un_player(engine, engine_module, server, holdfast_combat, communist_attack, tmp_path_factory) -> dict:
    combat = holdfast_combat
    files = tmp_path_factory.mktemp("holdfast-un")
    created = requests.post(f"{server.url}/api/v1/games", json={"system": "holdfast", "scenario": combat.scenario.id},
                            timeout=30).json()
    ruled = requests.post(f"{server.url}/api/v1/games/{created['game_id']}/combat", json=communist_attack,
                          headers={"Authorization": f"Bearer {created['tokens'][combat.side]}"}, timeout=60)
    assert ruled.status_code == 201 and ruled.json()["outcome"]["defender"]["eliminated"], ruled.text
    game = combat.game
    un = game.units[combat.defender].side
    where = setup_hexes(game, combat.scenario)
    # another of his blocks on the map, with a step to lose
    flipped = next(u for u, (m, h) in where.items() if game.units[u].side == un and u != combat.defender
                   and len(game.units[u].steps) > 1 and re.fullmatch(r"\d{4}", game.maps[m].grid.label(h)))
    s = Script()
    s.add(*sign_in("Bob"))
    s.add(*start_scenario(combat.scenario.name, game.sides[un].name, files / "un.vlog"))
    s.add(call("connect", server.url), call("joinRecordedGame", created["game_id"], created["tokens"][un]), name="joined")
    s.add({"do": "click_if", "window": "apply the rulings' changes", "on": "No"})  # the elimination stays unmade
    s.add(*select(combat.defender))  # the block the ledger eliminated, still on the board
    s.add(menu_of(combat.attackers[0], "Adjudicator/Attack this hex with the selected units"))
    s.add({"do": "wait_window", "window": FORM}, name="form")
    s.add({"do": "click", "window": FORM, "on": "OK"})
    s.add({"do": "wait_window", "window": f"(?s){FORM}.*eliminated by record #1"}, name="refused")
    s.add({"do": "click", "window": FORM, "on": "Cancel"})
    s.add({"do": "wait_window", "window": FORM, "gone": True})
    # the same attack asked outside a form (the extension's method): the refusal's dialog
    s.add(*select(combat.defender))
    s.add(call("check", "combat", combat.attackers[0], "{}"))
    s.add({"do": "wait_window", "window": "(?s)^Adjudicator: .*eliminated by record #1"}, name="refusal dialog")
    s.add({"do": "click", "window": "(?s)^Adjudicator: .*eliminated by record #1", "on": "OK"})
    s.add(menu_of(flipped, "Step loss"), name="step loss")
    s.add({"do": "wait_chat", "match": "lost a step"}, name="reported")
    s.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["Apply the rulings' changes to my pieces..."]})
    s.add({"do": "wait_window", "window": "apply the rulings' changes to your pieces"}, name="apply dialog")
    s.add({"do": "click", "window": "apply the rulings' changes to your pieces", "on": "No"})
    s.add(*end_log())
    run = engine(engine_module("holdfast"), s.steps, timeout=600, prefs_dir=files / "prefs")
    assert run.ok, explain(run)
    return {"run": run, "script": s, "files": files, "flipped": flipped, "hex": hex_label(combat, flipped), "un": un}


def test_a_refusal_is_wrapped_in_words_at_the_top_and_the_form_keeps_its_width(un_player, holdfast_combat):
    run, s = un_player["run"], un_player["script"]
    form, refused = run.result(s.at["form"]), run.result(s.at["refused"])
    text = refused["text"]
    assert "an eliminated unit cannot attack or defend" in text
    # the field it asks for is no field of this form: what the player can do instead, in words
    assert "restored_by" not in text and "restored by" not in text
    assert "cannot name a ruling that brought a unit back: take the unit out of the check" in text
    width, _ = refused["size"]
    assert width == form["size"][0], (form["size"], refused["size"])  # the dialog keeps its width
    x, _, w, h, seen_w, _ = refused["layout"]["problem"]
    assert x + w <= width and seen_w == w  # wholly inside the form, not cut at its edge
    assert h >= 3 * 14, refused["layout"]["problem"]  # the title and the detail wrapped on two lines or more
    row = refused["layout"]["/attackers/0/remove"]  # the unit's row, still in view across the form
    assert row[0] + row[2] <= width and row[4] == row[2]


def test_a_refusal_outside_a_form_is_a_dialog_of_wrapped_lines(un_player):
    """A refusal of several sentences, asked outside a form: its dialog wraps it, never one line
    as wide as the whole text (several screens for a long one)."""
    run, s = un_player["run"], un_player["script"]
    dialog = run.result(s.at["refusal dialog"])
    x, y, w, h, seen_w, seen_h = dialog["layout"]["message"]
    assert "an eliminated unit cannot attack or defend" in dialog["text"]
    assert (seen_w, seen_h) == (w, h) and w < 900 and dialog["size"][0] < 1000, dialog["layout"]["message"]
    assert h >= 3 * 14, (dialog["layout"], dialog["size"], dialog["text"])  # three lines or more: wrapped


def test_the_modules_report_of_a_hidden_blocks_step_names_no_block(un_player, holdfast_combat):
    """The report is written on the owner's screen, where the block is his to read, and sent as
    text: both chats and both logs read no more than the fog lets the opponent see."""
    run, s, combat = un_player["run"], un_player["script"], holdfast_combat
    side = combat.game.sides[un_player["un"]].name.split(" (")[0]
    said = f"A {side} block in {un_player['hex']} lost a step"
    (line,) = [line for line in run.step(s.at["step loss"])["chat"] + run.step(s.at["reported"])["chat"] if "lost a step" in line]
    assert line.endswith(said), line
    logged = [line for line in chat_texts(un_player["files"] / "un.vlog") if "lost a step" in line]
    assert len(logged) == 1 and logged[0].endswith(said), logged
    names = UnitNames.of("holdfast").names
    game = combat.game
    for unit in (u for u in game.units.values() if u.side == un_player["un"]):
        assert names[unit.id] not in line and unit_piece_name(game, unit) not in line
    assert "->" not in line and "(" not in line  # no step, no strength, no name in brackets


def test_the_apply_dialog_shows_every_change_without_scrolling(un_player, holdfast_combat):
    """Adjudicator > Apply the rulings' changes to my pieces: the Communist's ruling eliminated his
    block; the dialog's list of changes is as tall as its lines, none hidden below a scroll bar."""
    run, s = un_player["run"], un_player["script"]
    dialog = run.result(s.at["apply dialog"])
    x, y, w, h, seen_w, seen_h = dialog["layout"]["changes"]
    assert (seen_w, seen_h) == (w, h), dialog["layout"]["changes"]  # all of it in view
    assert y + h <= dialog["size"][1]
    assert "eliminated (to its dead pile)" in dialog["text"]
    # his own block by its name alone: not the engine's "name(the mask the opponent sees)"
    block = unit_piece_name(holdfast_combat.game, holdfast_combat.game.units[holdfast_combat.defender])
    assert re.search(rf"^{re.escape(block)}( \(\d\))?: eliminated", dialog["text"], re.M), dialog["text"]  # its step's SP
    assert "block)" not in dialog["text"]


# -- Fire and Ice: a combat's units by side -------------------------------------------------------------

@pytest.fixture(scope="module")
def fireandice_form(engine, engine_module, server, tmp_path_factory) -> dict:
    """The Communist selects his attacker and, by mistake, a UN unit elsewhere, and attacks a UN
    unit's hex through the right-click menu: the form's attackers are his own unit only."""
    files = tmp_path_factory.mktemp("fireandice-form")
    combat = adjacent_combat("fireandice", "invasion")
    game = combat.game
    stray = next(u for u in setup_hexes(game, combat.scenario)
                 if game.units[u].side != combat.side and u != combat.defender)
    s = Script()
    s.add(*sign_in("Alice"))
    s.add(*start_scenario(combat.scenario.name, combat.attacking_side, None))
    s.add(call("connect", server.url))
    s.add(*select(combat.attackers[0], stray))
    s.add(menu_of(combat.defender, "Adjudicator/Attack this hex with the selected units"))
    s.add({"do": "wait_window", "window": FORM}, name="form")
    s.add({"do": "click", "window": FORM, "on": "Cancel"})
    s.add({"do": "wait_window", "window": FORM, "gone": True})
    run = engine(engine_module("fireandice"), s.steps, timeout=600, prefs_dir=files / "prefs")
    assert run.ok, explain(run)
    return {"run": run, "script": s, "combat": combat, "stray": stray}


def test_the_fire_and_ice_combat_form_lists_the_askers_units_as_attackers_and_the_enemys_as_defenders(fireandice_form):
    run, s, combat, stray = fireandice_form["run"], fireandice_form["script"], fireandice_form["combat"], fireandice_form["stray"]
    form = run.result(s.at["form"])
    game = combat.game
    names = UnitNames.of("fireandice").names
    own, enemy = game.units[combat.attackers[0]], game.units[combat.defender]
    assert unit_piece_name(game, own) in form["text"] and unit_piece_name(game, enemy) in form["text"]
    assert unit_piece_name(game, game.units[stray]) not in form["text"] and names[stray] not in form["text"], form["text"]
    rows = [n for n in form["names"] if re.fullmatch(r"/(attackers|defenders)/\d+/remove", n)]
    assert rows == ["/attackers/0/remove", "/defenders/0/remove"], rows


def test_the_form_names_the_side_and_the_scenario_the_board_filled_by_their_names(fireandice_form):
    run, s, combat = fireandice_form["run"], fireandice_form["script"], fireandice_form["combat"]
    text = run.result(s.at["form"])["text"]
    assert f"Attacker: {combat.game.sides[combat.side].name}\n" in text, text
    assert f"Scenario: {combat.scenario.name}\n" in text
    assert not re.search(rf"^\w[\w ]*: ({combat.side}|{combat.scenario.id})$", text, re.M)  # no id
