"""What a map shows beyond its hexes: a north arrow where north is not up (Korean War Battles'
Pusan and Changjin maps lie on their side) and the regions the rules name without listing
hexes (Fire and Ice's China, beyond the Yalu and the Tumen).

North comes from the map's own calibration: the hexes the rulebook puts at known towns
(``maps/<map>.geo.cfg`` anchors) and the towns' latitudes give which way latitude grows on the
board, so the arrow follows the map if its orientation is ever corrected.

    decor = map_decor(game, game.maps["pusan"])   # MapDecor(north=90, areas=())
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from scenarios import geodata
from scenarios.hexgrid import Hex, HexGrid
from scenarios.loader import DATA_ROOT
from scenarios.mapbuild.config import ConfigError, read_geo
from scenarios.model import Game, GameMap

from art.fonts import Rect, draw_fitted

#: North this many degrees or more away from "up" gets an arrow.
ARROW_FROM = 20


@dataclass(frozen=True)
class ShadedArea:
    label: str
    hexes: tuple[tuple[int, int], ...]  # (col, row)


@dataclass(frozen=True)
class MapDecor:
    north: int | None = None  # degrees clockwise from up; None = unknown
    areas: tuple[ShadedArea, ...] = ()


def map_decor(game: Game, gmap: GameMap) -> MapDecor:
    north = north_angle(game, gmap)
    areas = tuple(ShadedArea(a.label or a.name, tuple((h.col, h.row) for h in hexes_beyond(gmap, a.beyond, north)))
                  for a in game.map_areas if a.map == gmap.id)
    return MapDecor(north, areas)


def north_angle(game: Game, gmap: GameMap) -> int | None:
    """Degrees clockwise from up in which latitude grows fastest, fitted to the map's anchors."""
    path = DATA_ROOT / game.id / "maps" / f"{gmap.id}.geo.cfg"
    if not path.exists():
        return None
    try:
        anchors = read_geo(path).anchors
    except (ConfigError, OSError, ValueError):
        return None
    places = {}
    for town in geodata.towns():
        for name in (town.name, *town.alt_names):
            places[name.lower()] = town
    points = []
    for anchor in anchors:
        town = places.get(anchor.town.lower())
        try:
            hex_ = gmap.grid.parse(anchor.label)
        except ValueError:
            continue
        if town is not None:
            x, y = gmap.grid.center(hex_)
            points.append((x, y, town.lat))
    gradient = _plane_gradient(points)
    if gradient is None:
        return None
    a, b = gradient  # latitude per pixel along x (right) and y (down)
    return round(math.degrees(math.atan2(a, -b))) % 360


