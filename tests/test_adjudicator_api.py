"""The HTTP API in-process: compute mode, game mode, tokens, idempotency, problem+json errors."""

import pytest

from adjudicator.checks import all_checks

from adjudicator.testing import probe_check, a_side, bearer, choose_seeds, make_app, new_game, seed_where

ROLL = "/api/v1/games/{}/probe_roll"


@pytest.fixture(autouse=True)
def probe():
    """The service is tested through a probe check registered for each test."""
    with probe_check() as spec:
        yield spec


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def assert_problem(response, status):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["status"] == status and body["title"]
    assert "Traceback" not in response.get_data(as_text=True)
    return body


# -- discovery ---------------------------------------------------------------------------


def test_systems_lists_four_systems_with_scenarios_and_check_schemas(client):
    systems = client.get("/api/v1/systems").get_json()["systems"]
    assert [s["id"] for s in systems] == ["kwb", "spi", "holdfast", "fireandice"]
    for system in systems:
        assert system["scenarios"] and system["checks"]
        for check in system["checks"]:
            assert check["request_schema"]["type"] == "object"
            assert check["rule"]


def test_openapi_document_covers_every_check(client):
    document = client.get("/api/v1/openapi.json").get_json()
    assert document["openapi"].startswith("3.1")
    systems = client.get("/api/v1/systems").get_json()["systems"]
    for system in systems:
        for check in system["checks"]:
            operation = document["paths"][check["compute_url"]]["post"]
            ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            assert ref.rsplit("/", 1)[-1] in document["components"]["schemas"]
            assert f"/api/v1/games/{{game_id}}/{check['name']}" in document["paths"]


def test_docs_page_lists_the_operations(client):
    page = client.get("/api/v1/docs").get_data(as_text=True)
    assert "/api/v1/systems/kwb/probe_roll" in page and "/api/v1/verify" in page


def test_ping(client):
    assert client.get("/ping").get_json() == {"ok": True}


# -- compute mode ------------------------------------------------------------------------


def test_compute_mode_resolves_with_supplied_dice(client):
    response = client.post("/api/v1/systems/kwb/probe_roll", json={"target": 7, "dice_count": 2, "dice": [3, 4]})
    assert response.status_code == 200
    body = response.get_json()
    assert body["outcome"] == {"total": 7, "hit": True}
    assert body["dice_used"] == [{"sides": 6, "purpose": "probe die", "value": 3},
                                 {"sides": 6, "purpose": "probe die", "value": 4}]
    assert all(step["rule"] for step in body["steps"])


def test_compute_mode_matches_game_mode_for_the_same_dice(client, probe):
    situation = {"target": 11, "dice_count": 3, "cautious": True}
    # Dice totalling 11: a hit but for the caution, so both modes must read the same field the same way.
    choose_seeds(client.application, {"kwb": seed_where(probe, situation, lambda o: o["total"] == 11)})
    game = new_game(client)
    rolled = client.post(ROLL.format(game["game_id"]), json=situation, headers=bearer(a_side(game))).get_json()
    assert rolled["outcome"] == {"total": 11, "hit": False}
    dice = [d["value"] for d in rolled["dice_used"]]
    computed = client.post("/api/v1/systems/kwb/probe_roll", json={**situation, "dice": dice}).get_json()
    for field in ("outcome", "steps", "warnings", "dice_used"):
        assert computed[field] == rolled[field]


def test_compute_mode_stores_nothing(client, tmp_path):
    client.post("/api/v1/systems/kwb/probe_roll", json={"target": 2, "dice": [1]})
    store = client.application.extensions["adjudicator"].store
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM ledger_records").scalar() == 0


@pytest.mark.parametrize(
    "dice, pointer",
    [([], "/dice"), ([3, 4], "/dice/1"), ([7], "/dice/0"), ([0], "/dice/0")],
)
def test_compute_mode_dice_errors_point_at_the_die(client, dice, pointer):
    response = client.post("/api/v1/systems/kwb/probe_roll", json={"target": 4, "dice": dice})
    body = assert_problem(response, 422)
    assert body["errors"][0]["pointer"] == pointer


