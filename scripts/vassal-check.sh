#!/usr/bin/env bash
# Opens every built module in the real VASSAL 3.7.26 engine (the shared vassal-check tool),
# starts a new game and every predefined setup, and fails on any warning.
# Needs VASSAL_ENGINE_JAR (see ../shared/tools/vassal-check/README.md for how to obtain the engine;
# the engine is never part of this project).
#   bash scripts/vassal-check.sh [dist/*.vmod]
set -u
cd "$(dirname "$0")/.."
checker=${VASSAL_CHECK:-../shared/tools/vassal-check/vassal-check}
if [ -z "${VASSAL_ENGINE_JAR:-}" ] || [ ! -x "$checker" ]; then
  echo "vassal-check: set VASSAL_ENGINE_JAR to a VASSAL 3.7.26 engine jar (and have $checker)" >&2
  exit 2
fi
modules=("$@")
[ ${#modules[@]} -eq 0 ] && modules=(dist/*.vmod)
mkdir -p dist/vassal-check
status=0
for module in "${modules[@]}"; do
  name=$(basename "$module" .vmod)
  if "$checker" "$module" --new-game --all-setups --strict-roundtrip --timeout 900 \
       --json "dist/vassal-check/$name.json" >/dev/null 2>"dist/vassal-check/$name.log"; then
    echo "$name: PASS"
  else
    echo "$name: FAIL (dist/vassal-check/$name.json)"; status=1
  fi
done
exit $status
