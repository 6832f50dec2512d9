"""A maintainer's mistakes in the data (issue 43): each one problem, as ``file:line: what is wrong``
with what to do, in every command that reads the file, and never a traceback.

A file saved in another encoding than UTF-8 (Excel's "CSV" is Windows-1252), a misspelt column in
a setup's header, several bad rows of a map's overrides; and the order of the scenarios, which the
data states, so that a new scenario never becomes a game's default by accident.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from modgen.build import default_first, main_map_order
from scenarios.loader import DATA_ROOT, check_game_dir, load_game_dir

BIN = Path(sys.executable).parent
EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "example"


def latin1(path: Path, old: str, new: str) -> int:
    """Edit a data file as a spreadsheet saving "CSV" (Windows-1252) would; the line edited."""
    text = path.read_text(encoding="utf-8")
    assert old in text, (old, path)
    path.write_bytes(text.replace(old, new, 1).encode("cp1252"))
    return text[:text.index(old)].count("\n") + 1


def run(*argv: str, data: Path | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """A command as the maintainer runs it (``data``: SCENARIOS_DATA; ``cwd``: where the server's
    database and key go)."""
    env = {**os.environ, **({"SCENARIOS_DATA": str(data)} if data else {}),
           **({"DATABASE_URL": f"sqlite:///{cwd / 'games.sqlite3'}", "ADJUDICATOR_KEY_PATH": str(cwd / "key.pem")}
              if cwd else {})}
    return subprocess.run([*argv], env=env, cwd=cwd, capture_output=True, text=True, timeout=120)


# -- files that are not UTF-8, in every command that reads them --------------------------------------

#: (file of the example game, text in it, the same with a character a Windows-1252 file holds)
KINDS = {
    "units": ("units.csv", "1st Red Division", "1st Red Divisi\u00f3n"),
    "table": ("tables/crt.csv", "die,", "d\u00efe,"),
    "setup": ("scenarios/battle.setup.csv", "with or next to a Red unit", "with or next to a Red unit \u2013 any"),
    "scenario": ("scenarios/battle.toml", 'description = "Red attacks', 'description = "R\u00e9d attacks'),
}


def commands(tmp_path: Path) -> dict[str, list[str]]:
    """Each command that reads the game's data, as the maintainer runs it."""
    return {
        "scenarios check": [str(BIN / "scenarios"), "check", "example"],
        "modgen build": [str(BIN / "modgen"), "build", "example", "--out", str(tmp_path / "dist"),
                         "--cache", str(tmp_path / "art")],
        "adjudicator serve": [str(BIN / "adjudicator"), "serve", "--port", "1"],
    }


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["scenarios check", "modgen build", "adjudicator serve"])
def test_a_file_that_is_not_utf8_is_one_problem_at_its_line_in_every_command(tmp_path, kind, command):
    data = tmp_path / "data"
    shutil.copytree(EXAMPLE, data / "example")
    file, old, new = KINDS[kind]
    line = latin1(data / "example" / file, old, new)
    env_dir = tmp_path / "run"
    env_dir.mkdir()
    done = run(*commands(tmp_path)[command], data=data, cwd=env_dir)
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "Traceback" not in said
    problem = re.search(rf"example/{re.escape(file)}:(\d+): not UTF-8 text: byte 0x[0-9A-F]{{2}} at column \d+ "
                        r"\('.' in Windows-1252 or Latin-1.*\); save it as UTF-8 \(Excel: Save As 'CSV UTF-8'", said)
    assert problem, said
    assert int(problem.group(1)) == line
    assert len(re.findall(r"^example/\S+:\d+: ", said, re.M)) == 1, said  # only that: one error for one mistake
    assert not (tmp_path / "dist").exists() or not list((tmp_path / "dist").iterdir())


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["units", "table", "setup", "scenario", "overrides"])
def test_mapbuild_names_a_file_that_is_not_utf8_and_builds_nothing(tmp_path, kind):
    game = tmp_path / "kwb"
    shutil.copytree(DATA_ROOT / "kwb", game)
    file, old, new = {
        "units": ("units.csv", "6th Infantry Division", "6th Infantry Divisi\u00f3n"),
        "table": ("tables/crt.csv", "die,", "d\u00ede,"),
        "setup": ("scenarios/pusan.setup.csv", "# 12.1.2", "# \u00a7 12.1.2"),
        "scenario": ("scenarios/pusan.toml", "Pusan Perimeter", "Pusan P\u00e9rim\u00e8tre"),
        "overrides": ("maps/pusan.overrides.csv", "# Hand corrections", "# Hand corr\u00e9ctions"),
    }[kind]
    line = latin1(game / file, old, new)
    before = (game / "maps" / "pusan.terrain.txt").read_bytes()
    done = run(sys.executable, "-m", "scenarios.mapbuild", str(game), "pusan", "--force")
    said = done.stdout + done.stderr
    assert done.returncode == 1 and "Traceback" not in said, said
    assert re.search(rf"{re.escape(file)}:{line}: not UTF-8 text: .*; save it as UTF-8", said), said
    assert (game / "maps" / "pusan.terrain.txt").read_bytes() == before


