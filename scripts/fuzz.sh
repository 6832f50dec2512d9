#!/usr/bin/env bash
# Long schemathesis run against the adjudicator's own OpenAPI document, in-process:
# FUZZ_TOTAL cases spread over every operation (default 12000; at least 10,000).
#   bash scripts/fuzz.sh            # or: FUZZ_TOTAL=50000 bash scripts/fuzz.sh
set -u
cd "$(dirname "$0")/.."
export FUZZ_TOTAL="${FUZZ_TOTAL:-12000}"
echo "fuzz: about $FUZZ_TOTAL cases against /api/v1/openapi.json" >&2
exec .venv/bin/pytest -q -p no:cacheprovider tests/test_reliability_schema.py "$@"
