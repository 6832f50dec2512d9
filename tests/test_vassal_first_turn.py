"""A first turn at the table in the real VASSAL 3.7.26 Player (issue 45): players at the keyboard and mouse
(real input events: tests/engine/play.py, docs/engine-harness.md), a real adjudicator (gunicorn, a temporary
SQLite file) whose games' dice are chosen (adjudicator.testing: the seeds of the games it creates).

* Fire and Ice's Invasion (16.0: "South Korea (all units start spent - HQs are fresh)"; "North Korea (all
  units start fresh)"). Alice (Communists) selects NK 2 (3042) and attacks ROK 6 (3043) in a recorded game:
  the ruling names both units and hexes, the levels are the Support Level Track's, the spent defender rolls
  a D6 and is not made spent; NK 2 wins with a spread of 1. Bob (UN) loads her save: he selects ROK 6 and
  attacks NK 2 - refused in the form in the rulebook's words, nothing recorded; he right-clicks ROK 6,
  "Combat losses for this unit", names ROK 6 to eliminate: the server takes the spread and the units from
  the combat's record, and the apply dialog sends ROK 6 to its dead pile. The log check verifies both files.
* SPI's Intervention Game: Carol (Communists) attacks ROK 6 (1706) with the CPV 38th Army on the Pursuit
  table: D1 r2. The apply dialog says the breakdown, the regiment lost and the Pursuit retreat; Yes sets ROK
  6 aside in the UN's box of counters not in play and places the two regiments that are left on 1706. The
  log check verifies that log; a second game, the same ruling left unapplied, is "not applied".
"""

from __future__ import annotations

import io
import re

import pytest
import requests

from adjudicator.checks import get_check
from adjudicator.testing import seed_where, seeds_env
from bench.server import Gunicorn
from tests.engine.play import (
    Script, board_request, call, close_game, end_log, menu_of, open_game, save_as, select, sign_in, start_scenario,
    submit_form,
)
from tests.test_vassal_extension_e2e import explain

pytestmark = pytest.mark.engine

FORM = "^Adjudicator: Combat"
INVASION, INTERVENTION = ("fireandice", "invasion"), ("spi", "intervention")


def setup_of(modules, game_id: str, scenario: str) -> bytes:
    return modules[(game_id, 1)][2][f"setups/{scenario}.vsav"]


@pytest.fixture(scope="module")
def chosen(modules) -> dict[str, bytes]:
    """The seeds of the games: NK 2 beats ROK 6 with a spread of 1, its dice ordering no quality marker (5.4.2)
    and drawing no random event (the test is about the losses, and every order is a change the log check reads);
    CPV 38 gets D1 r2 on ROK 6."""
    fight = board_request(*INVASION, setup_of(modules, *INVASION), "combat", "communist", ["nk-2"], "3043",
                          {"combat_type": "Hasty Attack"})
    breakdown = board_request(*INTERVENTION, setup_of(modules, *INTERVENTION), "combat", "communist", ["cpv-a38"],
                              "1706", {"table": "pursuit"})
    return {"fireandice/invasion": seed_where(get_check("fireandice", "combat"), fight,
                                              lambda o: o["winner_side"] == "communist" and o["spread"] == 1
                                              and not o["quality_markers_placed"] and o["random_event"] is None),
            "spi/intervention": seed_where(get_check("spi", "combat"), breakdown, lambda o: o["cell"] == "D1 r2")}


@pytest.fixture(scope="module")
def server(tmp_path_factory, chosen):
    running = Gunicorn(workdir=tmp_path_factory.mktemp("adjudicator"), app="adjudicator.testing:make_test_app()",
                       extra_env=seeds_env(chosen)).start()
    yield running
    running.stop()


def ledger(server, game_id: str, token: str) -> list[dict]:
    return requests.get(f"{server.url}/api/v1/games/{game_id}/ledger", headers={"Authorization": f"Bearer {token}"},
                        timeout=30).json()["records"]


