"""The *Boxes* board's geometry: where each off-map box (dead piles, cups, reinforcement and
replacement boxes) lies, tiles in rows about as wide as a window, the cups and pools first.

One geometry for everyone who needs it: the drawing (``art.maps.render_box`` draws each tile
this size), the module generator (which puts a setup's box pieces and the "Eliminate" command's
destination on a box's centre) and the adjudicator (which reads, from a saved game or a log, the
box a piece stands in: a side's dead pile is where the module's Eliminate sends a unit).

    layout = boxes_layout(game)
    layout.centres["deadpile-un"]        # (x, y) where Eliminate puts a UN unit
    layout.box_at(x, y)                  # "deadpile-un", or None between boxes
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scenarios.model import Box, Game

#: Counters across and down that a box holds.
BOX_SLOTS = (5, 3)
BOX_TITLE = 22
#: The counter size (pixels at art scale 1) a box is made to hold.
COUNTER = 75
#: The board is laid out about this much wider than tall (a window's shape), not one long column.
BOXES_ASPECT = 1.6
BOX_GAP = 12


def box_size(scale: int = 1, counter: int = COUNTER) -> tuple[int, int]:
    """The size of every box tile (the board is laid out without drawing)."""
    pad = 8 * scale
    slot = counter * scale + pad
    return BOX_SLOTS[0] * slot + pad, BOX_SLOTS[1] * slot + pad + BOX_TITLE * scale


@dataclass(frozen=True)
class BoxesLayout:
    """Where each box tile sits on the boxes board (top-left corners), its centre, and the
    board's size; every tile is `tile` big."""

    positions: dict[str, tuple[int, int]]
    centres: dict[str, tuple[int, int]]
    size: tuple[int, int]
    tile: tuple[int, int] = (0, 0)

    def box_at(self, x: float, y: float) -> str | None:
        """The id of the box whose tile holds the pixel, or None."""
        width, height = self.tile
        for box_id, (left, top) in self.positions.items():
            if left <= x < left + width and top <= y < top + height:
                return box_id
        return None


def layout_boxes(tile_sizes: dict[str, tuple[int, int]]) -> BoxesLayout:
    """Tiles in rows, in the given order, each in a cell as big as the largest; as many
    columns as make the board about ``BOXES_ASPECT`` times wider than tall."""
    cell_w = max(w for w, _ in tile_sizes.values()) + BOX_GAP
    cell_h = max(h for _, h in tile_sizes.values()) + BOX_GAP
    columns = min(len(tile_sizes), max(1, round(math.sqrt(BOXES_ASPECT * len(tile_sizes) * cell_h / cell_w))))
    rows = math.ceil(len(tile_sizes) / columns)
    positions: dict[str, tuple[int, int]] = {}
    centres: dict[str, tuple[int, int]] = {}
    for index, (box_id, (width, height)) in enumerate(tile_sizes.items()):
        x = BOX_GAP + (index % columns) * cell_w
        y = BOX_GAP + (index // columns) * cell_h
        positions[box_id] = (x, y)
        centres[box_id] = (x + width // 2, y + height // 2 + 10)
    tile = (max(w for w, _ in tile_sizes.values()), max(h for _, h in tile_sizes.values()))
    return BoxesLayout(positions, centres, (columns * cell_w + BOX_GAP, rows * cell_h + BOX_GAP), tile)


def boxes_in_board_order(game: Game) -> list[Box]:
    """The game's boxes in the order the board lays them out: the cups and pools first (on top)."""
    return sorted(game.boxes.values(), key=lambda box: not box.draw)


def boxes_layout(game: Game, scale: int = 1) -> BoxesLayout | None:
    """The boxes board of `game` at art scale `scale` (None: the game has no boxes)."""
    if not game.boxes:
        return None
    return layout_boxes({box.id: box_size(scale) for box in boxes_in_board_order(game)})


def dead_pile(game: Game, side: str) -> Box | None:
    """Where a unit of `side` goes when it is eliminated: the side's dead pile box, else a dead
    pile of no side (the module's "Eliminate" sends it there)."""
    for box in game.boxes.values():
        if box.kind == "deadpile" and box.side == side:
            return box
    for box in game.boxes.values():
        if box.kind == "deadpile" and not box.side:
            return box
    return None


def is_dead_pile_of(game: Game, box_id: str, side: str) -> bool:
    """Whether `box_id` is a dead pile a unit of `side` may lie in (its side's, or one of no side)."""
    box = game.boxes.get(box_id)
    return box is not None and box.kind == "deadpile" and box.side in (side, "")


def counters_box(game: Game, side: str) -> Box | None:
    """Where a side's counters not in play lie: its box that is no pool and holds units (SPI's, with the
    counters a breakdown places, where a broken-down unit is set aside); the module's "Set aside"
    sends a unit there. None for a game without one."""
    return next((box for box in game.boxes.values() if box.side == side and box.holds and not box.draw), None)
