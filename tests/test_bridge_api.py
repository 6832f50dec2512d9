"""The saved-game API in-process: positions, supply (compute and game mode), hostile uploads."""

from __future__ import annotations

import io
import random
import zipfile

import pytest
from test_bridge_helpers import (
    SCENARIO,
    SYSTEM,
    install_tracer,
    kwb,
    make_tracer,
    pixel,
    remove_tracer,
    savedgame_bytes,
    setup_units,
)

from adjudicator.testing import a_side, bearer, make_app, new_game
from vassalfmt import ModuleData, build_zip, obfuscate
from vassalfmt.commands import join_commands

POSITIONS = f"/api/v1/systems/{SYSTEM}/savedgame/positions"
SUPPLY = f"/api/v1/systems/{SYSTEM}/savedgame/supply"


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


@pytest.fixture(scope="module")
def game():
    return kwb()


@pytest.fixture(scope="module")
def units(game):
    return setup_units(game, SCENARIO, 12)


@pytest.fixture(scope="module")
def vsav(game, units):
    return savedgame_bytes(game, units)


def upload(client, url, data, name="game.vsav", **form):
    return client.post(url, data={"file": (io.BytesIO(data), name), **form},
                       content_type="multipart/form-data")


def assert_problem(response, status):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["status"] == status and body["title"] and body.get("detail")
    assert "Traceback" not in response.get_data(as_text=True)
    return body


# -- positions -----------------------------------------------------------------------------------

def test_positions_by_multipart_give_every_unit_by_hex(client, game, units, vsav):
    response = upload(client, POSITIONS, vsav)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    expected: dict[str, list[str]] = {}
    for unit_id, _map, label, _step in units:
        expected.setdefault(label, []).append(unit_id)
    assert body["by_hex"] == {"pusan": {h: expected[h] for h in sorted(expected)}}
    by_unit = {u["unit"]: u for u in body["units"]}
    for unit_id, map_id, label, step in units:
        u = by_unit[unit_id]
        assert u["location"]["kind"] == "hex" and u["location"]["hex"] == label
        assert u["step"] == game.units[unit_id].steps[step].name
        assert u["side"] == game.units[unit_id].side and u["identified_by"] == "properties"
    assert body["unidentified"] == [] and body["file"]["name"] == "game.vsav"
    assert body["scenario_candidates"] == [SCENARIO]


def test_positions_by_raw_body(client, vsav, units):
    response = client.post(POSITIONS, data=vsav, content_type="application/octet-stream")
    assert response.status_code == 200
    assert response.get_json()["counts"]["on_map"] == len(units)


@pytest.mark.slow
def test_log_moves_are_applied(client, game, units):
    moved = units[0][0]
    data = savedgame_bytes(game, units, log_moves=[(moved, "pusan", "1010")])
    body = upload(client, POSITIONS, data, "game.vlog").get_json()
    assert body["is_log"] and body["file"]["is_log"]
    assert moved in body["by_hex"]["pusan"]["1010"]


def test_other_modules_pieces_are_matched_by_name_or_reported(client, game):
    unit = next(u for u in game.units.values() if u.name and u.side == "communist")
    vmap, x, y = pixel(game, "pusan", "1212")
    data = savedgame_bytes(game, [], named=[(unit.name, vmap, x, y), ("Mystery Brigade", vmap, x, y)])
    body = upload(client, POSITIONS, data).get_json()
    assert [u["unit"] for u in body["units"]] == [unit.id]
    assert body["units"][0]["identified_by"] == "name" and body["units"][0]["step"] is None
    assert body["by_hex"] == {"pusan": {"1212": [unit.id]}}
    (mystery,) = body["unidentified"]
    assert mystery["name"] == "Mystery Brigade" and "Mystery Brigade" in mystery["reason"]


def test_a_save_of_another_system_is_refused(client, vsav):
    body = assert_problem(upload(client, "/api/v1/systems/spi/savedgame/positions", vsav), 422)
    assert "kwb" in body["detail"]


def test_unknown_system_is_404(client, vsav):
    assert_problem(upload(client, "/api/v1/systems/nosuch/savedgame/positions", vsav), 404)


# -- hostile and damaged uploads -------------------------------------------------------------

