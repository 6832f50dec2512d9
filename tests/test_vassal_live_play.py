"""Live play (issue 44): two and three real VASSAL 3.7.26 Players at once in one room of VASSAL's own
server, run locally from the engine jar, each Player on its own display with its own preferences (a
computer each), driven with real mouse and key events (docs/engine-harness.md, "Several Players at
once"). A real adjudicator (gunicorn on loopback, the tests' app: every game's dice are chosen).

HoldFast (the Campaign Game), one live sitting:

* Alice (Communist) starts the scenario with a log, joins the recorded game, makes a room; Bob (UN)
  joins the room (the engine synchronises his game to hers), takes his side, begins his own log,
  and joins the recorded game at the server the game names (his own address is another: he is shown
  both); Alice's chat tells her that the UN player joined;
* Alice attacks the ROK 1st, a UN block hidden from her: the ruling (#1) takes it to 1 SP; the
  block is not hers to change, so Bob's extension asks him at once, he applies it, both see it applied;
* Bob asks his side's supply (#2: ROK Cap, out of supply, loses 1 SP, his own to apply); his
  connection drops; Alice asks hers (#3) while he is away; he comes back (a second
  synchronisation: "Save Game?" No, the log saved) and begins his second log, where #3 is
  delivered from the ledger;
* Bob attacks with ROK Cap (#4: nothing happens), does not like it, synchronises again and asks the
  same attack from the same position in a third log (#5: a re-roll made during live play, with the
  notice "asked again"); the 6th NKPA's loss is Alice's to apply, and she does, asked at the board;
* Carol joins late: her own adjudicator address is a wrong one; the game tells her its server, the
  join dialog shows both; she lists the rulings so far and opens one.

Then each player's log alone and the pair as one live session pass the log check; the whole
sitting's four logs name #5 a re-roll of #4 (the positions as a history: the same situation asked
again where #4 was asked); Bob's chain without his second log names #4 a re-roll though Alice's
log shows it.

SPI (the Campaign Game), two players, one drops and returns: `spi_sitting`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import requests

from adjudicator.checks import get_check
from adjudicator.testing import make_app, seed_for, seeds_env
from adjudicator.logs.session_line import parse_session_line
from adjudicator.logs.transcript import parse_transcript
from bench.server import Gunicorn
from tests.engine.harness import Player, run_engines
from tests.engine.play import (
    Script, adjacent_combat, board_request, connect_dialog, end_log, hex_label, log_prompt, menu_of, player_fields,
    select, setup_hexes, sign_in, start_scenario, submit_form, take_side,
)
from tests.engine.servers import VassalServer
from tests.test_vassal_extension_e2e import chat_texts, explain, log_check
from vassalfmt import read_saved_game

pytestmark = pytest.mark.engine

ROOM = "HoldFast at one board"
WRONG_ADDRESS = "http://127.0.0.1:9"  # Carol's own adjudicator address: nothing answers there


def combats() -> tuple:
    """Alice's attack (the 4th NKPA on the ROK 1st, a UN block hidden from her) and Bob's (ROK Cap
    on the 6th NKPA), as the Campaign Game's setup places them."""
    counter = adjacent_combat("holdfast", side="un")
    return adjacent_combat("holdfast", skip=tuple(counter.attackers)), counter


def hold_requests(modules, systems) -> tuple[dict, dict]:
    """Alice's attack and Bob's (ROK Cap then at 1 SP, after his supply ruling) as the board asks them."""
    attack, counter = combats()
    setup = modules[("holdfast", 1)][2][f"setups/{attack.scenario.id}.vsav"]
    fields = player_fields(systems["holdfast"], "combat")
    alice = board_request("holdfast", attack.scenario.id, setup, "combat", "communist", attack.attackers,
                          hex_label(attack, attack.defender), fields)
    bob = board_request("holdfast", counter.scenario.id, setup, "combat", "un", counter.attackers,
                        hex_label(counter, counter.defender), fields)
    bob["attackers"][0]["sp"] = 1  # ROK Cap after ruling #2 (out of supply: 2 -> 1 SP)
    return alice, bob


