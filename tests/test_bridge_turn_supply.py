"""A saved game's supply is traced at its game turn, and agrees with the `supply` check (issue #18).

Every setup of every module (conftest's `modules`, built once per session) read through the bridge
reports, side by side and unit by unit, what the game's `supply` check answers for the same
positions and the same turn; the turn comes from the file's turn tracker (a setup: its first turn),
and `game_turn` with the request overrides it.
"""

from __future__ import annotations

import json
import re

import pytest

from adjudicator.bridge import BridgeError, read_positions, read_upload, run_supply
from adjudicator.bridge.turn import FROM_REQUEST, FROM_TRACKER, FROM_TRACKER_START, month_of, read_turn
from adjudicator.checks import get_check, run_check
from adjudicator.ledger.dice import SuppliedDice
from scenarios import game_ids, load_game
from vassalfmt.savedgame import deobfuscate, obfuscate
from vassalfmt.state import ListLevelState, turn_tracker_command
from vassalfmt.zipreader import SafeZip
from vassalfmt.zipwriter import build_zip

SETUPS = [pytest.param(g, s, id=f"{g}-{s}") for g in game_ids() for s in load_game(g).scenarios]


def check_answer(game, scenario_id: str, side: str, positions, turn: int | None) -> dict[str, bool]:
    """unit -> in supply, by the game's `supply` check given these positions at this turn."""
    spec = get_check(game.id, "supply")
    body = {"side": side, "positions": [{"unit": p.unit, "hex": p.hex, "step": p.step, "map": p.map}
                                        for p in positions]}
    for role, value in (("scenario", scenario_id), ("turn", turn),
                        ("month", month_of(game.scenarios[scenario_id], turn) if turn else None)):
        field = spec.top_level_field(role)
        if field and value is not None:
            body[field] = value
    request = spec.compute_model.model_validate_json(json.dumps(body))
    outcome = run_check(spec, request, SuppliedDice([])).outcome
    return {u["unit"]: u["in_supply"] for u in outcome["units"]}


@pytest.mark.parametrize("game_id,scenario_id", SETUPS)
def test_setup_supply_matches_the_supply_check_at_its_turn(modules, game_id, scenario_id):
    game, _, entries = modules[(game_id, 1)]
    positions = read_positions(game, read_upload(entries[f"setups/{scenario_id}.vsav"]))
    first = game.scenarios[scenario_id].turns[0].number
    try:
        run = run_supply(game, positions, scenario_id)
    except BridgeError as refused:  # a setup the rules refuse (a unit on a sea hex): the check refuses it too
        side = refused.detail.split(" supply for ", 1)[1].split(":", 1)[0]
        with pytest.raises(ValueError) as also:
            check_answer(game, scenario_id, side, positions.unit_ats(), first)
        assert refused.detail.split(": ", 1)[1] in str(also.value)
        return
    assert (run.turn.turn, run.turn.source) == (first, FROM_TRACKER)  # the setup's tracker shows its first turn
    assert not any("game turn is not known" in w for w in run.warnings)
    assert not re.search(r"\b1 hexes\b", json.dumps(run.to_json()))  # "1 hex"
    for report in run.reports:
        bridge = {u.unit: u.in_supply for u in report.units}
        assert bridge == check_answer(game, scenario_id, report.side, positions.unit_ats(), first), report.side


def with_turn_commands(vsav: bytes, commands: list[str]) -> bytes:
    """The saved game with turn-tracker commands added, as the engine writes them in a save."""
    with SafeZip(vsav) as archive:
        names = archive.names()
        entries = {name: archive.read(name) for name in names}
    text = deobfuscate(entries["savedGame"])
    entries["savedGame"] = obfuscate(text.replace("\x1bend_save", "".join(f"\x1b{c}" for c in commands)
                                                  + "\x1bend_save"))
    return build_zip(entries)


def turn_command(tracker: int, entry: int, turns: int) -> str:
    """`TURNTurnTracker<n>\\t<state>`: level 0 shown, its list at `entry` (TurnTracker.getState)."""
    active = ",".join(["true"] * turns)
    return f"TURNTurnTracker{tracker}\t0|{entry};0;0;{active};0\\;0\\;0\\;true"


@pytest.fixture(scope="module")
def changjin(modules):
    game, _, entries = modules[("kwb", 1)]
    return game, entries["setups/changjin.vsav"], list(game.scenarios).index("changjin")


def test_the_turn_trackers_state_is_read_and_supply_follows_it(changjin):
    game, vsav, tracker = changjin
    turns = len(game.scenarios["changjin"].turns)
    positions = read_positions(game, read_upload(vsav))
    surprise = run_supply(game, positions, "changjin", "communist")
    assert surprise.turn.turn == 1
    assert all(u.in_supply for u in surprise.reports[0].units)  # 12.3: Chinese in supply on turns 1-2
    later = read_positions(game, read_upload(with_turn_commands(vsav, [
        turn_command(tracker, 0, turns), turn_command(tracker, 4, turns)])))  # a log: the last one counts
    assert read_turn(game, "changjin", later.commands).turn == 5
    run = run_supply(game, later, "changjin", "communist")
    assert (run.turn.turn, run.turn.source) == (5, FROM_TRACKER)
    out = [u.unit for u in run.reports[0].units if not u.in_supply]
    assert out, "after the surprise turns some Chinese units should be out of supply"
    assert {u.unit: u.in_supply for u in run.reports[0].units} == check_answer(
        game, "changjin", "communist", later.unit_ats(), 5)
    overridden = run_supply(game, later, "changjin", "communist", game_turn="2")
    assert (overridden.turn.turn, overridden.turn.source) == (2, FROM_REQUEST)
    assert all(u.in_supply for u in overridden.reports[0].units)


