"""A bounded schemathesis run against the app's own OpenAPI document, in-process.

No 5xx, every response matches the documented schema, status and content type, and
schema-violating requests are refused. (Schema-valid compute requests may still be refused
with 422 when the supplied dice do not fit the check, which no schema can express, so
schemathesis' positive-data check is left out.) The long run belongs to `make fuzz`.
"""

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from adjudicator.testing import PROBE_CHECK, make_app, probe_check
import pytest

# The service's own endpoints plus the probe check (its roll and its odds); the games' checks are their owners' to fuzz
# (the project-wide run is the reliability suite's).
with probe_check():
    app = make_app(Path(tempfile.mkdtemp(prefix="adjudicator-openapi-")))
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app).exclude(
    path_regex=rf"^/api/v1/(systems/[a-z]+|games/\{{game_id\}})/(?!{PROBE_CHECK}(/odds)?$|ledger$|close$)[a-z_]+(/odds)?$"
)
# Invalid data may also be refused for its size: now and then hypothesis builds a body (a list of
# thousands of receipts for /verify) over ADJUDICATOR_MAX_BODY_BYTES, which is a 413, not a 4xx
# schemathesis expects by default.
rejection = schema.config.checks.negative_data_rejection
rejection.expected_statuses = [*rejection.expected_statuses, "413"]


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
