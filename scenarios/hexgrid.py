"""Hex grid geometry: printed hex labels, cube coordinates, pixels, searches.

After Red Blob Games' hex-grid guide, with one twist: the pixel side does not
use the guide's formulas but exactly those of VASSAL 3.7.26's ``HexGrid`` and
``HexGridNumbering`` (``getCenterPoint``, ``getRawColumn``, ``getRawRow``,
``getRow``, ``getColumn``, ``getName``).  The map image we draw and the grid
VASSAL overlays on it therefore cannot drift apart, and a hex label we compute
is the label VASSAL reports for the same pixel.

Coordinate types, from the printed map outwards:

``Hex``      the printed label's two numbers (column, row) — what rulebooks use.
``Raw``      VASSAL's raw column/row (``getRawColumn``/``getRawRow``), in the
             grid's own frame (x and y swapped for sideways grids).
``Cube``     cube coordinates for distance, neighbours and ranges.  VASSAL's
             own ``range()`` converts raw cells as "odd-q" offset coordinates;
             so do we.

``HexGrid`` ties them together for one map: its numbering convention (which
label columns are shifted, first column/row numbers, digits, orientation) and
its pixel layout (hex width/height and origin, VASSAL's ``dx``, ``dy``,
``x0``, ``y0``).  The maps we draw use whole pixel sizes with an even hex height
so that VASSAL's integer truncations give exactly the centres we compute (the
engine computes some centres with ``(int)(dy/2)`` and others with ``dy/2``).
A scanned board is straightened onto the map's own grid (scenarios.board), so
its sizes are whole too.  On any grid, fractional sizes included (a board taken
over from another module), ``center`` and ``raw_at`` truncate and round as the
engine does, so they give its centres and labels, and ``snap`` gives where its
snapping leaves a moved piece (a pixel off the centre at most).
"""

from __future__ import annotations

import functools
import heapq
import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Sequence

# ---------------------------------------------------------------------------
# Coordinate types
# ---------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Hex:
    """A hex as printed on the map: label column and row numbers.

    "0216" on a map with two-digit columns and rows is ``Hex(2, 16)``.  Use
    ``HexGrid.label``/``HexGrid.parse`` to convert to and from text, because
    the number of digits belongs to the map.
    """

    col: int
    row: int


@dataclass(frozen=True)
class Raw:
    """VASSAL's raw cell (column, row) in the grid's own (possibly swapped) frame."""

    c: int
    r: int


@dataclass(frozen=True)
class Cube:
    q: int
    r: int
    s: int

    def __post_init__(self) -> None:
        if self.q + self.r + self.s != 0:
            raise ValueError(f"cube coordinates must sum to 0: {self}")

    def __add__(self, other: "Cube") -> "Cube":
        return Cube(self.q + other.q, self.r + other.r, self.s + other.s)

    def __sub__(self, other: "Cube") -> "Cube":
        return Cube(self.q - other.q, self.r - other.r, self.s - other.s)

    def length(self) -> int:
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2

    def distance(self, other: "Cube") -> int:
        return (self - other).length()


CUBE_DIRECTIONS = (
    Cube(1, 0, -1),
    Cube(1, -1, 0),
    Cube(0, -1, 1),
    Cube(-1, 0, 1),
    Cube(-1, 1, 0),
    Cube(0, 1, -1),
)


def raw_to_cube(raw: Raw) -> Cube:
    """Odd-q offset (odd raw columns shoved down) to cube, as VASSAL's range()."""
    q = raw.c
    r = raw.r - (raw.c - (raw.c & 1)) // 2
    return Cube(q, r, -q - r)


def cube_to_raw(cube: Cube) -> Raw:
    c = cube.q
    r = cube.r + (cube.q - (cube.q & 1)) // 2
    return Raw(c, r)


