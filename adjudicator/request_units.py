"""What a request says a unit is: the one reader of the units a check's request names.

A request names a unit as its id ("nk-83-mot"), or as an object whose ``unit`` (``block`` in
HoldFast's requests) is the id and whose other members say what the asker sees of it: the step or
the strength (``sp``) it stands at, its ``hex``, that it is ``eliminated``; a field may hold a list
of either, and objects nest (a combat's attackers, a supply report's positions). An outcome names
the units it rules on the same way.

Everyone who reads that reads it here: the ledger's board (what a request claims of each unit, its
notices), the changes a ruling makes (a step the request already states is no change), the chat's
headline (the step a unit stood at), the fog of war (which objects to seal), the sealed draws
(the placeholders a request reveals), the recorded-check path (a combat's fighters) and the pages'
picks. This module is a leaf: it imports nothing of the project.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator


def unit_of(node: dict[str, Any]) -> str | None:
    """The unit an object names: its ``unit``, else its ``block``; None for an object naming none."""
    for key in ("unit", "block"):
        value = node.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def unit_objects(tree: Any) -> Iterator[dict[str, Any]]:
    """Every object in `tree` (a request, a field of one, an outcome) that names a unit, in document
    order: an object before the objects inside it."""
    if isinstance(tree, dict):
        if unit_of(tree) is not None:
            yield tree
        values = tree.values()
    elif isinstance(tree, list):
        values = tree
    else:
        return
    for value in values:
        if isinstance(value, (dict, list)):  # a number or a text names no object: no generator for it
            yield from unit_objects(value)


@dataclass(frozen=True)
class Stated:
    """What one object of a request says of its unit."""

    unit: str
    step: str | None  # the step it names, as written ("" included); None: it names none
    sp: int | None  # the strength it names; None: none
    hex: str  # "" when it names none
    eliminated: bool  # it says ``"eliminated": true``


def stated_units(tree: Any) -> Iterator[Stated]:
    """What `tree` says of each unit it names, object by object in document order (a unit named
    twice is stated twice: a reader that keeps one keeps the later)."""
    for node in unit_objects(tree):
        step, sp, hex_ = node.get("step"), node.get("sp"), node.get("hex")
        yield Stated(unit_of(node) or "", step if isinstance(step, str) else None,
                     sp if isinstance(sp, int) and not isinstance(sp, bool) else None,
                     hex_ if isinstance(hex_, str) else "", node.get("eliminated") is True)


def states_before(request: Any) -> dict[str, str | int]:
    """unit -> the step (or, where it names none, the SP) it stood at when the check was asked, for
    each unit the request names at one."""
    out: dict[str, str | int] = {}
    for said in stated_units(request):
        state = (said.step or None) if said.step is not None else said.sp
        if state is not None:
            out[said.unit] = state
    return out


def unit_ids(value: Any) -> list[str]:
    """The units a request or outcome member names: an id, an object's ``unit`` (or ``block``), a
    list of either (objects nested inside an object are its own business: not listed)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        unit = unit_of(value)
        return [unit] if unit is not None else []
    if isinstance(value, list):
        return [u for item in value for u in unit_ids(item)]
    return []
