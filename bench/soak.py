"""Crash-safety soak: concurrent clients roll, the server is killed -9, then everything is checked.

    python -m bench.soak [--clients 50] [--games 4] [--seconds 20]

1. gunicorn serves a temporary SQLite file; `games` games of the configured
   check's system are created.
2. `clients` threads roll game-mode checks with unique request ids.  A roll
   is *acknowledged* when the client saw its 201; a roll whose answer never
   arrived is *in doubt* (it may or may not have been stored).
3. After `seconds` the whole server process group gets SIGKILL mid-run.
4. The server restarts on the same files.  Then, for every game:
   - the ledger verifies end to end (hash chain, signatures), offline with
     the published keys, as `adjudicator verify` does;
   - every acknowledged roll is in the ledger exactly once, with the seq and
     hash the client was given, and no request id appears twice;
   - retrying every acknowledged roll returns the original result (200,
     `Idempotent-Replayed`), and retrying an in-doubt roll records it at
     most once;
   - after closing the game (seed revealed) the ledger verifies again with
     every die recomputed.

`run_soak` returns a `SoakReport`; its `problems` list is empty when all holds.
The test suite runs a short version (tests/test_reliability_crash.py).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import requests

from adjudicator.config import Config
from adjudicator.ledger.keys import load_public_keys
from adjudicator.ledger.verify import verify_ledger
from bench.checks import game_path
from bench.config import CHECK, CheckChoice
from bench.server import Gunicorn, new_game


@dataclass
class Game:
    game_id: str
    token: str
    observer: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Roll:
    game: Game
    request_id: str
    response: dict | None = None  # the 201 body when acknowledged


@dataclass
class SoakReport:
    clients: int
    games: int
    acknowledged: int = 0
    in_doubt: int = 0
    ledger_records: int = 0
    retried: int = 0
    acknowledged_per_server: dict[str, int] = field(default_factory=dict)  # scale-out: by instance URL
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return self.__dict__


def create_games(url: str, choice: CheckChoice, count: int) -> list[Game]:
    games = []
    for _ in range(count):
        game_id, side, tokens = new_game(url, choice.system, choice.scenario)
        games.append(Game(game_id, side, tokens["observer"]))
    return games


class Client(threading.Thread):
    """Rolls until told to stop or the server stops answering."""

    def __init__(self, index: int, url: str, games: list[Game], choice: CheckChoice, stop: threading.Event):
        super().__init__(daemon=True)
        self.index, self.url, self.games, self.choice, self.stop = index, url, games, choice, stop
        self.rolls: list[Roll] = []
        self.unexpected: list[str] = []

    def run(self) -> None:
        session = requests.Session()
        n = 0
        while not self.stop.is_set():
            game = self.games[(self.index + n) % len(self.games)]
            roll = Roll(game, f"c{self.index}-{n}")
            n += 1
            self.rolls.append(roll)
            try:
                response = session.post(self.url + game_path(self.choice, game.game_id),
                                        json={**self.choice.body, "request_id": roll.request_id},
                                        headers=game.headers, timeout=30)
            except requests.RequestException:
                return  # the server died under us: this roll is in doubt
            if response.status_code == 201:
                roll.response = response.json()
            else:
                self.unexpected.append(f"{roll.request_id}: {response.status_code} {response.text[:200]}")
                return


def run_soak(workdir: Path, clients: int = 50, games: int = 4, seconds: float = 20.0,
             choice: CheckChoice = CHECK, workers: int = 2, sqlite_synchronous: str = Config.sqlite_synchronous) -> SoakReport:
    report = SoakReport(clients=clients, games=games)
    env = {"ADJUDICATOR_SQLITE_SYNCHRONOUS": sqlite_synchronous}
    server = Gunicorn(workdir, workers=workers, extra_env=env).start()
    try:
        all_games = create_games(server.url, choice, games)
        stop = threading.Event()
        threads = [Client(i, server.url, all_games, choice, stop) for i in range(clients)]
        for t in threads:
            t.start()
        time.sleep(seconds)
        server.stop(signal.SIGKILL)  # kill -9 the master and workers mid-run
        stop.set()
        for t in threads:
            t.join(timeout=60)
    finally:
        server.stop(signal.SIGKILL)
    rolls = [r for t in threads for r in t.rolls]
    for t in threads:
        report.problems += [f"client {t.index}: unexpected answer {u}" for u in t.unexpected]
    report.acknowledged = sum(1 for r in rolls if r.response is not None)
    report.in_doubt = sum(1 for r in rolls if r.response is None)

    server = Gunicorn(workdir, workers=workers, extra_env=env).start()  # same files, new port
    try:
        check_after_restart(server, all_games, rolls, choice, report)
    finally:
        server.stop(signal.SIGTERM)
    return report


def published_keys(server: Gunicorn) -> dict:
    """The keys a player would use: the served key document, read as `adjudicator verify --key` reads it."""
    path = server.workdir / "published-keys.json"
    path.write_text(requests.get(server.url + "/.well-known/adjudicator-keys.json", timeout=30).text)
    return load_public_keys(path)


def check_after_restart(server: Gunicorn, games: list[Game], rolls: list[Roll], choice: CheckChoice,
                        report: SoakReport) -> None:
    keys = published_keys(server)
    for game in games:
        ledger = fetch_ledger(server, game)
        check_ledger(ledger, keys, game, [r for r in rolls if r.game is game], report, "after the restart")
    retry_rolls(server, rolls, choice, report)
    for game in games:
        closed = requests.post(f"{server.url}/api/v1/games/{game.game_id}/close", headers=game.headers, timeout=30)
        if closed.status_code != 200:
            report.problems.append(f"{game.game_id}: close answered {closed.status_code}")
            continue
        ledger = fetch_ledger(server, game)
        result = verify_ledger(ledger, keys)
        report.ledger_records += len(ledger["records"])
        if not result.ok or not result.seed_revealed or result.dice_recomputed == 0:
            report.problems.append(f"{game.game_id}: closed ledger does not verify with dice recomputed: "
                                   f"{[p.message for p in result.problems][:3]}")


def fetch_ledger(server: Gunicorn, game: Game) -> dict:
    response = requests.get(f"{server.url}/api/v1/games/{game.game_id}/ledger",
                            headers={"Authorization": f"Bearer {game.observer}"}, timeout=30)
    response.raise_for_status()
    return response.json()


def check_ledger(ledger: dict, keys, game: Game, rolls: list[Roll], report: SoakReport, when: str) -> None:
    result = verify_ledger(ledger, keys)
    if not result.ok:
        report.problems.append(f"{game.game_id} {when}: ledger does not verify: "
                               f"{[p.message for p in result.problems][:3]}")
    by_id = Counter(r["body"]["request_id"] for r in ledger["records"][1:])
    twice = [rid for rid, n in by_id.items() if n > 1]
    if twice:
        report.problems.append(f"{game.game_id} {when}: request ids recorded twice: {twice[:5]}")
    stored = {r["body"]["request_id"]: r for r in ledger["records"][1:]}
    for roll in rolls:
        if roll.response is None:
            continue
        record = stored.get(roll.request_id)
        if record is None:
            report.problems.append(f"{game.game_id} {when}: acknowledged roll {roll.request_id} is missing")
        elif (record["seq"], record["hash"]) != (roll.response["seq"], roll.response["hash"]):
            report.problems.append(f"{game.game_id} {when}: roll {roll.request_id} changed seq/hash")


def retry_rolls(server: Gunicorn, rolls: list[Roll], choice: CheckChoice, report: SoakReport) -> None:
    """Every acknowledged roll replays identically; an in-doubt roll is recorded at most once."""
    session = requests.Session()
    for roll in rolls:
        url = server.url + game_path(choice, roll.game.game_id)
        body = {**choice.body, "request_id": roll.request_id}
        response = session.post(url, json=body, headers=roll.game.headers, timeout=30)
        report.retried += 1
        if roll.response is not None:
            if response.status_code != 200 or response.headers.get("Idempotent-Replayed") != "true":
                report.problems.append(f"retry of acknowledged {roll.request_id}: {response.status_code}")
            elif response.json() != roll.response:
                report.problems.append(f"retry of acknowledged {roll.request_id} returned a different result")
        elif response.status_code not in (200, 201):
            report.problems.append(f"retry of in-doubt {roll.request_id}: {response.status_code} {response.text[:200]}")
    keys = published_keys(server)
    games = {id(r.game): r.game for r in rolls}
    for game in games.values():
        ledger = fetch_ledger(server, game)
        check_ledger(ledger, keys, game, [r for r in rolls if r.game is game], report, "after the retries")
        stored = {r["body"]["request_id"] for r in ledger["records"][1:]}
        missing = [r.request_id for r in rolls if r.game is game and r.request_id not in stored]
        if missing:
            report.problems.append(f"{game.game_id}: retried rolls not recorded: {missing[:5]}")


def print_round(round_no: int, report: SoakReport) -> bool:
    """Print one round's counts and problems; True when it found any."""
    print(f"round {round_no}: " + json.dumps({k: v for k, v in report.to_json().items() if k != "problems"}))
    for problem in report.problems:
        print("PROBLEM " + problem)
    return bool(report.problems)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description="kill -9 crash-safety soak")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0, help="rolling time before the kill -9")
    parser.add_argument("--sqlite-synchronous", default=Config.sqlite_synchronous,
                        help=f"GROUP, FULL or NORMAL (default: the service's, {Config.sqlite_synchronous})")
    parser.add_argument("--rounds", type=int, default=1, help="kill/restart rounds (each on fresh files)")
    args = parser.parse_args(argv)
    failed = False
    for round_no in range(1, args.rounds + 1):
        with tempfile.TemporaryDirectory(prefix="kw-soak-") as tmp:
            report = run_soak(Path(tmp), clients=args.clients, games=args.games, seconds=args.seconds,
                              sqlite_synchronous=args.sqlite_synchronous)
        failed = print_round(round_no, report) or failed
    print("soak: FAILED" if failed else "soak: OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
