"""The chances of a check before the roll (`adjudicator.odds`); nothing is rolled or recorded.

    POST /systems/<system>/<check>/odds      the check's own request without dice
    POST /games/<id>/<check>/odds            the same in a recorded game: a side's token, the request
                                             bound as the game binds a roll (its scenario, the asking
                                             side, what its ledger establishes); nothing is recorded

Either way the answer lists every distinct outcome with its exact probability (docs/api.md "Odds").
"""

from __future__ import annotations

from flask import jsonify, request

from adjudicator import rulings
from adjudicator.api.auth import require_grant
from adjudicator.odds.asked_again import asked_before
from adjudicator.api.body import parse_json_body
from adjudicator.api.systems import find_check
from adjudicator.chances import chances, refuse_without_dice, without_dice
from adjudicator.checks import canonical_side
from adjudicator.fog import as_seen_by
from adjudicator.words.names import UnitNames


def compute_odds(system: str, check: str):
    """A calculation's chances. With `?side=` (the VASSAL extension sends the side asking, empty
    for none) they are refused where they would show that side a unit the fog of war hides from
    it: the extension fills a form from every piece, the enemy's hidden blocks too."""
    spec = find_check(system, check)
    refuse_without_dice(spec)
    req = parse_json_body(spec.request, prepare=lambda body: without_dice(rulings.units_by_id(spec, body)),
                          words=UnitNames.of(spec.system).text)
    if "side" in request.args:
        rulings.refuse_a_peek_by(spec.system, spec.name, req.model_dump(mode="json"),
                                 canonical_side(request.args["side"]) or None)
    return jsonify(chances(spec, req))


def game_odds(game_id: str, check: str):
    grant = require_grant(game_id, write=True)
    spec = rulings.game_check(grant, check)
    refuse_without_dice(spec)
    req = parse_json_body(spec.request, prepare=lambda body: rulings.bind(spec, grant, without_dice(body)),
                          words=UnitNames.of(spec.system).text)
    request_json = req.model_dump(mode="json")
    rulings.refuse_a_peek(grant, spec.name, request_json)
    answer = chances(spec, req) | {"game_id": game_id,
                                   "request": as_seen_by(grant.system, spec.name, request_json, grant.role)}
    repeat = asked_before(grant, spec, req)
    if repeat is not None:  # the same situation was asked already: rolling again is seen by both players
        answer["asked_before"] = repeat.to_json()
    return jsonify(answer)

