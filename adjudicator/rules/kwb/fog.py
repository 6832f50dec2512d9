"""KWB's Scratch Units in the ledger (`adjudicator.fog`).

12.21: the twelve North Korean Scratch Units are drawn at random and set up unseen, even by their
owner, showing their hidden side (?-4), and are revealed when their hex is attacked (a Dummy is
then eliminated). A ruling that names one before that — a supply report, a position — keeps
which it is sealed until the game closes; a combat reveals its combatants.
"""

from __future__ import annotations

from adjudicator.fog import Fog, register_fog
from adjudicator.rules.kwb import data


def _hidden_scratch_unit(unit_id: str) -> str | None:
    unit = data.game().units.get(unit_id)
    return unit.side if unit is not None and unit.has("scratch") else None


FOG = register_fog("kwb", Fog(
    rule="12.21 Scratch Units: drawn unseen, revealed when their hex is attacked",
    noun="Scratch Unit",
    unit_owner=_hidden_scratch_unit,
    owner_sees=False,
    revealed_by={"combat": ("attackers", "defenders")},
))
