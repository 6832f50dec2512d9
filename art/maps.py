"""Map boards drawn from a ``GameMap``, plus off-map box boards and turn tracks.

Every hex is placed with the map's own ``HexGrid`` (``center``, ``corners``,
``hexside_segment``), which reproduces VASSAL's HexGrid pixel formulas: the
grid the module overlays lands exactly on the hexes drawn here.  The board is
``grid.width`` x ``grid.height`` pixels (times ``scale``).

Drawing order (later on top): terrain fills, hex outlines, hexside features
(rivers, red lines, 38th parallel), paths (roads, trails, railways), hex
features (cities, ports, airfields, supply sources) with names, labels.
Everything is ImageDraw polygons and lines, one call per hex or segment, so
a 4,000-hex map draws in a second or two.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from scenarios.boxboard import BOX_TITLE, box_size  # box_size: the tiles' size, also asked of art.maps
from scenarios.hexgrid import Hex, HexGrid
from scenarios.model import Box, Game, GameMap, Scenario

from art.canvas import darker, is_dark, mix, rgb
from art.decor import MapDecor, draw_decor
from art.fonts import Rect, draw_fitted, draw_line, font, fit_font

OFF_MAP = (214, 214, 206)
HEX_OUTLINE = (90, 90, 80)
LABEL_INK = (40, 40, 40)
UNKNOWN_TERRAIN = (255, 0, 255)  # loud on purpose: a terrain id without a legend entry


@dataclass(frozen=True)
class LineStyle:
    colour: tuple[int, int, int]
    width: float  # as a fraction of the hex height
    dash: float = 0.0  # dash length as a fraction of the hex height; 0 = solid
    ties: bool = False  # railway cross-ties


HEXSIDE_STYLES: dict[str, LineStyle] = {
    "river": LineStyle((40, 110, 210), 0.05),
    "major_river": LineStyle((25, 80, 190), 0.08),
    "han_river": LineStyle((25, 80, 190), 0.08),
    "sea": LineStyle((60, 120, 200), 0.035, dash=0.12),
    "red_line": LineStyle((215, 20, 20), 0.06),
    "parallel_38": LineStyle((20, 20, 20), 0.045, dash=0.16),
    "border": LineStyle((120, 40, 140), 0.045, dash=0.1),
    "map_edge": LineStyle((0, 0, 0), 0.05),
}
DEFAULT_HEXSIDE = LineStyle((100, 100, 100), 0.035, dash=0.08)

PATH_STYLES: dict[str, LineStyle] = {
    "road": LineStyle((150, 40, 30), 0.045),
    "secondary_road": LineStyle((170, 90, 50), 0.03),
    "trail": LineStyle((120, 80, 40), 0.03, dash=0.08),
    "rail": LineStyle((20, 20, 20), 0.025, ties=True),
    "railway": LineStyle((20, 20, 20), 0.025, ties=True),
    "railroad": LineStyle((20, 20, 20), 0.025, ties=True),
}
DEFAULT_PATH = LineStyle((90, 60, 40), 0.03, dash=0.05)


def render_map(gmap: GameMap, scale: int = 1, decor: MapDecor | None = None) -> Image.Image:
    """The full board of one map, with its ``decor`` (north arrow, shaded areas) if given."""
    grid = gmap.grid.scaled(scale) if scale != 1 else gmap.grid
    img = Image.new("RGB", (grid.width, grid.height), OFF_MAP)
    draw = ImageDraw.Draw(img)
    _draw_terrain(draw, gmap, grid)
    for feature in gmap.hexside_features:
        style = HEXSIDE_STYLES.get(feature.kind, DEFAULT_HEXSIDE)
        if feature.kind == "bridge":
            _draw_bridge(draw, grid, feature.hexside)
            continue
        a, b = grid.hexside_segment(feature.hexside)
        _line(draw, [a, b], style, grid.dy)
    for path in sorted(gmap.paths, key=_path_order):
        style = PATH_STYLES.get(path.kind, DEFAULT_PATH)
        points = [grid.center(h) for h in path.hexes]
        _line(draw, points, style, grid.dy)
    for hex_, features in _features_by_hex(gmap).items():
        _draw_features(img, draw, grid, hex_, features)
    _draw_labels(img, draw, gmap, grid)
    if decor is not None:
        draw_decor(img, grid, decor)
    return img


# -- terrain and labels ---------------------------------------------------------


def _draw_terrain(draw: ImageDraw.ImageDraw, gmap: GameMap, grid: HexGrid) -> None:
    colours = {tid: rgb(t.colour) for tid, t in gmap.terrain_types.items()}
    outline_w = max(1, round(grid.dy / 88))
    corners = {hex_: grid.corners(hex_) for hex_ in gmap.terrain}
    for hex_, terrain in gmap.terrain.items():
        draw.polygon(corners[hex_], fill=colours.get(terrain, UNKNOWN_TERRAIN))
    for outline in corners.values():
        draw.line(outline + outline[:1], fill=HEX_OUTLINE, width=outline_w)


def _draw_labels(img: Image.Image, draw: ImageDraw.ImageDraw, gmap: GameMap, grid: HexGrid) -> None:
    """``XXYY`` near the top of every hex (the flat top edge, or the upper
    point of a sideways grid)."""
    size = max(7, round(grid.dy * 0.13))
    f = font(size)
    light_on_dark = {tid: is_dark(rgb(t.colour)) for tid, t in gmap.terrain_types.items()}
    for hex_, terrain in gmap.terrain.items():
        cx, cy = grid.center(hex_)
        top = cy - grid.dy / 2 + grid.dy * 0.05 if not grid.sideways else cy - grid.dx * 0.5
        fill = (235, 235, 235) if light_on_dark.get(terrain) else LABEL_INK
        draw_line(draw, (cx, top), grid.label(hex_), f, fill, anchor="mt")


# -- lines ----------------------------------------------------------------------------


def _path_order(path) -> int:
    # Trails under roads under railways, so the most important line is on top.
    return {"trail": 0, "secondary_road": 1, "road": 2}.get(path.kind, 3)


def _line(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], style: LineStyle,
          hex_h: float) -> None:
    width = max(1, round(style.width * hex_h))
    if style.dash:
        for a, b in zip(points, points[1:]):
            _dashed(draw, a, b, style.colour, width, style.dash * hex_h)
    else:
        draw.line(points, fill=style.colour, width=width, joint="curve")
    if style.ties:
        for a, b in zip(points, points[1:]):
            _ties(draw, a, b, style.colour, max(1, width // 2), hex_h)


def _dashed(draw, a, b, colour, width: int, dash: float) -> None:
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return
    n = max(1, int(length / dash))
    for i in range(0, n, 2):
        t0, t1 = i / n, min(1.0, (i + 1) / n)
        draw.line((x1 + (x2 - x1) * t0, y1 + (y2 - y1) * t0, x1 + (x2 - x1) * t1, y1 + (y2 - y1) * t1),
                  fill=colour, width=width)


def _ties(draw, a, b, colour, width: int, hex_h: float) -> None:
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    half = hex_h * 0.06
    count = max(1, int(length / (hex_h * 0.14)))
    for i in range(1, count):
        t = i / count
        px, py = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        draw.line((px - uy * half, py + ux * half, px + uy * half, py - ux * half), fill=colour, width=width)


def _draw_bridge(draw, grid: HexGrid, side) -> None:
    (ax, ay), (bx, by) = grid.center(side.a), grid.center(side.b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    ux, uy = (bx - ax), (by - ay)
    length = math.hypot(ux, uy) or 1.0
    ux, uy = ux / length, uy / length
    half_l, half_w = grid.dy * 0.14, grid.dy * 0.06
    corners = [
        (mx - ux * half_l - uy * half_w, my - uy * half_l + ux * half_w),
        (mx + ux * half_l - uy * half_w, my + uy * half_l + ux * half_w),
        (mx + ux * half_l + uy * half_w, my + uy * half_l - ux * half_w),
        (mx - ux * half_l + uy * half_w, my - uy * half_l - ux * half_w),
    ]
    draw.polygon(corners, fill=(90, 70, 50), outline=(20, 20, 20))


# -- hex features ---------------------------------------------------------------------

# Kinds drawn as a symbol, in the order they stack inside one hex.
FEATURE_ORDER = ("major_city", "capital", "city", "star_city", "town", "port", "airfield",
                 "supply_source", "supply_symbol", "objective", "entry", "reservoir")


def _features_by_hex(gmap: GameMap) -> dict[Hex, list]:
    found: dict[Hex, list] = {}
    for f in gmap.features:
        if f.hex in gmap.terrain or gmap.grid.is_on_map(f.hex):
            found.setdefault(f.hex, []).append(f)
    return found


# Kinds whose name is a place name worth printing on the map; other kinds'
# names are explanations ("yellow hex (Chinese border)") and stay in the data.
NAMED_KINDS = frozenset({"major_city", "capital", "city", "star_city", "town", "village", "port",
                         "airfield", "reservoir", "objective", "supply_source"})
# Kinds drawn as a hex outline rather than a symbol.
OUTLINE_KINDS = {"map_edge": (235, 200, 30), "yellow_hex": (235, 200, 30)}


def _draw_features(img, draw, grid: HexGrid, hex_: Hex, features: list) -> None:
    cx, cy = grid.center(hex_)
    r = grid.dy * 0.13
    for f in features:
        if f.kind in OUTLINE_KINDS:
            corners = grid.corners(hex_)
            inset = [(cx + (x - cx) * 0.9, cy + (y - cy) * 0.9) for x, y in corners]
            draw.line(inset + inset[:1], fill=OUTLINE_KINDS[f.kind], width=max(2, round(grid.dy * 0.05)))
    kinds = sorted((f for f in features if f.kind not in OUTLINE_KINDS),
                   key=lambda f: FEATURE_ORDER.index(f.kind) if f.kind in FEATURE_ORDER else 99)
    # Several symbols in one hex sit side by side around the centre.
    n = len(kinds)
    spacing = r * 2.3
    for i, f in enumerate(kinds):
        x = cx + (i - (n - 1) / 2) * spacing
        _feature_symbol(draw, f.kind, f.side, x, cy, r)
    names = [f.name for f in kinds if f.name and f.kind in NAMED_KINDS]
    if names:
        name = names[0]
        f = fit_font(name, grid.dx * 1.25, grid.dy * 0.16, max(7, round(grid.dy * 0.14)), bold=True)
        draw.text((cx, cy + r * 1.3), name, font=f, fill=(0, 0, 0), anchor="mt",
                  stroke_width=max(1, round(grid.dy / 60)), stroke_fill=(255, 255, 255))


def _feature_symbol(draw, kind: str, side: str, x: float, y: float, r: float) -> None:
    black, white = (0, 0, 0), (255, 255, 255)
    if kind in ("city", "major_city", "capital"):
        k = 1.25 if kind != "city" else 1.0
        draw.rectangle((x - r * k, y - r * k, x + r * k, y + r * k), fill=(30, 30, 30), outline=white)
        if kind == "capital":
            _star(draw, x, y, r * 0.9, (230, 200, 40))
    elif kind in ("town", "village"):
        draw.ellipse((x - r * 0.6, y - r * 0.6, x + r * 0.6, y + r * 0.6), fill=(30, 30, 30), outline=white)
    elif kind == "star_city":
        # HoldFast: blue stars north of the 38th (Communist-held), red stars south.
        colour = (30, 80, 200) if side.lower() in ("communist", "red", "com") else (200, 30, 30)
        _star(draw, x, y, r * 1.3, colour)
    elif kind == "port":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(30, 80, 170), outline=white)
        draw.line((x, y - r * 0.6, x, y + r * 0.6), fill=white, width=max(1, round(r / 5)))
        draw.arc((x - r * 0.55, y - r * 0.2, x + r * 0.55, y + r * 0.65), 0, 180, fill=white,
                 width=max(1, round(r / 5)))
    elif kind == "airfield":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=white, outline=black)
        w = max(1, round(r / 4))
        draw.line((x - r * 0.7, y + r * 0.4, x + r * 0.7, y - r * 0.4), fill=black, width=w)
        draw.line((x - r * 0.7, y - r * 0.4, x + r * 0.7, y + r * 0.4), fill=black, width=w)
    elif kind in ("supply_source", "supply_symbol"):
        colour = (200, 30, 30) if side.lower() in ("communist", "red", "com") else (30, 80, 200)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=white, outline=colour, width=max(1, round(r / 4)))
        tri = [(x, y - r * 0.6), (x + r * 0.55, y + r * 0.4), (x - r * 0.55, y + r * 0.4)]
        draw.polygon(tri, fill=colour)
    elif kind == "objective":
        draw.ellipse((x - r, y - r, x + r, y + r), outline=(200, 30, 30), width=max(1, round(r / 3)))
    elif kind == "entry":  # an open chevron: units enter here
        w = max(1, round(r / 3))
        draw.line([(x - r * 0.5, y - r * 0.7), (x + r * 0.4, y), (x - r * 0.5, y + r * 0.7)],
                  fill=(40, 40, 40), width=w)
    elif kind == "setup_dot":
        colour = (200, 30, 30) if side.lower() in ("communist", "red", "com") else (30, 80, 200)
        draw.ellipse((x - r * 0.55, y - r * 0.55, x + r * 0.55, y + r * 0.55), fill=colour)
    elif kind == "reservoir":
        draw.ellipse((x - r * 1.4, y - r * 0.8, x + r * 1.4, y + r * 0.8), fill=(60, 120, 200))
    else:  # a named hex or a kind without a symbol of its own: a small ring
        draw.ellipse((x - r * 0.35, y - r * 0.35, x + r * 0.35, y + r * 0.35), outline=(60, 60, 60),
                     width=max(1, round(r / 6)))


def _star(draw, x: float, y: float, r: float, colour) -> None:
    points = []
    for i in range(10):
        angle = -math.pi / 2 + i * math.pi / 5
        radius = r if i % 2 == 0 else r * 0.42
        points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    draw.polygon(points, fill=colour, outline=(0, 0, 0))


# -- off-map boards -----------------------------------------------------------------------

def render_box(game: Game, box: Box, scale: int = 1, counter: int = 75) -> Image.Image:
    """A titled off-map box (dead pile, replacement box, sea box...) big enough for
    ``BOX_SLOTS`` counters (``scenarios.boxboard``: the size everyone lays boxes out by), in its
    side's colour."""
    from art.styles.base import NEUTRAL_MARKER, side_colour

    w, h = box_size(scale, counter)
    title_h = BOX_TITLE * scale
    colour = rgb(side_colour(game, box.side) if box.side else NEUTRAL_MARKER)
    img = Image.new("RGB", (w, h), mix(colour, (255, 255, 255), 0.55))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, w - 1, title_h), fill=colour)
    ink = (255, 255, 255) if is_dark(colour) else (0, 0, 0)
    draw_fitted(img, box.name, Rect(6 * scale, 3 * scale, w - 6 * scale, title_h - 3 * scale), ink, bold=True)
    draw.rectangle((0, 0, w - 1, h - 1), outline=darker(colour, 0.5), width=2 * scale)
    return img


