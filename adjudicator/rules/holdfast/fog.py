"""HoldFast Korea's fog of war, for the ledger (`adjudicator.fog`).

"The only time the opposing player may see the label side of an enemy unit is when both sides
reveal the type of unit for combat." Every block is hidden from the other side; a combat (and a
naval assault, which is fought as one) reveals the blocks fighting it, and nothing else.
"""

from __future__ import annotations

from adjudicator.fog import Fog, register_fog
from adjudicator.rules.holdfast import data


def _owner(unit_id: str) -> str | None:
    unit = data.game().units.get(unit_id)
    return unit.side if unit is not None else None


FOG = register_fog("holdfast", Fog(
    rule="Fog of War: blocks face their owner; both sides reveal the blocks of a combat",
    noun="block",
    unit_owner=_owner,
    revealed_by={"combat": ("attackers", "defender"), "naval_assault": ("attacker", "defender")},
))
