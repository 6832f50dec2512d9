"""A stored game's dice record as one token's holder may see it (`adjudicator.ledger.dicestats`).

The ledger is the same for every token; what differs is which sealed dice (fog of war: a face-down
draw) the holder may see: his side's own at once where the rules allow, every one once the game is
closed. The API (`GET /api/v1/games/<id>/dice`), the dice page and the replay call this.
"""

from __future__ import annotations

from typing import Any

from adjudicator.ledger.dicestats import DiceRecord, dice_record
from adjudicator.fog import Part, visible_to
from adjudicator.services import services
from adjudicator.ledger.storage import OBSERVER, TokenGrant


def seen_values(game_id: str, viewer_side: str | None, closed: bool) -> dict[str, Any]:
    """commitment -> value of the sealed parts the viewer (a side, None for an observer) may see."""
    out = {}
    for _, part in services().store.hidden_parts(game_id):
        made = Part.from_json(part)
        if visible_to(made, viewer_side, closed):
            out[made.commitment] = made.value
    return out


def game_dice_record(grant: TokenGrant, document: dict[str, Any]) -> DiceRecord:
    """The dice record of the game's ledger `document` for the holder of `grant`."""
    closed = document["game"]["status"] == "closed"
    side = None if grant.role == OBSERVER else grant.role
    return dice_record(document["records"], seen_values(grant.game_id, side, closed))
