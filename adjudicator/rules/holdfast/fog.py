"""HoldFast Korea's fog of war, for the ledger (`adjudicator.fog`).

"The only time the opposing player may see the label side of an enemy unit is when both sides
reveal the type of unit for combat." Every block is hidden from the other side; a combat (and a
naval assault, which is fought as one) reveals the blocks fighting it, and nothing else.
"""

from __future__ import annotations

from adjudicator.fog import Fog, register_fog
from adjudicator.rules.holdfast import data


#: The table `_blocks` made last: (the game data it was read from, block id -> owner).
_TABLE: tuple = (None, {})


def _blocks() -> dict[str, str]:
    """Every block -> its side (all are hidden from the other side), read once per game data (a
    reload, or a test's own game, gives a new one): the fog's one set of hidden ids per game."""
    global _TABLE
    game, table = _TABLE
    if game is not data.game():
        game = data.game()
        table = {unit_id: unit.side for unit_id, unit in game.units.items()}
        _TABLE = (game, table)
    return table


def _owner(unit_id: str) -> str | None:
    return _blocks().get(unit_id)


FOG = register_fog("holdfast", Fog(
    rule="Fog of War: blocks face their owner; both sides reveal the blocks of a combat",
    noun="block",
    unit_owner=_owner,
    hidden_units=_blocks,
    revealed_by={"combat": ("attackers", "defender"), "naval_assault": ("attacker", "defender")},
))
