"""The Adjudicator extension end to end, in the real VASSAL 3.7.26 engine (`make vassal-e2e`).

A real adjudicator (gunicorn on a loopback port, a temporary SQLite file) and each game's
module built by modgen: the engine opens the module, starts a setup, takes the attacker's side,
and through the extension connects, creates a recorded game, resolves a combat of units that
stand adjacent in the setup and a supply report for that side, while writing a log. Then: the
chat shows the server's transcript with the receipts, the ledger holds exactly those records and
verifies, the log read back with vassalfmt holds the same lines, no token is in any file, and
(with the server stopped) a check gives a dialog and puts nothing into the log.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
import requests

from adjudicator.checks import get_check
from adjudicator.transcript import comparable_lines, parse_transcript
from bench.server import Gunicorn
from scenarios import load_game
from tests.engine.play import adjacent_combat, call, kept_tokens, player_fields
from vassalfmt import read_saved_game
from vassalfmt.savedgame import deobfuscate

pytestmark = pytest.mark.engine

GAMES = ("kwb", "spi", "holdfast", "fireandice")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Gunicorn(workdir=tmp_path_factory.mktemp("adjudicator")).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def systems(server) -> dict:
    return {s["id"]: s for s in requests.get(server.url + "/api/v1/systems", timeout=30).json()["systems"]}


def decoded_files(*paths: Path) -> str:
    """Every entry of these saved games and logs as text, the game's commands decoded."""
    texts = []
    for path in paths:
        with zipfile.ZipFile(path) as archive:
            for name in archive.namelist():
                data = archive.read(name)
                texts.append(deobfuscate(data) if name == "savedGame" else data.decode("utf-8", "replace"))
    return "\n".join(texts)


def chat_texts(log_path: Path) -> list[str]:
    """The chat lines a .vlog carries, read back with vassalfmt (its CHAT commands)."""
    return [c[len("CHAT"):] for c in read_saved_game(log_path).other_commands if c.startswith("CHAT")]


class Played:
    """One game played through the extension in one engine run: the run, its files, and which
    step did what (``at["combat"]`` is the index of the step asking the combat)."""

    def __init__(self, game_id: str, files: Path, combat):
        self.game_id = game_id
        self.files = files
        self.combat = combat  # tests.engine.play.Combat: the setup's units that fight
        self.steps: list[dict] = []
        self.at: dict[str, int] = {}
        self.run = None

    def add(self, step: dict, name: str = "") -> None:
        if name:
            self.at[name] = len(self.steps)
        self.steps.append(step)

    def answer(self, name: str) -> dict:
        return self.run.result(self.at[name])["returned"]


@pytest.fixture(scope="module")
def played(engine, engine_module, server, systems, tmp_path_factory) -> dict[str, Played]:
    """Each game played once through the extension (one engine run each), by game id: the
    extension's calls (connect, create, combat, supply), then the menus as a player uses them
    (right-click a unit, choose the entry, press OK in the form)."""
    runs = {}
    for game_id in GAMES:
        combat = adjacent_combat(game_id)
        attackers = [{"id": a} for a in combat.attackers]
        fields = player_fields(systems[game_id], "combat")
        p = Played(game_id, tmp_path_factory.mktemp(f"e2e-{game_id}"), combat)
        p.add({"do": "setup", "name": combat.scenario.name})
        p.add({"do": "side", "side": combat.attacking_side})
        p.add(call("connect", server.url), "connect")
        p.add(call("createRecordedGame", "", ""), "create")
        p.add({"do": "log_begin", "file": str(p.files / "game.vlog")})
        p.add({"do": "select", "pieces": attackers})
        p.add(call("check", "combat", combat.defender, json.dumps(fields)), "combat")
        p.add(call("check", "supply", combat.attackers[0], "{}"), "supply")
        # the same through the menus: a right-click on an own unit, "Supply of this side", OK
        p.add({"do": "answer", "answers": [{"title": "^Adjudicator: Supply$", "button": "OK"}]})
        p.add({"do": "right_click", "piece": attackers[0], "choose": "Adjudicator/Supply of this side"}, "menu supply")
        p.add({"do": "wait_chat", "match": r"#3\] receipt: record 3 "})
        if not fields:  # a combat the board fills entirely: select, right-click the enemy, "Attack ...", OK
            p.add({"do": "select", "pieces": attackers})
            p.add({"do": "answer", "answers": [{"title": "^Adjudicator: Combat$", "button": "OK"}]})
            p.add({"do": "right_click", "piece": {"id": combat.defender},
                   "choose": "Adjudicator/Attack this hex with the selected units"}, "menu combat")
            p.add({"do": "wait_chat", "match": r"#4\] receipt: record 4 "})
        else:  # the menu offers the combat on the enemy unit (the form needs what the player knows)
            p.add({"do": "right_click", "piece": {"id": combat.defender}, "shift": True}, "menu combat")
        p.add(call("check", "supply", combat.attackers[0], '{"no_such_field": 1}'), "refused")
        p.add({"do": "log_end"})
        p.add({"do": "save", "file": str(p.files / "game.vsav")})
        p.run = engine(engine_module(game_id), p.steps, timeout=240, prefs_dir=p.files / "prefs")
        runs[game_id] = p
    return runs


