"""Saved-game endpoints: upload a VASSAL ``.vsav``/``.vlog``, get positions or supply reports.

    POST /api/v1/systems/<system>/savedgame/positions             units by hex (compute mode)
    POST /api/v1/systems/<system>/savedgame/supply?side=&scenario=&game_turn=
                                                                  supply reports (compute mode)
    POST /api/v1/games/<game_id>/savedgame/supply?side=&game_turn= the same, recorded in the ledger
    POST /api/v1/systems/<system>/savedgame/checks/<check>        any check, its board fields
                                                                  filled from the file
    POST /api/v1/games/<game_id>/savedgame/checks/<check>         the same, rolled into the ledger
    POST /api/v1/games/<game_id>/savedgame/log-check              a log's rulings against the
                                                                  ledger (adjudicator.api.logcheck)

A check from a saved game takes, besides the file: ``request`` (a JSON object with the fields the
board cannot know: dice, weather, an attacker's supply state...), what the player points at —
``attackers`` (unit ids, comma-separated), ``target_hex`` (and ``target_map``), ``unit`` — and
``side``, ``scenario``, ``game_turn``. The board roles of the check's schema
(:mod:`adjudicator.bridge.fill`) say which fields the file fills; the answer shows the request it
built (``savedgame.request``) beside the result.

The file is the multipart field ``file`` (what an HTML form or ``curl -F file=@game.vsav``
sends) or the raw request body (``curl --data-binary @game.vsav -H 'Content-Type:
application/octet-stream'``). Parameters (``side``, ``scenario``, ``game_turn``, ``request_id``)
come as query parameters or, with multipart, as form fields. ``game_turn`` overrides the turn the
file's turn tracker shows (:mod:`adjudicator.bridge.turn`). Paths sit under ``savedgame/`` so they
never meet a rules check of the same name (``/systems/<system>/supply`` may be a JSON check).

`register_bridge` adds these routes, the upload page (:mod:`adjudicator.bridge.pages`) and
their OpenAPI paths to an app; ``create_app`` calls it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import hashlib
import json
import re

from pydantic import ValidationError

from flask import Blueprint, Flask, jsonify, request

from adjudicator.api.auth import rate_limit_key, require_grant
from adjudicator.api.games import (
    bound_to_game, find_game_check, game_check_response, record_game_check, recorded_response,
)
from adjudicator.api.systems import compute_response, compute_result, find_check, with_transcript
from adjudicator.bridge import (
    BridgeError,
    Positions,
    SupplyRun,
    load_system_game,
    read_positions,
    read_upload,
    run_supply,
)
from adjudicator.bridge.fill import BoardFill, Pointed, fill_request
from adjudicator.bridge.upload import MAX_UPLOAD_BYTES
from adjudicator.checks import REQUEST_ID_PATTERN, CheckSpec, canonical_side
from adjudicator.config import Config
from adjudicator.problems import Problem, validation_problem
from adjudicator.services import services
from adjudicator.storage import GameClosed, GameNotFound, IdempotencyConflict, TokenGrant

if TYPE_CHECKING:  # for the annotation only (ratelimits imports api.auth)
    from adjudicator.ratelimits import RouteLimiter


#: Room for the multipart envelope around the file.
MULTIPART_OVERHEAD = 64 * 1024
#: The name recorded in the ledger is "<system>.savedgame_supply".
LEDGER_CHECK = "savedgame_supply"
UPLOAD_FIELD = "file"


def problem_from(error: BridgeError) -> Problem:
    return Problem(error.status, error.title, error.detail, kind=error.kind)


def uploaded_file() -> tuple[bytes, str]:
    """The uploaded file's bytes and name, from multipart or the raw body, size-limited.

    The app's body limit is for JSON; an upload gets its own (werkzeug answers 413 beyond it).
    """
    request.max_content_length = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD
    if request.mimetype == "multipart/form-data":
        storage = request.files.get(UPLOAD_FIELD) or next(iter(request.files.values()), None)
        if storage is None:
            return b"", ""
        return storage.read(MAX_UPLOAD_BYTES + 1), storage.filename or ""
    return request.get_data(cache=False), ""


def param(name: str) -> str | None:
    """A parameter from the query string, or from the multipart form."""
    value = request.args.get(name)
    if value is None and request.mimetype == "multipart/form-data":
        value = request.form.get(name)
    return value.strip() if isinstance(value, str) and value.strip() else None


def file_info(data: bytes, name: str, positions: Positions) -> dict:
    return {"name": name, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data),
            "is_log": positions.is_log, "module": positions.module_name,
            "module_version": positions.module_version}


def positions_from_upload(system: str) -> tuple[Positions, bytes, str]:
    """Load the system's game, read the upload, locate its pieces (BridgeError -> Problem)."""
    try:
        game = load_system_game(system)
        data, name = uploaded_file()
        return read_positions(game, read_upload(data)), data, name
    except BridgeError as error:
        raise problem_from(error) from None


