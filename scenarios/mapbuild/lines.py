"""Lines on the ground turned into hexsides (rivers, parallels, red lines) and hex paths (rails, roads).

All geometry is done in board pixels: the calibration is a similarity
transform, so "does the river cross the line between two hex centres" has the
same answer on the board as on the ground, and hex lookups are VASSAL's own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scenarios import geodata
from scenarios.hexgrid import Blocked, Cube, Hex, Hexside, cube_to_raw, search
from scenarios.mapbuild.calibrate import Calibration
from scenarios.mapbuild.classify import land_at

Point = tuple[float, float]
WATER = ("sea", "lake")


@dataclass(frozen=True)
class SideLine:
    """A generated hexside row."""

    side: Hexside
    kind: str
    name: str
    why: str  # goes into the source text
    book_source: str = ""  # a line the rulebook defines: this is its source, used as it is


def row_line_sides(cal: Calibration, row: int, columns: tuple[int, int], kind: str, name: str,
                   source: str) -> list[SideLine]:
    """The hexsides of a line the book defines along a row (Fire and Ice's border, 1.0 Glossary)."""
    return [SideLine(Hexside.between(Hex(c, row), Hex(c + 1, row)), kind, name, "", source)
            for c in range(columns[0], columns[1]) if cal.grid.is_on_map(Hex(c + 1, row))]


@dataclass(frozen=True)
class PathLine:
    """A generated paths.csv row: a railway, road or trail as a chain of adjacent hexes."""

    kind: str
    name: str
    hexes: tuple[Hex, ...]
    why: str  # goes into the source text
    source: str = ""  # a maintainer's correction taken from the published map: its source, used as it is


# --------------------------------------------------------------------------- geometry

def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Do segments p1-p2 and q1-q2 cross?  A point exactly on the other line counts as on its
    left side (half-open rule), so a polyline vertex lying on a centre line is counted once, not twice."""
    def orient(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def polyline_pixels(cal: Calibration, points) -> list[Point]:
    return [cal.latlon_pixel(lat, lon) for lat, lon in points]


def hexes_along(cal: Calibration, pixels: list[Point]) -> list[Hex]:
    """Every hex a pixel polyline passes through, in order, sampled finely (quarter-hex steps)."""
    grid = cal.grid
    step = grid.dy / 4
    out: list[Hex] = []
    for (x1, y1), (x2, y2) in zip(pixels, pixels[1:]):
        n = max(1, math.ceil(math.hypot(x2 - x1, y2 - y1) / step))
        for i in range(n + 1):
            f = i / n
            h = grid.hex_at(round(x1 + (x2 - x1) * f), round(y1 + (y2 - y1) * f))
            if not out or out[-1] != h:
                out.append(h)
    return out


def crossed_sides(cal: Calibration, pixels: list[Point], on_map) -> list[Hexside]:
    """Hexsides whose centre-to-centre line the polyline crosses an odd number of times.

    An even number of crossings means the line wandered over and back: the
    two hexes are on the same bank, so that side is no river.
    """
    grid = cal.grid
    candidates: set[Hexside] = set()
    for h in hexes_along(cal, pixels):
        for n in grid.neighbours(h, on_map_only=False):
            if on_map(h) and on_map(n):
                candidates.add(Hexside.between(h, n))
    result = []
    for side in sorted(candidates):
        ca, cb = grid.center(side.a), grid.center(side.b)
        crossings = sum(segments_cross(ca, cb, p, q) for p, q in zip(pixels, pixels[1:]))
        if crossings % 2 == 1:
            result.append(side)
    return result


# --------------------------------------------------------------------------- hexsides

def river_sides(cal: Calibration, terrain: dict[Hex, str], names: tuple[str, ...], kind: str,
                major: tuple[str, ...], major_kind: str) -> list[SideLine]:
    """Hexsides crossed by the named rivers, between two land hexes (a river mouth at sea is no hexside)."""
    wanted = set(geodata.fold_name(n) for n in names + major)
    every = "*" in names
    major_keys = set(geodata.fold_name(n) for n in major)
    found: dict[Hexside, SideLine] = {}
    rivers = sorted((r for r in geodata.rivers() if r.name and (every or geodata.fold_name(r.name) in wanted)),
                    key=lambda r: (r.name, r.points))
    land = lambda h: h in terrain and terrain[h] not in WATER  # noqa: E731
    for river in rivers:
        pixels = polyline_pixels(cal, river.points)
        is_major = geodata.fold_name(river.name) in major_keys
        for side in crossed_sides(cal, pixels, land):
            if side not in found:
                found[side] = SideLine(side, major_kind if is_major else kind, river.name,
                                       f"river {river.name}, {river.source or 'geodata rivers.json'}")
    return [found[s] for s in sorted(found)]


def parallel_sides(cal: Calibration, terrain: dict[Hex, str], lat: float, kind: str, name: str) -> list[SideLine]:
    """Hexsides between a hex whose centre is north of the parallel and one south of it (land hexes only)."""
    grid = cal.grid
    lats = {h: cal.hex_latlon(h)[0] for h in terrain}
    result = []
    for h in sorted(terrain):
        for n in grid.neighbours(h):
            if lats[h] >= lat > lats[n] and (terrain[h] not in WATER or terrain[n] not in WATER):
                result.append(SideLine(Hexside.between(h, n), kind, name, f"latitude {lat:g} N"))
    return sorted(result, key=lambda s: s.side)


def cut_sides(cal: Calibration, terrain: dict[Hex, str], sea_kind: str, crest_kind: str,
              crest_m: float, prominence_m: float = 300.0) -> list[SideLine]:
    """Hexsides where the ground cuts two land hexes apart: sea between them (the middle of the
    centre line is all sea: a bay, an inlet, a strait) -> ``sea_kind`` (SPI's inlet hexsides,
    HoldFast's red lines); a crest higher than ``crest_m`` on the centre line -> ``crest_kind``
    (HoldFast's red lines in the mountains).  An empty kind switches that test off."""
    grid = cal.grid
    result = []
    for h in sorted(terrain):
        if terrain[h] in WATER:
            continue
        for n in grid.neighbours(h):
            if n <= h or terrain[n] in WATER:
                continue
            (ax, ay), (bx, by) = grid.center(h), grid.center(n)
            pts = [cal.pixel_latlon(ax + (bx - ax) * f, ay + (by - ay) * f) for f in (0.35, 0.5, 0.65)]
            if sea_kind and not any(land_at(lat, lon) for lat, lon in pts):
                result.append(SideLine(Hexside.between(h, n), sea_kind, "", "sea between two land hexes"))
                continue
            if not crest_kind:
                continue
            line = [cal.pixel_latlon(ax + (bx - ax) * f, ay + (by - ay) * f) for f in (0.25, 0.5, 0.75)]
            crest = max(geodata.elevation_at(lat, lon) for lat, lon in line)
            ends = max(geodata.elevation_at(*cal.hex_latlon(h)), geodata.elevation_at(*cal.hex_latlon(n)))
            if crest >= crest_m and crest - ends >= prominence_m:
                result.append(SideLine(Hexside.between(h, n), crest_kind, "",
                                       f"crest of {crest:.0f} m between the hexes ({crest - ends:.0f} m above them)"))
    return result


# --------------------------------------------------------------------------- paths

def _cube_line(a: Cube, b: Cube) -> list[Cube]:
    """Red Blob's hex line draw (with a tiny nudge so ties break the same way every time)."""
    n = a.distance(b)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        q = a.q + (b.q - a.q) * t + 1e-6
        r = a.r + (b.r - a.r) * t + 2e-6
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        else:
            rs = -rq - rr
        out.append(Cube(rq, rr, rs))
    return out


def chain(cal: Calibration, hexes: list[Hex]) -> list[Hex]:
    """Make consecutive hexes adjacent (fill any gap with a hex line) and drop back-and-forth steps."""
    grid = cal.grid
    out: list[Hex] = []
    for h in hexes:
        if out and grid.distance(out[-1], h) > 1:
            for c in _cube_line(grid.to_cube(out[-1]), grid.to_cube(h))[1:-1]:
                out.append(grid.from_raw(cube_to_raw(c)))
        if out and out[-1] == h:
            continue
        if len(out) >= 2 and out[-2] == h:  # A B A: the line only grazed B
            out.pop()
            continue
        out.append(h)
    return out


def around_water(cal: Calibration, hexes: list[Hex], water: set[Hex]) -> list[Hex]:
    """Replace each stretch of a path through water hexes by the shortest detour over land.

    The 1950 lines are straight town-to-town segments; where one cuts across a bay or a reservoir
    arm (the Hagaru-ri - Yudam-ni road across the Chosin reservoir's west arm), the real line went
    round it.  A stretch with no land detour on the map is kept as it is.
    """
    out: list[Hex] = []
    i = 0
    while i < len(hexes):
        h = hexes[i]
        if h not in water or not out:
            out.append(h)
            i += 1
            continue
        j = i
        while j < len(hexes) and hexes[j] in water:
            j += 1
        if j == len(hexes):  # the path ends in water: keep it
            out.extend(hexes[i:])
            break
        start, goal = out[-1], hexes[j]
        found = search(cal.grid, [start], Blocked(hexes=water))
        if found.reached(goal):
            out.extend(found.path_to(goal)[1:-1])
        else:
            out.extend(hexes[i:j])
        i = j
    return out


def path_lines(cal: Calibration, kind_map: dict[str, str], water: set[Hex] | None = None) -> list[PathLine]:
    """Railways and roads as chains of adjacent on-map hexes (a line leaving the map is cut there;
    stretches across water go round by land)."""
    sources = {"railway": geodata.railways, "road": geodata.roads}
    result = []
    for geo_kind in sorted(kind_map):
        for line in sorted(sources[geo_kind](), key=lambda p: p.name):
            hexes = chain(cal, hexes_along(cal, polyline_pixels(cal, line.points)))
            if water:
                hexes = around_water(cal, hexes, water)
            runs: list[list[Hex]] = [[]]
            for h in hexes:
                if cal.grid.is_on_map(h):
                    runs[-1].append(h)
                elif runs[-1]:
                    runs.append([])
            for run in runs:
                if len(run) >= 2:
                    result.append(PathLine(kind_map[geo_kind], line.name, tuple(run),
                                           f"{geo_kind} {line.name} via {', '.join(line.via)}"))
    return result
