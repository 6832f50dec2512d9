"""Rubber-sheeting: bend the fitted grid so every anchor hex sits exactly on its town.

Printed wargame maps are drawn, not surveyed: on KWB's Pusan map no single
scale and rotation puts all eight named hexes within half a hex of their
towns (the Pusan-Masan corner is drawn about a hex larger than the north).
After the similarity fit, what is left at each anchor is spread smoothly over
the board with Gaussian radial basis functions: exact at the anchors, fading
to the plain fit a few ``radius_km`` away.  The report keeps both numbers,
the plain fit's residual (how distorted the printed map is) and the final one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scenarios.mapbuild.fit import solve_linear

Point = tuple[float, float]


@dataclass(frozen=True)
class Warp:
    """A displacement field in ground km as a function of board pixels."""

    centres: tuple[Point, ...]  # anchor pixels
    weights: tuple[Point, ...]  # per centre, (wx, wy) km
    sigma_px: float

    def displacement(self, px: float, py: float) -> Point:
        dx = dy = 0.0
        two_s2 = 2 * self.sigma_px * self.sigma_px
        for (cx, cy), (wx, wy) in zip(self.centres, self.weights):
            k = math.exp(-((px - cx) ** 2 + (py - cy) ** 2) / two_s2)
            dx += wx * k
            dy += wy * k
        return dx, dy


def fit_warp(pixels: list[Point], residuals: list[Point], sigma_px: float) -> Warp:
    """Weights so that the displacement at each anchor pixel equals its residual (target - fit)."""
    n = len(pixels)
    two_s2 = 2 * sigma_px * sigma_px
    k = [[math.exp(-((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) / two_s2) + (1e-9 if i == j else 0.0)
          for j, b in enumerate(pixels)] for i, a in enumerate(pixels)]
    wx = solve_linear(k, [r[0] for r in residuals])
    wy = solve_linear(k, [r[1] for r in residuals])
    if wx is None or wy is None:
        raise ValueError("two anchors share a hex: the warp cannot fit both")
    return Warp(tuple(pixels), tuple(zip(wx, wy)), sigma_px)
