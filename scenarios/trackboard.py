"""The *Tracks* board's geometry: where each player-aid track cell (VP, resource points, support
levels, weather) lies, ten cells to a row, each big enough for a marker.

One geometry for everyone who needs it: the drawing (``art.tracks``), the module generator
(which makes each cell a named zone and puts a setup's ``track:<id>:<cell>`` markers on its
centre) and the adjudicator (which reads, from a saved game, the cell a marker stands on).

    layout = tracks_layout(game)
    layout.cells[("vp", "14")]          # (left, top, right, bottom) of that cell
    layout.cell_at(x, y)                # ("vp", "14"), or None between cells
"""

from __future__ import annotations

from dataclasses import dataclass

from scenarios.model import Game

CELLS_PER_ROW = 10
TITLE_H = 22
LABEL_H = 18
PAD = 8
#: The counter size (pixels at art scale 1) the cells are made to hold.
COUNTER = 75

#: (left, top, right, bottom), right and bottom exclusive.
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class TracksLayout:
    size: tuple[int, int]
    titles: dict[str, Box]  # track id -> its title strip
    cells: dict[tuple[str, str], Box]  # (track id, cell label) -> the cell
    scale: int = 1

    def cell_at(self, x: float, y: float) -> tuple[str, str] | None:
        """The (track id, cell label) whose cell holds the pixel, or None."""
        for key, (left, top, right, bottom) in self.cells.items():
            if left <= x < right and top <= y < bottom:
                return key
        return None

    def centre(self, key: tuple[str, str]) -> tuple[int, int]:
        """Where a marker stands in a cell: the middle of the space above the label."""
        left, top, right, bottom = self.cells[key]
        return round((left + right) / 2), round(top + (bottom - top - LABEL_H * self.scale) / 2)


def tracks_layout(game: Game, scale: int = 1, counter: int = COUNTER) -> TracksLayout:
    """Tracks one under another in data order; a track longer than ``CELLS_PER_ROW`` wraps."""
    pad, title_h, label_h = PAD * scale, TITLE_H * scale, LABEL_H * scale
    cell_w = (counter + 10) * scale
    cell_h = (counter + 6) * scale + label_h
    titles: dict[str, Box] = {}
    cells: dict[tuple[str, str], Box] = {}
    y = pad
    widest = 0
    for track in game.tracks.values():
        titles[track.id] = (pad, y, pad + CELLS_PER_ROW * cell_w, y + title_h)
        y += title_h
        for i, label in enumerate(track.cells):
            x = pad + (i % CELLS_PER_ROW) * cell_w
            top = y + (i // CELLS_PER_ROW) * cell_h
            cells[(track.id, label)] = (x, top, x + cell_w - 2 * scale, top + cell_h - 2 * scale)
            widest = max(widest, x + cell_w)
        rows = -(-len(track.cells) // CELLS_PER_ROW)
        y += rows * cell_h + pad
    return TracksLayout((max(widest, 200 * scale) + pad, y), titles, cells, scale)
