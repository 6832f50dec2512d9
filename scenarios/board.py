"""A scanned board: the published map's image as a map's board, its hex grid fitted to the scan.

Most hand-made VASSAL modules show a scan of the printed map, and a maintainer who owns the game
has one.  Its grid is whatever the printer and the scanner made of it: an origin anywhere, a hex
size in fractional pixels, columns a little closer or farther apart than a regular hex would put
them.  The maintainer reads the centres of three or more hexes off the scan and lists them in the
map's toml; ``fit`` finds the VASSAL grid (``dx``, ``dy``, ``x0``, ``y0`` in the map's own
numbering and orientation) that puts those hexes there, and ``write_calibration`` records it in the
toml, from where the loader builds the board's grid (``read_board``).  The module then shows the
scan with exactly that grid, and the saved-game reader reads positions with it.

The fit is two straight lines, because VASSAL's hex centres are (``HexGridNumbering.getCenterPoint``,
in the grid's own frame, x and y swapped for sideways grids)::

    x = x0 + c * dx                      c: raw column
    y = y0 + (r + (c odd) / 2) * dy      r: raw row

so least squares on x against c gives ``x0`` and ``dx``, and on y against r + (c odd)/2 gives
``y0`` and ``dy``.  VASSAL's origin is whole pixels: the intercepts are rounded and the spacings
fitted again with the rounded origin, so the grid written is the best one VASSAL can hold.

Standard library only, as the rest of ``scenarios``: image sizes are read from the file headers.
"""

from __future__ import annotations

import math
import re
import struct
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from scenarios.hexgrid import SQRT3_2, Hex, HexGrid, java_mod2
from scenarios.model import BoardImage, BoardPoint, Source

#: Image types a VASSAL board may be, by file suffix.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif")
#: A listed point further than this share of a hex height from the centre the grid puts there
#: fails the fit (a mislabelled hex is a whole hex off; a careful reading a pixel or two).
TOLERANCE = 0.25
#: The keys the calibration writes into [board], in order, and the comment it puts beside them.
CALIBRATION_KEYS = ("dx", "dy", "x0", "y0")
CALIBRATED = "   # calibrated by `modgen board` from [board.points]"
#: A TOML table header, and a key line (for writing the calibration into the maintainer's file).
_HEADER = re.compile(r"^\s*\[\[?\s*[A-Za-z0-9_.\"-]+\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_]+)\s*=")
_BOARD = re.compile(r"^\s*\[\s*board\s*\]\s*(#.*)?$")


class BoardError(ValueError):
    pass


# -- the image -------------------------------------------------------------------------------------


def image_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG, JPEG or GIF, from its header (the file is not read whole: a
    scan may be tens of megabytes, and every load of the game asks)."""
    try:
        with path.open("rb") as f:
            head = f.read(24)
            if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
                return struct.unpack(">II", head[16:24])
            if head[:6] in (b"GIF87a", b"GIF89a"):
                return struct.unpack("<HH", head[6:10])
            if head[:2] == b"\xff\xd8":
                return _jpeg_size(f)
    except (OSError, struct.error, BoardError) as err:
        raise BoardError(f"{path.name}: unreadable image ({err})") from None
    raise BoardError(f"{path.name}: not a PNG, JPEG or GIF image")


def _jpeg_size(f) -> tuple[int, int]:
    """The frame header (SOF0-SOF15 but DHT, JPG and DAC) holds the size; the segments before it
    (EXIF, colour profiles, thumbnails) are skipped by their lengths."""
    f.seek(2)
    while True:
        marker = f.read(2)
        if len(marker) < 2 or marker[0] != 0xFF:
            raise BoardError("broken JPEG: no frame header")
        kind = marker[1]
        if kind == 0xFF:  # fill byte before a marker
            f.seek(-1, 1)
            continue
        if kind in (0xD8, 0x01) or 0xD0 <= kind <= 0xD7:
            continue
        length = struct.unpack(">H", f.read(2))[0]
        if 0xC0 <= kind <= 0xCF and kind not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">xHH", f.read(5))
            return width, height
        f.seek(length - 2, 1)


# -- the fit ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Residual:
    """How far the calibrated grid puts a listed hex's centre from where the maintainer read it."""

    point: BoardPoint
    centre: tuple[int, int]  # the engine's centre of the hex on the calibrated grid
    found: Hex  # the hex the engine names at the listed pixel

    @property
    def distance(self) -> float:
        return math.hypot(self.point.x - self.centre[0], self.point.y - self.centre[1])


