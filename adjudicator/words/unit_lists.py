"""Which of a game's units each unit field of a check's form offers: only the units that can apply.

A recorded game's form is asked by one side (its token's). Where the check says whose units a field
holds, that field offers only those: the attacking units (board role `attackers`) are the asker's
own, the units attacked (`defenders`) the enemy's, and the unit a check is about is the asker's own
where only a unit's owner may ask it (`Actor.owner_of_units`). A check either side may ask (a combat's
support, a supply state) says nothing of whose units its fields hold, and a field of every unit on
the board (`positions`) holds both sides': those offer the whole list, each unit with its side. The
server still judges what is sent; the lists only leave out what it would refuse.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.checks import CheckSpec, canonical_side
from adjudicator.words.forms import PICK_UNIT, UnitChoice, form_fields

#: Whose units a field holds, seen from the asker.
OWN, ENEMY = "own", "enemy"


def field_sides(spec: CheckSpec) -> dict[str, str]:
    """top-level field -> OWN or ENEMY, for each unit field whose units are one side's as seen from
    the side that asks (see the module's docstring); a field not named holds either side's."""
    actor = spec.actor
    if not (actor.owner_of_units or actor.only is not None or actor.side_field is not None):
        return {}  # either side may ask: an attacker may be the asker's or his opponent's
    out: dict[str, str] = {}
    for f in form_fields(spec):
        if f.picker != PICK_UNIT and not any(c.picker == PICK_UNIT for c in f.children):
            continue
        if f.board_role == "attackers":
            out[f.name] = OWN
        elif f.board_role == "defenders":
            out[f.name] = ENEMY
        elif f.board_role == "unit" and actor.owner_of_units:
            out[f.name] = OWN
    return out


@dataclass(frozen=True)
class UnitLists:
    """The lists a form's unit fields offer beyond the whole list: field -> its list's element id,
    list id -> its units."""

    fields: dict[str, str] = field(default_factory=dict)
    lists: dict[str, list[UnitChoice]] = field(default_factory=dict)


def unit_lists(spec: CheckSpec, system: str, units: list[UnitChoice], asker: str | None) -> UnitLists:
    """The side lists of `spec`'s form as `asker` (a side; None or the observer: no side asks, every
    field offers the whole list) fills it in."""
    side = canonical_side(asker) if asker is not None else None
    if not any(u.side == side for u in units):  # no side asks (a calculation, an observer): the whole list
        return UnitLists()
    fields: dict[str, str] = {}
    lists: dict[str, list[UnitChoice]] = {}
    for name, whose in field_sides(spec).items():
        list_id = f"units-{system}-{whose}"
        fields[name] = list_id
        lists.setdefault(list_id, [u for u in units if (u.side == side) == (whose == OWN)])
    return UnitLists(fields, lists)
