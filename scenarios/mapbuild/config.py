"""What one map build needs to know, read from the two TOML files of a map.

``maps/<map>.toml`` belongs to the data engineer (grid and terrain legend);
``maps/<map>.geo.cfg`` belongs to the map builder: the book's scale, the
anchor hexes, the terrain-class mapping, thresholds and which lines to draw.
Keys and defaults are documented in docs/maps.md.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from scenarios.hexgrid import HexGrid
from scenarios.textfiles import Unreadable, read_text

# Generic terrain classes the classifier produces; geo.cfg maps them to the game's ids.
CLASSES = ("sea", "lake", "clear", "rough", "mountain", "city", "town")
# Where a class has no id in a game's legend, use the next one in this chain.
FALLBACK = {"lake": "sea", "mountain": "rough", "rough": "clear", "city": "town", "town": "clear"}


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class GridSpec:
    """The [grid] section of maps/<map>.toml, as the loader reads it."""

    columns: tuple[int, int]
    rows: tuple[int, int]
    shifted_columns: str = "even"
    stagger: bool = False
    sideways: bool = False
    hex_height: int = 88
    col_digits: int = 2
    row_digits: int = 2

    def grid(self, shifted_columns: str | None = None) -> HexGrid:
        return HexGrid.build(
            first_col=self.columns[0], last_col=self.columns[1], first_row=self.rows[0], last_row=self.rows[1],
            hex_height=self.hex_height, shifted_columns=shifted_columns or self.shifted_columns,
            stagger=self.stagger, sideways=self.sideways, col_digits=self.col_digits, row_digits=self.row_digits,
        )


@dataclass(frozen=True)
class Anchor:
    """A hex the rulebook puts at a known place."""

    label: str
    town: str
    weight: float = 1.0


@dataclass(frozen=True)
class LatitudeAnchor:
    """The point halfway between two hexes lies on a parallel (the 38th-parallel border)."""

    between: tuple[str, str]
    lat: float
    source: str = ""
    weight: float = 1.0


@dataclass(frozen=True)
class Thresholds:
    """Per-map classification thresholds; see docs/maps.md for how they were chosen."""

    sea_below: float = 0.4  # land fraction of the sample points below which a hex is sea
    rough_elevation: float = 400.0  # metres, mean over the hex
    rough_relief: float = 300.0  # metres, max - min within relief_radius_km
    mountain_elevation: float = 900.0
    mountain_relief: float = 700.0
    relief_radius_km: float = 8.0


@dataclass(frozen=True)
class Parallel:
    lat: float
    kind: str
    name: str


@dataclass(frozen=True)
class RowLine:
    """A line the rulebook itself defines along a hex row: the hexsides between (c, row) and (c+1, row)
    for c from first to last - 1 (with columns shifted alternately this is a zigzag with the
    unshifted hexes on one side and the shifted ones on the other)."""

    row: int
    columns: tuple[int, int]
    kind: str
    name: str
    source: str


@dataclass(frozen=True)
class GeoConfig:
    """maps/<map>.geo.cfg."""

    scale_km: float
    scale_source: str
    fit_scale: bool
    transform: str  # "similarity" (rotation, offset, one scale) or "affine" (rows and columns scaled apart)
    warp: bool  # rubber-sheet the fit so anchors land exactly (warp.py)
    warp_radius_km: float
    max_plain_residual_hexes: float  # with warp: the plain fit may miss an anchor by at most this
    anchors: tuple[Anchor, ...]
    latitude_anchors: tuple[LatitudeAnchor, ...]
    anchor_source: str
    conventions: tuple[str, ...]
    terrain_map: dict[str, str]
    thresholds: Thresholds
    rivers: tuple[str, ...]  # river names (geodata) drawn as hexsides; "*" = every named river
    river_kind: str
    major_rivers: tuple[str, ...]  # drawn with major_river_kind instead
    major_river_kind: str
    path_kinds: dict[str, str]  # geodata kind ("railway", "road") -> paths.csv kind
    parallels: tuple[Parallel, ...]
    row_lines: tuple[RowLine, ...]
    sea_cut_kind: str  # hexside kind where sea cuts two land hexes apart ("" = none): inlet, red_line
    crest_cut_kind: str  # hexside kind where a crest over crest_cut_m cuts them ("" = none): red_line
    crest_cut_m: float
    crest_cut_prominence_m: float
    town_features: dict[str, tuple[str, ...]]  # towns.csv kind -> feature kinds to generate
    city_names: tuple[str, ...]  # towns that are cities whatever their towns.csv kind
    city_extent_km: dict[str, float]  # big cities spread over the hexes this close to their centre
    force_land_kinds: tuple[str, ...]  # features.csv kinds whose hexes must be land
    terrain_from_features: dict[str, str]  # feature kind -> generic class (city/town)
    note: str = ""


@dataclass(frozen=True)
class MapConfig:
    game: str
    map_id: str
    directory: Path
    name: str
    grid: GridSpec
    legend: dict[str, str]  # terrain id -> char
    geo: GeoConfig

    def path(self, suffix: str) -> Path:
        return self.directory / f"{self.map_id}{suffix}"

    def terrain_id(self, generic: str) -> str:
        """The game's terrain id for a generic class, following FALLBACK where the legend lacks one."""
        cls = generic
        while True:
            tid = self.geo.terrain_map.get(cls)
            if tid and tid in self.legend:
                return tid
            if cls not in FALLBACK:
                raise ConfigError(f"{self.map_id}: no terrain id for class {generic!r} "
                                  f"(terrain_map {self.geo.terrain_map}, legend {sorted(self.legend)})")
            cls = FALLBACK[cls]


