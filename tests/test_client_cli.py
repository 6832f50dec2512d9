"""``adjudicator-client`` against a real server on a free loopback port (werkzeug, in a thread).

Most calls run the client's ``main`` in-process (fast, output captured); one runs
``python -m adjudicator.client`` as a user would, with the server URL from the environment.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from test_bridge_helpers import (
    SCENARIO,
    SYSTEM,
    install_tracer,
    kwb,
    make_tracer,
    remove_tracer,
    running_server,
    savedgame_bytes,
    setup_units,
)

from adjudicator import checks
from adjudicator.checks import CheckRequest, CheckResult, either_side, register_check
from adjudicator.client.cli import main
from adjudicator.ledger.keys import public_pem
from adjudicator.services import Services
from adjudicator.testing import make_app


CHECK = "bridge_client_test_die"


class DieRequest(CheckRequest):
    modifier: int = 0


def _register_test_check() -> None:
    """A tiny random check of our own, so these tests do not depend on any game's rules."""

    @register_check(system=SYSTEM, name=CHECK, request=DieRequest, random=True,
                    summary="client test: one die plus a modifier", rule="test", actor=either_side(rule="test"))
    def die(req: DieRequest, dice) -> CheckResult:
        (roll,) = dice.roll(6, purpose="test die")
        return CheckResult(outcome={"total": roll + req.modifier,
                                    "detail": {"roll": roll, "doubled": False},
                                    "units": [{"unit": "nk-6", "hex": "0101"}, {"unit": "nk-2", "hex": "0102"}]})


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    _register_test_check()
    try:
        app = make_app(tmp_path_factory.mktemp("client-server"))
        with running_server(app) as url:
            yield url, app
    finally:
        checks._REGISTRY.pop((SYSTEM, CHECK), None)


@pytest.fixture(scope="module")
def units():
    return setup_units(kwb(), SCENARIO, 10)


@pytest.fixture(scope="module")
def vsav(tmp_path_factory, units):
    path = tmp_path_factory.mktemp("saves") / "turn3.vsav"
    path.write_bytes(savedgame_bytes(kwb(), units))
    return path


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.slow
def test_positions_human_and_json(server, vsav, units, capsys):
    url, _ = server
    status, out, err = run(capsys, "positions", vsav, "--system", SYSTEM, "--server", url)
    assert status == 0, err
    for unit_id, _map, label, _step in units:
        line = next(line for line in out.splitlines() if line.strip().startswith(label))
        assert unit_id in line
    status, out, _ = run(capsys, "--json", "--server", url, "positions", vsav, "--system", SYSTEM)
    body = json.loads(out)
    assert status == 0 and body["counts"]["on_map"] == len(units)


def test_supply_compute_mode(server, vsav, units, capsys, monkeypatch):
    url, _ = server
    out_unit, _map, out_hex, _ = units[0]
    install_tracer(monkeypatch, SYSTEM, make_tracer({out_hex}))
    status, out, err = run(capsys, "supply", vsav, "--system", SYSTEM, "--server", url)
    assert status == 0, err
    assert f"OUT  {out_unit} at {out_hex}" in out
    assert f"scenario {SCENARIO}" in out
    status, out, _ = run(capsys, "supply", vsav, "--system", SYSTEM, "--side", "un", "--json", "--server", url)
    assert [s["side"] for s in json.loads(out)["sides"]] == ["un"]


def test_supply_without_tracer_exits_1_with_the_problem_text(server, vsav, capsys, monkeypatch):
    url, _ = server
    remove_tracer(monkeypatch, SYSTEM)
    status, out, err = run(capsys, "supply", vsav, "--system", SYSTEM, "--server", url)
    assert status == 1 and "error 501" in err and "no supply tracer" in err.lower()


def test_damaged_file_exits_1_with_the_servers_reason(server, tmp_path, capsys):
    url, _ = server
    bad = tmp_path / "bad.vsav"
    bad.write_bytes(b"not a zip at all")
    status, _, err = run(capsys, "positions", bad, "--system", SYSTEM, "--server", url)
    assert status == 1 and "error 422" in err and "not a zip" in err


def test_missing_file_and_unreachable_server_exit_2(tmp_path, capsys):
    status, _, err = run(capsys, "positions", tmp_path / "nope.vsav", "--system", SYSTEM,
                         "--server", "http://127.0.0.1:9")
    assert status == 2 and "cannot read" in err
    (tmp_path / "a.vsav").write_bytes(b"x")
    status, _, err = run(capsys, "positions", tmp_path / "a.vsav", "--system", SYSTEM,
                         "--server", "http://127.0.0.1:9")
    assert status == 2 and "cannot reach" in err


