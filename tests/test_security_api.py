"""Security properties of the adjudicator API, checked over every endpoint the OpenAPI lists.

- A game's token never works on another game (403), on any game endpoint.
- Every mutating game endpoint refuses a missing (401), unknown (401) or read-only
  observer (403) token, and stores nothing when it does.
- Bodies over the size limit are refused with 413 problem+json on every POST endpoint.
- Error bodies never leak a traceback or a secret: game seeds, bearer tokens, the
  signing key's private half — not even when a rules function blows up with the seed
  in its exception message.

Endpoints are read from the app's own OpenAPI document, so a new endpoint is covered
the day it is added.  (Uploads, zip bombs, path traversal and XML entities are the
saved-game bridge's tests.)
"""

from __future__ import annotations

import base64
import io
import re
import sqlite3

import pytest
from pydantic import Field

import adjudicator.checks as checks
from adjudicator.checks import CheckRequest, CheckResult, Dice, either_side, register_check
from adjudicator.testing import a_side, bearer, make_app, new_game

GAME_ID_PARAM = "{game_id}"

#: A check of our own, so these tests do not depend on a game's rules while they change.
PROBE_SYSTEM, PROBE_CHECK = "kwb", "security_probe"


class ProbeRequest(CheckRequest):
    target: int = Field(ge=1, le=6)


def security_probe(req: ProbeRequest, dice: Dice) -> CheckResult:
    (roll,) = dice.roll(6, purpose="probe")
    return CheckResult(outcome={"hit": roll >= req.target})


@pytest.fixture
def app(tmp_path):
    register_check(system=PROBE_SYSTEM, name=PROBE_CHECK, request=ProbeRequest, random=True,
                   summary="security test probe", rule="-", actor=either_side(rule="-"))(security_probe)
    try:
        yield make_app(tmp_path)  # routes and OpenAPI are built with the probe registered
    finally:
        checks._REGISTRY.pop((PROBE_SYSTEM, PROBE_CHECK), None)


@pytest.fixture
def client(app):
    return app.test_client()


def openapi_operations(client, with_body: bool = False) -> list[tuple[str, str]]:
    """(METHOD, path template) of every documented operation (only those taking a body)."""
    doc = client.get("/api/v1/openapi.json").get_json()
    return [(method.upper(), path) for path, ops in doc["paths"].items() for method, op in ops.items()
            if not with_body or "requestBody" in op]


def game_endpoints(client) -> list[tuple[str, str]]:
    """(method, path template) of every endpoint under /api/v1/games/{game_id}/..."""
    return [(m, p) for m, p in openapi_operations(client) if GAME_ID_PARAM in p]


#: POSTs that only read the game: a log checked against the ledger (any token, observers too).
READ_ONLY_POSTS = ("/savedgame/log-check",)


def mutating_game_endpoints(client) -> list[tuple[str, str]]:
    return [(m, p) for m, p in game_endpoints(client)
            if m in {"POST", "PUT", "PATCH", "DELETE"} and not p.endswith(READ_ONLY_POSTS)]


def call(client, method: str, path: str, headers: dict | None = None, json_body=None, data=None):
    return client.open(path, method=method, headers=headers or {}, json=json_body, data=data)


def system_of_check(client, check: str, with_dice: bool = False) -> str:
    """A system that has `check` (so a game of it routes there), one where it rolls dice if asked
    (its odds); "kwb" otherwise."""
    systems = client.get("/api/v1/systems").get_json()["systems"]
    return next((s["id"] for s in systems if any(c["name"] == check and (c["random"] or not with_dice)
                                                 for c in s["checks"])), "kwb")


def ledger_length(client, game: dict) -> int:
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"]["observer"]))
    assert ledger.status_code == 200
    return len(ledger.get_json()["records"])


@pytest.mark.slow
def test_the_openapi_lists_the_game_endpoints(client):
    found = game_endpoints(client)
    assert ("GET", "/api/v1/games/{game_id}/ledger") in found
    assert ("POST", "/api/v1/games/{game_id}/close") in found
    assert len(mutating_game_endpoints(client)) >= 3  # close plus at least two checks


@pytest.mark.slow
def test_a_token_never_works_on_another_game(client):
    for method, template in game_endpoints(client):
        check = template.rsplit("/", 1)[-1]
        system = system_of_check(client, check)
        mine, other = new_game(client, system), new_game(client, system)
        path = template.replace(GAME_ID_PARAM, other["game_id"])
        for role, token in mine["tokens"].items():
            response = call(client, method, path, headers=bearer(token), json_body={})
            assert response.status_code == 403, (method, path, role, response.get_json())
            assert response.mimetype == "application/problem+json"
        assert ledger_length(client, other) == 1, f"{method} {template}: another game's token changed the ledger"


