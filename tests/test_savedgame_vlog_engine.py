"""The ruling written back as a VASSAL log (issue #15), proved in the real VASSAL 3.7.26 engine.

For each game: a combat from the module's own setup is rolled in a recorded game through the
saved-game API, its dice chosen so the ruling changes the asker's own pieces (KWB: the attacker
depleted; SPI: a unit eliminated; HoldFast: the attacker's block loses SP; Fire and Ice's combat
names no unit's state), the page writes the log ("Download as VASSAL log"), and the engine opens
it and steps through it to its end: no warning, error or dialog; the chat shows the ruling's lines
as the ledger renders them; the pieces the result names show their new step, or lie in their dead
pile on the Boxes map (the move the module's Eliminate makes). And a track's marker: HoldFast's
Weather block moved to the cell rolled, Fire and Ice's VP marker moved and turned to the face of the
side holding the VPs. One engine run per case (about 5-10 s each); skipped without VASSAL_ENGINE_JAR.
"""

from __future__ import annotations

import io
import json

import pytest

from adjudicator.bridge import load_system_game, read_positions, read_upload
from adjudicator.bridge.writeback import LEFT, SHOW_STEP, TO_DEAD_PILE, piece_changes
from adjudicator.checks import get_check
from adjudicator.testing import bearer, choose_seeds, make_app, seed_where
from adjudicator.unit_changes import ruled_changes
from adjudicator.unit_owners import owners_of
from adjudicator.logs.transcript import comparable_lines, parse_transcript
from tests.engine.play import adjacent_combat, board_request, hex_label, player_fields
from vassalfmt import read_saved_game

pytestmark = pytest.mark.engine

GAMES = ["kwb", "spi", "holdfast", "fireandice"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("vlog-engine")).test_client()


def asker_changes(game_id: str, side: str):
    """`wanted` for a combat that changes a piece of the asker's own (one he applies himself)."""
    return lambda outcome: any(c.applied_by == side and c.kind in ("step", "eliminated")
                               for c in ruled_changes(outcome, owners_of(game_id), side))


def ruling_log(client, game_id: str, setup: bytes) -> tuple[bytes, dict]:
    """(the .vlog the page writes for a recorded combat, the check response)."""
    systems = {s["id"]: s for s in client.get("/api/v1/systems").get_json()["systems"]}
    combat = adjacent_combat(game_id)
    side = combat.game.units[combat.attackers[0]].side
    if game_id != "fireandice":  # its combat names no unit's state (its losses are another check)
        request = board_request(game_id, combat.scenario.id, setup, "combat", side, combat.attackers,
                                hex_label(combat, combat.defender), player_fields(systems[game_id], "combat"))
        choose_seeds(client.application, {game_id: seed_where(get_check(game_id, "combat"), request,
                                                              asker_changes(game_id, side))})
    game = client.post("/api/v1/games", json={"system": game_id, "scenario": combat.scenario.id}).get_json()
    target = next(p for p in combat.scenario.setup if p.unit == combat.defender).location.partition("@")[0]
    answer = client.post(f"/api/v1/games/{game['game_id']}/savedgame/checks/combat",
                         data={"file": (io.BytesIO(setup), "setup.vsav"), "attackers": ",".join(combat.attackers),
                               "target_hex": target, "request": json.dumps(player_fields(systems[game_id], "combat"))},
                         content_type="multipart/form-data", headers=bearer(game["tokens"][side]))
    assert answer.status_code == 201, answer.get_json()
    # The ruling's page: log in, keep the file, download the log that continues it (as a player does)
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"][side]})
    kept = client.post(f"/games/{game['game_id']}/savedgame", data={"file": (io.BytesIO(setup), "setup.vsav")},
                       content_type="multipart/form-data")
    sha = kept.headers["Location"].split("/savedgame/", 1)[1]
    log = client.get(f"/games/{game['game_id']}/records/1/vlog?upload={sha}")
    assert log.status_code == 200
    return log.data, answer.get_json()