def test_check_with_and_without_dice(server, tmp_path, capsys):
    url, _ = server
    situation = tmp_path / "situation.json"
    situation.write_text(json.dumps({"modifier": 2}))
    status, out, err = run(capsys, "check", SYSTEM, CHECK, situation, "--dice", "3",
                           "--server", url, "--json")
    assert status == 0, err
    body = json.loads(out)
    assert body["dice_used"][0]["value"] == 3 and body["outcome"]["total"] == 5
    status, out, err = run(capsys, "check", SYSTEM, CHECK, situation, "--dice", "3", "--server", url)
    assert status == 0, err
    assert "  detail: doubled no, roll 3" in out  # nested results as text, never Python reprs
    assert "  units: nk-6 (hex 0101); nk-2 (hex 0102)" in out
    assert "{" not in out and "'" not in out and "True" not in out
    status, _, err = run(capsys, "check", SYSTEM, CHECK, situation, "--server", url)
    assert status == 1 and "error 422" in err  # a random check needs its dice
    status, _, err = run(capsys, "check", SYSTEM, "no_such_check", situation, "--server", url)
    assert status == 1 and "error 404" in err


def test_game_roll_ledger_and_verify_online_and_offline(server, tmp_path, vsav, capsys, monkeypatch):
    url, app = server
    install_tracer(monkeypatch, SYSTEM, make_tracer(set()))
    status, out, err = run(capsys, "new-game", SYSTEM, SCENARIO, "--server", url, "--json")
    assert status == 0, err
    game = json.loads(out)
    token = next(t for role, t in game["tokens"].items() if role != "observer")
    situation = tmp_path / "situation.json"
    situation.write_text(json.dumps({"modifier": 2}))
    status, out, err = run(capsys, "roll", game["game_id"], CHECK, situation,
                           "--token", token, "--request-id", "r1", "--server", url, "--json")
    assert status == 0, err
    roll = json.loads(out)
    receipt = tmp_path / "roll.json"
    receipt.write_text(out)
    status, out, _ = run(capsys, "roll", game["game_id"], CHECK, situation,
                         "--token", token, "--request-id", "r1", "--server", url, "--json")
    assert json.loads(out)["hash"] == roll["hash"]  # same request id: the recorded roll
    status, out, _ = run(capsys, "roll", game["game_id"], CHECK, situation,
                         "--token", token, "--request-id", "r1", "--server", url)
    assert f"recorded: game {game['game_id']} record 1 hash {roll['hash']}" in out
    assert f"receipt: signed by key {roll['receipt']['kid']}" in out
    assert "replayed: request_id 'r1' was seen before" in out
    status, out, _ = run(capsys, "roll", game["game_id"], CHECK, situation,
                         "--token", token, "--request-id", "r2", "--server", url)
    assert "record 2" in out and "replayed" not in out
    status, out, err = run(capsys, "supply", vsav, "--game", game["game_id"], "--token", token,
                           "--server", url)
    assert status == 0, err
    assert "recorded: game" in out
    ledger_file = tmp_path / "ledger.json"
    status, out, _ = run(capsys, "ledger", game["game_id"], "--token", token, "--out", ledger_file,
                         "--server", url)
    assert status == 0 and f"{SYSTEM}.savedgame_supply" in out
    assert len(json.loads(ledger_file.read_text())["records"]) == 4
    status, out, _ = run(capsys, "verify", ledger_file, "--server", url)
    assert status == 0 and "OK: verified" in out and "seed not revealed yet" in out
    status, out, err = run(capsys, "close", game["game_id"], "--token", token, "--server", url)
    assert status == 0, err
    assert "closed: record 4" in out and "seed revealed: " in out
    status, out, _ = run(capsys, "ledger", game["game_id"], "--token", token, "--out", ledger_file,
                         "--server", url)
    keys_file = tmp_path / "keys.json"
    status, out, err = run(capsys, "keys", "--out", keys_file, "--server", url)
    assert status == 0, err
    assert f"key {app.extensions['adjudicator'].signing_key.kid} (Ed25519, active" in out
    status, out, _ = run(capsys, "verify", ledger_file, "--key", keys_file)  # offline, with the published keys
    assert status == 0 and "dice recomputed:    2 (seed revealed)" in out and "OK: verified" in out
    status, out, _ = run(capsys, "verify", receipt, "--server", url)
    assert status == 0 and "OK" in out
    svc: Services = app.extensions["adjudicator"]
    key = tmp_path / "pub.pem"
    key.write_text(public_pem(svc.signing_key.public_key))
    status, out, _ = run(capsys, "verify", ledger_file, "--key", key)  # offline: no --server
    assert status == 0 and "OK" in out
    ledger = json.loads(ledger_file.read_text())
    ledger["records"][1]["body"]["result"]["outcome"]["total"] = 99
    ledger_file.write_text(json.dumps(ledger))
    status, out, _ = run(capsys, "verify", ledger_file, "--key", key)
    assert status == 1 and "FAILED" in out
    status, _, err = run(capsys, "ledger", game["game_id"], "--server", url)
    assert status == 2 and "token" in err


def test_python_dash_m_with_server_from_environment(server, vsav):
    url, _ = server
    env = {**os.environ, "ADJUDICATOR_URL": url}
    done = subprocess.run([sys.executable, "-m", "adjudicator.client", "positions", str(vsav),
                           "--system", SYSTEM, "--json"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["system"] == SYSTEM


@pytest.mark.slow
def test_game_ids_and_tokens_never_look_like_options():
    """They are pasted into command lines: one starting with "-" would read as an option."""
    from adjudicator.ledger.storage import command_line_safe_token

    assert not any(command_line_safe_token(9).startswith("-") for _ in range(2000))
