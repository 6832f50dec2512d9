"""Menus that offer only what applies, in the real VASSAL 3.7.26 Player (issue 51), played as a
person plays (real mouse and key events: tests/engine/play.py).

Fire and Ice, the UN player in a recorded Campaign Game: before the ledger holds a successful
Atomic Release roll, neither the toolbar's checks nor a right-click on an enemy unit offer the
Atomic Strike (10.3.4: "after Atomic Release"); once his roll succeeds (the dice chosen), both do.
"""

from __future__ import annotations

import pytest

from adjudicator.checks import get_check
from adjudicator.testing import seed_for, seeds_env
from bench.server import Gunicorn
from tests.engine.play import Script, adjacent_combat, call, menu_of, sign_in, start_scenario

pytestmark = pytest.mark.engine

RELEASE = {"communist_vp": 16}


def explain(run) -> str:
    shown = []
    for entry in run.steps[-6:]:
        shown.append(f"{entry.get('do')}: {entry.get('error') or ''}")
        shown += [f"   dialog: {d.get('title')}: {str(d.get('text'))[:300]}" for d in entry.get("dialogs", [])]
    return run.failure() + "\n" + "\n".join(shown)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    release = get_check("fireandice", "atomic_release")
    seed = seed_for((release, {**RELEASE, "scenario": "campaign"}, lambda o: o["success"] is True, 1))
    running = Gunicorn(workdir=tmp_path_factory.mktemp("menus-adjudicator"), app="adjudicator.testing:make_test_app()",
                       extra_env=seeds_env({"fireandice/campaign": seed})).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def un_player(engine, engine_module, server, tmp_path_factory) -> dict:
    files = tmp_path_factory.mktemp("fireandice-un")
    combat = adjacent_combat("fireandice", "campaign", side="un")
    checks = {"do": "toolbar_click", "button": "Adjudicator", "path": ["Checks"], "read": True}
    s = Script()
    s.add(*sign_in("Alice"))
    s.add(*start_scenario(combat.scenario.name, "UN", None))
    s.add(call("connect", server.url), call("createRecordedGame", "", ""), name="created")
    s.add(checks, name="checks before")
    s.add(menu_of(combat.defender), name="enemy before")
    s.add(call("check", "atomic_release", "", '{"communist_vp": 16}'), name="release")
    s.add(checks, name="checks after")
    s.add(menu_of(combat.defender), name="enemy after")
    run = engine(engine_module("fireandice"), s.steps, timeout=600, prefs_dir=files / "prefs")
    assert run.ok, explain(run)
    return {"run": run, "script": s}


def test_an_atomic_strike_is_offered_only_after_a_successful_atomic_release(un_player):
    run, s = un_player["run"], un_player["script"]
    assert run.result(s.at["release"])["returned"]["ok"], run.result(s.at["release"])
    before, after = run.result(s.at["checks before"])["items"], run.result(s.at["checks after"])["items"]
    assert any(i.startswith("Atomic release (") for i in before), before  # the roll itself is offered
    assert not [i for i in before if i.startswith("Atomic strike")], before
    assert "Atomic strike (10.3.4)" in after, after
    strike = "Adjudicator/Atomic strike in this hex"
    assert strike not in run.result(s.at["enemy before"])["items"]
    assert strike in run.result(s.at["enemy after"])["items"], run.result(s.at["enemy after"])["items"]