@pytest.mark.parametrize("game_id", GAMES)
def test_the_log_replays_the_ruling_in_vassal(engine, engine_module, modules, client, tmp_path, game_id):
    combat = adjacent_combat(game_id)
    setup = modules[(game_id, 1)][2][f"setups/{combat.scenario.id}.vsav"]
    data, answer = ruling_log(client, game_id, setup)
    path = tmp_path / "ruling.vlog"
    path.write_bytes(data)

    # vassalfmt reads it back: the game continued, the ruling's lines, the pieces changed
    back = read_saved_game(data)
    in_log = [c[len("CHAT"):] for c in back.other_commands if c.startswith("CHAT")]
    game = load_system_game(game_id)
    expected = comparable_lines(answer, system_name=game.name)
    (ruling,) = parse_transcript(in_log)
    assert back.is_log and ruling.comparable() == expected
    changes = piece_changes(read_positions(game, read_upload(setup)), answer["outcome"], answer["side"])
    written = [c for c in changes if c.does != LEFT]
    assert game_id == "fireandice" or any(c.does in (SHOW_STEP, TO_DEAD_PILE) for c in written)  # the chosen dice

    run = engine(engine_module(game_id), [
        {"do": "replay", "file": str(path)},
        {"do": "pieces", "properties": ["UnitId", "Step_Level"]},
    ], timeout=300)
    assert run.ok, run.failure()
    assert run.problems() == []  # no warning, error, bug report or dialog
    replay = run.step(0)
    assert replay["result"]["commands_stepped"] == len(in_log) + len(written)
    shown = [line for line in replay["chat"] if "[ADJ " in line]
    assert [entry.comparable() for entry in parse_transcript(shown)] == [expected]
    pieces = {p["properties"].get("UnitId"): p for p in run.result(1)["pieces"]}
    units = game.units
    for change in written:
        if change.does == TO_DEAD_PILE:
            assert pieces[change.unit]["map"] == "Boxes"  # in its dead pile, as the module's Eliminate puts it
        elif change.does == SHOW_STEP:
            level = [s.name for s in units[change.unit].steps].index(change.step) + 1
            assert pieces[change.unit]["properties"]["Step_Level"] == str(level)


def test_the_log_moves_the_weather_marker_in_vassal(engine, engine_module, modules, tmp_path):
    """HoldFast's weather roll of snow, written back (tests.test_savedgame_checks): VASSAL steps
    through the log with no warning or dialog, and the Weather block stands in the Tracks map's
    zone of the Snow cell, where the module's own setup puts a marker on its cell."""
    from tests.test_savedgame_checks import snow_weather_log

    _, log, _, _ = snow_weather_log(tmp_path / "server", modules)
    path = tmp_path / "weather.vlog"
    path.write_bytes(log)
    run = engine(engine_module("holdfast"), [
        {"do": "replay", "file": str(path)},
        {"do": "pieces", "properties": ["MarkerId"]},
    ], timeout=300)
    assert run.ok, run.failure()
    assert run.problems() == []
    (weather,) = [p for p in run.result(1)["pieces"] if p["properties"].get("MarkerId") == "weather"]
    assert weather["map"] == "Tracks" and weather["location"].endswith(" Snow"), weather


def test_the_log_moves_and_turns_the_vp_marker_in_vassal(engine, engine_module, modules, tmp_path):
    """Fire and Ice's VP marker, moved and turned to the red face by the log (the piece's state
    written from where the move left it): VASSAL shows it on cell 2 of the VP track, red face up."""
    from tests.test_savedgame_checks import VP_TO_THE_COMMUNIST, recorded_log

    _, log, _, _ = recorded_log(tmp_path / "server", modules, "fireandice", "campaign", "victory_points",
                                VP_TO_THE_COMMUNIST, "communist")
    path = tmp_path / "vp.vlog"
    path.write_bytes(log)
    run = engine(engine_module("fireandice"), [
        {"do": "replay", "file": str(path)},
        {"do": "pieces", "properties": ["MarkerId", "Face_Level"]},
    ], timeout=300)
    assert run.ok, run.failure()
    assert run.problems() == []
    (vp,) = [p for p in run.result(1)["pieces"] if p["properties"].get("MarkerId") == "vp"]
    assert vp["map"] == "Tracks" and vp["location"].endswith(" 2") and vp["properties"]["Face_Level"] == "2", vp
