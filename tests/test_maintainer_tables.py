"""The maintainer's path for tables (issue 33): in a copy of the shipped data, do what a maintainer who
owns the printed game does from docs/data-format.md alone, and see the rulings follow with no code change.

- replace a stand-in table and set its `source`: the steps cite that source, not "stand-in tables/...";
- add a result code of a meaning the stand-in never used (`attacker_steps = all`): the ruling applies it;
- make a mistake: `scenarios check` names the file and line (a code without a row, `all` where a number
  is read, a die row missing), and a table that got past it is refused with its file, never a crash.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from adjudicator.rules.kwb import bombardment, combat
from adjudicator.rules.spi import combat as spi_combat
from scenarios import load_game_dir
from scenarios.cli import main as scenarios_main
from scenarios.loader import DATA_ROOT
from test_rules_kwb_fixtures import rolled, validate
from test_rules_spi_fixtures import board as spi_board

PUBLISHED = "Standard Rules 7.4 Combat Results Table"


def copy_of(tmp_path: Path, game: str) -> Path:
    target = tmp_path / game
    shutil.copytree(DATA_ROOT / game, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def set_source(game_dir: Path, table_id: str, source: str) -> None:
    """What docs/data-format.md says to do after overwriting a table's CSV: change its `source`."""
    toml = game_dir / "tables.toml"
    lines = toml.read_text(encoding="utf-8").splitlines()
    at = lines.index(f'id = "{table_id}"')
    here = next(i for i in range(at, len(lines)) if lines[i].startswith("source = "))
    lines[here] = f'source = "{source}"'
    toml.write_text("\n".join(lines) + "\n", encoding="utf-8")


def kwb_attack(g, dice, attackers=({"unit": "nk-6", "hex": "0101"},)):
    req = validate(combat.CombatRequest, g, scenario="pusan", attacking_side="communist", attackers=list(attackers),
                   defenders=[{"unit": "us-5-1m", "hex": "0201"}])
    return combat.resolve(g, req, rolled(dice))


# -- citations follow a table's source ------------------------------------------------------------


def test_replacing_the_kwb_crt_changes_every_citation_of_it(tmp_path):
    before = kwb_attack(load_game_dir(DATA_ROOT / "kwb"), [3])
    assert any("stand-in tables/crt.csv" in (s.rule or "") for s in before.steps)

    kwb = copy_of(tmp_path, "kwb")
    set_source(kwb, "crt", PUBLISHED)
    set_source(kwb, "crt_results", "Standard Rules 7.4.1 Combat Results")
    after = kwb_attack(load_game_dir(kwb), [3])
    rules = [s.rule or "" for s in after.steps]
    assert not [r for r in rules if "tables/crt.csv" in r or "tables/crt_results.csv" in r]
    roll = next(s for s in after.steps if s.text.startswith("Rolled 3"))
    assert roll.rule == f"{PUBLISHED}; Standard Rules 7.4.1 Combat Results"
    assert any(r.startswith(PUBLISHED) for r in rules if "terrain_effects" in r)  # the odds step: CRT + terrain
    assert not [w for w in after.warnings if w.startswith("Stand-in table crt")]


def test_bombardment_and_counter_battery_cite_their_tables_sources(tmp_path):
    kwb = copy_of(tmp_path, "kwb")
    set_source(kwb, "bombardment", "Standard Rules 8.4 Bombardment Table")
    set_source(kwb, "counter_battery", "Standard Rules 8.4.1 Counter-battery Table")
    g = load_game_dir(kwb)
    req = validate(bombardment.BombardmentRequest, g, scenario="pusan", side="un", markers=["sf-un-3"],
                   targets=[{"unit": "nk-6", "hex": "0201"}])
    rules = [s.rule for s in bombardment.bombard(g, req, rolled([6])).steps]
    assert "8.4; Standard Rules 8.4 Bombardment Table" in rules and "Standard Rules 8.4 Bombardment Table" in rules
    assert not [r for r in rules if "stand-in" in r]
    req = validate(bombardment.CounterBatteryRequest, g, un_marker="sf-un-1", communist_marker="sf-com-2")
    rules = [s.rule for s in bombardment.counter_fire(g, req, rolled([1])).steps]
    assert rules == ["8.4.1; Standard Rules 8.4.1 Counter-battery Table", "Standard Rules 8.4.1 Counter-battery Table"]


