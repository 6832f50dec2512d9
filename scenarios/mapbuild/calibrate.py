"""Fit a map's hex labels to the ground from the hexes the rulebook names.

Each numbering convention (which printed columns are shifted half a hex
down; whether the numbers run mirrored) gives the anchors different board
pixels; the one whose least-squares fit leaves the smallest residuals is
the convention the printed map uses.  A residual over half a hex means an
anchor would land in the wrong hex, so the build fails there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from scenarios import geodata
from scenarios.hexgrid import Hex, HexGrid
from scenarios.mapbuild.config import MapConfig
from scenarios.mapbuild.fit import Affine, Constraint, Similarity, fit_affine, fit_similarity, residual
from scenarios.mapbuild.projection import Projection
from scenarios.mapbuild.warp import Warp, fit_warp


Pulls = "tuple[tuple[Hex, tuple[float, float]], ...] | list[tuple[Hex, tuple[float, float]]]"
COAST_PULL = "coast pull to"  # the `place` of a coast hex bent onto the shore (report, check)


class CalibrationError(Exception):
    pass


@dataclass(frozen=True)
class AnchorResult:
    label: str
    place: str  # town name, or "lat 38.0" for a latitude anchor
    residual_km: float  # after the warp (= plain_km without one)
    fitted_hex: str  # the hex the place itself falls in under the final calibration
    plain_km: float = 0.0  # residual of the plain similarity fit


@dataclass(frozen=True)
class Calibration:
    """A fitted map: which hex is where on the ground."""

    grid: HexGrid
    shifted_columns: str
    mirror: bool
    transform: Similarity | Affine  # board pixel -> projected km
    projection: Projection
    anchors: tuple[AnchorResult, ...]
    tried: tuple[tuple[str, bool, float, float], ...]  # (shifted, mirror, rms km, max km) per convention
    half_hex_km: float
    warp: Warp | None = None

    @property
    def km_per_hex(self) -> float:
        return self.transform.scale * self.grid.dy

    @property
    def rms_km(self) -> float:
        return math.sqrt(sum(a.residual_km ** 2 for a in self.anchors) / len(self.anchors))

    @property
    def max_km(self) -> float:
        return max(a.residual_km for a in self.anchors)

    @property
    def rotation_deg(self) -> float:
        """Direction of the board's 'up' measured from north, clockwise positive (east = 90)."""
        return round(-math.degrees(self.transform.angle), 6) % 360.0

    def max_warp_km(self) -> float:
        """The largest bend the warp gives any hex centre (0 without a warp)."""
        if self.warp is None:
            return 0.0
        return max(math.hypot(*self.warp.displacement(*self.grid.center(h))) for h in self.grid.hexes())

    def failures(self) -> list[AnchorResult]:
        return [a for a in self.anchors if a.residual_km > self.half_hex_km]

    # -- where things are ------------------------------------------------------------------

    def pixel_km(self, px: float, py: float) -> tuple[float, float]:
        x, y = self.transform.apply(px, py)
        if self.warp is None:
            return x, y
        dx, dy = self.warp.displacement(px, py)
        return x + dx, y + dy

    def km_pixel(self, x: float, y: float) -> tuple[float, float]:
        """Inverse of pixel_km (fixed-point iteration through the warp, which bends gently)."""
        px, py = self.transform.invert(x, y)
        if self.warp is None:
            return px, py
        for _ in range(30):
            dx, dy = self.warp.displacement(px, py)
            nx, ny = self.transform.invert(x - dx, y - dy)
            if abs(nx - px) + abs(ny - py) < 1e-6:
                return nx, ny
            px, py = nx, ny
        return px, py

    def pixel_latlon(self, px: float, py: float) -> tuple[float, float]:
        return self.projection.to_latlon(*self.pixel_km(px, py))

    def hex_latlon(self, hex: Hex) -> tuple[float, float]:
        return self.pixel_latlon(*self.grid.center(hex))

    def latlon_pixel(self, lat: float, lon: float) -> tuple[float, float]:
        return self.km_pixel(*self.projection.to_km(lat, lon))

    def hex_of(self, lat: float, lon: float) -> Hex:
        """The hex (possibly off the map) a ground point falls in."""
        px, py = self.latlon_pixel(lat, lon)
        return self.grid.hex_at(round(px), round(py))


