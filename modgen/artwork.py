"""Getting a module's pictures from ``art`` and laying out the off-map boards.

``art`` draws every picture (cached by content); this module decides which
pictures the module uses and where things sit on the composite boards: the
"Boxes" board tiles every off-map box, each scenario's turn track is its own
board, and the centre of every box and turn cell is kept for setups and the
"Eliminate" command.
"""

from __future__ import annotations

import hashlib
import io
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

from PIL import Image

from art import render
from art.counters import counter_px
from art.maps import track_layout
from art.tracks import cell_centre, tracks_layout
from modgen.images import ModuleImages, TracksBoard, TurnTrack
from scenarios.model import Game

BOXES_PER_ROW = 3
BOX_GAP = 12


@dataclass
class CollectedImages(ModuleImages):
    """The module's images and the cache directory they came from, where
    ``modgen.build`` keeps the built setups too (None: nothing is cached)."""

    cache_dir: Path | None = None


def collect_images(game: Game, scale: int = 1, cache_dir: Path | None = None,
                   progress: Callable[[str], None] | None = None, workers: int | None = None) -> ModuleImages:
    """Every picture the module uses, drawn (in ``workers`` processes, default one per core)
    or reused from the content-addressed cache."""
    cache = render.ImageCache(Path(cache_dir) if cache_dir is not None else None)
    if progress:
        progress(f"{game.id}: counters, markers, maps, boxes, turn tracks, charts")
    counter_jobs = render.counter_jobs(game, scale)
    # One batch for counters and boards, so that a pool draws them all at once.
    boards = cache.fetch(counter_jobs + render.board_jobs(game, scale, map_scale=scale), workers)
    files = {name: boards[name] for job in counter_jobs for name in job.names}
    images = CollectedImages(counter_size=counter_px(scale), scale=scale, cache_dir=cache.directory)
    for unit in game.units.values():
        images.unit_steps[unit.id] = [render.unit_image_name(game, unit, s.name) for s in unit.steps]
    for marker in game.markers.values():
        images.marker_faces[marker.id] = [render.marker_image_name(game, marker, i)
                                          for i in range(len(marker.faces) or 1)]
    # Block games: the back of each side's blocks, the fog-of-war mask (modgen.pieces.block_mask).
    files.update(render.block_back_images(game, scale, cache))
    for game_map in game.maps.values():
        name = render.map_image_name(game, game_map)
        images.maps[game_map.id] = name
        files[name] = boards[name]
    for scenario in game.scenarios.values():
        name = render.turn_track_image_name(game, scenario)
        files[name] = boards[name]
        layout = track_layout(scenario, scale)
        images.turn_tracks[scenario.id] = TurnTrack(name, {n: _box(c) for n, c in layout.cells.items()},
                                                    layout.slots)
    if game.tracks:
        name = render.tracks_board_image_name(game)
        files[name] = boards[name]
        layout = tracks_layout(game, scale)
        images.tracks = TracksBoard(name, {k: _box(c) for k, c in layout.cells.items()},
                                    {k: cell_centre(c, scale) for k, c in layout.cells.items()})
    for box in game.boxes.values():
        if box.draw:
            name = render.pool_back_image_name(game, box)
            files[name] = boards[name]
            images.pool_backs[box.id] = name
    for table in game.tables.values():
        name = render.chart_image_name(game, table)
        files[name] = boards[name]
        images.charts[table.id] = name
    if game.boxes:
        box_pngs = {box.id: boards[render.box_image_name(game, box)] for box in game.boxes.values()}
        board, centres, size = compose_boxes(box_pngs, cache)
        images.boxes_board = f"{game.id}_boxes.png"
        files[images.boxes_board] = board
        images.box_centres = centres
        images.boxes_size = size
    images.files = files
    return images


def _box(rect) -> tuple[int, int, int, int]:
    return round(rect.left), round(rect.top), round(rect.right), round(rect.bottom)


@dataclass(frozen=True)
class BoxesLayout:
    """Where each box tile sits on the boxes board (top-left corners) and its size."""

    positions: dict[str, tuple[int, int]]
    centres: dict[str, tuple[int, int]]
    size: tuple[int, int]


def layout_boxes(tile_sizes: dict[str, tuple[int, int]]) -> BoxesLayout:
    """Tiles ``BOXES_PER_ROW`` across, in data order, each in a cell as big as the largest."""
    cell_w = max(w for w, _ in tile_sizes.values()) + BOX_GAP
    cell_h = max(h for _, h in tile_sizes.values()) + BOX_GAP
    columns = min(BOXES_PER_ROW, len(tile_sizes))
    rows = math.ceil(len(tile_sizes) / columns)
    positions: dict[str, tuple[int, int]] = {}
    centres: dict[str, tuple[int, int]] = {}
    for index, (box_id, (width, height)) in enumerate(tile_sizes.items()):
        x = BOX_GAP + (index % columns) * cell_w
        y = BOX_GAP + (index // columns) * cell_h
        positions[box_id] = (x, y)
        centres[box_id] = (x + width // 2, y + height // 2 + 10)
    return BoxesLayout(positions, centres, (columns * cell_w + BOX_GAP, rows * cell_h + BOX_GAP))


def compose_boxes(box_pngs: dict[str, bytes], cache: render.ImageCache | None = None,
                  ) -> tuple[bytes, dict[str, tuple[int, int]], tuple[int, int]]:
    """Tile box images into one board, ``BOXES_PER_ROW`` across, in data order.

    The layout needs only the tiles' sizes (read from the PNG headers); the board itself
    is kept in the art cache under a key made of the tiles' bytes and this file's code, so
    a rebuild does not decode and re-encode it (that was a fifth of a no-change rebuild).
    """
    sizes = {box_id: Image.open(io.BytesIO(data)).size for box_id, data in box_pngs.items()}
    layout = layout_boxes(sizes)

    def draw() -> Image.Image:
        board = Image.new("RGB", layout.size, (255, 255, 255))
        for box_id, data in box_pngs.items():
            board.paste(Image.open(io.BytesIO(data)).convert("RGB"), layout.positions[box_id])
        return board

    if cache is None:
        return render.encode_png(draw()), layout.centres, layout.size
    key_data = {"tiles": [[box_id, hashlib.sha256(data).hexdigest()] for box_id, data in box_pngs.items()],
                "composer": _composer_fingerprint()}
    return cache.image(render.content_key("boxes-board", key_data, 1), draw), layout.centres, layout.size


@lru_cache(maxsize=1)
def _composer_fingerprint() -> str:
    """A hash of this file: an edited layout or composer never reuses an old board."""
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
