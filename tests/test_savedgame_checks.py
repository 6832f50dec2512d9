"""Checks from a saved game (issue #15), in-process: the API builds a check's request from the file's
positions by the board roles, resolves it (compute mode, or rolled into a recorded game's ledger),
and the page writes the ruling back as a VASSAL log that vassalfmt reads back.

The files are the setups modgen writes into each game's module (the `modules` fixture); the
units that fight are the ones the setup puts next to each other (tests.engine.play).
"""

from __future__ import annotations

import io
import json

import pytest
from lxml import html
from werkzeug.datastructures import MultiDict

from adjudicator.testing import bearer, make_app
from adjudicator.logs.transcript import parse_transcript
from adjudicator.words.names import UnitNames
from tests.engine.play import adjacent_combat, board_request, player_fields
from vassalfmt import read_saved_game

GAMES = ["kwb", "spi", "holdfast", "fireandice"]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("savedgame-checks"))


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def systems(client):
    return {s["id"]: s for s in client.get("/api/v1/systems").get_json()["systems"]}


def setup_file(modules, game_id: str, scenario_id: str) -> bytes:
    return modules[(game_id, 1)][2][f"setups/{scenario_id}.vsav"]


def upload(client, url, data, name="game.vsav", headers=None, **fields):
    return client.post(url, data={"file": (io.BytesIO(data), name), **fields},
                       content_type="multipart/form-data", headers=headers or {})


def kept_upload(client, page: str, data: bytes, name: str = "game.vsav", **fields) -> str:
    """Upload `data` on a saved-game page (`/systems/<s>/savedgame` or `/games/<id>/savedgame`) as
    the form does; the page keeps it and answers with the address of its report: its SHA-256."""
    response = upload(client, page, data, name=name, **fields)
    assert response.status_code == 303, response.get_data(as_text=True)[:1000]
    return response.headers["Location"].split("/savedgame/", 1)[1].split("/", 1)[0].split("?", 1)[0]


def log_in(client, game: dict, role: str) -> None:
    """The browser enters a token on the game's page (remembered for the game's pages)."""
    assert client.post(f"/games/{game['game_id']}", data={"token": game["tokens"][role]}).status_code == 303


def hex_of(game, scenario, unit_id: str) -> str:
    placement = next(p for p in scenario.setup if p.unit == unit_id)
    return placement.location.partition("@")[0]


def new_recorded_game(client, system: str, scenario: str) -> dict:
    response = client.post("/api/v1/games", json={"system": system, "scenario": scenario})
    assert response.status_code == 201
    return response.get_json()


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_a_combat_from_the_setup_is_rolled_into_the_ledger(client, modules, systems, game_id):
    """The file fills attackers, defenders, positions, scenario and turn; the player only what
    the board cannot know; the ledger records the request built from the file."""
    combat = adjacent_combat(game_id)
    game = new_recorded_game(client, game_id, combat.scenario.id)
    side = combat.game.units[combat.attackers[0]].side
    response = upload(client, f"/api/v1/games/{game['game_id']}/savedgame/checks/combat?transcript=1",
                      setup_file(modules, game_id, combat.scenario.id),
                      headers=bearer(game["tokens"][side]),
                      attackers=",".join(combat.attackers),
                      target_hex=hex_of(combat.game, combat.scenario, combat.defender),
                      request=json.dumps(player_fields(systems[game_id], "combat")))
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    built = body["savedgame"]["request"]
    filled = body["savedgame"]["filled"]
    assert body["seq"] == 1 and body["side"] == side
    assert built["scenario"] == combat.scenario.id
    for pointer, role in filled.items():
        assert pointer[1:] in built, (pointer, role)
    text = json.dumps(built)
    assert all(unit in text for unit in combat.attackers) or "/attackers" not in filled
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"][side])).get_json()
    assert ledger["records"][1]["body"]["request"] == built  # what the ledger holds is what was built
    assert [(e.game_id, e.seq) for e in parse_transcript(body["transcript"])] == [(game["game_id"], 1)]