# -- problem+json on bad input ------------------------------------------------------------


def test_malformed_json_is_400(client):
    response = client.post("/api/v1/systems/kwb/probe_roll", data="{not json",
                           content_type="application/json")
    assert_problem(response, 400)


def test_wrong_types_give_field_level_422(client):
    response = client.post("/api/v1/systems/kwb/probe_roll",
                           json={"target": "soon", "dice": ["six"], "extra": 1})
    body = assert_problem(response, 422)
    pointers = {error["pointer"] for error in body["errors"]}
    assert pointers == {"/target", "/dice/0", "/extra"}


def test_out_of_range_value_is_422(client):
    response = client.post("/api/v1/systems/kwb/probe_roll", json={"target": 37, "dice": [1]})
    assert assert_problem(response, 422)["errors"][0]["code"] == "less_than_equal"


def test_non_object_body_is_422(client):
    response = client.post("/api/v1/systems/kwb/probe_roll", json=[1, 2])
    assert_problem(response, 422)


def test_oversize_body_is_413(tmp_path):
    client = make_app(tmp_path, ADJUDICATOR_MAX_BODY_BYTES=1024).test_client()
    response = client.post("/api/v1/systems/kwb/probe_roll",
                           data=b'{"target": 3, "pad": "' + b"x" * 4096 + b'"}',
                           content_type="application/json")
    assert_problem(response, 413)


def test_wrong_content_type_is_415(client):
    response = client.post("/api/v1/systems/kwb/probe_roll", data="target=3",
                           content_type="application/x-www-form-urlencoded")
    assert_problem(response, 415)


@pytest.mark.parametrize("url", ["/api/v1/systems/nope/combat", "/api/v1/systems/kwb/nope", "/api/v1/nothing-here"])
def test_unknown_system_check_or_path_is_404(client, url):
    assert_problem(client.post(url, json={}), 404)


def test_wrong_method_is_405_with_allow(client):
    response = client.get("/api/v1/systems/kwb/probe_roll")
    assert_problem(response, 405)
    assert "POST" in response.headers["Allow"]


def test_unexpected_error_is_500_problem_without_traceback(tmp_path):
    app = make_app(tmp_path)

    @app.get("/api/v1/boom")
    def boom():
        raise RuntimeError("secret internal detail")

    @app.get("/boom")
    def boom_page():
        raise RuntimeError("secret internal detail")

    response = app.test_client().get("/api/v1/boom")
    body = assert_problem(response, 500)
    assert "secret internal detail" not in response.get_data(as_text=True)
    assert body["title"] == "Internal Server Error"
    page = app.test_client().get("/boom")  # a page: a page says so, without the detail either
    assert page.status_code == 500 and page.mimetype == "text/html"
    assert "secret internal detail" not in page.get_data(as_text=True)


def test_unknown_scenario_is_422(client):
    response = client.post("/api/v1/games", json={"system": "kwb", "scenario": "atlantis"})
    assert assert_problem(response, 422)["errors"][0]["pointer"] == "/scenario"


def test_rate_limit_is_a_429_problem(tmp_path):
    client = make_app(tmp_path, ADJUDICATOR_RATELIMIT_ENABLED=True,
                      ADJUDICATOR_RATE_LIMIT_TOKEN="3/minute").test_client()
    game = new_game(client)
    token = a_side(game)
    statuses = [client.post(ROLL.format(game["game_id"]), json={"target": 2}, headers=bearer(token)).status_code
                for _ in range(4)]
    assert statuses == [201, 201, 201, 429]
    response = client.post(ROLL.format(game["game_id"]), json={"target": 2}, headers=bearer(token))
    assert_problem(response, 429)
    other = new_game(client)  # limits count per token: another game's token is unaffected
    ok = client.post(ROLL.format(other["game_id"]), json={"target": 2}, headers=bearer(a_side(other)))
    assert ok.status_code == 201


