"""Scale-out: two gunicorn instances over one PostgreSQL, clients on both, one instance killed -9.

    python -m bench.scaleout --database-url postgresql+psycopg://... [--clients 24] [--games 4] [--seconds 10]

1. Two `adjudicator` gunicorn instances on different loopback ports share one PostgreSQL database and
   one signing key (as two machines behind a load balancer would share them).
2. Clients roll game-mode checks on the same games, half of them through each instance, so every
   game's chain is appended to by both at once: the game row lock (SELECT ... FOR UPDATE,
   adjudicator/ledger/storage.py) is what keeps each chain linear.
3. After `seconds` instance A gets SIGKILL (master and workers) mid-run; the clients of instance B
   roll on for half as long again, then stop.
4. Through instance B only, the soak's checks (bench/soak.py `check_after_restart`): every chain verifies
   end to end with the published keys; every acknowledged roll, through either instance, is in its ledger
   exactly once with the seq and hash its client saw; retrying every roll through B returns the original
   result (acknowledged) or records it at most once (in doubt); closed ledgers verify with every die
   recomputed.

The test suite runs a short version (tests/test_reliability_scaleout.py) on the throwaway PostgreSQL
cluster `scripts/run-tests.sh` starts; `make soak` runs a longer one when PostgreSQL is installed; `make
bench` reports rolls/s through one and through two instances (bench/__main__.py, `scaleout_rates`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from bench.config import CHECK, CheckChoice
from bench.results import Section
from bench.server import ROOT, Gunicorn
from bench.soak import Client, SoakReport, check_after_restart, create_games, print_round


def _on_server(admin_url: str, statement: str) -> None:
    """One statement outside a transaction (CREATE/DROP DATABASE cannot run inside one)."""
    engine = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(statement))
    finally:
        engine.dispose()


def fresh_database(admin_url: str) -> str:
    """A new, empty database on the server of `admin_url` (so a run never meets another's tables)."""
    name = f"kwscale_{uuid.uuid4().hex[:12]}"
    _on_server(admin_url, f'CREATE DATABASE "{name}"')
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False)