def test_holdfast_weather_is_read_from_the_weather_track(client, modules, systems):
    """HoldFast's weather is the Weather marker's cell on the Weather Track (3; 7): the file's,
    whatever the player's fields said (the setup puts it on Clear)."""
    combat = adjacent_combat("holdfast")
    game = new_recorded_game(client, "holdfast", combat.scenario.id)
    side = combat.game.units[combat.attackers[0]].side
    response = upload(client, f"/api/v1/games/{game['game_id']}/savedgame/checks/combat",
                      setup_file(modules, "holdfast", combat.scenario.id), headers=bearer(game["tokens"][side]),
                      attackers=",".join(combat.attackers),
                      target_hex=hex_of(combat.game, combat.scenario, combat.defender),
                      request=json.dumps({**player_fields(systems["holdfast"], "combat"), "weather": "snow"}))
    assert response.status_code == 201, response.get_json()
    saved = response.get_json()["savedgame"]
    assert saved["filled"]["/weather"] == "track:weather:weather" and saved["request"]["weather"] == "clear"
    described = next(c for c in systems["holdfast"]["checks"] if c["name"] == "combat")
    assert described["board"]["/weather"] == "track:weather:weather"  # the extension reads it too


def test_compute_mode_shows_the_request_built_beside_the_result(client, modules):
    combat = adjacent_combat("kwb")
    data = setup_file(modules, "kwb", combat.scenario.id)
    target = hex_of(combat.game, combat.scenario, combat.defender)
    response = upload(client, "/api/v1/systems/kwb/savedgame/checks/combat", data,
                      attackers=combat.attackers[0], target_hex=target,
                      request=json.dumps({"dice": [3]}))
    body = response.get_json()
    assert response.status_code == 200, body
    built = body["savedgame"]["request"]
    assert [a["unit"] for a in built["attackers"]] == combat.attackers[:1]
    assert combat.defender in [d["unit"] for d in built["defenders"]]
    assert all(d["hex"] == target for d in built["defenders"])
    assert built["dice"] == [3] and body["dice_used"][0]["value"] == 3
    assert len(built["positions"]) > 10  # every unit on the board, both sides
    assert body["outcome"]["result"] == "AD"  # 1:3 column, roll 3: the attacker is depleted


@pytest.mark.slow
def test_the_ruling_log_applies_a_step_loss_to_the_piece(client, modules):
    """Written back: the attacker's piece shows its depleted side when the log is read back."""
    from adjudicator.bridge import load_system_game, read_positions, read_upload

    combat = adjacent_combat("kwb")
    data = setup_file(modules, "kwb", combat.scenario.id)
    sha = kept_upload(client, "/systems/kwb/savedgame", data, name="pusan.vsav")
    form = {"_attackers": combat.attackers[0], "_target_hex": hex_of(combat.game, combat.scenario, combat.defender),
            "intensive": "none", "dice": "3"}
    log = client.post(f"/systems/kwb/savedgame/{sha}/checks/combat/vlog", data=form)
    assert log.status_code == 200, log.get_data(as_text=True)[-2000:]
    after = read_positions(load_system_game("kwb"), read_upload(log.data))
    assert next(u for u in after.units if u.unit.id == combat.attackers[0]).step == "depleted"


def recorded_log(tmp_path, modules, system: str, scenario: str, check: str, request: dict, side: str,
                 wanted=None) -> tuple[bytes, bytes, dict, object]:
    """A ruling recorded by `side` in a new game of a fresh service (its dice chosen so that
    `wanted(outcome)`, when given), and the log its ruling's page writes continuing the scenario's
    setup: (setup, log, game, client)."""
    from adjudicator.checks import get_check
    from adjudicator.testing import choose_seeds, seed_where

    app = make_app(tmp_path)
    client = app.test_client()
    if wanted is not None:
        choose_seeds(app, {system: seed_where(get_check(system, check), request, wanted)})
    game = new_recorded_game(client, system, scenario)
    ruled = client.post(f"/api/v1/games/{game['game_id']}/{check}", json=request, headers=bearer(game["tokens"][side]))
    assert ruled.status_code == 201, ruled.get_json()
    data = setup_file(modules, system, scenario)
    return data, _log_of(client, game, side, data, 1), game, client


def snow_weather_log(tmp_path, modules) -> tuple[bytes, bytes, dict, object]:
    """A HoldFast weather roll of snow by the Communist player, written back (`recorded_log`)."""
    request = {"scenario": "campaign", "turn": 12}  # December: clear 1-2, overcast 3-4, snow 5-6
    return recorded_log(tmp_path, modules, "holdfast", "campaign", "weather", request, "communist",
                        lambda outcome: outcome["weather"] == "snow")