@dataclass(frozen=True, order=True)
class Hexside:
    """The side between two adjacent hexes, as an unordered pair.

    Built only through ``between`` so that (a, b) and (b, a) are the same
    hexside; rules about rivers and roads compare hexsides, never directions.
    """

    a: Hex
    b: Hex

    @staticmethod
    def between(x: Hex, y: Hex) -> "Hexside":
        if x == y:
            raise ValueError(f"a hexside needs two different hexes, got {x} twice")
        return Hexside(*sorted((x, y)))

    def other(self, hex: Hex) -> Hex:
        if hex == self.a:
            return self.b
        if hex == self.b:
            return self.a
        raise ValueError(f"{hex} is not on hexside {self}")


# ---------------------------------------------------------------------------
# Numbering convention and pixel layout of one map
# ---------------------------------------------------------------------------

SQRT3_2 = math.sqrt(3) / 2


def java_int(x: float) -> int:
    """Java's (int) cast: truncation toward zero."""
    return int(x)


def java_round(x: float) -> int:
    """Java's Math.round: floor(x + 0.5)."""
    return math.floor(x + 0.5)


def java_mod2(n: int) -> int:
    """Java's n % 2 keeps the sign of n (-1 % 2 == -1)."""
    return int(math.fmod(n, 2))


