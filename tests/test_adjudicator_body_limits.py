"""The request-body size limit holds however the body arrives, and on endpoints that take none.

(tests/test_security_api.py checks every JSON POST with a Content-Length; these are the two
gaps found there: a chunked body, which werkzeug cut at the limit silently, and `close`, which
never read its body at all.)
"""

from __future__ import annotations

import io

from adjudicator.testing import a_side, bearer, make_app, new_game, probe_check, probe_url


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
