#!/usr/bin/env bash
# Runs the whole test suite (what `make test` and CI run).  Starts a throwaway PostgreSQL server (when the
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
# Two passes: everything in-process, browsers and PostgreSQL on both cores (pytest-xdist), then the
# tests that start a server process or drive the VASSAL engine one at a time: they wait on real
# processes with bounded timeouts, and sharing two cores with another such test is what makes a
# bounded wait flaky. The exit status is the first failure's.
.venv/bin/pytest -q -n 2 -m "not server and not engine" "$@"
first=$?
.venv/bin/pytest -q -m "server or engine" "$@"
second=$?
# 5: a pass selected no test (arguments naming files of only one kind); the other pass ran them
[ "$first" -eq 5 ] && first=0
[ "$second" -eq 5 ] && second=0
[ "$first" -ne 0 ] && exit "$first"
exit "$second"