@dataclass(frozen=True)
class HexGrid:
    """One map's hex numbering convention and pixel layout.

    Attributes mirror VASSAL's HexGrid / HexGridNumbering so ``modgen`` can
    write them unchanged:

    - ``sideways``: False = flat-topped hexes in vertical columns; True =
      pointy-topped hexes in horizontal rows (VASSAL swaps x and y).
    - ``dx``, ``dy``: distance between columns and hex height, in pixels.  Whole
      numbers for the maps we draw (``build``) and the scans we straighten onto
      them (scenarios.board); VASSAL allows fractional ones (doubles).
    - ``x0``, ``y0``: centre of raw cell (0, 0), board-local pixels (whole
      numbers: VASSAL's origin is a Point).
    - ``h_off``, ``v_off``: added to raw column/row to give label numbers.
    - ``stagger``: VASSAL's stagger flag (odd raw columns number one higher).
    - ``h_leading``, ``v_leading``: extra zeros below 10, 100... (1 -> "05").
    - ``h_descend``, ``v_descend``: numbers decrease left->right / top->bottom;
      these need the board size (VASSAL's getMaxColumns/getMaxRows).
    - ``first_col``..``last_col``, ``first_row``..``last_row``: label ranges
      of the hexes that exist on this map.
    - ``width``, ``height``: board image size in pixels.

    For sideways grids the VASSAL "column" runs down the screen, so our
    printed column (left to right) is VASSAL's row and vice versa; ``first``
    is then "V" so that the label still prints the screen column first.
    """

    dx: float
    dy: float
    x0: int
    y0: int
    first_col: int
    last_col: int
    first_row: int
    last_row: int
    width: int
    height: int
    sideways: bool = False
    h_off: int = 0
    v_off: int = 0
    stagger: bool = False
    h_leading: int = 1
    v_leading: int = 1
    h_descend: bool = False
    v_descend: bool = False

    # -- labels ------------------------------------------------------------

    @property
    def first(self) -> str:
        return "V" if self.sideways else "H"

    def label(self, hex: Hex) -> str:
        """The printed label, e.g. ``Hex(2, 16)`` -> "0216"."""
        col_lead, row_lead = (
            (self.v_leading, self.h_leading) if self.sideways else (self.h_leading, self.v_leading)
        )
        return _number_name(hex.col, col_lead) + _number_name(hex.row, row_lead)

    def parse(self, text: str) -> Hex:
        """"0216" -> ``Hex(2, 16)``; raises ValueError on anything else."""
        t = text.strip()
        col_lead = self.v_leading if self.sideways else self.h_leading
        row_lead = self.h_leading if self.sideways else self.v_leading
        col_digits, row_digits = col_lead + 1, row_lead + 1
        if not t.isdigit() or len(t) < col_digits + row_digits:
            raise ValueError(f"not a hex label: {text!r}")
        # The row takes its fixed digits from the right; the column the rest
        # (so 3-digit columns like "10203" still parse with 2-digit rows).
        return Hex(int(t[: len(t) - row_digits]), int(t[len(t) - row_digits:]))

    def is_on_map(self, hex: Hex) -> bool:
        return self.first_col <= hex.col <= self.last_col and self.first_row <= hex.row <= self.last_row

    def hexes(self) -> Iterator[Hex]:
        for col in range(self.first_col, self.last_col + 1):
            for row in range(self.first_row, self.last_row + 1):
                yield Hex(col, row)

    # -- VASSAL numbering (label numbers <-> raw cells) -----------------------

    def _max_rows(self) -> int:
        # As HexGridNumbering.getMaxRows: height / hexWidth (sic) in the engine.
        return math.floor(self.height / self.dx + 0.5)

    def _max_columns(self) -> int:
        return math.floor(self.width / self.dy + 0.5)

    def _vassal_col_row(self, hex: Hex) -> tuple[int, int]:
        """Our printed (col, row) -> VASSAL numbering (column, row) values."""
        return (hex.row, hex.col) if self.sideways else (hex.col, hex.row)

    def to_raw(self, hex: Hex) -> Raw:
        """Label numbers -> raw cell, as HexGridNumbering.getCenterPoint."""
        vcol, vrow = self._vassal_col_row(hex)
        col = vcol - self.h_off
        row = vrow - self.v_off
        if self.stagger and java_mod2(col) != 0:
            descending = self.h_descend if self.sideways else self.v_descend
            row = row + 1 if descending else row - 1
        if self.sideways:
            if self.v_descend:
                col = self._max_rows() - col
            if self.h_descend:
                row = self._max_columns() - row
        else:
            if self.h_descend:
                col = self._max_columns() - col
            if self.v_descend:
                row = self._max_rows() - row
        return Raw(col, row)

    def from_raw(self, raw: Raw) -> Hex:
        """Raw cell -> label numbers, as HexGridNumbering.getColumn/getRow."""
        col = raw.c
        if self.v_descend and self.sideways:
            col = self._max_rows() - col
        if self.h_descend and not self.sideways:
            col = self._max_columns() - col
        row = raw.r
        if self.v_descend and not self.sideways:
            row = self._max_rows() - row
        if self.h_descend and self.sideways:
            row = self._max_columns() - row
        if self.stagger and java_mod2(raw.c) != 0:
            descending = self.h_descend if self.sideways else self.v_descend
            row = row - 1 if descending else row + 1
        vcol, vrow = col + self.h_off, row + self.v_off
        return Hex(vrow, vcol) if self.sideways else Hex(vcol, vrow)

    # -- pixels ------------------------------------------------------------

    def _unrotate(self, x: int, y: int) -> tuple[int, int]:
        return (y, x) if self.sideways else (x, y)

    def center(self, hex: Hex) -> tuple[int, int]:
        """Board-local pixel centre, exactly HexGridNumbering.getCenterPoint."""
        raw = self.to_raw(hex)
        x = java_int(raw.c * self.dx) + self.x0
        if java_mod2(raw.c) == 0:
            y = java_int(raw.r * self.dy)
        else:
            y = java_int(raw.r * self.dy + self.dy / 2)
        y += self.y0
        return self._unrotate(x, y)

    def raw_at(self, x: int, y: int) -> Raw:
        """Raw cell under a board-local pixel, exactly HexGrid.getRawColumn/Row."""
        px, py = self._unrotate(x, y)
        c = math.floor((px - self.x0) / self.dx + 0.5)
        nx = java_round((px - self.x0) / self.dx)
        if java_mod2(nx) == 0:
            r = java_round((py - self.y0) / self.dy)
        else:
            r = java_round((py - self.y0 - self.dy / 2) / self.dy)
        return Raw(c, r)

    def snap(self, x: int, y: int) -> tuple[int, int]:
        """Where VASSAL snaps a piece dropped at a board-local pixel: HexGrid.snapToHex
        (hexX/hexY, no snap scale).  The same as ``center`` of that hex on whole-pixel grids;
        on a fractional one it may be a pixel off, since the engine truncates differently."""
        px, py = self._unrotate(x, y)
        col = math.floor((px - self.x0 + self.dx / 2) / self.dx)
        sx = java_int(self.dx * col + self.x0)
        if java_mod2(col) == 0:
            sy = java_int(self.dy * math.floor((py - self.y0 + self.dy / 2) / self.dy) + self.y0)
        else:
            sy = java_int(self.dy * math.floor((py - self.y0) / self.dy) + java_int(self.dy / 2) + self.y0)
        return self._unrotate(sx, sy)

    def hex_at(self, x: int, y: int) -> Hex:
        """The hex VASSAL names for a board-local pixel."""
        return self.from_raw(self.raw_at(x, y))

    def corners(self, hex: Hex) -> list[tuple[float, float]]:
        """The six corners, for drawing: a flat-topped hex of width 4/3*dx
        (columns overlap by a third) and height dy, rotated when sideways."""
        cx, cy = self.center(hex)
        half_w = self.dx * 2 / 3  # centre to left/right corner
        quarter = self.dx / 3
        half_h = self.dy / 2
        pts = [
            (half_w, 0.0),
            (quarter, half_h),
            (-quarter, half_h),
            (-half_w, 0.0),
            (-quarter, -half_h),
            (quarter, -half_h),
        ]
        if self.sideways:
            pts = [(b, a) for a, b in pts]
        return [(cx + a, cy + b) for a, b in pts]

    def hexside_segment(self, side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corners shared by the hexes of a hexside (for drawing rivers)."""
        ca, cb = self.corners(side.a), self.corners(side.b)
        shared = [p for p in ca if any(abs(p[0] - q[0]) < 1.5 and abs(p[1] - q[1]) < 1.5 for q in cb)]
        if len(shared) < 2:
            # Fall back to the perpendicular bisector segment (non-regular hexes).
            (ax, ay), (bx, by) = self.center(side.a), self.center(side.b)
            mx, my = (ax + bx) / 2, (ay + by) / 2
            vx, vy = (by - ay) / 2, -(bx - ax) / 2
            scale = 1 / math.sqrt(3)
            return (mx + vx * scale, my + vy * scale), (mx - vx * scale, my - vy * scale)
        return shared[0], shared[1]

    # -- cube geometry -------------------------------------------------------

    def to_cube(self, hex: Hex) -> Cube:
        return raw_to_cube(self.to_raw(hex))

    def from_cube(self, cube: Cube) -> Hex:
        return self.from_raw(cube_to_raw(cube))

    def distance(self, a: Hex, b: Hex) -> int:
        return self.to_cube(a).distance(self.to_cube(b))

    def neighbours(self, hex: Hex, on_map_only: bool = True) -> list[Hex]:
        """The six adjacent hexes (fewer at the map edge when ``on_map_only``)."""
        c = self.to_cube(hex)
        result = [self.from_cube(c + d) for d in CUBE_DIRECTIONS]
        if on_map_only:
            result = [h for h in result if self.is_on_map(h)]
        return result

    def are_adjacent(self, a: Hex, b: Hex) -> bool:
        return self.distance(a, b) == 1

    def within(self, hex: Hex, radius: int, on_map_only: bool = True) -> list[Hex]:
        """Every hex at distance <= radius (Red Blob's range loop)."""
        centre = self.to_cube(hex)
        found = []
        for q in range(-radius, radius + 1):
            for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1):
                h = self.from_cube(centre + Cube(q, r, -q - r))
                if not on_map_only or self.is_on_map(h):
                    found.append(h)
        return found

    # -- building a grid -------------------------------------------------------

    @staticmethod
    def build(
        *,
        first_col: int,
        last_col: int,
        first_row: int,
        last_row: int,
        hex_height: int = 88,
        shifted_columns: str = "even",
        stagger: bool = False,
        sideways: bool = False,
        col_digits: int = 2,
        row_digits: int = 2,
        margin: int | None = None,
    ) -> "HexGrid":
        """A grid laid out so that every on-map hex fits the board with a margin.

        ``shifted_columns`` says which printed columns sit half a hex lower
        ("even" or "odd"; for sideways grids: which printed rows sit half a hex
        to the right).  ``hex_height`` is rounded up to an even number and
        ``dx`` to the nearest whole pixel (see the module docstring).
        """
        if shifted_columns not in ("even", "odd"):
            raise ValueError("shifted_columns must be 'even' or 'odd'")
        dy = hex_height + (hex_height % 2)
        dx = round(dy * SQRT3_2)
        margin = dy // 2 if margin is None else margin
        # VASSAL shifts odd raw columns; raw = label - h_off, so the parity of
        # h_off decides which printed columns are shifted.
        first_v, last_v = (first_row, last_row) if sideways else (first_col, last_col)
        want_odd_h_off = shifted_columns == "even"
        h_off = first_v if (first_v % 2 == 1) == want_odd_h_off else first_v - 1
        v_first = first_col if sideways else first_row
        probe = HexGrid(
            dx=dx, dy=dy, x0=0, y0=0,
            first_col=first_col, last_col=last_col, first_row=first_row, last_row=last_row,
            width=0, height=0, sideways=sideways, h_off=h_off, v_off=v_first, stagger=stagger,
            h_leading=col_digits - 1 if not sideways else row_digits - 1,
            v_leading=row_digits - 1 if not sideways else col_digits - 1,
        )
        xs, ys = [], []
        for h in probe.hexes():
            x, y = probe.center(h)
            xs.append(x)
            ys.append(y)
        half_w = math.ceil(dx * 2 / 3) if not sideways else dy // 2
        half_h = dy // 2 if not sideways else math.ceil(dx * 2 / 3)
        shift_x = margin + half_w - min(xs)
        shift_y = margin + half_h - min(ys)
        ox, oy = (shift_y, shift_x) if sideways else (shift_x, shift_y)
        width = max(xs) + shift_x + half_w + margin
        height = max(ys) + shift_y + half_h + margin
        return HexGrid(
            dx=dx, dy=dy, x0=ox, y0=oy,
            first_col=first_col, last_col=last_col, first_row=first_row, last_row=last_row,
            width=width, height=height, sideways=sideways, h_off=h_off, v_off=v_first,
            stagger=stagger, h_leading=probe.h_leading, v_leading=probe.v_leading,
        )

    def scaled(self, factor: int) -> "HexGrid":
        """The same grid at an integer multiple of the pixel size (2x art)."""
        from dataclasses import replace

        return replace(
            self, dx=self.dx * factor, dy=self.dy * factor, x0=self.x0 * factor,
            y0=self.y0 * factor, width=self.width * factor, height=self.height * factor,
        )


def _number_name(value: int, leading: int) -> str:
    """VASSAL's RegularGridNumbering.getName for numeric labels."""
    text = "-" if value < 0 else ""
    value = abs(value)
    while leading > 0 and value < 10 ** leading:
        text += "0"
        leading -= 1
    return text + str(value)


# ---------------------------------------------------------------------------
# Cost-bounded search (Dijkstra)
# ---------------------------------------------------------------------------

StepCost = Callable[[Hex, Hex], float | None]


@dataclass
class SearchResult:
    """Costs and parents of a multi-source Dijkstra search.

    ``origin[h]`` is the source the cheapest path to ``h`` started from, so
    "which supply source feeds this unit" is answered by the same search.
    """

    cost: dict[Hex, float]
    parent: dict[Hex, Hex | None]
    origin: dict[Hex, Hex]

    def reached(self, hex: Hex) -> bool:
        return hex in self.cost

    def path_to(self, hex: Hex) -> list[Hex]:
        """The path from its source to ``hex`` (inclusive), or [] if unreached."""
        if hex not in self.parent:
            return []
        path = [hex]
        while (prev := self.parent[path[-1]]) is not None:
            path.append(prev)
        path.reverse()
        return path


def search(
    grid: HexGrid,
    sources: Iterable[Hex] | dict[Hex, float],
    step_cost: StepCost,
    max_cost: float = math.inf,
    neighbours: Callable[[Hex], Iterable[Hex]] | None = None,
) -> SearchResult:
    """Cheapest paths from several sources at once.

    ``step_cost(a, b)`` prices moving from hex ``a`` into adjacent hex ``b``;
    it returns None where the move is not allowed (blocked hex, blocked
    hexside, enemy ZOC...).  Costs must be non-negative.  One search for all
    sources is how every unit of a side gets its supply status at once.

    With the grid's own neighbours and sources on the grid, the search walks
    the grid's ``HexIndex`` (neighbours worked out once per grid) instead of
    recomputing neighbours through cube coordinates for every hex it settles;
    the answer is the same, ties included.
    """
    start = dict(sources) if isinstance(sources, dict) else {h: 0.0 for h in sources}
    if neighbours is None:
        index = hex_index(grid)
        if all(h in index.number for h in start):
            return _search_on_index(index, start, step_cost, max_cost)
    adjacent = neighbours or grid.neighbours
    cost: dict[Hex, float] = {}
    parent: dict[Hex, Hex | None] = {}
    origin: dict[Hex, Hex] = {}
    frontier: list[tuple[float, int, Hex, Hex | None, Hex]] = []
    counter = 0
    for h, c in start.items():
        heapq.heappush(frontier, (c, counter, h, None, h))
        counter += 1
    while frontier:
        c, _, h, prev, src = heapq.heappop(frontier)
        if h in cost:
            continue
        cost[h] = c
        parent[h] = prev
        origin[h] = src
        for n in adjacent(h):
            if n in cost:
                continue
            step = step_cost(h, n)
            if step is None:
                continue
            if step < 0:
                raise ValueError(f"negative step cost {step} from {h} to {n}")
            nc = c + step
            if nc <= max_cost:
                heapq.heappush(frontier, (nc, counter, n, h, src))
                counter += 1
    return SearchResult(cost=cost, parent=parent, origin=origin)


# ---------------------------------------------------------------------------
# The same search over hex numbers, for whole maps searched many times
# ---------------------------------------------------------------------------

#: Per hex number: the steps out of it, as (neighbour number, cost of the step).
Edges = Sequence[Sequence[tuple[int, float]]]


class HexIndex:
    """A grid's hexes numbered 0..n-1, with each hex's neighbours as numbers.

    Working out a neighbour goes through cube coordinates and builds several
    dataclass objects; a supply trace over a 3,900-hex map does that tens of
    thousands of times.  The neighbours depend only on the grid, so they are
    worked out once here (``hex_index`` keeps one index per grid) and a search
    then moves between ints.  ``neighbours[i]`` lists the on-map neighbours of
    ``hexes[i]`` in the order of ``HexGrid.neighbours``, so searches on the
    index settle ties exactly as searches on Hex objects do.
    """

    def __init__(self, grid: HexGrid) -> None:
        self.grid = grid
        self.hexes: tuple[Hex, ...] = tuple(grid.hexes())
        self.number: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.number[n] for n in grid.neighbours(h)) for h in self.hexes
        )

    def __len__(self) -> int:
        return len(self.hexes)

    def flags(self, hexes: Iterable[Hex]) -> bytearray:
        """One byte per hex number: 1 for the given hexes (those not on the grid are ignored)."""
        marked = bytearray(len(self.hexes))
        for h in hexes:
            i = self.number.get(h)
            if i is not None:
                marked[i] = 1
        return marked

    def edges(self, step_cost: StepCost) -> tuple[tuple[tuple[int, float], ...], ...]:
        """Every allowed step priced once: ``step_cost(a, b)`` for each hex and neighbour (None
        leaves the step out).  For costs that depend only on the map, to be kept with the map."""
        hexes = self.hexes
        found = []
        for i, out in enumerate(self.neighbours):
            steps = []
            for j in out:
                cost = step_cost(hexes[i], hexes[j])
                if cost is None:
                    continue
                if cost < 0:
                    raise ValueError(f"negative step cost {cost} from {hexes[i]} to {hexes[j]}")
                steps.append((j, cost))
            found.append(tuple(steps))
        return tuple(found)

    def uniform_edges(self, cost: float = 1.0) -> tuple[tuple[tuple[int, float], ...], ...]:
        """Every step to a neighbour at the same cost (counting hexes)."""
        return tuple(tuple((j, cost) for j in out) for out in self.neighbours)