@pytest.mark.slow
@pytest.mark.parametrize("credentials", ["missing", "unknown", "wrong scheme", "observer"])
def test_every_mutating_endpoint_refuses_a_missing_or_wrong_token(client, credentials):
    for method, template in mutating_game_endpoints(client):
        check = template.rsplit("/", 1)[-1]
        game = new_game(client, system_of_check(client, check))
        headers = {
            "missing": {},
            "unknown": bearer("not-a-token-of-any-game"),
            "wrong scheme": {"Authorization": "Basic " + base64.b64encode(b"un:" + a_side(game).encode()).decode()},
            "observer": bearer(game["tokens"]["observer"]),
        }[credentials]
        path = template.replace(GAME_ID_PARAM, game["game_id"])
        response = call(client, method, path, headers=headers, json_body={"request_id": "sec-1"})
        expected = 403 if credentials == "observer" else 401
        assert response.status_code == expected, (method, path, credentials, response.get_json())
        assert response.mimetype == "application/problem+json"
        if expected == 401:
            assert "Bearer" in response.headers.get("WWW-Authenticate", "")
        assert ledger_length(client, game) == 1, f"{method} {template}: refused call still changed the ledger"


def upload_limit() -> int:
    """The saved-game bridge's own upload limit (uploads are not JSON and may be larger)."""
    from adjudicator.bridge.upload import MAX_UPLOAD_BYTES

    return MAX_UPLOAD_BYTES


@pytest.mark.slow
def test_oversized_bodies_are_refused_with_413_problem_json(app, client):
    doc = client.get("/api/v1/openapi.json").get_json()
    posts = openapi_operations(client, with_body=True)
    assert ("POST", "/api/v1/games") in posts and ("POST", "/api/v1/verify") in posts
    games = {}
    for method, template in posts:
        content_types = doc["paths"][template][method.lower()]["requestBody"].get("content", {})
        is_upload = "application/json" not in content_types
        limit = upload_limit() + 64 * 1024 if is_upload else app.config["MAX_CONTENT_LENGTH"]
        too_big = b'{"pad": "' + b"x" * limit + b'"}'
        odds = template.endswith("/odds")
        system = system_of_check(client, template.removesuffix("/odds").rsplit("/", 1)[-1], with_dice=odds)
        if system not in games:
            games[system] = new_game(client, system)
        game = games[system]
        path = template.replace(GAME_ID_PARAM, game["game_id"]).replace("{system}", system).replace("{check}", "combat")
        content_type = "application/octet-stream" if is_upload else "application/json"
        headers = {"Content-Type": content_type, **bearer(a_side(game))}
        response = call(client, method, path, headers=headers, data=too_big)
        assert response.status_code == 413, (path, response.status_code, response.get_data()[:300])
        assert response.mimetype == "application/problem+json"
        assert response.get_json()["status"] == 413


@pytest.mark.slow
def test_an_oversized_chunked_body_is_refused_not_truncated(app, client):
    """Transfer-Encoding: chunked has no Content-Length for the limit to check up front."""
    limit = app.config["MAX_CONTENT_LENGTH"]
    body = b'{"system": "kwb", "scenario": "pusan"}' + b" " * (limit + 1024)  # valid JSON, padded past the limit
    response = client.post("/api/v1/games", input_stream=io.BytesIO(body),
                           headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"},
                           environ_overrides={"wsgi.input_terminated": True})  # as gunicorn sets for chunked input
    assert response.status_code == 413, (response.status_code, response.get_data()[:200])
    assert response.mimetype == "application/problem+json"


@pytest.mark.slow
def test_a_body_just_under_the_limit_is_not_refused_for_size(app, client):
    limit = app.config["MAX_CONTENT_LENGTH"]
    body = b'{"system": "kwb", "scenario": "' + b"x" * (limit - 64) + b'"}'
    response = client.post("/api/v1/games", data=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422  # refused for what it says (scenario too long), not for its size


# -- error bodies never leak ----------------------------------------------------------------


def secrets_of(app, tmp_path, games: list[dict]) -> list[str]:
    """Every secret the service holds: tokens, seeds (hex and base64), the private key."""
    secrets = [token for game in games for token in game["tokens"].values()]
    url = app.extensions["adjudicator"].config.database_url
    with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
        for (seed,) in db.execute("SELECT seed FROM games WHERE status = 'open'"):
            seed = bytes(seed)
            secrets += [seed.hex(), base64.b64encode(seed).decode(), base64.urlsafe_b64encode(seed).decode().rstrip("=")]
    pem = (tmp_path / "signing-key.pem").read_text()
    body = "".join(line for line in pem.splitlines() if "-----" not in line)
    secrets += [body[i:i + 24] for i in range(0, len(body) - 24, 24)]  # any sizeable piece of the key
    return [s for s in secrets if s]


TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\", line \d+|\.py\", line")