def spi_request(modules, systems) -> dict:
    """Alice's attack in SPI's Campaign Game (the defender's choice: the Meeting Engagement table)."""
    attack = adjacent_combat("spi", "campaign")
    setup = modules[("spi", 1)][2][f"setups/{attack.scenario.id}.vsav"]
    return board_request("spi", attack.scenario.id, setup, "combat", attack.side, attack.attackers,
                         hex_label(attack, attack.defender), {**player_fields(systems["spi"], "combat"), "table": "meeting"})


@pytest.fixture(scope="module")
def systems(tmp_path_factory) -> dict:
    return {s["id"]: s for s in make_app(tmp_path_factory.mktemp("systems")).test_client()
            .get("/api/v1/systems").get_json()["systems"]}


@pytest.fixture(scope="module")
def server(tmp_path_factory, modules, systems):
    """The adjudicator, its public address the one players reach it at (no proxy in between). The
    Campaign Game's dice: #1 takes the ROK 1st from 2 to 1 SP and spares the attacker; #4 (ROK Cap's
    attack) changes nothing; #5, the same attack asked again, costs the 6th NKPA 1 SP. SPI's
    Campaign Game: #1 eliminates the defending regiment, and the attacker loses nothing."""
    combat = get_check("holdfast", "combat")
    alice, bob = hold_requests(modules, systems)

    def unchanged(blocks) -> bool:
        return all(b["sp"] == b["sp_before"] for b in blocks)

    holdfast = seed_for(
        (combat, alice, lambda o: o["defender"]["sp"] == o["defender"]["sp_before"] - 1 and not o["defender"]["eliminated"]
         and unchanged(o["attackers"]), 1),
        (combat, bob, lambda o: unchanged([o["defender"]]) and unchanged(o["attackers"]), 4),
        (combat, bob, lambda o: o["defender"]["sp"] == 2 and unchanged(o["attackers"]), 5))
    spi = seed_for((get_check("spi", "combat"), spi_request(modules, systems),
                    lambda o: len((o["defender_losses"] or {}).get("eliminated", [])) == 1
                    and not o["defender_losses"]["remaining"] and not o["attacker_losses"]
                    and not o["defender_retreat_hexes"], 1))
    running = Gunicorn(workdir=tmp_path_factory.mktemp("adjudicator"), app="adjudicator.testing:make_test_app()",
                       extra_env=seeds_env({"holdfast/campaign": holdfast, "spi/campaign": spi})).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def vassal():
    running = VassalServer().start()
    yield running
    running.stop()


def ledger(server, game_id: str, token: str) -> dict:
    return requests.get(f"{server.url}/api/v1/games/{game_id}/ledger", headers={"Authorization": f"Bearer {token}"},
                        timeout=30).json()


def recorded_game(server, system: str, scenario: str) -> tuple[dict, str]:
    """A recorded game made through the API (its tokens, its id): the players join it from VASSAL."""
    created = requests.post(f"{server.url}/api/v1/games", json={"system": system, "scenario": scenario}, timeout=30).json()
    return created["tokens"], created["game_id"]


def join_dialog(token: str, game_id: str | None = None, mark: str = "") -> list[dict]:
    """Adjudicator > Join recorded game..., read as it opens (the server it names), the token typed, OK."""
    steps = [{"do": "toolbar_click", "button": "Adjudicator", "path": ["Join recorded game..."]},
             {"do": "wait_window", "window": "join a recorded game", "mark": mark}]
    if game_id:
        steps.append({"do": "type", "window": "join a recorded game", "field": "game id", "text": game_id})
    return steps + [{"do": "type", "window": "join a recorded game", "field": "token", "text": token},
                    {"do": "click", "window": "join a recorded game", "on": "OK"},
                    {"do": "wait_window", "window": "Joined recorded game"},
                    {"do": "click", "window": "Joined recorded game", "on": "OK"}]