def expected_records(p: Played) -> list[str]:
    """The ledger records the run asked for, in order (after the game's creation)."""
    checks = ["combat", "supply", "supply"] + (["combat"] if "choose" in p.steps[p.at["menu combat"]] else [])
    return [f"{p.game_id}.{c}" for c in checks]


@pytest.mark.parametrize("game_id", GAMES)
def test_checks_through_the_extension_post_the_servers_transcript(played, game_id):
    p = played[game_id]
    assert p.run.ok, p.run.failure()
    problems = [x for x in p.run.problems() if x.get("answered") != "OK"]  # but the forms answered
    assert [(x["step"], x["title"]) for x in problems] == [(p.at["refused"], "Adjudicator: The request body is invalid")]
    created = p.answer("create")
    assert created["ok"] and created["side"] == load_game(game_id).scenarios[created["scenario"]].first_player
    for name, seq in (("combat", 1), ("supply", 2)):
        answer = p.answer(name)
        assert answer["ok"], answer
        assert answer["seq"] == seq
        assert p.run.step(p.at[name])["chat"] == answer["lines"]  # posted as the server wrote them
        tag = f"[ADJ {created['game_id']}#{seq}]"
        assert all(line.startswith(tag) for line in answer["lines"])
        assert any(line.startswith(f"{tag} receipt: record {seq} hash ") for line in answer["lines"])
        assert any(line.startswith(f"{tag} verify: ") for line in answer["lines"])
        assert any(line.startswith(f"{tag} 1. ") for line in answer["lines"])  # the steps, with rules


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "fireandice"])  # its combat takes no turn
def test_the_board_fills_the_turn_the_scenarios_tracker_level_shows(played, game_id):
    """The module's one turn tracker shows the setup's scenario level at its first turn; a
    check with a turn role gets it from there."""
    p = played[game_id]
    turn_field = get_check(game_id, "combat").top_level_field("turn")
    assert turn_field is not None
    assert p.answer("combat")["request"][turn_field] == p.combat.scenario.turns[0].number


@pytest.mark.parametrize("game_id", GAMES)
def test_a_refused_request_is_a_dialog_with_the_servers_problem_and_nothing_in_the_chat(played, game_id):
    p = played[game_id]
    answer = p.answer("refused")
    assert answer["ok"] is False and answer["title"] == "The request body is invalid"
    (dialog,) = p.run.step(p.at["refused"])["dialogs"]
    assert dialog["title"] == "Adjudicator: The request body is invalid" and "no_such_field" in dialog["text"]
    assert p.run.step(p.at["refused"])["chat"] == []


@pytest.mark.parametrize("game_id", GAMES)
def test_the_right_click_menu_offers_the_checks_and_asks_them_through_the_form(played, systems, game_id):
    p = played[game_id]
    combat = next(c for c in systems[game_id]["checks"] if c["name"] == "combat")
    roles = {prop.get("x-board") for prop in combat["request_schema"]["properties"].values()}
    # Fire and Ice's combat takes the combat's levels, not the attacking units: "in this hex"
    expected = "Attack this hex with the selected units" if "attackers" in roles else "Combat in this hex"
    assert f"Adjudicator/{expected}" in p.run.result(p.at["menu combat"])["items"]
    assert "Adjudicator/Supply of this side" in p.run.result(p.at["menu supply"])["items"]
    forms = [d for d in p.run.report["dialogs"] if d.get("answered") == "OK"]
    assert forms and forms[0]["title"] == "Adjudicator: Supply" and "From the board:" in forms[0]["text"]
    assert "positions:" in forms[0]["text"]  # the board's part, shown


