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
from adjudicator.fog import fog_of


def eliminated_by_rulings(board: Any, set_aside: bool = False) -> dict[str, int]:
    """Unit id -> the record that eliminated it, for every unit the ledger's board holds eliminated;
    with `set_aside`, also every unit a breakdown or a recombination set aside (not on the map as
    itself: its parts stand in its stead, SPI)."""
    return {unit: state.by for unit, state in sorted(board.units.items())
            if state.eliminated and (set_aside or not state.set_aside)}


def eliminated_fact(board: Any, rule: str, known=lambda unit: True, set_aside: bool = False,
                    system: str = "", side: str | None = None) -> Fact | None:
    """The units the rulings eliminated (and with `set_aside`, set aside) as a fact that a list
    field includes (None when there are none). `known`: the units the check can score (a
    placeholder the ledger revealed is none of them). Where `system`'s fog of war hides a unit from
    the asking `side`, the fact names it to him only as one of a count (`Fact.shown` leaves it out:
    the recorded request carries it, sealed)."""
    gone = {u: seq for u, seq in eliminated_by_rulings(board, set_aside).items() if known(u)}
    if not gone:
        return None
    fog = fog_of(system) if system else None
    seen = [u for u in gone if fog is None or fog.unit_owner(u) in (None, side)]
    names = board.names
    said = ", ".join(f"{names.name(u)} (record #{gone[u]})" for u in seen)
    hidden = len(gone) - len(seen)
    if hidden:
        said = (f"{said} and " if said else "") + f"{hidden} {fog.noun}{'s' if hidden > 1 else ''} hidden from you"
    how = "eliminated or set aside" if set_aside else "eliminated"
    return Fact(list(gone), f"the rulings {how} {said} ({rule})", includes=True, shown=seen if hidden else None)