def add(script: Script, steps: list[dict]) -> None:
    """Steps, each carrying "mark" marked under it (what the test reads back)."""
    for step in steps:
        mark = step.pop("mark", "")
        script.add(step, name=mark)


def status_line() -> dict:
    """The Adjudicator menu read (its first item says what the game is and where its checks go)."""
    return {"do": "toolbar_click", "button": "Adjudicator", "path": [], "read": True}


def synchronise(log: Path, saved: bool, room: str = ROOM) -> list[dict]:
    """Back in the room: a double-click on it (the engine synchronises this game to the room's; the
    game he changed is not saved, "Save Game?" No; the log being kept is ended, "Save now?" Yes),
    then the new game's "Start new Logfile?" Yes."""
    steps = [{"do": "room_join", "name": room},
             {"do": "click_if", "window": "Game modified", "on": "No", "timeout": 5}]
    if saved:
        steps += [{"do": "wait_window", "window": "Unsaved log"}, {"do": "click", "window": "Unsaved log", "on": "Yes"}]
    return steps + log_prompt(log)


@pytest.fixture(scope="module")
def sitting(engine, engine_module, server, vassal, tmp_path_factory) -> dict:
    files = tmp_path_factory.mktemp("live-holdfast")
    module = engine_module("holdfast")
    attack, counter = combats()
    attacker, block = attack.attackers[0], attack.defender  # Alice's 4th NKPA, Bob's ROK 1st
    cap, sixth = counter.attackers[0], counter.defender  # Bob's ROK Cap, Alice's 6th NKPA
    game = attack.game
    un, communist = game.sides["un"].name, game.sides["communist"].name
    tokens, game_id = recorded_game(server, "holdfast", attack.scenario.id)
    at = {"host": "127.0.0.1", "port": vassal.port}
    form = "^Adjudicator: Combat"

    a = Script()
    add(a, [*sign_in("Alice"), *start_scenario(attack.scenario.name, communist, files / "a1.vlog"),
            *connect_dialog(server.url), *join_dialog(tokens["communist"], game_id),
            {"do": "server_connect", **at}, {"do": "room_create", "name": ROOM}, {"do": "signal", "name": "room"},
            {"do": "wait_chat", "match": r"Adjudicator: the UN .* player joined recorded game", "timeout": 300,
             "mark": "bob joined"},
            # and has read that he joined (his OK): as players at one table wait for each other, so the
            # question the attack asks him does not come over that dialog while he is about to close it
            {"do": "wait_signal", "name": "bob-joined", "timeout": 300},
            *select(attacker), menu_of(block, "Adjudicator/Attack this hex with the selected units"),
            {"do": "wait_window", "window": form}, *submit_form("Combat"),
            {"do": "wait_chat", "match": r"#1\] receipt: record 1 ", "mark": "ruling 1"},
            {"do": "wait_window", "window": "not yours to apply", "mark": "owner's"},
            {"do": "click", "window": "not yours to apply", "on": "OK"},
            {"do": "wait_chat", "match": r"the UN .* player applied the change of ruling #1 to his pieces", "timeout": 120},
            {"do": "wait_piece", "piece": {"id": block}, "location": hex_label(attack, block),
             "properties": {"Step_Level": "3"}, "mark": "block applied"},  # 2 -> 1 SP: the block's third edge
            {"do": "wait_chat", "match": r"#2\] receipt: record 2 ", "timeout": 120},
            {"do": "wait_room", "players": 1, "timeout": 120, "mark": "bob away"},
            menu_of(attacker, "Adjudicator/Supply of this side"),
            {"do": "wait_window", "window": "^Adjudicator: Supply"}, *submit_form("Supply"),
            {"do": "wait_chat", "match": r"#3\] receipt: record 3 "},
            {"do": "click_if", "window": "apply the ruling", "on": "Yes", "timeout": 3},
            {"do": "signal", "name": "asked-3"},
            {"do": "wait_room", "players": 2, "timeout": 180},
            {"do": "wait_chat", "match": r"#5\] receipt: record 5 ", "timeout": 300},
            {"do": "wait_window", "window": r"apply the UN .* player's ruling #5 to your pieces", "timeout": 120,
             "mark": "asked to apply"},
            {"do": "click", "window": r"apply the UN .* player's ruling #5", "on": "Yes"},
            {"do": "wait_chat", "match": r"the Communist .* player applied the change of ruling #5"},
            {"do": "wait_signal", "name": "carol-done", "timeout": 600},
            *end_log()])

    b = Script()
    add(b, [*sign_in("Bob"), {"do": "wait_signal", "name": "room", "timeout": 300},
            {"do": "server_connect", **at}, {"do": "room_join", "name": ROOM},
            *take_side(un), *log_prompt(files / "b1.vlog"),
            {**status_line(), "mark": "bob's menu"},
            *join_dialog(tokens["un"], mark="bob's join dialog"), {"do": "signal", "name": "bob-joined"},
            {"do": "wait_window", "window": r"apply the Communist .* player's ruling #1 to your pieces", "timeout": 180,
             "mark": "owner asked"},
            {"do": "click", "window": r"apply the Communist .* player's ruling #1", "on": "Yes"},
            {"do": "wait_chat", "match": r"the UN .* player applied the change of ruling #1"},
            menu_of(block, "Adjudicator/Supply of this side"),
            {"do": "wait_window", "window": "^Adjudicator: Supply"}, *submit_form("Supply"),
            {"do": "wait_chat", "match": r"#2\] receipt: record 2 ", "mark": "ruling 2"},
            {"do": "wait_window", "window": "apply the ruling"},  # ROK Cap out of supply: 2 -> 1 SP, his own
            {"do": "click", "window": "apply the ruling", "on": "Yes"},
            {"do": "wait_piece", "piece": {"id": cap}, "properties": {"Step_Level": "3"}},
            {"do": "server_disconnect"},
            {"do": "wait_signal", "name": "asked-3", "timeout": 300},
            {"do": "server_connect", **at}, *synchronise(files / "b2.vlog", saved=True),
            {"do": "wait_chat", "match": r"#3\] RULING", "timeout": 60, "mark": "caught up"},
            *select(cap), menu_of(sixth, "Adjudicator/Attack this hex with the selected units"),
            {"do": "wait_window", "window": form}, *submit_form("Combat"),
            {"do": "wait_chat", "match": r"#4\] receipt: record 4 ", "mark": "ruling 4"},
            {"do": "server_disconnect"}, {"do": "server_connect", **at},  # back to the position before: a re-roll
            *synchronise(files / "b3.vlog", saved=True),
            *select(cap), menu_of(sixth, "Adjudicator/Attack this hex with the selected units"),
            {"do": "wait_window", "window": form}, *submit_form("Combat"),
            {"do": "wait_chat", "match": r"#5\] receipt: record 5 ", "mark": "ruling 5"},
            {"do": "wait_window", "window": "Adjudicator: notice", "mark": "asked again"},
            {"do": "click", "window": "Adjudicator: notice", "on": "OK"},
            {"do": "wait_window", "window": "not yours to apply"},  # the 6th NKPA's loss: Alice's block
            {"do": "click", "window": "not yours to apply", "on": "OK"},
            {"do": "wait_chat", "match": r"the Communist .* player applied the change of ruling #5", "timeout": 120},
            {"do": "signal", "name": "bob-done"},
            {"do": "wait_signal", "name": "carol-done", "timeout": 600},
            *end_log()])

    c = Script()
    add(c, [*sign_in("Carol"), {"do": "pref", "key": "adjudicatorServer", "value": WRONG_ADDRESS},
            {"do": "wait_signal", "name": "bob-done", "timeout": 900},
            {"do": "server_connect", **at}, {"do": "room_join", "name": ROOM},
            *log_prompt(None),  # both sides are held: the engine asks no side, she observes
            {**status_line(), "mark": "carol's menu"},
            *join_dialog(tokens["un"], mark="carol's join dialog"),
            {"do": "toolbar_click", "button": "Adjudicator", "path": ["Rulings of this game..."]},
            {"do": "wait_window", "window": "rulings of recorded game", "mark": "rulings"},
            {"do": "click", "window": "rulings of recorded game", "on": "Open"},
            {"do": "wait_window", "window": "the ruling in full", "mark": "one ruling"},
            {"do": "click", "window": "the ruling in full", "on": "Close"},
            {"do": "signal", "name": "carol-done"}])

    alice, bob, carol = run_engines([Player(module, a.steps, files / "alice", 1200), Player(module, b.steps, files / "bob", 1200),
                                     Player(module, c.steps, files / "carol", 1200)], files / "signals")
    failed = [f"{who}: {explain(run)}" for who, run in (("Alice", alice), ("Bob", bob), ("Carol", carol)) if not run.ok]
    assert not failed, "\n".join(failed)
    return {"files": files, "game_id": game_id, "tokens": tokens, "attack": attack,
            "alice": (alice, a), "bob": (bob, b), "carol": (carol, c)}