def test_attack_from_the_menu_uses_the_units_selected_before_the_click(played, server):
    """KWB's combat needs nothing but the board: right-clicking the enemy unit selects it alone,
    and the attackers are the units selected before the click."""
    p = played["kwb"]
    created = p.answer("create")
    other = next(iter(created["tokens_for_others"].values()))
    ledger = requests.get(f"{server.url}/api/v1/games/{created['game_id']}/ledger",
                          headers={"Authorization": f"Bearer {other}"}, timeout=30).json()
    menu_combat = ledger["records"][4]["body"]
    assert menu_combat["check"] == "kwb.combat"
    assert [a["unit"] for a in menu_combat["request"]["attackers"]] == p.combat.attackers
    assert [d["unit"] for d in menu_combat["request"]["defenders"]][0] == p.combat.defender


@pytest.mark.parametrize("game_id", GAMES)
def test_the_ledger_holds_exactly_those_records_and_verifies(played, server, systems, game_id):
    p = played[game_id]
    created = p.answer("create")
    other = next(iter(created["tokens_for_others"].values()))
    ledger = requests.get(f"{server.url}/api/v1/games/{created['game_id']}/ledger",
                          headers={"Authorization": f"Bearer {other}"}, timeout=30).json()
    assert [r["body"]["check"] for r in ledger["records"]] == ["game.created", *expected_records(p)]
    report = requests.post(f"{server.url}/api/v1/verify", json={"ledger": ledger}, timeout=30).json()
    assert report["ok"], report["problems"]
    rulings = parse_transcript(p.run.chat())
    assert [(r.game_id, r.seq) for r in rulings] == [(created["game_id"], n) for n in range(1, len(ledger["records"]))]
    for ruling, record in zip(rulings, ledger["records"][1:]):
        assert ruling.hash_prefix and record["hash"].startswith(ruling.hash_prefix)
        assert ruling.comparable() == comparable_lines(as_answered(record, created["game_id"]),
                                                       system_name=systems[game_id]["name"])


def as_answered(record: dict, game_id: str) -> dict:
    """A ledger record as the server answered its check (what the chat lines render)."""
    body = record["body"]
    system, _, name = body["check"].partition(".")
    return {"system": system, "check": name, "rule": get_check(system, name).rule, **body["result"],
            "game_id": game_id, "seq": record["seq"], "hash": record["hash"], "side": body["side"],
            "receipt": record["receipt"]}


@pytest.mark.parametrize("game_id", GAMES)
def test_the_log_holds_the_chat_lines_and_no_file_holds_a_token(played, game_id):
    p = played[game_id]
    assert [line for line in chat_texts(p.files / "game.vlog") if line.startswith("[ADJ")] == \
        [line for line in p.run.chat() if line.startswith("[ADJ")]
    created = p.answer("create")
    tokens = set(created["tokens_for_others"].values()) | set(kept_tokens(p.files / "prefs"))
    assert len(tokens) == len(created["tokens_for_others"]) + 1, "this side's token is kept in the preferences"
    written = decoded_files(p.files / "game.vlog", p.files / "game.vsav")
    seen = "\n".join(p.run.chat() + [d["text"] + d["title"] for d in p.run.report["dialogs"]])
    for token in tokens:
        assert token not in written and token not in seen


def test_a_stopped_server_gives_a_dialog_and_nothing_in_the_log(played, engine, engine_module, server):
    """After the server stops, the same player (same preferences: the recorded game is still
    joined) asks a combat: a dialog says the adjudicator cannot be reached; the log gets nothing."""
    game_id = "kwb"
    p = played[game_id]
    files, attackers, defender = p.files, p.combat.attackers, p.combat.defender
    server.stop()
    run = engine(engine_module(game_id), [
        {"do": "load", "file": str(files / "game.vsav")},
        {"do": "log_begin", "file": str(files / "after.vlog")},
        {"do": "chat", "text": "asking for the combat"},
        {"do": "select", "pieces": [{"id": a} for a in attackers]},
        call("check", "combat", defender, "{}"),
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
    assert not [line for line in logged if "[ADJ" in line]
