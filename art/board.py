"""The check picture of a scanned board's calibration: the scan with our grid drawn over it.

A maintainer who listed a few hex centres and ran ``modgen board`` looks at this picture to see
whether the fitted grid lies on the printed one everywhere, not only at the hexes listed: every
hex outline and number of the calibrated grid, exactly where VASSAL will put them, in red over the
scan; each listed point as a blue cross with a ring where the grid puts that hex's centre.  A grid
that drifts off the print towards one edge (a warped scan, a wrong hex size) shows at once.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from scenarios.hexgrid import HexGrid
from scenarios.model import BoardPoint

from art.fonts import draw_line, font

GRID_INK = (220, 0, 0, 200)
POINT_INK = (0, 70, 230, 255)


def render_overlay(scan: Path, grid: HexGrid, points: tuple[BoardPoint, ...] | list[BoardPoint]) -> Image.Image:
    """The scan with every hex of ``grid`` outlined and numbered, and the listed points marked."""
    with Image.open(scan) as img:
        base = img.convert("RGBA")
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    width = max(1, round(grid.dy / 40))
    label_font = font(max(8, round(grid.dy * 0.16)), bold=True)
    for hex_ in grid.hexes():
        corners = grid.corners(hex_)
        draw.line(corners + corners[:1], fill=GRID_INK, width=width)
        cx, cy = grid.center(hex_)
        draw.ellipse((cx - width, cy - width, cx + width, cy + width), fill=GRID_INK)
        draw_line(draw, (cx, cy + grid.dy * 0.08), grid.label(hex_), label_font, GRID_INK, anchor="mt")
    arm = max(4, round(grid.dy * 0.12))
    for point in points:
        x, y = point.x, point.y
        draw.line((x - arm, y, x + arm, y), fill=POINT_INK, width=width + 1)
        draw.line((x, y - arm, x, y + arm), fill=POINT_INK, width=width + 1)
        cx, cy = grid.center(point.hex)
        draw.ellipse((cx - arm, cy - arm, cx + arm, cy + arm), outline=POINT_INK, width=width + 1)
    return Image.alpha_composite(base, layer).convert("RGB")
