"""A first turn at the table in the real VASSAL 3.7.26 Player (issue 45): two players, real mouse and key
events (tests/engine/play.py, docs/engine-harness.md), a real adjudicator (gunicorn, a temporary SQLite file).

* Fire and Ice's Invasion (16.0: "South Korea (all units start spent - HQs are fresh)"; "North Korea (all
  units start fresh)"): the UN player selects ROK 6 (spent, 3043) and attacks NK 2 (3042): the form shows the
  refusal in the rulebook's words and nothing is asked; the Communist selects NK 2 and attacks ROK 6: the
  ruling names both units and hexes, and its levels are the Support Level Track's.
"""

from __future__ import annotations

import re

import pytest
import requests

from bench.server import Gunicorn
from tests.engine.play import Script, call, menu_of, select, sign_in, start_scenario, submit_form

pytestmark = pytest.mark.engine

FORM = "^Adjudicator: Combat"
#: The Invasion's Support Level Track (16.0; the setup's markers).
INVASION_LEVELS = {"communist_tank_level": 6, "communist_artillery_level": 4, "communist_air_level": 4,
                   "un_tank_level": 0, "un_artillery_level": 0, "un_air_level": 0, "un_bombardment_level": 0}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Gunicorn(workdir=tmp_path_factory.mktemp("adjudicator")).start()
    yield running
    running.stop()


def explain(run) -> str:
    shown = []
    for entry in run.steps[-6:]:
        shown.append(f"{entry.get('do')}: {entry.get('error') or ''}")
        shown += [f"   chat: {line}" for line in entry.get("chat", [])]
        shown += [f"   dialog: {d.get('title')}: {str(d.get('text'))[:300]}" for d in entry.get("dialogs", [])]
    return run.failure() + "\n" + "\n".join(shown)


@pytest.fixture(scope="module")
def un_declares_with_a_spent_unit(engine, engine_module, server, tmp_path_factory) -> dict:
    """Bob takes the UN in the Invasion, selects ROK 6 and attacks NK 2 through the right-click menu."""
    files = tmp_path_factory.mktemp("fi-un")
    s = Script()
    s.add(*sign_in("Bob"))
    s.add(*start_scenario("Invasion", "UN", None))
    s.add(call("connect", server.url))
    s.add(*select("rok-6"))
    s.add(menu_of("nk-2", "Adjudicator/Attack this hex with the selected units"))
    s.add({"do": "wait_window", "window": FORM}, name="form")
    s.add({"do": "choose", "window": FORM, "field": "/combat_type", "item": "Hasty Attack"})
    s.add({"do": "type", "window": FORM, "field": "/dice", "text": "5, 4"})
    s.add({"do": "click", "window": FORM, "on": "OK"})
    s.add({"do": "wait_window", "window": "(?s)^Adjudicator: Combat.*shows its spent side"}, name="refused")
    s.add({"do": "click", "window": FORM, "on": "Cancel"})
    s.add({"do": "wait_window", "window": FORM, "gone": True})
    run = engine(engine_module("fireandice"), s.steps, timeout=600, prefs_dir=files / "prefs")
    assert run.ok, explain(run)
    return {"run": run, "script": s}


def test_a_spent_unit_is_refused_in_the_form_in_the_rulebooks_words(un_declares_with_a_spent_unit):
    run, s = un_declares_with_a_spent_unit["run"], un_declares_with_a_spent_unit["script"]
    form = run.result(s.at["form"])["text"]
    assert "UN Tank Support level" not in form  # the levels are the track's, not typed
    refused = run.result(s.at["refused"])["text"]
    assert "ROK 6 (3043) shows its spent side and may not declare a combat" in refused
    assert "no longer available to be active" in refused and "He can't do anything else" in refused
    assert not [line for line in run.chat() if "[ADJ" in line and "RULING" in line]  # nothing ruled


@pytest.fixture(scope="module")
def communist_attacks(engine, engine_module, server, tmp_path_factory) -> dict:
    """Alice takes the Communists in the Invasion, selects NK 2 and attacks ROK 6: a calculation with her
    own dice (the chit chosen, D10 7 for her, D6 2 for the spent defender)."""
    files = tmp_path_factory.mktemp("fi-com")
    s = Script()
    s.add(*sign_in("Alice"))
    s.add(*start_scenario("Invasion", "Communists", None))
    s.add(call("connect", server.url))
    s.add(*select("nk-2"))
    s.add(menu_of("rok-6", "Adjudicator/Attack this hex with the selected units"))
    s.add({"do": "wait_window", "window": FORM}, name="form")
    s.add({"do": "choose", "window": FORM, "field": "/combat_type", "item": "Hasty Attack"})
    s.add({"do": "choose", "window": FORM, "field": "/chit", "item": "H01"})
    s.add({"do": "type", "window": FORM, "field": "/dice", "text": "7, 2"})
    s.add(*submit_form("Combat"))
    s.add({"do": "wait_chat", "match": r"^\[ADJ compute\] RULING"}, name="ruling")
    s.add({"do": "click_if", "window": "apply the ruling", "on": "No"})
    run = engine(engine_module("fireandice"), s.steps, timeout=600, prefs_dir=files / "prefs")
    assert run.ok, explain(run)
    return {"run": run, "script": s}


def test_a_fresh_unit_is_ruled_with_its_units_named_and_the_tracks_levels(communist_attacks):
    run, s = communist_attacks["run"], communist_attacks["script"]
    form = run.result(s.at["form"])["text"]
    assert "Combat declared" in form and "Defender's die (the defender's choice: ask them)" in form
    lines = [line for line in run.chat() if line.startswith("[ADJ compute]")]
    assert re.search(r"RULING Combat[^:]*: NK 2 \(3042\) attacks ROK 6 \(3043\): 9 against 2: the Communist wins, "
                     r"spread 5", lines[0]), lines[0]
    assert any("Defender rolls D6: 2 (a spent defender rolls a D6)" in line for line in lines)
    assert not any("and becomes spent" in line for line in lines)
