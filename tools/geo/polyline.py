"""Small polyline helpers used by the extraction: clipping to a box and Douglas-Peucker simplification."""

from __future__ import annotations

import math

import numpy as np


def clip_to_box(lonlat: np.ndarray, lat0: float, lat1: float, lon0: float, lon1: float) -> list[np.ndarray]:
    """Split a polyline into the runs of consecutive points that lie inside the box.

    Points are not interpolated onto the box edge: at 2-degree bins the source points are about
    200 m apart, so the error at the edge is negligible for hex maps of 3 km and more.
    """
    inside = ((lonlat[:, 1] >= lat0) & (lonlat[:, 1] <= lat1) & (lonlat[:, 0] >= lon0) & (lonlat[:, 0] <= lon1))
    runs, start = [], None
    for i, ok in enumerate(inside):
        if ok and start is None:
            start = i
        if not ok and start is not None:
            runs.append(lonlat[start:i])
            start = None
    if start is not None:
        runs.append(lonlat[start:])
    return [r for r in runs if len(r) >= 2]


def simplify(lonlat: np.ndarray, tol_km: float) -> np.ndarray:
    """Douglas-Peucker simplification with the tolerance in km (local equirectangular projection)."""
    if len(lonlat) <= 2:
        return lonlat
    lat_mid = float(np.mean(lonlat[:, 1]))
    xy = np.column_stack([lonlat[:, 0] * 111.32 * math.cos(math.radians(lat_mid)), lonlat[:, 1] * 110.57])
    keep = np.zeros(len(xy), dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, len(xy) - 1)]
    while stack:
        i, j = stack.pop()
        if j <= i + 1:
            continue
        a, b = xy[i], xy[j]
        seg = b - a
        pts = xy[i + 1:j] - a
        if np.allclose(seg, 0):
            dist = np.hypot(pts[:, 0], pts[:, 1])
        else:
            dist = np.abs(seg[0] * pts[:, 1] - seg[1] * pts[:, 0]) / np.hypot(*seg)
        k = int(np.argmax(dist))
        if dist[k] > tol_km:
            m = i + 1 + k
            keep[m] = True
            stack.append((i, m))
            stack.append((m, j))
    return lonlat[keep]


def extent_km(lonlat: np.ndarray) -> float:
    """The larger side of the polyline's bounding box in km: used to drop specks of islands."""
    lat_mid = float(np.mean(lonlat[:, 1]))
    w = np.ptp(lonlat[:, 0]) * 111.32 * math.cos(math.radians(lat_mid))
    h = np.ptp(lonlat[:, 1]) * 110.57
    return float(max(w, h))


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in km (haversine, mean Earth radius)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dphi = p2 - p1
    dlmb = math.radians(lon2 - lon1)
    h = math.sin(dphi / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dlmb / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def min_distance_km(lat: float, lon: float, lonlat: np.ndarray) -> float:
    """Distance from a point to the nearest vertex of a polyline (vertices are dense enough here)."""
    return min(distance_km(lat, lon, float(p[1]), float(p[0])) for p in lonlat)
