"""Long work on uploaded files (building a replay) done beside the requests, not inside one.

A replay of the longest log this service accepts takes seconds of CPU to build. Built inside the
request that asked for it, it held the player waiting (and a worker's attention) for as long, and
two such uploads at once made every other player's request wait behind them (issue 53). So the
request only starts the work and answers at once; the page shows how far the work has come (it
asks a small JSON status) and the result is kept where every worker finds it.

Bounds, per server process (a gunicorn worker):

- `MAX_RUNNING` jobs run at once, each in a native thread, so a job never holds the greenlets
  that answer the other players (gevent workers, adjudicator/gunicorn.conf.py): the work is pure
  CPU on data already read from storage, and only its result is stored, by a greenlet of the
  worker (under gevent) or by the job's own thread (sync and gthread workers);
- `MAX_WAITING` more wait their turn; past that a new job is refused (503, Retry-After);
- `MAX_PER_CLIENT` jobs of one client (who asks: the token's scope, or the address of a player
  without a token) run or wait at once; past that his next is refused (429, Retry-After).

A job is known by its key (what it builds, by content): asking again for the same key while it
runs or waits joins that job instead of starting another. Finished jobs are forgotten once their
result is stored; `FINISHED_KEPT` failed ones are remembered so the page can say why.
"""

from __future__ import annotations

import gc
import logging
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.greenlets import gevent_patched

log = logging.getLogger(__name__)

#: Jobs that run at once in one worker process (the machine's cores answer the rolls too).
MAX_RUNNING = 1
#: Jobs that wait for a running one to end, in one worker process.
MAX_WAITING = 8
#: Jobs of one client running or waiting at once.
MAX_PER_CLIENT = 2
#: Failed jobs remembered (their refusal shown) per process.
FINISHED_KEPT = 64
RETRY_AFTER_SECONDS = 30

WAITING, RUNNING, DONE, FAILED = "waiting", "running", "done", "failed"


@dataclass
class Job:
    """One piece of work: where it is (`state`, and what it is doing now: `phase`, `count` of
    `total`), its result or the error it ended with."""

    key: str
    client: str
    state: str = WAITING
    phase: str = "waiting for the server"
    count: int = 0
    total: int = 0
    started: float = field(default_factory=time.monotonic)
    error: Exception | None = None

    def progress(self, phase: str, count: int = 0, total: int = 0) -> None:
        """Called by the work as it goes (from its thread: plain attribute writes)."""
        self.phase, self.count, self.total = phase, count, total

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state, "phase": self.phase,
                               "seconds": round(time.monotonic() - self.started, 1)}
        if self.total:
            out.update(count=self.count, total=self.total)
        return out


class Refused(Exception):
    """Too many jobs: `status` 429 (this client's) or 503 (the server's), with the words to show."""

    def __init__(self, status: int, detail: str):
        super().__init__(detail)
        self.status, self.detail = status, detail


class Jobs:
    """The jobs of one process (see the module's docstring for the bounds)."""

    def __init__(self, max_running: int = MAX_RUNNING, max_waiting: int = MAX_WAITING,
                 per_client: int = MAX_PER_CLIENT):
        self.max_running, self.max_waiting, self.per_client = max_running, max_waiting, per_client
        self._jobs: dict[str, Job] = {}
        self._failed: OrderedDict[str, Job] = OrderedDict()
        self._runner: _Runner | None = None
        self.started = 0  # jobs started since the process began (tests count builds by it)

    def get(self, key: str) -> Job | None:
        """The job of `key` running, waiting, or failed lately; None when there is none."""
        return self._jobs.get(key) or self._failed.get(key)

    def forget_failure(self, key: str) -> None:
        self._failed.pop(key, None)

    def submit(self, key: str, client: str, work: Callable[[Job], Any], store: Callable[[Any], None],
               app: Any, store_error: Callable[[Exception], None] | None = None) -> Job:
        """The job of `key`: the one under way, or a new one that runs `work(job)` in a thread and
        then `store(result)` in `app`'s context (or `store_error(error)` when it fails). Refused
        when the bounds are reached."""
        found = self._jobs.get(key)
        if found is not None:
            return found
        mine = sum(1 for j in self._jobs.values() if j.client == client)
        if mine >= self.per_client:
            raise Refused(429, f"You have {mine} replays being built already: wait until they are ready "
                               f"(at most {self.per_client} at once), then ask again.")
        if len(self._jobs) >= self.max_running + self.max_waiting:
            raise Refused(503, f"The server is building {len(self._jobs)} replays for other players: try again in "
                               f"{RETRY_AFTER_SECONDS} s.")
        self._failed.pop(key, None)
        job = self._jobs[key] = Job(key, client)
        self.started += 1
        self._runner_for().run(job, work, lambda result: self._stored(job, store, result, app),
                               lambda error: self._failed_with(job, error, store_error, app))
        return job

    def _failed_with(self, job: Job, error: Exception, store_error: Callable[[Exception], None] | None,
                     app: Any) -> None:
        if store_error is not None:
            try:
                with app.app_context():
                    store_error(error)
            except Exception:  # noqa: BLE001 - the failure is still shown by this process
                log.exception("a background job's failure could not be kept")
        self._ended(job, error)

    def _stored(self, job: Job, store: Callable[[Any], None], result: Any, app: Any) -> None:
        try:
            with app.app_context():
                store(result)
        except Exception as error:  # noqa: BLE001 - a job's failure is shown on its page, never lost
            self._ended(job, error)
            return
        job.state = DONE
        self._jobs.pop(job.key, None)

    def _ended(self, job: Job, error: Exception) -> None:
        job.state, job.error = FAILED, error
        self._jobs.pop(job.key, None)
        self._failed[job.key] = job
        while len(self._failed) > FINISHED_KEPT:
            self._failed.popitem(last=False)

    def _runner_for(self) -> _Runner:
        if self._runner is None:
            self._runner = _GeventRunner(self.max_running) if gevent_patched() else _ThreadRunner(self.max_running)
        return self._runner