TRACK_NUMBER_H = 22  # the turn number above the counter space
TRACK_DATE_H = 18  # the date below it
TRACK_MAX_WIDTH = 1800  # cells per row: as many as fit this width (at scale 1), at most 10
STACK_DEPTH = 3  # pieces per stack in a turn cell: a deeper stack hides what it holds
SLOT_COLUMNS = 4  # stack slots side by side in a cell before a second row starts


@dataclass(frozen=True)
class TrackLayout:
    """Where everything sits on a turn track board (shared by the drawing
    and by ``turn_slot_centres``, so the module puts each arrival where the
    picture has room for it)."""

    size: tuple[int, int]
    title: Rect
    cells: dict[int, Rect]  # turn number -> its cell
    counter_areas: dict[int, Rect]  # turn number -> the space its counters sit in
    slots: dict[int, list[tuple[int, int]]]  # turn number -> centre of each stack slot


def turn_piece_counts(scenario: Scenario) -> dict[int, int]:
    """Turn -> how many pieces wait in its cell at the start: the reinforcements that
    arrive then and the markers a setup puts on it (``turn:<n>``)."""
    placed = {p.unit for p in scenario.setup}
    counts: dict[int, int] = {}
    for arrival in scenario.schedule:
        if arrival.action == "arrive" and arrival.unit not in placed:
            counts[arrival.turn] = counts.get(arrival.turn, 0) + 1
    for placement in scenario.setup:
        if placement.location.startswith("turn:"):
            turn = int(placement.location[len("turn:"):])
            counts[turn] = counts.get(turn, 0) + 1
    return counts


