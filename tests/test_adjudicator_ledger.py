"""Ledger verification: chain integrity, tamper detection, receipts, seed reveal, key rotation."""

import copy

import pytest

from adjudicator.ledger.keys import load_or_create_signing_key, public_key_from_raw, rotate_signing_key
from adjudicator.ledger.records import build_record, make_body, record_hash, sign_receipt
from adjudicator.testing import probe_check, a_side, bearer, make_app, new_game
from adjudicator.ledger.verify import verify_ledger, verify_receipt


@pytest.fixture(autouse=True)
def probe():
    """The service is tested through a probe check registered for each test."""
    with probe_check() as spec:
        yield spec


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


@pytest.fixture
def client(app):
    return app.test_client()


def published_keys(client):
    """The keys as a verifier gets them: from the well-known URL, not from the server's memory."""
    document = client.get("/.well-known/adjudicator-keys.json").get_json()
    return {entry["kid"]: public_key_from_raw(entry["public_key"]) for entry in document["keys"]}


def play(client, rolls=4, close=False):
    game = new_game(client, "kwb")
    token = a_side(game)
    for turn in range(1, rolls + 1):
        response = client.post(
            f"/api/v1/games/{game['game_id']}/probe_roll",
            json={"target": turn, "request_id": f"turn-{turn}"},
            headers=bearer(token),
        )
        assert response.status_code == 201
    if close:
        assert client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(token)).status_code == 200
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(token)).get_json()
    return game, ledger


def codes(report):
    return {problem.code for problem in report.problems}


def test_untouched_ledger_verifies(client):
    _, ledger = play(client)
    report = verify_ledger(ledger, published_keys(client))
    assert report.ok, report.problems
    assert report.records_checked == 5 and report.signatures_checked == 5
    assert not report.seed_revealed


def test_chain_links_every_record_to_the_previous(client):
    _, ledger = play(client)
    records = ledger["records"]
    assert records[0]["prev_hash"] == "0" * 64
    for previous, record in zip(records, records[1:]):
        assert record["prev_hash"] == previous["hash"]
        assert record["seq"] == previous["seq"] + 1
    for record in records:
        assert record["hash"] == record_hash(ledger["game"]["id"], record["seq"], record["prev_hash"], record["body"])


@pytest.mark.slow
def test_edited_record_is_detected(client):
    _, ledger = play(client)
    outcome = ledger["records"][2]["body"]["result"]["outcome"]
    outcome["hit"] = not outcome["hit"]
    report = verify_ledger(ledger, published_keys(client))
    assert "hash_mismatch" in codes(report)
    assert 2 in report.bad_seqs


def test_edited_record_with_recomputed_hash_is_detected(client):
    _, ledger = play(client)
    record = ledger["records"][2]
    die = record["body"]["result"]["dice_used"][0]
    die["value"] = die["value"] % 6 + 1
    record["hash"] = record_hash(ledger["game"]["id"], record["seq"], record["prev_hash"], record["body"])
    report = verify_ledger(ledger, published_keys(client))
    assert {"receipt_mismatch", "chain_broken"} <= codes(report)


@pytest.mark.slow
def test_deleted_record_is_detected(client):
    _, ledger = play(client)
    del ledger["records"][2]
    report = verify_ledger(ledger, published_keys(client))
    assert {"seq_gap", "chain_broken"} <= codes(report)


def test_reordered_records_are_detected(client):
    _, ledger = play(client)
    records = ledger["records"]
    records[1], records[2] = records[2], records[1]
    report = verify_ledger(ledger, published_keys(client))
    assert {"seq_gap", "chain_broken"} <= codes(report)


def test_inserted_record_is_detected(client, app):
    _, ledger = play(client)
    key = app.extensions["adjudicator"].signing_key  # even a validly signed extra record
    game_id = ledger["game"]["id"]
    forged = build_record(key, game_id, 2, ledger["records"][1]["hash"],
                          make_body("kwb.probe_roll", {"target": 2}, {}, None, "un"))
    ledger["records"].insert(2, forged.to_json())
    report = verify_ledger(ledger, published_keys(client))
    assert {"seq_gap", "chain_broken"} <= codes(report)