# -- game mode ---------------------------------------------------------------------------


def test_create_game_returns_tokens_and_commitment(client):
    game = new_game(client, "kwb")
    assert set(game["tokens"]) == {"un", "communist", "observer"}
    assert len(set(game["tokens"].values())) == 3
    assert len(game["seed_commitment"]) == 64
    assert game["genesis"]["body"]["result"]["seed_commitment"] == game["seed_commitment"]


@pytest.mark.slow
def test_a_test_apps_unchosen_seeds_are_the_same_every_run_and_differ_by_game(tmp_path):
    """A test that chooses no dice still rolls the same dice every run: the n-th game of every app made
    by `make_app` commits to the same seed, and no two games of one app share one (a seed chosen for
    other games in between or not)."""
    first, second = (make_app(tmp_path / name).test_client() for name in ("first", "second"))
    commitments = [[new_game(client)["seed_commitment"] for _ in range(3)] for client in (first, second)]
    assert commitments[0] == commitments[1] and len(set(commitments[0])) == 3
    choose_seeds(first.application, {"spi": b"\x01" * 32})  # a seed chosen for other games: the count goes on
    assert new_game(first, "kwb")["seed_commitment"] not in commitments[0]


def test_game_roll_returns_result_with_receipt(client, probe):
    # A 4 against a target of 4: the least die that hits.
    choose_seeds(client.application, {"kwb": seed_where(probe, {"target": 4}, lambda o: o["total"] == 4)})
    game = new_game(client)
    response = client.post(ROLL.format(game["game_id"]), json={"target": 4, "request_id": "t4"},
                           headers=bearer(a_side(game)))
    assert response.status_code == 201
    body = response.get_json()
    assert body["seq"] == 1 and body["request_id"] == "t4"
    assert body["receipt"]["hash"] == body["hash"] and body["receipt"]["seq"] == 1
    assert body["dice_used"] == [{"sides": 6, "purpose": "probe die", "value": 4}]
    assert body["outcome"] == {"total": 4, "hit": True}


def test_idempotent_retry_returns_the_same_result(client):
    game = new_game(client)
    url, headers = ROLL.format(game["game_id"]), bearer(a_side(game))
    first = client.post(url, json={"target": 3, "request_id": "once"}, headers=headers)
    retries = [client.post(url, json={"target": 3, "request_id": "once"}, headers=headers) for _ in range(3)]
    assert first.status_code == 201
    for retry in retries:
        assert retry.status_code == 200 and retry.headers["Idempotent-Replayed"] == "true"
        assert retry.get_json() == first.get_json()
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=headers).get_json()
    assert len(ledger["records"]) == 2


def test_reused_request_id_with_other_body_is_409(client):
    game = new_game(client)
    url, headers = ROLL.format(game["game_id"]), bearer(a_side(game))
    client.post(url, json={"target": 3, "request_id": "once"}, headers=headers)
    response = client.post(url, json={"target": 5, "request_id": "once"}, headers=headers)
    assert assert_problem(response, 409)["type"].endswith("idempotency-conflict")


@pytest.mark.slow
def test_without_request_id_every_call_is_a_new_roll(client):
    game = new_game(client)
    url, headers = ROLL.format(game["game_id"]), bearer(a_side(game))
    seqs = [client.post(url, json={"target": 3}, headers=headers).get_json()["seq"] for _ in range(3)]
    assert seqs == [1, 2, 3]


def test_token_of_one_game_never_works_on_another(client):
    a, b = new_game(client), new_game(client)
    for token in a["tokens"].values():
        assert_problem(client.post(ROLL.format(b["game_id"]), json={"target": 3}, headers=bearer(token)), 403)
        assert_problem(client.get(f"/api/v1/games/{b['game_id']}/ledger", headers=bearer(token)), 403)
        assert_problem(client.post(f"/api/v1/games/{b['game_id']}/close", headers=bearer(token)), 403)
    ledger = client.get(f"/api/v1/games/{b['game_id']}/ledger", headers=bearer(b["tokens"]["observer"]))
    assert ledger.status_code == 200 and len(ledger.get_json()["records"]) == 1


