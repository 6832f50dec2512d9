"""A rewind in the real VASSAL 3.7.26 Player is named (issue 50): a save taken in the middle of a log
loaded again, and VASSAL's Undo back over a ruling.

A real adjudicator (gunicorn, a temporary SQLite file) whose games' dice are chosen: NK 83's attack on
US 27/25 (KWB, Pusan) is an AD the first time (NK 83 depleted). Alice, through the Adjudicator
extension, creates the recorded game, begins a log, moves the NK 1 HQ, saves the game (File > Save
Game As while the log runs), attacks (#1) and flips NK 83 as the ruling orders (its Step loss), ends
the log. Then she loads that save, begins a new log and attacks again (#2): the log check of her two
files names #2 a re-roll of #1, shown in her first file. In a second game she attacks (#1), flips NK 83,
presses VASSAL's Undo (the flip taken back) and attacks again (#2): her one file names #2 a re-roll.
And the observer's token, joined in VASSAL, lists the game's rulings (read-only). Skipped without
VASSAL_ENGINE_JAR.
"""

from __future__ import annotations

import io
import json

import pytest
import requests

from tests.engine.play import call
from tests.engine.pusan_attack import attack, server  # noqa: F401 (fixtures)

pytestmark = pytest.mark.engine

PROPS = ["UnitId", "Step_Level"]


def log_check(server, game_id: str, token: str, *paths) -> dict:
    files = [("file", (path.name, io.BytesIO(path.read_bytes()))) for path in paths]
    answer = requests.post(f"{server.url}/api/v1/games/{game_id}/savedgame/log-check", files=files,
                           headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert answer.status_code == 200, answer.text
    return answer.json()


def opening(server_url: str, log) -> list[dict]:
    return [{"do": "setup", "name": "Pusan Perimeter"}, {"do": "side", "side": "Communist"},
            call("connect", server_url), call("createRecordedGame", "", ""), {"do": "log_begin", "file": str(log)}]


def attack_steps() -> list[dict]:
    return [{"do": "select", "pieces": [{"id": "nk-83-mot"}]},
            call("check", "combat", "us-27-25", json.dumps({"intensive": "none"})),
            {"do": "pieces", "properties": PROPS}]


def flip() -> dict:
    return {"do": "key", "piece": {"id": "nk-83-mot"}, "menu": "Step loss", "properties": PROPS}


def test_a_save_in_the_middle_of_a_log_loaded_again_is_named(engine, engine_module, server, tmp_path):
    module = engine_module("kwb")
    first = [*opening(server.url, tmp_path / "a1.vlog"),
             {"do": "move", "piece": {"id": "nk-1-hq"}, "to": {"map": "Map", "location": "2502"},
              "properties": PROPS},
             {"do": "save", "file": str(tmp_path / "mid.vsav")},
             *attack_steps(), flip(), {"do": "log_end"}]
    run = engine(module, first, timeout=300, prefs_dir=tmp_path / "alice")
    assert run.ok, run.failure()
    created = run.result(3)["returned"]
    second = [{"do": "load", "file": str(tmp_path / "mid.vsav")}, {"do": "side", "side": "Communist"},
              call("connect", server.url), {"do": "log_begin", "file": str(tmp_path / "a2.vlog")},
              *attack_steps(), {"do": "log_end"}]
    again = engine(module, second, timeout=300, prefs_dir=tmp_path / "alice")
    assert again.ok, again.failure()
    observer = created["tokens_for_others"]["observer"]
    report = log_check(server, created["game_id"], observer, tmp_path / "a1.vlog", tmp_path / "a2.vlog")
    rewinds = [(r["seq"], r["rewound"], r["rewound_in"]) for r in report["rerolls"] if r.get("shown")]
    assert rewinds == [(2, [1], ["a1.vlog"])], report
    assert report["rerolls"][0]["why"].startswith("re-roll: a2.vlog begins from a position the game had before record #1")
    assert log_check(server, created["game_id"], observer, tmp_path / "a1.vlog")["ok"]


def test_undo_back_over_a_ruling_is_named(engine, engine_module, server, tmp_path):
    module = engine_module("kwb")
    steps = [*opening(server.url, tmp_path / "turn.vlog"), *attack_steps(), flip(),
             {"do": "press", "text": "Undo last move"}, {"do": "pieces", "properties": PROPS},
             *attack_steps(), {"do": "log_end"}]
    run = engine(module, steps, timeout=300, prefs_dir=tmp_path / "alice")
    assert run.ok, run.failure()
    created = run.result(3)["returned"]
    report = log_check(server, created["game_id"], created["tokens_for_others"]["observer"], tmp_path / "turn.vlog")
    rewinds = [(r["seq"], r["rewound"]) for r in report["rerolls"] if r.get("shown")]
    assert rewinds == [(2, [1])], report
    assert "goes back to a position the game had before record #1" in report["rerolls"][0]["why"]


def test_the_observers_token_reads_the_games_rulings_in_vassal(engine, engine_module, server, tmp_path):
    """Carol, a late joiner with the observer's token, loads Alice's save: Join keeps her token (it
    reads, it rolls nothing), Rulings of this game lists Alice's ruling with its notices, and a
    check she asks is a calculation: nothing is recorded."""
    module = engine_module("kwb")
    alice = [*opening(server.url, tmp_path / "a1.vlog"), *attack_steps(), *attack_steps()[1:2],
             {"do": "save", "file": str(tmp_path / "a1.vsav")}, {"do": "log_end"}]
    run = engine(module, alice, timeout=300, prefs_dir=tmp_path / "alice")
    assert run.ok, run.failure()
    created = run.result(3)["returned"]
    observer = created["tokens_for_others"]["observer"]
    carol = [{"do": "load", "file": str(tmp_path / "a1.vsav")}, call("connect", server.url),
             call("joinRecordedGame", created["game_id"], observer),
             call("rulingsOfThisGame"),
             call("check", "supply", "nk-83-mot", "{}")]
    seen = engine(module, carol, timeout=300, prefs_dir=tmp_path / "carol")
    assert seen.ok, seen.failure()
    joined = seen.result(2)["returned"]
    assert joined["ok"] and joined["side"] == "observer", joined
    listed = seen.result(3)["returned"]
    assert listed["ok"] and [r["seq"] for r in listed["rulings"]] == [1, 2], listed
    assert any("notice: asked again: the same situation as record #1" in line for line in listed["rulings"][1]["lines"])
    assert any("as its observer" in line for line in seen.chat())
    records = requests.get(f"{server.url}/api/v1/games/{created['game_id']}/ledger",
                           headers={"Authorization": f"Bearer {observer}"}, timeout=30).json()["records"]
    assert len(records) == 3  # the game's own record and Alice's two: the observer's check recorded nothing
