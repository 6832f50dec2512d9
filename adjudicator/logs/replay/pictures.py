"""Which of the module's pictures shows a piece to a viewer: image names only, as ``art.render`` names
them for the module (``kwb_nk-6_full.png``), for the looks the pages and the replay send to the
browser; `adjudicator.web.artwork` serves the pictures by these names.

A hidden piece shows the picture its mask shows in VASSAL: a HoldFast block its side's back, a piece
of a secret pool the pool's back. Only a back the game's art draws is named (a file from another
module may name anything in its mask); none at all leaves the piece drawn as a plain square.
"""

from __future__ import annotations

import threading

from art.render import (
    block_back_image_name, block_back_jobs, marker_image_name, pool_back_image_name, unit_image_name,
)
from scenarios.model import Game, MarkerType, Unit

_BACKS: dict[str, tuple[Game, frozenset[str]]] = {}
_LOCK = threading.Lock()


def unit_picture(game: Game, unit: Unit, step: str) -> str:
    """The counter of `unit` showing `step` ("" when the piece does not say: its full strength)."""
    names = [s.name for s in unit.steps]
    if not names:
        return ""
    return unit_image_name(game, unit, step if step in names else names[0])


def marker_picture(game: Game, marker: MarkerType, face: str) -> str:
    """The face of `marker` showing (its printed text; the front when unknown)."""
    index = marker.faces.index(face) if face in marker.faces else 0
    return marker_image_name(game, marker, index)


def back_picture(game: Game, side: str, mask_image: str) -> str:
    """What a hidden piece of `side` shows: its mask's picture when the game's art draws it, else
    the back of that side's blocks in a block game; "" for none."""
    backs = known_backs(game)
    if mask_image in backs:
        return mask_image
    block = block_back_image_name(game, side) if side in game.sides else ""
    return block if block in backs else ""


def known_backs(game: Game) -> frozenset[str]:
    """Every back the game's art draws: its blocks' (a block game's) and its pools' pieces'."""
    found = _BACKS.get(game.id)
    if found is None or found[0] is not game:
        with _LOCK:
            names = {name for job in block_back_jobs(game) for name in job.names}
            names |= {pool_back_image_name(game, box) for box in game.boxes.values() if box.draw}
            found = _BACKS[game.id] = (game, frozenset(names))
    return found[1]
