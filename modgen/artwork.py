"""Getting a module's pictures from ``art`` and laying out the off-map boards.

``art`` draws every picture (cached by content); this module decides which
pictures the module uses and where things sit on the composite boards: the
"Boxes" board tiles every off-map box, each scenario's turn track is its own
board, and the centre of every box and turn cell is kept for setups and the
"Eliminate" command.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Callable

from PIL import Image

from art import render
from art.counters import counter_px
from art.maps import turn_cell_centres
from modgen.images import ModuleImages, TurnTrack
from scenarios.model import Game

BOXES_PER_ROW = 3
BOX_GAP = 12


def collect_images(game: Game, scale: int = 1, cache_dir: Path | None = None,
                   progress: Callable[[str], None] | None = None) -> ModuleImages:
    cache = render.ImageCache(Path(cache_dir) if cache_dir is not None else None)
    if progress:
        progress(f"{game.id}: counters and markers")
    files = render.counter_images(game, scale, cache)
    if progress:
        progress(f"{game.id}: maps, boxes, turn tracks, charts")
    boards = render.board_images(game, scale, map_scale=scale, cache=cache)
    images = ModuleImages(counter_size=counter_px(scale), scale=scale)
    for unit in game.units.values():
        images.unit_steps[unit.id] = [render.unit_image_name(game, unit, s.name) for s in unit.steps]
    for marker in game.markers.values():
        images.marker_faces[marker.id] = [render.marker_image_name(game, marker, i)
                                          for i in range(len(marker.faces) or 1)]
    for game_map in game.maps.values():
        name = render.map_image_name(game, game_map)
        images.maps[game_map.id] = name
        files[name] = boards[name]
    for scenario in game.scenarios.values():
        name = render.turn_track_image_name(game, scenario)
        files[name] = boards[name]
        images.turn_tracks[scenario.id] = TurnTrack(name, turn_cell_centres(scenario, scale))
    for table in game.tables.values():
        name = render.chart_image_name(game, table)
        files[name] = boards[name]
        images.charts[table.id] = name
    if game.boxes:
        box_pngs = {box.id: boards[render.box_image_name(game, box)] for box in game.boxes.values()}
        board, centres, size = compose_boxes(box_pngs)
        images.boxes_board = f"{game.id}_boxes.png"
        files[images.boxes_board] = board
        images.box_centres = centres
        images.boxes_size = size
    images.files = files
    return images


def compose_boxes(box_pngs: dict[str, bytes]) -> tuple[bytes, dict[str, tuple[int, int]], tuple[int, int]]:
    """Tile box images into one board, ``BOXES_PER_ROW`` across, in data order."""
    tiles = {box_id: Image.open(io.BytesIO(data)).convert("RGB") for box_id, data in box_pngs.items()}
    cell_w = max(t.width for t in tiles.values()) + BOX_GAP
    cell_h = max(t.height for t in tiles.values()) + BOX_GAP
    columns = min(BOXES_PER_ROW, len(tiles))
    rows = math.ceil(len(tiles) / columns)
    board = Image.new("RGB", (columns * cell_w + BOX_GAP, rows * cell_h + BOX_GAP), (255, 255, 255))
    centres: dict[str, tuple[int, int]] = {}
    for index, (box_id, tile) in enumerate(tiles.items()):
        x = BOX_GAP + (index % columns) * cell_w
        y = BOX_GAP + (index // columns) * cell_h
        board.paste(tile, (x, y))
        centres[box_id] = (x + tile.width // 2, y + tile.height // 2 + 10)
    return render.encode_png(board), centres, board.size