def drop_database(admin_url: str, url: str) -> None:
    _on_server(admin_url, f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')


def start_instances(workdir: Path, database_url: str, count: int, workers: int) -> list[Gunicorn]:
    """`count` instances on one database and one key file; the first creates the tables and the key."""
    env = {"DATABASE_URL": database_url}
    servers: list[Gunicorn] = []
    try:
        for _ in range(count):
            servers.append(Gunicorn(workdir, workers=workers, extra_env=env).start())
    except Exception:
        for server in servers:
            server.stop(signal.SIGKILL)
        raise
    return servers


def run_scaleout(workdir: Path, database_url: str, clients: int = 24, games: int = 4, seconds: float = 10.0,
                 choice: CheckChoice = CHECK, workers: int = 2) -> SoakReport:
    report = SoakReport(clients=clients, games=games)
    a, b = start_instances(workdir, database_url, 2, workers)
    threads: list[Client] = []
    try:
        all_games = create_games(a.url, choice, games)
        stop = threading.Event()
        threads = [Client(i, (a, b)[i % 2].url, all_games, choice, stop) for i in range(clients)]
        for t in threads:
            t.start()
        time.sleep(seconds)
        a.stop(signal.SIGKILL)  # kill -9 one instance mid-run; B's clients carry on
        time.sleep(seconds / 2)
        stop.set()
        for t in threads:
            t.join(timeout=60)
        rolls = [r for t in threads for r in t.rolls]
        for t in threads:
            report.problems += [f"client {t.index}: unexpected answer {u}" for u in t.unexpected]
        report.acknowledged = sum(1 for r in rolls if r.response is not None)
        report.in_doubt = sum(1 for r in rolls if r.response is None)
        for t in threads:
            acked = sum(1 for r in t.rolls if r.response is not None)
            report.acknowledged_per_server[t.url] = report.acknowledged_per_server.get(t.url, 0) + acked
        check_after_restart(b, all_games, rolls, choice, report)
    finally:
        a.stop(signal.SIGKILL)
        b.stop(signal.SIGTERM)
    return report


def rolls_per_second(workdir: Path, database_url: str, instances: int, clients: int = 16, games: int = 4,
                     seconds: float = 10.0, choice: CheckChoice = CHECK, workers: int = 2) -> float:
    """Acknowledged game-mode rolls per second, the clients spread over `instances` servers (no kill)."""
    servers = start_instances(workdir, database_url, instances, workers)
    try:
        all_games = create_games(servers[0].url, choice, games)
        stop = threading.Event()
        threads = [Client(i, servers[i % instances].url, all_games, choice, stop) for i in range(clients)]
        started = time.monotonic()
        for t in threads:
            t.start()
        time.sleep(seconds)
        stop.set()
        for t in threads:
            t.join(timeout=60)
        elapsed = time.monotonic() - started
    finally:
        for server in servers:
            server.stop(signal.SIGTERM)
    return sum(1 for t in threads for r in t.rolls if r.response is not None) / elapsed


def throwaway_server(directory: Path) -> str:
    """Start a private PostgreSQL cluster in `directory` (scripts/postgres.sh); its URL."""
    out = subprocess.run(["bash", str(ROOT / "scripts" / "postgres.sh"), "start", str(directory)],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def run_scaleout_bench(seconds: float = 10.0, clients: int = 16) -> Section:
    """`make bench`: rolls/s through one instance and through two over one PostgreSQL."""
    section = Section("scaleout")
    server_url = os.environ.get("BENCH_DATABASE_URL", "")
    with tempfile.TemporaryDirectory(prefix="kw-scaleout-bench-") as tmp:
        pg_dir = Path(tempfile.mkdtemp(prefix="kw-pg-"))  # its own top-level directory: postgres.sh hands it over
        try:
            if not server_url:
                if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
                    section.notes.append("skipped: no PostgreSQL installed and BENCH_DATABASE_URL not set")
                    return section
                server_url = throwaway_server(pg_dir)
            for instances in (1, 2):
                url = fresh_database(server_url)
                try:
                    rate = rolls_per_second(Path(tmp) / f"run{instances}", url, instances, clients=clients,
                                            seconds=seconds)
                finally:
                    drop_database(server_url, url)
                section.numbers[f"rolls_per_s_{instances}"] = rate
                section.row(f"game-mode rolls/s, {instances} instance{'s' if instances > 1 else ''}",
                            f"{rate:.0f}")
            one, two = section.numbers["rolls_per_s_1"], section.numbers["rolls_per_s_2"]
            section.row("two instances / one", f"{two / one:.2f}x")
            section.notes.append(f"{clients} clients, {seconds:g} s each, FULL durability, one PostgreSQL on the same "
                                 "machine: on 2 cores the instances share the CPU, so the ratio shows the cost of "
                                 "the shared database and row locks, not the gain of a second machine.")
        finally:
            if (pg_dir / "data").exists():
                subprocess.run(["bash", str(ROOT / "scripts" / "postgres.sh"), "stop", str(pg_dir)],
                               capture_output=True)
            shutil.rmtree(pg_dir, ignore_errors=True)
    return section


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scaleout",
                                     description="two instances over one PostgreSQL, one killed -9")
    parser.add_argument("--database-url", required=True,
                        help="a PostgreSQL server (SQLAlchemy URL); each round uses a fresh database on it")
    parser.add_argument("--clients", type=int, default=24)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0, help="rolling time before the kill -9")
    parser.add_argument("--rounds", type=int, default=1)
    # scripts/soak.sh passes its arguments to both soaks; this one runs on PostgreSQL
    parser.add_argument("--sqlite-synchronous", help="accepted and ignored: the instances share PostgreSQL")
    args = parser.parse_args(argv)
    failed = False
    for round_no in range(1, args.rounds + 1):
        url = fresh_database(args.database_url)
        try:
            with tempfile.TemporaryDirectory(prefix="kw-scaleout-") as tmp:
                report = run_scaleout(Path(tmp), url, clients=args.clients, games=args.games, seconds=args.seconds)
        finally:
            drop_database(args.database_url, url)
        failed = print_round(round_no, report) or failed
    print("scaleout: FAILED" if failed else "scaleout: OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
