"""What a Fire and Ice combat reads from the board: the Support Level Track and the defender's side.

Each side's tank, artillery and air support levels are markers on the Support Level Track, and
the US Navy's bombardment level too (2.2, 8.1, 10.4.3, 11.2); the defender rolls a D10 only when
the defending unit shows its fresh side (5.4.1). A combat taken from a saved game records those
as the board shows them (`adjudicator.boardread`), never as a form held them.
"""

from __future__ import annotations

from typing import Any

from adjudicator.boardread import BoardView, Read, reads_board
from adjudicator.rules.fireandice import data

#: The request's side id -> the prefix of its support markers' ids (markers.csv).
MARKER_PREFIX = {"un": "un", "communist": "com"}
#: Level field -> the support marker's kind (its id after the side's prefix).
LEVELS = {"tank_level": "tank", "artillery_level": "artillery", "air_level": "air"}
TRACK_RULE = "Support Level Track (2.2, 8.1)"


def _levels(board: BoardView, side: str, pointer: str) -> dict[str, Read]:
    prefix = MARKER_PREFIX.get(side)
    if prefix is None:
        return {}
    kinds = dict(LEVELS, **({"bombardment_level": "bombardment"} if side == "un" else {}))
    found = {}
    for field, kind in kinds.items():
        marker = f"{prefix}-{kind}"
        cell = board.track_cell(marker)
        if cell is not None and cell.lstrip("-").isdigit():
            found[f"{pointer}/{field}"] = Read(int(cell), f"the {marker} marker on the {TRACK_RULE}: {cell}")
    return found


@reads_board("fireandice", "combat_support")
def read_support(board: BoardView, request: dict[str, Any]) -> dict[str, Read]:
    """Both sides' levels: the attacker's and the defender's markers on the track."""
    attacker = request.get("attacker")
    if attacker not in MARKER_PREFIX:
        return {}
    return _levels(board, attacker, "/attacking") | _levels(board, data.other_side(attacker), "/defending")


@reads_board("fireandice", "combat")
def read_combat(board: BoardView, request: dict[str, Any]) -> dict[str, Read]:
    """The levels, and whether the defending unit in the combat hex shows its fresh side."""
    found = read_support(board, request)
    hex_label, attacker = request.get("combat_hex"), request.get("attacker")
    if attacker not in MARKER_PREFIX or not hex_label:
        return found
    g = data.game()
    defending = [(unit, step) for unit, step in board.units_in_hex(hex_label)
                 if unit in g.units and g.units[unit].side == data.other_side(attacker)]
    lead = (request.get("defending") or {}).get("lead_unit")
    chosen = [d for d in defending if d[0] == lead] if lead else defending
    if len(chosen) == 1:  # several and no lead unit named: the player says which defends
        unit, step = chosen[0]
        found["/defender_fresh"] = Read(step != "spent", f"{unit} in {hex_label} shows its {step or 'fresh'} side "
                                                         "(5.4.1)")
    return found
