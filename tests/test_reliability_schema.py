"""Property-based fuzzing of the adjudicator against its own OpenAPI document.

schemathesis reads /api/v1/openapi.json from the app in-process (WSGI, no
server) and sends generated requests to every operation: no response may be
a 5xx, and every response must conform to the document (status codes,
content types, headers, bodies).  Game endpoints get a real game's id and
token on half their cases, so the fuzzer gets past authentication into the
rules.

Bounded for `make test`: about FUZZ_TOTAL cases in all (default 240),
spread over the operations, derandomised so a failure reproduces.  The long
run (>= 10,000 cases) is `scripts/fuzz.sh` (`make fuzz`), which raises
FUZZ_TOTAL.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from adjudicator.testing import a_side, bearer, make_app, new_game

pytestmark = pytest.mark.slow  # long: make test only, not make test-fast

#: What the service promises: no 5xx, and every response as documented.  (schemathesis's
#: "positive data acceptance" is left out on purpose: a check's request is also validated by
#: its rules — unit ids, dice counts, hexes — which JSON Schema cannot express, so a
#: schema-valid body may rightly get 422.)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance]

FUZZ_TOTAL = int(os.environ.get("FUZZ_TOTAL", "240"))

# The schema is needed at collection time to make one test per operation, so the app (on a
# throwaway SQLite file) is built at import; the directory lives as long as the test process.
_WORKDIR = tempfile.TemporaryDirectory(prefix="kw-fuzz-")
APP = make_app(Path(_WORKDIR.name))
SCHEMA = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", APP)
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
EXAMPLES = max(2, FUZZ_TOTAL // max(1, len(OPERATIONS)))


@pytest.fixture(scope="module")
def games():
    """One open game per system: system -> (game id, side token)."""
    client = APP.test_client()
    out = {}
    for system in client.get("/api/v1/systems").get_json()["systems"]:
        game = new_game(client, system["id"])
        out[system["id"]] = (game["game_id"], a_side(game))
    return out


@pytest.mark.parametrize("operation", OPERATIONS, ids=[op.label for op in OPERATIONS])
def test_no_server_errors_and_responses_match_the_schema(operation, games):
    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy())
    def fuzz(case):
        if "game_id" in (case.path_parameters or {}) and _coin(case):
            game_id, token = games[_system_for(operation, games)]
            case.path_parameters["game_id"] = game_id
            case.headers = {**(case.headers or {}), **bearer(token)}
        case.call_and_validate(checks=CHECKS)

    fuzz()


def _coin(case) -> bool:
    """Half the game-endpoint cases, chosen deterministically from the case itself."""
    return len(repr(case.body)) % 2 == 0


def _system_for(operation, games) -> str:
    """A system that has this check (so the request reaches its rules), else any system."""
    check = operation.path.rstrip("/").rsplit("/", 1)[-1]
    paths = SCHEMA.raw_schema.get("paths") or {}
    for system in games:
        if f"/api/v1/systems/{system}/{check}" in paths:
            return system
    return next(iter(games))
