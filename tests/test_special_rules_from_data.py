"""Special rules follow a scenario's data, not its name (issue 40).

A maintainer copies a special rule into a new scenario (docs/data-format.md "Adding a scenario"): SPI's
Intervention Game rules (1)-(4), KWB's Changjin Surprise. The new scenario gets the same rulings and the
same citations as the original, on the turns and for the sides its copy gives; and a rule the code
cannot apply there (a name no code knows, a turn the scenario lacks, a hex off its map, a side that is
no side) is an error from `scenarios check` at the rule's file:line, not silence.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from adjudicator.rules.kwb import combat as kwb_combat
from adjudicator.rules.kwb import supply as kwb_supply
from adjudicator.rules.spi import combat as spi_combat
from adjudicator.rules.spi import intervention, special
from scenarios import load_game_dir
from scenarios.loader import DATA_ROOT, check_game_dir
from test_rules_kwb_fixtures import at
from test_rules_kwb_fixtures import board as kwb_board
from test_rules_spi_fixtures import board as spi_board
from test_rules_spi_fixtures import rolled, validate

BIN = Path(sys.executable).parent
INTERVENTION_RULES = ("communist_always_supplied", "free_zoc_exit", "chinese_combat_shock", "chinese_rough_movement")


def copy_scenario(game_dir: Path, copy: str, new: str, extra: str = "") -> None:
    """The maintainer's copy: the scenario's files under a new id, and (`extra`) tables added to its TOML."""
    folder = game_dir / "scenarios"
    toml = (folder / f"{copy}.toml").read_text(encoding="utf-8")
    toml = re.sub(r'^id = ".*"$', f'id = "{new}"', toml, count=1, flags=re.M)
    toml = re.sub(r"^order = \d+$", "order = 9", toml, count=1, flags=re.M)
    (folder / f"{new}.toml").write_text(toml + extra, encoding="utf-8")
    for part in ("setup", "turns", "schedule"):
        if (folder / f"{copy}.{part}.csv").exists():
            shutil.copy(folder / f"{copy}.{part}.csv", folder / f"{new}.{part}.csv")


def tables_of(game_dir: Path, scenario: str, names) -> str:
    """The `[special_rules.<name>]` tables of a scenario's TOML, as its text has them."""
    text = (game_dir / "scenarios" / f"{scenario}.toml").read_text(encoding="utf-8")
    out = []
    for name in names:
        match = re.search(rf"^\[special_rules\.{name}\]\n(?:(?!\[).*\n)*", text, flags=re.M)
        assert match, name
        out.append(match.group(0))
    return "\n" + "\n".join(out)


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("rules-from-data") / "data"
    shutil.copytree(DATA_ROOT, root)
    spi, kwb = root / "spi", root / "kwb"
    # SPI: the Intervention Game under another name; and Stalemate with the Intervention's rules (1)-(4).
    copy_scenario(spi, "intervention", "counteroffensive")
    copy_scenario(spi, "stalemate", "spring", tables_of(spi, "intervention", INTERVENTION_RULES))
    # KWB: the Pusan Perimeter (North Korean units) with Changjin's Surprise, on game-turns 1-3.
    surprise = tables_of(kwb, "changjin", ["surprise"]).replace("turns = [1, 2]", "turns = [1, 2, 3]")
    copy_scenario(kwb, "pusan", "naktong", surprise)
    return root


