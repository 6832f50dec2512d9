"""The scenario model of a game system, loaded once per process.

The bridge needs the full model (maps with their grids, units, scenarios), not just the
metadata `adjudicator.systems` serves, so it loads it through ``scenarios.load_game``.
A system whose data is missing or does not load gets a 501 problem, never a guess.
"""

from __future__ import annotations

from functools import lru_cache

from adjudicator.bridge.errors import BridgeError
from adjudicator.systems import system_info
from scenarios import DataError, game_ids, load_game
from scenarios.model import Game


@lru_cache(maxsize=None)
def _load(system: str) -> Game:
    return load_game(system)


def load_system_game(system: str) -> Game:
    """The loaded game of `system`; BridgeError 404 (unknown system) or 501 (no usable data)."""
    if system_info(system) is None:
        raise BridgeError(404, "Not Found", f"Unknown game system {system!r}.", "unknown-system")
    if system not in game_ids():
        raise BridgeError(501, "Not Implemented",
                          f"The game data of {system!r} is not available yet, so saved games of "
                          "this system cannot be read.", "no-game-data")
    try:
        return _load(system)
    except DataError as error:
        first = str(error).splitlines()[0] if str(error) else "data error"
        raise BridgeError(501, "Not Implemented",
                          f"The game data of {system!r} does not load ({first}), so saved games "
                          "of this system cannot be read.", "no-game-data") from None
