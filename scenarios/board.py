"""A scanned board: the published map's scan, straightened onto the map's own hex grid.

Most hand-made VASSAL modules show a scan of the printed map, and a maintainer who owns the game
has one.  A flatbed leaves it a little turned (the sheet not square on the glass), at its own
resolution, perhaps a little stretched or skewed.  The maintainer reads the centres of four or
more hexes off the scan and lists them in the map's toml; ``fit`` finds where the printed grid
lies on the scan by least squares, as an affine map from the grid's raw cells (VASSAL's
``HexGridNumbering.getCenterPoint``: column ``c``, row ``r`` plus half a row in odd columns)::

    scan pixel = origin + c * column + (r + (c odd) / 2) * row

(six numbers: ``origin``, and the ``column`` and ``row`` steps as vectors on the scan), reports what
it found (rotation, scale against the map's [grid], shear) and each listed centre's residual, and
refuses a scan that is not one a flatbed makes (turned more than 5 degrees, scaled outside 90-110 %
of the [grid], sheared) or a centre that does not lie where the others put it (a misread pixel, a
wrong label), saying what is off and by how much.  ``write_calibration`` records the fit in the
toml.  The module's board is the scan resampled (``art.board.straighten``) so that the map's own
regular grid, with an origin and size chosen to hold the whole scan, lies on the printed hexes: the
module's grid and the printed one agree by construction, and the hexes are the [grid]'s size, as
the counters are drawn for.

Standard library only, as the rest of ``scenarios``: image sizes are read from the file headers,
and the resampling itself is ``art``'s (Pillow).
"""

from __future__ import annotations

import math
import re
import struct
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from scenarios.hexgrid import Hex, HexGrid, java_mod2
from scenarios.model import Affine, BoardImage, BoardPoint, Source
from scenarios.textfiles import Unreadable, read_text

#: Image types a VASSAL board may be, by file suffix.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif")
#: A scan as it comes off a flatbed: turned at most this much (degrees), its hexes 90-110 % of the
#: map's [grid] hexes, its rows at most this far off square to its columns (degrees).
MAX_ROTATION = 5.0
SCALES = (0.90, 1.10)
MAX_SHEAR = 5.0
#: What the limits allow beyond themselves for the reading's own inexactness (centres read to the
#: nearest pixel turn a fit by some hundredths of a degree): degrees, and a share of the scale.
ROTATION_SLACK = 0.25
SCALE_SLACK = 0.01
#: A listed centre further than this share of a hex's height from where the fit puts it is refused
#: (a careful reading is a pixel or so off; a mislabelled hex a whole hex).
TOLERANCE = 0.04
#: Three centres fix the six numbers exactly; the fourth and more check the reading.
MIN_POINTS = 4
#: How many times a reading error the fit may carry to the farthest hex of the map: listed hexes
#: nearly on one line (a diagonal) leave the grid free to turn about it, and a pixel misread there
#: moves the far corners by many.  Hexes near the map's corners carry it about once.
MAX_SPREAD_ERROR = 2.0
#: The keys the calibration writes into [board], in order, and the comment it puts beside them.
CALIBRATION_KEYS = ("origin", "column", "row")
CALIBRATED = "   # calibrated by `modgen board` from [board.points]"
#: A TOML table header, and a key line (for writing the calibration into the maintainer's file).
_HEADER = re.compile(r"^\s*\[\[?\s*[A-Za-z0-9_.\"-]+\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_]+)\s*=")
_BOARD = re.compile(r"^\s*\[\s*board\s*\]\s*(#.*)?$")
#: Keys of the earlier calibration (an upright scan's VASSAL grid), replaced by the fit.
_OLD_KEYS = ("dx", "dy", "x0", "y0")


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
class ScanFit:
    """Where the printed grid lies on the scan: raw cell (c, r) at ``origin + c * column + v * row``,
    ``v`` = r, plus a half in odd columns.  Vectors in scan pixels, on the page (a sideways grid's
    columns run down it)."""

    origin: tuple[float, float]
    column: tuple[float, float]
    row: tuple[float, float]

    def centre(self, model: HexGrid, hex: Hex) -> tuple[float, float]:
        u, v = _cell(model, hex)
        return (self.origin[0] + u * self.column[0] + v * self.row[0],
                self.origin[1] + u * self.column[1] + v * self.row[1])


