#!/usr/bin/env bash
# Runs the whole test suite.  Starts a throwaway PostgreSQL server (when the
# binaries are installed and TEST_DATABASE_URL is not set already) so the
# storage tests run against a real server too, and stops it afterwards.
set -u
cd "$(dirname "$0")/.."
pg_dir=""
cleanup() { [ -n "$pg_dir" ] && bash scripts/postgres.sh stop "$pg_dir" >/dev/null 2>&1; rm -rf "$pg_dir"; }
trap cleanup EXIT
if [ -z "${TEST_DATABASE_URL:-}" ] && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  pg_dir=$(mktemp -d /tmp/kw-pg.XXXXXX)
  if url=$(bash scripts/postgres.sh start "$pg_dir"); then
    export TEST_DATABASE_URL="$url"
    echo "run-tests: PostgreSQL for the storage tests at $url" >&2
  else
    echo "run-tests: could not start PostgreSQL; its tests will skip" >&2
  fi
fi
.venv/bin/pytest -q "$@"
