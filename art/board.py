"""A scanned board straightened, and the check picture of its calibration.

``straighten`` resamples the scan so that the map's own grid, with the board's origin and size
(``scenarios.board``), lies on the printed hexes: each board pixel is taken (bicubic) from its place
on the scan, which the fit of the listed hex centres gives.  That is the module's board.

A maintainer who listed a few hex centres and ran ``modgen board`` looks at the check picture to
see whether the grid lies on the printed one everywhere, not only at the hexes listed: the
straightened board with every hex outline and number of the grid, exactly where VASSAL will put
them, in red; each listed point as a blue cross with a ring where the grid puts that hex's centre.
A grid that drifts off the print towards one edge (a warped scan, a misread centre) shows at once.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageDraw

from scenarios.hexgrid import HexGrid
from scenarios.model import BoardImage, BoardPoint

from art.fonts import draw_line, font

GRID_INK = (220, 0, 0, 200)
POINT_INK = (0, 70, 230, 255)


def straighten(board: BoardImage) -> Image.Image:
    """The scan resampled onto the board's grid (areas beyond the scan white)."""
    t = board.to_scan
    # Pillow maps the pixels' edges (a pixel's centre is at +0.5); ``to_scan`` maps pixel indices.
    data = (t.a, t.b, t.c + 0.5 - 0.5 * (t.a + t.b), t.d, t.e, t.f + 0.5 - 0.5 * (t.d + t.e))
    with Image.open(board.path) as img:
        scan = img.convert("RGB")
    return scan.transform((board.grid.width, board.grid.height), Image.Transform.AFFINE, data,
                          resample=Image.Resampling.BICUBIC, fillcolor=(255, 255, 255))


def board_file(board: BoardImage) -> tuple[bytes, str]:
    """The straightened board as the module holds it, and its suffix: a JPEG scan stays a JPEG (a
    photograph-like scan is many times smaller so), any other a PNG."""
    image = straighten(board)
    out = io.BytesIO()
    if Path(board.path).suffix.lower() in (".jpg", ".jpeg"):
        image.save(out, "JPEG", quality=92, optimize=True)
        return out.getvalue(), ".jpg"
    image.save(out, "PNG", optimize=True)
    return out.getvalue(), ".png"


def render_overlay(board: Image.Image, grid: HexGrid,
                   points: tuple[BoardPoint, ...] | list[BoardPoint]) -> Image.Image:
    """The straightened board with every hex of ``grid`` outlined and numbered, and the listed points
    (in the board's pixels) marked."""
    base = board.convert("RGBA")
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