@dataclass(frozen=True)
class BoardFit:
    grid: HexGrid
    residuals: tuple[Residual, ...]

    @property
    def max_px(self) -> float:
        return max(r.distance for r in self.residuals)

    @property
    def rms_px(self) -> float:
        return math.sqrt(sum(r.distance ** 2 for r in self.residuals) / len(self.residuals))

    def misses(self) -> list[str]:
        """Listed points the grid does not put in their hex, or puts too far from its centre."""
        limit = TOLERANCE * self.grid.dy
        found = []
        for r in self.residuals:
            label = self.grid.label(r.point.hex)
            if r.found != r.point.hex:
                found.append(f"{label} at ({r.point.x:g}, {r.point.y:g}) lies in hex {self.grid.label(r.found)} "
                             f"of the fitted grid ({r.distance:.1f} px from {label}'s centre {r.centre})")
            elif r.distance > limit:
                found.append(f"{label} at ({r.point.x:g}, {r.point.y:g}) is {r.distance:.1f} px from the fitted "
                             f"centre {r.centre} (more than {TOLERANCE:g} of a hex, {limit:.1f} px)")
        return found


def fit(model: HexGrid, points: list[BoardPoint], size: tuple[int, int]) -> BoardFit:
    """The grid of ``model``'s numbering and orientation that best puts ``points`` on their hex
    centres, on a board of ``size``; BoardError when the points cannot fix one."""
    if len(points) < 3:
        raise BoardError(f"{len(points)} point(s): list the centres of at least three hexes")
    frame = [(model.to_raw(p.hex), *((p.y, p.x) if model.sideways else (p.x, p.y))) for p in points]
    columns = [(raw.c, px) for raw, px, _ in frame]
    rows = [(raw.r + 0.5 * (java_mod2(raw.c) != 0), py) for raw, _, py in frame]
    across, down = ("rows", "columns") if model.sideways else ("columns", "rows")
    if len({c for c, _ in columns}) < 2:
        raise BoardError(f"all the points are in one of the grid's {across}: list hexes in two {across} or more")
    if len({r for r, _ in rows}) < 2:
        raise BoardError(f"all the points are level: list hexes of two {down} or more")
    x0, dx = _line(columns)
    y0, dy = _line(rows)
    if dx <= 0 or dy <= 0:
        raise BoardError(f"the fitted spacing is not positive (dx {dx:.2f}, dy {dy:.2f}): do the labels count "
                         "left to right and top to bottom as the map's [grid] says?")
    ox, oy = round(x0), round(y0)
    grid = replace(model, dx=round(_slope(columns, ox), 4), dy=round(_slope(rows, oy), 4), x0=ox, y0=oy,
                   width=size[0], height=size[1])
    return BoardFit(grid, tuple(_residual(grid, p) for p in points))


