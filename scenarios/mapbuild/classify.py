"""Terrain class of every hex from the land mask, lake shores and elevation.

Each hex is looked at through 13 sample points (centre, an inner and an outer
ring towards the corners).  Sea where the land share is below ``sea_below``;
lake where at least half the points lie inside a lake shore (the Chosin
reservoir; the 1' land mask does not show reservoirs); otherwise the mean
elevation and the local relief (highest minus lowest ground within
``relief_radius_km``) decide clear / rough / mountain.  The elevation grid is
5' (about 9 x 7 km), so relief is the steadier signal on small hexes and the
thresholds are chosen per map scale (docs/maps.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scenarios import geodata
from scenarios.hexgrid import Hex
from scenarios.mapbuild.calibrate import Calibration
from scenarios.mapbuild.config import Thresholds

RING_FACTORS = (0.45, 0.85)


@dataclass(frozen=True)
class HexGround:
    """What the ground under one hex looks like (kept for the report and for tests)."""

    land_fraction: float
    lake_fraction: float
    elevation_m: float
    relief_m: float
    generic: str  # sea, lake, clear, rough, mountain


def sample_pixels(cal: Calibration, hex: Hex) -> list[tuple[float, float]]:
    cx, cy = cal.grid.center(hex)
    points = [(float(cx), float(cy))]
    for f in RING_FACTORS:
        points += [(cx + (x - cx) * f, cy + (y - cy) * f) for x, y in cal.grid.corners(hex)]
    return points


def _point_in_polygon(lat: float, lon: float, ring: tuple[tuple[float, float], ...]) -> bool:
    inside = False
    for (y1, x1), (y2, x2) in zip(ring, ring[1:] + ring[:1]):
        if (y1 > lat) != (y2 > lat):
            x = x1 + (lat - y1) * (x2 - x1) / (y2 - y1)
            if lon < x:
                inside = not inside
    return inside


def lake_rings() -> list[tuple[tuple[float, float], ...]]:
    """Closed lake shores (the land mask already shows the big natural lakes as sea or not at all)."""
    return [c.points for c in geodata.coast() if c.kind == "lake" and c.points[0] == c.points[-1]]


def in_lake(lat: float, lon: float, rings) -> bool:
    for ring in rings:
        lats = [p[0] for p in ring]
        lons = [p[1] for p in ring]
        if min(lats) <= lat <= max(lats) and min(lons) <= lon <= max(lons) and _point_in_polygon(lat, lon, ring):
            return True
    return False


def land_at(lat: float, lon: float) -> bool:
    """The land mask, extended beyond the dataset's box (33-43 N, 124-131 E) by the coarse facts a map edge
    needs: north of 43 N is Manchuria; west of 124 E north of 40.1 N is the Chinese shore of Korea Bay;
    everything else outside is sea (Yellow Sea, Sea of Japan, Korea Strait)."""
    mask = geodata.land_mask()
    if mask.spec.contains(lat, lon):
        return mask.is_land(lat, lon)
    return lat > mask.spec.north or (lon < mask.spec.west and lat > 40.1)


def nearest_open_sea(lat: float, lon: float, hex_km: float, max_hexes: float = 8.0) -> tuple[float, float] | None:
    """The nearest point of open water (sea there and a whole hex further out), or None within max_hexes.

    Searched on the land mask the classification uses, so a coast hex bent or classified by it sees
    the same shore (the GSHHG lines also follow estuaries far inland)."""
    step = hex_km / 4
    for i in range(1, int(max_hexes * 4) + 1):
        r = i * step
        for k in range(48):
            a = 2 * math.pi * k / 48
            ok = True
            for extra in (0.0, hex_km / 2, hex_km):
                p = _offset(lat, lon, r + extra, a)
                if land_at(*p):
                    ok = False
                    break
            if ok:
                return _offset(lat, lon, r, a)
    return None


def _offset(lat: float, lon: float, km: float, bearing: float) -> tuple[float, float]:
    return (lat + km * math.cos(bearing) / 111.2,
            lon + km * math.sin(bearing) / (111.2 * math.cos(math.radians(lat))))


def relief_at(lat: float, lon: float, radius_km: float) -> float:
    """Highest minus lowest interpolated ground on a centre + two rings of the given radius."""
    dlat = radius_km / 111.2
    dlon = radius_km / (111.2 * math.cos(math.radians(lat)))
    values = [geodata.elevation_at(lat, lon)]
    for ring, count in ((0.5, 6), (1.0, 12)):
        for i in range(count):
            a = 2 * math.pi * i / count
            values.append(geodata.elevation_at(lat + ring * dlat * math.sin(a), lon + ring * dlon * math.cos(a)))
    return max(values) - min(values)


def classify_hex(cal: Calibration, hex: Hex, t: Thresholds, rings) -> HexGround:
    points = [cal.pixel_latlon(x, y) for x, y in sample_pixels(cal, hex)]
    land = sum(land_at(lat, lon) for lat, lon in points) / len(points)
    lake = sum(in_lake(lat, lon, rings) for lat, lon in points) / len(points)
    elevation = sum(geodata.elevation_at(lat, lon) for lat, lon in points) / len(points)
    lat, lon = points[0]
    relief = relief_at(lat, lon, t.relief_radius_km)
    if land < t.sea_below:
        generic = "sea"
    elif lake >= 0.5:
        generic = "lake"
    else:
        generic = land_class(elevation, relief, t)
    return HexGround(land, lake, elevation, relief, generic)


def land_class(elevation: float, relief: float, t: Thresholds) -> str:
    """clear, rough or mountain by the map's thresholds (also for a water hex a book fact puts on land)."""
    if elevation >= t.mountain_elevation or relief >= t.mountain_relief:
        return "mountain"
    if elevation >= t.rough_elevation or relief >= t.rough_relief:
        return "rough"
    return "clear"


def classify(cal: Calibration, t: Thresholds) -> dict[Hex, HexGround]:
    rings = lake_rings()
    return {h: classify_hex(cal, h, t, rings) for h in cal.grid.hexes()}
