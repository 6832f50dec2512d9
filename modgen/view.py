"""Where the main map's view opens for each scenario: on its units, at a zoom that shows them.

A scenario's units may stand anywhere on a large board (Fire and Ice's Korea is 5,000 pixels
wide, its north-west corner empty China): the setup sets the point and zoom the module's
"Scenario view" button moves to (``modgen.buildfile.add_start_view``), so the game opens
looking at the scenario.
"""

from __future__ import annotations

import math

from dataclasses import dataclass

from modgen.buildfile import ZOOM_LEVELS, main_map_name
from modgen.images import ModuleImages
from modgen.places import locate
from scenarios.model import Game, Scenario

#: The part of the map a player's main window shows, in screen pixels (a common screen less
#: the toolbar and the chat): the scenario's units should fit in it.
VIEWPORT = (1280, 720)
#: Below this zoom a counter is too small to read: a scenario spread wider opens at it, on the
#: middle of its units.
SMALLEST_OPENING_ZOOM = 0.4


@dataclass(frozen=True)
class StartView:
    """The centre of the view (map pixels) and its zoom (one of the map's zoom levels)."""

    x: int
    y: int
    zoom: float


def start_view(game: Game, scenario: Scenario, images: ModuleImages) -> StartView:
    """The view that shows every unit the scenario sets up on its map, or, when they are spread
    wider than the window at the smallest opening zoom, the most of them (the board's centre at
    full size when it places none there)."""
    game_map = game.maps[scenario.maps[0]]
    grid = game_map.board_grid(images.scale)
    points = [(spot.x, spot.y) for spot in (locate(game, scenario, p.location, images) for p in scenario.setup)
              if spot is not None and spot.map_name == main_map_name(game)]
    if not points:
        return StartView(int(grid.width // 2), int(grid.height // 2), 1.0)
    margin = math.ceil(grid.dy)  # a hex all round (whole pixels: VASSAL allows a fractional spacing)
    zoom = fitting_zoom(*_extent(points, margin))
    shown = _most_in_one_window(points, VIEWPORT[0] / zoom - 2 * margin, VIEWPORT[1] / zoom - 2 * margin)
    left, top, right, bottom = _bounds(shown, margin)
    return StartView(int((left + right) // 2), int((top + bottom) // 2), zoom)


def _bounds(points: list[tuple[int, int]], margin: int) -> tuple[int, int, int, int]:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin


def _extent(points: list[tuple[int, int]], margin: int) -> tuple[int, int]:
    left, top, right, bottom = _bounds(points, margin)
    return right - left, bottom - top


def _most_in_one_window(points: list[tuple[int, int]], width: float, height: float) -> list[tuple[int, int]]:
    """The largest set of points a ``width`` x ``height`` window holds, among the windows whose
    top-left corner is at a point's x and another point's y (the first such set: points come in
    setup order, so the result does not depend on anything else)."""
    best: list[tuple[int, int]] = []
    for left in sorted({x for x, _ in points}):
        for top in sorted({y for _, y in points}):
            inside = [(x, y) for x, y in points if left <= x <= left + width and top <= y <= top + height]
            if len(inside) > len(best):
                best = inside
    return best


def fitting_zoom(width: int, height: int) -> float:
    """The largest zoom level up to full size at which ``width`` x ``height`` map pixels fit
    the viewport, but no smaller than ``SMALLEST_OPENING_ZOOM``."""
    fits = [z for z in ZOOM_LEVELS if SMALLEST_OPENING_ZOOM <= z <= 1.0
            and width * z <= VIEWPORT[0] and height * z <= VIEWPORT[1]]
    return max(fits) if fits else SMALLEST_OPENING_ZOOM