@pytest.mark.slow
def test_spi_crt_cites_its_source_also_beyond_its_columns(tmp_path):
    """Odds of 1 (2 halved) against 16 are below the lowest column: resolved at 1-5 by the table's own convention,
    cited as the table (no hard-coded "(stand-in convention)")."""
    spi = copy_of(tmp_path, "spi")
    set_source(spi, "crt_meeting", "Meeting Engagement CRT (map)")
    stand_in, published = load_game_dir(DATA_ROOT / "spi").tables["crt_meeting"], load_game_dir(spi).tables["crt_meeting"]
    for table, cited in ((stand_in, "stand-in tables/crt_meeting.csv"), (published, "Meeting Engagement CRT (map)")):
        g = replace(spi_board(), tables={**spi_board().tables, "crt_meeting": table})
        req = validate(spi_combat.CombatRequest, g, scenario="stalemate", defender_hex="0201", table="meeting",
                       attackers=[{"unit": "nk-mc12", "hex": "0101", "in_supply": False}], defenders=[{"unit": "us-d2"}])
        steps = spi_combat.resolve(g, req, rolled([4])).steps
        odds = next(s for s in steps if s.text.startswith("Odds"))
        assert "below the table's lowest column: resolved at 1-5" in odds.text and "stand-in" not in odds.text
        assert odds.rule == f"Combat (G); {cited}"
        assert next(s for s in steps if s.text.startswith("Die 4")).rule == f"Combat (J); {cited}"


def with_rule_source(g, scenario_id: str, rule: str, source: str):
    """The game with one special rule's `source` changed, as a maintainer edits a scenario TOML."""
    sc = g.scenarios[scenario_id]
    rules = {**sc.special_rules, rule: {**sc.special_rules[rule], "source": source}}
    return replace(g, scenarios={**g.scenarios, scenario_id: replace(sc, special_rules=rules)})


def test_special_rules_are_cited_by_their_source_once_a_maintainer_names_it():
    """SPI's lost Invasion rule (1) and HoldFast's tie: 'stand-in reading' only while the data says so."""
    from adjudicator.rules.holdfast.victory import VictoryRequest, run_victory
    from adjudicator.rules.spi import special
    from test_rules_holdfast_fixtures import board as holdfast_board, parallel_between_rows

    spi = spi_board()
    lost = special.in_force(spi, "invasion", 1)
    assert lost.rule == "Special Game Rules: Invasion (1) (stand-in reading)" and lost.warnings
    found = special.in_force(with_rule_source(spi, "invasion", "invasion_rule_1", "Invasion Game rule (1), errata"), "invasion", 1)
    assert found.rule == "Invasion Game rule (1), errata" and found.warnings == [] and found.communist_always_supplied

    hf = holdfast_board(parallel=parallel_between_rows(5))
    for g, rule, said in ((hf, "campaign.toml special_rules.victory_tie", "Equal numbers: a draw (stand-in reading; the book does not say)."),
                          (with_rule_source(hf, "campaign", "victory_tie", "12 (errata)"), "12 (errata)", "Equal numbers: a draw.")):
        result = run_victory(g, validate(VictoryRequest, g, side="un", positions=[], last_turn=True))
        tie = next(s for s in result.steps if s.text.startswith("Equal numbers"))
        assert (tie.text, tie.rule) == (said, rule)


# -- a result code of a new meaning ----------------------------------------------------------------


def install_published_crt(kwb: Path, cells: str) -> None:
    """A published-style CRT: every cell of die 1 is `cells`, the rest the stand-in's NE."""
    header = "die,1:3,1:2,1:1,2:1,3:1,4:1,5:1,6:1"
    rows = [f"{die}," + ",".join([cells if die == 1 else "NE"] * 8) for die in range(1, 7)]
    (kwb / "tables" / "crt.csv").write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    set_source(kwb, "crt", PUBLISHED)


