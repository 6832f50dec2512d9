"""The JSON API under /api/v1, assembled per app by `make_api_blueprint`.

The views live in small modules: `systems` (listing, compute mode), `games` (game mode and the
ledger), `odds` (the chances before a roll, both modes), `dice` (a game's dice record), `verify`;
`body` reads JSON bodies, `auth` checks bearer tokens, `schemas` holds the pydantic models of
everything that is not a check request.
"""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING

from flask import Blueprint, Response, jsonify
from werkzeug.routing import BaseConverter

from adjudicator import served_data
from adjudicator.api import dice, games, odds, systems, verify
from adjudicator.api.auth import bearer_token, rate_limit_key
from adjudicator.checks import RESERVED_CHECK_NAMES
from adjudicator.config import Config
from adjudicator.services import services

if TYPE_CHECKING:  # for the annotation only (ratelimits imports api.auth)
    from adjudicator.api.ratelimits import RouteLimiter


def _systems_view():
    return Response(services().systems_json, mimetype="application/json")


def _status_view():
    """The status; the data folder's full path only for the maintainer's token (`served_data`)."""
    token = bearer_token() or ""
    expected = served_data.maintainer_token(services().signing_key)
    return jsonify(served_data.status(with_paths=hmac.compare_digest(token.encode(), expected.encode())))


def _openapi_view():
    return Response(services().openapi_json, mimetype="application/json")


class CheckNameConverter(BaseConverter):
    """A name a check may have (adjudicator.checks), other than the game endpoints' names."""

    regex = "(?!(?:" + "|".join(sorted(RESERVED_CHECK_NAMES)) + ")$)[a-z][a-z0-9_]{0,47}"


def make_api_blueprint(config: Config, limiter: RouteLimiter) -> Blueprint:
    from adjudicator.api.ratelimits import odds_limited  # here: ratelimits imports api.auth

    bp = Blueprint("api", __name__, url_prefix="/api/v1")
    chances = odds_limited(config, limiter)
    per_token = limiter.limit(config.rate_limit_token, key_func=rate_limit_key)
    anonymous = limiter.shared_limit(config.rate_limit_anonymous, scope="anonymous", key_func=rate_limit_key)
    create = limiter.shared_limit(config.rate_limit_create_game, scope="create-game", key_func=rate_limit_key)

    bp.add_url_rule("/systems", "systems", _systems_view, methods=["GET"])
    bp.add_url_rule("/openapi.json", "openapi", _openapi_view, methods=["GET"])
    bp.add_url_rule("/status", "status", _status_view, methods=["GET"])
    bp.add_url_rule(
        "/systems/<system>/<check>", "compute", anonymous(systems.compute), methods=["POST"]
    )
    bp.add_url_rule("/systems/<system>/<check>/odds", "compute_odds", anonymous(chances(odds.compute_odds)),
                    methods=["POST"])
    bp.add_url_rule("/games", "create_game", create(games.create_game), methods=["POST"])
    bp.add_url_rule("/games/<game_id>", "game_info", per_token(games.game_info), methods=["GET"])
    bp.add_url_rule(
        "/games/<game_id>/ledger", "ledger", per_token(games.ledger), methods=["GET"]
    )
    bp.add_url_rule(
        "/games/<game_id>/close", "close_game", per_token(games.close_game), methods=["POST"]
    )
    bp.add_url_rule("/games/<game_id>/dice", "game_dice", per_token(dice.game_dice), methods=["GET"])
    bp.add_url_rule("/games/<game_id>/board-changes", "board_changes", per_token(games.board_changes), methods=["GET"])
    bp.add_url_rule("/games/<game_id>/rulings", "game_rulings", per_token(games.game_rulings), methods=["GET"])
    # Any check-like name but the game endpoints' routes here, so an unknown check gets a
    # problem naming the game's checks, and /ledger and /close keep their own methods.
    bp.record_once(lambda state: state.app.url_map.converters.setdefault("check_name", CheckNameConverter))
    bp.add_url_rule(
        "/games/<game_id>/<check_name:check>", "game_check", per_token(games.game_check), methods=["POST"],
    )
    bp.add_url_rule("/games/<game_id>/<check_name:check>/odds", "game_odds", per_token(chances(odds.game_odds)),
                    methods=["POST"])
    bp.add_url_rule("/verify", "verify", anonymous(verify.verify), methods=["POST"])
    return bp
