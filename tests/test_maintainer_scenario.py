"""The maintainer's path for a new scenario (issue 33): a copy of Pusan cut to 5 turns, added by data only
as docs/data-format.md "Adding a scenario" says, gets its module setup and turn track, passes
`scenarios check`, and the adjudicator accepts it: a game of it is created and a check rolled in it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from adjudicator.rules.kwb import combat, victory
from adjudicator.rules.spi import combat as spi_combat
from scenarios import load_game_dir
from scenarios.loader import DATA_ROOT
from test_rules_kwb_fixtures import rolled, validate


def add_scenario(game_dir: Path, copy: str, new: str, name: str, turns: int) -> None:
    """docs/data-format.md "Adding a scenario": copy a scenario's files under the new id, give it its
    id, name and order, and keep the turns (and the reinforcements) it lasts."""
    folder = game_dir / "scenarios"
    toml = (folder / f"{copy}.toml").read_text(encoding="utf-8")
    toml = re.sub(r'^id = ".*"$', f'id = "{new}"', toml, count=1, flags=re.M)
    toml = re.sub(r'^name = ".*"$', f'name = "{name}"', toml, count=1, flags=re.M)
    toml = re.sub(r"^order = \d+$", "order = 9", toml, count=1, flags=re.M)
    (folder / f"{new}.toml").write_text(toml, encoding="utf-8")
    shutil.copy(folder / f"{copy}.setup.csv", folder / f"{new}.setup.csv")
    for part in ("turns", "schedule"):
        source = folder / f"{copy}.{part}.csv"
        if source.exists():
            kept = [line for line in source.read_text(encoding="utf-8").splitlines()
                    if not re.match(r"^\d+,", line) or int(line.split(",")[0]) <= turns]
            (folder / f"{new}.{part}.csv").write_text("\n".join(kept) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """A copy of the games' data with Naktong Bulge (KWB, from Pusan, 5 turns) and SPI's Stalemate II."""
    root = tmp_path_factory.mktemp("maintainer") / "data"
    shutil.copytree(DATA_ROOT, root)
    add_scenario(root / "kwb", "pusan", "naktong", "Naktong Bulge", turns=5)
    add_scenario(root / "spi", "stalemate", "stalemate2", "Stalemate II", turns=4)
    return root


def test_kwb_and_spi_requests_accept_a_scenario_of_the_data(data):
    kwb = load_game_dir(data / "kwb")
    req = validate(combat.CombatRequest, kwb, scenario="naktong", attacking_side="communist",
                   attackers=[{"unit": "nk-6", "hex": "0101"}], defenders=[{"unit": "us-5-1m", "hex": "0201"}])
    assert combat.resolve(kwb, req, rolled([4])).outcome["combat"] is True
    with pytest.raises(ValidationError, match="unknown scenario 'nowhere'; known: changjin, naktong, pusan, seoul"):
        validate(combat.CombatRequest, kwb, scenario="nowhere", attacking_side="communist",
                 attackers=[{"unit": "nk-6", "hex": "0101"}], defenders=[{"unit": "us-5-1m", "hex": "0201"}])
    score = victory.score(kwb, validate(victory.VictoryRequest, kwb, scenario="naktong", deadpile=["rok-1"]))
    assert {s.rule for s in score.steps} >= {"12.1.3"}  # the copied schedule's own section, from its data
    spi = load_game_dir(data / "spi")
    req = validate(spi_combat.CombatRequest, spi, scenario="stalemate2", defender_hex="0201", table="meeting",
                   attackers=[{"unit": "us-d2", "hex": "0101"}], defenders=[{"unit": "nk-d1"}])
    assert req.scenario == "stalemate2"
