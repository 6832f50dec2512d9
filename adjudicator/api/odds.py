"""The chances of a check before the roll (`adjudicator.odds`); nothing is rolled or recorded.

    POST /systems/<system>/<check>/odds      the check's own request without dice
    POST /games/<id>/<check>/odds            the same in a recorded game: a side's token, the request
                                             bound as the game binds a roll (its scenario, the asking
                                             side, what its ledger establishes); nothing is recorded

Either way the answer lists every distinct outcome with its exact probability (docs/api.md "Odds").
"""

from __future__ import annotations

from typing import Any

from flask import jsonify

from adjudicator import rulings
from adjudicator.api.auth import require_grant
from adjudicator.api.body import parse_json_body
from adjudicator.api.systems import find_check
from adjudicator.checks import CheckSpec
from adjudicator.odds import odds
from adjudicator.problems import Problem


def refuse_without_dice(spec: CheckSpec) -> None:
    if not spec.random:
        raise Problem(404, "No chances to compute",
                      f"{spec.key} rolls no dice: its ruling follows from the situation alone (POST "
                      f"/api/v1/systems/{spec.system}/{spec.name}).", kind="no-dice")


def chances(spec: CheckSpec, request: Any) -> dict[str, Any]:
    """The odds, or 422 for a situation the rules refuse (as a ruling would be refused)."""
    try:
        return odds(spec, request)
    except ValueError as error:
        raise rulings.situation_problem(error) from None


def without_dice(body: dict[str, Any]) -> dict[str, Any]:
    """422 for a body that brings dice: the odds try every value the dice can take."""
    if "dice" in body:
        detail = "An odds request has no dice: the odds try every value the check's dice can take. Leave dice out."
        raise Problem(422, "The request body is invalid", f"/dice: {detail}", kind="validation",
                      errors=[{"pointer": "/dice", "detail": detail, "code": "dice-in-odds"}])
    return body


def compute_odds(system: str, check: str):
    spec = find_check(system, check)
    refuse_without_dice(spec)
    req = parse_json_body(spec.request, prepare=without_dice)
    return jsonify(chances(spec, req))


def game_odds(game_id: str, check: str):
    grant = require_grant(game_id, write=True)
    spec = rulings.game_check(grant, check)
    refuse_without_dice(spec)
    req = parse_json_body(spec.request, prepare=lambda body: rulings.bind(spec, grant, without_dice(body)))
    return jsonify(chances(spec, req) | {"game_id": game_id, "request": req.model_dump(mode="json")})