def chat_of(sitting, who: str) -> str:
    """What a player's chat showed, a long line's wrapped parts ("… ") joined again."""
    return "\n".join(sitting[who][0].chat()).replace("\n… ", " ")


def result(sitting, who: str, name: str):
    run, script = sitting[who]
    return run.result(script.at[name])


def test_the_join_uses_the_games_own_server_and_tells_the_creator(sitting, server):
    said = result(sitting, "alice", "bob joined")["matched"][0]["text"]
    assert "joined recorded game " + sitting["game_id"] in said
    menu = result(sitting, "bob", "bob's menu")["items"][0]
    assert menu.startswith(f"{sitting['attack'].scenario.name}: recorded game {sitting['game_id']} at {server.url}")
    shown = result(sitting, "bob", "bob's join dialog")["text"]
    assert sitting["game_id"] in shown  # the game id filled in from the game
    assert f"This game says its recorded game lives at {server.url}; your address" in shown
    assert f"is http://127.0.0.1:8000" in shown  # his own, never used silently


def test_a_hidden_block_is_applied_by_its_owner_at_the_board_and_both_see_it(sitting):
    said = result(sitting, "alice", "owner's")["text"]
    assert "to be applied by its owner (the UN (ROK, US and UN) player)" in said
    alice = chat_of(sitting, "alice")
    assert "asked of him now at the board, pending until he applies it" in alice
    asked = result(sitting, "bob", "owner asked")
    assert asked["title"] == "Adjudicator: apply the Communist (NKPA and CPA) player's ruling #1 to your pieces?"
    assert "ROK 1st Division (2): 1 (1 x Step loss)" in asked["text"]  # his own block, named (not "...(2)(UN ... block)")
    assert result(sitting, "alice", "block applied")["properties"]["Step_Level"] == "3"  # on her board too
    assert re.search(r"the UN .* player applied the change of ruling #1 to his pieces\.$", alice, re.M)


