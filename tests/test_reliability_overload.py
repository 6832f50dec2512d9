"""Overload and hostility against real gunicorn, short versions (issue 29; the long runs are
`make soak` and `make fuzz`, harness bench/overload.py).

- slow clients: 60 slowloris and half-open connections, a player rolls meanwhile: every roll
  answered within 5 s. The same against the former server (two sync workers) fails: that is
  what the test would catch if the default went back.
- hostile uploads: bombs (bzip2, lzma, deflate), a 70k-piece save, pathological logs and deep JSON
  posted over and over while a player rolls: every answer a 4xx problem+json (or the upload
  budget's 503), no traceback, a worker's peak memory bounded, every roll answered.
- storage outage: the database's disk fills mid-play (a tmpfs; skipped where it cannot be
  mounted): 503 with Retry-After, one log line each, and nothing acknowledged lost.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # `bench` is a top-level directory, not an installed package

from bench.overload import Bounds, run_outage, run_slow, run_uploads  # noqa: E402

pytestmark = [pytest.mark.server, pytest.mark.slow]


def test_slow_and_idle_clients_leave_rolls_answered(tmp_path):
    report = run_slow(tmp_path, slow=60, seconds=4.0, drip=1.0, bounds=Bounds(min_rolls_answered=5))
    assert report.problems == [], report.line()
    assert report.figures["slow connections"] == 60


def test_the_former_sync_workers_are_stopped_by_them(tmp_path):
    """The measurement behind the choice of server: two sync workers, a few slow clients."""
    report = run_slow(tmp_path, slow=8, seconds=3.0, drip=1.0, bounds=Bounds(max_roll_seconds=2.0),
                      extra_env={"ADJUDICATOR_WORKER_CLASS": "sync"})
    assert report.rolls_failed > 0 or report.rolls_answered < 10, report.line()


def test_hostile_uploads_are_refused_cheaply_while_rolls_go_on(tmp_path):
    report = run_uploads(tmp_path, uploaders=1, seconds=8.0, scale=0.1, bounds=Bounds(min_rolls_answered=5))
    assert report.problems == [], report.line()
    statuses = report.figures["statuses"]
    assert statuses["bzip2 bomb (1 GB)"].keys() == {422}
    assert report.figures["peak worker MB"] < 400


def test_a_full_disk_mid_play_answers_503_and_loses_nothing(tmp_path):
    report = run_outage(tmp_path, seconds=2.0)
    if "skipped" in report.figures:
        pytest.skip(report.figures["skipped"])
    assert report.problems == [], report.line()
    assert report.figures["503 while full"] > 0 and report.figures["tracebacks in log"] == 0


def test_an_odds_flood_is_refused_429_and_leaves_rolls_answered(tmp_path):
    """issue 52: eight connections from one address ask a HoldFast combat's chances without pause; the
    per-client odds limit answers the excess 429 problem+json with Retry-After, and another player's
    rolls are answered meanwhile (the long run: `make soak`, bench/overload.py --only odds)."""
    from bench.overload import run_odds

    report = run_odds(tmp_path, flooders=8, seconds=4.0, bounds=Bounds(min_rolls_answered=5))
    assert report.problems == [], report.line()
    assert report.figures["statuses"].get(429, 0) > report.figures["statuses"].get(200, 0) > 0, report.line()


def test_two_replay_uploads_at_once_leave_rolls_answered(tmp_path):
    """issue 52 item 2: two players upload the longest log a replay accepts at the same moment while a
    third rolls; both uploads are taken at once and built beside the requests, and every roll is
    answered within the bounds (before: both 503 after 20 s, another player's /ping held 12 s). The
    long run: `make soak` (bench/overload.py --only replays)."""
    from bench.overload import run_replays

    report = run_replays(tmp_path, uploaders=2, bounds=Bounds(min_rolls_answered=5))
    assert report.problems == [], report.line()
    assert [state for _, state in report.figures["answers"]] == ["ready", "ready"], report.line()