@dataclass(frozen=True)
class Shape:
    """How the scan lies against the map's [grid]: turned (degrees, clockwise positive), scaled
    (its column spacing and hex height over the [grid]'s), sheared (its rows' angle off square to
    its columns, degrees)."""

    rotation: float
    column_scale: float
    row_scale: float
    shear: float

    def problems(self, model: HexGrid, fit: ScanFit) -> list[str]:
        """What is off beyond a flatbed's scan, by how much, and what to do."""
        found = []
        if abs(self.rotation) > MAX_ROTATION + ROTATION_SLACK:
            way, back = ("clockwise", "anticlockwise") if self.rotation > 0 else ("anticlockwise", "clockwise")
            found.append(f"rotation: the scan is turned {abs(self.rotation):.1f} degrees {way} (at most "
                         f"{MAX_ROTATION:g} is straightened): turn it {abs(self.rotation):.1f} degrees {back} in "
                         "an image editor, or lay the map square on the glass and scan it again; then read the "
                         "centres again")
        low, high = SCALES
        if not all(low - SCALE_SLACK <= scale <= high + SCALE_SLACK for scale in (self.column_scale, self.row_scale)):
            height = math.hypot(*fit.row)
            resize = 2 / (self.column_scale + self.row_scale)
            found.append(f"scale: the scan's hexes are {self.row_scale:.0%} of the map's high and its columns "
                         f"{self.column_scale:.0%} as far apart ({height:.1f} px and {math.hypot(*fit.column):.1f} px "
                         f"on the scan against [grid] hex_height {model.dy:g} and {model.dx:g}; "
                         f"{low:.0%}-{high:.0%} is straightened): resize the scan to {resize:.0%} (or scan it "
                         f"at {resize:.0%} of the resolution), or set hex_height = {_even(height)} in [grid] "
                         "to draw the map at the scan's size; then read the centres again")
        if abs(self.shear) > MAX_SHEAR + ROTATION_SLACK:
            found.append(f"shear: the scan's rows run {abs(self.shear):.1f} degrees off square to its columns "
                         f"(at most {MAX_SHEAR:g} is straightened; a flatbed skews far less): a listed centre is "
                         "probably misread or mislabelled")
        return found


@dataclass(frozen=True)
class Residual:
    """How far the fit puts a listed hex's centre from where the maintainer read it."""

    point: BoardPoint
    at: tuple[float, float]  # where the fit puts the hex's centre on the scan

    @property
    def distance(self) -> float:
        return math.hypot(self.point.x - self.at[0], self.point.y - self.at[1])


@dataclass(frozen=True)
class BoardFit:
    """The fit, the board it makes (the map's grid on the straightened scan) and how it fits."""

    scan: ScanFit
    shape: Shape
    grid: HexGrid  # the board's grid: the map's, with the straightened board's origin and size
    to_scan: Affine  # board pixel -> scan pixel
    residuals: tuple[Residual, ...]

    @property
    def max_px(self) -> float:
        return max(r.distance for r in self.residuals)

    @property
    def rms_px(self) -> float:
        return math.sqrt(sum(r.distance ** 2 for r in self.residuals) / len(self.residuals))

    @property
    def limit_px(self) -> float:
        return TOLERANCE * math.hypot(*self.scan.row)

    def misses(self) -> list[str]:
        """Listed centres further from the fit than a careful reading would be."""
        return [f"{self.grid.label(r.point.hex)} at ({r.point.x:g}, {r.point.y:g}) is {r.distance:.1f} px from "
                f"({r.at[0]:.1f}, {r.at[1]:.1f}), where the fit through the listed centres puts it (more than "
                f"{self.limit_px:.1f} px, {TOLERANCE:.0%} of a hex): a misread centre or a wrong label"
                for r in self.residuals if r.distance > self.limit_px]

    def on_board(self, x: float, y: float) -> tuple[float, float]:
        """A scan pixel's place on the straightened board."""
        return self.to_scan.inverse()(x, y)