class _Runner:
    def run(self, job: Job, work: Callable[[Job], Any], done: Callable[[Any], None],
            failed: Callable[[Exception], None]) -> None:
        raise NotImplementedError


#: The interpreter's switch interval while a job runs (seconds; Python's default is 0.005). A job's
#: thread shares the interpreter lock with the worker's requests, and a request takes the lock back
#: after each read or write it makes: at 5 ms a wait, a request of a few dozen of them waited
#: hundreds of milliseconds behind a build (measured: /ping p95 450 ms during two builds).
JOB_SWITCH_INTERVAL = 0.0005
#: The garbage collector's third threshold while a job runs: high enough that it makes no full
#: sweep. A replay's build keeps some 760,000 objects alive (the steps of the largest log, each
#: with its lists) and the collector walked all of them at every full sweep: 12 sweeps, 1.7-2.2 s
#: of a 5.1 s build (docs/performance.md, "Replay"). The young generations are still collected,
#: so the requests' short-lived cycles go as before; what lives long enough to reach the oldest
#: generation waits for the first sweep after the job.
JOB_FULL_SWEEP_THRESHOLD = 1_000_000_000
_running = [0]
_interval = [sys.getswitchinterval()]
_thresholds = [gc.get_threshold()]


def _run(job: Job, work: Callable[[Job], Any]) -> Any:
    job.state = RUNNING
    job.progress("starting")
    if _running[0] == 0:
        _interval[0] = sys.getswitchinterval()
        sys.setswitchinterval(JOB_SWITCH_INTERVAL)
        _thresholds[0] = gc.get_threshold()
        gc.set_threshold(*_thresholds[0][:2], JOB_FULL_SWEEP_THRESHOLD)
    _running[0] += 1
    try:
        return work(job)
    finally:
        _running[0] -= 1
        if _running[0] == 0:
            sys.setswitchinterval(_interval[0])
            gc.set_threshold(*_thresholds[0])


class _GeventRunner(_Runner):
    """gevent workers: the work in gevent's pool of native threads, its result stored by a greenlet
    (storage is used from the worker's own thread only)."""

    def __init__(self, size: int):
        from gevent.threadpool import ThreadPool

        self.pool = ThreadPool(size)

    def run(self, job, work, done, failed) -> None:
        import gevent

        def wait_then_store():
            try:
                result = self.pool.apply(_run, (job, work))
            except Exception as error:  # noqa: BLE001 - see Jobs._stored
                failed(error)
                return
            done(result)
        gevent.spawn(wait_then_store)


class _ThreadRunner(_Runner):
    """Sync and gthread workers (and the tests' app): a pool of threads that work and store."""

    def __init__(self, size: int):
        from concurrent.futures import ThreadPoolExecutor

        self.pool = ThreadPoolExecutor(max_workers=size, thread_name_prefix="background-job")

    def run(self, job, work, done, failed) -> None:
        def work_then_store():
            try:
                result = _run(job, work)
            except Exception as error:  # noqa: BLE001 - see Jobs._stored
                failed(error)
                return
            done(result)
        self.pool.submit(work_then_store)


def jobs_of(app: Any) -> Jobs:
    """The background jobs of this process's app (made at first use, after gunicorn forked the worker)."""
    return app.extensions.setdefault("background_jobs", Jobs())