def test_a_utf8_file_with_excels_byte_order_mark_reads_as_any_other(tmp_path):
    game = tmp_path / "example"
    shutil.copytree(EXAMPLE, game)
    units = game / "units.csv"
    units.write_bytes(b"\xef\xbb\xbf" + units.read_bytes())
    assert check_game_dir(game) == []


def test_a_file_saved_as_utf16_says_so(tmp_path):
    game = tmp_path / "example"
    shutil.copytree(EXAMPLE, game)
    setup = game / "scenarios" / "battle.setup.csv"
    setup.write_bytes(setup.read_text(encoding="utf-8").encode("utf-16"))
    assert check_game_dir(game) == [
        "example/scenarios/battle.setup.csv:1: not UTF-8 text: the file is UTF-16 (Excel's 'Unicode Text'); "
        "save it as UTF-8 (Excel: Save As 'CSV UTF-8'; LibreOffice: Character set 'Unicode (UTF-8)'; an editor: "
        "Save with Encoding 'UTF-8')"]


# -- one error per mistake -----------------------------------------------------------------------


def header_line(path: Path) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, text in enumerate(lines, start=1) if text.strip() and not text.startswith("#"))


def test_a_misspelt_column_in_a_setup_header_is_one_error_naming_it_and_the_columns(tmp_path):
    game = tmp_path / "kwb"
    shutil.copytree(DATA_ROOT / "kwb", game)
    setup = game / "scenarios" / "pusan.setup.csv"
    line = header_line(setup)
    rows = sum(1 for t in setup.read_text(encoding="utf-8").splitlines()[line:] if t.strip() and t[0] != "#")
    assert rows > 50  # the 83 lines came from one error per row
    setup.write_text(setup.read_text(encoding="utf-8").replace("unit,location,", "unti,location,", 1),
                     encoding="utf-8")
    assert check_game_dir(game) == [
        f"kwb/scenarios/pusan.setup.csv:{line}: column 'unti' should be 'unit' (the columns of this file: unit, "
        "location, step, choice, note, source); read as 'unit' for the rest of this check"]


def test_a_misspelt_optional_column_is_named_too_not_dropped_silently(tmp_path):
    game = tmp_path / "example"
    shutil.copytree(EXAMPLE, game)
    setup = game / "scenarios" / "battle.setup.csv"
    setup.write_text(setup.read_text(encoding="utf-8").replace(",choice,", ",Choise,", 1), encoding="utf-8")
    assert check_game_dir(game) == [
        "example/scenarios/battle.setup.csv:1: column 'Choise' should be 'choice' (the columns of this file: unit, "
        "location, step, choice, note, source); read as 'choice' for the rest of this check"]


def test_a_required_column_missing_altogether_is_one_error(tmp_path):
    game = tmp_path / "kwb"
    shutil.copytree(DATA_ROOT / "kwb", game)
    units = game / "units.csv"
    units.write_text(units.read_text(encoding="utf-8").replace(",nationality,", ",", 1), encoding="utf-8")
    problems = check_game_dir(game)
    assert len(problems) == 1 and problems[0].startswith(
        f"kwb/units.csv:{header_line(units)}: missing column 'nationality' (header has: id, designation"), problems


