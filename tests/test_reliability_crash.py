"""Crash safety, short version: concurrent clients roll, gunicorn is killed -9, restarted, checked.

The harness is bench/soak.py (the long run is `scripts/soak.sh`, 50 clients); here a dozen
clients on two games for a few seconds.  After the restart every game's ledger must verify
end to end, every acknowledged roll must be there exactly once with the seq and hash its
client saw, retries must replay the original results, and each closed ledger must verify
with its dice recomputed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # `bench` is a top-level directory, not an installed package

from bench.soak import run_soak  # noqa: E402

pytestmark = [pytest.mark.server, pytest.mark.slow]


def test_kill_9_under_concurrent_load_loses_nothing_acknowledged(tmp_path):
    report = run_soak(tmp_path, clients=12, games=2, seconds=3.0)
    assert report.acknowledged > 0, "no roll was acknowledged before the kill"
    assert report.problems == []
    # every roll (acknowledged, or in doubt and then retried) is in a ledger exactly once,
    # plus each game's creation and closing records
    assert report.ledger_records == report.retried + 2 * report.games
