"""The maintainer's path for a new scenario (issue 33): a copy of Pusan cut to 5 turns, added by data only
as docs/data-format.md "Adding a scenario" says, gets its module setup and turn track, passes
`scenarios check`, and the adjudicator accepts it: a game of it is created and a check rolled in it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from lxml import etree
from pydantic import ValidationError

from adjudicator.rules.kwb import combat, victory
from adjudicator.rules.spi import combat as spi_combat
from modgen.artwork import collect_images
from modgen.build import build_entries
from modgen.buildfile import turn_track_board_name, turn_track_map_name
from scenarios import load_game_dir
from scenarios.loader import DATA_ROOT
from test_rules_kwb_fixtures import rolled, validate
from vassalfmt import read_saved_game

pytestmark = pytest.mark.server  # starts a real server process

BIN = Path(sys.executable).parent  # the project's commands: scenarios, adjudicator, adjudicator-client
PUBLISHED = "Standard Rules 7.4 Combat Results Table"


def without_tables(toml: str, drop) -> str:
    """The TOML text without the tables (header to the next header) for which `drop(header, text)` holds."""
    chunks = re.split(r"(?m)^(?=\[)", toml)
    return "".join(c for c in chunks if not (c.startswith("[") and drop(c.split("\n", 1)[0], c)))


def add_scenario(game_dir: Path, copy: str, new: str, name: str, turns: int, drop_rules: tuple[str, ...] = ()) -> None:
    """docs/data-format.md "Adding a scenario": copy a scenario's files under the new id, give it its
    id, name and order, keep the turns (and the reinforcements) it lasts, and delete the special rules
    it does not reach (`drop_rules`, with the victory entries that score them)."""
    folder = game_dir / "scenarios"
    toml = (folder / f"{copy}.toml").read_text(encoding="utf-8")
    toml = without_tables(toml, lambda header, text: any(
        header == f"[special_rules.{rule}]" or (header.startswith("[[victory.") and rule in text) for rule in drop_rules))
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
    add_scenario(root / "kwb", "pusan", "naktong", "Naktong Bulge", turns=5, drop_rules=("withdrawal",))
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


# -- the whole path, with the project's own commands and a real server ------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Served:
    """`adjudicator serve` on the maintainer's data folder (SCENARIOS_DATA), a temporary database and key."""

    def __init__(self, data: Path, workdir: Path):
        self.url = f"http://127.0.0.1:{free_port()}"
        self.env = {**os.environ, "SCENARIOS_DATA": str(data), "ADJUDICATOR_RATELIMIT_ENABLED": "false",
                    "DATABASE_URL": f"sqlite:///{workdir / 'games.sqlite3'}",
                    "ADJUDICATOR_KEY_PATH": str(workdir / "signing-key.pem")}
        self.log = workdir / "serve.log"
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [str(BIN / "adjudicator"), "serve", "--port", self.url.rsplit(":", 1)[1], "--workers", "1"],
                cwd=workdir, env=self.env, stdout=log, stderr=log, start_new_session=True)
        self.wait_for(lambda: requests.get(self.url + "/ping", timeout=5).ok)

    def wait_for(self, ready) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if ready():
                    return
            except requests.RequestException:
                pass
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        self.stop()
        pytest.fail("the server did not come up: " + self.log.read_text()[-2000:])

    def scenarios(self, system: str) -> list[str]:
        systems = requests.get(self.url + "/api/v1/systems", timeout=10).json()["systems"]
        return [s["id"] for s in next(x for x in systems if x["id"] == system)["scenarios"]]

    def client(self, *argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(BIN / "adjudicator-client"), *argv, "--server", self.url, "--json"],
                              env=self.env, capture_output=True, text=True, timeout=60)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # the group this test started, by its id
            self.process.wait(timeout=30)