def log_check(server, game_id: str, token: str, *paths) -> list[tuple[int, str, str]]:
    files = [("file", (path.name, io.BytesIO(path.read_bytes()))) for path in paths]
    answer = requests.post(f"{server.url}/api/v1/games/{game_id}/savedgame/log-check", files=files,
                           headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert answer.status_code == 200, answer.text
    return [(r["seq"], r["status"], r.get("why", "")) for r in answer.json()["rulings"]]


# -- Fire and Ice: the Invasion's first turn, two players ---------------------------------------------------------

@pytest.fixture(scope="module")
def invasion(engine, engine_module, server, tmp_path_factory) -> dict:
    files = tmp_path_factory.mktemp("fi-invasion")
    module = engine_module("fireandice")
    a = Script()
    a.add(*sign_in("Alice"))
    a.add(*start_scenario("Invasion", "Communists", files / "a1.vlog"))
    a.add(call("connect", server.url), call("createRecordedGame", "", ""), name="created")
    a.add(*select("nk-2"))
    a.add(menu_of("rok-6", "Adjudicator/Attack this hex with the selected units"))
    a.add({"do": "wait_window", "window": FORM}, name="form")
    a.add({"do": "choose", "window": FORM, "field": "/combat_type", "item": "Hasty Attack"})
    a.add(*submit_form("Combat"))
    a.add({"do": "wait_chat", "match": r"#1\] receipt: record 1 "}, name="ruling")
    a.add({"do": "click_if", "window": "apply the ruling", "on": "No", "timeout": 5})
    a.add(*save_as(files / "a1.vsav"), *end_log())
    alice = engine(module, a.steps, timeout=600, prefs_dir=files / "alice")
    assert alice.ok, explain(alice)
    created = alice.result(a.at["created"])["returned"]

    b = Script()
    b.add(*sign_in("Bob"))
    b.add(*open_game(files / "a1.vsav", files / "b1.vlog", side="UN"))
    b.add(call("connect", server.url), call("joinRecordedGame", created["game_id"], created["tokens_for_others"]["un"]))
    b.add(*select("rok-6"))
    b.add(menu_of("nk-2", "Adjudicator/Attack this hex with the selected units"))
    b.add({"do": "wait_window", "window": FORM})
    b.add({"do": "choose", "window": FORM, "field": "/combat_type", "item": "Hasty Attack"})
    b.add({"do": "click", "window": FORM, "on": "OK"})
    b.add({"do": "wait_window", "window": "(?s)^Adjudicator: Combat.*shows its spent side"}, name="refused")
    b.add({"do": "click", "window": FORM, "on": "Cancel"})
    b.add({"do": "wait_window", "window": FORM, "gone": True})
    b.add(menu_of("rok-6"), name="own unit's menu")
    b.add(menu_of("rok-6", "Adjudicator/Combat losses for this unit"))
    b.add({"do": "wait_window", "window": "^Adjudicator: Combat losses"}, name="losses form")
    b.add({"do": "type", "window": "^Adjudicator: Combat losses", "field": "/eliminate", "text": "ROK 6"})
    b.add(*submit_form("Combat losses"))
    b.add({"do": "wait_chat", "match": r"#2\] receipt: record 2 "}, name="losses")
    b.add({"do": "wait_window", "window": "apply the ruling"}, name="apply dialog")
    b.add({"do": "click", "window": "apply the ruling", "on": "Yes"})
    b.add({"do": "pieces", "properties": ["UnitId"]}, name="board after")
    b.add(*save_as(files / "b1.vsav"), *end_log())
    bob = engine(module, b.steps, timeout=600, prefs_dir=files / "bob")
    assert bob.ok, explain(bob)
    return {"alice": (alice, a), "bob": (bob, b), "game": created, "files": files}


def test_a_fresh_unit_is_ruled_with_its_units_named_and_the_tracks_levels(invasion, server):
    run, s = invasion["alice"]
    game = invasion["game"]
    form = run.result(s.at["form"])["text"]
    assert "Combat declared" in form and "Defender's die (the defender's choice: ask them)" in form
    assert "Communist Tank Support level: 6" in form  # the track's, shown as the board says it, not typed
    (headline,) = [line for line in run.chat() if re.search(r"#1\] RULING", line)]
    assert re.search(r"Combat for Communist: NK 2 \(3042\) attacks ROK 6 \(3043\): \d+ against \d+: the Communist wins, "
                     r"spread 1", headline), headline
    records = ledger(server, game["game_id"], game["tokens_for_others"]["observer"])
    request, outcome = records[1]["body"]["request"], records[1]["body"]["result"]["outcome"]
    assert request["attackers"] == [{"unit": "nk-2", "hex": "3042", "step": "fresh"}]
    assert request["defenders"] == [{"unit": "rok-6", "hex": "3043", "step": "spent"}]
    assert (request["communist_tank_level"], request["communist_artillery_level"], request["communist_air_level"],
            request["un_tank_level"]) == (6, 4, 4, 0)
    assert outcome["defender_die"] == 6 and outcome["defender_becomes_spent"] is False


def test_a_spent_unit_is_refused_in_the_form_and_nothing_is_recorded(invasion, server):
    run, s = invasion["bob"]
    refused = run.result(s.at["refused"])["text"]
    assert "ROK 6 (3043) shows its spent side and may not declare a combat" in refused
    assert "no longer available to be active" in refused and "He can't do anything else" in refused
    game = invasion["game"]
    checks = [r["body"]["check"] for r in ledger(server, game["game_id"], game["tokens_for_others"]["observer"])]
    assert checks == ["game.created", "fireandice.combat", "fireandice.combat_losses"]


def test_the_losses_are_settled_from_the_board_and_applied_by_the_dialog(invasion, server):
    run, s = invasion["bob"]
    game = invasion["game"]
    assert "Adjudicator/Combat losses for this unit" in run.result(s.at["own unit's menu"])["items"]
    record = ledger(server, game["game_id"], game["tokens_for_others"]["observer"])[2]
    request = record["body"]["request"]
    assert (request["combat_record"], request["spread"], request["participating"], request["eliminate"]) == \
        (1, 1, ["rok-6"], ["rok-6"])
    assert re.search(r"6th RoK Infantry Division[^:]*: eliminated \(to its dead pile\)", run.result(s.at["apply dialog"])["text"])
    board = {p["properties"]["UnitId"]: p for p in run.result(s.at["board after"])["pieces"] if p["properties"]["UnitId"]}
    assert board["rok-6"]["map"] == "Boxes"
    files = invasion["files"]
    verdicts = log_check(server, game["game_id"], game["tokens_for_others"]["observer"], files / "a1.vlog", files / "b1.vlog")
    assert [(seq, status) for seq, status, _ in verdicts] == [(1, "verified"), (2, "verified")], verdicts


# -- SPI: a D1 broken down by the apply dialog ----------------------------------------------------------------------

def spi_attack(s: Script, log, name: str, apply: str) -> None:
    s.add(*start_scenario("Intervention Game", "Communist", log))
    s.add(call("createRecordedGame", "", ""), name=f"{name} created")
    s.add(*select("cpv-a38"))
    s.add(menu_of("rok-d6", "Adjudicator/Attack this hex with the selected units"))
    s.add({"do": "wait_window", "window": FORM})
    s.add({"do": "choose", "window": FORM, "field": "/table", "item": "pursuit"})
    s.add(*submit_form("Combat"))
    s.add({"do": "wait_chat", "match": r"#1\] receipt: record 1 "}, name=f"{name} ruling")
    s.add({"do": "wait_window", "window": "apply the ruling"}, name=f"{name} dialog")
    s.add({"do": "click", "window": "apply the ruling", "on": apply})
    s.add({"do": "pieces", "properties": ["UnitId"]}, name=f"{name} board")
    s.add(*end_log())


@pytest.fixture(scope="module")
def intervention(engine, engine_module, server, tmp_path_factory) -> dict:
    files = tmp_path_factory.mktemp("spi-intervention")
    s = Script()
    s.add(*sign_in("Carol"))
    s.add(call("connect", server.url))
    spi_attack(s, files / "c1.vlog", "applied", "Yes")
    s.add(*close_game())
    spi_attack(s, files / "c2.vlog", "left", "No")
    run = engine(engine_module("spi"), s.steps, timeout=900, prefs_dir=files / "carol")
    assert run.ok, explain(run)
    return {"run": run, "script": s, "files": files}


def test_a_d1_is_broken_down_by_the_apply_dialog_and_the_log_check_verifies_it(intervention, server):
    run, s, files = intervention["run"], intervention["script"], intervention["files"]
    dialog = run.result(s.at["applied dialog"])["text"]
    assert "Apply it to the board now?" in dialog
    # every action its own line (issue 49), each unit named as its counter reads (issue 51): the division set
    # aside, two of its regiments placed in its hex, the third lost at once, the survivors' retreat their owner's
    for action in (r"S 6th Division \(ROK\): set aside \(UN counters not in play\)",
                   r"S 2nd Regiment \(ROK\): placed in 1706", r"South Korean regiment: placed in 1706",
                   r"S 7th Regiment \(ROK\): eliminated \(to its dead pile\)",
                   r"to be applied by its owner \(the United Nations player\): retreats 2 hexes"):
        assert re.search(action, dialog), (action, dialog)
    board = {p["properties"]["UnitId"]: p for p in run.result(s.at["applied board"])["pieces"] if p["properties"]["UnitId"]}
    assert board["rok-d6"]["map"] == "Boxes" and board["rok-r7"]["map"] == "Boxes"
    assert board["rok-r2"]["location"] == "1706" and board["rok-r-1"]["location"] == "1706"
    game = run.result(s.at["applied created"])["returned"]
    verdicts = log_check(server, game["game_id"], game["tokens_for_others"]["observer"], files / "c1.vlog")
    assert [(seq, status) for seq, status, _ in verdicts] == [(1, "verified")], verdicts


def test_a_breakdown_left_undone_is_not_applied(intervention, server):
    run, s, files = intervention["run"], intervention["script"], intervention["files"]
    board = {p["properties"]["UnitId"]: p for p in run.result(s.at["left board"])["pieces"] if p["properties"]["UnitId"]}
    assert board["rok-d6"]["location"] == "1706"  # the division left whole
    game = run.result(s.at["left created"])["returned"]
    ((seq, status, why),) = log_check(server, game["game_id"], game["tokens_for_others"]["observer"], files / "c2.vlog")
    assert (seq, status) == (1, "not-applied") and "S 6 broken down into" in why

