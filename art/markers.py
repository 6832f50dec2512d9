"""Markers (supply, status, track, SNAFU chits, aircraft...): one image per face.

    from art.markers import marker_faces
    faces = marker_faces(game, game.markers["supply"])   # [Face("0", img), ...]

Faces are named by their index ("0" front, "1" back...) because a face's
printed text can be anything ("Ammo Shortage").  The look per game lives in
``art.styles`` (HoldFast markers are blue block labels, SPI's Entrenched
marker draws earthworks...).
"""

from __future__ import annotations

from scenarios.model import Game, MarkerType

from art.canvas import Face
from art.counters import _check_scale
from art.styles import style_for


def marker_faces(game: Game, marker: MarkerType, scale: int = 1, trace: bool = False) -> list[Face]:
    _check_scale(scale)
    return style_for(game).marker_faces(game, marker, scale, trace)