def track_layout(scenario: Scenario, scale: int = 1, counter: int = 75) -> TrackLayout:
    """Cells big enough for the busiest turn: its pieces in stacks of at most ``STACK_DEPTH``,
    side by side (``SLOT_COLUMNS`` to a row), so no stack spills into a neighbouring cell."""
    pad = 6 * scale
    title_h = BOX_TITLE * scale
    busiest = max(turn_piece_counts(scenario).values(), default=1)
    stacks = max(1, math.ceil(busiest / STACK_DEPTH))
    slot_cols = min(stacks, SLOT_COLUMNS)
    slot_rows = math.ceil(stacks / slot_cols)
    slot_w = (counter + 12) * scale  # a stack's offsets (StackMetrics) stay inside the slot
    slot_h = (counter + 12) * scale
    cell_w = slot_cols * slot_w + 4 * scale
    cell_h = slot_rows * slot_h + (TRACK_NUMBER_H + TRACK_DATE_H) * scale
    per_row = max(1, min(10, (TRACK_MAX_WIDTH * scale) // cell_w))
    turns = scenario.turns or []
    rows = max(1, math.ceil(len(turns) / per_row))
    cols = min(max(1, len(turns)), per_row)
    width = cols * cell_w + 2 * pad
    height = rows * cell_h + 2 * pad + title_h
    cells, areas, slots = {}, {}, {}
    for i, turn in enumerate(turns):
        x = pad + (i % per_row) * cell_w
        y = title_h + pad + (i // per_row) * cell_h
        cell = Rect(x, y, x + cell_w - 3 * scale, y + cell_h - 3 * scale)
        cells[turn.number] = cell
        area = Rect(cell.left, cell.top + TRACK_NUMBER_H * scale, cell.right, cell.bottom - TRACK_DATE_H * scale)
        areas[turn.number] = area
        # Slots are filled left to right, top to bottom; a stack's pieces are drawn offset
        # up and to the right, so each centre sits a little low and left in its slot.
        slots[turn.number] = [
            (round(area.left + 2 * scale + (k % slot_cols + 0.5) * slot_w - 4 * scale),
             round(area.top + (k // slot_cols + 0.5) * slot_h + 4 * scale))
            for k in range(stacks)]
    return TrackLayout((width, height), Rect(pad, 2 * scale, width - pad, title_h), cells, areas, slots)


def turn_slot_centres(scenario: Scenario, scale: int = 1, counter: int = 75) -> dict[int, list[tuple[int, int]]]:
    """Turn number -> the pixel centre of each stack slot in its cell."""
    return track_layout(scenario, scale, counter).slots


def render_turn_track(scenario: Scenario, scale: int = 1, counter: int = 75) -> Image.Image:
    """The scenario's turn record track: one cell per turn, with the turn
    number above and the date below room for the busiest turn's counters."""
    layout = track_layout(scenario, scale, counter)
    w, h = layout.size
    img = Image.new("RGB", layout.size, (245, 242, 230))
    draw = ImageDraw.Draw(img)
    draw_fitted(img, f"{scenario.name}: Turn Record Track", layout.title, (0, 0, 0), bold=True)
    line = max(1, scale)
    for turn in scenario.turns:
        cell, area = layout.cells[turn.number], layout.counter_areas[turn.number]
        draw.rectangle((cell.left, cell.top, cell.right, cell.bottom), fill=(255, 255, 255),
                       outline=(60, 60, 60), width=line)
        draw.rectangle((area.left + 4 * scale, area.top, area.right - 4 * scale, area.bottom),
                       fill=(238, 236, 228))
        draw_fitted(img, str(turn.number), Rect(cell.left + 4 * scale, cell.top + 2 * scale,
                                                cell.right - 4 * scale, area.top - 2 * scale),
                    (0, 0, 0), bold=True)
        draw_fitted(img, turn.date, Rect(cell.left + 4 * scale, area.bottom + 2 * scale,
                                         cell.right - 4 * scale, cell.bottom - 2 * scale), (60, 60, 60))
    draw.rectangle((0, 0, w - 1, h - 1), outline=(60, 60, 60), width=line)
    return img
