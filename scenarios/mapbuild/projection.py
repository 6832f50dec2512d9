"""Latitude/longitude <-> flat kilometres around a map's centre.

An azimuthal equidistant projection on a sphere: distances and bearings from
the centre are exact, and over a whole peninsula (500 km from the centre) the
sideways scale error stays near 0.1 %, far below a hex.  The publishers' own
projections are unknown, so anything this accurate is as good as any other;
the calibration fit absorbs the remaining rotation and scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

EARTH_RADIUS_KM = 6371.0  # the same mean radius as geodata.distance_km


@dataclass(frozen=True)
class Projection:
    """x = km east, y = km north of (lat0, lon0) — as seen on a north-up map."""

    lat0: float
    lon0: float

    def to_km(self, lat: float, lon: float) -> tuple[float, float]:
        p0, p = math.radians(self.lat0), math.radians(lat)
        dl = math.radians(lon - self.lon0)
        cos_c = math.sin(p0) * math.sin(p) + math.cos(p0) * math.cos(p) * math.cos(dl)
        c = math.acos(max(-1.0, min(1.0, cos_c)))
        k = 1.0 if c < 1e-12 else c / math.sin(c)
        x = k * math.cos(p) * math.sin(dl)
        y = k * (math.cos(p0) * math.sin(p) - math.sin(p0) * math.cos(p) * math.cos(dl))
        return x * EARTH_RADIUS_KM, y * EARTH_RADIUS_KM

    def to_latlon(self, x: float, y: float) -> tuple[float, float]:
        rho = math.hypot(x, y)
        if rho < 1e-9:
            return self.lat0, self.lon0
        c = rho / EARTH_RADIUS_KM
        p0 = math.radians(self.lat0)
        lat = math.asin(math.cos(c) * math.sin(p0) + y * math.sin(c) * math.cos(p0) / rho)
        lon = math.radians(self.lon0) + math.atan2(
            x * math.sin(c), rho * math.cos(p0) * math.cos(c) - y * math.sin(p0) * math.sin(c))
        return math.degrees(lat), math.degrees(lon)

    def north_at(self, lat: float, lon: float) -> tuple[float, float]:
        """Unit vector pointing north at a point, in projected km (grid north drifts off-centre)."""
        x1, y1 = self.to_km(lat - 0.01, lon)
        x2, y2 = self.to_km(lat + 0.01, lon)
        n = math.hypot(x2 - x1, y2 - y1)
        return (x2 - x1) / n, (y2 - y1) / n