@functools.lru_cache(maxsize=16)
def hex_index(grid: HexGrid) -> HexIndex:
    """The grid's index, built on first use and kept (a grid is frozen, so it can key the cache)."""
    return HexIndex(grid)


@dataclass
class IndexedSearchResult:
    """Costs and parents of ``search_indexed``, by hex number.

    ``cost[i]`` is math.inf and ``parent[i]``/``origin[i]`` are -1 where hex
    ``i`` was not reached; ``order`` lists the reached hexes in the order the
    search settled them (cheapest first).
    """

    index: HexIndex
    cost: list[float]
    parent: list[int]
    origin: list[int]
    order: list[int]

    def reached(self, i: int) -> bool:
        return self.cost[i] < math.inf

    def path_to(self, i: int) -> list[int]:
        """Hex numbers from the source to ``i`` (inclusive), or [] if unreached."""
        if not self.reached(i):
            return []
        path = [i]
        while (prev := self.parent[path[-1]]) >= 0:
            path.append(prev)
        path.reverse()
        return path

    def to_result(self) -> SearchResult:
        """The same answer keyed by Hex, as ``search`` gives it."""
        hexes = self.index.hexes
        return SearchResult(
            cost={hexes[i]: self.cost[i] for i in self.order},
            parent={hexes[i]: (hexes[self.parent[i]] if self.parent[i] >= 0 else None) for i in self.order},
            origin={hexes[i]: hexes[self.origin[i]] for i in self.order},
        )