def test_a_scenario_added_by_data_only_is_set_up_served_and_rolled(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA_ROOT, data)
    kwb = data / "kwb"
    add_scenario(kwb, "pusan", "naktong", "Naktong Bulge", turns=5, drop_rules=("withdrawal",))
    # ...and the published CRT with a code of its own (every cell: any die gives it).
    header = "die,1:3,1:2,1:1,2:1,3:1,4:1,5:1,6:1"
    (kwb / "tables" / "crt.csv").write_text("\n".join([header] + [f"{d}," + ",".join(["AE"] * 8) for d in range(1, 7)])
                                           + "\n", encoding="utf-8")
    with open(kwb / "tables" / "crt_results.csv", "a", encoding="utf-8") as codes:
        codes.write("AE,attacker eliminated,all,0,0,0\n")
    toml = kwb / "tables.toml"
    toml.write_text(re.sub(r'(id = "crt"\n(?:.*\n)*?)source = ".*"', rf'\1source = "{PUBLISHED}"',
                           toml.read_text(encoding="utf-8"), count=1), encoding="utf-8")
    env = {**os.environ, "SCENARIOS_DATA": str(data)}

    checked = subprocess.run([str(BIN / "scenarios"), "check", "kwb"], env=env, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr

    game = load_game_dir(kwb)  # the module build reads the same folder
    naktong = game.scenarios["naktong"]
    assert naktong.length == 5 and game.tables["crt"].citation == PUBLISHED
    entries = build_entries(game, collect_images(game, cache_dir=tmp_path / "art"), "9.9.9").entries
    saved = read_saved_game(entries["setups/naktong.vsav"]).by_id()
    assert all(p.unit in saved for p in naktong.setup if p.is_on_map and not p.is_marker)
    root = etree.fromstring(entries["buildFile.xml"])
    assert turn_track_map_name(game) in {e.get("mapName") for e in root.iter() if e.get("mapName")}
    assert turn_track_board_name(naktong) in {e.get("name") for e in root.iter()}  # its own turns

    server = Served(data, tmp_path)
    try:
        said = server.log.read_text()
        assert f"game data {data}: " in said and "kwb (4 scenarios)" in said
        assert f"kill -HUP {server.process.pid}" in said  # how to make a running server read edited data
        assert server.scenarios("kwb") == ["pusan", "seoul", "changjin", "naktong"]

        created = server.client("new-game", "kwb", "naktong")
        assert created.returncode == 0, created.stderr
        new = json.loads(created.stdout)
        situation = tmp_path / "attack.json"
        situation.write_text(json.dumps({"attacking_side": "communist", "attackers": [{"unit": "nk-6", "hex": "0101"}],
                                         "defenders": [{"unit": "us-5-1m", "hex": "0201"}]}), encoding="utf-8")
        rolled_ = server.client("roll", new["game_id"], "combat", str(situation), "--token", new["tokens"]["communist"])
        assert rolled_.returncode == 0, rolled_.stderr
        ruling = json.loads(rolled_.stdout)
        assert ruling["outcome"]["result"] == "AE" and ruling["outcome"]["attackers"][0]["step"] == "deadpile"
        assert any(s["rule"].startswith(PUBLISHED) for s in ruling["steps"])
        assert not [s for s in ruling["steps"] if "tables/crt.csv" in (s["rule"] or "")]
        # It has Pusan's special rules, so it has Pusan's own rolls: the UN's end-of-turn shortage roll.
        shortage = tmp_path / "shortage.json"
        shortage.write_text(json.dumps({"game_turn": 1}), encoding="utf-8")
        ended = server.client("roll", new["game_id"], "un_supply_shortage_end", str(shortage),
                              "--token", new["tokens"]["un"])
        assert ended.returncode == 0, ended.stderr

        # A scenario added while it runs is not served until the server reads the data again (SIGHUP).
        add_scenario(kwb, "changjin", "yalu", "Yalu", turns=3)
        refused = server.client("new-game", "kwb", "yalu")
        assert refused.returncode == 1 and "yalu" not in server.scenarios("kwb")
        os.kill(server.process.pid, signal.SIGHUP)
        # a new worker serves it; an old one, still finishing after the SIGHUP, may answer once more
        # with the data it had: the game is made once a worker with the new data takes the request
        server.wait_for(lambda: server.client("new-game", "kwb", "yalu").returncode == 0)
    finally:
        server.stop()
