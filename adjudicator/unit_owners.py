"""A game's `adjudicator.unit_changes.Owners`: each unit's side, each side's dead pile, and the
units whose pieces the board hides from the other side.

The pieces hidden are those the fog of war hides (`adjudicator.fog`): the module masks them from
the other side (HoldFast's blocks), and VASSAL lets no command of the other side reach a masked
piece, so a ruling's change to one is its owner's to make. (KWB's Scratch Units are no such
pieces: identical '? 4' placeholders, the same to both sides, which the asker turns face up as a
ruling reveals them, `adjudicator.ledger.draws`.) The dead pile is the box the module's Eliminate sends
a unit of that side to (`scenarios.boxboard.dead_pile`); the box of counters not in play, where a
broken-down unit is set aside (`scenarios.boxboard.counters_box`); each unit's steps (the step a
ruled strength shows, `adjudicator.piece_actions.step_name`) and each box's name as the module shows it.
"""

from __future__ import annotations

from functools import lru_cache

from adjudicator.fog import fog_of
from adjudicator.unit_changes import Owners
from scenarios.boxboard import counters_box, dead_pile


@lru_cache(maxsize=None)
def owners_of(system: str) -> Owners:
    """The owners of `system`'s units (an unknown system: no unit has a side)."""
    try:
        from scenarios import load_game

        game = load_game(system)
    except Exception:  # a probe check's system, or data that does not load: nobody is known
        return Owners(lambda unit: None, lambda side: "", lambda unit: None)
    piles = {side: (box.id if (box := dead_pile(game, side)) else "") for side in game.sides}
    aside = {side: (box.id if (box := counters_box(game, side)) else "") for side in game.sides}
    fog = fog_of(system)

    def side_of(unit: str) -> str | None:
        found = game.units.get(unit)
        return found.side if found is not None else None

    def hidden_owner(unit: str) -> str | None:
        return fog.unit_owner(unit) if fog is not None else None

    def steps_of(unit: str):
        found = game.units.get(unit)
        return found.steps if found is not None else ()

    def box_name(box: str) -> str:
        found = game.boxes.get(box)
        return found.name if found is not None else ""

    def marker_of(name: str) -> tuple[str, str, int]:
        """A marker the rules name ("disrupted", "bug_out", "Elite"): the counter, the face showing
        it and that face's number (1: the front)."""
        words = name.replace("_", " ").lower()
        for marker in game.markers.values():
            for number, face in enumerate(marker.faces or (marker.name,), start=1):
                if face.lower() == words or face.lower().startswith(words + " "):
                    return marker.id, face, number
        return "", "", 0

    return Owners(side_of, lambda side: piles.get(side, ""), hidden_owner, lambda side: aside.get(side, ""),
                  steps_of, box_name, marker_of)
