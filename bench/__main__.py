"""``python -m bench [--only modules,supply,odds,http,extension,scaleout,replay,savedgame] [--duration S] [--worker-class gevent | gthread --threads 4] [--no-profile]``

Runs the sections, prints a table and writes ``bench/results/<timestamp>.json``.
Exit status 0 even when a target is missed: the table says PASS/FAIL per
target, and a benchmark is a measurement, not a gate.
"""

from __future__ import annotations

import argparse
import sys
import traceback

from bench.config import HttpSettings
from bench.results import Section, table, write_results

SECTIONS = ("supply", "odds", "modules", "http", "extension", "scaleout", "replay", "savedgame")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(SECTIONS), help="comma-separated sections: " + ", ".join(SECTIONS))
    parser.add_argument("--duration", type=int, default=HttpSettings.duration_s, help="seconds per wrk load per round")
    parser.add_argument("--rounds", type=int, default=HttpSettings.rounds, help="rounds of the three wrk loads")
    parser.add_argument("--workers", type=int, default=HttpSettings.workers, help="gunicorn worker processes")
    parser.add_argument("--worker-class", default=HttpSettings.worker_class,
                        help="gunicorn worker class: sync (the reference the ratios are stated with), "
                             "gevent (what the service serves by default), gthread")
    parser.add_argument("--threads", type=int, default=HttpSettings.worker_threads, help="threads per gthread worker")
    parser.add_argument("--sqlite-synchronous", default=HttpSettings.sqlite_synchronous,
                        help="SQLite synchronous setting of the served database (GROUP, the service's default; FULL, NORMAL)")
    parser.add_argument("--no-profile", action="store_true", help="skip profiling sections that miss a target")
    args = parser.parse_args(argv)
    chosen = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s): {', '.join(unknown)}")
    profile = not args.no_profile
    sections = []
    path = None
    for name in chosen:
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        try:
            sections.append(run_section(name, args, profile))
        except Exception:  # noqa: BLE001 - one section's failure must not lose the others' measurements
            sections.append(Section.failed(name, traceback.format_exc()))
        path = write_results(sections, path=path)  # kept as it goes: a long run stopped keeps what it measured
    print(table(sections))
    print(f"results: {path}")
    failed = [section.name for section in sections if section.failure]
    if failed:
        print(f"bench: these sections failed (their errors are in the results): {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


def run_section(name: str, args: argparse.Namespace, profile: bool) -> Section:
    """One section measured (each imported when it runs: some need the engine or a browser)."""
    if name == "supply":
        from bench.supply import run_supply
        return run_supply(profile_on_miss=profile)
    if name == "odds":
        from bench.odds import run_odds
        return run_odds(profile_on_miss=profile)
    if name == "modules":
        from bench.modules import run_modules
        return run_modules(profile_on_miss=profile)
    if name == "extension":
        from bench.extension import run_extension
        return run_extension()
    if name == "replay":
        from bench.replay import run_replay
        return run_replay()
    if name == "savedgame":
        from bench.savedgame import run_savedgame
        return run_savedgame()
    if name == "scaleout":
        from bench.scaleout import run_scaleout_bench
        return run_scaleout_bench()
    if name == "http":
        from bench.http import run_http
        return run_http(HttpSettings(duration_s=args.duration, rounds=args.rounds, workers=args.workers,
                                     worker_class=args.worker_class, worker_threads=args.threads,
                                     sqlite_synchronous=args.sqlite_synchronous),
                        profile_on_miss=profile)
    raise ValueError(name)


if __name__ == "__main__":
    sys.exit(main())