def _line(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """Least-squares intercept and slope of v against u."""
    n = len(pairs)
    mu = sum(u for u, _ in pairs) / n
    mv = sum(v for _, v in pairs) / n
    slope = sum((u - mu) * (v - mv) for u, v in pairs) / sum((u - mu) ** 2 for u, _ in pairs)
    return mv - slope * mu, slope


def _slope(pairs: list[tuple[float, float]], intercept: int) -> float:
    """Least-squares slope of v against u through a fixed intercept."""
    return sum(u * (v - intercept) for u, v in pairs) / sum(u * u for u, _ in pairs)


def _residual(grid: HexGrid, p: BoardPoint) -> Residual:
    return Residual(p, grid.center(p.hex), grid.hex_at(round(p.x), round(p.y)))


def calibrate(model: HexGrid, points: list[BoardPoint], size: tuple[int, int]) -> BoardFit:
    """``fit``, failing when a point misses its hex; the message says which numbering or
    orientation the points do fit when another one does (a wrong [grid] or a wrong label)."""
    result = fit(model, points, size)
    misses = result.misses()
    if not misses:
        return result
    hint = ""
    for name, other in _other_conventions(model):
        try:
            if not fit(other, points, size).misses():
                hint = f"\nthe points do fit a grid with {name}: check [grid] in the map's toml"
                break
        except BoardError:
            continue
    raise BoardError("the grid fitted to the points misses some of them (a wrong label, a misread "
                     "pixel, or a scan too warped for one grid):\n  " + "\n  ".join(misses) + hint)


def _other_conventions(model: HexGrid) -> list[tuple[str, HexGrid]]:
    """The grid with the other shifted columns, and turned sideways or back."""
    own = "even" if java_mod2(model.h_off) != 0 else "odd"  # HexGrid.build: an odd h_off shifts even columns
    other = "odd" if own == "even" else "even"
    col_digits = (model.v_leading if model.sideways else model.h_leading) + 1
    row_digits = (model.h_leading if model.sideways else model.v_leading) + 1
    turned = HexGrid.build(first_col=model.first_col, last_col=model.last_col, first_row=model.first_row,
                           last_row=model.last_row, shifted_columns=own, stagger=model.stagger,
                           sideways=not model.sideways, col_digits=col_digits, row_digits=row_digits)
    return [(f'shifted_columns = "{other}"', replace(model, h_off=model.h_off - 1)),
            (f"sideways = {str(not model.sideways).lower()}", turned)]


# -- the data --------------------------------------------------------------------------------------


def parse_points(table: dict, grid: HexGrid) -> tuple[list[BoardPoint], list[str]]:
    """``[board.points]`` ("0216" = [x, y]) as points, and a problem per bad entry."""
    points, problems = [], []
    for label, value in table.items():
        try:
            hex = grid.parse(str(label))
        except ValueError:
            problems.append(f"[board.points] {label!r} is not a hex label")
            continue
        if not grid.is_on_map(hex):
            problems.append(f"[board.points] hex {label} is off the map")
            continue
        if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value)):
            problems.append(f"[board.points] {label} = {value!r}: give the centre's pixel as [x, y]")
            continue
        points.append(BoardPoint(hex, float(value[0]), float(value[1])))
    return points, problems


def image_path(maps_dir: Path, name: object) -> Path:
    """The scan ``[board] image`` names: a PNG, JPEG or GIF file beside the map's toml."""
    text = str(name or "")
    path = maps_dir / text
    if not text or Path(text).name != text or path.suffix.lower() not in IMAGE_SUFFIXES:
        raise BoardError(f"= {text!r}: name a PNG, JPEG or GIF file next to the map's toml")
    if not path.is_file():
        raise BoardError(f"{text} is missing")
    return path


def read_board(data: dict, maps_dir: Path, grid: HexGrid, source: Source,
               command: str) -> tuple[BoardImage | None, list[tuple[tuple[str, ...], str]]]:
    """A map toml's ``[board]`` table as the map's board, checked: the image is there, the points
    are hexes, the calibration is written and still puts every point in its hex.  Problems come
    with the toml key they are about; ``command`` is what recalibrates (for the messages)."""
    problems: list[tuple[tuple[str, ...], str]] = []
    try:
        path = image_path(maps_dir, data.get("image"))
        size = image_size(path)
    except BoardError as err:
        return None, [(("board", "image"), f"[board] image {err}")]
    points, bad = parse_points(data.get("points") or {}, grid)
    problems += [(("board", "points"), text) for text in bad]
    missing = [k for k in CALIBRATION_KEYS if not isinstance(data.get(k), (int, float))]
    if missing:
        problems.append((("board",), f"[board] is not calibrated (no {', '.join(missing)}): list three or more hex "
                                     f"centres in [board.points] and run `{command}`"))
        return None, problems
    if not isinstance(data["x0"], int) or not isinstance(data["y0"], int):
        problems.append((("board", "x0"), "[board] x0 and y0 are whole pixels (VASSAL's grid origin)"))
        return None, problems
    board_grid = replace(grid, dx=float(data["dx"]), dy=float(data["dy"]), x0=data["x0"], y0=data["y0"],
                         width=size[0], height=size[1])
    if board_grid.dx <= 0 or board_grid.dy <= 0:
        problems.append((("board", "dx"), "[board] dx and dy must be positive"))
        return None, problems
    stale = BoardFit(board_grid, tuple(_residual(board_grid, p) for p in points)).misses() if points else []
    problems += [(("board", "points"), f"[board] calibration out of date: {text}; run `{command}`") for text in stale]
    return BoardImage(str(path), board_grid, tuple(points), source), problems