def test_a_ruling_made_while_one_was_away_reaches_him_when_he_is_back(sitting):
    assert result(sitting, "alice", "bob away")["players"] == ["Alice"]
    bob = chat_of(sitting, "bob")
    assert re.search(r"ruling #3 of recorded game \S+ was posted while you were not at the board", bob)
    third = [line for line in chat_texts(sitting["files"] / "b2.vlog") if "#3]" in line]
    assert third and third[0].endswith(third[0].split("] ", 1)[1]) and "RULING" in third[0]  # in his second log
    assert not [line for line in chat_texts(sitting["files"] / "b1.vlog") if "#3]" in line]  # not the one that ended


def test_a_late_joiner_lists_the_rulings_so_far_at_the_games_server(sitting, server):
    menu = result(sitting, "carol", "carol's menu")["items"][0]
    scenario = sitting["attack"].scenario.name
    assert menu == (f"{scenario}: recorded game {sitting['game_id']} at {server.url} (not joined: calculations at "
                    f"{WRONG_ADDRESS})")  # the scenario's name, not its id; the game's server, said
    shown = result(sitting, "carol", "carol's join dialog")["text"]
    assert f"lives at {server.url}; your address (Adjudicator > Connect) is {WRONG_ADDRESS}" in shown
    listed = result(sitting, "carol", "rulings")["text"]
    rows = [line for line in listed.splitlines() if line.startswith("#")]
    assert [row.split(" ", 1)[0] for row in rows] == ["#1", "#2", "#3", "#4", "#5"], listed
    assert rows[0].startswith("#1 (Communist (NKPA and CPA)): Combat for Communist:")
    assert "RULING" not in listed and "(rok-cap)" not in listed
    whole = result(sitting, "carol", "one ruling")["text"]
    assert "Combat for UN" in whole  # the last ruling, opened from the list


