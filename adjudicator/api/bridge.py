"""Saved-game endpoints: upload a VASSAL ``.vsav``/``.vlog``, get positions or supply reports.

    POST /api/v1/systems/<system>/savedgame/positions             units by hex (compute mode)
    POST /api/v1/systems/<system>/savedgame/supply?side=&scenario=&game_turn=
                                                                  supply reports (compute mode)
    POST /api/v1/games/<game_id>/savedgame/supply?side=&game_turn= the same, recorded in the ledger

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

import hashlib
import json
import re

from flask import Blueprint, Flask, jsonify, request
from flask_limiter import Limiter

from adjudicator.api.auth import rate_limit_key, require_grant
from adjudicator.api.games import game_check_response
from adjudicator.bridge import (
    BridgeError,
    Positions,
    SupplyRun,
    load_system_game,
    read_positions,
    read_upload,
    run_supply,
)
from adjudicator.bridge.upload import MAX_UPLOAD_BYTES
from adjudicator.checks import REQUEST_ID_PATTERN, canonical_side
from adjudicator.config import Config
from adjudicator.problems import Problem
from adjudicator.services import services
from adjudicator.storage import GameClosed, GameNotFound, IdempotencyConflict

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


# --- registration -------------------------------------------------------------------------------

def make_bridge_api_blueprint(config: Config, limiter: Limiter) -> Blueprint:
    bp = Blueprint("bridge_api", __name__, url_prefix="/api/v1")
    anonymous = limiter.limit(config.rate_limit_anonymous, key_func=rate_limit_key)
    per_token = limiter.limit(config.rate_limit_token, key_func=rate_limit_key)
    bp.add_url_rule("/systems/<system>/savedgame/positions", "positions",
                    anonymous(positions_view), methods=["POST"])
    bp.add_url_rule("/systems/<system>/savedgame/supply", "supply",
                    anonymous(supply_view), methods=["POST"])
    bp.add_url_rule("/games/<game_id>/savedgame/supply", "game_supply",
                    per_token(game_supply_view), methods=["POST"])
    return bp


def register_bridge(app: Flask, config: Config, limiter: Limiter) -> None:
    """Add the saved-game API, its page and its OpenAPI paths to `app`."""
    from adjudicator.bridge.openapi import add_bridge_paths
    from adjudicator.bridge.pages import make_bridge_pages_blueprint

    app.register_blueprint(make_bridge_api_blueprint(config, limiter))
    app.register_blueprint(make_bridge_pages_blueprint())
    svc = app.extensions["adjudicator"]
    if svc.openapi:
        add_bridge_paths(svc.openapi)
        svc.openapi_json = json.dumps(svc.openapi).encode("utf-8")
