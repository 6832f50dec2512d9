"""Rulings as chat lines: rendering, the ?transcript=1 parameter, reading them back from texts."""

import pytest

from adjudicator.testing import a_side, bearer, make_app, new_game, probe_check
from adjudicator.transcript import (
    COMPUTE_TAG,
    chat_lines,
    comparable_lines,
    dice_text,
    parse_transcript,
    readable,
)

ROLL = "/api/v1/games/{}/probe_roll"
COMPUTE = "/api/v1/systems/kwb/probe_roll"


@pytest.fixture(autouse=True)
def probe():
    with probe_check() as spec:
        yield spec


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def test_nested_values_read_as_text_without_braces_quotes_or_reprs():
    value = {"attackers": [{"unit": "nkpa-1", "sp_before": 3, "hits": 0, "eliminated": False, "note": ""}],
             "defender": {"unit": "rok-1", "sp": 1}, "ratio": 1.5, "none": None, "tags": []}
    text = readable(value)
    assert text == "attackers nkpa-1 (eliminated no, hits 0, sp before 3), defender rok-1 (sp 1), ratio 1.5"
    assert readable([{"unit": "a", "hits": 1}, {"unit": "b"}]) == "a (hits 1); b"
    assert not set("{}'\"[]") & set(text)


def test_dice_are_grouped_by_purpose_in_rolling_order():
    dice = [{"sides": 6, "purpose": "attacker", "value": 5}, {"sides": 6, "purpose": "attacker", "value": 2},
            {"sides": 6, "purpose": "defender", "value": 1}, {"sides": 10, "purpose": "", "value": 10}]
    assert dice_text(dice) == "attacker d6 5 2; defender d6 1; d10 10"


def test_compute_ruling_lines_carry_the_compute_tag_and_no_control_characters():
    result = {"system": "kwb", "check": "probe_roll", "rule": "Probe 1", "outcome": {"hit": True},
              "steps": [{"text": "Rolled\n6\x1b", "rule": "P1"}], "warnings": ["stand-in"],
              "dice_used": [{"sides": 6, "purpose": "probe die", "value": 6}]}
    lines = chat_lines(result, system_name="Korean War Battles")
    assert lines == [
        "[ADJ compute] Korean War Battles: probe roll (Probe 1)",
        "[ADJ compute] = hit: yes",
        "[ADJ compute] dice: probe die d6 6",
        "[ADJ compute] 1. Rolled 6 [P1]",
        "[ADJ compute] warning: stand-in",
        "[ADJ compute] not recorded: computed from the players' own dice",
    ]
    assert all(COMPUTE_TAG in line for line in lines)


def test_compute_mode_answers_with_a_transcript_only_when_asked(client):
    plain = client.post(COMPUTE, json={"target": 3, "dice": [4]}).get_json()
    assert "transcript" not in plain
    asked = client.post(COMPUTE + "?transcript=1", json={"target": 3, "dice": [4]}).get_json()
    assert asked["transcript"][0] == "[ADJ compute] Korean War Battles: probe roll (Probe rule 1)"
    assert "[ADJ compute] = hit: yes" in asked["transcript"]


def test_a_recorded_ruling_is_tagged_with_game_and_record_and_matches_the_ledger(client):
    game = new_game(client)
    headers = bearer(a_side(game))
    body = client.post(ROLL.format(game["game_id"]) + "?transcript=1", json={"target": 4},
                       headers=headers).get_json()
    tag = f"[ADJ {game['game_id']}#1]"
    assert all(line.startswith(tag + " ") for line in body["transcript"])
    assert body["transcript"][0].endswith(f"for {body['side'].title() if body['side'] != 'un' else 'UN'}")
    assert f"receipt: record 1 hash {body['hash'][:16]} signed {body['receipt']['kid']}" in \
        " ".join(body["transcript"])
    assert body["transcript"][-1].endswith(f"/games/{game['game_id']}#record-1")

    # Read back from chat texts (with a prefix VASSAL or a player might add), it is one ruling
    # whose lines are what the ledger record renders to.
    texts = ["<alice> hello"] + [f"* {line}" for line in body["transcript"]] + ["bye"]
    (entry,) = parse_transcript(texts)
    assert (entry.game_id, entry.seq, entry.hash_prefix) == (game["game_id"], 1, body["hash"][:16])
    record = ledger_document_record(client, game, headers, 1)
    assert entry.comparable() == comparable_lines(record, system_name="Korean War Battles")


def ledger_document_record(client, game, headers, seq):
    """The game-mode response as rebuilt from the ledger alone (what a verifier has)."""
    from adjudicator.rulings import recorded_response as game_check_response
    from adjudicator.ledger import Record

    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=headers).get_json()
    raw = next(r for r in ledger["records"] if r["seq"] == seq)
    with client.application.app_context():
        return game_check_response(Record(game_id=ledger["game"]["id"], **{
            k: raw[k] for k in ("seq", "prev_hash", "body", "hash", "receipt")}))


def test_consecutive_rulings_with_one_tag_are_told_apart():
    result = {"system": "kwb", "check": "c", "rule": "", "outcome": {"x": 1}, "steps": [], "warnings": [],
              "dice_used": []}
    lines = chat_lines(result) + chat_lines({**result, "outcome": {"x": 2}})
    first, second = parse_transcript(lines)
    assert first.lines[1] == "= x: 1" and second.lines[1] == "= x: 2"
    assert not first.recorded and first.seq is None
