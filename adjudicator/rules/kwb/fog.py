"""KWB's Support Fire markers in the ledger (`adjudicator.fog`).

8.1 "Support Fire markers are always drawn randomly from the pool of those available": they go to the
drawing side's hand, and the opponent sees one when it is used in a combat. A recorded draw
(`support_fire_draw`) keeps the markers drawn, the dice that would tell them and the markers the
request says are out of the pool (his hand among them) the drawing side's until the game closes. (The Scratch Units, unseen even by their owner, are sealed draws:
`adjudicator.ledger.draws`; no KWB unit is hidden in a ruling.)
"""

from __future__ import annotations

from adjudicator.fog import NO_HIDDEN_UNITS, Fog, register_fog

FOG = register_fog("kwb", Fog(
    rule="8.1 Support Fire markers: drawn into the drawer's hand, seen by the opponent when used",
    noun="unit",
    unit_owner=lambda unit_id: None,  # units are face up in KWB
    hidden_units=lambda: NO_HIDDEN_UNITS,
    own_draws={"support_fire_draw": ("out_of_pool",)},  # the markers out of the pool: his hand among them
))