#: Fire and Ice: the Communist earns 3 VPs with the UN at 1: the VP marker goes to 2, its red face up (12.1.1).
VP_TO_THE_COMMUNIST = {"track": 1, "gains": [{"side": "communist", "vp": 3}]}


def track_marker(file: bytes, system: str, marker: str):
    """The marker's piece as the saved-game reader finds it in `file`."""
    from adjudicator.bridge import load_system_game, read_positions, read_upload

    return next(m for m in read_positions(load_system_game(system), read_upload(file)).markers if m.marker == marker)


@pytest.mark.slow
def test_the_ruling_log_moves_the_track_marker_the_ruling_orders(tmp_path, modules):
    """HoldFast's weather roll puts the Weather block on the cell rolled (3; 7): the log the ruling's
    page writes moves it there on the Tracks map, as the extension does, and the log check finds
    the ruling applied, nothing owed."""
    data, log, game, client = snow_weather_log(tmp_path, modules)
    assert track_marker(data, "holdfast", "weather").location.cell == "Clear"  # where the setup puts it
    assert track_marker(log, "holdfast", "weather").location.cell == "Snow"
    report = upload(client, f"/api/v1/games/{game['game_id']}/savedgame/log-check", log,
                    headers=bearer(game["tokens"]["observer"])).get_json()
    assert report["ok"] and report["owed"] == [] and report["rulings"][0]["status"] == "verified", report
    # the ruling's page, with the file kept, says what its log does before it is downloaded
    sha = kept_upload(client, f"/games/{game['game_id']}/savedgame", data, name="campaign.vsav")
    page = html.fromstring(client.get(f"/games/{game['game_id']}/records/1?upload={sha}").get_data(as_text=True))
    said = page.get_element_by_id("piece-changes").text_content()
    assert said == "In the log: the Weather block marker: moved to Weather Track Snow.", said
    (caption,) = page.xpath('//section[@id="record-board"]//figcaption')
    assert caption.text_content() == "The saved game as you may see it."  # a weather roll marks no attack


@pytest.mark.slow
def test_the_ruling_log_flips_the_vp_marker_to_the_side_holding_them(tmp_path, modules):
    """Fire and Ice's one VP marker shows who holds the VPs: the log moves it and turns its face."""
    data, log, game, client = recorded_log(tmp_path, modules, "fireandice", "campaign", "victory_points",
                                           VP_TO_THE_COMMUNIST, "communist")
    before, after = track_marker(data, "fireandice", "vp"), track_marker(log, "fireandice", "vp")
    assert (before.location.cell, before.face) == ("0", "VPs (UN blue)")
    assert (after.location.cell, after.face) == ("2", "VPs (Communist red)")
    report = upload(client, f"/api/v1/games/{game['game_id']}/savedgame/log-check", log,
                    headers=bearer(game["tokens"]["observer"])).get_json()
    assert report["ok"] and report["owed"] == [], report


def test_bad_files_and_bad_pointing_get_problems(client, modules):
    kwb_setup = setup_file(modules, "kwb", "pusan")
    url = "/api/v1/systems/spi/savedgame/checks/combat"
    cases = [
        (upload(client, url, kwb_setup), 422, "wrong-system"),  # another game's module
        (upload(client, url, b"PK\x03\x04 not really a zip"), 422, "bad-savedgame"),
        (upload(client, "/api/v1/systems/kwb/savedgame/checks/combat", kwb_setup, attackers="no-such-unit",
                target_hex="0101"), 422, "unit-not-on-board"),
        (upload(client, "/api/v1/systems/kwb/savedgame/checks/combat", kwb_setup, request="[1"), 400,
         "malformed-json"),
        (upload(client, "/api/v1/systems/kwb/savedgame/checks/no_such_check", kwb_setup), 404, "unknown-check"),
    ]
    for response, status, kind in cases:
        assert response.status_code == status, response.get_data(as_text=True)
        assert response.mimetype == "application/problem+json"
        assert response.get_json()["type"].endswith(f":{kind}")


def test_every_system_lists_the_operation_in_the_openapi_document(client):
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    for system in GAMES:
        operation = paths[f"/api/v1/systems/{system}/savedgame/checks/{{check}}"]["post"]
        checks = next(p for p in operation["parameters"] if p["name"] == "check")["schema"]["enum"]
        assert "combat" in checks
        assert "request" in operation["requestBody"]["content"]["multipart/form-data"]["schema"]["properties"]
    assert "/api/v1/games/{game_id}/savedgame/checks/{check}" in paths


