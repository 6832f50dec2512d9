#!/usr/bin/env bash
# Long fuzzing runs:
# 1. schemathesis against the adjudicator's own OpenAPI document, in-process:
#    FUZZ_TOTAL cases spread over every operation (default 12000; at least 10,000);
# 2. hostile uploads against real gunicorn while a player rolls (bench/overload.py): bombs, a
#    70k-piece save, pathological logs, deep JSON, FUZZ_UPLOAD_SECONDS (default 60) from two
#    clients; every answer, the peak worker memory and the rolls meanwhile checked against bounds.
#   bash scripts/fuzz.sh            # or: FUZZ_TOTAL=50000 bash scripts/fuzz.sh
set -u
cd "$(dirname "$0")/.."
export FUZZ_TOTAL="${FUZZ_TOTAL:-12000}"
echo "fuzz: about $FUZZ_TOTAL cases against /api/v1/openapi.json" >&2
.venv/bin/pytest -q -p no:cacheprovider tests/test_reliability_schema.py "$@" || exit 1
echo "fuzz: hostile uploads for ${FUZZ_UPLOAD_SECONDS:-60} s against gunicorn" >&2
exec .venv/bin/python -m bench.overload --only uploads --uploaders 2 --seconds "${FUZZ_UPLOAD_SECONDS:-60}"