def supply_json(run: SupplyRun, positions: Positions) -> dict:
    """A supply answer: the reports plus what the bridge could not place or identify."""
    return {**run.to_json(),
            "unidentified": [p.to_json() for p in positions.unidentified],
            "by_hex": positions.by_hex()}


# --- compute mode -------------------------------------------------------------------------------

def positions_view(system: str):
    positions, data, name = positions_from_upload(system)
    return jsonify({"file": file_info(data, name, positions), **positions.to_json()})


def supply_view(system: str):
    positions, data, name = positions_from_upload(system)
    try:
        run = run_supply(positions.game, positions, param("scenario"), param("side"),
                         game_turn=param("game_turn"))
    except BridgeError as error:
        raise problem_from(error) from None
    return jsonify({"file": file_info(data, name, positions), **supply_json(run, positions)})


# --- game mode ----------------------------------------------------------------------------------

def game_supply_view(game_id: str):
    """Supply of a saved game, recorded: the request (the positions read from the file and the
    file's hash) and the reports go into the ledger like a check, with no dice."""
    grant = require_grant(game_id, write=True)
    request_id = param("request_id")
    if request_id is not None and not _valid_request_id(request_id):
        raise Problem(422, "The request is invalid",
                      f"request_id must match {REQUEST_ID_PATTERN}", kind="validation",
                      errors=[{"pointer": "request_id", "detail": "bad request_id", "code": "pattern"}])
    scenario = param("scenario")
    if scenario is not None and scenario != grant.scenario:
        raise Problem(422, "Scenario mismatch",
                      f"This game plays scenario {grant.scenario!r}, not {scenario!r}.",
                      kind="scenario-mismatch")
    positions, data, name = positions_from_upload(grant.system)
    shown = positions.scenario_candidates()
    if grant.scenario not in shown:
        raise Problem(422, "Saved game of another scenario",
                      f"This game plays scenario {grant.scenario!r}; the saved game's maps and turn tracks "
                      f"fit {' or '.join(shown) or 'no scenario of this system'}.", kind="scenario-mismatch")
    try:
        run = run_supply(positions.game, positions, grant.scenario, param("side"),
                         game_turn=param("game_turn"))
    except BridgeError as error:
        raise problem_from(error) from None
    request_json = {
        "side": canonical_side(param("side") or ""),
        "scenario": grant.scenario,
        "game_turn": run.turn.turn,
        "savedgame": {"name": name, "sha256": hashlib.sha256(data).hexdigest()},
        "positions": [vars(u) for u in positions.unit_ats()],
    }
    result = {"outcome": supply_json(run, positions), "steps": [], "warnings": run.warnings,
              "dice_used": []}
    svc = services()
    try:
        record, replayed = svc.store.append_check(
            game_id, canonical_side(grant.role), f"{grant.system}.{LEDGER_CHECK}", request_json,
            request_id, svc.signing_key, lambda seed, seq: result,
        )
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    except GameClosed:
        raise Problem(409, "Conflict", "The game is closed; nothing more is recorded.",
                      kind="game-closed") from None
    except IdempotencyConflict:
        raise Problem(409, "Conflict", f"request_id {request_id!r} was already used for a "
                      "different request in this game.", kind="idempotency-conflict") from None
    response = jsonify(game_check_response(record))
    response.status_code = 200 if replayed else 201
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


def _valid_request_id(value: str) -> bool:
    return re.fullmatch(REQUEST_ID_PATTERN.strip("^$"), value) is not None


# --- any check from a saved game -----------------------------------------------------------------

def player_fields() -> dict:
    """The `request` parameter: the fields the board cannot know, as a JSON object."""
    text = param("request") or "{}"
    try:
        given = json.loads(text)
    except ValueError as error:
        raise Problem(400, "Malformed JSON", f"request: not valid JSON ({error})", kind="malformed-json") from None
    if not isinstance(given, dict):
        raise Problem(422, "The request is invalid", "request: must be a JSON object of the check's fields",
                      kind="validation", errors=[{"pointer": "/", "detail": "not an object", "code": "type"}])
    return given


def pointed() -> Pointed:
    attackers = [a.strip() for a in re.split(r"[,\s]+", param("attackers") or "") if a.strip()]
    return Pointed(attackers=attackers, target_hex=param("target_hex"), target_map=param("target_map"),
                   unit=param("unit"))


def validated(model, request: dict):
    """`request` validated as if it had come as JSON: check models are strict, and only their
    JSON mode reads e.g. a scenario name into its enum, as the JSON API does."""
    try:
        return model.model_validate_json(json.dumps(request))
    except ValidationError as error:
        raise validation_problem(error) from None


