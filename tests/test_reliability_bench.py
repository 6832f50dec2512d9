"""The benchmark harness measures what it says: the proposal search gives the same answers as
`scenarios.hexgrid.search`, the one-unit rebuild really changes one unit, the wrk script is well
formed.  (No timings are asserted; the benchmark itself reports those.)
"""

from __future__ import annotations

import math
import shutil
import sys
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # `bench` is a top-level directory, not an installed package

from bench.checks import body_json  # noqa: E402
from bench.extension import apply_parts, felt, stamped_parts  # noqa: E402
from bench.extension_load import BackgroundRolls  # noqa: E402
from bench.config import CHECK, ExtensionLoad  # noqa: E402
from bench.http import cpu_budget_note, create_games  # noqa: E402
from bench.indexed_search import MapIndex, indexed_search  # noqa: E402
from bench.modules import changed_copy  # noqa: E402
from bench.supply import (  # noqa: E402
    LOC_MP,
    blocked_hexes,
    loc_step_cost,
    place_side,
    stand_in_indexed,
    stand_in_one_search,
    stand_in_per_unit,
    static_step_cost,
)
from bench.server import Gunicorn  # noqa: E402
from bench.wrk import Target, lua_script, run_wrk  # noqa: E402
from scenarios import load_game, load_game_dir  # noqa: E402
from scenarios.hexgrid import search  # noqa: E402

pytestmark = pytest.mark.slow  # long: make test only, not make test-fast


def fire_and_ice():
    game = load_game("fireandice")
    game_map = max(game.maps.values(), key=lambda m: len(m.terrain))
    return game, game_map, place_side(game, game_map, "communist")


def test_every_unit_of_the_side_is_placed_on_land():
    game, game_map, positions = fire_and_ice()
    assert len(positions.units) == sum(1 for u in game.units.values() if u.side == "communist")
    hexes = list(positions.units.values()) + list(positions.enemy.values())  # set-ups may stack
    assert all(game_map.terrain[h] != "sea" for h in hexes)
    assert positions.hqs


def test_the_three_stand_in_traces_agree():
    game, game_map, positions = fire_and_ice()
    step_cost = loc_step_cost(game_map, positions)
    index = MapIndex.build(game_map.grid, game_map.terrain, static_step_cost(game_map)).reversed()
    one = stand_in_one_search(game_map, positions, step_cost)
    assert 0 < len(one) < len(positions.units)  # some units have an LoC, some do not
    assert one == stand_in_per_unit(game_map, positions, step_cost)
    assert one == stand_in_indexed(index, game_map, positions)


def test_indexed_search_costs_equal_hexgrid_search_costs():
    game, game_map, positions = fire_and_ice()
    static = static_step_cost(game_map)
    blocked = blocked_hexes(game_map, positions)
    index = MapIndex.build(game_map.grid, game_map.terrain, static)
    flags = bytearray(len(index.hexes))
    for h in blocked:
        if h in index.number:
            flags[index.number[h]] = 1
    sources = positions.hqs[:3]
    # neighbours=... makes hexgrid.search walk the grid through cube coordinates, not its own index
    expected = search(game_map.grid, sources, lambda a, b: None if b in blocked else static(a, b), max_cost=LOC_MP,
                      neighbours=game_map.grid.neighbours)
    got = indexed_search(index, [index.number[h] for h in sources], flags, max_cost=LOC_MP)
    reached = {index.hexes[i]: c for i, c in enumerate(got) if c < math.inf}
    assert reached == expected.cost


def test_the_one_unit_change_changes_exactly_one_unit(tmp_path):
    directory, unit_id = changed_copy("spi", tmp_path)
    before, after = load_game("spi"), load_game_dir(directory)
    differing = [uid for uid in before.units if before.units[uid] != after.units[uid]]
    assert differing == [unit_id]


def test_wrk_script_gives_each_game_request_a_unique_id_field():
    script = lua_script([Target("/api/v1/games/g1/combat", {"Authorization": "Bearer t"})],
                        '{"turn":1}', unique_ids=True, run_id="r7")
    assert '"request_id":"w' in script and "run_id" in script and "tid" in script and "counter" in script
    assert 'local run_id = "r7"' in script
    assert '"/api/v1/games/g1/combat"' in script and '"Bearer t"' in script
    assert "WRKJSON" in script