@pytest.mark.slow
def test_the_copies_pass_scenarios_check(data):
    for game in ("spi", "kwb"):
        done = subprocess.run([str(BIN / "scenarios"), "check", str(data / game)], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr


def spi_game(data, **board):
    return replace(spi_board(**board), scenarios=load_game_dir(data / "spi").scenarios)


def spi_fight(g, scenario, turn):
    supplied = {} if turn <= 3 else {"supply_unit": "comm-supply-1"}  # rule (1): in supply on turns 1-3 only
    req = validate(spi_combat.CombatRequest, g, scenario=scenario, table="meeting", game_turn=turn,
                   defender_hex="0505", attackers=[{"unit": "cpv-d112", "hex": "0504", **supplied}],
                   defenders=[{"unit": "us-d2"}])
    return spi_combat.resolve(g, req, rolled([3]))


def test_spi_intervention_rules_copied_into_a_new_scenario_rule_as_in_the_original(data):
    g = spi_game(data, terrain={"0505": "rough"})
    for turn in (1, 3, 4):
        original = special.in_force(g, "intervention", turn)
        for copy in ("counteroffensive", "spring"):
            copied = special.in_force(g, copy, turn)
            assert (copied.sources, copied.communist_attack_multiplier, copied.rough_doubling,
                    copied.chinese_entire_rough_cost, copied.communist_always_supplied) == \
                   (original.sources, original.communist_attack_multiplier, original.rough_doubling,
                    original.chinese_entire_rough_cost, original.communist_always_supplied), (copy, turn)
    assert special.in_force(g, "spring", 2).sources["chinese_combat_shock"] == "Special Game Rules: Intervention (3)"
    original = spi_fight(g, "intervention", 2)
    for copy in ("counteroffensive", "spring"):
        ruling = spi_fight(g, copy, 2)
        assert ruling.outcome == original.outcome and ruling.outcome["attack_strength"] == 20
        named = g.scenarios[copy].name
        assert [(s.text.replace(named, "the game"), s.rule) for s in ruling.steps] == \
               [(s.text.replace("Intervention Game", "the game"), s.rule) for s in original.steps]
    assert spi_fight(g, "spring", 4).outcome["attack_strength"] == 10  # the copy's turns: 1-3 only


def test_spi_checks_of_a_scenario_read_that_scenarios_rule(data, monkeypatch):
    from adjudicator.rules.spi import data as spi_data

    g = spi_game(data)
    monkeypatch.setattr(spi_data, "game", lambda: g)
    asked = validate(intervention.NorthEdgeReturnRequest, g, scenario="counteroffensive")
    ruling = intervention.north_edge_return(asked, rolled([5]))
    assert (ruling.outcome["rr_hex"], ruling.outcome["road_hex"]) == ("3401", "3001")
    assert {s.rule for s in ruling.steps} == {"Special Game Rules: Intervention (5)"}
    with pytest.raises(ValueError, match="Stalemate Game has no special rule un_units_off_north_edge"):
        validate(intervention.NorthEdgeReturnRequest, g, scenario="stalemate")


def kwb_game(data):
    """The test boards (Pusan's and Changjin's maps), with the copied data's Naktong on Pusan's."""
    pusan, changjin = kwb_board("pusan"), kwb_board("changjin")
    naktong = replace(load_game_dir(data / "kwb").scenarios["naktong"],
                      supply_sources=pusan.scenarios["pusan"].supply_sources)
    return replace(pusan, maps={**pusan.maps, "changjin": changjin.maps["changjin"]},
                   scenarios={**pusan.scenarios, "changjin": changjin.scenarios["changjin"], "naktong": naktong})


def test_kwb_surprise_copied_into_a_new_scenario_cites_its_own_turns_and_sides(data):
    g = kwb_game(data)
    cut_off = at(("nk-766", "0808"))  # no Supply Center anywhere: out of supply but for Surprise
    report = kwb_supply.trace_side(g, "naktong", "communist", cut_off, {"game_turn": 3})
    (unit,) = report.units
    assert unit.in_supply and unit.source == "surprise"
    assert unit.reason == "in supply regardless: Surprise, game-turns 1-3 (12.3)"
    said = [s for s in report.steps if "Surprise" in s[0]]
    assert said == [("Game-turn 3: Surprise is in effect (game-turns 1-3): all Communist units are in supply "
                     "regardless of their situation.", "12.3 Surprise")]
    assert not kwb_supply.trace_side(g, "naktong", "communist", cut_off, {"game_turn": 4}).units[0].in_supply
    changjin = kwb_supply.trace_side(g, "changjin", "communist", at(("prc-58", "0808")), {"game_turn": 2})
    assert [s for s in changjin.steps if "Surprise" in s[0]] == [
        ("Game-turn 2: Surprise is in effect (game-turns 1-2): all Communist units are in supply regardless of "
         "their situation.", "12.3 Surprise")]
    assert not [s for s in report.steps if "Chinese" in s[0] or "1-2" in s[0]]  # its own turns, its own side
    with pytest.raises(ValueError, match=r"Surprise \(12.3, game-turns 1-3\): the United Nations player has no Mobile "
                                         "Combat Phase on game-turn 3"):
        validate(kwb_combat.CombatRequest, g, scenario="naktong", attacking_side="un", phase="mobile_combat",
                 game_turn=3, attackers=[{"unit": "us-5-1m", "hex": "0504"}], defenders=[{"unit": "nk-766", "hex": "0505"}])


# -- what scenarios check refuses -------------------------------------------------------------------

@pytest.fixture
def kwb_dir(tmp_path) -> Path:
    shutil.copytree(DATA_ROOT / "kwb", tmp_path / "kwb")
    return tmp_path / "kwb"


@pytest.fixture
def spi_dir(tmp_path) -> Path:
    shutil.copytree(DATA_ROOT / "spi", tmp_path / "spi")
    return tmp_path / "spi"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if text in line)