def _projection_for(cfg: MapConfig) -> Projection:
    towns = [geodata.find_town(a.town) for a in cfg.geo.anchors]
    lat0 = sum(t.lat for t in towns) / len(towns)
    lon0 = sum(t.lon for t in towns) / len(towns)
    return Projection(round(lat0, 4), round(lon0, 4))


def _fit_convention(cfg: MapConfig, grid: HexGrid, projection: Projection, mirror: bool,
                    km_per_pixel: float | None) -> tuple[Similarity, list[AnchorResult]]:
    points: list[Constraint] = []
    names: list[tuple[str, str]] = []
    for a in cfg.geo.anchors:
        town = geodata.find_town(a.town)
        points.append(Constraint(grid.center(grid.parse(a.label)), projection.to_km(town.lat, town.lon),
                                 weight=a.weight))
        names.append((a.label, town.name))
    affine = cfg.geo.transform == "affine"

    def fit(constraints: list[Constraint]) -> Similarity | Affine:
        if affine:
            return fit_affine(constraints)
        return fit_similarity(constraints, km_per_pixel, mirror)

    # An affine fit needs three points; with fewer, latitude anchors are linearised from a similarity first.
    transform = fit(points) if len(points) >= 3 or not affine else fit_similarity(points, km_per_pixel, mirror)
    lines: list[Constraint] = []
    for _ in range(4):  # latitude anchors: re-linearise at the longitude the current fit gives
        lines = []
        for la in cfg.geo.latitude_anchors:
            (ax, ay), (bx, by) = (grid.center(grid.parse(h)) for h in la.between)
            mid = ((ax + bx) / 2, (ay + by) / 2)
            _, lon = projection.to_latlon(*transform.apply(*mid))
            lines.append(Constraint(mid, projection.to_km(la.lat, lon), projection.north_at(la.lat, lon),
                                    weight=la.weight))
        if not lines:
            break
        transform = fit(points + lines)
    results = []
    for (label, name), k in zip(names, points):
        town = geodata.find_town(name)
        px, py = transform.invert(*projection.to_km(town.lat, town.lon))
        r = residual(transform, k)
        results.append(AnchorResult(label, name, r, grid.label(grid.hex_at(round(px), round(py))), r))
    for la, k in zip(cfg.geo.latitude_anchors, lines):
        r = residual(transform, k)
        results.append(AnchorResult("-".join(la.between), f"lat {la.lat:g}", r, "", r))
    return transform, results


def _warped(cal: Calibration, cfg: MapConfig, pulls: Pulls = ()) -> Calibration:
    """The calibration bent through every anchor, and through every coast pull (honour.coast_pulls).

    A latitude anchor becomes a point for the warp: on its parallel, at the longitude the plain fit
    gives its pixel, so the bend moves it north or south only.  A coast pull puts a coast hex the book
    names just inland of the nearest shore.
    """
    grid, t = cal.grid, cal.transform
    pixels, offsets = [], []
    for a in cfg.geo.anchors:
        town = geodata.find_town(a.town)
        p = grid.center(grid.parse(a.label))
        gx, gy = cal.projection.to_km(town.lat, town.lon)
        fx, fy = t.apply(*p)
        pixels.append((float(p[0]), float(p[1])))
        offsets.append((gx - fx, gy - fy))
    for la in cfg.geo.latitude_anchors:
        (ax, ay), (bx, by) = (grid.center(grid.parse(h)) for h in la.between)
        mid = ((ax + bx) / 2, (ay + by) / 2)
        fx, fy = t.apply(*mid)
        _, lon = cal.projection.to_latlon(fx, fy)
        gx, gy = cal.projection.to_km(la.lat, lon)
        pixels.append(mid)
        offsets.append((gx - fx, gy - fy))
    pulled = []
    for h, (gx, gy) in pulls:
        p = grid.center(h)
        fx, fy = t.apply(*p)
        pixels.append((float(p[0]), float(p[1])))
        offsets.append((gx - fx, gy - fy))
        lat, lon = cal.projection.to_latlon(gx, gy)
        pulled.append(AnchorResult(grid.label(h), f"{COAST_PULL} {lat:.3f} N {lon:.3f} E", 0.0, grid.label(h),
                                   math.hypot(gx - fx, gy - fy)))
    sigma_px = cfg.geo.warp_radius_km / t.scale
    bent = Calibration(grid, cal.shifted_columns, cal.mirror, t, cal.projection, cal.anchors, cal.tried,
                       cal.half_hex_km, fit_warp(pixels, offsets, sigma_px))
    results = []
    for a in cal.anchors:
        if a.place.startswith(COAST_PULL):
            continue
        if a.place.startswith("lat "):
            h1, h2 = (grid.parse(x) for x in a.label.split("-"))
            (ax, ay), (bx, by) = grid.center(h1), grid.center(h2)
            lat, _ = bent.pixel_latlon((ax + bx) / 2, (ay + by) / 2)
            lat0 = float(a.place.split()[1])
            results.append(AnchorResult(a.label, a.place, abs(lat - lat0) * 111.2, "", a.plain_km))
            continue
        town = geodata.find_town(a.place)
        x, y = bent.pixel_km(*grid.center(grid.parse(a.label)))
        gx, gy = cal.projection.to_km(town.lat, town.lon)
        results.append(AnchorResult(a.label, a.place, math.hypot(x - gx, y - gy),
                                    grid.label(bent.hex_of(town.lat, town.lon)), a.plain_km))
    for a in pulled:  # exact by construction: the warp interpolates its points
        x, y = bent.pixel_km(*grid.center(grid.parse(a.label)))
        gx, gy = next(g for h, g in pulls if grid.label(h) == a.label)
        results.append(replace(a, residual_km=math.hypot(x - gx, y - gy)))
    return Calibration(grid, cal.shifted_columns, cal.mirror, t, cal.projection, tuple(results), cal.tried,
                       cal.half_hex_km, bent.warp)


