"""The images a module needs, and where things sit on the off-map boards.

``modgen`` asks ``art`` for every picture and keeps the answers here: image
file names (as written under ``images/`` in the module), their PNG bytes, and
the pixel centres of the off-map boxes, turn-track cells and track cells, which
setups and "eliminate" commands need.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TurnTrack:
    """A scenario's turn record track board: each turn's cell (a zone, left, top, right,
    bottom) and the centres of its stack slots, filled in order by a setup."""

    image: str
    cells: dict[int, tuple[int, int, int, int]]
    slots: dict[int, list[tuple[int, int]]]


@dataclass
class TracksBoard:
    """The player-aid tracks board: each (track id, cell label)'s cell and marker centre."""

    image: str
    cells: dict[tuple[str, str], tuple[int, int, int, int]]
    centres: dict[tuple[str, str], tuple[int, int]]


@dataclass
class ModuleImages:
    files: dict[str, bytes] = field(default_factory=dict)  # image name -> PNG bytes
    unit_steps: dict[str, list[str]] = field(default_factory=dict)  # unit id -> image per step
    marker_faces: dict[str, list[str]] = field(default_factory=dict)  # marker id -> image per face
    maps: dict[str, str] = field(default_factory=dict)  # map id -> board image
    boxes_board: str = ""
    boxes_size: tuple[int, int] = (0, 0)
    box_centres: dict[str, tuple[int, int]] = field(default_factory=dict)  # box id -> centre
    turn_tracks: dict[str, "TurnTrack"] = field(default_factory=dict)  # scenario id -> its track
    tracks: TracksBoard | None = None  # the player-aid tracks (VP, RP...), if the game has any
    pool_backs: dict[str, str] = field(default_factory=dict)  # pool box id -> back image
    charts: dict[str, str] = field(default_factory=dict)  # table id -> chart image
    counter_size: int = 75
    scale: int = 1  # art scale: maps are drawn on grid.scaled(scale)