def test_each_players_log_passes_alone_and_as_one_live_session_and_the_re_roll_is_named(sitting, server):
    files, game_id, observer = sitting["files"], sitting["game_id"], sitting["tokens"]["observer"]
    document = ledger(server, game_id, observer)
    rulings = [r for r in document["records"] if not r["body"]["check"].startswith("game.")]
    assert [(r["seq"], r["body"]["side"]) for r in rulings] == [(1, "communist"), (2, "un"), (3, "communist"), (4, "un"),
                                                                 (5, "un")]
    sessions = {r["seq"]: r["body"]["session"] for r in rulings}
    live = {s["live"] for s in sessions.values()}
    assert len(live) == 1 and None not in live  # one sitting, every player's log of it names it
    assert sessions[1]["id"] == sessions[3]["id"]  # Alice's log: hers alone, whatever Bob's extension sent
    assert len({sessions[2]["id"], sessions[4]["id"], sessions[5]["id"]}) == 3 and sessions[2]["id"] != sessions[1]["id"]
    lines = {path: [parse_session_line(t) for t in chat_texts(files / path) if parse_session_line(t)]
             for path in ("a1.vlog", "b1.vlog", "b2.vlog", "b3.vlog")}
    assert lines["a1.vlog"][0].id == sessions[1]["id"] and lines["a1.vlog"][-1].live in live  # said when it went live
    assert lines["b1.vlog"][0].parent == sessions[1]["id"] and lines["b1.vlog"][0].file == 2

    alice_log = [e.seq for e in parse_transcript(chat_texts(files / "a1.vlog")) if e.recorded]
    assert alice_log == [1, 2, 3, 4, 5]  # every ruling at the board reached her log, Bob's too
    for files_sent in (["a1.vlog"], ["b1.vlog"], ["a1.vlog", "b1.vlog"], ["b1.vlog", "a1.vlog"]):
        report = log_check(server, game_id, observer, *(files / f for f in files_sent))
        assert report["ok"], (files_sent, json.dumps(report)[:3000])
        assert report["rerolls"] == [] and report["breaks"] == [] and report["hidden"] == []
    # The whole sitting: every ruling shown and every file continuing the one before, but #5 is #4
    # asked again (the same attack, both rolling) at the very position #4 was asked at, which Bob's
    # third log came back to: the positions as a history name it, though his second log shows #4.
    whole = log_check(server, game_id, observer, *(files / f for f in ("a1.vlog", "b1.vlog", "b2.vlog", "b3.vlog")))
    assert whole["breaks"] == [] and whole["hidden"] == [] and whole["missing_files"] == []
    assert not whole["ok"] and [(r["seq"], r["rewound"], r["file"]) for r in whole["rerolls"]] == [(5, [4], 4)], \
        whole["rerolls"]
    assert "the same situation as record #4" in whole["rerolls"][0]["why"]
    assert "b3.vlog comes back to it" in whole["rerolls"][0]["why"]
    assert all(r["status"] == "verified" for r in whole["rulings"])
    assert [r["seq"] for r in whole["rulings"] if r["rewind"]] == [5]  # its verdict in b3.vlog says so too
    chain = log_check(server, game_id, observer, files / "a1.vlog", files / "b1.vlog", files / "b3.vlog")
    assert not chain["ok"] and [r["seq"] for r in chain["rerolls"]] == [4], chain["rerolls"]
    assert "though a partner's log shows it" in chain["rerolls"][0]["why"]
    assert chain["breaks"] == []
    fog = "\n".join(line for line in chat_texts(files / "a1.vlog") if "#2]" in line)  # Bob's supply, in Alice's log
    assert not re.search(r"\b\d SP\b", fog)