def fit(model: HexGrid, points: list[BoardPoint], size: tuple[int, int]) -> BoardFit:
    """Where ``model``'s grid (the map's [grid]) lies on a scan of ``size`` by the listed centres, and
    the straightened board; BoardError when the points cannot fix it."""
    if len(points) < MIN_POINTS:
        raise BoardError(f"{len(points)} point(s): list the centres of at least {MIN_POINTS} hexes (three fix "
                         "the grid, the others check your reading), far apart near the map's corners")
    cells = [_cell(model, p.hex) for p in points]
    across, down = ("rows", "columns") if model.sideways else ("columns", "rows")
    if len({model.to_raw(p.hex).c for p in points}) < 2:
        raise BoardError(f"all the points are in one of the grid's {across}: list hexes in two {across} or more")
    if len({model.to_raw(p.hex).r for p in points}) < 2:
        raise BoardError(f"all the points are level: list hexes of two {down} or more")
    try:
        ox, cx, rx = _least_squares(cells, [p.x for p in points])
        oy, cy, ry = _least_squares(cells, [p.y for p in points])
    except ZeroDivisionError:
        raise BoardError("the points lie on one line of hexes: list hexes off that line") from None
    gain, far = _error_gain(model, cells)
    if gain > MAX_SPREAD_ERROR:
        raise BoardError(f"the listed hexes lie too nearly on one line: a centre misread by a pixel would put the "
                         f"grid {gain:.1f} px off at {model.label(far)} (at most {MAX_SPREAD_ERROR:g}): list a hex "
                         f"near {model.label(far)} too, and hexes near the map's other corners")
    scan = ScanFit((ox, oy), (cx, cy), (rx, ry))
    grid, to_scan = straightened(model, scan, size)
    residuals = tuple(Residual(p, scan.centre(model, p.hex)) for p in points)
    return BoardFit(scan, shape_of(model, scan), grid, to_scan, residuals)


def calibrate(model: HexGrid, points: list[BoardPoint], size: tuple[int, int]) -> BoardFit:
    """``fit``, refusing a scan turned, scaled or sheared beyond a flatbed's, or a listed centre off
    the fit; the message says what is off and by how much, and which numbering or orientation the
    points do fit when another one does (a wrong [grid])."""
    result = fit(model, points, size)
    misses = result.misses()
    problems = result.shape.problems(model, result.scan) if not misses else []
    if not misses and not problems:
        return result
    hint = ""
    for name, other in _other_conventions(model):
        try:
            alternative = fit(other, points, size)
        except BoardError:
            continue
        if not alternative.misses() and not alternative.shape.problems(other, alternative.scan):
            hint = f"\nthe points do fit a grid with {name}: check [grid] in the map's toml"
            break
    if misses:
        odd = _the_odd_one(model, points, size)
        raise BoardError("a listed centre is not where the others put it:\n  " + "\n  ".join([odd] if odd else misses)
                         + hint)
    raise BoardError("the scan is not one that straightening can take:\n  " + "\n  ".join(problems) + hint)


def _the_odd_one(model: HexGrid, points: list[BoardPoint], size: tuple[int, int]) -> str | None:
    """The one listed centre the others agree against, said by name; None when no single one is.

    A least-squares fit spreads one wrong label over every centre, so each may miss by more than a
    careful reading: fitted without the wrong one, the others agree and it alone is off. Only when
    the others still number more than the three that fix the grid (so their agreement is checked)."""
    odd = []
    for index, point in enumerate(points):
        others = points[:index] + points[index + 1:]
        if len(others) < MIN_POINTS:
            return None
        try:
            without = fit(model, others, size)
        except BoardError:
            continue
        if without.misses():
            continue
        at = without.scan.centre(model, point.hex)
        off = math.hypot(point.x - at[0], point.y - at[1])
        if off > without.limit_px:
            odd.append(f"{model.label(point.hex)} at ({point.x:g}, {point.y:g}) is {off:.1f} px from "
                       f"({at[0]:.1f}, {at[1]:.1f}), where the other {len(others)} centres put it (they agree within "
                       f"{without.max_px:.1f} px): a wrong label or a misread centre")
    return odd[0] if len(odd) == 1 else None


