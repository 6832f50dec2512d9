"""Saved-game endpoints: upload a VASSAL ``.vsav``/``.vlog``, get positions or supply reports.

    POST /api/v1/systems/<system>/savedgame/positions             units by hex (compute mode)
    POST /api/v1/systems/<system>/savedgame/supply?side=&scenario=&game_turn=
                                                                  supply reports (compute mode)
    POST /api/v1/games/<game_id>/savedgame/supply?side=&game_turn= the same, recorded in the ledger
    POST /api/v1/systems/<system>/savedgame/checks/<check>        any check, its board fields
                                                                  filled from the file
    POST /api/v1/games/<game_id>/savedgame/checks/<check>         the same, rolled into the ledger
    POST /api/v1/games/<game_id>/savedgame/log-check              a log's rulings against the
                                                                  ledger (adjudicator.logs.check)

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

The views read the HTTP request; the work is :mod:`adjudicator.bridge.rulings` (the request built
from the file, then the recorded-check path every way in takes). `register_bridge` adds these
routes, the saved-game pages (:mod:`adjudicator.web.savedgame_pages`) and their OpenAPI paths to an app;
``create_app`` calls it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import json
import re

from flask import Blueprint, Flask, jsonify, request

from adjudicator import rulings
from adjudicator.api.auth import rate_limit_key, require_grant
from adjudicator.api.games import recorded_response
from adjudicator.api.systems import find_check, with_transcript
from adjudicator.bridge.fill import Pointed
from adjudicator.bridge.positions import Positions
from adjudicator.bridge.rulings import (
    compute_from_file, file_info, positions_of, record_from_file, record_supply, supply_json, supply_of_file,
)
from adjudicator.bridge.upload import MAX_UPLOAD_BYTES
from adjudicator.config import Config
from adjudicator.ledger.storage import OBSERVER
from adjudicator.logs.check import check_log_of_game
from adjudicator.problems import Problem
from adjudicator.systems import system_info

if TYPE_CHECKING:  # for the annotation only (ratelimits imports api.auth)
    from adjudicator.api.ratelimits import RouteLimiter


#: Room for the multipart envelope around the file.
MULTIPART_OVERHEAD = 64 * 1024
#: All the files of one chain check together (a game's logs, each at most MAX_UPLOAD_BYTES).
MAX_CHAIN_BYTES = 2 * MAX_UPLOAD_BYTES
UPLOAD_FIELD = "file"


def uploaded_file() -> tuple[bytes, str]:
    """The uploaded file's bytes and name, from multipart or the raw body, size-limited.

    The app's body limit is for JSON; an upload gets its own (werkzeug answers 413 beyond it),
    raised before anything of the body is read.
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


def upload_positions(system: str) -> tuple[Positions, bytes, str]:
    data, name = uploaded_file()
    return positions_of(system, data), data, name


# --- compute mode -------------------------------------------------------------------------------

def positions_view(system: str):
    find_system(system)
    positions, data, name = upload_positions(system)
    return jsonify({"file": file_info(data, name, positions), **positions.to_json()})


def supply_view(system: str):
    find_system(system)
    positions, data, name = upload_positions(system)
    run = supply_of_file(positions, param("scenario"), param("side"), param("game_turn"))
    return jsonify({"file": file_info(data, name, positions), **supply_json(run, positions)})


def find_system(system: str) -> None:
    if system_info(system) is None:
        raise Problem(404, "Not Found", f"Unknown game system {system!r}.", kind="unknown-system")


# --- game mode ----------------------------------------------------------------------------------

def game_supply_view(game_id: str):
    """Supply of a saved game, recorded in the ledger like a check without dice."""
    grant = require_grant(game_id, write=True)
    scenario = param("scenario")
    if scenario is not None and scenario != grant.scenario:
        raise Problem(422, "Scenario mismatch",
                      f"This game plays scenario {grant.scenario!r}, not {scenario!r}.",
                      kind="scenario-mismatch")
    positions, data, name = upload_positions(grant.system)
    recorded = record_supply(grant, positions, data, name, param("side"), param("game_turn"),
                             param("request_id"))
    return recorded_response(recorded)


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


def savedgame_check_view(system: str, check: str):
    spec = find_check(system, check)
    positions, data, name = upload_positions(system)
    body, fill = compute_from_file(spec, positions, player_fields(), pointed(), param("scenario"),
                                   param("side"), param("game_turn"))
    return jsonify(with_transcript({**body, "savedgame": {"file": file_info(data, name, positions),
                                                          **fill.to_json()}}))


def game_savedgame_check_view(game_id: str, check: str):
    """A check from a recorded game's saved game: the roll goes into the ledger (side token)."""
    grant = require_grant(game_id, write=True)
    spec = rulings.game_check(grant, check)
    positions, data, name = upload_positions(grant.system)
    recorded, fill = record_from_file(grant, spec, positions, player_fields(), pointed(),
                                      param("game_turn"), param("request_id"))
    return recorded_response(recorded, {"savedgame": {"file": file_info(data, name, positions), **fill.to_json()}})


def log_check_view(game_id: str):
    """One log, or (several `file` fields, in order) a game's chain of logs, against the ledger."""
    grant = require_grant(game_id, write=False)
    eyes = None if grant.role == OBSERVER else grant.role  # the verdicts' words as this side may read them
    files = uploaded_files()
    if len(files) > 1:
        return jsonify(check_log_of_game(game_id, files, viewer=eyes).to_json())
    data = files[0][1] if files else b""
    return jsonify(check_log_of_game(game_id, data, viewer=eyes).to_json())


def uploaded_files() -> list[tuple[str, bytes]]:
    """Every uploaded file (multipart `file` fields, in order) or the raw body as one file."""
    request.max_content_length = MAX_CHAIN_BYTES + MULTIPART_OVERHEAD
    if request.mimetype == "multipart/form-data":
        return [(f.filename or "", f.read(MAX_UPLOAD_BYTES + 1)) for f in request.files.getlist(UPLOAD_FIELD)]
    return [("", request.get_data(cache=False))]


# --- registration -------------------------------------------------------------------------------

def make_bridge_api_blueprint(config: Config, limiter: RouteLimiter) -> Blueprint:
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
    """Add the saved-game API and its OpenAPI paths to `app` (its pages are the web's, registered by
    the app factory: the API never imports a page)."""
    from adjudicator.bridge.openapi import add_bridge_paths

    app.register_blueprint(make_bridge_api_blueprint(config, limiter))
    svc = app.extensions["adjudicator"]
    if svc.openapi:
        add_bridge_paths(svc.openapi)
        svc.openapi_json = json.dumps(svc.openapi).encode("utf-8")
