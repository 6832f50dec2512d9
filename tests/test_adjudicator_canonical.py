"""The fast canonical encoder writes exactly the bytes of the reference definition.

Record hashes and receipt signatures cover these bytes; anyone re-computing them uses the
documented rule (Python's json.dumps with sorted keys, compact, UTF-8), so one byte of
difference would make every new record fail verification elsewhere. The values cover what a
ledger holds: text of any kind (control characters, non-ASCII, astral), integers of every size
(orjson refuses those beyond 64 bits), floats of every magnitude (the two write some small ones
differently) and nesting.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import json

from adjudicator.canonical import canonical_bytes, parse_json, reference_canonical_bytes

finite_floats = st.floats(allow_nan=False, allow_infinity=False)
json_scalars = (st.none() | st.booleans() | st.integers() | st.integers(-(2**64), 2**64) | finite_floats
                | st.text() | st.sampled_from(["0.0000", "1e-5", "re-roll", "x2e-3y"]))
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(json_values)
@example(1e-05)
@example(1e-06)
@example([2.5e-07, {"mp": 0.5, "cost": 1.0}])
@example(2**64)
@example({"b": 1, "a": {"\u00e9": "\u2028\x00\x7f\U0001f600"}})
def test_fast_encoder_writes_the_reference_bytes(value):
    assert canonical_bytes(value) == reference_canonical_bytes(value)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(json_values)
@example(2**64)
@example([-0.0, 1.0, 1, 2.5e-07, 1e300, -(2**63) - 1])
def test_stored_text_reads_back_as_the_json_module_reads_it(value):
    text = reference_canonical_bytes(value).decode("utf-8")  # as the ledger stores it
    # type for type: the reference encoding tells 1 from 1.0 where == does not
    assert reference_canonical_bytes(parse_json(text)) == reference_canonical_bytes(json.loads(text))


@pytest.mark.parametrize("text", ['{"n":18446744073709551616}', '["\\ud800"]', '{"k":"\\udfff x"}'])
def test_what_the_fast_reader_refuses_is_read_by_the_json_module(text):
    assert parse_json(text) == json.loads(text)


def test_keys_that_are_not_text_are_encoded_as_the_reference_does():
    assert canonical_bytes({2: "a", 1: [True]}) == reference_canonical_bytes({2: "a", 1: [True]}) == b'{"1":[true],"2":"a"}'


@pytest.mark.parametrize("bad", ["\ud800", {"k": "\udfff"}])
def test_lone_surrogates_are_refused_like_the_reference(bad):
    with pytest.raises(UnicodeEncodeError):
        reference_canonical_bytes(bad)
    with pytest.raises(UnicodeEncodeError):
        canonical_bytes(bad)


def test_requests_refuse_nan_which_canonical_json_cannot_record():
    from adjudicator.checks import CheckRequest
    from pydantic import ValidationError

    class Req(CheckRequest):
        cost: float

    assert Req.model_validate_json(b'{"cost": 1.5}').cost == 1.5
    for bad in (b'{"cost": NaN}', b'{"cost": Infinity}'):
        with pytest.raises(ValidationError):
            Req.model_validate_json(bad)
    with pytest.raises(ValidationError):
        Req(cost=math.inf)
