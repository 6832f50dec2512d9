"""Gunicorn settings for `adjudicator serve` (or `gunicorn -c adjudicator/gunicorn.conf.py`).

Environment: ADJUDICATOR_BIND (default 127.0.0.1:8000), ADJUDICATOR_WORKERS (default: CPU
count; more workers than cores did not help in measurements here), ADJUDICATOR_WORKER_CLASS
(default sync), ADJUDICATOR_THREADS (gthread only).
"""

import os

bind = os.environ.get("ADJUDICATOR_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("ADJUDICATOR_WORKERS", os.cpu_count() or 2))
worker_class = os.environ.get("ADJUDICATOR_WORKER_CLASS", "sync")
threads = int(os.environ.get("ADJUDICATOR_THREADS", "1"))
wsgi_app = "adjudicator.wsgi:app"
accesslog = os.environ.get("ADJUDICATOR_ACCESS_LOG") or None
graceful_timeout = 10
timeout = 30


def on_starting(server):
    # Create the database tables and the signing key once, in the master, before workers
    # start, so that workers never race to create them.
    from adjudicator.app import prepare
    from adjudicator.config import Config

    prepare(Config.load())
