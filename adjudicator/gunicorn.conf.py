"""Gunicorn settings for `adjudicator serve` (or `gunicorn -c adjudicator/gunicorn.conf.py`).

Workers are gevent workers: each connection is a greenlet, so slow or idle clients cost a few
kilobytes each instead of a whole worker. With the former sync workers, as many half-open
connections as workers (two) stopped the service for 30 s; with gevent, 200 slowloris
connections leave rolls answered (docs/performance.md, "Overload"). A request's headers must
arrive within `keepalive` seconds (gunicorn's gevent worker reads them under that timeout), so a
client trickling header lines is dropped. The rest of a request is plain blocking Python (SQLite,
signing, rules) run one greenlet at a time: the same CPU per request as sync workers, and the
ledger's write path unchanged (its locks are gevent's once the worker has patched threading).
Long CPU work yields (reading an upload, see adjudicator/bridge/upload.py).

Environment: ADJUDICATOR_BIND (default 127.0.0.1:8000), ADJUDICATOR_WORKERS (default: CPU
count; more workers than cores did not help in measurements here), ADJUDICATOR_WORKER_CLASS
(default gevent; sync and gthread still work, without the protection from slow clients),
ADJUDICATOR_THREADS (gthread only), ADJUDICATOR_WORKER_CONNECTIONS (default 1000 per worker),
ADJUDICATOR_CONTROL_SOCKET (gunicorn's control socket for `gunicornc`: none unless set, see below).
"""

import os

bind = os.environ.get("ADJUDICATOR_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("ADJUDICATOR_WORKERS", os.cpu_count() or 2))
worker_class = os.environ.get("ADJUDICATOR_WORKER_CLASS", "gevent")
worker_connections = int(os.environ.get("ADJUDICATOR_WORKER_CONNECTIONS", "1000"))
threads = int(os.environ.get("ADJUDICATOR_THREADS", "1"))
wsgi_app = "adjudicator.wsgi:app"
accesslog = os.environ.get("ADJUDICATOR_ACCESS_LOG") or None
#: Seconds for a request's headers to arrive (gevent), and for an idle kept-alive connection.
keepalive = 5
#: The longest request line (gunicorn's own maximum): a form's chances are shown at the address of
#: its situation (adjudicator.web.game_pages.situation_address), a few KB for a combat of many units.
limit_request_line = 8190
graceful_timeout = 10
timeout = 30
#: Gunicorn's control socket (gunicorn 25.1+, for `gunicornc`) defaults to one path per user,
#: ~/.gunicorn/gunicorn.ctl: every server of a machine took it over from the last one started, and
#: the first to stop removed the others' (issue 52). The service needs none (SIGHUP reloads, SIGTERM
#: stops): off, unless ADJUDICATOR_CONTROL_SOCKET names a socket of this server's own.
_own_control_socket = os.environ.get("ADJUDICATOR_CONTROL_SOCKET", "")
control_socket_disable = not _own_control_socket
if _own_control_socket:
    control_socket = _own_control_socket


def on_starting(server):
    # Create the database tables and the signing key once, in the master, before workers
    # start, so that workers never race to create them. Read and check the game data here too:
    # the workers are forks of the master and serve what it read (adjudicator/served_data.py).
    from adjudicator import served_data
    from adjudicator.app import prepare
    from adjudicator.config import Config

    prepare(Config.load())
    served_data.start(server.log)


def on_reload(server):
    # SIGHUP: gunicorn has re-read this file and forks the new workers right after this hook. The
    # data is read again first; with a problem the master keeps the data it has (each problem
    # logged as file:line, and shown by GET /api/v1/status), so the new workers serve the previous
    # data instead of failing to boot, which would stop the service.
    from adjudicator import served_data

    served_data.reload(server.log)


def worker_exit(server, worker):
    # The worker's last act before its interpreter exits. A gevent worker's interpreter, tearing
    # down, may collect a logging handler after gevent has torn down its thread module; the
    # handler's weak reference then takes logging's lock and fails ("Exception ignored in
    # _removeHandlerRef ... 'NoneType' object is not callable"), a traceback in the server's log
    # at every reload that is nobody's error. Flushed and closed now, with logging's list of them
    # emptied, the handlers are let go without the lock.
    import logging

    logging.shutdown()
    logging._handlerList.clear()