def _page_form(page_html: str, form_id: str) -> MultiDict:
    return MultiDict(list(html.fromstring(page_html).get_element_by_id(form_id).form_values()))


@pytest.mark.slow
def test_the_page_resolves_and_downloads_the_ruling_as_a_log(app, modules, systems):
    """Upload, point, roll in a recorded game, download: the log continues the game with the
    ruling's chat lines (as the ledger renders them) and the pieces the result names changed;
    the defender's block, hidden from the attacker, is left to its owner (VASSAL lets no other
    side's command reach it), who applies the elimination in his next file."""
    from adjudicator.checks import get_check
    from adjudicator.testing import choose_seeds, seed_where

    client = app.test_client()
    combat, data, side, request = holdfast_combat(modules, systems)
    eliminated = seed_where(get_check("holdfast", "combat"), request,
                            lambda outcome: bool(outcome["defender"]) and outcome["defender"]["eliminated"])
    choose_seeds(app, {"holdfast": eliminated})
    game = new_recorded_game(client, "holdfast", combat.scenario.id)
    log_in(client, game, side)
    sha = kept_upload(client, f"/games/{game['game_id']}/savedgame", data, name="campaign.vsav", _check="combat")
    opened = client.get(f"/games/{game['game_id']}/savedgame/{sha}/checks/combat")
    assert opened.status_code == 200
    form = _page_form(opened.get_data(as_text=True), "savedgame-check")
    form.setlist("_attackers", combat.attackers)
    form["_target_hex"] = hex_of(combat.game, combat.scenario, combat.defender)
    form["_resolve"] = "1"
    resolved = client.post(f"/games/{game['game_id']}/savedgame/{sha}/checks/combat", data=form)
    assert resolved.status_code == 303, html.fromstring(resolved.get_data(as_text=True)).get_element_by_id(
        "errors").text_content()
    page = client.get(resolved.headers["Location"]).get_data(as_text=True)
    assert 'id="verification" class="ok"' in page
    said = html.fromstring(page).get_element_by_id("piece-changes").text_content()  # what its log does, told
    assert said.startswith("In the log: ") and "to be applied by the UN player (his piece is hidden from you)" in said, said
    captions = {c.text_content() for c in html.fromstring(page).xpath('//section[@id="record-board"]//figcaption')}
    assert captions == {"The saved game as you may see it: the attacking units ringed in blue, the hex attacked in red."}
    shown = html.fromstring(page).get_element_by_id("situation").text_content()
    names = UnitNames.of("holdfast")  # the situation's units as their counters read, never by id (issue 51)
    assert all(names.name(unit) in shown and unit not in shown for unit in combat.attackers)

    log = client.get(html.fromstring(page).get_element_by_id("download-vlog").get("href"))
    assert log.status_code == 200 and log.headers["Content-Disposition"].endswith('-record-1.vlog"')
    back = read_saved_game(log.data)
    chats = [c[len("CHAT"):] for c in back.other_commands if c.startswith("CHAT")]
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"][side])).get_json()
    record = ledger["records"][1]
    (ruling,) = parse_transcript(chats)
    assert back.is_log and (ruling.game_id, ruling.seq) == (game["game_id"], 1)
    assert record["hash"].startswith(ruling.hash_prefix) and ruling.hash_prefix
    defender = record["body"]["result"]["outcome"]["defender"]
    assert defender["unit"] == combat.defender and defender["eliminated"]
    before = {p.piece_id: p for p in read_saved_game(data).pieces}
    after = {p.piece_id: p for p in back.pieces}
    piece = next(p for p in after.values() if p.properties.get("UnitId") == combat.defender)
    assert (piece.map_id, piece.x, piece.y) == (before[piece.piece_id].map_id, before[piece.piece_id].x,
                                                before[piece.piece_id].y)  # left where it stood, for its owner
    report = upload(client, f"/api/v1/games/{game['game_id']}/savedgame/log-check", log.data,
                    headers=bearer(game["tokens"]["observer"])).get_json()
    assert report["ok"] and [(o["seq"], o["unit"], o["status"]) for o in report["owed"]] == \
        [(1, combat.defender, "pending")]
    assert "in his next file" in report["owed"][0]["why"] and report["rulings"][0]["status"] == "verified"

    # the block's owner, on the same ruling's page with his own file: the log it writes eliminates his
    # block (his to change), and the log check finds the change made in the owner's file
    owner = {"communist": "un", "un": "communist"}[side]
    log_in(client, game, owner)
    mine = kept_upload(client, f"/games/{game['game_id']}/savedgame", data, name="campaign.vsav")
    page = html.fromstring(client.get(f"/games/{game['game_id']}/records/1?upload={mine}").get_data(as_text=True))
    said = page.get_element_by_id("piece-changes").text_content()
    assert f"{names.name(combat.defender)}: to " in said and "hidden from you" not in said.split(names.name(combat.defender))[1], said
    applied = client.get(f"/games/{game['game_id']}/records/1/vlog?upload={mine}").data
    moved = next(p for p in read_saved_game(applied).pieces if p.properties.get("UnitId") == combat.defender)
    assert moved.map_id == "Boxes"  # in its dead pile
    report = upload(client, f"/api/v1/games/{game['game_id']}/savedgame/log-check", applied,
                    headers=bearer(game["tokens"]["observer"])).get_json()
    assert report["ok"] and report["owed"] == [], report



