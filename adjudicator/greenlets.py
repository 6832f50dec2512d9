"""How this process runs its requests: as greenlets of a gevent worker, or as threads.

The default server runs gevent workers (adjudicator/gunicorn.conf.py): one native thread answers
every player of a process, a greenlet each. A call that blocks in the kernel (an fsync, a file lock
another process holds) stops all of them, not only the request that made it; a long computation
holds them all until it yields. Sync and gthread workers, the CLI and the tests' app run requests as
threads, where neither is a concern. This module is the one place that asks which it is.

Asked at each call, never at import: gunicorn's master imports the app's modules before a worker
patches the standard library.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

T = TypeVar("T")


def gevent_patched() -> bool:
    """Whether this process runs requests as greenlets (gevent has patched `threading`)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("threading")


def greenlet_pause() -> Callable[[], None] | None:
    """gevent's yield when requests are greenlets, else None: threads and processes need none, and a
    real sleep(0) would hand the core to other processes."""
    try:
        from gevent import monkey, sleep
    except ImportError:
        return None
    return sleep if monkey.is_module_patched("time") else None


def off_the_hub(call: Callable[..., T], *args: Any) -> T:
    """`call(*args)`, which may block in the kernel, without stopping the process's other requests.

    Under gevent it runs in gevent's pool of native threads while the asking greenlet waits and the
    others go on (the call must touch no greenlet state: a system call, as an fsync or a flock);
    elsewhere it runs here, in the asking thread, as it always did."""
    if not gevent_patched():
        return call(*args)
    from gevent import get_hub

    return get_hub().threadpool.apply(call, args)
