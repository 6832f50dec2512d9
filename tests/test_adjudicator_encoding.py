"""The roll path encodes a record body once and reuses the bytes; they must be the same bytes.

`record_hash_of_encoded_body` writes the hashed object out by hand around the body's canonical
JSON. If it ever differed from `canonical_bytes` of the whole record by one byte, every new
record's hash would disagree with what the verifier (and anyone else) recomputes.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.canonical import canonical_bytes
from adjudicator.ledger.keys import load_or_create_signing_key
from adjudicator.ledger.records import build_record, make_body, record_hash, record_hash_of_encoded_body
import pytest

json_scalars = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=12)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    game_id=st.text(min_size=1, max_size=20),
    seq=st.integers(0, 10**9),
    prev_hash=st.text(max_size=64),
    body=st.dictionaries(st.text(max_size=10), json_values, max_size=6),
)
def test_the_hash_from_encoded_bytes_equals_the_canonical_hash(game_id, seq, prev_hash, body):
    assert record_hash_of_encoded_body(game_id, seq, prev_hash, canonical_bytes(body)) == \
        record_hash(game_id, seq, prev_hash, body)


def test_a_built_record_keeps_the_canonical_body_it_hashed(tmp_path):
    key = load_or_create_signing_key(str(tmp_path / "key.pem"))
    body = make_body("kwb.probe", {"target": 3, "note": "Ünïcode ok"}, {"outcome": {"hit": True}}, "r-1", "un")
    record = build_record(key, "g123", 7, "ab" * 32, body)
    assert record.canonical_body == canonical_bytes(body)
    assert json.loads(record.canonical_body) == body
    assert record.hash == record_hash("g123", 7, "ab" * 32, body)


def test_stored_records_round_trip_to_equal_records(tmp_path):
    """Records read back (no cached bytes) compare equal to the freshly built ones."""
    from adjudicator.testing import a_side, bearer, make_app, new_game, probe_check, probe_url

    with probe_check():
        app = make_app(tmp_path)
        client = app.test_client()
        game = new_game(client)
        headers = bearer(a_side(game))
        rolled = client.post(probe_url(game), json={"target": 4, "request_id": "x1"}, headers=headers)
        assert rolled.status_code == 201
        again = client.post(probe_url(game), json={"target": 4, "request_id": "x1"}, headers=headers)
        assert again.status_code == 200 and again.get_json() == rolled.get_json()
        ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=headers).get_json()
        report = client.post("/api/v1/verify", json={"ledger": ledger}).get_json()
        assert report["ok"] is True, report