def test_a_rule_no_code_knows_is_an_error_at_its_line(kwb_dir):
    toml = kwb_dir / "scenarios" / "changjin.toml"
    edit(toml, "[special_rules.surprise]", "[special_rules.suprise]")
    problems = check_game_dir(kwb_dir)
    assert f"kwb/scenarios/changjin.toml:{line_of(toml, '[special_rules.suprise]')}: special rule suprise: not a rule " \
           "of Korean War Battles (special_rules.toml)" in "\n".join(problems), problems


def test_a_turn_the_scenario_lacks_and_a_side_that_is_none_are_errors(kwb_dir):
    toml = kwb_dir / "scenarios" / "changjin.toml"
    edit(toml, "turns = [1, 2]\nalways_in_supply", "turns = [1, 99]\nalways_in_supply")
    edit(toml, 'no_mobile_phases = ["un"]', 'no_mobile_phases = ["usa"]')
    problems = "\n".join(check_game_dir(kwb_dir))
    assert f"changjin.toml:{line_of(toml, 'turns = [1, 99]')}: special rule surprise: turns: 99 is not a game-turn of " \
           "Changjin Reservoir (1-14)" in problems, problems
    assert "special rule surprise: no_mobile_phases: 'usa' is not a side (communist, un)" in problems


def test_spi_rules_that_do_not_fit_a_scenario_are_errors(spi_dir):
    campaign = spi_dir / "scenarios" / "campaign.toml"
    edit(campaign, 'rules_from = "intervention"', 'rules_from = "stalemate"')
    edit(spi_dir / "scenarios" / "intervention.toml", 'rr_hex = "3401"', 'rr_hex = "9999"')
    problems = "\n".join(check_game_dir(spi_dir))
    assert "special rule chinese_shock_effect: rules_from: stalemate has no special rule 'communist_always_supplied' to " \
           "take" in problems, problems
    assert "special rule un_units_off_north_edge: rr_hex: '9999' is not a hex of korea" in problems


@pytest.mark.parametrize("game", ["kwb", "spi", "holdfast", "fireandice"])
def test_the_rules_a_game_reads_are_the_rules_it_declares_applied(game):
    """The code and special_rules.toml agree: a special rule a rules module reads by name is declared
    applied (so scenarios check checks what it needs), and every applied rule is read somewhere."""
    import tomllib

    declared = tomllib.loads((DATA_ROOT / game / "special_rules.toml").read_text(encoding="utf-8"))
    applied = set(declared.get("applied", {}))
    code = "\n".join(p.read_text(encoding="utf-8") for p in (Path("adjudicator/rules") / game).glob("*.py"))
    constants = dict(re.findall(r'^([A-Z_]+) = "([a-z0-9_]+)"$', code, flags=re.M))
    for names, values in re.findall(r'^((?:[A-Z_]+, )+[A-Z_]+) = \(?\s*((?:"[a-z0-9_]+",?\s*)+)', code, flags=re.M):
        constants.update(zip(names.split(", "), re.findall(r'"([a-z0-9_]+)"', values)))
    read = set()
    for arg in re.findall(r'(?:special|rule_of|with_special_rule)\([^()]*?,\s*([A-Z_]+|"[a-z0-9_]+")\)', code):
        read.add(arg.strip('"') if arg.startswith('"') else constants.get(arg, arg))
    assert read - applied == set(), "read by the code but not declared applied"
    assert {name for name in applied if f'"{name}"' not in code and name not in constants.values()} == set()
