#!/usr/bin/env bash
# The Adjudicator extension end to end (docs/vassal-extension.md): a real adjudicator on a
# loopback port, each game's module in the real VASSAL 3.7.26 engine under Xvfb, driven through
# the extension; plus the extension's Java unit tests and its compile against the real engine.
# Needs VASSAL_ENGINE_JAR (a 3.7.26 engine jar; ../shared/tools/vassal-check/README.md says how
# to obtain one); without it the engine tests skip and say why.
set -u
cd "$(dirname "$0")/.."
[ -n "${VASSAL_ENGINE_JAR:-}" ] || echo "vassal-e2e: VASSAL_ENGINE_JAR is not set: the engine tests will skip" >&2
exec .venv/bin/pytest -q -rs tests/test_vassal_extension_e2e.py tests/test_extension_java.py "$@"
