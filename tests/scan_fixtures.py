"""A "scanned" board for the tests: a printed hex map drawn with Pillow at a known, odd calibration,
and what a flatbed makes of it (turned, scaled, sheared).

Not drawn with our ``HexGrid`` (that would test the grid against itself): the centres here are the
plain geometry of a printed hex map, in floating point, with an origin between pixels, a hex height
that is no whole number and columns a little wider apart than a regular hex's, as a real scan has.
What a maintainer does with it is what the tests do: read a few hex centres off the picture
(rounded to whole pixels) and list them in the map's toml.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from scenarios.hexgrid import Hex, HexGrid, java_mod2
from scenarios.model import Affine, GameMap

PAPER = (238, 232, 214)
DOT = (0, 0, 255)  # a dot printed on a hex centre, to find it again on the straightened board


@dataclass(frozen=True)
class PrintedGrid:
    """How the printer laid the hexes out on the scan (the truth the calibration should find)."""

    dx: float  # distance between columns
    dy: float  # hex height
    x0: float  # centre of raw column 0, raw row 0 (in the grid's own frame)
    y0: float
    size: tuple[int, int]

    def centre(self, model: HexGrid, hex: Hex) -> tuple[float, float]:
        raw = model.to_raw(hex)
        a = self.x0 + raw.c * self.dx
        b = self.y0 + (raw.r + 0.5 * (java_mod2(raw.c) != 0)) * self.dy
        return (b, a) if model.sideways else (a, b)

    def corners(self, model: HexGrid, hex: Hex) -> list[tuple[float, float]]:
        cx, cy = self.centre(model, hex)
        a, b = (cy, cx) if model.sideways else (cx, cy)
        w, q, h = self.dx * 2 / 3, self.dx / 3, self.dy / 2
        pts = [(a + w, b), (a + q, b + h), (a - q, b + h), (a - w, b), (a - q, b - h), (a + q, b - h)]
        return [(y, x) for x, y in pts] if model.sideways else pts


#: An odd print of the example's 8 x 6 map, near the [grid]'s hexes (hex_height 88: columns 76 apart):
#: origin between pixels, a fractional hex height, columns 2.5 % wider apart than a regular hex's.
EXAMPLE_PRINT = PrintedGrid(dx=77.9, dy=87.13, x0=95.6, y0=57.2, size=(760, 640))


def draw_scan(gm: GameMap, printed: PrintedGrid, path: Path, dots: tuple[str, ...] = ()) -> Path:
    """The map printed at ``printed``: terrain colours, hex outlines, hex numbers, roads, names; a
    blue dot on the centre of each hex of ``dots``."""
    img = Image.new("RGB", printed.size, PAPER)
    draw = ImageDraw.Draw(img)
    grid = gm.grid
    colours = {t.id: t.colour for t in gm.terrain_types.values()}
    for hex_ in grid.hexes():
        draw.polygon(printed.corners(grid, hex_), fill=colours.get(gm.terrain.get(hex_, ""), "#ffffff"),
                     outline=(60, 60, 60))
    for path_ in gm.paths:
        draw.line([printed.centre(grid, h) for h in path_.hexes], fill=(150, 40, 30), width=3)
    label_font = ImageFont.load_default(size=max(8, round(printed.dy * 0.17)))
    for hex_ in grid.hexes():
        cx, cy = printed.centre(grid, hex_)
        draw.text((cx, cy - printed.dy * 0.42), grid.label(hex_), fill=(30, 30, 30), font=label_font, anchor="mt")
    for f in gm.features:
        if f.name:
            cx, cy = printed.centre(grid, f.hex)
            draw.text((cx, cy + printed.dy * 0.15), f.name, fill=(0, 0, 0), font=label_font, anchor="mt")
    for label in dots:
        cx, cy = printed.centre(grid, grid.parse(label))
        draw.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), fill=DOT)
    img.save(path)
    return path


def flatbed(image: Image.Image, turn: float, scale: float, shear: float, margin: int = 20
            ) -> tuple[Image.Image, Affine]:
    """The printed map as a flatbed might give it back: turned ``turn`` degrees (clockwise), scaled,
    its columns and rows leaning ``shear`` degrees towards each other (half each); and the true map
    from the print's pixels to the scan's."""
    t, lean = math.radians(turn), math.tan(math.radians(shear) / 2)
    c, s = math.cos(t), math.sin(t)
    a, b, d, e = scale * (c - s * lean), scale * (c * lean - s), scale * (s + c * lean), scale * (s * lean + c)
    w, h = image.size
    corners = [(a * x + b * y, d * x + e * y) for x in (0, w) for y in (0, h)]
    left, top = margin - min(x for x, _ in corners), margin - min(y for _, y in corners)
    truth = Affine(a, b, left, d, e, top)
    size = (math.ceil(max(x for x, _ in corners) + left + margin), math.ceil(max(y for _, y in corners) + top + margin))
    back = truth.inverse()  # Pillow asks, for each scan pixel, its place on the print (pixel edges: +0.5)
    data = (back.a, back.b, back.c + 0.5 - 0.5 * (back.a + back.b), back.d, back.e,
            back.f + 0.5 - 0.5 * (back.d + back.e))
    scan = image.convert("RGB").transform(size, Image.Transform.AFFINE, data, resample=Image.Resampling.BICUBIC,
                                          fillcolor=(255, 255, 255))
    return scan, truth


def dot_centre(image: Image.Image, near: tuple[float, float], radius: int = 14) -> tuple[float, float] | None:
    """The centre of the blue dot near a pixel (weighted by how blue each pixel is), or None."""
    pixels = image.convert("RGB").load()
    sx = sy = sw = 0.0
    for x in range(int(near[0] - radius), int(near[0] + radius) + 1):
        for y in range(int(near[1] - radius), int(near[1] + radius) + 1):
            if 0 <= x < image.size[0] and 0 <= y < image.size[1]:
                r, g, b = pixels[x, y]
                weight = max(0.0, b - (r + g) / 2 - 60)
                sx, sy, sw = sx + weight * x, sy + weight * y, sw + weight
    return (sx / sw, sy / sw) if sw else None

def read_centres(gm: GameMap, printed: PrintedGrid, labels: list[str]) -> dict[str, list[int]]:
    """What a maintainer reads off the scan: each listed hex's centre to the nearest pixel."""
    return {label: [round(v) for v in printed.centre(gm.grid, gm.grid.parse(label))] for label in labels}


def board_table(image: str, points: dict[str, list[int]], source: str = "published map: test sheet") -> str:
    """The [board] table a maintainer adds to the map's toml (before calibrating)."""
    rows = "\n".join(f'"{label}" = [{x}, {y}]' for label, (x, y) in points.items())
    return f'\n[board]\nimage = "{image}"\nsource = "{source}"\n\n[board.points]\n{rows}\n'
