"""Menus that offer only what applies, in the real VASSAL 3.7.26 Player (issue 51), played as a
person plays (real mouse and key events: tests/engine/play.py).

Fire and Ice, the UN player in a recorded Campaign Game: before the ledger holds a successful
Atomic Release roll, neither the toolbar's checks nor a right-click on an enemy unit offer the
Atomic Strike (10.3.4: "after Atomic Release"); once his roll succeeds (the dice chosen), both do.

Fire and Ice's Invasion (16.0: the South Korean units start spent, the North Korean fresh), a recorded
game: the Communist's fresh NK 2 is offered Declare combat and no losses (no combat yet); NK 2 beats
ROK 6 (the dice chosen), and the winner is still offered no losses. The same player then joins with the
UN's token and takes the UN's side: his ROK 6, which lost, is offered its Combat losses, and no Declare
combat (it shows its spent side).
"""

from __future__ import annotations

import pytest
import requests

from adjudicator.checks import get_check
from adjudicator.testing import seed_for, seeds_env
from bench.server import Gunicorn
from tests.engine.play import (
    Script, adjacent_combat, board_request, call, menu_of, select, sign_in, start_scenario, submit_form,
)
from tests.test_vassal_extension_e2e import explain

pytestmark = pytest.mark.engine

RELEASE = {"communist_vp": 16}


@pytest.fixture(scope="module")
def server(tmp_path_factory, modules):
    release = get_check("fireandice", "atomic_release")
    released = seed_for((release, {**RELEASE, "scenario": "campaign"}, lambda o: o["success"] is True, 1))
    setup = modules[("fireandice", 1)][2]["setups/invasion.vsav"]
    fight = board_request("fireandice", "invasion", setup, "combat", "communist", ["nk-2"], "3043",
                          {"combat_type": "Hasty Attack"})
    won = seed_for((get_check("fireandice", "combat"), fight, lambda o: o["winner_side"] == "communist", 1))
    running = Gunicorn(workdir=tmp_path_factory.mktemp("menus-adjudicator"), app="adjudicator.testing:make_test_app()",
                       extra_env=seeds_env({"fireandice/campaign": released, "fireandice/invasion": won})).start()
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


@pytest.fixture(scope="module")
def invasion(engine, engine_module, server, tmp_path_factory) -> dict:
    files = tmp_path_factory.mktemp("fireandice-invasion")
    game = requests.post(f"{server.url}/api/v1/games", json={"system": "fireandice", "scenario": "invasion"}, timeout=30).json()
    form = "^Adjudicator: Combat"
    s = Script()
    s.add(*sign_in("Alice"))
    s.add(*start_scenario("Invasion", "Communists", None))
    s.add(call("connect", server.url), call("joinRecordedGame", game["game_id"], game["tokens"]["communist"]), name="joined")
    s.add(menu_of("nk-2"), name="fresh unit before")
    s.add(*select("nk-2"))
    s.add(menu_of("rok-6", "Adjudicator/Attack this hex with the selected units"))
    s.add({"do": "wait_window", "window": form})
    s.add({"do": "choose", "window": form, "field": "/combat_type", "item": "Hasty Attack"})
    s.add(*submit_form("Combat"))
    s.add({"do": "wait_chat", "match": r"#1\] receipt: record 1 "}, name="ruling")
    s.add({"do": "click_if", "window": "apply the ruling", "on": "No", "timeout": 5})
    s.add(menu_of("nk-2"), name="winner")
    s.add(call("joinRecordedGame", game["game_id"], game["tokens"]["un"]), name="joined as the loser")
    s.add({"do": "side", "side": "observer"}, {"do": "side", "side": "UN"}, name="took the UN")  # his checks as the UN's
    s.add(menu_of("rok-6"), name="loser")
    run = engine(engine_module("fireandice"), s.steps, timeout=600, prefs_dir=files / "prefs")
    assert run.ok, explain(run)
    return {"run": run, "script": s, "game": game}


def test_losses_are_offered_to_the_loser_alone_and_declare_combat_to_a_fresh_unit(invasion, server):
    run, s = invasion["run"], invasion["script"]
    losses, declare = "Adjudicator/Combat losses for this unit", "Adjudicator/Declare combat for this unit"
    before = run.result(s.at["fresh unit before"])["items"]
    assert declare in before and losses not in before, before  # fresh; no combat to settle yet
    records = requests.get(f"{server.url}/api/v1/games/{invasion['game']['game_id']}/ledger", timeout=30,
                           headers={"Authorization": f"Bearer {invasion['game']['tokens']['observer']}"}).json()["records"]
    assert records[1]["body"]["result"]["outcome"]["loser_side"] == "un"
    winner = run.result(s.at["winner"])["items"]
    assert losses not in winner, winner  # NK 2 won: nothing to satisfy (5.6)
    assert run.result(s.at["joined as the loser"])["returned"]["side"] == "un"
    loser = run.result(s.at["loser"])["items"]
    assert losses in loser, loser  # ROK 6 lost: its side satisfies the spread
    assert declare not in loser, loser  # it shows its spent side (Glossary "Spent")
