#!/usr/bin/env bash
# Crash-safety soak: 50 concurrent clients roll on a few games, gunicorn is killed -9 mid-run,
# restarted, and every ledger, acknowledged roll and retry is checked (bench/soak.py).
#   bash scripts/soak.sh                       # one round, 20 s of rolling
#   bash scripts/soak.sh --rounds 5 --seconds 30
set -u
cd "$(dirname "$0")/.."
exec .venv/bin/python -m bench.soak --clients 50 --games 4 "$@"