def shape_of(model: HexGrid, scan: ScanFit) -> Shape:
    """The scan's rotation, scales and shear against the [grid]'s regular hexes."""
    column_ref, row_ref = ((0.0, 1.0), (1.0, 0.0)) if model.sideways else ((1.0, 0.0), (0.0, 1.0))
    turn_column = _angle(scan.column) - _angle(column_ref)
    turn_row = _angle(scan.row) - _angle(row_ref)
    shear = _wrapped(turn_column - turn_row)
    return Shape(rotation=_wrapped(turn_row + shear / 2), column_scale=math.hypot(*scan.column) / model.dx,
                 row_scale=math.hypot(*scan.row) / model.dy, shear=shear)


def straightened(model: HexGrid, scan: ScanFit, size: tuple[int, int]) -> tuple[HexGrid, Affine]:
    """The board the scan is resampled into: ``model``'s grid, its origin and size chosen so that the
    whole scan fits on the board (whole pixels, as VASSAL holds them), and each board pixel's place
    on the scan."""
    at_origin = _to_scan(model, scan, 0, 0)
    to_board = at_origin.inverse()
    corners = [to_board(x, y) for x in (-0.5, size[0] - 0.5) for y in (-0.5, size[1] - 0.5)]
    left = math.ceil(-min(x for x, _ in corners) - 0.5)
    top = math.ceil(-min(y for _, y in corners) - 0.5)
    width = math.floor(max(x for x, _ in corners) + 0.5) + left + 1
    height = math.floor(max(y for _, y in corners) + 0.5) + top + 1
    x0, y0 = (top, left) if model.sideways else (left, top)
    return replace(model, x0=x0, y0=y0, width=width, height=height), _to_scan(model, scan, x0, y0)


def _to_scan(model: HexGrid, scan: ScanFit, x0: int, y0: int) -> Affine:
    """Board pixel -> scan pixel, for the board grid of origin ``x0``, ``y0`` (the grid's frame)."""

    def place(x: float, y: float) -> tuple[float, float]:
        a, b = (y, x) if model.sideways else (x, y)
        u, v = (a - x0) / model.dx, (b - y0) / model.dy
        return (scan.origin[0] + u * scan.column[0] + v * scan.row[0],
                scan.origin[1] + u * scan.column[1] + v * scan.row[1])

    (c, f), (ax, dx), (by, ey) = place(0, 0), place(1, 0), place(0, 1)
    return Affine(ax - c, by - c, c, dx - f, ey - f, f)


def _cell(model: HexGrid, hex: Hex) -> tuple[float, float]:
    """A hex's raw column, and its raw row plus the half row of odd columns (VASSAL's centre)."""
    raw = model.to_raw(hex)
    return float(raw.c), raw.r + 0.5 * (java_mod2(raw.c) != 0)


def _least_squares(cells: list[tuple[float, float]], values: list[float]) -> tuple[float, float, float]:
    """``k0, ku, kv`` minimising the squares of ``value - (k0 + ku u + kv v)`` (the normal equations,
    solved by Cramer's rule; ZeroDivisionError when the cells are on one line)."""
    matrix = _normal(cells)
    det = _det(matrix)
    if abs(det) < 1e-9 * max(1.0, matrix[1][1] * matrix[2][2]):
        raise ZeroDivisionError("singular")
    rhs = (sum(values), sum(u * w for (u, _), w in zip(cells, values)), sum(v * w for (_, v), w in zip(cells, values)))
    return tuple(_det(tuple(tuple(rhs[i] if j == k else matrix[i][j] for j in range(3)) for i in range(3))) / det
                 for k in range(3))  # type: ignore[return-value]


