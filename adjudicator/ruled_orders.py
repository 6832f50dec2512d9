"""Where the games' outcomes give orders beside the units' states: retreats, markers and choices
left to a unit's owner, in the shapes each game's rules functions write them. `adjudicator.unit_changes`
makes each a change of its own (and resolves it into the piece actions it takes).

* a retreat: an object naming a unit with ``retreat_hexes`` (SPI's Pursuit table; a Fire and Ice
  retreat chosen without its hexes, ``retreats_to_make``), and a combat's ``defender_retreat_hexes``
  / ``attacker_retreat_hexes`` beside its ``defenders`` / ``attackers`` (KWB's CRT: AR, DR and the
  like; the surviving units of that side retreat, a unit replaced by a smaller one through its
  replacement, 7.6);
* a marker: Fire and Ice's losses (``markers``: unit -> the status markers its retreat earns, 5.6;
  6.2 e, f, g) and a combat's quality markers (``quality_markers_placed``: a side and a marker, put
  on one of that side's participating units without a quality marker, 5.4.2: ``participants`` by
  role, the lead unit first);
* a choice: SPI's ``defender_losses_to_choose`` (Combat (J): the defender chooses which of his
  units lose the regiments; the side, the regiments, the units, the hex), settled by a later ruling
  of his naming the combat's record (``combat_record``: his 'Combat losses', `settled_choices`).

* a marker on a hex, not on a unit (``markers_on_hexes``: Fire and Ice's News reporters put an
  Objective marker of a side's colour, drawn from that side's pool, face up on the combat hex,
  5.5; 12.1.3), made by that side (his pool);
* a marker moved on a player-aid track (``track_moves``: by some cells, or to a cell showing a face;
  Fire and Ice's support levels, replacements and VP marker, 5.3.1, 5.5, 5.6, 12.1.1; 13.2;
  HoldFast's Weather block, 7; KWB's VP markers, 11.0), made
  by the side it names (its owner's marker; none named: the asker), one of several markers his
  choice where the outcome names no marker.

Each order carries the rule that gives it (its ``rule``), said wherever the order is.

A leaf: plain values in, plain values out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

#: Steps that mean a unit is gone (its outcome object says so).
GONE_STEPS = frozenset({"deadpile", "eliminated", "destroyed"})


@dataclass(frozen=True)
class MarkerOrder:
    """Markers to put on a unit's hex (no unit, "": on one of `choices`, its side's choice)."""

    unit: str
    markers: tuple[str, ...]
    choices: tuple[str, ...] = ()
    side: str = ""


@dataclass(frozen=True)
class LossChoice:
    """Losses a side chooses the units of: `regiments` from `units` in `hex`."""

    side: str
    regiments: int
    units: tuple[str, ...]
    hex: str


def retreat_orders(outcome: Any) -> Iterator[tuple[str, int]]:
    """(unit, hexes) for every retreat an outcome orders (the module's first shape)."""
    if isinstance(outcome, list):
        for item in outcome:
            yield from retreat_orders(item)
        return
    if not isinstance(outcome, dict):
        return
    unit, hexes = outcome.get("unit"), integer(outcome.get("retreat_hexes"))
    if isinstance(unit, str) and hexes:
        yield unit, hexes
    new_units = {n["unit"]: n for n in outcome.get("new_units") or []
                 if isinstance(n, dict) and isinstance(n.get("unit"), str)}
    for side in ("defender", "attacker"):
        hexes = integer(outcome.get(f"{side}_retreat_hexes"))
        for item in outcome.get(f"{side}s") or [] if hexes else []:
            survivor = _survivor(item, new_units)
            if survivor:
                yield survivor, hexes
    for key, value in outcome.items():
        if isinstance(value, (dict, list)) and key not in ("attackers", "defenders", "new_units"):
            yield from retreat_orders(value)


def marker_orders(outcome: Any) -> Iterator[MarkerOrder]:
    """The markers an outcome orders onto units (the module's second shape)."""
    if not isinstance(outcome, dict):
        return
    markers = outcome.get("markers")
    if isinstance(markers, dict):  # unit -> its markers' names (a sealed part, {"hidden": ...}, is no such map)
        for unit, names in markers.items():
            if isinstance(unit, str) and isinstance(names, list) and ids(names):
                yield MarkerOrder(unit, ids(names))
    placed = outcome.get("quality_markers_placed")
    participants = outcome.get("participants") if isinstance(outcome.get("participants"), dict) else {}
    attacker_side = outcome.get("loser_side") if outcome.get("loser") == "attacker" else outcome.get("winner_side")
    for item in placed if isinstance(placed, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("marker"), str):
            continue
        role = "attacker" if item.get("side") == attacker_side else "defender"
        units = ids(participants.get(role))
        side = item["side"] if isinstance(item.get("side"), str) else ""
        # no unit named (a combat asked by its numbers): the side's choice of his participating units
        yield MarkerOrder(units[0] if units else "", (item["marker"],), units, side)


@dataclass(frozen=True)
class HexMarkerOrder:
    """A marker onto a hex: `marker` (its name in words) drawn from the box `pool` (`pool_name`), made by `side`."""

    hex: str  # "" when the outcome names none (a Random Event rolled on its own: the combat hex)
    marker: str
    pool: str
    pool_name: str
    side: str
    revealed: bool
    rule: str


@dataclass(frozen=True)
class TrackOrder:
    """A track marker moved `by` cells (up: positive), or to the cell `to` showing `face`."""

    track: str
    marker: str  # the marker's id ("": one of `choices`, the side's choice)
    marker_name: str
    by: int
    to: str
    face: str
    side: str
    rule: str
    choices: tuple[str, ...] = ()


def hex_marker_orders(outcome: Any) -> Iterator[HexMarkerOrder]:
    """The markers an outcome orders onto hexes (``markers_on_hexes``)."""
    items = outcome.get("markers_on_hexes") if isinstance(outcome, dict) else None
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("marker"), str) and isinstance(item.get("side"), str):
            yield HexMarkerOrder(_text(item.get("hex")), item["marker"], _text(item.get("pool")),
                                 _text(item.get("pool_name")), item["side"], item.get("revealed") is True,
                                 _text(item.get("rule")))