def search_indexed(
    index: HexIndex,
    sources: Iterable[int] | dict[int, float],
    edges: Edges,
    max_cost: float = math.inf,
    blocked: bytearray | None = None,
    ends: bytearray | None = None,
) -> IndexedSearchResult:
    """``search`` over hex numbers with step costs priced in advance, for hot callers.

    ``edges`` (``HexIndex.edges``) holds what depends only on the map; what
    changes from one call to the next is given as flags by hex number:
    ``blocked[j]`` - the search may not enter ``j``; ``ends[i]`` - the search
    may reach ``i`` but not go on from it (a trace run backwards, from the
    source outward, uses this for hexes a unit may not leave toward it).
    Sources are never "entered", so a blocked source still starts the search.
    Ties are settled as in ``search``: by the order the steps were found.
    """
    start = dict(sources) if isinstance(sources, dict) else {i: 0.0 for i in sources}
    size = len(index.hexes)
    # cost[j] and parent[j]: the cheapest way to j queued so far, final once j is settled.  A step
    # is queued only if it is strictly cheaper than the one queued before it (a step no cheaper
    # would be popped after it and skipped), so the entry that settles j is its cheapest and
    # earliest; the others come out later with a higher cost and are dropped.
    cost = [math.inf] * size
    parent = [-1] * size
    origin = [-1] * size
    closed = blocked if blocked is not None else bytearray(size)
    stop = ends if ends is not None else bytearray(size)
    order: list[int] = []
    frontier = []
    counter = 0
    for i, c in start.items():
        frontier.append((c, counter, i))
        cost[i] = c
        counter += 1
    heapq.heapify(frontier)
    pop, push = heapq.heappop, heapq.heappush
    while frontier:
        c, _, i = pop(frontier)
        if c > cost[i] or origin[i] >= 0:
            continue
        prev = parent[i]
        origin[i] = i if prev < 0 else origin[prev]
        order.append(i)
        if stop[i]:
            continue
        for j, step in edges[i]:
            if closed[j]:
                continue
            nc = c + step
            if nc < cost[j] and nc <= max_cost:
                cost[j] = nc
                parent[j] = i
                push(frontier, (nc, counter, j))
                counter += 1
    return IndexedSearchResult(index, cost, parent, origin, order)


