"""The game data a server serves: read and checked by gunicorn's master, inherited by its workers.

Workers never read the data folder. Gunicorn's master reads it when it starts (`on_starting`) and
again on SIGHUP (`on_reload`), which gunicorn calls after re-reading its configuration and before it
forks the new workers (it then stops the old ones gracefully). A worker is a fork of the master, so
it starts with the games the master holds, already checked (`scenarios.loader.serve_games`).

When the data read on SIGHUP has a problem, the master logs each one as `file:line: what is wrong`,
keeps the games it has, and records the refusal: the new workers serve the previous data, and no
worker ever starts without data. (Before this, each worker read the folder as it booted: broken data
failed the new workers' boot, and gunicorn stops the whole service when a worker cannot boot; the
same happened to a worker restarted while a maintainer was half-way through an edit.) Data that
lacks a game is a problem too: a game the rules know (adjudicator.checks.SYSTEM_IDS), or one served
so far, whose folder or game.toml is missing (an empty folder, one moved away, a game folder renamed).
Taken, such a reload left the new workers without the game: every check of it failed (HTTP 500), and
with no game at all the workers failed to boot and gunicorn stopped the service. The next
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

from adjudicator.checks import SYSTEM_IDS
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
    missing: tuple[str, ...] = ()  # the games needed that the data lacked (each one of the problems)

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


def read_all(folder: Path = DATA_ROOT, needed: tuple[str, ...] = SYSTEM_IDS
             ) -> tuple[dict[str, Game], list[str], list[str]]:
    """Every game of the folder, read and checked; every problem as ``file:line: what is wrong``; and
    the games of ``needed`` the folder lacks (each a problem too, `missing_games`)."""
    games: dict[str, Game] = {}
    problems: list[str] = []
    found = game_ids(folder)
    for game_id in found:
        try:
            games[game_id] = load_game_dir(folder / game_id)
        except DataError as err:
            problems += [str(p) for p in err.problems]
    lacking = [g for g in dict.fromkeys(needed) if g not in found]
    return games, missing_games(folder, found, lacking) + problems, lacking


def missing_games(folder: Path, found: list[str], lacking: list[str]) -> list[str]:
    """A problem for each game of ``lacking`` (a game the server needs whose game.toml the folder lacks),
    named as the file it lacks, and why it may be missing.

    Without it a folder moved away or emptied read as "no games, no problems"."""
    if not folder.is_dir():
        where = "the data folder does not exist (moved or renamed?)"
    elif not found:
        where = "the data folder has no game in it (no <game>/game.toml)"
    else:
        where = ""
    problems = []
    for game_id in lacking:
        why = where or ("its folder has no game.toml" if (folder / game_id).is_dir()
                        else f"the data folder has no folder {game_id}/ (moved or renamed?)")
        problems.append(f"{game_id}/game.toml: missing: {why}; the server serves game {game_id!r} and needs its data")
    return problems


def start(log) -> None:
    """The master's first read (gunicorn `on_starting`); DataUnavailable when the data has problems
    (a game the rules know missing is one)."""
    games, problems, _ = read_all()
    if problems:
        for problem in problems:
            log.error("%s", problem)
        raise DataUnavailable(f"the game data in {DATA_ROOT} has {len(problems)} problem(s), listed above "
                              "(`scenarios check` lists them too); fix them, then start the server")
    _serve(games, Served(str(DATA_ROOT), now(), MASTER, _scenarios(games)))
    log.info("game data %s: %s", DATA_ROOT, _summary(games))
    _settle()


def reload(log) -> None:
    """The master's read on SIGHUP (gunicorn `on_reload`, before the new workers are forked): the new
    data if it has no problem, else the data served so far, with the problems logged and recorded."""
    _reread(log)
    _settle()  # once the data read is served, or dropped (refused)


def _reread(log) -> None:
    """Read the folder again: take it, or keep the data served and record why (`Reload`). Every game
    the rules know and every game served so far must be in it."""
    assert _served is not None, "the master reads the data when it starts"
    games, problems, lacking = read_all(DATA_ROOT, SYSTEM_IDS + tuple(_served.games))
    attempt = Reload(now(), tuple(problems), tuple(lacking))
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
    """What this process serves: its master's data, or (no master read it) the games read here;
    DataUnavailable, naming each, when a game of `system_ids` has no data."""
    if _served is None:
        found = game_ids()
        lacking = [g for g in system_ids if g not in found]
        if lacking:  # else every check of such a game answered 500 (KeyError: no game)
            raise DataUnavailable("; ".join(missing_games(DATA_ROOT, found, lacking)))
        games = {g: load_game(g) for g in system_ids}
        _set(Served(str(DATA_ROOT), now(), THIS_PROCESS, _scenarios(games)))
    assert _served is not None
    return _served


#: What the server's signing key signs to make the maintainer's credential for the status's paths
#: (Ed25519 signatures are deterministic: `adjudicator status` on the server's machine, reading the
#: same key file, makes the same one).
MAINTAINER_MESSAGE = b"adjudicator status: the data folder's path"


def maintainer_token(signing_key) -> str:
    """The bearer token that shows the status with the data folder's full path."""
    return signing_key.sign(MAINTAINER_MESSAGE)


def status(with_paths: bool = False) -> dict[str, Any]:
    """The status document (GET /api/v1/status, schema `StatusResponse`). The data folder is named
    by its last part only, unless `with_paths` (the maintainer's token): a machine's paths are no
    player's business, and say where to aim."""
    served = _served
    if served is None:
        return {"ok": False, "summary": "no game data read yet", "data": None, "last_reload": None}
    folder = served.folder if with_paths else Path(served.folder).name
    last = served.last_reload
    if last is None:
        summary = f"serving the game data read at {served.loaded_at} from {folder}"
    elif last.taken:
        summary = f"serving the game data read at {served.loaded_at} (reload) from {folder}"
    else:
        summary = (f"the reload at {last.at} was refused ({len(last.problems)} problem(s) in the data, listed"
                   + (f"; game(s) missing: {', '.join(last.missing)}" if last.missing else "")
                   + f"); serving the game data read at {served.loaded_at} from {folder}")
    return {
        "ok": last is None or last.taken,
        "summary": summary,
        "data": {"folder": folder, "loaded_at": served.loaded_at, "read_by": served.read_by,
                 "games": [{"id": g, "scenarios": list(s)} for g, s in served.games.items()]},
        "last_reload": None if last is None else {"at": last.at, "taken": last.taken,
                                                  "problems": list(last.problems), "missing": list(last.missing)},
    }


def _serve(games: dict[str, Game], served: Served) -> None:
    """Hand the games to `load_game` (the caller then settles them: `_settle`)."""
    serve_games(games)
    _set(served)


def _settle() -> None:
    """Collect the master's garbage before it forks (the games served before a reload, the data read
    and refused, gunicorn's replaced log handlers), then keep what is left out of the collector's sweeps
    in the workers forked from here (frozen before the fork, their memory pages stay shared with the
    master). Garbage frozen alive was freed only as a worker exited, after gevent was torn down: each
    refused reload added a traceback to the log."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def _set(served: Served) -> None:
    global _served
    _served = served


def _scenarios(games: dict[str, Game]) -> dict[str, tuple[str, ...]]:
    return {g: tuple(game.scenarios) for g, game in games.items()}


def _summary(games: dict[str, Game]) -> str:
    return ", ".join(f"{g} ({len(game.scenarios)} scenarios)" for g, game in games.items())
