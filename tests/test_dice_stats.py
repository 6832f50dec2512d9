"""The dice record (issue 31): every server roll by check and side, each die type's faces against a
fair die, on a ledger with known counts and on a biased one; the API, the page, the replay's
section, and the same offline by `adjudicator verify --dice-stats LEDGER.json`.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from adjudicator.cli import main as adjudicator
from adjudicator.ledger.dicestats import ALPHA, chi_square_p, dice_record, die_stats
from adjudicator.ledger.dice import derive_die
from adjudicator.testing import bearer, candidate_seeds, choose_seeds, make_app, new_game

#: Chi-square critical values (upper tail) from the standard table: (statistic, degrees of freedom, p).
TABLE = [(3.841, 1, 0.05), (6.635, 1, 0.01), (11.070, 5, 0.05), (15.086, 5, 0.01), (20.515, 5, 0.001),
         (16.919, 9, 0.05), (21.666, 9, 0.01), (27.877, 9, 0.001), (1.0, 1, 0.3173), (4.351, 5, 0.5)]
COUNTER_BATTERY = {"un_marker": "sf-un-3", "communist_marker": "sf-com-1"}


@pytest.mark.parametrize("statistic, df, p", TABLE)
def test_the_p_value_is_the_tables(statistic, df, p):
    assert chi_square_p(statistic, df) == pytest.approx(p, rel=2e-3)


def record(seq: int, check: str, side: str, dice: list[tuple[int, int, str]]) -> dict:
    return {"seq": seq, "body": {"check": check, "side": side, "time": f"2025-01-01T00:00:{seq:02d}.000Z",
                                 "result": {"dice_used": [{"sides": s, "value": v, "purpose": p} for s, v, p in dice]}}}


def known_ledger() -> list[dict]:
    """60 d6 with each face ten times (kwb.combat, un) and 30 d10 (kwb.supply, communist) 3 of each face."""
    records = [{"seq": 0, "body": {"check": "game.created", "result": {}}}]
    for n in range(60):
        records.append(record(n + 1, "kwb.combat", "un", [(6, n % 6 + 1, "combat")]))
    for n in range(10):
        records.append(record(61 + n, "kwb.supply", "communist", [(10, v, "supply") for v in (n % 10 + 1,) * 3]))
    return records


def test_a_ledger_with_known_counts():
    found = dice_record(known_ledger())
    assert [(t.check, t.side, t.rulings, t.dice) for t in found.by_check] == [
        ("kwb.combat", "un", 60, 60), ("kwb.supply", "communist", 10, 30)]
    d6, d10 = found.dice
    assert d6.counts == [10] * 6 and d6.chi_square == 0 and d6.p_value == 1.0
    assert d10.counts == [3] * 10 and d10.p_value is None  # 3 per face expected: too few to test
    assert "nothing unusual" in d6.verdict and "too few rolls" in d10.verdict
    assert len(found.rolls) == 90 and "nothing unusual" in found.summary


def test_a_biased_die_is_called_unlikely_by_chance():
    counts = [10, 10, 10, 10, 10, 40]  # sixes four times too often
    stats = die_stats(6, counts)
    assert stats.chi_square == pytest.approx(sum((n - 15) ** 2 / 15 for n in counts))
    assert stats.p_value < ALPHA and stats.unusual
    assert stats.verdict.startswith("unlikely by chance: p = ")
    mild = die_stats(6, [14, 16, 15, 13, 17, 15])
    assert not mild.unusual and mild.verdict.startswith("nothing unusual: p = 0.")


def test_sealed_dice_count_once_the_viewer_may_see_them():
    records = [record(1, "fireandice.objective_draw", "communist", [(6, 3, "draw")])]
    records[0]["body"]["result"]["dice_used"][0]["value"] = "hidden:abc"
    assert dice_record(records).sealed == 1 and dice_record(records).dice == []
    seen = dice_record(records, {"abc": 5})
    assert seen.sealed == 0 and seen.dice[0].counts == [0, 0, 0, 0, 1, 0]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("dice")).test_client()


ROLLS = 90


def fair_seed() -> bytes:
    """A seed whose records 1 to 90 roll a d6 each (a counter-battery roll) that the test calls
    fair: the fair ledger's verdict is then one, whatever a server's seed would have rolled."""
    for seed in candidate_seeds():
        counts = Counter(derive_die(seed, seq, 0, 6) for seq in range(1, ROLLS + 1))
        if not die_stats(6, [counts[face] for face in range(1, 7)]).unusual:
            return seed
    raise LookupError("no test seed rolls a fair-looking d6")


@pytest.fixture(scope="module")
def rolled(client):
    """A KWB game with 90 counter-battery rolls (one d6 each) by the UN, on a fair-looking seed."""
    choose_seeds(client.application, {"kwb/pusan": fair_seed()})
    game = new_game(client, "kwb", "pusan")
    values = []
    for _ in range(ROLLS):
        answer = client.post(f"/api/v1/games/{game['game_id']}/counter_battery", json=COUNTER_BATTERY,
                             headers=bearer(game["tokens"]["un"])).get_json()
        values += [d["value"] for d in answer["dice_used"]]
    return game, values


@pytest.mark.slow
def test_the_api_and_the_page_count_the_ledgers_dice(client, rolled):
    game, values = rolled
    answer = client.get(f"/api/v1/games/{game['game_id']}/dice", headers=bearer(game["tokens"]["observer"]))
    assert answer.status_code == 200
    body = answer.get_json()
    (d6,) = body["dice"]
    assert d6["counts"] == {str(face): Counter(values)[face] for face in range(1, 7)}
    assert d6["rolls"] == 90 and d6["p_value"] >= ALPHA and d6["verdict"].startswith("nothing unusual: p = ")
    assert body["by_check"] == [{"check": "kwb.counter_battery", "side": "un", "rulings": 90, "dice": 90}]
    assert client.get(f"/api/v1/games/{game['game_id']}/dice").status_code == 401
    assert client.get("/api/v1/games/nosuchgame/dice", headers=bearer(game["tokens"]["un"])).status_code in (403, 404)
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["observer"]})
    page = client.get(f"/games/{game['game_id']}/dice").get_data(as_text=True)
    assert 'id="dice-chart-d6"' in page and d6["verdict"].split(" — ")[0] in page
    for face in range(1, 7):
        assert f'data-face="{face}" data-count="{Counter(values)[face]}"' in page


def ledger_file(client, game, tmp_path, change=None):
    document = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"]["un"])).get_json()
    if change:
        change(document)
    path = tmp_path / "ledger.json"
    path.write_text(json.dumps(document))
    keys = tmp_path / "keys.json"
    keys.write_text(client.get("/.well-known/adjudicator-keys.json").get_data(as_text=True))
    return path, keys


def test_offline_dice_stats_of_a_fair_and_of_a_biased_ledger(client, rolled, tmp_path, capsys):
    game, values = rolled
    path, keys = ledger_file(client, game, tmp_path)
    assert adjudicator(["verify", str(path), "--dice-stats", "--key", str(keys)]) == 0
    out = capsys.readouterr().out
    assert "OK: verified" in out and "d6: 90 rolls" in out and "nothing unusual: p = " in out
    assert "unlikely by chance" not in out
    for face in range(1, 7):
        assert f"{face:>5}: {Counter(values)[face]:>6}" in out
    assert adjudicator(["verify", str(path), "--dice-stats", "--json"]) == 0  # no key: the stats alone
    report = json.loads(capsys.readouterr().out)
    assert report["dice"]["dice"][0]["counts"] == {str(f): Counter(values)[f] for f in range(1, 7)}

    def load_the_dice(document):  # a server (or an editor) that favours sixes
        for r in document["records"][1:]:
            for d in r["body"]["result"]["dice_used"]:
                d["value"] = 6 if r["seq"] % 2 else d["value"]

    biased, keys = ledger_file(client, game, tmp_path, load_the_dice)
    assert adjudicator(["verify", str(biased), "--dice-stats"]) == 0
    out = capsys.readouterr().out
    assert "unlikely by chance: p = " in out and "nothing unusual" not in out
    assert adjudicator(["verify", str(biased), "--dice-stats", "--key", str(keys)]) == 1  # and the edit is caught
    assert "hash_mismatch" in capsys.readouterr().out


def test_the_cli_refuses_what_it_cannot_read(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    assert adjudicator(["verify", str(bad), "--dice-stats"]) == 2
    assert "cannot read the input" in capsys.readouterr().err
    assert adjudicator(["verify", str(bad)]) == 2
    assert "--key" in capsys.readouterr().err