@pytest.mark.slow
@pytest.mark.parametrize("header", [None, "Bearer", "Bearer not-a-token", "Basic dXNlcjpwYXNz"])
def test_missing_or_wrong_token_is_401(client, header):
    game = new_game(client)
    headers = {"Authorization": header} if header else {}
    for response in (
        client.post(ROLL.format(game["game_id"]), json={"target": 3}, headers=headers),
        client.post(f"/api/v1/games/{game['game_id']}/close", headers=headers),
        client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=headers),
    ):
        assert_problem(response, 401)
        assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_observer_token_is_read_only(client):
    game = new_game(client)
    observer = bearer(game["tokens"]["observer"])
    assert_problem(client.post(ROLL.format(game["game_id"]), json={"target": 3}, headers=observer), 403)
    assert_problem(client.post(f"/api/v1/games/{game['game_id']}/close", headers=observer), 403)


def test_check_of_another_system_is_404_in_a_game(client):
    game = new_game(client, "kwb")
    kwb_names = {spec.name for spec in all_checks() if spec.system == "kwb"}
    other = next((spec.name for spec in all_checks() if spec.name not in kwb_names), None)
    if other is None:
        pytest.skip("every check name of the other systems is also a KWB check")
    response = client.post(f"/api/v1/games/{game['game_id']}/{other}", json={},
                           headers=bearer(a_side(game)))
    assert_problem(response, 404)


def test_game_mode_refuses_supplied_dice(client):
    game = new_game(client)
    response = client.post(ROLL.format(game["game_id"]), json={"target": 3, "dice": [1]},
                           headers=bearer(a_side(game)))
    assert assert_problem(response, 422)["errors"][0]["pointer"] == "/dice"


def test_close_reveals_seed_matching_commitment_and_stops_rolls(client):
    import hashlib

    game = new_game(client)
    headers = bearer(a_side(game))
    closed = client.post(f"/api/v1/games/{game['game_id']}/close", headers=headers).get_json()
    assert hashlib.sha256(bytes.fromhex(closed["seed"])).hexdigest() == game["seed_commitment"]
    response = client.post(ROLL.format(game["game_id"]), json={"target": 3}, headers=headers)
    assert assert_problem(response, 409)["type"].endswith("game-closed")


def test_well_known_keys_lists_the_signing_key(client):
    document = client.get("/.well-known/adjudicator-keys.json").get_json()
    (key,) = document["keys"]
    assert key["alg"] == "Ed25519" and key["retired"] is None
    assert key["public_key_pem"].startswith("-----BEGIN PUBLIC KEY-----")


def test_signing_key_file_is_private(tmp_path):
    make_app(tmp_path)
    assert (tmp_path / "signing-key.pem").stat().st_mode & 0o777 == 0o600


def test_situation_error_from_rules_is_422_and_records_nothing(tmp_path, probe):
    from adjudicator.checks import SituationError

    def refuses(req, dice):
        dice.roll(6, purpose="rolled before the rules noticed")
        raise SituationError("the probe cannot be rolled in this situation")

    object.__setattr__(probe, "function", refuses)  # CheckSpec is frozen; the fixture drops it after
    client = make_app(tmp_path).test_client()
    body = assert_problem(client.post("/api/v1/systems/kwb/probe_roll", json={"target": 3, "dice": [2]}), 422)
    assert body["detail"] == "the probe cannot be rolled in this situation"
    game = new_game(client)
    response = client.post(ROLL.format(game["game_id"]), json={"target": 3}, headers=bearer(a_side(game)))
    assert_problem(response, 422)
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(a_side(game))).get_json()
    assert len(ledger["records"]) == 1
