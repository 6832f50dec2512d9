"""The request-body size limit holds however the body arrives, and on endpoints that take none.

(tests/test_security_api.py checks every JSON POST with a Content-Length; these are the two
gaps found there: a chunked body, which werkzeug cut at the limit silently, and `close`, which
never read its body at all.)
"""

from __future__ import annotations

import io
import json

from adjudicator.testing import a_side, bearer, make_app, new_game, probe_check, probe_url
import pytest


def chunked_post(client, path: str, body: bytes, headers: dict | None = None):
    """POST `body` the way gunicorn hands over a chunked request: no Content-Length."""
    return client.post(
        path,
        input_stream=io.BytesIO(body),
        headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json", **(headers or {})},
        environ_overrides={"wsgi.input_terminated": True},
    )


def padded_create_body(size: int) -> bytes:
    """A valid create-game body, padded with whitespace to exactly `size` bytes."""
    body = b'{"system": "kwb", "scenario": "pusan"}'
    return body + b" " * (size - len(body))


def test_a_chunked_body_of_exactly_the_limit_is_accepted(tmp_path):
    app = make_app(tmp_path)
    limit = app.config["MAX_CONTENT_LENGTH"]
    response = chunked_post(app.test_client(), "/api/v1/games", padded_create_body(limit))
    assert response.status_code == 201, response.get_data()[:200]


@pytest.mark.slow
def test_a_chunked_body_one_byte_over_the_limit_is_refused(tmp_path):
    app = make_app(tmp_path)
    limit = app.config["MAX_CONTENT_LENGTH"]
    response = chunked_post(app.test_client(), "/api/v1/games", padded_create_body(limit + 1))
    assert response.status_code == 413
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["status"] == 413


def test_a_chunked_roll_over_the_limit_is_refused_and_records_nothing(tmp_path):
    with probe_check():
        app = make_app(tmp_path)
        client = app.test_client()
        game = new_game(client)
        limit = app.config["MAX_CONTENT_LENGTH"]
        body = b'{"target": 3, "request_id": "r1"}'
        response = chunked_post(client, probe_url(game), body + b" " * limit, headers=bearer(a_side(game)))
        assert response.status_code == 413
        ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(a_side(game))).get_json()
        assert len(ledger["records"]) == 1  # the genesis record only
        # the same roll, small enough, goes through
        assert chunked_post(client, probe_url(game), body, headers=bearer(a_side(game))).status_code == 201


def test_close_refuses_an_oversized_body(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    game = new_game(client, "kwb")
    limit = app.config["MAX_CONTENT_LENGTH"]
    headers = bearer(a_side(game))
    too_big = b'{"pad": "' + b"x" * limit + b'"}'
    response = client.post(f"/api/v1/games/{game['game_id']}/close", data=too_big,
                           headers={"Content-Type": "application/json", **headers})
    assert response.status_code == 413
    assert response.mimetype == "application/problem+json"
    chunked = chunked_post(client, f"/api/v1/games/{game['game_id']}/close", too_big, headers=headers)
    assert chunked.status_code == 413
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=headers).get_json()
    assert ledger["game"]["status"] == "open" and len(ledger["records"]) == 1


def test_close_without_a_body_still_closes(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    game = new_game(client, "kwb")
    response = client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(a_side(game)))
    assert response.status_code == 200
    assert response.get_json()["seed"]


# --- nesting and non-finite numbers (issue 29) --------------------------------------------------

def kwb_combat_body(**changes) -> dict:
    from adjudicator.checks import get_check
    from adjudicator.rules import register_all_games

    register_all_games()
    body = {k: v for k, v in get_check("kwb", "combat").example.items() if k != "dice"}
    return {**body, **changes}


def records(client, game) -> list:
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(a_side(game))).get_json()
    return ledger["records"]


def test_json_nested_thousands_of_levels_deep_is_a_422_in_game_and_compute_mode(tmp_path):
    client = make_app(tmp_path).test_client()
    game = new_game(client, "kwb", "pusan")
    headers = {"Content-Type": "application/json", **bearer(next(t for r, t in game["tokens"].items()
                                                                  if r == "communist"))}
    for depth in (33, 1000, 1100, 20_000):
        deep = b'{"scenario": "pusan", "x": ' + b"[" * depth + b"]" * depth + b"}"
        for url in (f"/api/v1/games/{game['game_id']}/combat", "/api/v1/systems/kwb/combat"):
            response = client.post(url, data=deep, headers=headers)
            assert response.status_code == 422, (depth, url, response.get_data()[:300])
            assert response.mimetype == "application/problem+json"
            assert response.get_json()["type"].endswith(":too-deep")
    assert len(records(client, game)) == 1


def test_nesting_within_the_bound_reaches_the_ordinary_validation(tmp_path):
    client = make_app(tmp_path).test_client()
    body = b'{"x": ' + b"[" * 31 + b"]" * 31 + b', "s": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"[[["}'
    response = client.post("/api/v1/systems/kwb/combat", data=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert response.get_json()["type"].endswith(":validation")  # brackets inside strings do not count


def test_nan_and_infinity_are_refused_never_recorded_as_null(tmp_path):
    client = make_app(tmp_path).test_client()
    game = new_game(client, "kwb", "pusan")
    token = game["tokens"]["communist"]
    url = f"/api/v1/games/{game['game_id']}/combat"
    for n, value in enumerate(("NaN", "Infinity", "-Infinity", "1e999")):
        body = kwb_combat_body(request_id=f"nan-{n}")
        text = json.dumps(body)[:-1] + f', "game_turn": {value}}}'
        response = client.post(url, data=text, headers={"Content-Type": "application/json", **bearer(token)})
        assert response.status_code == 422, (value, response.get_data()[:300])
        assert response.get_json()["type"].endswith(":not-finite")
    assert len(records(client, game)) == 1
    # the same roll with a real turn (or none) is recorded
    ok = client.post(url, json=kwb_combat_body(request_id="ok", game_turn=3), headers=bearer(token))
    assert ok.status_code == 201, ok.get_data()[:300]
    assert records(client, game)[-1]["body"]["request"]["game_turn"] == 3
