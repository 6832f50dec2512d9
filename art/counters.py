"""Unit counters: one image per printed step, in the look of the game's rulebook.

    from art.counters import unit_faces
    faces = unit_faces(game, game.units["rd-1"], scale=2)   # [Face("full", img), Face("depleted", img)]

Counters are ``COUNTER_PX * scale`` pixels square (75 px = ½" at 150 dpi,
VASSAL's usual counter size).  The look per game lives in ``art.styles``.
"""

from __future__ import annotations

from scenarios.model import Game, Unit

from art.canvas import DESIGN, TEXT_MARGIN, Face
from art.styles import style_for

COUNTER_PX = DESIGN


def counter_px(scale: int = 1) -> int:
    return COUNTER_PX * scale


def unit_faces(game: Game, unit: Unit, scale: int = 1, trace: bool = False) -> list[Face]:
    """Every step's image of one unit, front first.

    ``trace=True`` also returns a text mask per face (for the text-fit tests).
    """
    _check_scale(scale)
    return style_for(game).unit_faces(game, unit, scale, trace)


def inner_margin_px(scale: int = 1) -> int:
    """Pixels along each counter edge that no text may enter."""
    return TEXT_MARGIN * scale


def _check_scale(scale: int) -> None:
    if not isinstance(scale, int) or scale < 1:
        raise ValueError(f"scale must be a positive whole number, got {scale!r}")
