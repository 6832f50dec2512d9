"""The Fire and Ice LoC tracer gives, on the real map, the answers it gave with the plain search.

`tests/snapshots/fireandice_loc.json` holds every unit's answer (LoC or not, cost, source, reason and
path) for the scenario set-ups and for every unit of a side on seeded hexes, written by
`tests/fireandice_loc_cases.py` with the tracer as it was before it moved to the index-based search
and per-map caches.  Everything but the path must be equal.  A path may differ only where several were
equally cheap: the old tracer started its HQ trace from the live net in Python set order, the new one
in the order the net search reached the hexes, so ties fall the other way for about one unit in seven.
Such a path must still start at the unit, step between adjacent hexes, end at a supply source and cost
the same.  If the map data is regenerated the snapshot no longer applies (the test is skipped, saying
so); the small-map tests in test_rules_fireandice_supply.py still pin the rules.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fireandice_loc_cases import SNAPSHOT, map_fingerprint, run  # noqa: E402
from adjudicator.rules.fireandice import board  # noqa: E402
from scenarios import load_game  # noqa: E402

GAME = load_game("fireandice")
GM = GAME.maps["korea"]
SAVED = json.loads(SNAPSHOT.read_text())
SAME_MAP = SAVED["map_fingerprint"] == map_fingerprint(GM)


def case_id(case: dict) -> str:
    return f"{case['scenario']}-{case['side']}-{'-'.join(sorted(case['options'])) or 'plain'}"


def assert_equally_good_path(now: dict, answers: dict[str, dict], case: dict, sources: set[str]) -> None:
    """`now` took another of several equally cheap paths than the snapshot (see the module docstring)."""
    where = dict(case["positions"])
    path = [board.parse(GM, x) for x in now["path"]]
    assert now["path"][0] == where[now["unit"]]
    assert all(GM.grid.are_adjacent(a, b) for a, b in zip(path, path[1:]))
    assert now["path"][-1] in sources
    if now["source"] == "net":  # `cost` hexes to the net, then along road/railroad/city hexes to a source
        cut = {board.parse(GM, x) for x in case["options"].get("atomic_hexes", [])}
        net = board.net_hexes(GM, cut) | {board.parse(GM, x) for x in sources}
        along = path[int(now["cost"]):]
        assert along and all(h in net for h in along)
        assert all(board.road_connects(GM, a, b) or board.is_city(GM, a) or board.is_city(GM, b)
                   for a, b in zip(along, along[1:]))
        return
    hq = where[now["source"]]  # `cost` MP to the HQ, then the HQ's own trace
    assert hq in now["path"]
    k = now["path"].index(hq)
    assert sum(board.move_cost(GAME, GM, a, b) for a, b in zip(path[:k], path[1:k + 1])) == now["cost"]
    assert now["path"][k:] == answers[now["source"]]["path"]


@pytest.mark.skipif(not SAME_MAP, reason="the korea map changed since the snapshot was written")
@pytest.mark.parametrize("case", SAVED["cases"], ids=[f"{n}-{case_id(c)}" for n, c in enumerate(SAVED["cases"])])
def test_tracer_answers_as_the_snapshot(case):
    case = dict(case, positions=[tuple(p) for p in case["positions"]])
    got = run(GAME, case)
    assert [u["unit"] for u in got] == [u["unit"] for u in case["units"]]
    answers = {u["unit"]: u for u in got}
    sources = {u["path"][-1] for u in case["units"] if u["path"]}
    for now, then in zip(got, case["units"]):
        assert {k: v for k, v in now.items() if k != "path"} == {k: v for k, v in then.items() if k != "path"}
        if now["path"] != then["path"]:
            assert_equally_good_path(now, answers, case, sources)


def test_snapshot_covers_units_with_and_without_an_loc():
    answers = [u["in_supply"] for c in SAVED["cases"] for u in c["units"]]
    assert any(answers) and not all(answers)
    assert sum(len(u["path"]) for c in SAVED["cases"] for u in c["units"]) > 1000