def _zip_with(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.slow
def test_no_file_is_400(client):
    assert_problem(client.post(POSITIONS, data=b"", content_type="application/octet-stream"), 400)
    assert_problem(client.post(POSITIONS, data={"side": "un"}, content_type="multipart/form-data"), 400)


@pytest.mark.slow
@pytest.mark.parametrize("data,words", [
    (b"hello, not a zip", "not a zip"),
    (b"PK\x03\x04" + b"\x00" * 100, "damaged"),
    (_zip_with({"notes.txt": b"hi"}), "savedGame"),
    (_zip_with({"buildFile.xml": b"<x/>"}), "module"),
    (_zip_with({"../../etc/passwd": b"x", "savedGame": b""}), "unsafe"),
    (_zip_with({"/abs/path": b"x"}), "unsafe"),
    (_zip_with({"savedGame": b"!VCSKzz"}), "damaged"),
    (_zip_with({"savedGame": b"\xff\xfe\xfd"}), "UTF-8"),
    (_zip_with({f"e{i}": b"" for i in range(100)}), "entries"),
])
def test_damaged_uploads_get_a_clear_4xx(client, data, words):
    body = assert_problem(upload(client, POSITIONS, data), 422)
    assert words.lower() in body["detail"].lower()


@pytest.mark.slow
def test_a_zip_bomb_is_refused_without_unpacking_it(client):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open("savedGame", "w", force_zip64=True) as entry:
            block = b"\0" * (1 << 20)
            for _ in range(80):  # 80 MB of zeros, ~80 KB compressed
                entry.write(block)
    data = buffer.getvalue()
    assert len(data) < 1_000_000
    body = assert_problem(upload(client, POSITIONS, data), 413)  # a file too large here, with what to do
    assert "too large" in body["detail"] or "zip bomb" in body["detail"]
    assert "End Logfile" in body["detail"]


@pytest.mark.slow
def test_an_oversized_upload_is_413(client):
    assert_problem(client.post(POSITIONS, data=b"PK" + b"\0" * (17 * 1024 * 1024),
                               content_type="application/octet-stream"), 413)


def test_xml_entities_in_metadata_are_not_resolved(client, game, units):
    good = zipfile.ZipFile(io.BytesIO(savedgame_bytes(game, units)))
    xxe = (b'<?xml version="1.0"?><!DOCTYPE data [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
           b"<data><name>&x;</name></data>")
    data = _zip_with({"savedGame": good.read("savedGame"), "moduledata": xxe, "savedata": xxe})
    response = upload(client, POSITIONS, data)
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert "root:" not in text and "DOCTYPE" in text  # refused, and said so in the warnings


def test_deeply_nested_commands_are_refused(client):
    text = "begin_save"
    for _ in range(60):
        text = join_commands([text, "x"])
    data = build_zip({"savedGame": obfuscate(text), "moduledata": ModuleData(name="k").to_xml()})
    assert_problem(upload(client, POSITIONS, data), 422)


@pytest.mark.slow
def test_mutated_saved_games_never_give_a_server_error(client, vsav):
    rng = random.Random(1950)
    statuses = set()
    for _ in range(150):
        data = bytearray(vsav)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        if rng.random() < 0.2:
            data = data[: rng.randrange(len(data))]
        response = upload(client, POSITIONS, bytes(data))
        statuses.add(response.status_code)
        assert response.status_code in (200, 400, 413, 422), response.get_data(as_text=True)
    assert 422 in statuses


# -- supply, compute mode -------------------------------------------------------------------------

@pytest.mark.slow
def test_supply_without_a_tracer_is_501(client, vsav, monkeypatch):
    remove_tracer(monkeypatch, SYSTEM)
    body = assert_problem(upload(client, SUPPLY, vsav), 501)
    assert "no supply tracer" in body["detail"].lower()


def test_supply_reports_each_side_from_the_tracer(client, game, units, vsav, monkeypatch):
    out_hex = units[0][2]
    tracer = make_tracer({out_hex})
    install_tracer(monkeypatch, SYSTEM, tracer)
    body = upload(client, SUPPLY, vsav).get_json()
    assert body["scenario"] == SCENARIO and body["scenario_guessed"] is True
    assert [s["side"] for s in body["sides"]] == list(game.sides)
    # the tracer saw every unit on the map, of both sides, in the scenario of the file
    for scenario_id, _side, positions in tracer.calls:
        assert scenario_id == SCENARIO
        assert sorted(u.unit for u in positions) == sorted(u for u, *_ in units)
    reported = {u["unit"]: u for s in body["sides"] for u in s["units"]}
    assert set(reported) == {u for u, *_ in units}
    for unit_id, _map, label, _step in units:
        assert reported[unit_id]["in_supply"] == (label != out_hex)


def test_supply_for_one_side_by_query_or_form(client, game, vsav, monkeypatch):
    install_tracer(monkeypatch, SYSTEM, make_tracer(set()))
    side = next(iter(game.sides))
    by_query = upload(client, f"{SUPPLY}?side={side}&scenario={SCENARIO}", vsav).get_json()
    by_form = upload(client, SUPPLY, vsav, side=game.sides[side].name.upper(), scenario=SCENARIO).get_json()
    assert [s["side"] for s in by_query["sides"]] == [side] == [s["side"] for s in by_form["sides"]]
    assert by_query["scenario_guessed"] is False


@pytest.mark.slow
def test_supply_refuses_unknown_side_and_scenario_and_asks_for_one(client, game, vsav, monkeypatch):
    install_tracer(monkeypatch, SYSTEM, make_tracer(set()))
    assert_problem(upload(client, f"{SUPPLY}?side=martians", vsav), 422)
    assert_problem(upload(client, f"{SUPPLY}?scenario=atlantis", vsav), 422)
    empty = savedgame_bytes(game, [])
    body = assert_problem(upload(client, SUPPLY, empty), 422)
    assert "scenario" in body["detail"]


# -- supply, game mode ------------------------------------------------------------------------

def test_game_mode_supply_is_recorded_and_idempotent(client, game, units, vsav, monkeypatch):
    install_tracer(monkeypatch, SYSTEM, make_tracer({units[1][2]}))
    created = new_game(client, SYSTEM, SCENARIO)
    url = f"/api/v1/games/{created['game_id']}/savedgame/supply?request_id=turn-3-supply"
    token = bearer(a_side(created))
    first = client.post(url, data={"file": (io.BytesIO(vsav), "g.vsav")}, headers=token,
                        content_type="multipart/form-data")
    assert first.status_code == 201, first.get_json()
    record = first.get_json()
    assert record["check"] == "savedgame_supply" and record["seq"] == 1
    assert record["dice_used"] == [] and record["outcome"]["scenario"] == SCENARIO
    again = client.post(url, data={"file": (io.BytesIO(vsav), "g.vsav")}, headers=token,
                        content_type="multipart/form-data")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["hash"] == record["hash"]
    ledger = client.get(f"/api/v1/games/{created['game_id']}/ledger", headers=token).get_json()
    body = ledger["records"][1]["body"]
    assert body["check"] == f"{SYSTEM}.savedgame_supply"
    assert {p["unit"] for p in body["request"]["positions"]} == {u for u, *_ in units}
    assert len(body["request"]["savedgame"]["sha256"]) == 64
    verified = client.post("/api/v1/verify", json={"ledger": ledger}).get_json()
    assert verified["ok"], verified


def test_game_mode_needs_a_side_token_and_the_games_scenario(client, vsav, monkeypatch):
    install_tracer(monkeypatch, SYSTEM, make_tracer(set()))
    created = new_game(client, SYSTEM, SCENARIO)
    url = f"/api/v1/games/{created['game_id']}/savedgame/supply"
    assert_problem(client.post(url, data=vsav, content_type="application/octet-stream"), 401)
    assert_problem(client.post(url, data=vsav, content_type="application/octet-stream",
                               headers=bearer(created["tokens"]["observer"])), 403)
    assert_problem(client.post(f"{url}?scenario=seoul", data=vsav, content_type="application/octet-stream",
                               headers=bearer(a_side(created))), 422)


def test_openapi_documents_the_savedgame_paths(client):
    document = client.get("/api/v1/openapi.json").get_json()
    for path in ("/api/v1/systems/{system}/savedgame/positions",
                 "/api/v1/systems/{system}/savedgame/supply",
                 "/api/v1/games/{game_id}/savedgame/supply"):
        operation = document["paths"][path]["post"]
        assert "multipart/form-data" in operation["requestBody"]["content"]
    assert "SavedGamePositions" in document["components"]["schemas"]
