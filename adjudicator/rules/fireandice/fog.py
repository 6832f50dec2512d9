"""Fire and Ice's Objective markers in the ledger (`adjudicator.fog`).

12.1.3: Objective markers are drawn at random and their values (1, 3 or 5 VP) stay hidden until
revealed. A draw's outcome and its dice (which would give the values away) are sealed until the
game closes; the closing record reveals them and the dice are recomputed then.
"""

from __future__ import annotations

from adjudicator.fog import NO_HIDDEN_UNITS, Fog, register_fog

FOG = register_fog("fireandice", Fog(
    rule="12.1.3 Objective markers: values hidden until revealed",
    noun="unit",
    unit_owner=lambda unit_id: None,  # units are face up in Fire and Ice
    hidden_units=lambda: NO_HIDDEN_UNITS,
    secret_draws=("objective_draw",),
))