def test_a_result_code_that_eliminates_the_attackers(tmp_path):
    kwb = copy_of(tmp_path, "kwb")
    install_published_crt(kwb, "AE")
    with open(kwb / "tables" / "crt_results.csv", "a", encoding="utf-8") as codes:
        codes.write("AE,attacker eliminated,all,0,0,0\n")
    assert scenarios_main(["check", str(kwb)]) == 0
    g = load_game_dir(kwb)
    result = kwb_attack(g, [1], attackers=({"unit": "nk-6", "hex": "0101"}, {"unit": "nk-12", "hex": "0102"}))
    assert result.outcome["result"] == "AE" and result.outcome["meaning"] == "attacker eliminated"
    assert [(s["unit"], s["step"]) for s in result.outcome["attackers"]] == [("nk-6", "deadpile"), ("nk-12", "deadpile")]
    assert result.outcome["new_units"] == []  # eliminated outright: no random regiment replaces a division
    assert [s["step"] for s in result.outcome["defenders"]] == ["full"]
    gone = [s for s in result.steps if "eliminated: to the deadpile (AE)" in s.text]
    assert len(gone) == 2 and all(s.rule == "7.6; stand-in tables/crt_results.csv" for s in gone)

    # A second new code, losses and retreats on both sides: the same columns, any combination.
    install_published_crt(kwb, "BX")
    with open(kwb / "tables" / "crt_results.csv", "a", encoding="utf-8") as codes:
        codes.write("BX,both depleted; defender retreats 2; attacker 1,1,1,2,1\n")
    result = kwb_attack(load_game_dir(kwb), [1])
    assert (result.outcome["result"], result.outcome["defender_retreat_hexes"], result.outcome["attacker_retreat_hexes"]) \
        == ("BX", 2, 1)
    assert result.outcome["attackers"][0]["step"] == "depleted" and result.outcome["defenders"][0]["step"] == "depleted"


# -- mistakes: file and line, never a crash ---------------------------------------------------------


def test_scenarios_check_names_every_table_mistake_by_file_and_line(tmp_path, capsys):
    kwb = copy_of(tmp_path, "kwb")
    install_published_crt(kwb, "DX")  # a code with no row in crt_results
    edit(kwb / "tables" / "crt_results.csv", "AR,attacker retreats,0,0,0,1", "AR,attacker retreats,0,0,0,all")
    edit(kwb / "tables" / "bombardment.csv", "6,D,D,D,D,D,D\n", "")
    assert scenarios_main(["check", str(kwb)]) == 1
    out = capsys.readouterr().out
    assert "kwb/tables/crt.csv:2: table crt: column 1:3: 'DX' is not a code of table crt_results" in out
    assert "(a new code needs its row in tables/crt_results.csv)" in out
    assert out.count("'DX' is not a code") == 8  # every cell of the row, each by its column
    assert "kwb/tables/crt_results.csv:7: table crt_results: column attacker_retreat: 'all' is not a whole number" in out
    assert "kwb/tables/bombardment.csv:8: table bombardment: no row die=6" in out


def test_a_code_without_a_row_is_refused_with_its_file_not_a_crash():
    """A table assembled past the loader (code, a test): the lookup names the table and file, as a
    ValueError the service answers with its message."""
    g = load_game_dir(DATA_ROOT / "kwb")
    crt = g.tables["crt"]
    rows = tuple({**r, "1:1": "DX"} if r["die"] == "1" else r for r in crt.rows)
    g2 = replace(g, tables={**g.tables, "crt": replace(crt, rows=rows)})
    with pytest.raises(ValueError, match=r"table crt_results \(tables/crt_results.csv\) has no row code=DX"):
        kwb_attack(g2, [1])


def test_a_declared_column_the_csv_lacks_is_a_problem(tmp_path):
    kwb = copy_of(tmp_path, "kwb")
    edit(kwb / "tables.toml", 'defender_retreat = "count"', 'defender_retreats = "count"')
    problems = [p for p in _check(kwb) if "defender_retreats" in p]
    assert problems and problems[0].startswith("kwb/tables.toml:") and "no column 'defender_retreats'" in problems[0]


def _check(game_dir: Path) -> list[str]:
    from scenarios.loader import check_game_dir

    return check_game_dir(game_dir)


def test_a_parameter_edited_into_words_is_refused_with_its_line(tmp_path):
    kwb = copy_of(tmp_path, "kwb")
    edit(kwb / "tables" / "rule_parameters.csv", "intensive_attack_multiplier,2,", "intensive_attack_multiplier,two,")
    g = load_game_dir(kwb)
    line = g.tables["rule_parameters"].where("intensive_attack_multiplier")
    with pytest.raises(ValueError, match=rf"game data {line}: value of intensive_attack_multiplier is 'two'; the rules "
                                         "read a whole number"):
        kwb_attack(g, [3])