def bend_to(cal: Calibration, cfg: MapConfig, pulls: Pulls) -> Calibration:
    """The warped calibration bent again, through its anchors and the coast pulls (honour.coast_pulls)."""
    return _warped(replace(cal, warp=None), cfg, pulls)


def calibrate(cfg: MapConfig) -> Calibration:
    """Try every convention, keep the best fit; raises CalibrationError when none fits."""
    projection = _projection_for(cfg)
    half_hex = cfg.geo.scale_km / 2
    tried = []
    best: Calibration | None = None
    for shifted in cfg.geo.conventions:
        grid = cfg.grid.grid(shifted)
        km_per_pixel = None if cfg.geo.fit_scale else cfg.geo.scale_km / grid.dy
        for mirror in ((False,) if cfg.geo.transform == "affine" else (False, True)):
            transform, results = _fit_convention(cfg, grid, projection, mirror, km_per_pixel)
            mirror = transform.mirror  # an affine fit finds its own handedness
            cal = Calibration(grid, shifted, mirror, transform, projection, tuple(results), (), half_hex)
            tried.append((shifted, mirror, cal.rms_km, cal.max_km))
            if best is None or cal.rms_km < best.rms_km - 1e-9:
                best = cal
    assert best is not None
    chosen = Calibration(best.grid, best.shifted_columns, best.mirror, best.transform, projection,
                         best.anchors, tuple(tried), half_hex)
    return _warped(chosen, cfg) if cfg.geo.warp else chosen


def check(cal: Calibration, cfg: MapConfig) -> list[str]:
    """Problems that must fail the build, as messages (empty = calibration acceptable)."""
    problems = []
    if cal.mirror:
        problems.append(f"{cfg.map_id}: the anchors fit only with mirrored numbering (numbers running the "
                        f"other way), which the [grid] format cannot express: check the anchors")
    if cal.warp is not None:
        limit = cfg.geo.max_plain_residual_hexes * cfg.geo.scale_km
        biggest = max(a.plain_km for a in cal.anchors)
        bend = cal.max_warp_km()
        if bend > 1.25 * biggest + 0.01:
            problems.append(f"{cfg.map_id}: the warp bends some hex centre by {bend:.1f} km, more than the "
                            f"anchors need ({biggest:.1f} km): it overshoots between anchors; lower warp_radius_km")
        for a in cal.anchors:
            if a.plain_km > limit and not a.place.startswith(COAST_PULL):
                problems.append(f"{cfg.map_id}: anchor {a.label} ({a.place}) misses the plain fit by {a.plain_km:.1f} km, "
                                f"more than the {limit:.1f} km a warp may bend (max_plain_residual_hexes): "
                                f"a wrong anchor or convention?")
    for a in cal.failures():
        problems.append(f"{cfg.map_id}: anchor {a.label} ({a.place}) misses by {a.residual_km:.1f} km, more than "
                        f"half a hex ({cal.half_hex_km:.1f} km); the place itself falls in {a.fitted_hex or '?'}")
    return problems
