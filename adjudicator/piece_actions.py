"""What one change of a ruling takes on the board, piece by piece: the actions
`adjudicator.unit_changes` resolves every change into, and the two lookups every reader of them
shares (which step a counter shows for a ruled step or strength; an outcome in the ledger's key
order).

An action says which piece (its unit: for a replacement, the replacing unit), what happens to it
and where, the step its counter must show, and who makes it:

================  ===============================================================================
``show_step``     the unit's counter shows ``step`` (a step's name: the lookup is done, `step_name`)
``eliminate``     the unit goes to the dead pile ``box`` (``box_name`` as the module names it);
                  ``command`` "Eliminate" when that is where the module's own Eliminate sends it
                  (its side's dead pile), else a move into that box (HoldFast's "removed"
                  Marines); no ``box``: the piece is deleted. A unit lying in another box (a
                  reinforcement box) goes too.
``set_aside``     the unit goes to its side's box of counters not in play (SPI's breakdowns; the
                  module's "Set aside", ``command``)
``place``         a counter of the unit lying off the hex maps (``box`` where the rules keep it:
                  the box of counters not in play, else any box or cup) goes onto the spot of
                  ``beside`` (the unit it replaces, as that unit stood when ruled) or onto ``hex``,
                  showing ``step`` (None: as the counter lies)
``move``          the unit goes to ``hex`` (and shows ``step`` when one is named)
``delete``        the piece is deleted (a placeholder turned face up: it was never a unit)
``retreat``       the unit retreats ``hexes`` hexes from where it stood; ``chosen_by`` chooses the
                  hexes (an open choice: nobody can make it for him)
``place_marker``  the marker ``marker`` (``marker_name``: the face it shows, ``face`` its number) goes
                  onto the unit's hex;
                  with ``chosen_by``, onto the hex of the unit he chooses (``what`` names them);
                  with no unit, onto ``hex`` (none: the combat hex), one drawn at random from the
                  pool ``box`` (``marker`` "": any of it; Fire and Ice's Objective markers, 12.1.3)
``move_marker``   the track marker ``marker`` moves ``by`` cells on the track ``track`` (down:
                  negative, never below its first cell), or to the cell ``cell`` showing the face
                  ``marker_name``; no marker: one of the side's (``what``), ``chosen_by``'s choice
``remove_marker`` the marker ``marker`` comes off the unit's hex
``choose``        a choice still open (``what``, in words), owed by ``chosen_by``: the board
                  changes when he has made it (a unit returned to play: where to place it)
================  ===============================================================================

``applied_by`` is the side that makes an action on the board (the asker, or the owner of a
piece the board hides from him, `adjudicator.unit_changes.Owners.applier`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

SHOW_STEP, ELIMINATE, SET_ASIDE, PLACE, MOVE, DELETE = "show_step", "eliminate", "set_aside", "place", "move", "delete"
RETREAT_ORDER, PLACE_MARKER, REMOVE_MARKER, CHOOSE = "retreat", "place_marker", "remove_marker", "choose"
MOVE_MARKER = "move_marker"
#: Actions a player makes now on the board; the rest are orders whose details are the owner's choice.
ON_THE_BOARD = frozenset({SHOW_STEP, ELIMINATE, SET_ASIDE, PLACE, MOVE, DELETE, PLACE_MARKER, REMOVE_MARKER,
                          MOVE_MARKER})
#: Actions that are open choices (the owner decides how; a check can only see that he did).
OPEN_CHOICES = frozenset({RETREAT_ORDER, CHOOSE})
#: The module's own commands for an elimination to the side's dead pile and a counter set aside.
ELIMINATE_COMMAND, SET_ASIDE_COMMAND = "Eliminate", "Set aside"


@dataclass(frozen=True)
class PieceAction:
    """One thing a ruling's change takes on the board (the module's table of actions)."""

    does: str
    unit: str
    step: str | None = None  # the step's name the counter shows after (None: unchanged)
    hex: str = ""  # MOVE; PLACE onto a hex (a recombination)
    box: str = ""  # ELIMINATE, SET_ASIDE: where to; PLACE: the box the counter lies in ("" any off-map spot)
    box_name: str = ""  # the box as the module names it
    beside: str = ""  # PLACE: the unit whose spot the counter takes
    command: str = ""  # the module's command that makes it ("" a move, or by hand)
    hexes: int = 0  # RETREAT_ORDER
    chosen_by: str = ""  # RETREAT_ORDER, CHOOSE: the side whose choice it is
    marker: str = ""  # PLACE_MARKER, REMOVE_MARKER: the marker's id
    marker_name: str = ""
    face: int = 0  # PLACE_MARKER: the number of the face the marker shows (1: its front; 0 not known)
    what: str = ""  # CHOOSE: the choice in words
    applied_by: str = ""
    track: str = ""  # MOVE_MARKER: the track's id
    cell: str = ""  # MOVE_MARKER: the cell it goes to ("": `by` cells from where it stands)
    by: int = 0  # MOVE_MARKER: cells up (negative: down)

    def to_json(self) -> dict[str, Any]:
        """The action as the answer carries it: ``does``, ``unit`` and ``applied_by`` always, the
        rest when they say something."""
        out: dict[str, Any] = {"does": self.does, "unit": self.unit, "applied_by": self.applied_by}
        if self.step is not None:
            out["step"] = self.step
        for key in ("hex", "box", "box_name", "beside", "command", "chosen_by", "marker", "marker_name", "what", "track",
                    "cell"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.hexes:
            out["hexes"] = self.hexes
        if self.by:
            out["by"] = self.by
        if self.face:
            out["face"] = self.face
        return out


def marker_move_words(action: PieceAction) -> str:
    """A track marker's move in words (``move_marker``): "the Communist Tank Support marker down 1",
    "the VPs marker to 4, showing VPs (UN blue)", "one of his Communist Replacements markers down 1"."""
    marker = f"the {action.marker_name} marker" if action.marker else f"one of his {action.marker_name} markers"
    if action.cell:
        return f"{marker} to {action.cell}" + (f", showing {action.marker_name}" if action.face else "")
    return f"{marker} {'down' if action.by < 0 else 'up'} {abs(action.by)}"


def marker_cell(action: PieceAction, standing: str) -> str | None:
    """The cell a track marker's move (``move_marker``) sends it to from the cell it stands on: the
    cell ordered, or `by` cells from `standing`, never below 0. None where neither tells it (no cell
    ordered, and the marker on no numbered cell). The one reading: the web write-back moves the
    marker there and the log check looks for it there (the extension reads its answer alike)."""
    if action.cell:
        return action.cell
    try:
        return str(max(0, int(standing) + action.by))
    except ValueError:
        return None


def step_name(steps: Iterable[Any], step: str | None, sp: int | None) -> str | None:
    """The name of the step a counter shows for a ruled `step` (a name; "" or "full": its first
    step, full strength) or strength `sp` (block games: the step whose printed SP it is). None when
    the counter has no such step, or nothing is named. `steps`: the unit's steps
    (`scenarios.model.Step`: a ``name`` and ``values``), in counter order.

    The one lookup: the answer's resolved actions, the web write-back, the log check and the
    ledger's board all read a ruled step through it, and the extension applies its result."""
    steps = list(steps)
    if sp is not None:
        return next((s.name for s in steps if s.values.get("sp") == sp), None)
    names = [s.name for s in steps]
    if step is None:
        return None
    if step in ("", "full"):
        return names[0] if names else None
    return step if step in names else None


def canonical_outcome(result: dict[str, Any]) -> dict[str, Any]:
    """A response's outcome in the ledger's key order (so a live answer and a record read alike,
    and every reader meets a ruling's changes in the same order)."""
    return canonical(result.get("outcome") or {})


def canonical(value: Any) -> Any:
    """A JSON value with every object's keys in sorted order (as the ledger stores results)."""
    if isinstance(value, dict):
        return {k: canonical(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value