def _error_gain(model: HexGrid, cells: list[tuple[float, float]]) -> tuple[float, Hex]:
    """How many pixels the fitted centre of the map's worst-placed hex moves for a pixel's error in
    the listed centres (the square root of its leverage, x' (X'X)^-1 x), and that hex."""
    matrix = _normal(cells)
    det = _det(matrix)
    inverse = [[_cofactor(matrix, j, i) / det for j in range(3)] for i in range(3)]
    worst, far = 0.0, next(model.hexes())
    for hex in model.hexes():
        x = (1.0, *_cell(model, hex))
        leverage = sum(x[i] * inverse[i][j] * x[j] for i in range(3) for j in range(3))
        if leverage > worst:
            worst, far = leverage, hex
    return math.sqrt(worst), far


def _normal(cells: list[tuple[float, float]]) -> tuple[tuple[float, float, float], ...]:
    """X'X of the design rows (1, u, v): the normal equations' matrix."""
    su, sv = sum(u for u, _ in cells), sum(v for _, v in cells)
    suv = sum(u * v for u, v in cells)
    return ((len(cells), su, sv), (su, sum(u * u for u, _ in cells), suv), (sv, suv, sum(v * v for _, v in cells)))


def _cofactor(m, i: int, j: int) -> float:
    rows = [r for k, r in enumerate(m) if k != i]
    (a, b), (c, d) = ([v for k, v in enumerate(r) if k != j] for r in rows)
    return (-1) ** (i + j) * (a * d - b * c)


def _det(m) -> float:
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def _angle(vector: tuple[float, float]) -> float:
    return math.degrees(math.atan2(vector[1], vector[0]))


def _wrapped(degrees: float) -> float:
    return (degrees + 180.0) % 360.0 - 180.0


def _even(pixels: float) -> int:
    return 2 * round(pixels / 2)


