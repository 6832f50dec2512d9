"""NK 83's attack on US 27/25 (KWB, Pusan): the combat the rewind and repeat tests ask twice
(tests/test_vassal_rewinds.py, tests/test_vassal_asked_before.py, which import the fixtures
`attack` and `server`), and an adjudicator whose Pusan games roll it AD the first time (record 1,
NK 83 depleted) and AR the second (record 2)."""

from __future__ import annotations

import pytest

from adjudicator.checks import get_check
from adjudicator.testing import seed_for, seeds_env
from bench.server import Gunicorn
from tests.engine.play import board_request

ATTACKER, DEFENDER, DEFENDER_HEX = "nk-83-mot", "us-27-25", "0205"


@pytest.fixture(scope="module")
def attack(modules) -> dict:
    """The combat's request as the board asks it (no dice), intensive combat not declared."""
    setup = modules[("kwb", 1)][2]["setups/pusan.vsav"]
    return board_request("kwb", "pusan", setup, "combat", "communist", [ATTACKER], DEFENDER_HEX, {"intensive": "none"})


@pytest.fixture(scope="module")
def server(tmp_path_factory, attack):
    """A real adjudicator (gunicorn, its own SQLite file) whose Pusan games roll the attack AD as
    record 1 and AR as record 2."""
    spec = get_check("kwb", "combat")
    seed = seed_for((spec, attack, lambda o: o["result"] == "AD", 1), (spec, attack, lambda o: o["result"] == "AR", 2))
    running = Gunicorn(workdir=tmp_path_factory.mktemp("pusan-attack-adjudicator"),
                       app="adjudicator.testing:make_test_app()", extra_env=seeds_env({"kwb/pusan": seed})).start()
    yield running
    running.stop()
