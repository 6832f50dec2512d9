"""What a check reads from the board beyond its board roles: markers, track values, unit sides.

A check's board roles (`adjudicator.checks.BOARD_ROLES`) say which request fields are units,
hexes, the turn: what any board can fill the same way. Some values the board shows are a game's
own: Fire and Ice's support levels are markers on the Support Level Track, a defender's fresh or
spent side is its counter's face, KWB's UN supply shortage is a marker in the UN box. A rules
package registers, per check, a *reader* that takes them from a `BoardView`; the saved-game path
(`adjudicator.bridge.fill`) runs it, so a ruling from a saved game records what the board shows,
never what a form or an example held.

This module is a leaf: the rules packages register into it; the bridge reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol


@dataclass(frozen=True)
class Read:
    """One value read from the board, and where it was seen (said to the player)."""

    value: Any
    where: str


class BoardView(Protocol):
    """The board as a reader sees it."""

    def track_cell(self, marker_id: str) -> str | None:
        """The label of the track cell the marker stands on; None when it is on no track."""

    def has_marker(self, marker_id: str) -> bool:
        """Whether a marker of that id is anywhere on the board (a map, a box, a track)."""


#: A reader: (the board, the request built so far) -> {JSON pointer: value read}.
Reader = Callable[[BoardView, dict[str, Any]], dict[str, Read]]

_READERS: dict[tuple[str, str], Reader] = {}


def reads_board(system: str, *checks: str) -> Callable[[Reader], Reader]:
    """Register `reader` for `checks` of `system`."""
    def decorator(reader: Reader) -> Reader:
        for check in checks:
            _READERS[(system, check)] = reader
        return reader
    return decorator


def reader_for(system: str, check: str) -> Reader | None:
    return _READERS.get((system, check))