def breadth_first_indexed(
    index: HexIndex,
    sources: Iterable[int],
    max_steps: int,
    blocked: bytearray | None = None,
    ends: bytearray | None = None,
) -> IndexedSearchResult:
    """``search_indexed`` where every step costs 1 and every source 0 (a trace that counts hexes),
    done breadth first: no priority queue, each hex queued once.  Gives exactly what
    ``search_indexed(index, sources, index.uniform_edges(1.0), max_steps, blocked, ends)`` gives,
    ties included: the first hex to reach a neighbour is its parent in both."""
    size = len(index.hexes)
    cost = [math.inf] * size
    parent = [-1] * size
    origin = [-1] * size
    seen = bytearray(blocked) if blocked is not None else bytearray(size)
    stop = ends if ends is not None else bytearray(size)
    level: list[int] = []
    for i in sources:
        if origin[i] < 0:
            cost[i] = 0.0
            origin[i] = i
            seen[i] = 1
            level.append(i)
    order = list(level)
    neighbours = index.neighbours
    steps = 0
    while level and steps < max_steps:
        steps += 1
        step_cost = float(steps)
        reached: list[int] = []
        for i in level:
            if stop[i]:
                continue
            for j in neighbours[i]:
                if seen[j]:
                    continue
                seen[j] = 1
                cost[j] = step_cost
                parent[j] = i
                origin[j] = origin[i]
                reached.append(j)
        order.extend(reached)
        level = reached
    return IndexedSearchResult(index, cost, parent, origin, order)