def compute_from_savedgame(spec: CheckSpec, positions: Positions, given: dict, where: Pointed,
                           scenario: str | None, side: str | None, game_turn: str | None
                           ) -> tuple[dict, BoardFill]:
    """A check's result from a saved game's positions, with the players' dice: (the check
    response, the request built). Problems for what cannot be filled or resolved."""
    try:
        fill = fill_request(spec, positions, where, given, scenario=scenario, side=side, game_turn=game_turn)
    except BridgeError as error:
        raise problem_from(error) from None
    req = validated(spec.compute_model, fill.request)
    fill.request = req.model_dump(mode="json")
    return compute_response(spec, compute_result(spec, req)), fill


def record_from_savedgame(grant: TokenGrant, spec: CheckSpec, positions: Positions, given: dict,
                          where: Pointed, game_turn: str | None, request_id: str | None = None
                          ) -> tuple[dict, bool, BoardFill]:
    """The same in a recorded game: the server rolls, the ledger records the built request
    (the token's side acts). (the recorded response, replayed, the request built)."""
    shown = positions.scenario_candidates()
    if grant.scenario not in shown:
        raise Problem(422, "Saved game of another scenario",
                      f"This game plays scenario {grant.scenario!r}; the saved game's maps and turn tracks "
                      f"fit {' or '.join(shown) or 'no scenario of this system'}.", kind="scenario-mismatch")
    given = {**given, **({"request_id": request_id} if request_id else {})}
    try:
        fill = fill_request(spec, positions, where, given, scenario=grant.scenario,
                            side=canonical_side(grant.role), game_turn=game_turn)
    except BridgeError as error:
        raise problem_from(error) from None
    req = validated(spec.game_model, bound_to_game(spec, grant, fill.request))
    fill.request = req.model_dump(mode="json", exclude={"request_id"})
    record, replayed = record_game_check(grant.game_id, grant, spec, req)
    return game_check_response(record), replayed, fill


def savedgame_json(data: bytes, name: str, positions: Positions, fill: BoardFill) -> dict:
    return {"file": file_info(data, name, positions), **fill.to_json()}


def savedgame_check_view(system: str, check: str):
    spec = find_check(system, check)
    positions, data, name = positions_from_upload(system)
    body, fill = compute_from_savedgame(spec, positions, player_fields(), pointed(), param("scenario"),
                                        param("side"), param("game_turn"))
    return jsonify(with_transcript({**body, "savedgame": savedgame_json(data, name, positions, fill)}))


def game_savedgame_check_view(game_id: str, check: str):
    """A check from a recorded game's saved game: the roll goes into the ledger (side token)."""
    grant = require_grant(game_id, write=True)
    spec = find_game_check(grant, check)
    positions, data, name = positions_from_upload(grant.system)
    body, replayed, fill = record_from_savedgame(grant, spec, positions, player_fields(), pointed(),
                                                 param("game_turn"), param("request_id"))
    return recorded_response({**body, "savedgame": savedgame_json(data, name, positions, fill)}, replayed)


# --- registration -------------------------------------------------------------------------------

def make_bridge_api_blueprint(config: Config, limiter: RouteLimiter) -> Blueprint:
    # logcheck imports this module (it reads uploads the same way), so its view is imported here
    from adjudicator.api.logcheck import log_check_view

    bp = Blueprint("bridge_api", __name__, url_prefix="/api/v1")
    anonymous = limiter.limit(config.rate_limit_anonymous, key_func=rate_limit_key)
    per_token = limiter.limit(config.rate_limit_token, key_func=rate_limit_key)
    routes = (  # (rule, endpoint, rate limit, view): every one a POST of a saved game
        ("/systems/<system>/savedgame/positions", "positions", anonymous, positions_view),
        ("/systems/<system>/savedgame/supply", "supply", anonymous, supply_view),
        ("/games/<game_id>/savedgame/supply", "game_supply", per_token, game_supply_view),
        ("/systems/<system>/savedgame/checks/<check>", "check", anonymous, savedgame_check_view),
        ("/games/<game_id>/savedgame/checks/<check>", "game_check", per_token, game_savedgame_check_view),
        ("/games/<game_id>/savedgame/log-check", "log_check", per_token, log_check_view),
    )
    for rule, endpoint, limit, view in routes:
        bp.add_url_rule(rule, endpoint, limit(view), methods=["POST"])
    return bp


def register_bridge(app: Flask, config: Config, limiter: RouteLimiter) -> None:
    """Add the saved-game API, its page and its OpenAPI paths to `app`."""
    from adjudicator.bridge.openapi import add_bridge_paths
    from adjudicator.bridge.pages import make_bridge_pages_blueprint

    app.register_blueprint(make_bridge_api_blueprint(config, limiter))
    app.register_blueprint(make_bridge_pages_blueprint())
    svc = app.extensions["adjudicator"]
    if svc.openapi:
        add_bridge_paths(svc.openapi)
        svc.openapi_json = json.dumps(svc.openapi).encode("utf-8")