def _other_conventions(model: HexGrid) -> list[tuple[str, HexGrid]]:
    """The grid with the other shifted columns, and turned sideways or back."""
    own = "even" if java_mod2(model.h_off) != 0 else "odd"  # HexGrid.build: an odd h_off shifts even columns
    other = "odd" if own == "even" else "even"
    col_digits = (model.v_leading if model.sideways else model.h_leading) + 1
    row_digits = (model.h_leading if model.sideways else model.v_leading) + 1
    turned = HexGrid.build(first_col=model.first_col, last_col=model.last_col, first_row=model.first_row,
                           last_row=model.last_row, hex_height=round(model.dy), shifted_columns=own,
                           stagger=model.stagger, sideways=not model.sideways, col_digits=col_digits,
                           row_digits=row_digits)
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
    are hexes, the calibration is written, is a flatbed's scan and still puts every listed centre
    where it was read.  Problems come with the toml key they are about; ``command`` is what
    recalibrates (for the messages)."""
    problems: list[tuple[tuple[str, ...], str]] = []
    try:
        path = image_path(maps_dir, data.get("image"))
        size = image_size(path)
    except BoardError as err:
        return None, [(("board", "image"), f"[board] image {err}")]
    points, bad = parse_points(data.get("points") or {}, grid)
    problems += [(("board", "points"), text) for text in bad]
    scan = _calibration(data)
    if scan is None:
        problems.append((("board",), f"[board] is not calibrated (no {', '.join(CALIBRATION_KEYS)} as [x, y] "
                                     f"pixels): list {MIN_POINTS} or more hex centres in [board.points] and run "
                                     f"`{command}`"))
        return None, problems
    try:
        board_grid, to_scan = straightened(grid, scan, size)
    except ZeroDivisionError:
        return None, problems + [(("board", "column"), "[board] column and row are parallel: run "
                                                        f"`{command}`")]
    shape = shape_of(grid, scan)
    problems += [(("board",), f"[board] {text}") for text in shape.problems(grid, scan)]
    result = BoardFit(scan, shape, board_grid, to_scan, tuple(Residual(p, scan.centre(grid, p.hex)) for p in points))
    problems += [(("board", "points"), f"[board] calibration out of date: {text}; run `{command}`")
                 for text in result.misses()]
    return BoardImage(str(path), board_grid, tuple(points), source, to_scan), problems


def _calibration(data: dict) -> ScanFit | None:
    """``origin``, ``column`` and ``row`` of [board], each [x, y]; None when one is missing."""
    values = [data.get(k) for k in CALIBRATION_KEYS]
    if not all(isinstance(v, list) and len(v) == 2 and all(isinstance(n, (int, float)) and not isinstance(n, bool)
                                                           for n in v) for v in values):
        return None
    origin, column, row = (tuple(float(n) for n in v) for v in values)
    return ScanFit(origin, column, row)  # type: ignore[arg-type]


def write_calibration(toml_path: Path, scan: ScanFit) -> bool:
    """Write ``origin``, ``column`` and ``row`` of the fit into the toml's ``[board]`` table
    (replacing earlier ones, and the keys of the earlier upright calibration, else after its last
    key); True if the file changed.  Comments and everything else stay as the maintainer wrote them."""
    values = {"origin": _pair(scan.origin), "column": _pair(scan.column), "row": _pair(scan.row)}
    try:
        text = read_text(toml_path)
    except Unreadable as err:
        raise BoardError(str(err)) from None
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if _BOARD.match(line)), None)
    if start is None:
        raise BoardError(f"{toml_path.name}: no [board] table")
    end = next((i for i in range(start + 1, len(lines)) if _HEADER.match(lines[i])), len(lines))
    written = set()
    for i in range(end - 1, start, -1):
        m = _KEY.match(lines[i])
        if m and m.group(1) in _OLD_KEYS:
            del lines[i]
            end -= 1
        elif m and m.group(1) in values:
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


def _pair(values: tuple[float, float]) -> str:
    return "[" + ", ".join(f"{v:.4f}".rstrip("0").rstrip(".") for v in values) + "]"


@dataclass(frozen=True)
class Calibrated:
    """What calibrating one map's board did."""

    toml: Path
    image: Path
    fit: BoardFit
    changed: bool  # the toml's calibration was rewritten

    def report(self) -> list[str]:
        """Lines for the maintainer: how the scan lies, the board it makes, each listed centre's residual."""
        g, shape, scan = self.fit.grid, self.fit.shape, self.fit.scan
        lines = [f"{self.toml.name}: [board] {self.image.name}: turned {abs(shape.rotation):.2f} degrees "
                 f"{'clockwise' if shape.rotation >= 0 else 'anticlockwise'}, scale {shape.row_scale:.1%} "
                 f"(hex height {math.hypot(*scan.row):.2f} px) by {shape.column_scale:.1%} (column spacing "
                 f"{math.hypot(*scan.column):.2f} px) of the map's [grid], sheared {abs(shape.shear):.2f} degrees",
                 f"straightened: a {g.width}x{g.height} px board on the map's grid (dx {g.dx:g} dy {g.dy:g}, origin "
                 f"x0 {g.x0} y0 {g.y0}); residuals of the listed centres rms {self.fit.rms_px:.2f} px, max "
                 f"{self.fit.max_px:.2f} px (at most {self.fit.limit_px:.1f})"]
        for r in self.fit.residuals:
            lines.append(f"  {g.label(r.point.hex)}: listed ({r.point.x:g}, {r.point.y:g}), fitted "
                         f"({r.at[0]:.1f}, {r.at[1]:.1f}), {r.distance:.2f} px")
        return lines


def calibrate_map(model: HexGrid, toml_path: Path) -> Calibrated:
    """Fit the board of a map toml (``model``: the map's grid from its [grid]) to its
    [board.points] and write the calibration into its [board]."""
    try:
        data = tomllib.loads(read_text(toml_path)).get("board")
    except (Unreadable, tomllib.TOMLDecodeError) as err:
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
    return Calibrated(toml_path, image, result, write_calibration(toml_path, result.scan))
