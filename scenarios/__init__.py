"""The shared scenario model: games, units, maps, scenarios, tables and hex geometry.

Both the module generator and the adjudicator read games through
``load_game``; nothing here knows about VASSAL or HTTP.
"""

from scenarios.loader import game_ids, load_game, load_game_dir
from scenarios.problems import DataError

__all__ = ["DataError", "game_ids", "load_game", "load_game_dir"]
