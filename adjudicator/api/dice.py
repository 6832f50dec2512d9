"""`GET /games/<game_id>/dice`: the game's dice record (any token of the game)."""

from __future__ import annotations

from flask import jsonify

from adjudicator.api.auth import require_grant
from adjudicator.gamedice import game_dice_record
from adjudicator.ledger import ledger_document
from adjudicator.problems import Problem
from adjudicator.services import services
from adjudicator.storage import GameNotFound


def game_dice(game_id: str):
    grant = require_grant(game_id, write=False)
    store = services().store
    try:
        document = ledger_document(store.game(game_id), store.records(game_id))
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    return jsonify({"game_id": game_id, **game_dice_record(grant, document).to_json()})