def test_the_game_state_sent_live_never_carries_a_players_log_session(sitting):
    files = sitting["files"]
    for path in ("a1.vlog", "b1.vlog", "b2.vlog", "b3.vlog"):
        states = [c for c in read_saved_game(files / path).other_commands if c.startswith("korea.adjudicator.game\t")]
        first, later = json.loads(states[0].split("\t", 1)[1]), [json.loads(s.split("\t", 1)[1]) for s in states[1:]]
        assert "log_session" in first, path  # the log's beginning: its own session
        assert all("log_session" not in s for s in later), path  # changes sent live: no one's session


# -- SPI's Campaign Game: two players, one drops and returns -----------------------------------------

SPI_ROOM = "SPI at one board"


@pytest.fixture(scope="module")
def spi_sitting(engine, engine_module, server, vassal, tmp_path_factory) -> dict:
    """Alice (Communist) attacks a ROK regiment (#1: eliminated, applied by her, the regiment not
    hidden in SPI) while Bob watches it leave his board; Bob asks his side's supply (#2) and drops;
    Alice asks hers (#3); Bob comes back, synchronises, begins his second log and gets #3 from the
    ledger."""
    files = tmp_path_factory.mktemp("live-spi")
    attack = adjacent_combat("spi", "campaign")
    attacker, regiment = attack.attackers[0], attack.defender
    game = attack.game
    own = next(u for u in setup_hexes(game, attack.scenario) if game.units[u].side == "un" and u != regiment)  # Bob's
    tokens, game_id = recorded_game(server, "spi", attack.scenario.id)
    at = {"host": "127.0.0.1", "port": vassal.port}
    form = "^Adjudicator: Combat"

    a = Script()
    add(a, [*sign_in("Alice"), *start_scenario(attack.scenario.name, game.sides["communist"].name, files / "a1.vlog"),
            *connect_dialog(server.url), *join_dialog(tokens["communist"], game_id),
            {"do": "server_connect", **at}, {"do": "room_create", "name": SPI_ROOM}, {"do": "signal", "name": "room"},
            {"do": "wait_chat", "match": rf"Adjudicator: the {game.sides['un'].name} player joined recorded game", "timeout": 300},
            *select(attacker), menu_of(regiment, "Adjudicator/Attack this hex with the selected units"),
            {"do": "wait_window", "window": form}, {"do": "choose", "window": form, "field": "/table", "item": "meeting"},
            *submit_form("Combat"),
            {"do": "wait_chat", "match": r"#1\] receipt: record 1 "},
            {"do": "wait_window", "window": "apply the ruling"}, {"do": "click", "window": "apply the ruling", "on": "Yes"},
            {"do": "wait_chat", "match": r"#2\] receipt: record 2 ", "timeout": 120},
            {"do": "wait_room", "players": 1, "timeout": 120},
            menu_of(attacker, "Adjudicator/Supply of this side"),
            {"do": "wait_window", "window": "^Adjudicator: Supply"}, *submit_form("Supply"),
            {"do": "wait_chat", "match": r"#3\] receipt: record 3 "},
            {"do": "click_if", "window": "apply the ruling", "on": "Yes", "timeout": 3},
            {"do": "signal", "name": "asked-3"},
            {"do": "wait_signal", "name": "bob-done", "timeout": 600},
            *end_log()])

    b = Script()
    add(b, [*sign_in("Bob"), {"do": "wait_signal", "name": "room", "timeout": 300},
            {"do": "server_connect", **at}, {"do": "room_join", "name": SPI_ROOM},
            *take_side(game.sides["un"].name), *log_prompt(files / "b1.vlog"),
            *join_dialog(tokens["un"]),
            {"do": "wait_piece", "piece": {"id": regiment}, "map": "Boxes", "timeout": 180, "mark": "eliminated"},
            menu_of(own, "Adjudicator/Supply of this side"),
            {"do": "wait_window", "window": "^Adjudicator: Supply"}, *submit_form("Supply"),
            {"do": "wait_chat", "match": r"#2\] receipt: record 2 "},
            {"do": "click_if", "window": "apply the ruling", "on": "Yes", "timeout": 3},
            {"do": "server_disconnect"},
            {"do": "wait_signal", "name": "asked-3", "timeout": 300},
            {"do": "server_connect", **at}, *synchronise(files / "b2.vlog", saved=True, room=SPI_ROOM),
            {"do": "wait_chat", "match": r"#3\] RULING", "timeout": 60},
            {"do": "signal", "name": "bob-done"},
            *end_log()])

    alice, bob = run_engines([Player(engine_module("spi"), a.steps, files / "alice", 900),
                              Player(engine_module("spi"), b.steps, files / "bob", 900)], files / "signals")
    failed = [f"{who}: {explain(run)}" for who, run in (("Alice", alice), ("Bob", bob)) if not run.ok]
    assert not failed, "\n".join(failed)
    return {"files": files, "game_id": game_id, "tokens": tokens, "attack": attack, "alice": (alice, a), "bob": (bob, b)}


