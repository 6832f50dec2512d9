"""The game data a server serves: read and checked by gunicorn's master, inherited by its workers.

Workers never read the data folder. Gunicorn's master reads it when it starts (`on_starting`) and
again on SIGHUP (`on_reload`), which gunicorn calls after re-reading its configuration and before it
forks the new workers (it then stops the old ones gracefully). A worker is a fork of the master, so
it starts with the games the master holds, already checked (`scenarios.loader.serve_games`).

When the data read on SIGHUP has a problem, the master logs each one as `file:line: what is wrong`,
keeps the games it has, and records the refusal: the new workers serve the previous data, and no
worker ever starts without data. (Before this, each worker read the folder as it booted: broken data
failed the new workers' boot, and gunicorn stops the whole service when a worker cannot boot; the
same happened to a worker restarted while a maintainer was half-way through an edit.) The next
reload whose data reads takes over. What is served, and the last reload's problems, are the
service's status: `GET /api/v1/status`, `adjudicator status`.

A process outside gunicorn (tests, `flask run`) reads the data itself when its app is made.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from scenarios.loader import DATA_ROOT, game_ids, load_game, load_game_dir, serve_games
from scenarios.model import Game
from scenarios.problems import DataError

MASTER = "gunicorn master"
THIS_PROCESS = "server process"


class DataUnavailable(RuntimeError):
    """The data a server is started on has problems (gunicorn prints a RuntimeError's text and stops)."""


@dataclass(frozen=True)
class Reload:
    """One attempt to read the data again (SIGHUP): when, and its problems (none: it was taken)."""

    at: str
    problems: tuple[str, ...]

    @property
    def taken(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Served:
    """The data this process serves: where from, when and by whom it was read, and the last reload."""

    folder: str
    loaded_at: str
    read_by: str
    games: dict[str, tuple[str, ...]]  # game id -> its scenario ids, in their order
    last_reload: Reload | None = None


_served: Served | None = None


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def read_all(folder: Path = DATA_ROOT) -> tuple[dict[str, Game], list[str]]:
    """Every game of the folder, read and checked, and every problem as ``file:line: what is wrong``."""
    games: dict[str, Game] = {}
    problems: list[str] = []
    for game_id in game_ids(folder):
        try:
            games[game_id] = load_game_dir(folder / game_id)
        except DataError as err:
            problems += [str(p) for p in err.problems]
    return games, problems


def start(log) -> None:
    """The master's first read (gunicorn `on_starting`); DataUnavailable when the data has problems."""
    games, problems = read_all()
    if problems:
        for problem in problems:
            log.error("%s", problem)
        raise DataUnavailable(f"the game data in {DATA_ROOT} has {len(problems)} problem(s), listed above "
                              "(`scenarios check` lists them too); fix them, then start the server")
    _serve(games, Served(str(DATA_ROOT), now(), MASTER, _scenarios(games)))
    log.info("game data %s: %s", DATA_ROOT, _summary(games))


def reload(log) -> None:
    """The master's read on SIGHUP (gunicorn `on_reload`, before the new workers are forked): the new
    data if it has no problem, else the data served so far, with the problems logged and recorded."""
    assert _served is not None, "the master reads the data when it starts"
    games, problems = read_all()
    attempt = Reload(now(), tuple(problems))
    if problems:
        for problem in problems:
            log.error("reload refused: %s", problem)
        log.error("reload refused: the game data in %s has %d problem(s), listed above; the new workers serve "
                  "the data read at %s. Fix them (`scenarios check`), then send SIGHUP again.",
                  DATA_ROOT, len(problems), _served.loaded_at)
        _set(replace(_served, last_reload=attempt))
        return
    _serve(games, Served(str(DATA_ROOT), attempt.at, MASTER, _scenarios(games), attempt))
    log.info("reload: game data %s: %s", DATA_ROOT, _summary(games))


def ensure_read(system_ids: tuple[str, ...]) -> Served:
    """What this process serves: its master's data, or (no master read it) the games read here."""
    if _served is None:
        games = {g: load_game(g) for g in system_ids if g in game_ids()}
        _set(Served(str(DATA_ROOT), now(), THIS_PROCESS, _scenarios(games)))
    assert _served is not None
    return _served


def status() -> dict[str, Any]:
    """The status document (GET /api/v1/status, schema `StatusResponse`)."""
    served = _served
    if served is None:
        return {"ok": False, "summary": "no game data read yet", "data": None, "last_reload": None}
    last = served.last_reload
    if last is None:
        summary = f"serving the game data read at {served.loaded_at} from {served.folder}"
    elif last.taken:
        summary = f"serving the game data read at {served.loaded_at} (reload) from {served.folder}"
    else:
        summary = (f"the reload at {last.at} was refused ({len(last.problems)} problem(s) in the data, listed); "
                   f"serving the game data read at {served.loaded_at} from {served.folder}")
    return {
        "ok": last is None or last.taken,
        "summary": summary,
        "data": {"folder": served.folder, "loaded_at": served.loaded_at, "read_by": served.read_by,
                 "games": [{"id": g, "scenarios": list(s)} for g, s in served.games.items()]},
        "last_reload": None if last is None else {"at": last.at, "taken": last.taken,
                                                  "problems": list(last.problems)},
    }


def _serve(games: dict[str, Game], served: Served) -> None:
    """Hand the games to `load_game`, and keep them out of the collector's sweeps in the workers
    forked from here (frozen before the fork, their memory pages stay shared with the master)."""
    gc.unfreeze()  # the games served so far may be collected now
    serve_games(games)
    gc.collect()
    gc.freeze()
    _set(served)


def _set(served: Served) -> None:
    global _served
    _served = served


def _scenarios(games: dict[str, Game]) -> dict[str, tuple[str, ...]]:
    return {g: tuple(game.scenarios) for g, game in games.items()}


def _summary(games: dict[str, Game]) -> str:
    return ", ".join(f"{g} ({len(game.scenarios)} scenarios)" for g, game in games.items())
