"""The offline verifier command: `adjudicator verify ledger.json --key pub.pem`."""

import json

import pytest

from adjudicator.cli import main
from adjudicator.ledger.keys import load_or_create_signing_key, public_pem
from adjudicator.testing import probe_check, a_side, bearer, make_app, new_game


@pytest.fixture(autouse=True)
def probe():
    """The service is tested through a probe check registered for each test."""
    with probe_check() as spec:
        yield spec


@pytest.fixture
def exported(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    game = new_game(client)
    token = a_side(game)
    for turn in (1, 2, 3):
        client.post(f"/api/v1/games/{game['game_id']}/probe_roll",
                    json={"target": turn}, headers=bearer(token))
    client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(token))
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(token)).get_json()
    ledger_path = tmp_path / "ledger.json"
    ledger_path.write_text(json.dumps(ledger))
    key_path = tmp_path / "pub.pem"
    key_path.write_text(public_pem(app.extensions["adjudicator"].signing_key.public_key))
    keys_json = tmp_path / "keys.json"
    keys_json.write_text(client.get("/.well-known/adjudicator-keys.json").get_data(as_text=True))
    return ledger_path, key_path, keys_json


def test_verify_ok_with_pem_key(exported, capsys):
    ledger_path, key_path, _ = exported
    assert main(["verify", str(ledger_path), "--key", str(key_path)]) == 0
    out = capsys.readouterr().out
    assert "OK: verified" in out
    assert "dice recomputed:    3 (seed revealed)" in out


def test_verify_ok_with_well_known_keys_document(exported, capsys):
    ledger_path, _, keys_json = exported
    assert main(["verify", str(ledger_path), "--key", str(keys_json), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_verify_fails_on_tampering(exported, capsys):
    ledger_path, key_path, _ = exported
    ledger = json.loads(ledger_path.read_text())
    outcome = ledger["records"][2]["body"]["result"]["outcome"]
    outcome["hit"] = not outcome["hit"]
    ledger_path.write_text(json.dumps(ledger))
    assert main(["verify", str(ledger_path), "--key", str(key_path)]) == 1
    out = capsys.readouterr().out
    assert "PROBLEM hash_mismatch: record 2" in out and "FAILED" in out


def test_verify_fails_with_the_wrong_key(exported, tmp_path, capsys):
    ledger_path, _, _ = exported
    other = tmp_path / "other.pem"
    other.write_text(public_pem(load_or_create_signing_key(tmp_path / "other-private.pem").public_key))
    assert main(["verify", str(ledger_path), "--key", str(other)]) == 1
    assert "unknown_key" in capsys.readouterr().out


def test_public_key_never_creates_a_key_and_says_where_it_is_expected(tmp_path, monkeypatch, capsys):
    """Run outside the server's folder, it used to make a new key and export that: verification
    then failed with "unknown key". Now it refuses and points to the published keys."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ADJUDICATOR_KEY_PATH", raising=False)
    assert main(["public-key", "--out", "pub.pem"]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path / "var" / "signing-key.pem") in err and "adjudicator-client keys" in err
    assert not (tmp_path / "var").exists() and not (tmp_path / "pub.pem").exists()


def test_verify_reads_bad_input_without_a_traceback(exported, tmp_path, capsys):
    ledger_path, key_path, _ = exported
    assert main(["verify", str(ledger_path), "--key", str(tmp_path / "missing.pem")]) == 2
    assert main(["verify", str(key_path), "--key", str(key_path)]) == 2  # a key is not a ledger
    assert "cannot read the input" in capsys.readouterr().err


@pytest.mark.slow
def test_public_key_and_rotate_key_commands(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cli.sqlite3'}")
    monkeypatch.setenv("ADJUDICATOR_KEY_PATH", str(tmp_path / "key.pem"))
    make_app(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'cli.sqlite3'}",
             ADJUDICATOR_KEY_PATH=str(tmp_path / "key.pem"))  # the server's first start makes the key
    assert main(["public-key", "--out", str(tmp_path / "before.pem")]) == 0
    assert main(["rotate-key"]) == 0
    assert "stays published" in capsys.readouterr().out
    assert main(["public-key", "--out", str(tmp_path / "after.pem")]) == 0
    before, after = (tmp_path / "before.pem").read_text(), (tmp_path / "after.pem").read_text()
    assert before != after and after.startswith("-----BEGIN PUBLIC KEY-----")
    assert list(tmp_path.glob("key.pem.*.retired"))
    app = make_app(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'cli.sqlite3'}",
                   ADJUDICATOR_KEY_PATH=str(tmp_path / "key.pem"))
    kids = {k["kid"] for k in app.test_client().get("/.well-known/adjudicator-keys.json").get_json()["keys"]}
    from adjudicator.ledger.keys import load_public_keys

    assert set(load_public_keys(tmp_path / "before.pem")) | set(load_public_keys(tmp_path / "after.pem")) == kids


def test_both_verify_commands_word_it_the_same(exported, capsys):
    from adjudicator.client.cli import main as client_main

    ledger_path, _, keys_json = exported
    assert main(["verify", str(ledger_path), "--key", str(keys_json)]) == 0
    server_side = capsys.readouterr().out
    assert client_main(["verify", str(ledger_path), "--key", str(keys_json)]) == 0
    assert capsys.readouterr().out == server_side
    assert server_side.rstrip().endswith("OK: verified")