def test_cpu_budget_is_what_a_ratio_target_leaves_over_ping():
    # 2 cores at 5,000 /ping a second: 0.4 ms of machine CPU per /ping. At 0.5x a load may cost
    # 0.8 ms, i.e. add 0.4 ms; at 0.8x it may add 0.1 ms.
    numbers = {"ping_rps": 5000.0, "ping_server_cpu_ms": 0.28, "game_server_cpu_ms": 0.72,
               "compute_server_cpu_ms": 0.47}
    game = cpu_budget_note("game", 0.5, numbers, cores=2)
    compute = cpu_budget_note("compute", 0.8, numbers, cores=2)
    assert math.isclose(numbers["game_cpu_allowed_over_ping_ms"], 0.4)
    assert math.isclose(numbers["game_server_cpu_over_ping_ms"], 0.44)
    assert math.isclose(numbers["compute_cpu_allowed_over_ping_ms"], 0.1)
    assert math.isclose(numbers["compute_server_cpu_over_ping_ms"], 0.19)
    assert "may add 0.40 ms" in game and "workers add 0.44 ms" in game
    assert "may add 0.10 ms" in compute and "workers add 0.19 ms" in compute


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is not installed (Debian package wrk)")
def test_every_game_mode_request_of_every_wrk_run_is_a_new_record(tmp_path):
    """Two game-mode loads on the same games both write a record per answered request: the
    second is not answered from the first's records (wrk's counter starts again in every run,
    so request ids must carry the run's own id, or every later run measures replays)."""
    # The service as the benchmark serves it, its games' seeds its own: the test counts records, no
    # assertion reads a die (a roll of any value is one record), and wrk's load is no run to repeat anyway.
    server = Gunicorn(workdir=tmp_path).start()
    try:
        targets = create_games(server.url, CHECK, 2)
        body = body_json(dict(CHECK.body))
        for _ in range(2):
            before = _records(server.url, targets)
            run = run_wrk(server.url, targets, body=body, unique_ids=True, duration_s=1, connections=4, threads=1)
            added = _records(server.url, targets) - before
            assert run.requests > 20 and run.non_2xx == 0
            # wrk counts the answers it read; requests still in flight when it stops may be recorded too
            assert run.requests <= added <= run.requests + 4
    finally:
        server.stop()


def _records(url: str, targets: list[Target]) -> int:
    total = 0
    for target in targets:
        ledger = requests.get(url + target.path.rsplit("/", 1)[0] + "/ledger", headers=target.headers, timeout=30)
        ledger.raise_for_status()
        total += len(ledger.json()["records"])
    return total


class _Run:
    """An engine run's report as `felt` reads it: steps by index, each with "do" and "result"."""

    def __init__(self, *steps: dict):
        self.steps = list(steps)

    def step(self, index: int) -> dict:
        return self.steps[index]

    def result(self, index: int) -> dict:
        return self.steps[index]["result"]


def test_a_ruling_is_timed_from_the_last_press_before_it():
    ok = {"do": "click", "result": {"clicked": "OK", "pressed_at_ms": 1000.0}}
    shown = {"do": "wait_chat", "result": {"matched": [{"at_ms": 400.0}, {"at_ms": 1700.0}, {"at_ms": 1900.0}]}}
    warned = {"do": "click_if", "result": {"clicked": True, "pressed_at_ms": 1500.0}}  # Roll again
    not_warned = {"do": "click_if", "result": {"clicked": False}}
    assert felt(_Run(ok, warned, shown), 0, 2) == 200.0  # from Roll again; the game before's line not counted
    assert felt(_Run(ok, not_warned, shown), 0, 2) == 700.0  # from OK
    assert felt(_Run({"do": "click", "result": {"clicked": "OK"}}, not_warned, shown), 0, 2) is None  # not the robot's


def test_an_apply_is_timed_from_its_menu_entry_with_the_fetch_and_without_the_persons_time_at_the_dialog():
    menu = {"do": "toolbar_click", "result": {"pressed_at_ms": 1000.0}}
    dialog = {"do": "wait_window", "result": {"title": "apply", "opened_at_ms": 1080.0}}  # the fetch and the plan: 80 ms
    yes = {"do": "click", "result": {"clicked": "Yes", "pressed_at_ms": 4000.0}}  # the person read it for ~3 s
    shown = {"do": "wait_chat", "result": {"matched": [{"at_ms": 500.0}, {"at_ms": 4040.0}]}}
    assert apply_parts(_Run(menu, dialog, yes, shown), 0, 1, 2, 3) == (80.0, 40.0)
    not_pressed = {"do": "toolbar_click", "result": None}  # the item's own method did it: no person's click
    assert apply_parts(_Run(not_pressed, dialog, yes, shown), 0, 1, 2, 3) is None
    unseen = {"do": "wait_window", "result": {"title": "apply"}}  # opened before the harness listened
    assert apply_parts(_Run(menu, unseen, yes, shown), 0, 1, 2, 3) is None


