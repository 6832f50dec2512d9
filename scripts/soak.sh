#!/usr/bin/env bash
# Crash-safety soak: 50 concurrent clients roll on a few games, gunicorn is killed -9 mid-run,
# restarted, and every ledger, acknowledged roll and retry is checked (bench/soak.py).
# Then overload (bench/overload.py): 200 slowloris and half-open connections while a player rolls, 20
# connections from one address asking chances without pause (the odds limit must answer 429), two
# players uploading the longest log a replay accepts at once (built beside the requests), and
# the database's disk filling mid-play (root only: a tmpfs; skipped otherwise).
# Then, when PostgreSQL is installed (or SOAK_DATABASE_URL names a server), the scale-out soak: two
# instances over one PostgreSQL, one of them killed -9 mid-run (bench/scaleout.py).
#   bash scripts/soak.sh                       # one round, 20 s of rolling
#   bash scripts/soak.sh --rounds 5 --seconds 30
set -u
cd "$(dirname "$0")/.."
.venv/bin/python -m bench.soak --clients 50 --games 4 "$@" || exit 1
.venv/bin/python -m bench.overload --only slow,odds,replays,outage --slow 200 --flooders 20 --seconds 20 || exit 1
pg_dir=""
cleanup() { [ -n "$pg_dir" ] && bash scripts/postgres.sh stop "$pg_dir" >/dev/null 2>&1; [ -n "$pg_dir" ] && rm -rf "$pg_dir"; }
trap cleanup EXIT
url="${SOAK_DATABASE_URL:-}"
if [ -z "$url" ] && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  pg_dir=$(mktemp -d /tmp/kw-pg.XXXXXX)
  url=$(bash scripts/postgres.sh start "$pg_dir") || { echo "soak: could not start PostgreSQL" >&2; exit 1; }
fi
if [ -z "$url" ]; then
  echo "soak: no PostgreSQL (install it or set SOAK_DATABASE_URL): scale-out soak skipped" >&2
  exit 0
fi
.venv/bin/python -m bench.scaleout --database-url "$url" --clients 24 --games 4 "$@"
