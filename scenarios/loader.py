"""Reading and validating a game's data directory.

The layout and every column are documented in ``docs/data-format.md``.  The
loader reads everything, checks every reference (sides, nationalities, unit
types, units, boxes, maps, hexes, step names, turns), and reports *all*
problems as ``file:line: what is wrong`` before anybody builds a module or
adjudicates from broken data.  Each kind of file has its reader in
``scenarios.reading``; this module holds the entry points and the games a
process has read.
"""

from __future__ import annotations

import os
from pathlib import Path
from dataclasses import replace
from typing import Iterable

from scenarios import facts
from scenarios.model import Game, Source
from scenarios.problems import DataError, Problems
from scenarios.reading.context import Reading
from scenarios.reading.files import CsvRow, read_csv, read_data_text, read_toml
from scenarios.reading.game import read_game

__all__ = ["DATA_ROOT", "CsvRow", "check_facts", "check_game_dir", "game_ids", "load_game",
           "load_game_dir", "missing_games", "read_csv", "read_data_text", "read_game_dir", "read_toml",
           "serve_games"]

#: The games' data: scenarios/data, or the folder the environment's SCENARIOS_DATA names (a maintainer's
#: own copy, e.g. with the published tables that may not be redistributed). Read once per process.
DATA_ROOT = Path(os.environ.get("SCENARIOS_DATA") or Path(__file__).parent / "data")
#: The data folder's list of the games the code plays (``missing_games``).
GAMES_FILE = "games.toml"

# ---------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------


#: The games ``load_game`` has read (read-only, so kept for the process), and the ids of the games a
#: server process serves (``serve_games``; None: whatever DATA_ROOT holds).
_LOADED: dict[str, Game] = {}
_SERVED: tuple[str, ...] | None = None


def game_ids(root: Path | None = None) -> list[str]:
    """The games that have a data directory in ``root`` (sorted); without one, the games this process
    serves (``serve_games``), else those of DATA_ROOT."""
    if root is None and _SERVED is not None:
        return list(_SERVED)
    return sorted(p.parent.name for p in (root or DATA_ROOT).glob("*/game.toml"))


def missing_games(expected: Iterable[str] | None = None, root: Path | None = None) -> list[str]:
    """``file:line: what is wrong`` for each game the code plays that ``root`` (DATA_ROOT) has no folder for.

    ``expected``: the game ids the caller's code plays (the adjudicator's registry); None: those the
    data folder's ``games.toml`` lists (what ``scenarios check`` goes by: it imports no rules code).
    A folder without ``games.toml`` (empty, moved away, another folder) is a problem of its own."""
    root = Path(root or DATA_ROOT)
    problems = Problems(root=root.parent)
    listing = root / GAMES_FILE
    line = 1
    if not root.is_dir():
        return [f"{root}: the data folder does not exist (SCENARIOS_DATA names it, else scenarios/data)"]
    if expected is None:
        data, lines = read_toml(listing, problems)
        if problems:
            problems.items[-1] = replace(problems.items[-1], message=problems.items[-1].message
                                         + ": the data folder lists the games the code plays there")
        expected, line = [str(g) for g in data.get("games") or ()], lines.find("games")
    have = set(game_ids(root))
    for game_id in expected:
        if game_id not in have:
            problems.add(listing, line, f"game {game_id!r}: the code plays it (adjudicator/rules/{game_id}) but "
                                        f"the data folder has no {game_id}/game.toml; restore its folder")
    return [str(p) for p in problems.items]


def load_game(game_id: str) -> Game:
    """The game of ``DATA_ROOT/<game_id>``, read once per process, or the one ``serve_games`` gave."""
    game = _LOADED.get(game_id)
    if game is None:
        if game_id not in game_ids():
            raise KeyError(f"no game {game_id!r}; games: {', '.join(game_ids()) or 'none'}")
        game = _LOADED[game_id] = load_game_dir(DATA_ROOT / game_id)
    return game


def serve_games(games: dict[str, Game]) -> None:
    """From now on ``load_game`` and ``game_ids`` answer with these games, read and checked already.

    For a server's master (adjudicator.served_data): it reads the data folder before it forks its
    workers, which then serve what it read and never read the folder themselves, so data that a
    maintainer is still editing (or broke) cannot reach a worker."""
    global _SERVED
    _LOADED.clear()
    _LOADED.update(games)
    _SERVED = tuple(sorted(games))


def load_game_dir(directory: Path | str) -> Game:
    """Load and validate one game directory; raises DataError listing every problem."""
    game, problems = read_game_dir(directory)
    if game is not None:
        check_facts(game, problems)
    problems.raise_if_any()
    assert game is not None
    return game


def read_game_dir(directory: Path | str) -> tuple[Game | None, Problems]:
    """Read a game directory without checking its hex facts against the maps, and without raising.

    For the map builder, which needs the facts (scenarios.facts) to make a map that honours them,
    before that map exists or while it is out of date."""
    directory = Path(directory)
    problems = Problems(root=directory.parent)
    return read_game(Reading(directory, problems)), problems


def check_facts(game: Game, problems: Problems) -> None:
    """Every hex fact that a map breaks, as a problem at the line that states the fact."""
    for fact in game.hex_facts:
        gm = game.maps.get(fact.map_id)
        if gm is None or fact.hex not in gm.terrain:
            continue  # an unreadable map or terrain grid is reported already
        broken = facts.unmet(fact, gm, game.terrain_bans)
        if broken:
            file, _, line = fact.where.rpartition(":")
            problems.add(file, int(line), f"{fact.subject}: {'; '.join(broken)} [{_cite(fact.source)}; "
                                          f"map {fact.map_id}: maps/{fact.map_id}.terrain.txt]")


def _cite(source: Source) -> str:
    return str(source) if source.is_stand_in else f"rule {source}"


def check_game_dir(directory: Path | str) -> list[str]:
    """Every problem of a game directory as ``file:line: message`` strings."""
    try:
        load_game_dir(directory)
    except DataError as err:
        return [str(p) for p in err.problems]
    return []
