"""KWB's Scratch Units as a sealed draw (`adjudicator.ledger.draws`).

12.21: "The Communist player sets up all 12 Scratch Units at the beginning of the game, face up (? 4)
... He selects them randomly and may not peek at them ... When the hex containing a scratch unit is
attacked, turn the unit face up". The module shows each as the same '? 4' placeholder; a combat
reveals the placeholders among its defenders (`revealed_as`), and in a recorded game the
adjudicator draws which counter each one is from the order it committed to when the game was created.
Readings: a bombardment (8.4) is no attack and reveals nothing; a face-down Scratch Unit does not
attack (its strength is unknown, even to its owner; combat.py refuses it).
"""

from __future__ import annotations

from adjudicator.ledger.draws import register_reveal

RULE = "12.21 Scratch Units: turned face up when their hex is attacked"

REVEAL = register_reveal("kwb", "combat", "defenders", RULE)
