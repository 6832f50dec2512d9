"""Scale-out, short version: two gunicorn instances over one PostgreSQL, clients rolling on the same
games through both, one instance killed -9 (issue #17).

The harness is bench/scaleout.py (a longer run: `make soak`). Needs a PostgreSQL server:
`TEST_DATABASE_URL` (scripts/run-tests.sh starts a throwaway cluster when PostgreSQL is installed);
the run gets a fresh database on it and drops it afterwards.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # `bench` is a top-level directory, not an installed package

from bench.scaleout import drop_database, fresh_database, run_scaleout  # noqa: E402

SERVER = os.environ.get("TEST_DATABASE_URL", "")
pytestmark = [pytest.mark.server, pytest.mark.slow, pytest.mark.postgres,
              pytest.mark.skipif(not SERVER.startswith("postgresql"),
                                 reason="TEST_DATABASE_URL is not a PostgreSQL server (scripts/run-tests.sh starts one)")]


def test_two_instances_share_the_chains_and_lose_nothing_when_one_is_killed(tmp_path):
    url = fresh_database(SERVER)
    try:
        report = run_scaleout(tmp_path, url, clients=8, games=2, seconds=2.0)
    finally:
        drop_database(SERVER, url)
    assert report.problems == []
    # both instances acknowledged rolls on the same games, so both appended to every chain
    assert len(report.acknowledged_per_server) == 2 and all(report.acknowledged_per_server.values())
    # every roll (acknowledged, or in doubt and then retried) is in a ledger exactly once,
    # plus each game's creation and closing records
    assert report.ledger_records == report.retried + 2 * report.games
