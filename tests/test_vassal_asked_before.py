"""A repeat warned before the roll, in the real VASSAL 3.7.26 Player (issue 50).

A real adjudicator (gunicorn, a temporary SQLite file) whose games' dice are chosen: NK 83's attack on
US 27/25 (KWB, Pusan) is an AD the first time and an AR the second. Alice creates the recorded game,
selects NK 83 and attacks the hex through the defender's right-click menu: the form says nothing of
a repeat (its chances read), OK records #1 and she leaves the board as it was. She opens the same
combat's form again: before OK its top says "This situation was asked as record #1 (...); asking again
rolls again, and both players will see it." with an "Open #1" button, which opens ruling #1 in its
window. OK asks once more: Cancel and "Open #1" send nothing (the game still has one ruling), "Roll
again" records #2, which carries the notice "asked again: the same situation as record #1". Real
mouse and key events on the form (tests/engine/play.py); skipped without VASSAL_ENGINE_JAR.
"""

from __future__ import annotations

import re

import pytest
import requests

from tests.engine.play import Script, call, menu_of, select, submit_form
from tests.engine.pusan_attack import ATTACKER, DEFENDER, attack, server  # noqa: F401 (fixtures)

pytestmark = pytest.mark.engine

FORM = "^Adjudicator: Combat"
MODAL = r"^Adjudicator: asked before as record #1"
WARNING = (r"This situation was asked as record #1 \(Combat for Communist: .+?\); asking again rolls again, and both "
           r"players will see it\.")
RULING_1 = r"the ruling in full \(record #1\)"


def open_the_attack() -> list[dict]:
    """NK 83 selected with a click, "Attack this hex with the selected units" on US 27/25's menu: the form, filled."""
    return [*select(ATTACKER), menu_of(DEFENDER, "Adjudicator/Attack this hex with the selected units"),
            {"do": "wait_window", "window": FORM}]


def ruling_one_opened() -> list[dict]:
    """Ruling #1's window (fetched from the ledger), read and closed."""
    return [{"do": "wait_window", "window": RULING_1, "timeout": 60},
            {"do": "click", "window": RULING_1, "on": "Close"},
            {"do": "wait_window", "window": RULING_1, "gone": True}]


def test_a_repeat_is_warned_before_the_roll_and_rolled_only_when_the_player_says_so(engine, engine_module, server,
                                                                                   tmp_path):
    s = Script()
    s.add({"do": "setup", "name": "Pusan Perimeter"}, {"do": "side", "side": "Communist"},
          call("connect", server.url))
    s.add(call("createRecordedGame", "", ""), name="created")
    s.add({"do": "person", "on": True})
    s.add(*open_the_attack())
    s.add({"do": "click", "window": FORM, "on": "chances"})
    s.add({"do": "wait_window", "window": f"(?s){FORM}.*Expected losses", "timeout": 60}, name="new situation")
    s.add(*submit_form("Combat"))
    s.add({"do": "wait_chat", "match": r"#1\] receipt: record 1 "}, name="ruling 1")
    s.add({"do": "click_if", "window": "apply the ruling", "on": "No", "timeout": 10})  # the board stays as it was
    # the same combat asked again: warned before OK, from the form's own lookup as it opens filled
    s.add(*open_the_attack())
    s.add({"do": "wait_window", "window": f"(?s){FORM}.*{WARNING}", "timeout": 60}, name="warned")
    s.add({"do": "click", "window": FORM, "on": "open asked before"}, name="open from the warning")
    s.add(*ruling_one_opened())
    s.add({"do": "click", "window": FORM, "on": "OK"})
    s.add({"do": "wait_window", "window": MODAL, "timeout": 60}, name="asked once more")
    s.add({"do": "click", "window": MODAL, "on": "Cancel"})
    s.add({"do": "wait_window", "window": MODAL, "gone": True})
    s.add({"do": "read_window", "window": FORM}, name="cancelled")
    s.add({"do": "click", "window": FORM, "on": "OK"})
    s.add({"do": "wait_window", "window": MODAL, "timeout": 60})
    s.add({"do": "click", "window": MODAL, "on": "Open #1"}, name="open from the question")
    s.add(*ruling_one_opened())
    s.add(call("rulingsOfThisGame"), name="after open")
    s.add({"do": "read_window", "window": FORM}, name="form after open")
    s.add({"do": "click", "window": FORM, "on": "OK"})
    s.add({"do": "wait_window", "window": MODAL, "timeout": 60})
    s.add({"do": "click", "window": MODAL, "on": "Roll again"})
    s.add({"do": "wait_window", "window": FORM, "gone": True, "timeout": 60})
    s.add({"do": "wait_chat", "match": r"#2\] receipt: record 2 "}, name="ruling 2")
    s.add({"do": "wait_window", "window": "Adjudicator: notice"}, name="notice")
    s.add({"do": "click", "window": "Adjudicator: notice", "on": "OK"})
    s.add({"do": "click_if", "window": "apply the ruling", "on": "No", "timeout": 10})
    run = engine(engine_module("kwb"), s.steps, timeout=600, prefs_dir=tmp_path / "alice")
    assert run.ok, run.failure()

    new = run.result(s.at["new situation"])["text"]
    assert "asked as record" not in new and "Open #" not in new  # a new situation: no warning
    warned = run.result(s.at["warned"])["text"]
    assert re.search(WARNING + r" Open #1 to read it instead, or press OK to roll again\.", warned), warned
    assert "[Open #1]" in warned or "Open #1" in warned
    assert re.search(WARNING, run.result(s.at["asked once more"])["text"])
    assert "[Roll again]" in run.result(s.at["asked once more"])["text"]
    assert re.search(WARNING, run.result(s.at["cancelled"])["text"])  # Cancel: the form stays, still warned
    listed = run.result(s.at["after open"])["returned"]
    assert listed["ok"] and [r["seq"] for r in listed["rulings"]] == [1], listed  # Cancel and Open #1 sent no roll

    created = run.result(s.at["created"])["returned"]
    records = requests.get(f"{server.url}/api/v1/games/{created['game_id']}/ledger", timeout=30,
                           headers={"Authorization": f"Bearer {created['tokens_for_others']['observer']}"}).json()["records"]
    rulings = [r for r in records if not r["body"]["check"].startswith("game.")]
    assert [(r["seq"], r["body"]["result"]["outcome"]["result"]) for r in rulings] == [(1, "AD"), (2, "AR")]
    assert rulings[0]["body"]["result"].get("notices", []) == []
    repeats = [n for n in rulings[1]["body"]["result"]["notices"] if n["kind"] == "repeat"]  # (beside NK 83's step)
    assert repeats == [{"kind": "repeat", "record": 1, "text": "asked again: the same situation as record #1"}]
    assert "asked again: the same situation as record #1" in run.result(s.at["notice"])["text"]