def track_orders(outcome: Any) -> Iterator[TrackOrder]:
    """The track markers an outcome orders moved (``track_moves``)."""
    items = outcome.get("track_moves") if isinstance(outcome, dict) else None
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("track"), str):
            continue
        by, to = integer(item.get("by")) or 0, _text(item.get("to"))
        if by or to:
            yield TrackOrder(item["track"], _text(item.get("marker")), _text(item.get("marker_name")), by, to,
                             _text(item.get("face")), _text(item.get("side")), _text(item.get("rule")),
                             ids(item.get("choices")))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def loss_choices(outcome: Any) -> Iterator[LossChoice]:
    """The losses an outcome leaves to a side to choose the units of (the module's third shape)."""
    owed = outcome.get("defender_losses_to_choose") if isinstance(outcome, dict) else None
    if isinstance(owed, dict) and isinstance(owed.get("side"), str):
        yield LossChoice(owed["side"], integer(owed.get("regiments")) or 0, ids(owed.get("units")),
                         owed.get("hex") if isinstance(owed.get("hex"), str) else "")


#: The rule a loss choice is owed under (the one shape of `loss_choices`).
LOSS_CHOICE_RULE = "Combat (J)"


def settled_choices(request: Any, outcome: Any) -> tuple[int, ...]:
    """The records whose open choice (`loss_choices`) a ruling settles: SPI's 'Combat losses' names
    the combat whose losses its owner chose (``combat_record``, in its request as the ledger filled
    it, or in its outcome). The log check reads it to say whether an owed choice was made."""
    out = []
    for part in (request, outcome):
        seq = integer(part.get("combat_record")) if isinstance(part, dict) else None
        if seq is not None and seq not in out:
            out.append(seq)
    return tuple(out)


def _survivor(item: Any, new_units: dict[str, dict]) -> str:
    """The unit standing for a unit object after a combat's losses: itself, or the unit that
    replaced it (followed through each replacement), "" when none is left."""
    seen = set()
    while isinstance(item, dict) and isinstance(item.get("unit"), str) and item["unit"] not in seen:
        seen.add(item["unit"])
        if item.get("step") not in GONE_STEPS and item.get("eliminated") is not True:
            return item["unit"]
        replaced = item.get("replaced_by")
        if not isinstance(replaced, str) or not replaced:
            return ""
        item = new_units.get(replaced, {"unit": replaced})
    return ""


def ids(value: Any) -> tuple[str, ...]:
    """Unit ids: one id, or a list of them (other values left out)."""
    if isinstance(value, str):
        return (value,) if value else ()
    if isinstance(value, list):
        return tuple(v for v in value if isinstance(v, str) and v)
    return ()


def integer(value: Any) -> int | None:
    """An int that is no bool, else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None
