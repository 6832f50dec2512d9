"""A "scanned" board for the tests: a printed hex map drawn with Pillow at a known, odd calibration.

Not drawn with our ``HexGrid`` (that would test the grid against itself): the centres here are the
plain geometry of a printed hex map, in floating point, with an origin between pixels, a hex height
that is no whole number and columns a little wider apart than a regular hex's, as a real scan has.
What a maintainer does with it is what the tests do: read a few hex centres off the picture
(rounded to whole pixels) and list them in the map's toml.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from scenarios.hexgrid import Hex, HexGrid, java_mod2
from scenarios.model import GameMap

PAPER = (238, 232, 214)


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


#: An odd calibration for the example's 8 x 6 map: origin between pixels, a fractional hex
#: height (one whose half the engine truncates: its snap and centres differ by a pixel in some
#: columns), columns 2.4 % wider apart than a regular hex's.
EXAMPLE_PRINT = PrintedGrid(dx=59.37, dy=66.93, x0=83.6, y0=47.2, size=(640, 520))


def draw_scan(gm: GameMap, printed: PrintedGrid, path: Path) -> Path:
    """The map printed at ``printed``: terrain colours, hex outlines, hex numbers, roads, names."""
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
    img.save(path)
    return path


def read_centres(gm: GameMap, printed: PrintedGrid, labels: list[str]) -> dict[str, list[int]]:
    """What a maintainer reads off the scan: each listed hex's centre to the nearest pixel."""
    return {label: [round(v) for v in printed.centre(gm.grid, gm.grid.parse(label))] for label in labels}


def board_table(image: str, points: dict[str, list[int]], source: str = "published map: test sheet") -> str:
    """The [board] table a maintainer adds to the map's toml (before calibrating)."""
    rows = "\n".join(f'"{label}" = [{x}, {y}]' for label, (x, y) in points.items())
    return f'\n[board]\nimage = "{image}"\nsource = "{source}"\n\n[board.points]\n{rows}\n'