@pytest.mark.slow
def test_mapbuild_reports_every_bad_override_row_in_one_run(tmp_path):
    game = tmp_path / "kwb"
    shutil.copytree(DATA_ROOT / "kwb", game)
    overrides = game / "maps" / "pusan.overrides.csv"
    first = len(overrides.read_text(encoding="utf-8").splitlines()) + 1
    with overrides.open("a", encoding="utf-8") as f:
        f.write("terrain,0101,,lava,,a typo in the terrain\n")
        f.write("add_hexside,0101,0505,river,,two hexes apart\n")
        f.write("add_path,0101,0201,road,,\n")
        f.write("terrain,9999,,clear,,off the map\n")
    done = run(sys.executable, "-m", "scenarios.mapbuild", str(game), "pusan")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    where = "kwb/maps/pusan.overrides.csv"
    assert [line for line in done.stderr.splitlines() if line.startswith(where)] == [
        f"{where}:{first}: terrain 'lava' is not in the legend (city, clear, rough, sea)",
        f"{where}:{first + 1}: 0101 and 0505 are not adjacent",
        f"{where}:{first + 2}: say why in 'note'",
        f"{where}:{first + 3}: hex 9999 is off the map",
    ]


# -- the order of the scenarios, and the default one ----------------------------------------------


def add_spi_scenario(root: Path, order: str | None) -> Path:
    """SPI's Stalemate copied as a new scenario, with the `order` given (None: no order line)."""
    spi = root / "spi"
    shutil.copytree(DATA_ROOT / "spi", spi)
    folder = spi / "scenarios"
    text = (folder / "stalemate.toml").read_text(encoding="utf-8")
    text = re.sub(r'^id = ".*"$', 'id = "truce"', text, count=1, flags=re.M)
    text = re.sub(r"^order = \d+\n", "" if order is None else f"order = {order}\n", text, count=1, flags=re.M)
    (folder / "truce.toml").write_text(text, encoding="utf-8")
    for part in ("turns", "setup", "schedule"):
        if (folder / f"stalemate.{part}.csv").exists():
            shutil.copy(folder / f"stalemate.{part}.csv", folder / f"truce.{part}.csv")
    return spi


def test_the_four_games_state_their_order_and_default_in_the_data():
    expected = {"kwb": (["pusan", "seoul", "changjin"], "pusan"),
                "spi": (["campaign", "intervention", "invasion", "stalemate"], "campaign"),
                "holdfast": (["campaign"], "campaign"),
                "fireandice": (["campaign", "inchon", "intervention", "invasion"], "campaign")}
    for game_id, (order, default) in expected.items():
        game = load_game_dir(DATA_ROOT / game_id)
        assert list(game.scenarios) == order and game.default_scenario.id == default == game.default_scenario_id
        assert all(s.order is not None for s in game.scenarios.values()), game_id


def test_a_new_scenario_with_an_order_after_the_others_never_becomes_the_default(tmp_path):
    spi = load_game_dir(add_spi_scenario(tmp_path, "5"))
    assert list(spi.scenarios) == ["campaign", "intervention", "invasion", "stalemate", "truce"]
    assert spi.default_scenario.id == "campaign" and default_first(spi)[0].id == "campaign"
    assert main_map_order(spi)[0] == spi.scenarios["campaign"].maps[0]


def test_a_scenario_without_an_order_comes_after_those_with_one(tmp_path):
    spi = load_game_dir(add_spi_scenario(tmp_path, None))
    assert spi.scenarios["truce"].order is None
    assert list(spi.scenarios)[-1] == "truce" and spi.default_scenario.id == "campaign"


def test_scenarios_of_the_same_order_are_listed_by_id(tmp_path):
    spi = load_game_dir(add_spi_scenario(tmp_path, "2"))
    assert list(spi.scenarios) == ["campaign", "intervention", "truce", "invasion", "stalemate"]
    assert spi.default_scenario.id == "campaign"


def test_order_mistakes_and_an_unknown_default_are_problems_at_their_lines(tmp_path):
    spi = add_spi_scenario(tmp_path, '"fifth"')
    assert check_game_dir(spi) == [
        "spi/scenarios/truce.toml:4: order 'fifth' must be a whole number (1, 2, ...): the scenario's place in "
        "the lists"]
    game_toml = spi / "game.toml"
    game_toml.write_text(game_toml.read_text(encoding="utf-8").replace('default_scenario = "campaign"',
                                                                       'default_scenario = "campain"'),
                         encoding="utf-8")
    (spi / "scenarios" / "truce.toml").unlink()
    problems = check_game_dir(spi)
    assert len(problems) == 1 and re.fullmatch(
        r"spi/game\.toml:\d+: default_scenario 'campain' is not a scenario of this game \(scenarios: campaign, "
        r"intervention, invasion, stalemate\)", problems[0]), problems
