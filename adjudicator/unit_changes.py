"""What a ruling does to the units it names: eliminated, showing another step, at another strength.

A rules function's outcome names unit states in a few shapes, which every client that shows or
applies a ruling reads the same way (the `.vlog` write-back, the VASSAL extension through the
response's ``piece_changes``, the ruling's headline):

* an object with ``unit`` (or ``block``) and ``step`` naming one of that unit's steps; a step
  ``deadpile``/``eliminated``/``destroyed``, or ``eliminated: true``, is the unit removed;
* an object with ``unit`` (or ``block``) and ``sp`` (block games): that strength;
* lists named ``eliminated`` (unit ids): removed; ``flipped_spent``: their ``spent`` step;
* a list named ``revealed`` of objects ``{"unit": placeholder, "revealed_as": counter}``: a hidden
  identity revealed (KWB's Scratch Units, `adjudicator.draws`): the placeholder leaves the board and
  the counter it turned out to be takes its spot, face up. These come first, so a change to the
  counter itself (a Dummy eliminated at once) follows its placing.

An object's ``replaced_by`` names the unit that takes an eliminated unit's place (KWB's intensive
attack). Only the outcome is read: where the units stand is the board's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

GONE_STEPS = frozenset({"deadpile", "eliminated", "destroyed"})


@dataclass(frozen=True)
class UnitChange:
    """One unit's state after a ruling: removed (``step`` and ``sp`` None), a step, or an SP."""

    unit: str
    step: str | None = None
    sp: int | None = None
    replaced_by: str = ""
    revealed_as: str = ""  # a placeholder revealed: the counter that takes its spot

    @property
    def eliminated(self) -> bool:
        return self.step is None and self.sp is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"unit": self.unit, "eliminated": self.eliminated, "step": self.step, "sp": self.sp}
        if self.replaced_by:
            out["replaced_by"] = self.replaced_by
        if self.revealed_as:
            out["revealed_as"] = self.revealed_as
        return out


def named_units(outcome: Any) -> Iterator[tuple[str, str | None, int | None]]:
    """(unit id, step name or None, SP or None) for every unit the outcome names a state of, in
    the order met; step None and SP None together mean eliminated."""
    for change in _walk(outcome):
        yield change.unit, change.step, change.sp


def ruled_changes(outcome: Any) -> list[UnitChange]:
    """One change per unit the outcome names (the last state named wins), in the order first met.
    Walk a canonical (sorted-key) outcome to get the same order from a live answer and a ledger record."""
    changes: dict[str, UnitChange] = {c.unit: c for c in revealed_changes(outcome)}
    for change in _walk(outcome):
        kept = changes.get(change.unit)
        if kept is not None and kept.replaced_by and not change.replaced_by:
            change = UnitChange(change.unit, change.step, change.sp, kept.replaced_by)
        changes[change.unit] = change
    return list(changes.values())


def revealed_changes(outcome: Any) -> list[UnitChange]:
    """The placeholders a ruling reveals (its outcome's ``revealed``), each leaving the board for the
    counter it turned out to be."""
    items = outcome.get("revealed") if isinstance(outcome, dict) else None
    return [UnitChange(item["unit"], revealed_as=item["revealed_as"]) for item in items or []
            if isinstance(item, dict) and isinstance(item.get("unit"), str) and isinstance(item.get("revealed_as"), str)]


def _walk(outcome: Any) -> Iterator[UnitChange]:
    if isinstance(outcome, list):
        for item in outcome:
            yield from _walk(item)
        return
    if not isinstance(outcome, dict):
        return
    unit = outcome.get("unit") or outcome.get("block")
    if isinstance(unit, str):
        step, sp = outcome.get("step"), outcome.get("sp")
        replaced = outcome.get("replaced_by") if isinstance(outcome.get("replaced_by"), str) else ""
        if outcome.get("eliminated") is True or step in GONE_STEPS:
            yield UnitChange(unit, replaced_by=replaced)
        elif isinstance(step, str):
            yield UnitChange(unit, step=step)
        elif isinstance(sp, int) and not isinstance(sp, bool):
            yield UnitChange(unit, sp=sp)
    for key, value in outcome.items():
        if key == "eliminated" and isinstance(value, list):
            yield from (UnitChange(u) for u in value if isinstance(u, str))
        elif key == "flipped_spent" and isinstance(value, list):
            yield from (UnitChange(u, step="spent") for u in value if isinstance(u, str))
        elif key == "revealed" and isinstance(value, list):
            yield from revealed_changes({"revealed": value})
        elif isinstance(value, (dict, list)):
            yield from _walk(value)