@pytest.mark.slow
def test_truncated_ledger_is_exposed_by_a_kept_receipt(client):
    _, ledger = play(client)
    kept = ledger["records"][-1]["receipt"]
    truncated = copy.deepcopy(ledger)
    del truncated["records"][-1]
    assert "head_mismatch" in codes(verify_ledger(truncated, published_keys(client)))
    # A forger who also rewrites the (unsigned) header leaves a chain that cannot tell...
    truncated["game"]["head_seq"] = truncated["records"][-1]["seq"]
    truncated["game"]["head_hash"] = truncated["records"][-1]["hash"]
    assert verify_ledger(truncated, published_keys(client)).ok
    report = verify_ledger(truncated, published_keys(client), receipts=[kept])
    assert "receipt_not_in_ledger" in codes(report)


def test_receipt_verifies_with_published_key_and_fails_when_altered(client):
    _, ledger = play(client)
    record = ledger["records"][3]
    keys = published_keys(client)
    assert verify_receipt(record["receipt"], keys, record).ok
    altered = dict(record["receipt"], seq=99)
    assert "bad_signature" in codes(verify_receipt(altered, keys))
    other_record = ledger["records"][2]
    assert not verify_receipt(record["receipt"], keys, other_record).ok


def test_receipt_from_unknown_key_fails(client, tmp_path):
    _, ledger = play(client)
    stranger = load_or_create_signing_key(tmp_path / "stranger.pem")
    record = ledger["records"][1]
    forged = sign_receipt(stranger, ledger["game"]["id"], record["seq"], record["hash"])
    assert "unknown_key" in codes(verify_receipt(forged, published_keys(client)))


@pytest.mark.slow
def test_seed_reveal_recomputes_every_roll(client):
    game, ledger = play(client, rolls=5, close=True)
    report = verify_ledger(ledger, published_keys(client))
    assert report.ok, report.problems
    assert report.seed_revealed
    assert report.dice_recomputed == 5
    assert ledger["game"]["seed_commitment"] == game["seed_commitment"]


def test_falsified_die_is_caught_after_reveal(client, app):
    _, ledger = play(client, rolls=3, close=True)
    # A server that lied about a die would have to re-sign the chain; simulate that fully.
    key = app.extensions["adjudicator"].signing_key
    game_id = ledger["game"]["id"]
    die = ledger["records"][2]["body"]["result"]["dice_used"][0]
    die["value"] = die["value"] % 6 + 1
    previous = ledger["records"][1]["hash"]
    for index in range(2, len(ledger["records"])):
        record = ledger["records"][index]
        rebuilt = build_record(key, game_id, record["seq"], previous, record["body"])
        ledger["records"][index] = rebuilt.to_json()
        previous = rebuilt.hash
    ledger["game"]["head_hash"] = previous
    report = verify_ledger(ledger, published_keys(client))
    assert codes(report) == {"die_mismatch"}


def test_wrong_revealed_seed_is_detected(client):
    _, ledger = play(client, rolls=1, close=True)
    ledger["records"][-1]["body"]["result"]["seed"] = "00" * 32
    report = verify_ledger(ledger, published_keys(client))
    assert "seed_mismatch" in codes(report)


