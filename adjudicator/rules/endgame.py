"""What every game's victory check reads from the ledger at the end: the units its rulings
eliminated.

A victory check scores the final position: units in a deadpile (KWB 11.0 schedules), units on the
map that hold a place or stand beyond a line (SPI Victory Conditions, HoldFast 12). A recorded game's
ledger already knows which units its rulings eliminated (`adjudicator.ledger.board`), so those are
not the player's to state again: they are in the deadpile whatever the saved game shows, and they
hold nothing on the map. Each game's victory module registers this as its ledger facts
(`adjudicator.facts.register_ledger_facts`)."""

from __future__ import annotations

from typing import Any

from adjudicator.facts import Fact


def eliminated_by_rulings(board: Any) -> dict[str, int]:
    """Unit id -> the record that eliminated it, for every unit the ledger's board holds eliminated
    (a unit set aside by a breakdown or a recombination is not: it is in play as its parts)."""
    return {unit: state.by for unit, state in sorted(board.units.items())
            if state.eliminated and not state.set_aside}


def eliminated_fact(board: Any, rule: str, known=lambda unit: True) -> Fact | None:
    """The units the rulings eliminated as a fact that a list field includes (None when none did).
    `known`: the units the check can score (a placeholder the ledger revealed is none of them)."""
    gone = {u: seq for u, seq in eliminated_by_rulings(board).items() if known(u)}
    if not gone:
        return None
    names = board.names
    said = ", ".join(f"{names.name(u)} (record #{seq})" for u, seq in gone.items())
    return Fact(list(gone), f"the rulings eliminated {said} ({rule})", includes=True)
