"""Map decor: a shaded area is drawn through a mask only as big as the area and a per-channel
table (``art.decor.shade_polygons``), with the pixels that compositing a board-sized RGBA overlay
gave."""

from __future__ import annotations

import random

from PIL import Image, ImageDraw

from art.decor import SHADE, area_mask, map_decor, shade_polygons
from scenarios.hexgrid import Hex
from test_art_fixtures import game_or_skip
import pytest


def _shaded_with_board_overlay(board: Image.Image, polygons) -> Image.Image:
    """How an area was shaded before: every polygon on a clear overlay the size of the board,
    composited over the board where the overlay is not clear."""
    overlay = Image.new("RGBA", board.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for corners in polygons:
        draw.polygon(corners, fill=SHADE)
    out = board.copy()
    box = overlay.getbbox()
    if box is not None:
        shaded = Image.alpha_composite(out.crop(box).convert("RGBA"), overlay.crop(box))
        out.paste(shaded.convert("RGB"), box[:2])
    return out


def _shaded_with_mask(board: Image.Image, polygons) -> Image.Image:
    out = board.copy()
    shade_polygons(out, polygons)
    return out


def _noise(size, rng) -> Image.Image:
    """A board of every colour: the table must be right for all 256 levels of each channel."""
    return Image.frombytes("RGB", size, bytes(rng.getrandbits(8) for _ in range(size[0] * size[1] * 3)))


def _hexagon(cx, cy, r, rng):
    return [(cx + r * dx + rng.random(), cy + r * dy + rng.random())
            for dx, dy in ((1, 0), (0.5, 0.87), (-0.5, 0.87), (-1, 0), (-0.5, -0.87), (0.5, -0.87))]


def test_mask_and_table_shade_as_a_board_sized_overlay_did():
    rng = random.Random(17)
    for _ in range(60):
        size = (rng.randint(40, 300), rng.randint(40, 300))
        board = _noise(size, rng)
        # polygons at fractional positions, some across the board's edges
        polygons = [_hexagon(rng.uniform(-30, size[0] + 30), rng.uniform(-30, size[1] + 30), rng.uniform(2, 40), rng)
                    for _ in range(rng.randint(1, 6))]
        assert _shaded_with_mask(board, polygons).tobytes() == _shaded_with_board_overlay(board, polygons).tobytes()


def test_the_mask_is_only_as_big_as_the_area():
    rng = random.Random(3)
    mask, (ox, oy) = area_mask((5000, 5000), [_hexagon(2500, 2600, 30, rng)])
    assert mask.size[0] < 70 and mask.size[1] < 70
    assert 2400 < ox < 2500 and 2500 < oy < 2600


@pytest.mark.slow
def test_fire_and_ice_china_is_shaded_as_before():
    game = game_or_skip("fireandice")
    korea = game.maps["korea"]
    areas = map_decor(game, korea).areas
    assert areas, "Fire and Ice shades China"
    area = areas[0]
    polygons = [korea.grid.corners(Hex(c, r)) for c, r in area.hexes]
    rng = random.Random(5)
    board = Image.new("RGB", (korea.grid.width, korea.grid.height), (214, 214, 206))
    board.paste(_noise((600, 600), rng), (1200, 300))  # under part of the area: varied colours
    expected = _shaded_with_board_overlay(board, polygons)
    assert _shaded_with_mask(board, polygons).tobytes() == expected.tobytes()