def holdfast_combat(modules, systems) -> tuple:
    """The holdfast setup's combat: (the combat, the setup's bytes, the attacking side, the check's
    request the file builds for it)."""
    combat = adjacent_combat("holdfast")
    data = setup_file(modules, "holdfast", combat.scenario.id)
    side = combat.game.units[combat.attackers[0]].side
    request = board_request("holdfast", combat.scenario.id, data, "combat", side, combat.attackers,
                            hex_of(combat.game, combat.scenario, combat.defender),
                            player_fields(systems["holdfast"], "combat"))
    return combat, data, side, request


def _recorded_combats(app, client, modules, systems, count: int, wanted):
    """A holdfast game with `count` combats of the setup's units rolled from the file, its dice
    chosen so that the first one's outcome is `wanted`: (game, side, setup bytes)."""
    from adjudicator.checks import get_check
    from adjudicator.testing import choose_seeds, seed_where

    combat, data, side, request = holdfast_combat(modules, systems)
    choose_seeds(app, {"holdfast": seed_where(get_check("holdfast", "combat"), request, wanted)})
    game = new_recorded_game(client, "holdfast", combat.scenario.id)
    for _ in range(count):
        response = upload(client, f"/api/v1/games/{game['game_id']}/savedgame/checks/combat", data,
                          headers=bearer(game["tokens"][side]), attackers=",".join(combat.attackers),
                          target_hex=hex_of(combat.game, combat.scenario, combat.defender),
                          request=json.dumps(player_fields(systems["holdfast"], "combat")))
        assert response.status_code == 201, response.get_json()
    return game, side, data


def attacker_loses(side: str):
    """`wanted` for a combat whose attacker's own blocks lose SP (a change the attacker applies)."""
    from adjudicator.unit_changes import ruled_changes
    from adjudicator.unit_owners import owners_of

    return lambda outcome: any(c.applied_by == side and c.kind != "returned"
                               for c in ruled_changes(outcome, owners_of("holdfast"), side))


def nobody_eliminated(outcome) -> bool:
    from adjudicator.unit_changes import ruled_changes

    return not any(c.eliminated for c in ruled_changes(outcome))


def _log_of(client, game, side, data, seq: int) -> bytes:
    """Record `seq` as the ruling's page downloads it: the setup continued by the ruling."""
    log_in(client, game, side)
    sha = kept_upload(client, f"/games/{game['game_id']}/savedgame", data, name="campaign.vsav")
    response = client.get(f"/games/{game['game_id']}/records/{seq}/vlog?upload={sha}")
    assert response.status_code == 200
    return response.data