def test_spi_two_players_at_one_board_both_logs_pass(spi_sitting, server):
    files, game_id, observer = spi_sitting["files"], spi_sitting["game_id"], spi_sitting["tokens"]["observer"]
    assert result(spi_sitting, "bob", "eliminated")["map"] == "Boxes"  # Alice's Eliminate reached his board
    assert re.search(r"ruling #3 of recorded game \S+ was posted while you were not at the board", chat_of(spi_sitting, "bob"))
    assert [e.seq for e in parse_transcript(chat_texts(files / "b2.vlog")) if e.recorded] == [3]  # in his second log
    assert 3 not in [e.seq for e in parse_transcript(chat_texts(files / "b1.vlog"))]  # not the log his return ended
    rulings = [r for r in ledger(server, game_id, observer)["records"] if not r["body"]["check"].startswith("game.")]
    assert [(r["seq"], r["body"]["side"]) for r in rulings] == [(1, "communist"), (2, "un"), (3, "communist")]
    assert len({r["body"]["session"]["live"] for r in rulings}) == 1 and rulings[0]["body"]["session"]["live"]
    for files_sent in (["a1.vlog"], ["b1.vlog"], ["b2.vlog"], ["a1.vlog", "b1.vlog", "b2.vlog"]):
        report = log_check(server, game_id, observer, *(files / f for f in files_sent))
        assert report["ok"], (files_sent, json.dumps(report)[:3000])
        assert report["rerolls"] == [] and report["breaks"] == [] and report["hidden"] == []
    for path in ("a1.vlog", "b1.vlog", "b2.vlog"):
        states = [c for c in read_saved_game(files / path).other_commands if c.startswith("korea.adjudicator.game\t")]
        assert all("log_session" not in json.loads(c.split("\t", 1)[1]) for c in states[1:]), path
