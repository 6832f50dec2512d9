"""`GET /games/<game_id>/dice`: the game's dice record (any token of the game)."""

from __future__ import annotations

from flask import jsonify

from adjudicator import rulings
from adjudicator.api.auth import require_grant
from adjudicator.api.dice_record import game_dice_record


def game_dice(game_id: str):
    grant = require_grant(game_id, write=False)
    document = rulings.game_ledger(game_id)
    return jsonify({"game_id": game_id, **game_dice_record(grant, document).to_json()})
