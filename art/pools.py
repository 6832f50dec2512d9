"""The back of a cup's or random pool's pieces: what a face-down piece shows.

One image per pool box, counter sized, in the box's side colour with the box's ``back`` label
("SNAFU", "?-4"): every piece of the pool shows the same back, so a face-down piece tells
nothing of its value.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from scenarios.model import Box, Game

from art.canvas import darker, is_dark, rgb
from art.fonts import Rect, draw_wrapped


def pool_back_label(box: Box) -> str:
    return box.back or box.name


def render_pool_back(game: Game, box: Box, scale: int = 1, counter: int = 75) -> Image.Image:
    from art.styles.base import NEUTRAL_MARKER, side_colour

    size = counter * scale
    colour = rgb(side_colour(game, box.side) if box.side else NEUTRAL_MARKER)
    img = Image.new("RGB", (size, size), colour)
    draw = ImageDraw.Draw(img)
    ink = (255, 255, 255) if is_dark(colour) else (0, 0, 0)
    inset = 6 * scale
    draw.rectangle((inset, inset, size - 1 - inset, size - 1 - inset), outline=ink, width=max(1, scale))
    draw_wrapped(img, pool_back_label(box), Rect(inset + 4 * scale, inset + 4 * scale, size - inset - 4 * scale,
                                                 size - inset - 4 * scale), ink, start=20 * scale, bold=True)
    draw.rectangle((0, 0, size - 1, size - 1), outline=darker(colour, 0.5), width=2 * scale)
    return img
