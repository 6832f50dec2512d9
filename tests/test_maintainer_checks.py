"""A maintainer's slips that `scenarios check` must catch where they are made (issue 52, item 7):
an invalid unit size, a withdrawal on a turn the scenario does not have, a TOML error at the line
that needs fixing (not where the parser gave up), a game the code plays whose folder the data lacks,
and map corrections in `<map>.overrides.csv` made after the map was built (not in the map yet)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.checks import SYSTEM_IDS
from scenarios.loader import DATA_ROOT, GAMES_FILE, check_game_dir, missing_games
from scenarios.mapbuild.__main__ import main as mapbuild
from scenarios.reading.files import read_toml
from scenarios.problems import Problems

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "example"


def copy(tmp_path: Path, source: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copytree(source, target)
    return target


def edit(path: Path, old: str, new: str) -> int:
    """Replace `old` once; the line (1-based) where it stood."""
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def test_a_unit_size_that_is_no_echelon_mark_is_refused_at_its_line(tmp_path):
    game = copy(tmp_path, EXAMPLE, "example")
    line = edit(game / "units.csv", "red,rd,infantry,XX,", "red,rd,infantry,XXL,")
    assert check_game_dir(game) == [
        f"example/units.csv:{line}: unit rd-1: size 'XXL' is not one of I, II, III, X, XX, XXX, XXXX, XXXXX "
        "(or empty: none printed)"]


def test_every_size_the_games_print_passes():
    for game_id in ("kwb", "spi", "holdfast", "fireandice"):
        assert not [p for p in check_game_dir(DATA_ROOT / game_id) if ": size " in p]


def test_a_withdrawal_beyond_the_scenarios_last_turn_is_refused_at_its_key(tmp_path):
    game = copy(tmp_path, DATA_ROOT / "kwb", "kwb")
    scenario = game / "scenarios" / "pusan.toml"
    turns = len(re.findall(r"^\d+,", (game / "scenarios" / "pusan.turns.csv").read_text(encoding="utf-8"), re.M))
    line = edit(scenario, "turn = 16\n", f"turn = {turns + 10}\n")
    due = edit(scenario, 'due_turn = { "us-5-1m" = 16,', 'due_turn = { "us-5-1m" = 0,')
    problems = check_game_dir(game)
    assert problems == [
        f"kwb/scenarios/pusan.toml:{line}: special rule withdrawal: turn: {turns + 10} is not a game-turn of Pusan "
        f"Perimeter (1-{turns}) [applied by adjudicator/rules/kwb/victory.py (overdue withdrawals)]",
        f"kwb/scenarios/pusan.toml:{due}: special rule withdrawal: due_turn: 0 is not a game-turn of Pusan "
        f"Perimeter (1-{turns}) [applied by adjudicator/rules/kwb/victory.py (overdue withdrawals)]"], problems


def test_a_scheduled_withdrawal_beyond_the_last_turn_is_refused_at_its_row(tmp_path):
    game = copy(tmp_path, EXAMPLE, "example")
    schedule = game / "scenarios" / "battle.schedule.csv"
    with schedule.open("a", encoding="utf-8") as f:
        f.write("16,withdraw,rd-1,,,,example 12.1\n")
    line = len(schedule.read_text(encoding="utf-8").splitlines())
    assert check_game_dir(game) == [
        f"example/scenarios/battle.schedule.csv:{line}: withdraw of rd-1: turn '16' is not a turn of this "
        "scenario (1-3)"]


def test_an_array_left_open_is_named_at_its_line_not_where_the_parser_stopped(tmp_path):
    game = copy(tmp_path, EXAMPLE, "example")
    line = edit(game / "scenarios" / "battle.toml", 'maps = ["ridge"]\n', 'maps = ["ridge"\n\n')
    [problem] = check_game_dir(game)
    assert problem.startswith(f"example/scenarios/battle.toml:{line}: TOML syntax: ']' missing at "
                              "the end of this value"), problem


def test_a_multiline_string_left_open_is_named_where_it_opens(tmp_path):
    game = copy(tmp_path, EXAMPLE, "example")
    line = edit(game / "scenarios" / "battle.toml", 'description = "Red attacks over the ridge."',
                'description = """Red attacks over the ridge.')
    [problem] = check_game_dir(game)
    assert problem.startswith(f"example/scenarios/battle.toml:{line}: TOML syntax: the multi-line string that "
                              "opens here is never closed"), problem


@pytest.mark.parametrize("text,line", [
    ('a = 1\nb = \nc = 3\n', 2),  # the parser's own line where it is right
    ('a = 1\nb = [\n  "x",\n  "y"\n  "z",\n]\n', 5),  # a missing comma inside: where the parser stopped
    ('[[side]]\nid = "un"\nkeys = ["a",\n# a comment\n\n[[side]]\nid = "x"\n', 3),
])
def test_toml_errors_point_at_their_line(tmp_path, text, line):
    path = tmp_path / "x.toml"
    path.write_text(text, encoding="utf-8")
    problems = Problems(root=tmp_path)
    assert read_toml(path, problems)[0] == {}
    assert [(p.file, p.line) for p in problems.items] == [("x.toml", line)], problems.items


def test_the_data_folders_list_of_games_is_the_codes():
    data, _ = read_toml(DATA_ROOT / GAMES_FILE, Problems())
    assert sorted(data["games"]) == sorted(SYSTEM_IDS)
    assert missing_games() == []


def test_scenarios_check_names_a_game_the_code_plays_that_the_data_lacks(tmp_path):
    root = tmp_path / "data"
    copy(root, EXAMPLE, "example")
    (root / GAMES_FILE).write_text('games = ["example", "kwb"]\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "scenarios.cli", "check"], capture_output=True, text=True,
                          env={**os.environ, "SCENARIOS_DATA": str(root)}, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "data/games.toml:1: game 'kwb': the code plays it (adjudicator/rules/kwb) but the data folder has no "
        "kwb/game.toml; restore its folder"], done.stdout
    assert "example: ok" in done.stderr


def test_a_data_folder_without_its_list_or_missing_altogether_is_a_problem(tmp_path):
    assert missing_games(root=tmp_path / "nowhere") == [
        f"{tmp_path / 'nowhere'}: the data folder does not exist (SCENARIOS_DATA names it, else scenarios/data)"]
    assert [p.split(": ", 1)[1] for p in missing_games(root=tmp_path)] == [
        "file is missing: the data folder lists the games the code plays there"]
    assert missing_games(["kwb"], root=DATA_ROOT) == []  # the adjudicator passes its own ids


def test_overrides_edited_after_the_map_was_built_are_named_until_the_map_is_built_again(tmp_path):
    game = copy(tmp_path, DATA_ROOT / "kwb", "kwb")
    overrides = game / "maps" / "seoul.overrides.csv"
    text = overrides.read_text(encoding="utf-8")
    overrides.write_text(text.replace("# Hand corrections", "# Our hand corrections", 1), encoding="utf-8")
    assert check_game_dir(game) == []  # a comment is no correction
    overrides.write_text(text + "terrain,0101,,rough,,a hill the derived map lacks,\n", encoding="utf-8")
    assert check_game_dir(game) == [
        "kwb/maps/seoul.overrides.csv:1: edited since map seoul was built (seoul.calibration.txt records other "
        "rows): its corrections are not in the map, the module or the rules until the map is built again: "
        "python -m scenarios.mapbuild kwb seoul"]
    assert mapbuild([str(game), "seoul"]) == 0
    assert check_game_dir(game) == []