def assert_no_leak(response, secrets: list[str], own_token: str | None = None) -> None:
    text = response.get_data(as_text=True)
    assert not TRACEBACK.search(text), f"traceback in a {response.status_code} body: {text[:500]}"
    for secret in secrets:
        if secret == own_token:
            continue
        assert secret not in text, f"a secret leaked in a {response.status_code} body: {text[:300]}"


def error_responses(client, app, game: dict):
    """One response of every error kind the API produces."""
    gid = game["game_id"]
    side = bearer(a_side(game))
    check = PROBE_CHECK
    limit = app.config["MAX_CONTENT_LENGTH"]
    yield client.post(f"/api/v1/games/{gid}/{check}", data="{", headers={**side, "Content-Type": "application/json"})
    yield client.post(f"/api/v1/games/{gid}/{check}", data="target=3", headers={**side, "Content-Type": "text/plain"})
    yield client.post(f"/api/v1/games/{gid}/{check}", json={"target": "3"}, headers=side)
    yield client.post(f"/api/v1/games/{gid}/{check}", json={"target": 3, "seed": "x"}, headers=side)
    yield client.post(f"/api/v1/games/{gid}/{check}", json={"target": 3})
    yield client.post(f"/api/v1/games/{gid}/{check}", json={"target": 3}, headers=bearer("nope"))
    yield client.post(f"/api/v1/games/{gid}/{check}", json={"target": 3},
                      headers=bearer(game["tokens"]["observer"]))
    yield client.post(f"/api/v1/games/{gid}/{check}", data=b"x" * (limit + 1),
                      headers={**side, "Content-Type": "application/json"})
    yield client.post(f"/api/v1/games/{gid}x/{check}", json={"target": 3}, headers=side)
    yield client.get(f"/api/v1/games/{gid}/{check}", headers=side)
    yield client.post(f"/api/v1/systems/kwb/{PROBE_CHECK}", json={"target": 3, "dice": [9]})
    yield client.post("/api/v1/systems/kwb/nonexistent", json={})
    yield client.post("/api/v1/games", json={"system": "kwb", "scenario": "nowhere"})
    yield client.post("/api/v1/verify", json={"receipt": {"seq": "x"}})
    yield client.get("/no/such/page")


@pytest.mark.slow
def test_error_bodies_leak_no_traceback_or_secret(app, client, tmp_path):
    game = new_game(client, "kwb")
    other = new_game(client, "kwb")
    secrets = secrets_of(app, tmp_path, [game, other])
    seen = set()
    for response in error_responses(client, app, game):
        seen.add(response.status_code)
        assert_no_leak(response, secrets)
    assert {400, 401, 403, 404, 405, 413, 415, 422} <= seen


@pytest.mark.slow
def test_an_unexpected_failure_answers_500_without_the_details(app, client, tmp_path, monkeypatch):
    """A rules function that raises — with the game's seed in its message — gives a bare 500."""
    import adjudicator.rulings as games_api

    game = new_game(client, "kwb")
    secrets = secrets_of(app, tmp_path, [game])
    seed_hex = next(s for s in secrets if re.fullmatch(r"[0-9a-f]{64}", s))

    def exploding_run_check(spec, req, dice):
        raise RuntimeError(f"boom with seed {seed_hex} and token {game['tokens']['un']}")

    monkeypatch.setattr(games_api, "run_check", exploding_run_check)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = client.post(f"/api/v1/games/{game['game_id']}/{PROBE_CHECK}", json={"target": 3},
                           headers=bearer(game["tokens"]["un"]))
    assert response.status_code == 500
    assert response.mimetype == "application/problem+json"
    assert_no_leak(response, secrets)
    assert "boom" not in response.get_data(as_text=True)
    assert ledger_length(client, game) == 1  # nothing recorded for a failed check


@pytest.mark.slow
def test_public_documents_hold_no_secret(app, client, tmp_path):
    game = new_game(client, "kwb")
    client.post(f"/api/v1/games/{game['game_id']}/{PROBE_CHECK}", json={"target": 3},
                headers=bearer(game["tokens"]["un"]))
    secrets = secrets_of(app, tmp_path, [game])
    for path in ("/.well-known/adjudicator-keys.json", "/api/v1/openapi.json", "/api/v1/systems", "/ping"):
        assert_no_leak(client.get(path), secrets)
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"]["observer"]))
    assert ledger.status_code == 200
    assert ledger.get_json()["game"]["seed"] is None  # open game: the seed stays secret
    assert_no_leak(ledger, secrets)