@pytest.mark.server
def test_the_background_load_records_every_roll_it_sends_at_the_stated_rate(tmp_path):
    """The extension bench's background load: each roll sent is a new record in one of its own
    games, at about the stated rate (no roll refused or replayed)."""
    server = Gunicorn(workdir=tmp_path, app="adjudicator.testing:make_test_app()").start()
    try:
        load = ExtensionLoad(rolls_per_s=40.0, games=2, clients=2)
        with BackgroundRolls(server.url, load) as rolls:
            import time

            time.sleep(1.0)
        stats = rolls.stats
        assert stats.failed == {} and stats.ok == stats.sent
        # paced: the n-th roll starts no sooner than n / rate after the first, never as fast as it can
        assert 1 <= stats.sent <= load.rolls_per_s * (stats.ended - stats.started) + 1
        rulings = 0
        for game_id, token in rolls.games:
            ledger = requests.get(f"{server.url}/api/v1/games/{game_id}/ledger", timeout=30,
                                  headers={"Authorization": f"Bearer {token}"})
            rulings += sum(r["body"]["check"] == f"{CHECK.system}.{CHECK.name}" for r in ledger.json()["records"])
        assert rulings == stats.ok + 1  # and the one roll asked before the load, that its body is right
        assert f"{stats.sent} sent" in stats.said(load) and "40 a second stated" in stats.said(load)
    finally:
        server.stop()


def test_a_stamped_checks_chat_share_ends_at_its_verify_line_and_what_follows_is_said_apart():
    answer = {"returned": {"ok": True, "ms": {"board": 3.0, "server": 12.0, "chat": 90.0}}}
    run = _Run({"do": "call", "started_ms": 1000.0, "result": answer})
    run.report = {"chat": [{"step": 0, "text": "combat: ...", "at_ms": 1030.0},
                           {"step": 0, "text": "[#7] verify: http://x/v/7", "at_ms": 1040.0},  # 25 ms after the answer
                           {"step": 0, "text": "a line after a notice closed", "at_ms": 1100.0},
                           {"step": 1, "text": "[#8] verify: http://x/v/8", "at_ms": 1200.0}]}
    assert stamped_parts(run, 0) == {"board": 3.0, "server": 12.0, "chat": 90.0, "lines": 25.0, "after_lines": 65.0}
    run.steps[0].pop("started_ms")  # a harness that does not say when a step started: the chat stamp whole
    assert stamped_parts(run, 0)["lines"] == 90.0
    run.steps[0]["result"] = {"returned": {"ok": False, "title": "refused"}}
    assert stamped_parts(run, 0) is None


def test_a_section_that_fails_keeps_the_others_measurements_and_the_run_says_so(tmp_path, monkeypatch):
    """A long run (the engine's sections take half an hour) stopped by one section's error kept
    nothing: each section's results are now written as it ends, the failed one with its error, and
    the run ends non-zero naming it."""
    import json

    import bench.__main__ as runner
    from bench.results import Section, write_results

    def run_section(name, args, profile):
        if name == "savedgame":
            raise TimeoutError("the board was never ready")
        section = Section(name)
        section.row("measured", "1 ms")
        return section

    monkeypatch.setattr(runner, "run_section", run_section)
    monkeypatch.setattr(runner, "write_results", lambda sections, path=None: write_results(sections, tmp_path, path))
    assert runner.main(["--only", "odds,savedgame,replay"]) == 1
    [written] = list(tmp_path.glob("*.json"))
    sections = {s["name"]: s for s in json.loads(written.read_text())["sections"]}
    assert sections["odds"]["rows"] == [["measured", "1 ms"]] and sections["replay"]["rows"] == [["measured", "1 ms"]]
    assert "TimeoutError: the board was never ready" in sections["savedgame"]["failure"]
    assert sections["savedgame"]["rows"] == [["FAILED", "TimeoutError: the board was never ready"]]
