"""The *Tracks* board: every player-aid track of a game (VP, RP, support levels, weather) as a
titled row of cells, ten to a line, each big enough for a marker.

The geometry is ``scenarios.trackboard``'s, shared by the drawing, the module generator
(``modgen``), which makes each cell a named zone ("Victory Point Track 14") and puts a setup's
``track:<id>:<cell>`` markers on its centre, and the adjudicator, which reads the cell a marker
stands on in a saved game: the picture and the places agree by construction.

    layout = tracks_layout(game)
    layout.cells[("vp", "14")]   # Rect of that cell
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from scenarios.model import Game
from scenarios.trackboard import COUNTER, LABEL_H
from scenarios.trackboard import tracks_layout as geometry

from art.fonts import Rect, draw_fitted

@dataclass(frozen=True)
class TracksLayout:
    size: tuple[int, int]
    titles: dict[str, Rect]  # track id -> its title strip
    cells: dict[tuple[str, str], Rect]  # (track id, cell label) -> the cell


def tracks_layout(game: Game, scale: int = 1, counter: int = COUNTER) -> TracksLayout:
    """The geometry of ``scenarios.trackboard`` in the drawing's rectangles."""
    layout = geometry(game, scale, counter)
    return TracksLayout(layout.size, {k: Rect(*box) for k, box in layout.titles.items()},
                        {k: Rect(*box) for k, box in layout.cells.items()})


def cell_centre(cell: Rect, scale: int = 1) -> tuple[int, int]:
    """Where a marker stands in a cell: the middle of the space above the label."""
    return round(cell.centre[0]), round(cell.top + (cell.height - LABEL_H * scale) / 2)


def render_tracks_board(game: Game, scale: int = 1, counter: int = COUNTER) -> Image.Image:
    layout = tracks_layout(game, scale, counter)
    img = Image.new("RGB", layout.size, (245, 242, 230))
    draw = ImageDraw.Draw(img)
    line = max(1, scale)
    for track in game.tracks.values():
        title = f"{track.name}  (stand-in range: see the module help)" if track.source.is_stand_in else track.name
        draw_fitted(img, title, layout.titles[track.id], (0, 0, 0), bold=True, align="left")
        for label in track.cells:
            cell = layout.cells[(track.id, label)]
            draw.rectangle((cell.left, cell.top, cell.right, cell.bottom), fill=(255, 255, 255),
                           outline=(60, 60, 60), width=line)
            draw_fitted(img, label, Rect(cell.left + 3 * scale, cell.bottom - LABEL_H * scale,
                                         cell.right - 3 * scale, cell.bottom - 2 * scale), (40, 40, 40), bold=True)
    w, h = layout.size
    draw.rectangle((0, 0, w - 1, h - 1), outline=(60, 60, 60), width=line)
    return img
