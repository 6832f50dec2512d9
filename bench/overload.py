"""Overload and hostility against a real gunicorn, while a player rolls (issue 29).

    python -m bench.overload [--only slow,uploads,odds,outage] [--slow 200] [--flooders 20] [--seconds 20]

Four scenarios, each with its figures printed and checked against `Bounds`:

- **slow**: `slow` connections are opened; half send a request's first line and then one header
  line every `drip` seconds, never finishing (slowloris), half connect and send nothing
  (half-open). Figures: rolls answered and failed meanwhile, the slowest answer, how many slow
  connections the server still held at the end. (Two sync workers: two such connections
  stopped the service for 30 s.)
- **uploads**: `uploaders` clients post hostile and pathological saved games over and over (bzip2,
  lzma and deflate bombs, a 70k-piece save, a log at the bounds of stacks and moves, a log past
  them, JSON nested 20,000 deep). Figures: every answer's status (never a 5xx other than the
  upload budget's 503, always problem+json), the slowest answer, peak worker memory (VmHWM),
  and the player's rolls meanwhile.
- **odds**: `flooders` connections from one address ask a HoldFast combat's chances (the costliest)
  without pause. Figures: the odds limit, the chances computed and refused (429, problem+json,
  Retry-After), the player's rolls meanwhile. (Without the limit: 900 chances all 200 and another
  player's ping 5.1 s, issue 52.)
- **outage**: the database lives on a small tmpfs of its own (root only; skipped otherwise), the
  disk is filled mid-play. Figures: 503s with Retry-After while full, log lines per failure
  (one, no traceback), rolls answered after the disk has room again, the ledger verifying with
  every acknowledged roll in it once.

`make soak` runs slow, odds and outage at full size; `make fuzz` the uploads; tests/test_reliability_overload.py
small versions.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

import requests

from adjudicator.bridge.upload import MAX_LOG_COMMANDS
from adjudicator.ledger.keys import load_public_keys
from adjudicator.ledger.verify import verify_ledger
from bench.checks import game_path
from bench.config import CHECK, CheckChoice
from bench.server import Gunicorn
from bench.soak import create_games
from bench.uploads import compression_bomb, deep_json, many_pieces, stacks_and_moves

MB = 1024 * 1024


@dataclass(frozen=True)
class Bounds:
    #: Every roll must be answered, each within this many seconds.
    max_roll_seconds: float = 5.0
    min_rolls_answered: int = 10
    #: An upload must be answered within its budget (10 s) and some slack.
    max_upload_seconds: float = 15.0
    #: Peak resident memory of a worker (a bzip2 bomb took one to 2.1 GB).
    max_worker_mb: float = 400.0


@dataclass
class Report:
    scenario: str
    seconds: float
    rolls_answered: int = 0
    rolls_failed: int = 0
    roll_median_ms: float = 0.0
    roll_max_ms: float = 0.0
    figures: dict = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)

    def line(self) -> str:
        figures = ", ".join(f"{k} {v}" for k, v in self.figures.items())
        return (f"{self.scenario}: rolls answered {self.rolls_answered}, failed {self.rolls_failed}, "
                f"median {self.roll_median_ms} ms, max {self.roll_max_ms} ms; {figures}")


# -- the player --------------------------------------------------------------------------------------

class Player(threading.Thread):
    """Rolls game-mode checks one after the other until stopped; times every answer."""

    def __init__(self, url: str, choice: CheckChoice, timeout: float, stop: threading.Event):
        super().__init__(daemon=True)
        self.url, self.choice, self.timeout, self.stop = url, choice, timeout, stop
        self.game = create_games(url, choice, 1)[0]
        self.times: list[float] = []
        self.failed: list[str] = []

    def run(self) -> None:
        session = requests.Session()
        n = 0
        while not self.stop.is_set():
            n += 1
            started = time.monotonic()
            try:
                response = session.post(self.url + game_path(self.choice, self.game.game_id),
                                        json={**self.choice.body, "request_id": f"player-{n}"},
                                        headers=self.game.headers, timeout=self.timeout)
            except requests.RequestException as error:
                self.failed.append(f"roll {n}: {type(error).__name__}")
                continue
            if response.status_code == 201:
                self.times.append(time.monotonic() - started)
            else:
                self.failed.append(f"roll {n}: {response.status_code}")
            self.stop.wait(0.05)

    def into(self, report: Report, bounds: Bounds) -> None:
        report.rolls_answered, report.rolls_failed = len(self.times), len(self.failed)
        if self.times:
            report.roll_median_ms = round(statistics.median(self.times) * 1000, 1)
            report.roll_max_ms = round(max(self.times) * 1000, 1)
        if self.failed:
            report.problems.append(f"{len(self.failed)} rolls not answered within {bounds.max_roll_seconds:g} s "
                                   f"(first: {self.failed[0]})")
        if len(self.times) < bounds.min_rolls_answered:
            report.problems.append(f"only {len(self.times)} rolls answered (at least {bounds.min_rolls_answered})")


def play_while(server: Gunicorn, seconds: float, bounds: Bounds, choice: CheckChoice, report: Report,
               during=None, player: Player | None = None) -> None:
    """Roll for `seconds` (or while `during(stop)` runs); `player` if its game was made before."""
    player = player or Player(server.url, choice, bounds.max_roll_seconds, threading.Event())
    stop = player.stop
    player.start()
    try:
        if during is not None:
            during(stop)
        else:
            stop.wait(seconds)
    finally:
        stop.set()
        player.join(timeout=bounds.max_roll_seconds + 5)
    player.into(report, bounds)


# -- slow clients ------------------------------------------------------------------------------------

class SlowLoris(threading.Thread):
    """Holds `count` connections open: half trickle header lines, half send nothing at all."""

    def __init__(self, port: int, count: int, drip: float, stop: threading.Event):
        super().__init__(daemon=True)
        self.port, self.count, self.drip, self.stop = port, count, drip, stop
        self.sockets: list[socket.socket] = []
        self.opened = threading.Event()
        self.reopened = 0

    def _open(self, n: int) -> socket.socket | None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            if n % 2 == 0:
                sock.sendall(b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
            return sock
        except OSError:
            return None

    def run(self) -> None:
        self.sockets = [s for s in (self._open(n) for n in range(self.count)) if s is not None]
        self.opened.set()
        line = 0
        while not self.stop.wait(self.drip):
            line += 1
            for n, sock in enumerate(self.sockets):
                try:
                    if n % 2 == 0:
                        sock.sendall(f"X-Slow-{line}: aaaaaaaaaa\r\n".encode())
                    elif not self._open_still(sock):
                        raise OSError
                except OSError:  # the server let go: come back, as an attacker would
                    replacement = self._open(n)
                    if replacement is not None:
                        self.sockets[n] = replacement
                        self.reopened += 1

    @staticmethod
    def _open_still(sock: socket.socket) -> bool:
        sock.setblocking(False)
        try:
            return sock.recv(1) != b""
        except BlockingIOError:
            return True
        finally:
            sock.setblocking(True)

    def close(self) -> None:
        for sock in self.sockets:
            try:
                sock.close()
            except OSError:
                pass


def run_slow(workdir: Path, slow: int = 200, seconds: float = 20.0, drip: float = 1.0,
             bounds: Bounds = Bounds(), choice: CheckChoice = CHECK, extra_env: dict | None = None) -> Report:
    server = Gunicorn(workdir, extra_env=dict(extra_env or {})).start()
    report = Report("slow clients", seconds)
    stop = threading.Event()
    loris = SlowLoris(server.port, slow, drip, stop)
    try:
        player = Player(server.url, choice, bounds.max_roll_seconds, threading.Event())  # its game first
        loris.start()
        loris.opened.wait(timeout=60)
        time.sleep(drip)
        play_while(server, seconds, bounds, choice, report, player=player)
        report.figures = {"slow connections": len(loris.sockets), "reopened after the server let go": loris.reopened,
                          "worker": server.env().get("ADJUDICATOR_WORKER_CLASS", "default")}
    finally:
        stop.set()
        loris.close()
        server.stop()
    return report


# -- hostile uploads ---------------------------------------------------------------------------------

def hostile_files(scale: float = 1.0) -> dict[str, tuple[str, bytes]]:
    """name -> (content type, body). `scale` < 1 makes the pathological logs smaller (tests)."""
    files = {
        "bzip2 bomb (1 GB)": ("file", compression_bomb(zipfile.ZIP_BZIP2, int(1024 * MB * scale) or MB)),
        "lzma bomb (256 MB)": ("file", compression_bomb(zipfile.ZIP_LZMA, int(256 * MB * scale) or MB)),
        "deflate bomb (256 MB)": ("file", compression_bomb(zipfile.ZIP_DEFLATED, int(256 * MB * scale) or MB)),
        "70k-piece save": ("file", many_pieces(int(70_000 * scale) if scale < 1 else 70_000)),
        # 5,000 stacks (10,000 commands) and as many moves as keep it within MAX_LOG_COMMANDS
        "log at the bounds": ("file", stacks_and_moves(5000, int((MAX_LOG_COMMANDS - 11_000) * scale))),
        "log past the bounds": ("file", stacks_and_moves(20_000, int(300_000 * scale))),
        "JSON nested 20,000 deep": ("json", deep_json(20_000)),
    }
    return files


def worker_peak_mb(server: Gunicorn) -> float:
    peak = 0.0
    for pid in server.worker_pids():
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]) / 1024)
        except OSError:
            continue
    return round(peak, 1)


class Uploader(threading.Thread):
    def __init__(self, url: str, files: dict, stop: threading.Event, index: int):
        super().__init__(daemon=True)
        self.url, self.files, self.stop, self.index = url, files, stop, index
        self.answers: list[tuple[str, int, str, float]] = []  # name, status, content type, seconds

    def run(self) -> None:
        names = list(self.files)
        n = self.index
        while not self.stop.is_set():
            name = names[n % len(names)]
            n += 1
            kind, data = self.files[name]
            started = time.monotonic()
            try:
                if kind == "json":
                    response = requests.post(self.url + "/api/v1/systems/kwb/combat", data=data, timeout=60,
                                             headers={"Content-Type": "application/json"})
                else:
                    response = requests.post(self.url + "/api/v1/systems/kwb/savedgame/positions", timeout=60,
                                             files={"file": ("hostile.vsav", data)})
                self.answers.append((name, response.status_code, response.headers.get("Content-Type", ""),
                                     time.monotonic() - started))
            except requests.RequestException as error:
                self.answers.append((name, 0, type(error).__name__, time.monotonic() - started))


def run_for(clients: list[threading.Thread], stop: threading.Event, seconds: float, join_seconds: float) -> None:
    """Start the hostile clients, let them run `seconds`, stop them and wait for each."""
    for client in clients:
        client.start()
    stop.wait(seconds)
    stop.set()
    for client in clients:
        client.join(timeout=join_seconds)


def run_uploads(workdir: Path, uploaders: int = 2, seconds: float = 30.0, scale: float = 1.0,
                bounds: Bounds = Bounds(), choice: CheckChoice = CHECK, extra_env: dict | None = None) -> Report:
    files = hostile_files(scale)
    server = Gunicorn(workdir, extra_env=dict(extra_env or {})).start()
    report = Report("hostile uploads", seconds)
    clients: list[Uploader] = []

    def upload(stop: threading.Event) -> None:
        clients.extend(Uploader(server.url, files, stop, i) for i in range(uploaders))
        run_for(clients, stop, seconds, bounds.max_upload_seconds + 60)

    try:
        play_while(server, seconds, bounds, choice, report, during=upload)
        report.figures["peak worker MB"] = worker_peak_mb(server)
        log = server.log_tail(200_000)
    finally:
        server.stop()
    answers = [a for c in clients for a in c.answers]
    by_file: dict[str, Counter] = {}
    for name, status, content_type, took in answers:
        by_file.setdefault(name, Counter())[status] += 1
        if status == 0 or (status >= 500 and status != 503):
            report.problems.append(f"{name}: answered {status or content_type}")
        elif status >= 400 and "problem+json" not in content_type:
            report.problems.append(f"{name}: {status} as {content_type}, not problem+json")
        if took > bounds.max_upload_seconds:
            report.problems.append(f"{name}: answered after {took:.1f} s (bound {bounds.max_upload_seconds:g} s)")
    report.figures["uploads answered"] = len(answers)
    report.figures["statuses"] = {name: dict(counts) for name, counts in by_file.items()}
    report.figures["slowest upload answer s"] = round(max((a[3] for a in answers), default=0.0), 2)
    if report.figures["peak worker MB"] > bounds.max_worker_mb:
        report.problems.append(f"a worker peaked at {report.figures['peak worker MB']} MB "
                               f"(bound {bounds.max_worker_mb:g} MB)")
    if "Traceback" in log or "WORKER TIMEOUT" in log:
        report.problems.append("the server log has a traceback or a worker timeout")
    return report


# -- an odds flood -----------------------------------------------------------------------------------

class OddsFlooder(threading.Thread):
    """Asks the costliest chances (a HoldFast combat's) over and over from one address, no pause."""

    def __init__(self, url: str, choice: CheckChoice, stop: threading.Event):
        super().__init__(daemon=True)
        self.url, self.choice, self.stop = url, choice, stop
        self.answers: list[tuple[int, str, str | None]] = []  # status, content type, Retry-After

    def run(self) -> None:
        session = requests.Session()
        url = f"{self.url}/api/v1/systems/{self.choice.system}/{self.choice.name}/odds"
        while not self.stop.is_set():
            try:
                response = session.post(url, json=self.choice.body, timeout=30)
                self.answers.append((response.status_code, response.headers.get("Content-Type", ""),
                                     response.headers.get("Retry-After")))
            except requests.RequestException as error:
                self.answers.append((0, type(error).__name__, None))


def run_odds(workdir: Path, flooders: int = 20, seconds: float = 20.0, bounds: Bounds = Bounds(),
             choice: CheckChoice = CHECK, extra_env: dict | None = None) -> Report:
    """`flooders` connections from one address ask chances without pause while a player rolls. The
    per-client odds limit (adjudicator.api.ratelimits.odds_limit) must refuse the excess with 429
    problem+json and Retry-After, and leave the player's rolls answered within the bounds."""
    from adjudicator.config import Config
    from adjudicator.api.ratelimits import odds_limit

    env = {"ADJUDICATOR_RATELIMIT_ENABLED": "true", **(extra_env or {})}
    server = Gunicorn(workdir, extra_env=env).start()
    report = Report("odds flood", seconds)
    clients: list[OddsFlooder] = []

    def flood(stop: threading.Event) -> None:
        clients.extend(OddsFlooder(server.url, choice, stop) for _ in range(flooders))
        run_for(clients, stop, seconds, 35)

    try:
        play_while(server, seconds, bounds, choice, report, during=flood)
        log = server.log_tail(200_000)
    finally:
        server.stop()
    answers = [a for c in clients for a in c.answers]
    statuses = Counter(status for status, _, _ in answers)
    limit = odds_limit(Config.load(env, environ={}))
    burst = int(limit.split("/", 1)[0])
    report.figures.update({"flooders": flooders, "odds limit": limit, "odds answered": len(answers),
                           "statuses": dict(statuses),
                           "computed per s": round(statuses[200] / seconds, 1)})
    if not statuses[429]:
        report.problems.append("no chance was refused 429: the flood was never limited")
    for status, content_type, retry in answers:
        if status not in (200, 429):
            report.problems.append(f"a chance answered {status or content_type}")
            break
        if status == 429 and ("problem+json" not in content_type or not (retry or "").isdigit()):
            report.problems.append(f"a 429 as {content_type} with Retry-After {retry!r}")
            break
    # each worker counts the limit on its own (memory storage): at most a burst per worker per second
    if statuses[200] > server.workers * burst * (seconds + 1):
        report.problems.append(f"{statuses[200]} chances computed, above {server.workers} workers x {burst}/s")
    if "Traceback" in log or "WORKER TIMEOUT" in log:
        report.problems.append("the server log has a traceback or a worker timeout")
    return report


# -- two replay uploads at once ----------------------------------------------------------------------

def run_replays(workdir: Path, uploaders: int = 2, bounds: Bounds = Bounds(), choice: CheckChoice = CHECK,
                build_seconds: float = 120.0) -> Report:
    """`uploaders` players each upload a log of the largest length a replay accepts (each its own:
    the rulings in it differ), at once, while another player rolls (issue 52 item 2: two such uploads
    answered 503 after 20 s and held another player's /ping 12 s). Every upload must be taken at once
    (303), every build must end ready, and the player's rolls answered within the bounds."""
    from bench.replay import GAME, SCENARIO, PageSession, largest_log, setup_file
    from vassalfmt import continue_log

    server = Gunicorn(workdir).start()
    report = Report("replay uploads", 0.0)
    answers: list[tuple[int, str]] = []  # (upload status, the build's last state)
    try:
        setup = setup_file()
        logs = []
        for _ in range(uploaders):
            game = requests.post(f"{server.url}/api/v1/games", json={"system": GAME, "scenario": SCENARIO},
                                 timeout=60).json()
            logs.append(continue_log(setup, largest_log(server, game, setup)[:-1]))

        def upload(log: bytes) -> None:
            browser = PageSession(server.url)
            sent = browser.post(f"/systems/{GAME}/replay", f"/systems/{GAME}/replay",
                                files={"file": ("turn.vlog", log)})
            state = "not taken"
            if sent.status_code == 303:
                address, ends = server.url + sent.headers["Location"].split("?", 1)[0], time.monotonic() + build_seconds
                while time.monotonic() < ends:
                    state = browser.session.get(address + "/status", timeout=60).json()["state"]
                    if state in ("ready", "failed"):
                        break
                    time.sleep(0.2)
            answers.append((sent.status_code, state))

        def both(stop: threading.Event) -> None:
            threads = [threading.Thread(target=upload, args=(log,), daemon=True) for log in logs]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=build_seconds + 60)

        started = time.monotonic()
        play_while(server, 0.0, bounds, choice, report, during=both)
        report.seconds = round(time.monotonic() - started, 1)
        log = server.log_tail(200_000)
    finally:
        server.stop()
    report.figures.update({"uploads": uploaders, "answers": answers})
    if len(answers) < uploaders or any(status != 303 or state != "ready" for status, state in answers):
        report.problems.append(f"an upload was not taken at once and built: {answers}")
    if "Traceback" in log or "WORKER TIMEOUT" in log:
        report.problems.append("the server log has a traceback or a worker timeout")
    return report