@pytest.mark.slow
def test_rotated_key_stays_verifiable(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    _, old_ledger = play(client, rolls=2)
    old_kid = app.extensions["adjudicator"].signing_key.kid

    rotate_signing_key(tmp_path / "signing-key.pem")
    app2 = make_app(tmp_path)  # a restart after rotation
    client2 = app2.test_client()
    assert app2.extensions["adjudicator"].signing_key.kid != old_kid
    keys = published_keys(client2)
    assert old_kid in keys
    document = client2.get("/.well-known/adjudicator-keys.json").get_json()
    retired = {entry["kid"]: entry["retired"] for entry in document["keys"]}
    assert retired[old_kid] is not None

    assert verify_ledger(old_ledger, keys).ok
    _, new_ledger = play(client2, rolls=1)
    assert verify_ledger(new_ledger, keys).ok


def test_verify_endpoint(client):
    _, ledger = play(client)
    ok = client.post("/api/v1/verify", json={"ledger": ledger}).get_json()
    assert ok["ok"] is True
    ledger["records"][1]["body"]["side"] += "-edited"
    bad = client.post("/api/v1/verify", json={"ledger": ledger}).get_json()
    assert bad["ok"] is False and bad["problems"][0]["seq"] == 1
    record = ledger["records"][2]
    single = client.post("/api/v1/verify", json={"receipt": record["receipt"], "record": record}).get_json()
    assert single["ok"] is True


def test_verifier_survives_garbage(client):
    keys = published_keys(client)
    for junk in [{}, {"records": "x"}, {"records": []}, {"records": [1, "a", None]},
                 {"records": [{"seq": 0, "body": [], "receipt": {"kid": [1]}}]},
                 {"game": {"seed": 5}, "records": [{"seq": "0", "body": {"check": "game.closed", "result": []}}]}]:
        assert not verify_ledger(junk, keys).ok


MUTATIONS = ["edit_time", "edit_request", "edit_die", "edit_prev_hash", "edit_signature", "delete", "swap_next",
             "duplicate"]


def mutate(ledger, index, mutation):
    records = ledger["records"]
    record = records[index]
    if mutation == "edit_time":
        record["body"]["time"] = record["body"]["time"].replace("Z", "1Z")
    elif mutation == "edit_request":
        record["body"]["request"]["tampered"] = True
    elif mutation == "edit_die":
        dice = record["body"]["result"].get("dice_used") or [{"sides": 6, "value": 0}]
        dice[0]["value"] = dice[0]["value"] % 6 + 1
        record["body"]["result"]["dice_used"] = dice
    elif mutation == "edit_prev_hash":
        record["prev_hash"] = "f" * 64
    elif mutation == "edit_signature":
        signature = record["receipt"]["signature"]
        record["receipt"]["signature"] = ("A" if signature[0] != "A" else "B") + signature[1:]
    elif mutation == "delete":
        del records[index]
    elif mutation == "swap_next":
        other = index + 1 if index + 1 < len(records) else index - 1
        records[index], records[other] = records[other], records[index]
    elif mutation == "duplicate":
        records.insert(index, copy.deepcopy(record))


@pytest.mark.slow
def test_every_single_tampering_is_detected(client):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    _, ledger = play(client, rolls=4, close=True)
    keys = published_keys(client)
    assert verify_ledger(ledger, keys).ok

    @settings(max_examples=150, deadline=None)
    @given(index=st.integers(0, len(ledger["records"]) - 1), mutation=st.sampled_from(MUTATIONS))
    def check(index, mutation):
        tampered = copy.deepcopy(ledger)
        mutate(tampered, index, mutation)
        assert not verify_ledger(tampered, keys).ok, (index, mutation)

    check()


@pytest.mark.slow
def test_an_instance_started_before_a_rotation_verifies_records_of_the_new_key(tmp_path):
    """Two instances share one database; the second restarts after `rotate-key`. The first,
    still running on the old key, must verify the new key's records (game page, POST /verify)."""
    first = make_app(tmp_path)
    first_client = first.test_client()
    old_kid = first.extensions["adjudicator"].signing_key.kid

    rotate_signing_key(tmp_path / "signing-key.pem")
    second = make_app(tmp_path)  # the other instance, restarted after the rotation
    assert second.extensions["adjudicator"].signing_key.kid != old_kid
    game, ledger = play(second.test_client(), rolls=2)
    assert {r["receipt"]["kid"] for r in ledger["records"]} == {second.extensions["adjudicator"].signing_key.kid}

    report = first_client.post("/api/v1/verify", json={"ledger": ledger}).get_json()
    assert report["ok"] is True, report["problems"]
    page = first_client.post(f"/games/{game['game_id']}", data={"token": a_side(game)}, follow_redirects=True)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "unknown" not in text.lower() and "FAILED" not in text, text[:2000]
    kids = {entry["kid"] for entry in first_client.get("/.well-known/adjudicator-keys.json").get_json()["keys"]}
    assert kids == {old_kid, second.extensions["adjudicator"].signing_key.kid}
