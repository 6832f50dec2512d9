"""`scenarios standins`: a summary per kind and file, a filter, and for every stand-in what to supply."""

from __future__ import annotations

import re

import pytest

from scenarios import game_ids, load_game
from scenarios import standins
from scenarios.cli import main as scenarios_main


@pytest.mark.parametrize("game_id", game_ids())
def test_every_stand_in_of_every_game_has_a_known_kind_and_a_specific_supply(game_id):
    game = load_game(game_id)
    for s in game.stand_ins:
        assert standins.kind(s) in standins.SUPPLY, s
        text = standins.supply(s, game)
        assert text and not text.startswith("the published datum"), s


def test_summary_counts_per_kind_and_file(capsys):
    assert scenarios_main(["standins", "kwb", "--summary"]) == 0
    out = capsys.readouterr().out
    game = load_game("kwb")
    assert out.startswith(f"# Korean War Battles: {len(game.stand_ins)} stand-in(s)\n")
    units = sum(1 for s in game.stand_ins if standins.kind(s) == "unit")
    assert f"{units} unit" in out.splitlines()[1]
    assert re.search(rf"^\s+{units}  kwb/units.csv$", out, re.M)
    assert "supply:" not in out and "kwb/units.csv:" not in out  # counts only


def test_filter_by_kind_lists_each_with_what_to_supply(capsys):
    assert scenarios_main(["standins", "kwb", "--kind", "table"]) == 0
    out = capsys.readouterr().out
    tables = [s for s in load_game("kwb").stand_ins if standins.kind(s) == "table"]
    assert f"# Korean War Battles: {len(tables)} stand-in(s) of " in out
    assert "kwb/units.csv" not in out
    crt = out[out.index("table crt:"):]
    supply = crt.splitlines()[1]
    assert supply.startswith("  supply: the published table: overwrite tables/crt.csv")
    assert "every cell: a code of table crt_results" in supply and "rows die 1, 2, 3, 4, 5, 6" in supply
    assert out.count("  supply: ") == len(tables)  # one per table: each says its own file and columns


def test_filter_by_file_and_a_shared_supply_said_once(capsys):
    assert scenarios_main(["standins", "kwb", "--file", "units.csv"]) == 0
    out = capsys.readouterr().out
    listed = [line for line in out.splitlines() if line.startswith("kwb/")]
    assert listed and all(line.startswith("kwb/units.csv:") for line in listed)
    assert out.count("supply: the counter's printed values: `steps`") == 1
    assert "(attack-defense-movement; its sides in the order full|depleted)" in out


def test_an_unknown_kind_is_refused_with_the_kinds(capsys):
    assert scenarios_main(["standins", "kwb", "--kind", "tables"]) == 2
    err = capsys.readouterr().err
    assert "no kind 'tables'" in err and "table, unit" in err