# -- storage outage ----------------------------------------------------------------------------------

def mount_small_disk(path: Path, size: str = "4m") -> str | None:
    """Mount a tmpfs of `size` at `path`; the reason when it cannot be done (not root)."""
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                          capture_output=True, text=True)
    return None if done.returncode == 0 else (done.stderr.strip() or "mount failed")


def fill_disk(path: Path) -> Path:
    filler = path / "filler"
    with open(filler, "wb") as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        except OSError:
            pass
    return filler


def run_outage(workdir: Path, seconds: float = 10.0, bounds: Bounds = Bounds(), choice: CheckChoice = CHECK) -> Report:
    """Play, fill the database's disk for `seconds`, free it, play on; then check the ledger."""
    report = Report("storage outage (disk full)", seconds)
    disk = workdir / "disk"
    reason = mount_small_disk(disk)
    if reason is not None:
        report.figures["skipped"] = f"cannot mount a tmpfs here ({reason})"
        return report
    server = Gunicorn(workdir, extra_env={"DATABASE_URL": f"sqlite:///{disk / 'adjudicator.sqlite3'}"})
    try:
        server.start()
        game = create_games(server.url, choice, 1)[0]
        session = requests.Session()
        statuses: Counter = Counter()
        acknowledged: dict[str, int] = {}
        retry_after_missing = 0

        def roll(request_id: str) -> int:
            nonlocal retry_after_missing
            try:
                response = session.post(server.url + game_path(choice, game.game_id),
                                        json={**choice.body, "request_id": request_id}, headers=game.headers,
                                        timeout=bounds.max_roll_seconds)
            except requests.RequestException:
                statuses["no answer"] += 1
                return 0
            statuses[response.status_code] += 1
            if response.status_code in (200, 201):
                acknowledged[request_id] = response.json()["seq"]
            elif response.status_code == 503 and not response.headers.get("Retry-After"):
                retry_after_missing += 1
            return response.status_code

        for n in range(20):
            roll(f"before-{n}")
        filler = fill_disk(disk)
        refused = []
        deadline = time.monotonic() + seconds
        n = 0
        while time.monotonic() < deadline:
            n += 1
            if roll(f"full-{n}") == 503:
                refused.append(f"full-{n}")
            time.sleep(0.05)
        filler.unlink()
        for request_id in refused:  # the players retry what was refused
            roll(request_id)
        for n in range(20):
            roll(f"after-{n}")
        ledger = session.get(f"{server.url}/api/v1/games/{game.game_id}/ledger", headers=game.headers,
                             timeout=30).json()
        keys_file = workdir / "keys.json"
        keys_file.write_text(session.get(server.url + "/.well-known/adjudicator-keys.json", timeout=30).text)
        verified = verify_ledger(ledger, load_public_keys(keys_file))
        log = server.log_tail(1_000_000)
    finally:
        server.stop()
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)
    recorded = Counter(r["body"].get("request_id") for r in ledger["records"])
    log_lines = sum(1 for line in log.splitlines() if "storage unavailable" in line)
    report.rolls_answered = sum(v for k, v in statuses.items() if k in (200, 201))
    report.rolls_failed = statuses.get("no answer", 0) + sum(v for k, v in statuses.items() if k not in (200, 201, 503))
    report.figures = {"503 while full": statuses.get(503, 0), "log lines": log_lines,
                      "tracebacks in log": log.count("Traceback"), "ledger records": len(ledger["records"])}
    if not statuses.get(503):
        report.problems.append("the disk never filled: no 503 seen")
    if retry_after_missing:
        report.problems.append(f"{retry_after_missing} 503s without Retry-After")
    if log_lines != statuses.get(503, 0) or "Traceback" in log:
        report.problems.append(f"{log_lines} log lines for {statuses.get(503, 0)} refusals, "
                               f"{log.count('Traceback')} tracebacks")
    if report.rolls_failed:
        report.problems.append(f"{report.rolls_failed} rolls neither answered nor refused with 503 ({dict(statuses)})")
    if not verified.ok:
        report.problems.append(f"the ledger does not verify: {verified.problems[:3]}")
    missing = [r for r in acknowledged if recorded.get(r) != 1]
    if missing:
        report.problems.append(f"{len(missing)} acknowledged rolls not in the ledger exactly once")
    if any(recorded.get(r, 0) != 1 for r in refused):
        report.problems.append("a refused roll, retried, is not in the ledger exactly once")
    return report