def _read(path: Path) -> dict:
    if not path.exists():
        raise ConfigError(f"{path}: missing")
    try:
        return tomllib.loads(read_text(path))
    except Unreadable as err:
        raise ConfigError(str(err)) from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: {err}") from None


def read_grid(data: dict, path: Path) -> GridSpec:
    g = data.get("grid")
    if not g or "columns" not in g or "rows" not in g:
        raise ConfigError(f"{path}: [grid] needs columns and rows")
    return GridSpec(
        columns=(int(g["columns"][0]), int(g["columns"][1])), rows=(int(g["rows"][0]), int(g["rows"][1])),
        shifted_columns=str(g.get("shifted_columns", "even")), stagger=bool(g.get("stagger", False)),
        sideways=bool(g.get("sideways", False)), hex_height=int(g.get("hex_height", 88)),
        col_digits=int(g.get("col_digits", 2)), row_digits=int(g.get("row_digits", 2)),
    )


def read_geo(path: Path) -> GeoConfig:
    d = _read(path)
    try:
        scale_km = float(d["scale_km"])
    except (KeyError, ValueError):
        raise ConfigError(f"{path}: scale_km (km per hex, from the book) is required") from None
    anchors = tuple(Anchor(str(label), str(town) if isinstance(town, str) else str(town["town"]),
                           1.0 if isinstance(town, str) else float(town.get("weight", 1.0)))
                    for label, town in (d.get("anchors") or {}).items())
    lat_anchors = tuple(LatitudeAnchor((str(a["between"][0]), str(a["between"][1])), float(a["lat"]),
                                       str(a.get("source", "")), float(a.get("weight", 1.0)))
                        for a in d.get("latitude_anchor", []))
    if str(d.get("transform", "similarity")) not in ("similarity", "affine"):
        raise ConfigError(f"{path}: transform must be 'similarity' or 'affine'")
    if len(anchors) < 2 and not (anchors and lat_anchors):
        raise ConfigError(f"{path}: at least two [anchors] are needed to calibrate")
    t = d.get("thresholds", {})
    known = set(Thresholds.__dataclass_fields__)
    unknown = sorted(set(t) - known)
    if unknown:
        raise ConfigError(f"{path}: unknown [thresholds] keys {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    thresholds = Thresholds(**{k: float(v) for k, v in t.items()})
    lines = d.get("lines", {})
    parallels = tuple(Parallel(float(p["lat"]), str(p["kind"]), str(p.get("name", f"{p['lat']:g}th parallel")))
                      for p in lines.get("parallels", []))
    towns = d.get("towns", {})
    return GeoConfig(
        scale_km=scale_km, scale_source=str(d.get("scale_source", "")), fit_scale=bool(d.get("fit_scale", False)),
        transform=str(d.get("transform", "similarity")), warp=bool(d.get("warp", False)), warp_radius_km=float(d.get("warp_radius_km", 6 * scale_km)),
        max_plain_residual_hexes=float(d.get("max_plain_residual_hexes", 1.5)),
        anchors=anchors, latitude_anchors=lat_anchors, anchor_source=str(d.get("anchor_source", "")),
        conventions=tuple(d.get("conventions", ["even", "odd"])),
        terrain_map={str(k): str(v) for k, v in (d.get("terrain_map") or {}).items()},
        thresholds=thresholds,
        rivers=tuple(lines.get("rivers", [])), river_kind=str(lines.get("river_kind", "river")),
        major_rivers=tuple(lines.get("major_rivers", [])),
        major_river_kind=str(lines.get("major_river_kind", "major_river")),
        path_kinds={str(k): str(v) for k, v in (lines.get("paths") or {}).items()},
        parallels=parallels,
        row_lines=tuple(RowLine(int(r["row"]), (int(r["columns"][0]), int(r["columns"][1])), str(r["kind"]),
                                str(r.get("name", "")), str(r["source"])) for r in lines.get("row_line", [])),
        sea_cut_kind=str(lines.get("sea_cut_kind", "")),
        crest_cut_kind=str(lines.get("crest_cut_kind", "")), crest_cut_m=float(lines.get("crest_cut_m", 1500)),
        crest_cut_prominence_m=float(lines.get("crest_cut_prominence_m", 300)),
        town_features={str(k): tuple(v) for k, v in (towns.get("features") or {}).items()},
        city_names=tuple(towns.get("city_names", [])),
        city_extent_km={str(k): float(v) for k, v in (towns.get("city_extent_km") or {}).items()},
        force_land_kinds=tuple(towns.get("force_land_kinds", ["city", "major_city", "town", "port", "capital",
                                                                "airfield", "star_city", "village"])),
        terrain_from_features={str(k): str(v) for k, v in (towns.get("terrain_from_features") or {}).items()},
        note=str(d.get("note", "")),
    )


def read_map_config(game_dir: Path, map_id: str) -> MapConfig:
    toml_path = game_dir / "maps" / f"{map_id}.toml"
    data = _read(toml_path)
    legend = {str(t["id"]): str(t["char"]) for t in data.get("terrain", [])}
    if not legend:
        raise ConfigError(f"{toml_path}: no [[terrain]] legend")
    geo = read_geo(game_dir / "maps" / f"{map_id}.geo.cfg")
    for cls, tid in geo.terrain_map.items():
        if cls not in CLASSES:
            raise ConfigError(f"{map_id}.geo.cfg: unknown terrain class {cls!r} (classes: {', '.join(CLASSES)})")
        if tid not in legend:
            raise ConfigError(f"{map_id}.geo.cfg: terrain_map {cls} = {tid!r} is not in {map_id}.toml's legend")
    return MapConfig(game=game_dir.name, map_id=map_id, directory=game_dir / "maps",
                     name=str(data.get("name", map_id)), grid=read_grid(data, toml_path), legend=legend, geo=geo)


def map_ids(game_dir: Path) -> list[str]:
    """Maps of a game that have both the engineer's toml and our geo.cfg."""
    return sorted(p.name[: -len(".geo.cfg")] for p in (game_dir / "maps").glob("*.geo.cfg")
                  if (game_dir / "maps" / p.name.replace(".geo.cfg", ".toml")).exists())