@pytest.mark.slow
def test_a_log_is_checked_against_the_ledger_hidden_forged_and_altered_rulings(app, client, modules, systems):
    from vassalfmt import continue_log
    from vassalfmt.commands import chat_command

    # the second: a reroll (allowed: the first eliminates no block, so both may fight again)
    game, side, data = _recorded_combats(app, client, modules, systems, 2, nobody_eliminated)
    log = _log_of(client, game, side, data, 1)
    observer = game["tokens"]["observer"]
    url = f"/api/v1/games/{game['game_id']}/savedgame/log-check"

    honest_but_hiding = upload(client, url, log, headers=bearer(observer)).get_json()
    assert [(r["seq"], r["status"]) for r in honest_but_hiding["rulings"]] == [(1, "verified")]
    assert [h["seq"] for h in honest_but_hiding["hidden"]] == [2] and not honest_but_hiding["ok"]

    lines = [c[len("CHAT"):] for c in read_saved_game(log).other_commands if c.startswith("CHAT")]
    altered = [line.replace("dice: attacker combat dice d6 ", "dice: attacker combat dice d6 6 ") if "] dice: " in line else line
               for line in lines]
    forged = [f"[ADJ {game['game_id']}#7] HoldFast Korea: combat", f"[ADJ {game['game_id']}#7] = hits on defender: 4",
              f"[ADJ {game['game_id']}#7] receipt: record 7 hash 0123456789abcdef"]
    tampered = continue_log(data, [chat_command(line) for line in altered + forged])
    report = upload(client, url, tampered, headers=bearer(observer)).get_json()
    assert [(r["seq"], r["status"]) for r in report["rulings"]] == [(1, "altered"), (7, "forged")]
    assert "attacker combat dice" in report["rulings"][0]["why"]
    assert report["ledger"]["ok"] and not report["ok"]

    assert upload(client, url, b"not a zip", headers=bearer(observer)).status_code == 422
    assert upload(client, url, log).status_code == 401


@pytest.mark.slow
def test_the_log_check_page_and_the_client_command(app, client, modules, systems, tmp_path, capsys):
    from adjudicator.client.cli import main
    from test_bridge_helpers import running_server

    game, side, data = _recorded_combats(app, client, modules, systems, 1, nobody_eliminated)
    log = _log_of(client, game, side, data, 1)
    log_in(client, game, "observer")
    page = upload(client, f"/games/{game['game_id']}/log-check", log, name="from-opponent.vlog")
    body = html.fromstring(page.get_data(as_text=True))
    assert page.status_code == 200
    assert "✔" in body.get_element_by_id("log-verdict").text_content()
    assert body.get_element_by_id("ruling-1").get("data-status") == "verified"
    path = tmp_path / "from-opponent.vlog"
    path.write_bytes(log)
    with running_server(app) as url:
        status = main(["verify-log", str(path), "--game", game["game_id"], "--token", game["tokens"]["observer"],
                       "--server", url])
    assert status == 0 and "record 1: verified" in capsys.readouterr().out


@pytest.mark.slow
def test_a_log_that_drops_what_a_ruling_did_to_the_pieces_is_not_ok(app, client, modules, systems):
    """The ruling's lines alone are not the ruling: a log that keeps them but not the step loss
    or removal the ruling ordered (the flip deleted from the .vlog) is reported, by name."""
    from vassalfmt import continue_log
    from vassalfmt.commands import chat_command

    combat = adjacent_combat("holdfast")
    side = combat.game.units[combat.attackers[0]].side
    game, side, data = _recorded_combats(app, client, modules, systems, 1, attacker_loses(side))
    setup_units = {p.properties.get("UnitId"): p.piece.state_string() for p in read_saved_game(data).pieces}
    seq = 1
    log = _log_of(client, game, side, data, seq)
    after = {p.properties.get("UnitId"): p.piece.state_string() for p in read_saved_game(log).pieces}
    assert after != setup_units  # the write-back changed the attacker's own block
    url = f"/api/v1/games/{game['game_id']}/savedgame/log-check"
    observer = bearer(game["tokens"]["observer"])
    honest = upload(client, url, log, headers=observer).get_json()
    assert [(r["seq"], r["status"]) for r in honest["rulings"]] == [(seq, "verified")], honest

    lines = [c[len("CHAT"):] for c in read_saved_game(log).other_commands if c.startswith("CHAT")]
    without_the_flip = continue_log(data, [chat_command(line) for line in lines])
    report = upload(client, url, without_the_flip, headers=observer).get_json()
    (ruling,) = report["rulings"]
    assert (ruling["seq"], ruling["status"]) == (seq, "not-applied") and not report["ok"]
    changed = next(u for u in sorted(set(after) | set(setup_units), key=str) if after.get(u) != setup_units.get(u))
    called = UnitNames.of("holdfast").name(changed)  # the verdict's words name units as their counters read
    assert called in ruling["why"] and "the log does not show it" in ruling["why"]