def print_report(report: Report) -> None:
    print(report.line())
    for problem in report.problems:
        print(f"  PROBLEM: {problem}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.overload", description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="slow,uploads,outage")
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--uploaders", type=int, default=2)
    parser.add_argument("--flooders", type=int, default=20, help="connections asking chances (odds)")
    parser.add_argument("--worker-class", help="override ADJUDICATOR_WORKER_CLASS (e.g. sync, to compare)")
    parser.add_argument("--threads", type=int)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    env = {}
    if args.worker_class:
        env["ADJUDICATOR_WORKER_CLASS"] = args.worker_class
    if args.threads:
        env["ADJUDICATOR_THREADS"] = str(args.threads)
    reports = []
    for scenario in args.only.split(","):
        with tempfile.TemporaryDirectory(prefix=f"kw-{scenario}-") as tmp:
            if scenario == "slow":
                report = run_slow(Path(tmp), args.slow, args.seconds, extra_env=env)
            elif scenario == "uploads":
                report = run_uploads(Path(tmp), args.uploaders, args.seconds, extra_env=env)
            elif scenario == "odds":
                report = run_odds(Path(tmp), args.flooders, args.seconds, extra_env=env)
            elif scenario == "replays":
                report = run_replays(Path(tmp))
            elif scenario == "outage":
                report = run_outage(Path(tmp), min(args.seconds, 10.0))
            else:
                parser.error(f"unknown scenario {scenario!r}")
        reports.append(report)
        print_report(report)
    if args.json:
        print(json.dumps([r.to_json() for r in reports], indent=2))
    failed = any(r.problems for r in reports)
    print("overload: FAILED" if failed else "overload: OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
