"""What a background job (a replay's build) changes in its process while it runs, and gives back after.

A job's thread shares the interpreter with the worker's requests: while it runs, the switch
interval is shortened (the requests take the lock back sooner) and the collector makes no full
sweep (a build keeps hundreds of thousands of objects alive, each walked at every sweep). Both are
the process's settings, so both must be as they were once the job has ended, whether it ended well
or failed.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading

import pytest

from adjudicator.logs import background


class _App:
    """What `Jobs` asks of the app: a context to store the result in."""

    def app_context(self):
        return contextlib.nullcontext()


def _settings() -> tuple[tuple[int, int, int], float]:
    return gc.get_threshold(), sys.getswitchinterval()


@pytest.mark.parametrize("fails", [False, True])
def test_a_job_runs_without_full_sweeps_and_gives_the_settings_back(fails):
    before = _settings()
    seen: dict[str, object] = {}
    ended = threading.Event()

    def work(job):
        seen["during"] = _settings()
        if fails:
            raise ValueError("the file cannot be replayed")
        return "built"

    def store(result):
        seen["stored"] = result
        ended.set()

    def store_error(error):
        seen["error"] = str(error)
        ended.set()

    jobs = background.Jobs()
    jobs.submit("key", "client", work, store, _App(), store_error)
    assert ended.wait(30)
    thresholds, interval = seen["during"]
    assert thresholds[:2] == before[0][:2] and thresholds[2] == background.JOB_FULL_SWEEP_THRESHOLD
    assert interval == background.JOB_SWITCH_INTERVAL
    assert seen.get("error" if fails else "stored") == ("the file cannot be replayed" if fails else "built")
    assert _settings() == before  # given back before the result (or the failure) is handed on