def _plane_gradient(points: list[tuple[float, float, float]]) -> tuple[float, float] | None:
    """Least-squares z = a*x + b*y + c; (a, b), or None for fewer than three points in a line."""
    if len(points) < 3:
        return None
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    mz = sum(p[2] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    syy = sum((p[1] - my) ** 2 for p in points)
    sxy = sum((p[0] - mx) * (p[1] - my) for p in points)
    sxz = sum((p[0] - mx) * (p[2] - mz) for p in points)
    syz = sum((p[1] - my) * (p[2] - mz) for p in points)
    det = sxx * syy - sxy * sxy
    if abs(det) < 1e-9:
        return None
    return (sxz * syy - syz * sxy) / det, (syz * sxx - sxz * sxy) / det


def hexes_beyond(gmap: GameMap, rivers: tuple[str, ...], north: int | None) -> list[Hex]:
    """The land hexes north of the named rivers, column by column: in each column the river
    crosses, every hex as far north as the northern hex of its northernmost crossing or further.
    Columns the rivers do not cross are left unshaded (the rules' area is drawn, not guessed)."""
    angle = math.radians(north or 0)
    ux, uy = math.sin(angle), -math.cos(angle)  # unit vector pointing north, in pixels

    def northing(hex_: Hex) -> float:
        x, y = gmap.grid.center(hex_)
        return x * ux + y * uy

    wanted = {r.lower() for r in rivers}
    limit: dict[int, float] = {}
    for feature in gmap.hexside_features:
        if feature.name.lower() not in wanted:
            continue
        north_hex = max((feature.hexside.a, feature.hexside.b), key=northing)
        value = northing(north_hex)
        limit[north_hex.col] = max(limit.get(north_hex.col, value), value)
    return [h for h in gmap.hexes() if h.col in limit and northing(h) >= limit[h.col] - 0.5
            and "sea" not in gmap.terrain_at(h)]


def draw_decor(img: Image.Image, grid: HexGrid, decor: MapDecor) -> None:
    for area in decor.areas:
        _shade(img, grid, area)
    if decor.north is not None and min(decor.north, 360 - decor.north) >= ARROW_FROM:
        _north_arrow(img, grid, decor.north)


SHADE = (150, 30, 30, 70)  # the translucent red laid over a shaded area


def _shade(img: Image.Image, grid: HexGrid, area: ShadedArea) -> None:
    if not area.hexes:
        return
    hexes = [Hex(c, r) for c, r in area.hexes]
    shade_polygons(img, [grid.corners(hex_) for hex_ in hexes])
    xs, ys = zip(*(grid.center(h) for h in hexes))
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    w = max(6 * grid.dy, (max(xs) - min(xs)) * 0.6)
    draw_fitted(img, area.label, Rect(cx - w / 2, cy - grid.dy * 0.6, cx + w / 2, cy + grid.dy * 0.6),
                (110, 10, 10), bold=True, stroke=max(1, round(grid.dy / 30)), stroke_fill=(255, 255, 255))


def shade_polygons(img: Image.Image, polygons: list[list[tuple[float, float]]]) -> None:
    """Lay SHADE over every pixel of ``polygons`` on the RGB board ``img``. Only the shaded part
    is touched (a whole map is tens of millions of pixels; the area a fraction)."""
    mask, (ox, oy) = area_mask(img.size, polygons)
    box = mask.getbbox()
    if box is not None:
        board_box = (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy)
        img.paste(img.crop(board_box).point(shaded_lut()), board_box[:2], mask.crop(box))


def area_mask(size: tuple[int, int], polygons: list[list[tuple[float, float]]]
              ) -> tuple[Image.Image, tuple[int, int]]:
    """The pixels of ``polygons`` on a board of ``size`` (255 inside, 0 elsewhere), on an "L"
    image just big enough for them, and where that image's top-left corner sits on the board.

    Why not a board-sized overlay: Fire and Ice's board is 27 million pixels, and filling,
    drawing on and searching a 108 MB RGBA overlay cost three times what the shading itself
    does. The pixels are the same: every corner is moved by whole pixels (``x - ox`` is exact
    in floating point for an integer ``ox`` below ``x``), the margin keeps every polygon inside
    the smaller image, so nothing is clipped that the board would not clip, and Pillow fills a
    polygon on an "L" image where it fills it on an "RGBA" one (``tests/test_art_decor.py``
    compares the shading with that of a board-sized overlay; the four games' maps are
    byte-identical).
    """
    xs = [x for corners in polygons for x, _ in corners]
    ys = [y for corners in polygons for _, y in corners]
    ox, oy = max(0, math.floor(min(xs)) - 2), max(0, math.floor(min(ys)) - 2)
    right, bottom = min(size[0], math.ceil(max(xs)) + 3), min(size[1], math.ceil(max(ys)) + 3)
    mask = Image.new("L", (max(1, right - ox), max(1, bottom - oy)), 0)
    draw = ImageDraw.Draw(mask)
    for corners in polygons:
        draw.polygon([(x - ox, y - oy) for x, y in corners], fill=255)
    return mask, (ox, oy)


@lru_cache(maxsize=1)
def shaded_lut() -> list[int]:
    """``Image.point`` table: each channel of an opaque pixel with SHADE composited over it.

    ``Image.alpha_composite`` of one colour over opaque pixels works channel by channel (its
    weights depend on the two alphas alone), so compositing SHADE over the 256 grey levels gives
    every channel's result, and a table lookup replaces converting the area to RGBA,
    compositing and converting back.
    """
    ramp = Image.new("RGBA", (256, 1))
    ramp.putdata([(v, v, v, 255) for v in range(256)])
    shaded = Image.alpha_composite(ramp, Image.new("RGBA", (256, 1), SHADE))
    rgba = shaded.tobytes()
    return [rgba[4 * v + channel] for channel in range(3) for v in range(256)]


def _north_arrow(img: Image.Image, grid: HexGrid, north: int) -> None:
    """A compass needle with "N" at its tip in the board's top-left corner, on a white disc."""
    r = 0.8 * grid.dy  # small: every part of the board is hexes
    cx = cy = r + grid.dy * 0.15
    draw = ImageDraw.Draw(img)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=(0, 0, 0), width=max(2, round(r / 30)))
    a = math.radians(north)
    ux, uy = math.sin(a), -math.cos(a)
    px, py = -uy, ux
    tip = (cx + ux * r * 0.55, cy + uy * r * 0.55)
    tail = (cx - ux * r * 0.55, cy - uy * r * 0.55)
    half = r * 0.16
    draw.polygon([tip, (cx + px * half, cy + py * half), (cx - px * half, cy - py * half)], fill=(200, 20, 20))
    draw.polygon([tail, (cx + px * half, cy + py * half), (cx - px * half, cy - py * half)], fill=(60, 60, 60))
    label = (cx + ux * r * 0.78, cy + uy * r * 0.78)
    s = r * 0.24
    draw_fitted(img, "N", Rect(label[0] - s, label[1] - s, label[0] + s, label[1] + s), (0, 0, 0), bold=True)
