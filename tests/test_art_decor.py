"""Map decor: the shaded areas are drawn on an overlay only as big as the area, with the same
pixels a board-sized overlay gives (``art.decor.shade_overlay``)."""

from __future__ import annotations

import random

from PIL import Image, ImageDraw

from art.decor import SHADE, map_decor, shade_overlay
from scenarios.hexgrid import Hex
from test_art_fixtures import game_or_skip


def _board_sized(size, polygons) -> Image.Image:
    """What the board looked like before: every polygon on a clear overlay of the whole board."""
    overlay = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for corners in polygons:
        draw.polygon(corners, fill=SHADE)
    return overlay


def _placed(size, polygons) -> Image.Image:
    small, (ox, oy) = shade_overlay(size, polygons)
    board = Image.new("RGBA", size, (0, 0, 0, 0))
    board.paste(small, (ox, oy))
    return board


def test_small_overlay_has_the_pixels_of_a_board_sized_one():
    rng = random.Random(17)
    for _ in range(200):
        size = (rng.randint(50, 900), rng.randint(50, 900))
        # hexagon-like polygons at fractional positions, some across the board's edges
        polygons = []
        for _ in range(rng.randint(1, 6)):
            cx, cy, r = rng.uniform(-30, size[0] + 30), rng.uniform(-30, size[1] + 30), rng.uniform(2, 40)
            polygons.append([(cx + r * dx + rng.random(), cy + r * dy + rng.random())
                             for dx, dy in ((1, 0), (0.5, 0.87), (-0.5, 0.87), (-1, 0), (-0.5, -0.87), (0.5, -0.87))])
        assert _placed(size, polygons).tobytes() == _board_sized(size, polygons).tobytes()


def test_fire_and_ice_china_shading_is_unchanged():
    game = game_or_skip("fireandice")
    korea = game.maps["korea"]
    areas = map_decor(game, korea).areas
    assert areas, "Fire and Ice shades China"
    polygons = [korea.grid.corners(Hex(c, r)) for c, r in areas[0].hexes]
    size = (korea.grid.width, korea.grid.height)
    small, (ox, oy) = shade_overlay(size, polygons)
    assert small.size[0] * small.size[1] < size[0] * size[1] / 4  # the point of it
    board = _board_sized(size, polygons)
    box = board.getbbox()
    assert ox <= box[0] and oy <= box[1] and box[2] <= ox + small.size[0] and box[3] <= oy + small.size[1]
    assert board.crop((ox, oy, ox + small.size[0], oy + small.size[1])).tobytes() == small.tobytes()