def _search_on_index(index: HexIndex, start: dict[Hex, float], step_cost: StepCost, max_cost: float) -> SearchResult:
    """``search`` with the grid's own neighbours, walking the index (see ``search``)."""
    hexes, number, neighbours = index.hexes, index.number, index.neighbours
    best = [math.inf] * len(hexes)
    cost: dict[Hex, float] = {}
    parent: dict[Hex, Hex | None] = {}
    origin: dict[Hex, Hex] = {}
    frontier: list[tuple[float, int, int, int, Hex]] = []
    counter = 0
    for h, c in start.items():
        heapq.heappush(frontier, (c, counter, number[h], -1, h))
        counter += 1
    settled = bytearray(len(hexes))
    while frontier:
        c, _, i, prev, src = heapq.heappop(frontier)
        if settled[i]:
            continue
        settled[i] = 1
        h = hexes[i]
        cost[h] = c
        parent[h] = hexes[prev] if prev >= 0 else None
        origin[h] = src
        for j in neighbours[i]:
            if settled[j]:
                continue
            n = hexes[j]
            step = step_cost(h, n)
            if step is None:
                continue
            if step < 0:
                raise ValueError(f"negative step cost {step} from {h} to {n}")
            nc = c + step
            if nc <= max_cost and nc < best[j]:
                best[j] = nc
                heapq.heappush(frontier, (nc, counter, j, i, src))
                counter += 1
    return SearchResult(cost=cost, parent=parent, origin=origin)


@dataclass
class Blocked:
    """Convenience step-cost wrapper: uniform cost with blocked hexes and hexsides."""

    hexes: set[Hex] = field(default_factory=set)
    hexsides: set[Hexside] = field(default_factory=set)
    cost: float = 1.0

    def __call__(self, a: Hex, b: Hex) -> float | None:
        if b in self.hexes or Hexside.between(a, b) in self.hexsides:
            return None
        return self.cost