def write_calibration(toml_path: Path, grid: HexGrid) -> bool:
    """Write ``dx, dy, x0, y0`` of the fitted grid into the toml's ``[board]`` table (replacing
    earlier ones, else after its last key); True if the file changed.  Comments and everything
    else in the file stay as the maintainer wrote them."""
    values = {"dx": f"{grid.dx:.4f}".rstrip("0").rstrip("."), "dy": f"{grid.dy:.4f}".rstrip("0").rstrip("."),
              "x0": str(grid.x0), "y0": str(grid.y0)}
    text = toml_path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if _BOARD.match(line)), None)
    if start is None:
        raise BoardError(f"{toml_path.name}: no [board] table")
    end = next((i for i in range(start + 1, len(lines)) if _HEADER.match(lines[i])), len(lines))
    written = set()
    for i in range(start + 1, end):
        m = _KEY.match(lines[i])
        if m and m.group(1) in values:
            lines[i] = f"{m.group(1)} = {values[m.group(1)]}{CALIBRATED}\n"
            written.add(m.group(1))
    last_key = max((i for i in range(start, end) if _KEY.match(lines[i]) or i == start), default=start)
    new = [f"{k} = {values[k]}{CALIBRATED}\n" for k in CALIBRATION_KEYS if k not in written]
    lines[last_key + 1:last_key + 1] = new
    result = "".join(lines)
    if result == text:
        return False
    toml_path.write_text(result, encoding="utf-8", newline="\n")
    return True



@dataclass(frozen=True)
class Calibrated:
    """What calibrating one map's board did."""

    toml: Path
    image: Path
    fit: BoardFit
    changed: bool  # the toml's calibration was rewritten

    def report(self) -> list[str]:
        """Lines for the maintainer: the grid, each point's residual, the check to look at."""
        g = self.fit.grid
        lines = [f"{self.toml.name}: [board] {self.image.name} {g.width}x{g.height} px, "
                 f"{'sideways ' if g.sideways else ''}grid dx {g.dx:g} dy {g.dy:g} x0 {g.x0} y0 {g.y0} "
                 f"(dx/dy {regular_ratio(g):.3f} of a regular hex's); residuals rms {self.fit.rms_px:.2f} px, "
                 f"max {self.fit.max_px:.2f} px"]
        for r in self.fit.residuals:
            lines.append(f"  {g.label(r.point.hex)}: listed ({r.point.x:g}, {r.point.y:g}), grid centre {r.centre}, "
                         f"{r.distance:.2f} px")
        return lines


def calibrate_map(model: HexGrid, toml_path: Path) -> Calibrated:
    """Fit the board of a map toml (``model``: the map's grid from its [grid]) to its
    [board.points] and write the calibration into its [board]."""
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8")).get("board")
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise BoardError(f"{toml_path.name}: {err}") from None
    if not isinstance(data, dict):
        raise BoardError(f"{toml_path.name}: no [board] table (image = \"<scan file>\", source, [board.points])")
    try:
        image = image_path(toml_path.parent, data.get("image"))
    except BoardError as err:
        raise BoardError(f"{toml_path.name}: [board] image {err}") from None
    points, bad = parse_points(data.get("points") or {}, model)
    if bad:
        raise BoardError(f"{toml_path.name}: " + "; ".join(bad))
    result = calibrate(model, points, image_size(image))
    return Calibrated(toml_path, image, result, write_calibration(toml_path, result.grid))


def regular_ratio(grid: HexGrid) -> float:
    """dx / dy against a regular hex's (1.0 = regular; a scan's own may differ a little)."""
    return grid.dx / grid.dy / SQRT3_2
