"""Least-squares fit of a similarity transform: board pixels -> ground km.

    ground = scale * R(angle) * (px, -py) + (tx, ty)

(py is negated because screen y runs down while north runs up, so a map
printed north-up has angle 0.)  For a fixed angle the model is linear in
(scale, tx, ty), so each angle is solved exactly by normal equations and the
angle itself by a scan and a golden-section refinement: simple, stdlib only,
deterministic, and it handles constraints of two kinds —

- a *point* constraint: this pixel is at this ground point (a named town);
- a *line* constraint: this pixel lies on a known line, i.e. only its
  component along a unit ``normal`` is fixed (the 38th parallel border).

A mirrored fit (``mirror=True``) flips the board's x before fitting: that is
how a wrong row/column direction in the numbering shows itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scenarios import model


@dataclass(frozen=True)
class Constraint:
    pixel: tuple[float, float]
    target: tuple[float, float]  # ground km
    normal: tuple[float, float] | None = None  # None = a full point; else only this component counts
    weight: float = 1.0


@dataclass(frozen=True)
class Similarity:
    """Board pixel -> ground km."""

    scale: float  # km per pixel
    angle: float  # radians, anticlockwise from north-up
    tx: float
    ty: float
    mirror: bool = False

    def apply(self, px: float, py: float) -> tuple[float, float]:
        u, v = (-px if self.mirror else px), -py
        c, s = math.cos(self.angle), math.sin(self.angle)
        return self.scale * (c * u - s * v) + self.tx, self.scale * (s * u + c * v) + self.ty

    def invert(self, x: float, y: float) -> tuple[float, float]:
        c, s = math.cos(self.angle), math.sin(self.angle)
        dx, dy = (x - self.tx) / self.scale, (y - self.ty) / self.scale
        u, v = c * dx + s * dy, -s * dx + c * dy
        return (-u if self.mirror else u), -v


def residual(t: Similarity, k: Constraint) -> float:
    """Distance (km) by which the transform misses the constraint."""
    x, y = t.apply(*k.pixel)
    dx, dy = x - k.target[0], y - k.target[1]
    if k.normal is None:
        return math.hypot(dx, dy)
    return abs(dx * k.normal[0] + dy * k.normal[1])


def solve_linear(matrix: list[list[float]], rhs: list[float]) -> list[float] | None:
    """Gaussian elimination with partial pivoting; None if singular."""
    n = len(rhs)
    a = [row[:] + [b] for row, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                for k in range(col, n + 1):
                    a[r][k] -= f * a[col][k]
    return [a[i][n] / a[i][i] for i in range(n)]


def _fit_at_angle(angle: float, constraints: list[Constraint], scale: float | None,
                  mirror: bool) -> tuple[float, Similarity] | None:
    """Best (scale, tx, ty) for a fixed angle; returns (sum of squared residuals, transform)."""
    c, s = math.cos(angle), math.sin(angle)
    rows: list[tuple[list[float], float, float]] = []  # (coefficients of [scale?, tx, ty], rhs, weight)
    for k in constraints:
        u, v = (-k.pixel[0] if mirror else k.pixel[0]), -k.pixel[1]
        ru, rv = c * u - s * v, s * u + c * v  # rotated pixel, to be multiplied by scale
        comps = [((1.0, 0.0), k.target[0], ru), ((0.0, 1.0), k.target[1], rv)] if k.normal is None else [
            (k.normal, k.target[0] * k.normal[0] + k.target[1] * k.normal[1], ru * k.normal[0] + rv * k.normal[1])]
        for (nx, ny), rhs, rot in comps:
            if scale is None:
                rows.append(([rot, nx, ny], rhs, k.weight))
            else:
                rows.append(([nx, ny], rhs - scale * rot, k.weight))
    n = 3 if scale is None else 2
    ata = [[sum(w * r[i] * r[j] for r, _, w in rows) for j in range(n)] for i in range(n)]
    atb = [sum(w * r[i] * b for r, b, w in rows) for i in range(n)]
    sol = solve_linear(ata, atb)
    if sol is None:
        return None
    fitted_scale, tx, ty = (sol if scale is None else [scale, *sol])
    if fitted_scale <= 0:
        return None
    t = Similarity(fitted_scale, angle, tx, ty, mirror)
    return sum(k.weight * residual(t, k) ** 2 for k in constraints), t


def fit_similarity(constraints: list[Constraint], scale: float | None = None,
                   mirror: bool = False, angle_step_deg: float = 0.5) -> Similarity:
    """The transform minimising the squared residuals.

    ``scale`` (km per pixel) fixes the scale; None fits it.  The angle is
    scanned over the full circle, then refined around the best step.
    """
    if not constraints:
        raise ValueError("no calibration constraints")
    best: tuple[float, Similarity] | None = None
    steps = int(round(360 / angle_step_deg))
    for i in range(steps):
        found = _fit_at_angle(math.radians(i * angle_step_deg), constraints, scale, mirror)
        if found and (best is None or found[0] < best[0] - 1e-9):
            best = found
    if best is None:
        raise ValueError("calibration constraints do not determine a transform")
    # Golden-section refinement of the angle within one scan step either side.
    lo, hi = best[1].angle - math.radians(angle_step_deg), best[1].angle + math.radians(angle_step_deg)
    g = (math.sqrt(5) - 1) / 2

    def cost(a: float) -> float:
        found = _fit_at_angle(a, constraints, scale, mirror)
        return math.inf if found is None else found[0]

    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = cost(a), cost(b)
    for _ in range(60):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = cost(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = cost(b)
    refined = _fit_at_angle((lo + hi) / 2, constraints, scale, mirror)
    if refined and refined[0] <= best[0]:
        best = refined
    t = best[1]
    return Similarity(t.scale, math.remainder(t.angle, 2 * math.pi), t.tx, t.ty, t.mirror)


@dataclass(frozen=True)
class Affine(model.Affine):
    """Board pixel -> ground km with independent axes: x = a*px + b*py + c, y = d*px + e*py + f.

    For printed maps whose hex rows and columns are not drawn at the same
    ground scale (Fire and Ice: a row is about a third longer on the ground
    than the hex geometry implies), a similarity cannot fit; this can.
    """

    def apply(self, px: float, py: float) -> tuple[float, float]:
        return self(px, py)

    def invert(self, x: float, y: float) -> tuple[float, float]:
        return self.inverse()(x, y)

    @property
    def mirror(self) -> bool:
        # screen y runs down, so a north-up map has a negative determinant in these terms
        return self.a * self.e - self.b * self.d > 0

    @property
    def scale(self) -> float:
        """Mean km per pixel (square root of the area ratio)."""
        return math.sqrt(abs(self.a * self.e - self.b * self.d))

    @property
    def angle(self) -> float:
        """Direction of the board's 'up' (pixel (0, -1)) on the ground, as Similarity.angle."""
        ux, uy = -self.b, -self.e
        return math.atan2(-ux, uy)

    def axis_km_per_pixel(self) -> tuple[float, float]:
        """Ground km per board pixel along the board's x and y axes."""
        return math.hypot(self.a, self.d), math.hypot(self.b, self.e)


def fit_affine(constraints: list[Constraint]) -> Affine:
    """Least-squares affine transform (needs at least three points' worth of constraints)."""
    rows: list[tuple[list[float], float, float]] = []
    for k in constraints:
        px, py = k.pixel
        if k.normal is None:
            rows.append(([px, py, 1.0, 0.0, 0.0, 0.0], k.target[0], k.weight))
            rows.append(([0.0, 0.0, 0.0, px, py, 1.0], k.target[1], k.weight))
        else:
            nx, ny = k.normal
            rows.append(([nx * px, nx * py, nx, ny * px, ny * py, ny],
                         k.target[0] * nx + k.target[1] * ny, k.weight))
    ata = [[sum(w * r[i] * r[j] for r, _, w in rows) for j in range(6)] for i in range(6)]
    atb = [sum(w * r[i] * b for r, b, w in rows) for i in range(6)]
    sol = solve_linear(ata, atb)
    if sol is None:
        raise ValueError("calibration constraints do not determine an affine transform")
    return Affine(*sol)