def test_the_modules_one_tracker_is_read_by_the_scenarios_level(changjin):
    """The module's one tracker has a level per scenario: the level of the scenario asked for
    counts (here Changjin's at its fifth turn, the other levels at their first)."""
    game, vsav, _ = changjin
    levels = [ListLevelState(len(s.turns), current=4 if s.id == "changjin" else 0, active=s.id == "changjin",
                             sub_levels=(ListLevelState(len(game.phases)),))
              for s in game.scenarios.values()]
    command = turn_tracker_command("TurnTracker0", list(game.scenarios).index("changjin"), levels)
    later = read_positions(game, read_upload(with_turn_commands(vsav, [command])))
    assert read_turn(game, "changjin", later.commands) == read_turn(game, "changjin", [command])
    assert (read_turn(game, "changjin", later.commands).turn, read_turn(game, "pusan", [command]).turn) == (5, 1)
    assert read_turn(game, "changjin", []).source == FROM_TRACKER_START


def test_an_unreadable_turn_is_said_and_a_bad_game_turn_refused(changjin):
    game, vsav, tracker = changjin
    turns = len(game.scenarios["changjin"].turns)
    odd = read_positions(game, read_upload(with_turn_commands(vsav, [turn_command(tracker, turns + 3, turns)])))
    run = run_supply(game, odd, "changjin", "communist")
    assert run.turn.turn is None
    assert any("game turn is not known" in w and "game_turn" in w for w in run.warnings)
    with pytest.raises(BridgeError) as refused:
        run_supply(game, odd, "changjin", "communist", game_turn=str(turns + 1))
    assert refused.value.status == 422 and "not a turn of" in refused.value.detail


def test_the_issue_numbers(modules):
    """SPI Invasion: all 23 Communist units in supply on turn 1 (they were 0 of 23)."""
    game, _, entries = modules[("spi", 1)]
    positions = read_positions(game, read_upload(entries["setups/invasion.vsav"]))
    report = run_supply(game, positions, "invasion", "communist").reports[0]
    assert len(report.units) == 23 and not report.out_of_supply


@pytest.mark.slow
def test_game_turn_over_http_and_in_the_record(changjin, tmp_path):
    from adjudicator.testing import bearer, make_app, new_game

    game, vsav, _ = changjin
    client = make_app(tmp_path).test_client()
    url = "/api/v1/systems/kwb/savedgame/supply"
    plain = client.post(f"{url}?side=communist&scenario=changjin", data=vsav,
                        content_type="application/octet-stream").get_json()
    assert (plain["game_turn"], plain["game_turn_from"]) == (1, FROM_TRACKER)
    assert plain["sides"][0]["out_of_supply"] == 0
    later = client.post(f"{url}?side=communist&scenario=changjin&game_turn=5", data=vsav,
                        content_type="application/octet-stream").get_json()
    assert (later["game_turn"], later["game_turn_from"]) == (5, FROM_REQUEST)
    assert later["sides"][0]["out_of_supply"] > 0
    bad = client.post(f"{url}?scenario=changjin&game_turn=99", data=vsav, content_type="application/octet-stream")
    assert bad.status_code == 422 and bad.get_json()["type"].endswith(":unknown-turn")

    recorded = new_game(client, "kwb", "changjin")
    answer = client.post(f"/api/v1/games/{recorded['game_id']}/savedgame/supply?side=com&game_turn=5", data=vsav,
                         content_type="application/octet-stream", headers=bearer(recorded["tokens"]["un"]))
    assert answer.status_code == 201
    record = client.get(f"/api/v1/games/{recorded['game_id']}/ledger",
                        headers=bearer(recorded["tokens"]["observer"])).get_json()["records"][-1]
    assert record["body"]["request"]["game_turn"] == 5 and record["body"]["request"]["side"] == "communist"


def test_a_recorded_game_refuses_a_saved_game_of_another_scenario(modules, tmp_path):
    from adjudicator.testing import bearer, make_app, new_game

    _, _, entries = modules[("spi", 1)]
    client = make_app(tmp_path).test_client()
    game = new_game(client, "spi", "stalemate")
    url = f"/api/v1/games/{game['game_id']}/savedgame/supply"
    other = client.post(url, data=entries["setups/invasion.vsav"], content_type="application/octet-stream",
                        headers=bearer(game["tokens"]["un"]))
    assert other.status_code == 422 and other.get_json()["type"].endswith(":scenario-mismatch")
    assert "invasion" in other.get_json()["detail"]
    own = client.post(url, data=entries["setups/stalemate.vsav"], content_type="application/octet-stream",
                      headers=bearer(game["tokens"]["un"]))
    assert own.status_code == 201
