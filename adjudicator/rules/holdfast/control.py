"""Hex control (2 Hex Control; 12): who controls a port or a star city.

"The Communist player controls all hexes and cities with blue stars north of the 38th Parallel to
start the game. The UN player controls all hexes and cities with red stars south" (2); afterwards
"Control is determined by the last player with an in supply unit in the hex. It does not mean
current occupation" (12). The engine cannot know the history, so a request may list the hexes
whose control changed; every other hex keeps its starting control by side of the 38th.
"""

from __future__ import annotations

from scenarios.hexgrid import Hex
from scenarios.model import Game, GameMap

from adjudicator.rules.holdfast import board, data


def starting_control(g: Game, gm: GameMap, scenario_id: str, hex: Hex) -> tuple[str, list[str]]:
    """(side, warnings) controlling `hex` at the start (2)."""
    reading = board.north_of_38th(g, gm, data.special(g, scenario_id, "parallel_38"))
    side = "communist" if hex in reading.north else "un"
    return side, [reading.warning] if reading.warning else []


def controller(g: Game, gm: GameMap, scenario_id: str, hex: Hex, changed: dict[str, str]) -> tuple[str, list[str]]:
    """Current controller: the request's `changed` entry for the hex, else the starting control."""
    text = gm.grid.label(hex)
    if text in changed:
        return changed[text], []
    return starting_control(g, gm, scenario_id, hex)


def ports(gm: GameMap) -> list[Hex]:
    return sorted(set(gm.hexes_with("port")))


def is_pusan(gm: GameMap, hex: Hex) -> bool:
    return any(f.name.strip().lower().startswith("pusan") for f in gm.features_at(hex))
