"""Getting a module's pictures from ``art`` and laying out the off-map boards.

``art`` draws every picture (cached by content); this module decides which
pictures the module uses and where things sit on the composite boards: the
"Boxes" board tiles every off-map box, each scenario's turn track is its own
board, and the centre of every box and turn cell is kept for setups and the
"Eliminate" command.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable

from PIL import Image

from art import render
from art.board import board_file
from art.counters import counter_px
from art.maps import render_box, track_layout
from art.tracks import cell_centre, tracks_layout
from modgen.images import ModuleImages, TracksBoard, TurnTrack
from scenarios.boxboard import BoxesLayout, boxes_in_board_order, boxes_layout
from scenarios.model import Game, GameMap

@dataclass
class CollectedImages(ModuleImages):
    """The module's images and the cache directory they came from, where
    ``modgen.build`` keeps the built setups too (None: nothing is cached)."""

    cache_dir: Path | None = None
    scans: dict[str, bytes] = field(default_factory=dict)  # scanned boards by image name, straightened (art.board)


def collect_images(game: Game, scale: int = 1, cache_dir: Path | None = None,
                   progress: Callable[[str], None] | None = None, workers: int | None = None) -> ModuleImages:
    """Every picture the module uses, drawn (in ``workers`` processes, default one per core)
    or reused from the content-addressed cache."""
    return start_collecting([game], scale, cache_dir, progress, workers)[0].result()


@dataclass
class PendingModuleImages:
    """A module's images while they are drawn: ``images`` already holds every name and
    position (all that assembling the buildFile and setups needs); ``result()`` waits for the
    pictures and adds them."""

    images: CollectedImages
    names: list[str]
    drawing: render.PendingImages

    def cancel(self) -> None:
        self.drawing.cancel()

    def result(self) -> CollectedImages:
        if not self.images.files:
            pictures = self.drawing.result(self.names)  # this game's only: the others may still be drawn
            self.images.files = {name: pictures[name] for name in self.names} | self.images.scans
        return self.images


def start_collecting(games: list[Game], scale: int = 1, cache_dir: Path | None = None,
                     progress: Callable[[str], None] | None = None,
                     workers: int | None = None) -> list[PendingModuleImages]:
    """``collect_images`` for several games in one batch, returned before the drawing is done.

    One batch, so that one pool draws every game's missing pictures (dearest first) while
    the caller assembles the modules; nothing waits for a game's last picture before the
    next game's start.
    """
    cache = render.ImageCache(Path(cache_dir) if cache_dir is not None else None)
    planned = []
    for game in games:
        if progress:
            progress(f"{game.id}: counters, markers, maps, boxes, turn tracks, charts")
        planned.append(_plan(game, scale, cache.directory))
    drawing = cache.start_fetch([job for _, _, jobs in planned for job in jobs], workers)
    return [PendingModuleImages(images, names, drawing) for images, names, _ in planned]


def _plan(game: Game, scale: int, cache_dir: Path | None
          ) -> tuple[CollectedImages, list[str], list[render.ImageJob]]:
    """A game's image names and board positions, the names in module order, and the jobs that
    draw them."""
    jobs = render.counter_jobs(game, scale)
    # Block games: the back of each side's blocks, the fog-of-war mask (modgen.pieces.block_mask).
    jobs += render.block_back_jobs(game, scale)
    names = [name for job in jobs for name in job.names]
    scanned = {render.map_image_name(game, m) for m in game.maps.values() if m.board is not None}
    jobs += [job for job in render.board_jobs(game, scale, map_scale=scale, box_tiles=False)
             if not scanned.intersection(job.names)]  # a scanned board is used as it is, not drawn
    boxes_job, boxes_layout = boxes_board_job(game, scale)
    if boxes_job:
        jobs.append(boxes_job)
    images = CollectedImages(counter_size=counter_px(scale), scale=scale, cache_dir=cache_dir)
    for unit in game.units.values():
        images.unit_steps[unit.id] = [render.unit_image_name(game, unit, s.name) for s in unit.steps]
    for marker in game.markers.values():
        images.marker_faces[marker.id] = [render.marker_image_name(game, marker, i)
                                          for i in range(len(marker.faces) or 1)]
    for game_map in game.maps.values():
        if game_map.board is not None:
            board, suffix = board_file(game_map.board)
            name = scan_image_name(game, game_map, board, suffix)
            images.scans[name] = board
        else:
            name = render.map_image_name(game, game_map)
            names.append(name)
        images.maps[game_map.id] = name
    for scenario in game.scenarios.values():
        name = render.turn_track_image_name(game, scenario)
        names.append(name)
        layout = track_layout(scenario, scale)
        images.turn_tracks[scenario.id] = TurnTrack(name, {n: _box(c) for n, c in layout.cells.items()},
                                                    layout.slots)
    if game.tracks:
        name = render.tracks_board_image_name(game)
        names.append(name)
        layout = tracks_layout(game, scale)
        images.tracks = TracksBoard(name, {k: _box(c) for k, c in layout.cells.items()},
                                    {k: cell_centre(c, scale) for k, c in layout.cells.items()})
    for box in game.boxes.values():
        if box.draw:
            name = render.pool_back_image_name(game, box)
            names.append(name)
            images.pool_backs[box.id] = name
    for table in game.tables.values():
        name = render.chart_image_name(game, table)
        names.append(name)
        images.charts[table.id] = name
    if boxes_job:
        images.boxes_board = boxes_job.names[0]
        names.append(images.boxes_board)
        images.box_centres = boxes_layout.centres
        images.boxes_size = boxes_layout.size
    return images, names, jobs


def scan_image_name(game: Game, game_map: GameMap, board: bytes, suffix: str) -> str:
    """A scanned board's name in the module: a part of its content's hash (a new scan or calibration
    is a new image: nothing cached under the old name shows it) and its file type."""
    digest = hashlib.sha256(board).hexdigest()[:12]
    return f"{render.safe_part(game.id)}_board_{render.safe_part(game_map.id)}_{digest}{suffix}"


def _box(rect) -> tuple[int, int, int, int]:
    return round(rect.left), round(rect.top), round(rect.right), round(rect.bottom)


def boxes_board_job(game: Game, scale: int = 1) -> tuple[render.ImageJob | None, BoxesLayout | None]:
    """The job that draws the "Boxes" board, and its layout (None, None: the game has no boxes).

    The tiles are drawn straight onto the board in the job, never encoded on their own
    (they are not in the module), and the layout needs only their size, known without
    drawing, so a rebuild takes the board from the cache without drawing anything. The
    key is made of every tile's data, this file's code and the geometry's
    (``scenarios.boxboard``): an edited layout or composer never reuses an old board.
    """
    layout = boxes_layout(game, scale)
    if layout is None:
        return None, None
    boxes = boxes_in_board_order(game)

    def draw() -> list[Image.Image]:
        board = Image.new("RGB", layout.size, (255, 255, 255))
        for box in boxes:
            board.paste(render_box(game, box, scale), layout.positions[box.id])
        return [board]

    key_data = {"tiles": [[box.id, render.box_key_data(game, box)] for box in boxes],
                "composer": _composer_fingerprint()}
    return render.ImageJob(render.content_key("boxes-board", key_data, scale), [f"{game.id}_boxes.png"], draw,
                           cost=2 * len(boxes)), layout


@lru_cache(maxsize=1)
def _composer_fingerprint() -> str:
    """A hash of this file and of the board's geometry: an edited layout or composer never reuses
    an old board."""
    from scenarios import boxboard

    return hashlib.sha256(Path(__file__).read_bytes() + Path(boxboard.__file__).read_bytes()).hexdigest()
